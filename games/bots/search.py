"""Endgame search for a table of bots only: try each sensible action on deals the bot thinks
possible, let every seat play on by the conventions to the end, keep the best on average.

Near the end of the deck the conventions' rules of thumb (clue or discard, which card to
play first, whether to stall) decide whole points, and few turns are left: a handful of
simulated endings per action is cheap. Earlier, only a discard that may lose the last
copy of a card is simulated, against the best clue. The simulation needs every teammate to
play as the bot does, so it runs only when every seat is the bot (``Table.all_bots``);
beside a person the bot keeps to the conventions alone.

Everything comes from the view: the bot's own cards are drawn from its beliefs about them
(clues, counting, the conventions' readings), and the cards still in the deck from those it
has not seen, so the search knows nothing the seat does not. The draws come from a generator
seeded by the turn: the same view gives the same action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection

from games.engine import Action, Clue, Discard, GameState, Play, new_game, view_for
from games.engine.cards import MAX_RANK, SUIT_INDEX, Card, identity

from .knowledge import Table, bits

# Search at tables of up to this many players (with more, the clues to choose from multiply
# and each simulated ending is longer: 3 players gained as much, +0.48 a game on 60 games,
# for 3.4 s of search a game instead of 1.6 s)...
SEARCH_UP_TO = 2
# ...once the deck holds this few cards, and in the final round (searching from 6 or 8
# cards left gained no more, for 3 to 4 times the time).
SEARCH_DECK = 4
# Before that, a discard is searched against the best clue when the card is at least this
# likely to be the last of its kind (2-player self-play, the first 200 decks of the bench:
# +0.06 ± 0.07 a game, for 2.6 times the time of search).
DISCARD_RISK = 0.1
# Deals simulated per candidate action (the same deals for every candidate).
DEALS = 16
# Leave the conventions' choice only for an action this much better on average, in points.
MARGIN = 0.1
# ...and only when its gain is this many standard errors (over the deals) above zero.
SURE = 2.0
# The teammates' moves a deal must agree with (the latest not searched).
CHECKED_MOVES = 6
# Draws per deal kept, when deals must agree with the teammates' last moves.
FILTER_TRIES = 8
# Give up on a deal after this many tries at fitting the bot's beliefs to the unseen cards.
TRIES = 50

# The conventions' choice for a table, without search: how every seat is expected to play.
Blueprint = Callable[[Table], Action]


def searches(table: Table) -> bool:
    """Whether this turn is searched: a table of bots only, near the end of the deck."""
    return table.all_bots and table.players <= SEARCH_UP_TO and table.deck_size <= SEARCH_DECK


def discard_alternatives(policy, chosen: Action) -> list[Action] | None:
    """Before the endgame search starts, a discard that may be the last copy of a card is
    simulated against the best clue (a stall that lets the teammate save it): the clue, or
    None when this turn is not searched."""
    table = policy.table
    if not (table.all_bots and table.players <= SEARCH_UP_TO):
        return None
    if not isinstance(chosen, Discard) or not policy.legal["clues"]:
        return None
    belief = policy.belief(chosen.card_id, table.me)
    if policy.chance(belief, policy.board.critical) < DISCARD_RISK:
        return None
    clue, _ = policy.best_clue(forced=True)
    return [clue] if clue is not None else None


def searched_action(
    policy,
    blueprint: Blueprint,
    bot_seats: Collection[int],
    chosen: Action | None = None,
    alternatives: list[Action] | None = None,
) -> Action:
    """The best action by simulated endings; the conventions' choice unless another is
    clearly better."""
    table = policy.table
    view = policy.view
    rng = random.Random(view["turn"] * 1_000_003 + table.me)
    deals = _deals(policy, rng, blueprint, bot_seats)
    if chosen is None:
        chosen = policy.choose()
    if not deals:
        return chosen
    if alternatives is None:
        alternatives = _candidates(policy)
    candidates = [a for a in alternatives if a != chosen]
    kept = [_finish(state.copy(), chosen, table, blueprint, bot_seats) for state in deals]
    best, best_gain = chosen, 0.0
    for action in candidates:
        gains = [
            _finish(state.copy(), action, table, blueprint, bot_seats) - score
            for state, score in zip(deals, kept, strict=True)
        ]
        gain = sum(gains) / len(gains)
        if gain > max(best_gain, MARGIN) and gain > SURE * _error(gains, gain):
            best, best_gain = action, gain
    return best


def _error(values: list[int], mean: float) -> float:
    """The standard error of the mean of ``values``."""
    n = len(values)
    if n < 2:
        return 0.0
    return (sum((v - mean) ** 2 for v in values) / (n - 1) / n) ** 0.5


def _candidates(policy) -> list[Action]:
    """Every legal action."""
    legal = policy.view["legal"]
    actions: list[Action] = [Play(cid) for cid in legal["play"]]
    actions += [Discard(cid) for cid in legal["discard"]]
    for option in legal["clues"]:
        actions.append(Clue(option["target"], colour=option.get("colour"), rank=option.get("rank")))
    return actions


def _finish(
    state: GameState, action: Action, table: Table, blueprint: Blueprint, seats: Collection[int]
) -> int:
    """The score when ``action`` is taken now and every seat plays by the conventions after."""
    state.apply(action)
    while state.end is None:
        # Each table starts from the last one: only the newest move is replayed.
        table = Table(view_for(state, state.current_seat), seats, start=table)
        state.apply(blueprint(table))
    return state.score


def _deals(
    policy, rng: random.Random, blueprint: Blueprint, seats: Collection[int]
) -> list[GameState]:
    """DEALS deals the bot thinks possible, and that agree with what its teammates did last:
    a deal in which a teammate's last move is not the one the conventions choose for them
    is not the game being played (they would have saved that card, or clued another), so
    it is drawn again, up to FILTER_TRIES draws per deal kept. Without enough such deals,
    the draws are kept unfiltered."""
    checks = _teammates_last_moves(policy)
    kept: list[GameState] = []
    drawn: list[GameState] = []
    for _ in range(DEALS * FILTER_TRIES):
        if len(kept) == DEALS:
            return kept
        deal = _deal(policy, rng)
        if deal is None:
            break
        state, replay_from = deal
        if len(drawn) < DEALS:
            drawn.append(state)
        if all(_agrees(replay_from, index, policy.view, blueprint, seats) for index in checks):
            kept.append(state)
    return kept if len(kept) >= DEALS // 2 else drawn


def _teammates_last_moves(policy) -> list[int]:
    """Indices in the history of the teammates' last CHECKED_MOVES moves that were not
    searched (a searched move need not be the conventions' choice). A searched discard of
    earlier turns is not known from the history; it rarely changes the move, and when too
    few deals agree the draws are kept unfiltered."""
    table = policy.table
    history = policy.view["history"]
    deck = table.deck_size
    moves: list[int] = []
    for index in range(len(history) - 1, -1, -1):
        entry = history[index]
        if entry["type"] != "clue" and entry["drawn"] is not None:
            deck += 1  # the deck before this move
        if entry["seat"] != table.me and deck > SEARCH_DECK:
            moves.append(index)
            if len(moves) == CHECKED_MOVES:
                break
    return moves


def _agrees(
    replay_from, index: int, view: dict, blueprint: Blueprint, seats: Collection[int]
) -> bool:
    """Would the conventions have chosen history entry ``index`` in this deal?"""
    state = replay_from(index)
    then = Table(view_for(state, state.current_seat), seats)
    return blueprint(then) == _action(view["history"][index])


def _deal(policy, rng: random.Random):
    """A whole game the bot thinks possible, replayed to now: its own cards drawn from its
    beliefs, the deck from the cards it has not seen. With it, a function that replays the
    same deal to any earlier turn."""
    table = policy.table
    view = policy.view
    me = table.me
    unseen = policy.perspectives[me].unseen  # copies not played, lost or in other hands
    hand = table.hands[me]
    for _ in range(TRIES):
        left = list(unseen)
        mine = {}
        for cid in rng.sample(hand, len(hand)):
            choices = [i for i in bits(policy.belief(cid, me)) if left[i]]
            if not choices:
                break
            ident = rng.choices(choices, weights=[left[i] for i in choices])[0]
            left[ident] -= 1
            mine[cid] = ident
        else:
            break
    else:
        return None
    known = dict(table.identity)
    known.update(mine)
    for entry in view["history"]:
        if entry["type"] != "clue":
            card = entry["card"]
            known[card["id"]] = identity(SUIT_INDEX[card["suit"]], card["rank"])
    rest = [ident for ident, n in enumerate(left) for _ in range(n)]
    rng.shuffle(rest)
    size = table.options.deck_size
    drawn = size - len(rest)
    idents = [known[cid] for cid in range(drawn)] + rest
    deck = [Card(i // MAX_RANK, i % MAX_RANK + 1) for i in idents]
    actions = [_action(entry) for entry in view["history"]]

    def replay_to(turn: int) -> GameState:
        state = new_game(table.options, deck=deck)
        for action in actions[:turn]:
            state.apply(action)
        return state

    return replay_to(len(actions)), replay_to


def _action(entry: dict) -> Action:
    if entry["type"] == "clue":
        return Clue(entry["target"], colour=entry["colour"], rank=entry["rank"])
    card_id = entry["card"]["id"]
    return Play(card_id) if entry["type"] == "play" else Discard(card_id)
