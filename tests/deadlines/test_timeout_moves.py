"""The move a bot makes for an absent player sees only that player's view. (The bot's
conventions are tested in tests/bots.)"""

from games import tasks
from games.bots import choose_action
from games.engine import (
    SUITS,
    Card,
    Clue,
    Discard,
    GameOptions,
    action_to_dict,
    deck_composition,
    new_deck,
    new_game,
    replay,
    view_for,
)
from games.models import MadeBy, Move
from games.services import play
from tests.deadlines.conftest import make_overdue, timed_game
from tests.games.conftest import make_user

TWO = GameOptions(players=2)


def swap_own_cards(deck: list, own: list[int]) -> list:
    """The same deck with `own` (the viewer's hand) exchanged for cards from the bottom of
    the deck, so every card the viewer can see stays where it was
    (as tests/games/test_hidden_information.py does)."""
    swapped = [list(card) for card in deck]
    bottom = range(len(deck) - 1, len(deck) - 1 - len(own), -1)
    for mine, other in zip(own, bottom, strict=True):
        swapped[mine], swapped[other] = swapped[other], swapped[mine]
    return swapped


def deck_starting_with(*cards: tuple[str, int]) -> list[list[int]]:
    """A full deck of the 5-suit game whose first cards are these (suit name, rank); the
    rest in the composition's order. Two players: ids 0-4 are seat 0's, 5-9 seat 1's, and
    the newest card of a hand (slot 1) is the highest id."""
    rest = list(deck_composition(0))
    first = []
    for suit, rank in cards:
        card = Card(SUITS.index(suit), rank)
        rest.remove(card)
        first.append(card)
    return [list(card) for card in first + rest]


# -- it never sees hidden information ------------------------------------------------------


def test_the_bots_move_does_not_depend_on_the_players_own_cards():
    """Two deals that differ only in the current player's own cards (and the bottom of the
    deck) get the same move, seed after seed, at the start (no discard allowed) and after a
    clue (discard allowed)."""
    after_a_clue = 0
    own_cards_differed = 0
    for seed in range(1, 41):
        deck = [list(card) for card in new_deck(TWO, seed)]
        swapped = swap_own_cards(deck, [0, 1, 2, 3, 4])
        state_a, state_b = new_game(TWO, deck=deck), new_game(TWO, deck=swapped)
        own_cards_differed += any(state_a.card(c) != state_b.card(c) for c in state_a.hand(0))
        assert choose_action(view_for(state_a, 0)) == choose_action(view_for(state_b, 0))

        # Seat 1 is to move after seat 0's clue; swap seat 1's cards instead. The clue must
        # touch the same cards in both deals, or the two views would rightly differ.
        swapped = swap_own_cards(deck, [5, 6, 7, 8, 9])
        state_a, state_b = new_game(TWO, deck=deck), new_game(TWO, deck=swapped)
        touches_b = dict(state_b.possible_clues(0))
        clue = next((c for c, t in state_a.possible_clues(0) if touches_b.get(c) == t), None)
        if clue is None:
            continue
        state_a.apply(clue)
        state_b.apply(clue)
        assert choose_action(view_for(state_a, 1)) == choose_action(view_for(state_b, 1))
        after_a_clue += 1
    assert own_cards_differed > 30 and after_a_clue > 10


def test_a_timeout_makes_the_same_move_in_games_that_differ_only_in_the_absent_players_cards(
    db,
):
    """The same, end to end: two games, the same players and seed, decks that differ only
    in the absent player's own cards; the sweep makes the same move in both. One of the two
    hands holds a playable 1 and the other does not, so a policy that peeked would differ."""
    users = [make_user(name) for name in ("ann", "ben")]
    for seed in range(1, 200):
        deck = [list(card) for card in new_deck(TWO, seed)]
        swapped = swap_own_cards(deck, [0, 1, 2, 3, 4])
        ones = [sum(card[1] == 1 for card in d[:5]) for d in (deck, swapped)]
        if ones[0] and not ones[1]:
            break
    else:
        raise AssertionError("no seed deals the absent player a 1 in one deck only")
    game_a = timed_game(*users, deck=deck, seed=seed)
    game_b = timed_game(*users, deck=swapped, seed=seed)
    assert game_a.current_seat == game_b.current_seat == 0
    make_overdue(game_a)
    make_overdue(game_b)

    assert tasks.sweep_deadlines() == 2

    move_a, move_b = Move.objects.get(game=game_a), Move.objects.get(game=game_b)
    assert move_a.made_by == move_b.made_by == MadeBy.TIMEOUT
    assert move_a.action == move_b.action


def test_the_timeout_plays_through_the_seats_view(db):
    """The service asks the policy with the absent seat's view and nothing else."""
    users = [make_user(name) for name in ("ann", "ben")]
    deck = deck_starting_with(
        *[("red", 2), ("yellow", 2), ("green", 3), ("blue", 2), ("white", 4)],
        *[("red", 5), ("yellow", 4), ("green", 4), ("blue", 4), ("white", 3)],
        ("red", 3),
        ("yellow", 3),
    )
    game = timed_game(*users, deck=deck)
    actions = [Clue(1, rank=5), Clue(0, rank=2), Discard(2), Discard(6)]
    for turn, action in enumerate(actions):
        user = game.seats.get(position=turn % 2).user
        play.submit_action(game.pk, user, action_to_dict(action), turn)
    make_overdue(game)

    tasks.sweep_deadlines()

    state = game.load_state()
    state_before = replay(state.options, game.deck, state.actions[:4])
    expected = choose_action(view_for(state_before, 0))
    move = Move.objects.get(game=game, turn=4)
    assert (move.made_by, move.action) == (MadeBy.TIMEOUT, action_to_dict(expected))
