"""Hidden information and rearranging (issue 27): moving a card never tells its holder what
it is. Two games that differ only in the mover's own cards (and the deck's bottom) give the
mover the same answer to the rearranging form, the same pages afterwards and the same turn
email; and the history entry carries slots, never a card."""

import pytest
from django.utils import timezone

from games.engine import GameOptions, new_deck, view_for
from games.services import play, rearrange
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import make_user, start_game
from tests.games.leak_probe import (
    HTMX,
    SEED,
    hide_swapped_deck,
    normalise,
    normalise_email,
    same_clue,
    viewer_urls,
)
from tests.mail import html_body

VIEWER = 1  # seat 1 moves cards; seat 0 is to move first


def two_games(**extra):
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    options = GameOptions(players=3)
    deck = [list(card) for card in new_deck(options, SEED)]
    game_a = start_game(*users, deck=deck, seed=SEED, rearrange=True, **extra)
    own = list(game_a.load_state().hand(VIEWER))
    deck_b = hide_swapped_deck(deck, own)
    assert [deck[i] for i in own] != [deck_b[i] for i in own]
    game_b = start_game(*users, deck=deck_b, seed=SEED, rearrange=True, **extra)
    return game_a, game_b, game_a.seats.get(position=VIEWER).user


@pytest.mark.django_db
def test_the_movers_answer_and_pages_do_not_depend_on_their_own_cards(client):
    game_a, game_b, viewer = two_games()
    clue = same_clue(game_a, game_b, VIEWER)
    client.force_login(viewer)
    answers = []
    for game in (game_a, game_b):
        play.submit_action(game.pk, game.seats.get(position=0).user, clue, 0)
        hand = ",".join(map(str, game.load_state().hand(VIEWER)))
        response = client.post(
            f"/games/{game.pk}/rearrange/", {"from": 5, "to": 1, "hand": hand}, **HTMX
        )
        assert response.status_code == 200
        answers.append(normalise(response.content.decode(), game))
    assert answers[0] == answers[1]
    assert "moves a card from slot 5 to slot 1" in answers[0]
    for url_a, headers in viewer_urls(game_a):
        if url_a == "/":
            continue  # the lobby lists both games
        url_b = url_a.replace(f"/games/{game_a.pk}/", f"/games/{game_b.pk}/")
        page_a = client.get(url_a, **headers)
        page_b = client.get(url_b, **headers)
        assert page_a.status_code == page_b.status_code, url_a
        assert normalise(page_a.content.decode(), game_a) == normalise(
            page_b.content.decode(), game_b
        ), url_a
    # The comparison can fail: the player beside the viewer sees the moved cards.
    client.force_login(game_a.seats.get(position=0).user)
    seen_a = client.get(f"/games/{game_a.pk}/").content.decode()
    seen_b = client.get(f"/games/{game_b.pk}/").content.decode()
    assert normalise(seen_a, game_a) != normalise(seen_b, game_b)


@pytest.mark.django_db
def test_the_movers_turn_email_does_not_depend_on_their_own_cards(settings, mailoutbox):
    settings.NOTIFY_DELAY_SECONDS = 0
    game_a, game_b, viewer = two_games(turn_time_limit=24)
    clue = same_clue(game_a, game_b, VIEWER)
    bodies = []
    for game in (game_a, game_b):
        state = game.load_state()
        rearrange.rearrange_hand(game.pk, viewer, 5, 1, list(state.hand(VIEWER)))
        play.submit_action(game.pk, game.seats.get(position=0).user, clue, 0)
        mailoutbox.clear()
        rows = Outbox.objects.filter(kind="your_turn", payload__game=game.pk, done_at=None)
        rows.update(due_at=timezone.now())
        for pk in rows.values_list("pk", flat=True):
            delivery.run(pk)
        (message,) = [m for m in mailoutbox if m.to == [viewer.email]]
        parts = (message.subject, message.body, html_body(message))
        bodies.append([normalise_email(part, game) for part in parts])
    assert bodies[0] == bodies[1]
    assert "moves a card from slot 5 to slot 1" in bodies[0][1].replace("\n  ", " ")


@pytest.mark.django_db
def test_the_history_entry_of_a_rearrangement_names_no_card(client):
    game_a, _, viewer = two_games()
    state = game_a.load_state()
    moved = state.card(state.hand(VIEWER)[4])
    rearrange.rearrange_hand(game_a.pk, viewer, 5, 1, list(state.hand(VIEWER)))
    game_a.refresh_from_db()
    entry = view_for(game_a.load_state(), VIEWER)["history"][-1]
    assert entry["type"] == "rearrange"
    assert not {"card", "suit", "rank", "code"} & set(entry)
    assert moved.name not in entry["text"] and moved.code not in entry["text"]
