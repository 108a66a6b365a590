"""The cautious move made for an absent player: it sees only that player's view, and it
follows its order (discard the oldest unclued card, else clue a playable card, else play the
newest clued card)."""

from games import services, tasks
from games.bots.cautious import cautious_action
from games.engine import (
    SUITS,
    Card,
    Clue,
    Discard,
    GameOptions,
    Play,
    action_to_dict,
    deck_composition,
    new_deck,
    new_game,
    view_for,
)
from games.models import MadeBy, Move
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


def test_the_cautious_move_does_not_depend_on_the_players_own_cards():
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
        assert cautious_action(view_for(state_a, 0)) == cautious_action(view_for(state_b, 0))

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
        assert cautious_action(view_for(state_a, 1)) == cautious_action(view_for(state_b, 1))
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

    assert tasks.sweep()["timed_out"] == 2

    move_a, move_b = Move.objects.get(game=game_a), Move.objects.get(game=game_b)
    assert move_a.made_by == move_b.made_by == MadeBy.TIMEOUT
    assert move_a.action == move_b.action
    assert move_a.action["type"] == "clue"  # 8 clue tokens: no discard allowed


# -- it follows its order ------------------------------------------------------------------

# Seat 0 holds ids 0-4 (slot 1 = id 4, the newest), seat 1 holds ids 5-9 (slot 1 = id 9).


def test_with_discarding_allowed_it_discards_the_oldest_unclued_card():
    deck = deck_starting_with(
        *[("red", 1), ("yellow", 1), ("green", 1), ("blue", 1), ("white", 1)],  # seat 0
        *[("red", 5), ("yellow", 4), ("green", 4), ("blue", 4), ("white", 3)],  # seat 1
    )
    state = new_game(TWO, deck=deck)
    state.apply(Clue(1, rank=5))  # touches id 5, seat 1's oldest card
    view = view_for(state, 1)
    assert view["legal"]["discard"]
    # Seat 0 holds five playable 1s, but discarding comes first; id 5 carries a clue.
    assert cautious_action(view) == Discard(6)


def test_without_discarding_it_clues_a_card_that_can_be_played():
    deck = deck_starting_with(
        *[("red", 2), ("yellow", 2), ("green", 2), ("blue", 2), ("white", 2)],  # seat 0
        *[("red", 5), ("yellow", 4), ("green", 1), ("blue", 4), ("white", 3)],  # seat 1
    )
    state = new_game(TWO, deck=deck)
    view = view_for(state, 0)
    assert not view["legal"]["discard"]  # 8 clue tokens
    first_clue = view["legal"]["clues"][0]
    assert 7 not in first_clue["touches"]  # the first clue offered (red) would be no help

    action = cautious_action(view)

    assert isinstance(action, Clue) and action.target == 1
    assert 7 in state.clue_touches(1, colour=action.colour, rank=action.rank)  # green 1


def test_with_nothing_to_discard_or_clue_it_plays_the_newest_clued_card():
    deck = deck_starting_with(
        *[("red", 2), ("yellow", 2), ("green", 3), ("blue", 2), ("white", 4)],  # seat 0
        *[("red", 5), ("yellow", 4), ("green", 4), ("blue", 4), ("white", 3)],  # seat 1
        ("red", 3),  # id 10, drawn by seat 0
        ("yellow", 3),  # id 11, drawn by seat 1
    )
    state = new_game(TWO, deck=deck)
    state.apply(Clue(1, rank=5))  # 7 tokens
    state.apply(Clue(0, rank=2))  # 6: touches ids 0, 1 and 3
    state.apply(Discard(2))  # 7: seat 0 draws id 10
    state.apply(Discard(6))  # 8: seat 1 draws id 11
    view = view_for(state, 0)
    assert not view["legal"]["discard"]
    assert state.hand(0) == (10, 4, 3, 1, 0)
    # No card of seat 1 is playable (no 1 at all), so no clue is worth giving.

    assert cautious_action(view) == Play(3)  # the newest of the clued ids 3, 1, 0


def test_the_timeout_plays_through_the_seats_view(db):
    """The service asks the policy with the absent seat's view: the same deck as above, in
    a game, gives the same move."""
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
        services.submit_action(game.pk, user, action_to_dict(action), turn)
    make_overdue(game)

    tasks.sweep()

    move = Move.objects.get(game=game, turn=4)
    assert (move.made_by, move.action) == (MadeBy.TIMEOUT, action_to_dict(Play(3)))
