"""The leak probe: two games that differ only in the viewer's own cards and the undealt deck
must look exactly the same to that viewer; and a search of what the viewer gets finds none
of the cards they cannot see. The page checks are here whole, so that the same checks run
on freshly rendered pages (tests/games/test_hidden_information.py) and on cached ones
(tests/games/test_turn_page_cache.py); the pieces serve the emails' and the look back's
probes."""

import re

from games.engine import GameOptions, new_deck
from games.models import Game
from games.services import play
from tests.games.conftest import make_user, start_game

HTMX = {"HTTP_HX_REQUEST": "true"}
SEED = 4242


def viewer_urls(game: Game) -> list[tuple[str, dict]]:
    return [
        (f"/games/{game.pk}/", {}),
        (f"/games/{game.pk}/", HTMX),
        (f"/games/{game.pk}/poll/?status=playing&v=0", HTMX),  # an old page: the new table
        (f"/games/{game.pk}/export.json", {}),
        (f"/games/{game.pk}/replay/0/", {}),
        (f"/games/{game.pk}/analysis/", HTMX),
        (f"/games/{game.pk}/as-seen/0/", {}),  # looking back (tests/games/test_look_back.py)
        (f"/games/{game.pk}/as-seen/0/", HTMX),
        (f"/games/{game.pk}/as-seen/1/", {}),
        # The spectator view, refused to a player (tests/spectators/): refused alike.
        (f"/games/{game.pk}/watch/", {}),
        (f"/games/{game.pk}/watch/?v=0", HTMX),
        ("/", {}),
    ]


def normalise(text: str, game: Game) -> str:
    text = re.sub(r"csrfmiddlewaretoken\" value=\"[^\"]+\"", "csrf", text)
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "csrf", text)
    # The push stream's pass is signed at each render (games/push_token.py: no card in it).
    text = re.sub(r'data-events="[^"]+"', "events", text)
    text = text.replace(f"/games/{game.pk}/", "/games/N/").replace(f"Game {game.pk}", "Game N")
    text = text.replace(f"Partie {game.pk}", "Partie N")  # German and French (issue 29)
    return text.replace(game.invite_code, "CODE")


def hide_swapped_deck(deck: list, hidden_ids: list[int]) -> list:
    """The same deck with the viewer's hand exchanged for cards from the bottom of the deck,
    picked so that every card the viewer can see stays where it was."""
    swapped = [list(card) for card in deck]
    bottom = list(range(len(deck) - 1, len(deck) - 1 - len(hidden_ids), -1))
    for mine, other in zip(hidden_ids, bottom, strict=True):
        swapped[mine], swapped[other] = swapped[other], swapped[mine]
    return swapped


def normalise_email(text: str, game: Game) -> str:
    text = re.sub(r"https?://[^\s\"<>]+", "URL", text)
    text = re.sub(rf"\b(game|partie|hanabi) {game.pk}\b", r"\1 N", text, flags=re.IGNORECASE)
    # The deadlines differ by the seconds between the two starts ("Tue 24 Nov, 09:12 UTC",
    # "Di 24 Nov, …", "mar. 24 nov., …": issue 29's languages).
    return re.sub(r"\w{2,4}\.? \d{1,2} \w{3,4}\.?, \d\d:\d\d \w+", "DEADLINE", text)


def same_clue(game_a: Game, game_b: Game, viewer_seat: int) -> dict:
    """A clue to the viewer that touches the same slots in both games (else one to seat 2)."""
    state_a, state_b = game_a.load_state(), game_b.load_state()
    for rank in range(1, 6):
        touches = state_a.clue_touches(viewer_seat, rank=rank)
        if touches and touches == state_b.clue_touches(viewer_seat, rank=rank):
            return {"type": "clue", "target": viewer_seat, "rank": rank}
    return {"type": "clue", "target": 2, "rank": state_a.card(state_a.hand(2)[0]).rank}


# How an email shows a face-up card: "3 R4" in a hand's line (slot, code), or the HTML card
# with its name as a title. What a player knows of their own cards is written otherwise
# ("can be R1 R2 R3", "clued red, 4"), and the history names only cards everyone saw.
def shown_in_text(code: str) -> re.Pattern:
    return re.compile(rf"(?<!\S)\d {code}\b")


def local_code(card, language: str) -> str:
    """The card's code as an email in ``language`` writes it: "Gr3" for green 3 in German,
    whose "G3" is yellow 3 (games.text_commands.local_letters)."""
    from games.text_commands import local_letters

    return local_letters(language)[card.code[0]] + card.code[1:]


def speaking(language: str, users: list) -> list:
    """The users, with the language their pages are shown in (their profile's)."""
    for user in users:
        user.language = language
        user.save(update_fields=["language"])
    return users


def local_name(card, language: str) -> str:
    """The card's name in the reader's language ('rot 3', 'rouge 3', 'red 3')."""
    from django.utils import translation

    from games.wording import card_name

    with translation.override(language):
        return card_name(card.suit_name, card.rank)


def card_names(card, language: str) -> set[str]:
    """The card's name as the engine writes it and as the reader's language does."""
    return {card.name, local_name(card, language)}


def assert_pages_do_not_depend_on_own_cards(client, language: str = "en") -> None:
    """Every response the viewer can fetch is the same in two games that differ only in the
    viewer's own cards (and the deck's bottom), in the viewer's language."""
    users = speaking(language, [make_user(name) for name in ("ann", "ben", "cid")])
    options = GameOptions(players=3)
    deck = [list(card) for card in new_deck(options, SEED)]
    game_a = start_game(*users, deck=deck, seed=SEED)
    viewer_seat = 1
    viewer = game_a.seats.get(position=viewer_seat).user
    own = list(game_a.load_state().hand(viewer_seat))
    deck_b = hide_swapped_deck(deck, own)
    assert [deck[i] for i in own] != [deck_b[i] for i in own]
    game_b = start_game(*users, deck=deck_b, seed=SEED)

    # Seat 0 clues the viewer, so the viewer's cards carry knowledge too; the same clue is
    # legal in both games only if it touches the same slots, so pick a rank both agree on.
    state_a, state_b = game_a.load_state(), game_b.load_state()
    for rank in range(1, 6):
        if state_a.clue_touches(viewer_seat, rank=rank) == state_b.clue_touches(
            viewer_seat, rank=rank
        ) and state_a.clue_touches(viewer_seat, rank=rank):
            clue = {"type": "clue", "target": viewer_seat, "rank": rank}
            break
    else:
        clue = {"type": "clue", "target": 2, "rank": state_a.card(state_a.hand(2)[0]).rank}
    for game in (game_a, game_b):
        play.submit_action(game.pk, game.seats.get(position=0).user, clue, 0)

    client.force_login(viewer)
    for url_a, headers in viewer_urls(game_a):
        url_b = url_a.replace(f"/games/{game_a.pk}/", f"/games/{game_b.pk}/")
        response_a = client.get(url_a, **headers)
        response_b = client.get(url_b, **headers)
        assert response_a.status_code == response_b.status_code, url_a
        if url_a == "/":
            continue  # the lobby lists both games; checked for card names below
        assert normalise(response_a.content.decode(), game_a) == normalise(
            response_b.content.decode(), game_b
        ), url_a

    # The comparison can fail: the player beside the viewer sees the swapped cards.
    client.force_login(game_a.seats.get(position=0).user)
    page_a = client.get(f"/games/{game_a.pk}/").content.decode()
    page_b = client.get(f"/games/{game_b.pk}/").content.decode()
    assert normalise(page_a, game_a) != normalise(page_b, game_b)


def assert_pages_name_no_hidden_card(client, language: str = "en") -> None:
    """Search every response for the viewer's own cards, named as the pages name cards in
    the viewer's language."""
    users = speaking(language, [make_user(name) for name in ("ann", "ben")])
    game = start_game(*users, seed=SEED)
    state = game.load_state()
    viewer_seat = 0
    viewer = game.seats.get(position=viewer_seat).user
    visible = {state.card(cid) for cid in state.hand(1 - viewer_seat)}
    hidden = [state.card(cid) for cid in state.hand(viewer_seat)]
    hidden += [state.card(cid) for cid in range(state.cards_drawn, len(state.deck))]
    never_seen = {card for card in hidden if card not in visible}
    assert never_seen, "the deal should leave some card unseen by the viewer"
    client.force_login(viewer)
    for url, headers in viewer_urls(game):
        body = client.get(url, **headers).content.decode()
        for card in never_seen:
            for name in card_names(card, language):
                assert f"{name}<" not in body, (url, card)
            assert f'"code": "{card.code}"' not in body, (url, card)
    # The search finds what is shown: the teammate's cards, named in the viewer's language.
    page = client.get(f"/games/{game.pk}/").content.decode()
    for card in visible:
        assert f"{local_name(card, language)}<" in page, card
