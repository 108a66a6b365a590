"""PLACEHOLDER"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.actions import Clue, Discard, Play, action_to_dict
from games.engine.cards import MAX_RANK
from games.engine.options import MAX_CLUE_TOKENS, GameOptions
from games.engine.state import End, GameState, new_game

PLAY, DISCARD, CLUE = 0, 1, 2
_NO_CARD = -1  # the card id of a clue move
_LOSING = frozenset({End.STRIKEOUT, End.DEFEAT_LOST_CARD, End.DEFEAT_NO_ACTION})

# A compact state is a plain tuple:
# (turn, hands, nxt, fireworks, dead, tokens, fuses, end_turn, end)
#   hands: one tuple of card ids per seat, newest first (as the engine's);
#   nxt: the id of the next card to draw (== the number of cards drawn);
#   fireworks: the height of each suit;
#   dead: per suit, the lowest rank above the firework whose every copy is lost (6 if none);
#   end_turn: the turn at which the last round ends (None before the last card is drawn);
#   end: None, or the engine's End.
TURN, HANDS, NXT, FW, DEAD, TOKENS, FUSES, END_TURN, END = range(9)


class _Deal:
    """What is fixed for one deal: the options and each card's identity."""

    __slots__ = (
        "players",
        "hand_size",
        "num_suits",
        "max_score",
        "until_perfect",
        "empty_clues",
        "n",
        "suit",
        "rank",
        "ident",
        "others",
        "copies",
    )

    def __init__(self, options: GameOptions, deck: Sequence) -> None:
        self.players = options.players
        self.hand_size = options.hand_size
        self.num_suits = options.num_suits
        self.max_score = options.max_score
        self.until_perfect = options.until_perfect
        self.empty_clues = options.empty_clues
        self.n = len(deck)
        self.suit = tuple(card[0] for card in deck)
        self.rank = tuple(card[1] for card in deck)
        self.ident = tuple(s * MAX_RANK + r - 1 for s, r in deck)
        copies: dict[int, list[int]] = {}
        for cid, ident in enumerate(self.ident):
            copies.setdefault(ident, []).append(cid)
        self.copies = {ident: tuple(cids) for ident, cids in copies.items()}
        self.others = tuple(
            tuple(o for o in self.copies[ident] if o != cid) for cid, ident in enumerate(self.ident)
        )


def _from_engine(deal: _Deal, state: GameState) -> tuple:
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


def _score(st: tuple) -> int:
    end = st[END]
    if end is not None and end in _LOSING:
        return 0
    return sum(st[FW])


def _can_act(deal: _Deal, hands: tuple, seat: int, tokens: int) -> bool:
    if hands[seat]:
        return True
    if tokens == 0:
        return False
    if deal.empty_clues:
        return True
    return any(hand for other, hand in enumerate(hands) if other != seat)


def _clue_legal(deal: _Deal, hands: tuple, seat: int, tokens: int) -> bool:
    if tokens == 0:
        return False
    if deal.empty_clues:
        return True
    return any(hand for other, hand in enumerate(hands) if other != seat)


def _legal(deal: _Deal, st: tuple) -> list[tuple[int, int]]:
    """Every legal move of the compact model: (PLAY, id), (DISCARD, id), (CLUE, -1).

    All the engine's clues are one move here: with every card known they change nothing but
    the clue tokens."""
    if st[END] is not None:
        return []
    seat = st[TURN] % deal.players
    hand = st[HANDS][seat]
    moves = [(PLAY, cid) for cid in hand]
    if st[TOKENS] < MAX_CLUE_TOKENS:
        moves += [(DISCARD, cid) for cid in hand]
    if _clue_legal(deal, st[HANDS], seat, st[TOKENS]):
        moves.append((CLUE, _NO_CARD))
    return moves


def _step(deal: _Deal, st: tuple, kind: int, cid: int) -> tuple:
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
        if kind == PLAY and fw[s] == r - 1:
            fw = fw[:s] + (r,) + fw[s + 1 :]
            if r == MAX_RANK and tokens < MAX_CLUE_TOKENS:
                tokens += 1
        else:
            if kind == PLAY:
                fuses -= 1
            else:
                tokens += 1
            if fw[s] < r < dead[s]:
                for o in deal.others[cid]:
                    if o >= nxt or any(o in h for h in hands):
                        break
                else:
                    dead = dead[:s] + (r,) + dead[s + 1 :]
        if nxt < deal.n:
            hand = (nxt,) + hand
            nxt += 1
            if nxt == deal.n and not deal.until_perfect:
                end_turn = turn + 1 + players
        hands = hands[:seat] + (hand,) + hands[seat + 1 :]
    turn += 1
    end = _end_of(deal, turn, hands, fw, dead, tokens, fuses, end_turn)
    return (turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end)


def _end_of(deal, turn, hands, fw, dead, tokens, fuses, end_turn):
    """The engine's endings, in the engine's order."""
    if fuses == 0:
        return End.STRIKEOUT
    score = sum(fw)
    if score == deal.max_score:
        return End.PERFECT
    reach = sum(dead) - len(dead)
    seat = turn % deal.players
    if deal.until_perfect:
        if reach < deal.max_score:
            return End.DEFEAT_LOST_CARD
        if not _can_act(deal, hands, seat, tokens):
            return End.DEFEAT_NO_ACTION
        return None
    if end_turn is not None and turn >= end_turn:
        return End.LAST_ROUND
    if reach == score:
        return End.NO_MORE_POINTS
    if not _can_act(deal, hands, seat, tokens):
        return End.DEFEAT_NO_ACTION
    return None


class _Abort(Exception):
    """The time or node limit was reached; ``upper`` bounds the aborted subtree's value."""

    def __init__(self, upper: int) -> None:
        super().__init__(upper)
        self.upper = upper


class _Solver:
    def __init__(self, deal: _Deal, deadline: float, node_limit: int | None) -> None:
        self.deal = deal
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.best = -1
        self.best_line: list[tuple[int, int]] = []
        self.path: list[tuple[int, int]] = []
        self.tt: dict[tuple, int] = {}
        n = deal.n
        # first_at[p][ident]: the first deck position >= p holding that identity (or n).
        table = []
        row = [n] * (deal.num_suits * MAX_RANK)
        for p in range(n, -1, -1):
            if p < n:
                row = row[:]
                row[deal.ident[p]] = p
            table.append(tuple(row))
        table.reverse()
        self.first_at = table
        last_pos = [-1] * (deal.num_suits * MAX_RANK)
        for p, i in enumerate(deal.ident):
            last_pos[i] = p
        self.last_pos = last_pos
        self.variant = 0

    # -- bounds --------------------------------------------------------------------------------

    def upper(self, st: tuple) -> int:
        """A proven upper bound on the best final score from ``st`` (see the module doc)."""
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        deal = self.deal
        if end is not None:
            return _score(st)
        if deal.until_perfect:
            return deal.max_score
        players = deal.players
        n = deal.n
        left = n - nxt
        ident = deal.ident
        # rel[i]: the earliest time a copy of identity i can be played. Time k >= 1 is the
        # k-th play or discard from now while cards remain to draw (it draws card nxt+k-1),
        # then left+j the j-th turn after the last card was drawn.
        rel = [99] * len(self.last_pos)
        if end_turn is None:
            tmax = left + players
            for h in hands:
                for c in h:
                    rel[ident[c]] = 1
        else:
            tmax = end_turn - turn
            seat = turn % players
            for q in range(players):
                t = (q - seat) % players + 1
                if t <= tmax:
                    for c in hands[q]:
                        if rel[ident[c]] > t:
                            rel[ident[c]] = t
        first = self.first_at[nxt]
        last_pos = self.last_pos
        last = n - 1
        jobs = []
        pre = end_turn is None
        if pre:
            # storage: released[t] jobs become playable at time t; drawn[k] identities have
            # their last copy drawn at time k; ready[k] both, from time k on.
            released = [0] * (tmax + 2)
            drawn = [0] * (left + 1)
            ready = [0] * (tmax + 2)
        for s, height in enumerate(fw):
            a = 0
            base = s * MAX_RANK - 1
            for r in range(height + 1, dead[s]):
                i = base + r
                t = rel[i]
                p = first[i]
                if p < n:
                    tp = tmax if p == last else p - nxt + 2
                    if tp < t:
                        t = tp
                a = a + 1 if a >= t else t
                if a > tmax:
                    break
                jobs.append(a)
                if pre:
                    k0 = last_pos[i] - nxt + 1
                    if k0 < 0:
                        k0 = 0
                    released[a] += 1
                    drawn[k0] += 1
                    ready[a if a > k0 else k0] += 1
        m = len(jobs)
        best = m
        if m:
            jobs.sort(reverse=True)
            for k, a in enumerate(jobs):
                v = m - k + tmax - a
                if v < best:
                    best = v
            if pre:
                # after time k the hands hold players * hand_size cards, among them a copy
                # of every identity whose copies are all drawn and which is not played yet
                capacity = players * deal.hand_size
                total = ready_k = waiting = done = 0
                for k in range(left + 1):
                    total += drawn[k]
                    ready_k += ready[k]
                    waiting += released[k]
                    if waiting and k:
                        waiting -= 1
                        done += 1
                    v = m - total + (ready_k if ready_k < done else done) + capacity
                    if v < best:
                        best = v
        return sum(fw) + best

    # -- move ordering -------------------------------------------------------------------------

    def ordered_moves(self, st: tuple) -> list[tuple[int, int]]:
        """The moves worth trying, best first (by a cheating greedy policy).

        Equivalent moves are merged (one clue; one move per identity) and dominated ones left
        out: with a useless card in hand ("junk": already played, unreachable, or a second
        copy in the same hand), discarding (or, at 8 tokens, misplaying) it is at least as good
        as discarding any other card; below 8 tokens a misplay is never needed."""
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        deal = self.deal
        players = deal.players
        seat = turn % players
        hand = hands[seat]
        suit = deal.suit
        rank = deal.rank
        ident = deal.ident
        others = deal.others
        plays = []
        junk = None
        free = []  # needed cards of which another hand holds a copy
        keep = []  # needed cards with a copy still in the deck
        crit = []  # needed cards whose every other copy is lost
        seen = set()
        for c in hand:
            s = suit[c]
            r = rank[c]
            i = ident[c]
            if r <= fw[s] or r >= dead[s] or i in seen:
                if junk is None:
                    junk = c
                continue
            seen.add(i)
            if r == fw[s] + 1:
                plays.append(c)
            where = 0  # 2: another hand holds a copy, 1: the deck does
            for o in others[c]:
                if o >= nxt:
                    if where == 0:
                        where = 1
                else:
                    for h in hands:
                        if o in h:
                            where = 2
                            break
            if where == 2:
                free.append(c)
            elif where == 1:
                keep.append(c)
            else:
                crit.append(c)
        moves: list[tuple[int, int]] = []
        if plays:
            if len(plays) > 1:
                plays.sort(key=lambda c: self._play_priority(c, st))
            moves += [(PLAY, c) for c in plays]
        can_discard = tokens < MAX_CLUE_TOKENS
        clue = _clue_legal(deal, hands, seat, tokens)
        if can_discard and junk is not None:
            moves.append((DISCARD, junk))
            if clue:
                moves.append((CLUE, _NO_CARD))
            return moves
        if can_discard:
            moves += [(DISCARD, c) for c in free if c not in plays]
        if clue and (
            not can_discard or not keep or self.variant == 1 or self._stall_useful(st, seat)
        ):
            moves.append((CLUE, _NO_CARD))
            clue = False
        if can_discard:
            if len(keep) > 1:
                keep.sort(key=lambda c: (-rank[c], self._next_copy(c, nxt)))
            moves += [(DISCARD, c) for c in keep if c not in plays]
        if clue:
            moves.append((CLUE, _NO_CARD))
        if can_discard:
            moves += [(DISCARD, c) for c in free + keep if c in plays]
            moves += [(DISCARD, c) for c in crit]
        elif fuses > 1:
            if junk is not None:
                moves.append((PLAY, junk))
            else:
                moves += [(PLAY, c) for c in free + keep + crit if c not in plays]
        return moves

    def _next_copy(self, c: int, nxt: int) -> int:
        return min([o for o in self.deal.others[c] if o >= nxt], default=self.deal.n)

    def _stall_useful(self, st: tuple, seat: int) -> bool:
        """Whether someone else can play, or discard a useless card, before our next turn."""
        deal = self.deal
        fw = st[FW]
        dead = st[DEAD]
        suit = deal.suit
        rank = deal.rank
        hands = st[HANDS]
        players = deal.players
        for k in range(1, players):
            for c in hands[(seat + k) % players]:
                s = suit[c]
                r = rank[c]
                if r <= fw[s] + 1 or r >= dead[s]:
                    return True
                for o in deal.others[c]:
                    if o < st[NXT] and any(o in h for h in hands):
                        return True
        return False

    def _play_priority(self, c: int, st: tuple) -> tuple:
        deal = self.deal
        r = deal.rank[c]
        bonus = r == MAX_RANK and st[TOKENS] < MAX_CLUE_TOKENS
        unlocks = False
        if r < MAX_RANK:
            successor = deal.ident[c] + 1
            unlocks = any(deal.ident[o] == successor for h in st[HANDS] for o in h)
        return (not bonus, not unlocks, r)

    # -- greedy ------------------------------------------------------------------------------

    def greedy(self, st: tuple) -> tuple[int, list[tuple[int, int]]]:
        """Play the policy's first choice to the end: a line and its score."""
        deal = self.deal
        line = []
        while st[END] is None:
            move = self.ordered_moves(st)[0]
            line.append(move)
            st = _step(deal, st, *move)
        return _score(st), line

    # -- search --------------------------------------------------------------------------------

    def key(self, st: tuple) -> tuple:
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        deal = self.deal
        players = deal.players
        seat = turn % players
        suit = deal.suit
        rank = deal.rank
        ident = deal.ident
        parts = []
        for k in range(players):
            codes = []
            for c in hands[(seat + k) % players]:
                s = suit[c]
                codes.append(ident[c] if fw[s] < rank[c] < dead[s] else -1)
            codes.sort()
            parts.append(tuple(codes))
        return (tuple(parts), nxt, fw, tokens, fuses, -1 if end_turn is None else end_turn - turn)

    def dfs(self, st: tuple) -> int:
        """An upper bound on the best final score from ``st`` (exact if above self.best on
        entry); raises _Abort at the limits."""
        self.nodes += 1
        if st[END] is not None:
            v = _score(st)
            if v > self.best:
                self.best = v
                self.best_line = self.path[:]
            return v
        if not self.nodes & 1023 and (
            time.perf_counter() > self.deadline
            or (self.node_limit is not None and self.nodes > self.node_limit)
        ):
            raise _Abort(self.upper(st))
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Abort(self.upper(st))
        key = self.key(st)
        known = self.tt.get(key)
        if known is not None and known <= self.best:
            return known
        ub = self.upper(st)
        if known is not None and known < ub:
            ub = known
        if ub <= self.best:
            self.tt[key] = ub
            return ub
        result = -1
        deal = self.deal
        path = self.path
        moves = self.ordered_moves(st)
        for index, move in enumerate(moves):
            path.append(move)
            try:
                v = self.dfs(_step(deal, st, *move))
            except _Abort as abort:
                rest = [self.upper(_step(deal, st, *m)) for m in moves[index + 1 :]]
                raise _Abort(min(ub, max([result, abort.upper, *rest]))) from None
            finally:
                path.pop()
            if v > result:
                result = v
            if self.best >= ub:
                break
        if result > ub:
            result = ub
        self.tt[key] = result
        return result


@dataclass(frozen=True)
class TeamResult:
    """The best score a team that sees every card can reach: ``lower <= best <= upper``.

    ``actions`` is a line of play (``action_to_dict`` dicts) from the analysed state that ends
    the game with exactly ``lower``; the engine has replayed it. ``exact`` when the bounds
    meet; ``timed_out`` when the time or node limit stopped the search first."""

    lower: int
    upper: int
    exact: bool
    actions: list[dict] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    timed_out: bool = False

    def to_dict(self) -> dict:
        return {
            "lower": self.lower,
            "upper": self.upper,
            "exact": self.exact,
            "actions": [dict(a) for a in self.actions],
            "nodes": self.nodes,
            "seconds": self.seconds,
            "timed_out": self.timed_out,
        }


class LineMismatch(AssertionError):
    """The engine disagrees with the compact model about a line: a bug in this module."""


def _engine_line(state: GameState, moves: Sequence[tuple[int, int]]) -> tuple[list, GameState]:
    """The moves as engine actions, applied to a copy of ``state``."""
    game = state.copy()
    actions = []
    players = game.players
    for kind, cid in moves:
        if kind == PLAY:
            action = Play(cid)
        elif kind == DISCARD:
            action = Discard(cid)
        else:
            seat = game.turn % players
            action = None
            for k in range(1, players):
                target = (seat + k) % players
                hand = game.hand(target)
                if hand:
                    action = Clue(target, rank=game.card(hand[0]).rank)
                    break
            if action is None:  # empty clues: any clue will do
                action = Clue((seat + 1) % players, rank=1)
        game.apply(action)
        actions.append(action)
    return actions, game


def best_score(
    state: GameState, time_limit: float = 10.0, node_limit: int | None = None
) -> TeamResult:
    """The best final score a team that sees every card can reach from ``state``."""
    start = time.perf_counter()
    if state.is_over:
        score = state.score
        return TeamResult(score, score, True, [], 0, time.perf_counter() - start, False)
    deal = _Deal(state.options, state.deck)
    st = _from_engine(deal, state)
    solver = _Solver(deal, start + time_limit, node_limit)
    upper = solver.upper(st)
    lower, line = solver.greedy(st)
    solver.best = lower
    solver.best_line = line
    timed_out = False
    if lower < upper:
        try:
            bound = solver.dfs(st)
        except _Abort as abort:
            bound = abort.upper
            timed_out = True
        upper = min(upper, max(bound, solver.best))
        lower = solver.best
        line = solver.best_line
    actions, game = _engine_line(state, line)
    if not game.is_over or game.score != lower:
        raise LineMismatch(f"the line should end the game with {lower}; the engine says {game!r}")
    if not lower <= upper:
        raise LineMismatch(f"lower bound {lower} above upper bound {upper}")
    return TeamResult(
        lower=lower,
        upper=upper,
        exact=lower == upper,
        actions=[action_to_dict(a) for a in actions],
        nodes=solver.nodes,
        seconds=time.perf_counter() - start,
        timed_out=timed_out,
    )


def analyse_deal(options: GameOptions, deck: Sequence, time_limit: float = 10.0) -> TeamResult:
    """best_score from the deal of ``deck`` (before anyone acts)."""
    return best_score(new_game(options, deck=deck), time_limit=time_limit)
