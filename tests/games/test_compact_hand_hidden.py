"""Hidden information on the first screen of issue 27: the viewer's own cards drawn as backs
with pips, the grid shown on demand over the table, and the empathy drawn over a teammate's
cards never tell the viewer what they hold. Twin games that differ only in the viewer's own
cards (and the deck's bottom) give the same hand, grid and empathy, in the turn page and in
the poll's table; and a search of them finds none of the viewer's cards' faces."""

import re

from games.engine import GameOptions, new_deck
from games.engine.cards import SUIT_LETTERS
from games.services import play
from tests.games.conftest import make_user, start_game
from tests.games.leak_probe import HTMX, SEED, hide_swapped_deck, normalise, same_clue

VIEWER = 1


def _own_hand(page: str) -> str:
    match = re.search(r'<section class="hand[^"]* mine"(.*?)</section>', page, re.S)
    assert match, "the viewer's hand is on the page"
    return match.group(1)


def _empathy(page: str) -> list[str]:
    return re.findall(r'<span class="empathy-face">(.*?)</span></span></span>', page, re.S)


def _pages(client, game) -> list[str]:
    return [
        normalise(client.get(url, **headers).content.decode(), game)
        for url, headers in (
            (f"/games/{game.pk}/", {}),
            (f"/games/{game.pk}/poll/?status=playing&v=0", HTMX),
        )
    ]


def test_the_compact_hand_its_grid_and_empathy_do_not_depend_on_own_cards(client, db):
    users = [make_user(name) for name in ("ann", "ben", "cid")]
    deck = [list(card) for card in new_deck(GameOptions(players=3), SEED)]
    game_a = start_game(*users, deck=deck, seed=SEED)
    own = list(game_a.load_state().hand(VIEWER))
    game_b = start_game(*users, deck=hide_swapped_deck(deck, own), seed=SEED)
    clue = same_clue(game_a, game_b, VIEWER)
    for game in (game_a, game_b):
        play.submit_action(game.pk, game.seats.get(position=0).user, clue, 0)
    client.force_login(game_a.seats.get(position=VIEWER).user)
    pages_a, pages_b = _pages(client, game_a), _pages(client, game_b)

    for page_a, page_b in zip(pages_a, pages_b, strict=True):
        hand_a, hand_b = _own_hand(page_a), _own_hand(page_b)
        # There is something to compare: pips, the grid on demand, the card's sentence.
        assert hand_a.count('class="pips"') == 5 and hand_a.count('class="grid-pop"') == 5
        assert hand_a.count("Could be ") == 5
        assert hand_a == hand_b
        # The viewer's cards have no face at all: backs only.
        assert "card-face" not in hand_a
        empathy_a, empathy_b = _empathy(page_a), _empathy(page_b)
        assert len(empathy_a) == 10  # both teammates' five cards
        assert empathy_a == empathy_b

    # The search: no face of a card the viewer holds and cannot see anywhere else.
    state = game_a.load_state()
    seen = {state.card(cid) for seat in (0, 2) for cid in state.hand(seat)}
    hidden = {state.card(cid) for cid in state.hand(VIEWER)} - seen
    assert hidden, "the deal leaves some of the viewer's cards unseen"
    for page in pages_a:
        for card in hidden:
            letter = SUIT_LETTERS[card.suit]
            face = f'<span class="letter">{letter}</span>{card.rank}</span>'
            assert face not in page and f"{card.name}<" not in page, card

    # The comparison can fail: the teammate beside the viewer sees the swapped cards.
    client.force_login(game_a.seats.get(position=0).user)
    hands = [
        re.findall(
            rf'<li class="card[^"]*" data-card-id="(?:{"|".join(map(str, own))})".*?</li>',
            client.get(f"/games/{game.pk}/").content.decode(),
            re.S,
        )
        for game in (game_a, game_b)
    ]
    assert hands[0] and hands[0] != hands[1]
