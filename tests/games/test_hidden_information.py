"""A player never receives their own cards or the deck order before the game ends.

The strongest check: two games that differ only in the viewer's own cards and the undealt
deck must look exactly the same to that viewer, in every response the viewer can fetch.
"""

import re

import pytest
from django.test import Client
from django.utils import timezone

from games.engine import GameOptions, action_to_dict, new_deck
from games.models import Game, SpectatorPolicy
from games.services import play
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, make_user, start_game
from tests.games.leak_probe import (
    HTMX,
    SEED,
    assert_pages_do_not_depend_on_own_cards,
    assert_pages_name_no_hidden_card,
    card_names,
    hide_swapped_deck,
    local_code,
    normalise,
    normalise_email,
    same_clue,
    shown_in_text,
    viewer_urls,
)
from tests.mail import html_body


# The web pages in every language a player may choose (issue 29): the table's words, card
# names and history differ, and a hidden card must not show in any of them.
@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_a_players_pages_do_not_depend_on_their_own_cards(client, db, language, translated):
    assert_pages_do_not_depend_on_own_cards(client, language)


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_page_names_no_hidden_card(client, db, language, translated):
    assert_pages_name_no_hidden_card(client, language)


def test_no_download_and_no_replay_before_the_end(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/export.json").status_code == 404
    assert client.get(f"/games/{game.pk}/replay/0/").status_code == 404
    play.submit_action(
        game.pk,
        game.seats.get(position=game.current_seat).user,
        action_to_dict(game.load_state().legal_actions()[-1]),
        0,
    )
    assert client.get(f"/games/{game.pk}/replay/0/").status_code == 404


# -- the turn email and the reminder -------------------------------------------------------


def _turn_emails(game: Game, viewer, mailoutbox) -> list[tuple[str, str, str]]:
    """(subject, text, HTML) of the turn email and the reminder the viewer gets now."""
    mailoutbox.clear()
    rows = Outbox.objects.filter(
        kind__in=["your_turn", "reminder"], payload__game=game.pk, done_at=None
    )
    rows.update(due_at=timezone.now())
    for pk in rows.values_list("pk", flat=True):
        delivery.run(pk)
    messages = [m for m in mailoutbox if m.to == [viewer.email]]
    # The turn email first, then the reminder (issue 29: in the viewer's language).
    messages.sort(key=lambda m: m.subject.startswith(REMINDER[viewer.language]))
    assert [m.subject.startswith(REMINDER[viewer.language]) for m in messages] == [False, True]
    return [(m.subject, m.body, html_body(m)) for m in messages]


# The reminder's subject and the reader's own hand in each language (issue 29): the emails
# are checked in every language a player may choose.
REMINDER = {"en": "Reminder:", "de": "Erinnerung:", "fr": "Rappel :"}
YOUR_HAND = {"en": "Your hand", "de": "Deine Hand", "fr": "Ta main"}
LANGUAGES = pytest.mark.parametrize("language", ["en", "de", "fr"])


def speaking(language: str, *users) -> list:
    for user in users:
        user.language = language
        user.save(update_fields=["language"])
    return list(users)


@LANGUAGES
def test_the_turn_emails_do_not_depend_on_the_readers_own_cards(
    db, settings, mailoutbox, language, translated
):
    """As for the pages: two games that differ only in the reader's own cards and the deck
    send the reader the same turn email and reminder, text and HTML."""
    settings.NOTIFY_DELAY_SECONDS = 0
    users = speaking(language, *[make_user(name) for name in ("ann", "ben", "cid")])
    deck = [list(card) for card in new_deck(GameOptions(players=3), SEED)]
    game_a = start_game(*users, deck=deck, seed=SEED, turn_time_limit=24)
    viewer_seat = 1
    viewer = game_a.seats.get(position=viewer_seat).user
    own = list(game_a.load_state().hand(viewer_seat))
    deck_b = hide_swapped_deck(deck, own)
    game_b = start_game(*users, deck=deck_b, seed=SEED, turn_time_limit=24)
    clue = same_clue(game_a, game_b, viewer_seat)
    for game in (game_a, game_b):
        play.submit_action(game.pk, game.seats.get(position=0).user, clue, 0)

    emails_a = _turn_emails(game_a, viewer, mailoutbox)
    emails_b = _turn_emails(game_b, viewer, mailoutbox)
    for email_a, email_b in zip(emails_a, emails_b, strict=True):
        for part_a, part_b in zip(email_a, email_b, strict=True):
            assert normalise_email(part_a, game_a) == normalise_email(part_b, game_b)
    # There was something to compare: the table, with the viewer's slots and others' cards.
    names = game_a.seat_names()
    own = f"{YOUR_HAND[language]} (2 {names[1]})"
    assert own in emails_a[1][1] and f"\n3 {names[2]}:" in emails_a[1][1]


@LANGUAGES
def test_the_turn_emails_name_no_hidden_card(db, settings, mailoutbox, language, translated):
    """Search the turn email and the reminder, text and HTML, for the reader's own cards
    (and the deck's) whose identity shows nowhere else to the reader."""
    settings.NOTIFY_DELAY_SECONDS = 0
    users = speaking(language, *[make_user(name) for name in ("ann", "ben")])
    game = start_game(*users, seed=SEED, turn_time_limit=24)
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
    play.submit_action(game.pk, game.seats.get(position=0).user, action_to_dict(clue), 0)
    viewer_seat = 1
    viewer = game.seats.get(position=viewer_seat).user
    state = game.load_state()
    visible = {state.card(cid) for cid in state.hand(1 - viewer_seat)}
    hidden = [state.card(cid) for cid in state.hand(viewer_seat)]
    hidden += [state.card(cid) for cid in range(state.cards_drawn, len(state.deck))]
    never_seen = {card for card in hidden if card not in visible}
    assert any(state.card(cid) in never_seen for cid in state.hand(viewer_seat))
    emails = _turn_emails(game, viewer, mailoutbox)
    for subject, text, html in emails:
        for card in visible:  # the search finds what is shown
            assert shown_in_text(local_code(card, language)).search(text)
            assert any(f'title="{name}"' in html for name in card_names(card, language))
        for card in never_seen:
            for name in card_names(card, language):
                for body in (subject, text, html):
                    assert name not in body, card
                assert f'title="{name}"' not in html, card
            # The code in the reader's letters: in French "B3" is blanc 3, which may be
            # shown, whatever blue 3's English code.
            code = local_code(card, language)
            assert not shown_in_text(code).search(text), card
            assert f">{code}<" not in html, card


# -- what a teammate knows (empathy), and notes --------------------------------------------


def test_a_teammates_empathy_does_not_depend_on_the_viewers_own_cards(client, db):
    """Empathy shows what a teammate knows of their card from its clues and the public cards
    alone. The teammate also sees the viewer's hand: had their count of it been used, the
    viewer's only red 5 would be counted out of the teammate's red card in one game and not
    in the other, telling the viewer what they hold."""
    from tests.games.helpers import deck

    users = [make_user(name) for name in ("ann", "ben", "cid")]
    # Three players, five cards each: seat 0 ids 0-4, the viewer (seat 1) ids 5-9, seat 2
    # ids 10-14. The viewer holds the only red 5.
    deck_a = deck("Y1 Y2 G1 G2 B1  R5 W1 W2 W3 B3  R1 R2 Y3 G3 B4")
    viewer_seat, own = 1, list(range(5, 10))
    deck_b = hide_swapped_deck(deck_a, own)
    assert [5, 5] not in [deck_b[i] for i in own]
    games = [start_game(*users, deck=d, seed=SEED) for d in (deck_a, deck_b)]
    red = {"type": "clue", "target": 2, "colour": "red"}
    pages = []
    for game in games:
        play.submit_action(game.pk, game.seats.get(position=0).user, red, 0)
        client.force_login(game.seats.get(position=viewer_seat).user)
        pages.append(normalise(client.get(f"/games/{game.pk}/").content.decode(), game))
    assert pages[0] == pages[1]
    # There was something to compare: the teammate's red cards, red 5 still possible.
    teammate = games[0].seat_names()[2]
    assert pages[0].count(f"{teammate} knows it could be R1, R2, R3, R4, R5.") == 2
    # And it is the holder's own knowledge that would differ: they see the viewer's red 5.
    from games.engine import spectator_view

    holder_view = spectator_view(games[0].load_state())
    red_one = next(c for c in holder_view["hands"][2]["cards"] if c["id"] == 10)
    assert "R5" not in red_one["possible_counted"]


def test_notes_on_own_cards_do_not_depend_on_the_writers_cards(client, db):
    """A note is the writer's own text: the page it comes back with, and every later page,
    is the same whatever the writer's cards are."""
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    deck = [list(card) for card in new_deck(GameOptions(players=3), SEED)]
    game_a = start_game(*users, deck=deck, seed=SEED)
    viewer_seat = 1
    own = list(game_a.load_state().hand(viewer_seat))
    game_b = start_game(*users, deck=hide_swapped_deck(deck, own), seed=SEED)
    client.force_login(game_a.seats.get(position=viewer_seat).user)
    responses = []
    for game in (game_a, game_b):
        for card, text in ((own[0], "r5 f"), (own[1], "kt"), (len(deck) - 1, "deck?")):
            response = client.post(f"/games/{game.pk}/note/", {"card": card, "note": text}, **HTMX)
            responses.append(normalise(response.content.decode(), game))
    assert responses[:3] == responses[3:]
    assert "That card is not on the table" in responses[2]


# -- spectators ----------------------------------------------------------------------------


def same_but_the_deadline(page_a: str, page_b: str) -> bool:
    """The twin games' deadlines differ by the moments between their moves (as in their
    emails: normalise_email); the rest of the pages must not."""
    deadline = re.compile(r'<time datetime="[^"]+">[^<]+</time> \([^;]+ left;')
    found = [deadline.findall(page) for page in (page_a, page_b)]
    assert len(found[0]) == len(found[1]) <= 1
    return deadline.sub("DEADLINE", page_a) == deadline.sub("DEADLINE", page_b)


@pytest.mark.slow
def test_a_spectator_changes_nothing_a_player_sees_or_receives(client, db, settings, mailoutbox):
    """Twin games, the same deal and the same moves, open to spectators: someone watches one
    of them (the page and its poll, before and after every move) and nobody the other. Every
    page each player can fetch and every email each gets are the same in both."""
    settings.NOTIFY_DELAY_SECONDS = 0
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    deck = [list(card) for card in new_deck(GameOptions(players=3), SEED)]
    games = [start_game(*users, deck=deck, seed=SEED, turn_time_limit=24) for _ in range(2)]
    Game.objects.filter(pk__in=[g.pk for g in games]).update(spectators=SpectatorPolicy.DURING)
    watched, unwatched = games
    spectator = Client()
    spectator.force_login(make_user("sam"))

    def watch() -> None:
        page = spectator.get(f"/games/{watched.pk}/watch/")
        assert page.status_code == 200 and page.content.count(b"data-card-id") == 15
        assert spectator.get(f"/games/{watched.pk}/watch/?v=0", **HTMX).status_code == 200

    watch()
    for turn in range(3):
        clue = action_to_dict(
            next(a for a in watched.load_state().legal_actions() if type(a).__name__ == "Clue")
        )
        for game in games:
            play.submit_action(game.pk, current_user(game), clue, turn)
        watch()

    emails = [_turn_emails(game, current_user(game), mailoutbox) for game in games]
    for email_a, email_b in zip(*emails, strict=True):
        for part_a, part_b in zip(email_a, email_b, strict=True):
            assert normalise_email(part_a, watched) == normalise_email(part_b, unwatched)
    for game in games:
        game.refresh_from_db()
    assert watched.version == unwatched.version
    for position in range(3):
        client.force_login(watched.seats.get(position=position).user)
        for url_a, headers in viewer_urls(watched):
            if url_a == "/":
                continue  # the lobby lists both games
            url_b = url_a.replace(f"/games/{watched.pk}/", f"/games/{unwatched.pk}/")
            response_a, response_b = client.get(url_a, **headers), client.get(url_b, **headers)
            assert response_a.status_code == response_b.status_code, url_a
            assert same_but_the_deadline(
                normalise(response_a.content.decode(), watched),
                normalise(response_b.content.decode(), unwatched),
            ), (position, url_a)
        # The poll of a page showing the game now: unchanged (204) in both.
        for game in games:
            poll = f"/games/{game.pk}/poll/?status=playing&v={game.version}"
            assert client.get(poll, **HTMX).status_code == 204
    # The outbox wrote the same rows for both games: nothing more for the watched one.
    rows = [
        sorted(Outbox.objects.filter(payload__game=g.pk).values_list("kind", flat=True))
        for g in games
    ]
    assert rows[0] == rows[1] and rows[0]
