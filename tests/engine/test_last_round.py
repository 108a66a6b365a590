"""The last round (RULES.md, "End of the game"): after the last draw every player takes exactly
one more turn, and the game ends at once when no remaining card can still raise the score.

A card held by a player whose last turn is over can never be played: it counts as lost, both
for "nothing left to play for" and for ``max_reachable_score``, which in the last round is
exact (each player left to move places at most one card, on their own turn, after the cards
below it). The last rounds here are built card by card (``last_round``), then checked against
an exhaustive search through the engine and against hanab.live's way of ending a game.
"""

from collections import Counter

import pytest

from games.engine import (
    Card,
    Clue,
    Discard,
    End,
    GameOptions,
    Play,
    deck_composition,
    from_hanablive,
    new_game,
    to_hanablive,
)
from games.engine.shuffle import SplitMix64
from games.engine.state import last_round_reachable

from .helpers import cards, safe_random

# -- building a last round --------------------------------------------------------------------


def _scripted(state, plays: dict[int, int]):
    """The move of a script that depends on card ids only: at turn t play ``plays[t]``; else
    clue (the next player's first card's rank) at 8 tokens; else discard the oldest card."""
    if state.turn in plays:
        return Play(plays[state.turn])
    seat = state.current_seat
    if state.clue_tokens == 8:
        target = (seat + 1) % state.players
        return Clue(target, rank=state.card(state.hand(target)[0]).rank)
    return Discard(state.hand(seat)[-1])


def _to_last_draw(options, deck, plays):
    state = new_game(options, deck=deck)
    while state.deck_size:
        assert not state.is_over, f"over before the last draw: {state!r}"
        state.apply(_scripted(state, plays))
    return state


def last_round(options: GameOptions, played: str, hands: dict[int, str]):
    """A game at the start of its last round: the cards ``played`` (codes, in order) were
    played first, one per turn from seat 0 on; ``hands[seat]`` is what that seat then holds
    (a full hand of codes, slot order aside); every other card was discarded or clued past.
    The script depends on card ids alone, so a dry run on any deck shows which ids end where."""
    h = options.hand_size
    played_cards = cards(played)
    plays = {t: (t % options.players) * h + t // options.players for t in range(len(played_cards))}
    chosen: dict[int, Card] = dict(zip(plays.values(), played_cards, strict=True))
    dry = _to_last_draw(options, _fill(options, chosen, reverse=True), plays)
    for seat, codes in hands.items():
        hand_cards = cards(codes)
        assert len(hand_cards) == h, f"seat {seat} needs {h} cards"
        chosen.update(zip(dry.hand(seat), hand_cards, strict=True))
    state = _to_last_draw(options, _fill(options, chosen), plays)
    assert state.fingerprint()[:3] == dry.fingerprint()[:3]  # same turn, hands and draw
    assert state.fireworks_total == len(played_cards) and state.fuses_left == options.fuses
    return state


def _fill(options: GameOptions, chosen: dict[int, Card], reverse: bool = False) -> list[Card]:
    """A deck with the chosen cards at their ids and the rest in canonical order (reversed:
    red's low cards last, so that the dry run keeps a card to play until the last round)."""
    spare = Counter(deck_composition(options.multicolour))
    spare.subtract(chosen.values())
    assert min(spare.values()) >= 0, "more copies than the deck holds"
    filler = iter(sorted(spare.elements(), reverse=reverse))
    return [
        chosen[cid] if cid in chosen else next(filler)
        for cid in range(sum(spare.values()) + len(chosen))
    ]


def held(state, code: str) -> int:
    """The id of a card of that code in some hand."""
    return next(cid for hand in state.hands for cid in hand if state.card(cid).code == code)


def clue(state):
    seat = state.current_seat
    target = (seat + 1) % state.players
    return Clue(target, rank=state.card(state.hand(target)[0]).rank)


def best_through_engine(state) -> int:
    """The best final score from ``state``, by trying every play (and one clue or discard)
    on every turn left: an exhaustive search through the engine itself."""
    if state.is_over:
        return state.score
    hand = state.hand(state.current_seat)
    moves = [Play(cid) for cid in hand]
    moves.append(clue(state) if state.clue_tokens else Discard(hand[0]))
    best = 0
    for move in moves:
        after = state.copy()
        after.apply(move)
        best = max(best, best_through_engine(after))
    return best


# 2 players: the dry run leaves seat 1 to move first in the last round, then seat 0 (who drew
# the last card). 3 players: seats 2, 0, 1 (seat 1 drew it).
JUNK2 = "R1 R1 G4 G4 G5"  # with red at 1 or more: red 1s are junk, green 4-5 wait for green 3


def test_the_built_rounds_start_where_the_tests_expect():
    state = last_round(GameOptions(2), "R1", {0: JUNK2, 1: "R2 Y4 Y4 Y5 B5"})
    assert state.turns_left == 2 and state.current_seat == 1
    assert state.events[-1].seat == 0 and state.events[-1].drawn == 49
    hands = {0: "R3 R1 W4 W4 W5", 1: "Y3 R1 G4 G4 G5", 2: "R2 Y2 B4 B4 B5"}
    state = last_round(GameOptions(3), "R1 Y1", hands)
    assert state.turns_left == 3 and state.current_seat == 2 and state.events[-1].seat == 1
    assert _last_round_order(GameOptions(5)) == [4, 0, 1, 2, 3]


# -- a card held by a player with no turn left ------------------------------------------------


def test_a_card_held_only_by_a_player_whose_turn_is_over_ends_the_game_at_once():
    options = GameOptions(2)
    # red is at 1; the only red 2 left is seat 1's, who moves first in the last round
    state = last_round(options, "R1", {0: JUNK2, 1: "R2 Y4 Y4 Y5 B5"})
    assert state.current_seat == 1 and state.turns_left == 2
    assert state.max_reachable_score == 2  # seat 1 can still play it
    state.apply(clue(state))  # ... but clues instead
    # Seat 0 still has a turn, but nothing it holds can raise the score: over, at once.
    assert state.end is End.NO_MORE_POINTS
    assert state.score == 1 and state.max_reachable_score == 1
    assert state.end_turn - state.turn == 1  # one turn was left


def test_playing_the_last_useful_card_ends_the_game_too():
    options = GameOptions(2)
    state = last_round(options, "R1", {0: JUNK2, 1: "R2 Y4 Y4 Y5 B5"})
    state.apply(Play(held(state, "R2")))
    assert state.end is End.NO_MORE_POINTS and state.score == 2


def test_the_game_goes_on_while_a_player_left_to_move_holds_a_playable_card():
    options = GameOptions(2)
    state = last_round(options, "R1", {0: "R2 R1 G4 G4 G5", 1: "R1 Y4 Y4 Y5 B5"})
    state.apply(clue(state))  # seat 1 has nothing to play
    assert not state.is_over and state.max_reachable_score == 2
    state.apply(Play(held(state, "R2")))
    assert state.end is End.LAST_ROUND and state.score == 2


# -- chains: a card that arrives too late -----------------------------------------------------


def test_a_card_whose_predecessor_comes_later_counts_as_lost():
    options = GameOptions(2)
    # seat 1 moves first and holds red 3; red 2 is seat 0's, who moves after it
    state = last_round(options, "R1", {0: "R2 R1 G4 G4 G5", 1: "R3 Y4 Y4 Y5 B5"})
    assert state.max_reachable_score == 2  # red 2, never red 3
    assert best_through_engine(state) == 2
    # the other way round, both can be played
    state = last_round(options, "R1", {0: "R3 R1 G4 G4 G5", 1: "R2 Y4 Y4 Y5 B5"})
    assert state.max_reachable_score == 3 == best_through_engine(state)


def test_each_player_left_to_move_places_one_card_at_most():
    options = GameOptions(2)
    state = last_round(options, "R1 Y1", {0: "R2 Y2 Y4 Y5 B5", 1: "R1 R1 G4 G4 G5"})
    assert state.current_seat == 0  # two cards played first: seat 0 moves first now
    assert state.max_reachable_score == 3  # red 2 or yellow 2, not both: one turn
    assert best_through_engine(state) == 3
    state.apply(Play(held(state, "Y2")))
    assert state.end is End.NO_MORE_POINTS and state.score == 3


def test_the_best_order_across_suits_is_found():
    # 3 players, last round: seats 2, 0, 1. Seat 2 holds red 2 and yellow 2; seat 0 red 3;
    # seat 1 yellow 3. Whichever seat 2 plays, one 3 follows: 2 more points, not 3.
    options = GameOptions(3)
    hands = {0: "R3 R1 W4 W4 W5", 1: "Y3 R1 G4 G4 G5", 2: "R2 Y2 B4 B4 B5"}
    state = last_round(options, "R1 Y1", hands)
    assert state.current_seat == 2 and state.turns_left == 3
    assert state.max_reachable_score == 4 == best_through_engine(state)
    state.apply(Play(held(state, "R2")))
    assert state.max_reachable_score == 4  # red 3 still comes
    state.apply(clue(state))  # seat 0 clues past its red 3
    assert state.end is End.NO_MORE_POINTS and state.score == 3


def test_a_chain_across_every_remaining_turn():
    # 5 players, red 2 to red 5 one per turn in turn order: four more points, one a turn
    options = GameOptions(5)
    order = _last_round_order(options)
    hands = dict(enumerate(JUNKS5))
    for rank, seat in zip((2, 3, 4, 5), order, strict=False):
        hands[seat] = f"R{rank} " + hands[seat].split(" ", 1)[1]
    state = last_round(options, "R1", hands)
    assert state.max_reachable_score == 5
    for rank in (2, 3, 4):
        state.apply(Play(held(state, f"R{rank}")))
        assert not state.is_over and state.max_reachable_score == 5
    state.apply(Play(held(state, "R5")))
    assert state.end is End.NO_MORE_POINTS and state.score == 5 and state.turns_left == 1


def _last_round_order(options: GameOptions) -> list[int]:
    """The seats in the order of their last turns, in the rounds ``last_round`` builds."""
    hands = dict(enumerate(JUNKS5[: options.players]))
    hands[0] = "R2 " + hands[0].split(" ", 1)[1]  # a card to play keeps the game going
    state = last_round(options, "R1", hands)
    return [(state.turn + k) % options.players for k in range(options.players)]


# 5 players: 20 cards none of which can be played on red at 1 with nothing else on the table
JUNKS5 = ("R1 Y3 Y4 Y5", "R1 G3 G4 G5", "Y3 B3 B4 B5", "G3 W3 W4 W5", "Y4 G4 B4 W4")


# -- checked exhaustively and against hanab.live's rule ---------------------------------------


def _hanablive_says_over(state, unplayable: set[int]) -> bool:
    """hanab.live's test, in its terms: every unfinished firework's next card is discarded or
    marked "cannot be played" (in the hand of a player who has taken their final turn)."""
    for suit, height in enumerate(state.fireworks):
        if height == 5:
            continue
        for cid in range(len(state.deck)):
            card = state.card(cid)
            in_pile = cid in state.discards or cid in state.played
            if card == (suit, height + 1) and not in_pile and cid not in unplayable:
                return False
    return True


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_last_rounds_end_as_on_hanablive_and_reach_what_the_engine_search_reaches(players):
    options = GameOptions(players)
    checked = ended_early = 0
    for index in range(60):
        rng = SplitMix64(1000 * players + index)
        state = new_game(options, seed=index)
        while not state.is_over and state.turns_left is None:
            state.apply(safe_random(state, rng))
        unplayable: set[int] = set()
        while not state.is_over:
            assert state.max_reachable_score == best_through_engine(state)
            checked += 1
            seat = state.current_seat
            state.apply(safe_random(state, rng))
            unplayable.update(state.hand(seat))  # hanab.live marks the hand after its last turn
            if state.end in (End.STRIKEOUT, End.PERFECT, End.LAST_ROUND):
                break
            assert (state.end is End.NO_MORE_POINTS) == _hanablive_says_over(state, unplayable)
            ended_early += state.end is End.NO_MORE_POINTS and state.turns_left > 0
    assert checked > 50 and ended_early > 0


# -- pure function -----------------------------------------------------------------------------


def R(rank: int) -> int:  # noqa: N802 - a red card's identity
    return rank - 1


def Y(rank: int) -> int:  # noqa: N802
    return 5 + rank - 1


@pytest.mark.parametrize(
    ("fireworks", "turn_hands", "reach"),
    [
        ((0, 0, 0, 0, 0), [], 0),
        ((1, 0, 0, 0, 0), [{R(2)}, {R(3)}, {R(4)}], 4),
        ((1, 0, 0, 0, 0), [{R(3)}, {R(2)}, {R(4)}], 2),  # red 3 comes too early
        ((1, 1, 0, 0, 0), [{R(2), Y(2)}], 3),  # one card a turn
        ((1, 1, 0, 0, 0), [{R(2), Y(2)}, {Y(3)}], 4),  # yellow 2 first, then yellow 3
        ((5, 5, 5, 5, 4), [{24}], 25),
        ((5, 5, 5, 5, 5), [{0, 1}], 25),
    ],
)
def test_last_round_reachable(fireworks, turn_hands, reach):
    assert last_round_reachable(fireworks, turn_hands) == reach


# -- hanab.live exports that end early ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5])
def test_a_hanablive_game_that_ends_early_replays_to_its_end(players):
    """As on hanab.live, the game ends when the last useful card's holder has moved; its
    export has no further action, and it replays to the same end with none dropped."""
    options = GameOptions(players)
    if players == 2:
        hands = {0: JUNK2, 1: "R2 Y4 Y4 Y5 B5"}
    else:
        hands = dict(enumerate(JUNKS5))
        first = _last_round_order(options)[0]
        hands[first] = "R2 " + hands[first].split(" ", 1)[1]
    state = last_round(options, "R1", hands)
    state.apply(clue(state))  # the red 2's holder clues past it
    assert state.end is End.NO_MORE_POINTS and state.turns_left == players - 1
    names = [f"P{seat}" for seat in range(players)]
    game = from_hanablive(to_hanablive(options, state.deck, state.actions, names))
    assert game.dropped_actions == 0
    replayed = game.replay()
    assert replayed.end is End.NO_MORE_POINTS and replayed.turn == len(state.actions)
