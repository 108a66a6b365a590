"""The compact model of the game that the team analysis searches (games/analysis/team.py).

A state is a plain tuple of ints and tuples (the fields below). With every card known, a
clue changes nothing but the tokens, so all clues are one move. ``step`` asks the engine's
rule predicates (``games.engine.rules``) on these compact states, and ends the game where
the engine does; ``tests/analysis/test_team.py`` compares the model with the engine action
by action on random games of every variant. Why the model is enough: "The compact model"
in ``games/analysis/README.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import MAX_RANK
from games.engine.options import GameOptions
from games.engine.rules import (
    fits_firework,
    five_returns_token,
    game_end,
    last_round_ends_at,
    may_clue_someone,
    may_discard,
)
from games.engine.state import GameState, last_round_reachable

PLAY, DISCARD, CLUE = 0, 1, 2
NO_CARD = -1  # the card id of a clue move

# A compact state is a plain tuple:
# (turn, hands, nxt, fireworks, dead, tokens, fuses, end_turn, end)
#   hands: one tuple of card ids per seat, newest first (as the engine's);
#   nxt: the id of the next card to draw (== the number of cards drawn);
#   fireworks: the height of each suit;
#   dead: per suit, the lowest rank above the firework whose every copy is lost (6 if none);
#   end_turn: the turn at which the last round ends (None before the last card is drawn);
#   end: None, or the engine's End.
TURN, HANDS, NXT, FW, DEAD, TOKENS, FUSES, END_TURN, END = range(9)


class Deal:
    """What is fixed for one deal: the options and each card's identity."""

    __slots__ = (
        "options",
        "players",
        "hand_size",
        "num_suits",
        "max_score",
        "until_perfect",
        "fuses",
        "n",
        "suit",
        "rank",
        "ident",
        "others",
        "copies",
        "last_pos",
    )

    def __init__(self, options: GameOptions, deck: Sequence) -> None:
        self.options = options
        self.players = options.players
        self.hand_size = options.hand_size
        self.num_suits = options.num_suits
        self.max_score = options.max_score
        self.until_perfect = options.until_perfect
        self.fuses = options.fuses
        self.n = len(deck)
        self.suit = tuple(card[0] for card in deck)
        self.rank = tuple(card[1] for card in deck)
        # a card's identity: suit * MAX_RANK + rank - 1
        self.ident = tuple(s * MAX_RANK + r - 1 for s, r in deck)
        copies: dict[int, list[int]] = {}
        for cid, ident in enumerate(self.ident):
            copies.setdefault(ident, []).append(cid)
        # per identity, the ids of its copies in deck order; per card, its other copies
        self.copies = {ident: tuple(cids) for ident, cids in copies.items()}
        self.others = tuple(
            tuple(o for o in self.copies[ident] if o != cid) for cid, ident in enumerate(self.ident)
        )
        # per identity, the deck position of its last copy (-1 if the deck has none)
        last_pos = [-1] * (self.num_suits * MAX_RANK)
        for p, i in enumerate(self.ident):
            last_pos[i] = p
        self.last_pos = last_pos


def from_engine(deal: Deal, state: GameState) -> tuple:
    """The compact state of an engine state."""
    fireworks = state.fireworks
    dead = []
    for s, height in enumerate(fireworks):
        low = MAX_RANK + 1
        for r in range(height + 1, MAX_RANK + 1):
            if state.copies_left(s * MAX_RANK + r - 1) == 0:
                low = r
                break
        dead.append(low)
    return (
        state.turn,
        state.hands,
        state.cards_drawn,
        fireworks,
        tuple(dead),
        state.clue_tokens,
        state.fuses_left,
        state.end_turn,
        state.end,
    )


def score(st: tuple) -> int:
    """The score of a state (0 once the game is lost)."""
    end = st[END]
    if end is not None and end.lost:
        return 0
    return sum(st[FW])


def legal(deal: Deal, st: tuple) -> list[tuple[int, int]]:
    """Every legal move of the compact model: (PLAY, id), (DISCARD, id), (CLUE, -1).

    All the engine's clues are one move here: with every card known they change nothing but
    the clue tokens, and one is open exactly when ``may_clue_someone`` says so."""
    if st[END] is not None:
        return []
    seat = st[TURN] % deal.players
    hand = st[HANDS][seat]
    moves = [(PLAY, cid) for cid in hand]
    if may_discard(st[TOKENS]):
        moves += [(DISCARD, cid) for cid in hand]
    if may_clue_someone(deal.options, st[HANDS], seat, st[TOKENS]):
        moves.append((CLUE, NO_CARD))
    return moves


def step(deal: Deal, st: tuple, kind: int, cid: int) -> tuple:
    """The state after the current player's move (the move must be legal)."""
    turn, hands, nxt, fw, dead, tokens, fuses, end_turn, _ = st
    players = deal.players
    seat = turn % players
    if kind == CLUE:
        tokens -= 1
    else:
        s = deal.suit[cid]
        r = deal.rank[cid]
        hand = tuple([c for c in hands[seat] if c != cid])
        if kind == PLAY and fits_firework(fw[s], r):
            fw = fw[:s] + (r,) + fw[s + 1 :]
            if five_returns_token(r, tokens):
                tokens += 1
        else:
            if kind == PLAY:
                fuses -= 1
            else:
                tokens += 1
            if fw[s] < r < dead[s] and _last_copy(deal, cid, hands, nxt):
                dead = dead[:s] + (r,) + dead[s + 1 :]
        if nxt < deal.n:
            hand = (nxt,) + hand
            nxt += 1
            if nxt == deal.n:
                end_turn = last_round_ends_at(deal.options, turn)
        hands = hands[:seat] + (hand,) + hands[seat + 1 :]
    turn += 1
    reachable = sum(dead) - len(dead)
    if end_turn is not None and turn < end_turn:
        reachable = last_round_reach(deal, turn, hands, fw, end_turn)
    end = game_end(
        deal.options,
        fuses_left=fuses,
        score=sum(fw),
        reachable=reachable,
        last_round_over=end_turn is not None and turn >= end_turn,
        hands=hands,
        mover=turn % players,
        clue_tokens=tokens,
    )
    return (turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end)


def _last_copy(deal: Deal, cid: int, hands: tuple, nxt: int) -> bool:
    """Whether no other copy of card ``cid`` is left in the deck or the hands."""
    return not any(o >= nxt or any(o in h for h in hands) for o in deal.others[cid])


def last_round_reach(deal: Deal, turn: int, hands: tuple, fw: tuple, end_turn: int) -> int:
    """The engine's exact best score in the last round (``last_round_reachable``): what the
    players with a turn left can still place, each on their own turn."""
    ident = deal.ident
    players = deal.players
    turn_hands = [[ident[c] for c in hands[t % players]] for t in range(turn, end_turn)]
    return last_round_reachable(fw, turn_hands)
