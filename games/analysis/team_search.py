"""The search for the best line of a team that sees every card, on the compact model
(games/analysis/team_model.py) with the bounds of games/analysis/team_bounds.py.

``Solver.solve`` plays two greedy "cheating" policies, then a short search, randomised games
of the policy, and a depth-first branch and bound to the end, with a transposition table of
proven upper bounds, until the best line meets the bound or a limit is reached. Which moves it
leaves out, which states it treats as one, and why neither loses the best score: "Moves the
search leaves out" and "The search" in ``games/analysis/README.md``.
"""

from __future__ import annotations

import random
import time

from games.engine.cards import MAX_RANK
from games.engine.options import MAX_CLUE_TOKENS
from games.engine.rules import fits_firework, five_returns_token, may_clue_someone, may_discard

from .team_bounds import Bounds
from .team_model import (
    CLUE,
    DEAD,
    DISCARD,
    END,
    END_TURN,
    FUSES,
    FW,
    HANDS,
    NO_CARD,
    NXT,
    PLAY,
    TOKENS,
    TURN,
    Deal,
    score,
    step,
)

JUNK_WEIGHT = 1 << 60  # in a hand's code (see Solver.key)
ROLLOUT_SHARE = 0.2  # of the time limit, for randomised greedy games before the search
ROLLOUTS = 20_000  # at most, of those games
PROBE_NODES = 3000  # the short search before them
COSTLY_BOUNDS_AFTER = 300  # nodes searched before bounds 5 and 6 are asked inside the search
TABLE_LIMIT = 3_000_000  # transposition table entries (a few hundred bytes each)
ROLLOUT_NOISE = (0.03, 0.06, 0.1, 0.2)  # chances of not taking the policy's first choice
ROLLOUT_SEED = 20_240_917


class Abort(Exception):
    """The time or node limit was reached; ``upper`` bounds the aborted subtree's value."""

    def __init__(self, upper: int) -> None:
        super().__init__(upper)
        self.upper = upper


class Solver:
    """One search of one deal: the best line found (``best``, ``best_line``), the nodes
    visited, and the transposition table."""

    def __init__(self, deal: Deal, deadline: float, node_limit: int | None) -> None:
        self.deal = deal
        self.bounds = Bounds(deal)
        self.upper = self.bounds.upper
        self.deadline = deadline
        self.node_limit = node_limit
        self.node_cap = node_limit
        self.last_stall = 0 if deal.until_perfect else deal.players - 1
        # whether a whole round of clues before the last draw leads back to the same state
        self.round_of_clues = not deal.until_perfect
        self.nodes = 0
        self.best = -1
        self.best_line: list[tuple[int, int]] = []
        self.path: list[tuple[int, int]] = []
        self.tt: dict[tuple, int] = {}
        # a hand's code: 2 bits per identity (a hand holds at most 3 copies), junk on top
        self.weight = tuple(1 << (2 * i) for i in deal.ident)
        # the second greedy policy clues whenever it may rather than discard a needed card
        self.stall_always = False

    # -- the phases ----------------------------------------------------------------------------

    def solve(self, st: tuple, start: float, time_limit: float) -> tuple[int, int, bool]:
        """Bounds on the best score from ``st`` (self.best_line reaches the lower one)."""
        upper = self._greedy_lines(st)
        every_needed_card = sum(st[DEAD]) - len(st[DEAD])
        if self.best < upper == every_needed_card and self.bounds.all_needed_ruled_out(st):
            upper -= 1  # bound 5 or 6: not every needed card, so at least one point less
        timed_out = False
        # a short search first (it settles most endgames), then randomised games, then the
        # search to the end: the transposition table keeps what the short one proved
        for phase in ("probe", "rollouts", "search"):
            if self.best >= upper:
                break
            if phase == "rollouts":
                self.rollouts(st, upper, start + time_limit * ROLLOUT_SHARE)
                continue
            self.node_cap = self.node_limit
            if phase == "probe":
                probe = self.nodes + PROBE_NODES
                self.node_cap = probe if self.node_limit is None else min(probe, self.node_limit)
            try:
                bound = self.dfs(st)
            except Abort as abort:
                upper = min(upper, max(abort.upper, self.best))
                if phase == "search" or self.out_of_nodes() or self.out_of_time():
                    timed_out = True
                    break
            else:
                upper = min(upper, max(bound, self.best))
        return self.best, upper, timed_out

    def _greedy_lines(self, st: tuple) -> int:
        """Both greedy policies' lines (the second only if the first does not reach the
        bound); the static bound of ``st``."""
        upper = self.upper(st)
        for stall_always in (False, True):
            self.stall_always = stall_always
            value, line = self.greedy(st)
            if value > self.best:
                self.best = value
                self.best_line = line
            if self.best >= upper:
                break
        self.stall_always = False
        return upper

    def greedy(self, st: tuple) -> tuple[int, list[tuple[int, int]]]:
        """Play the policy's first choice to the end: a line and its score."""
        deal = self.deal
        line = []
        while st[END] is None:
            move = self.ordered_moves(st)[0]
            line.append(move)
            st = step(deal, st, *move)
            self.nodes += 1
        return score(st), line

    def rollouts(self, st: tuple, upper: int, until: float) -> None:
        """Randomised greedy games (the policy, now and then its second or third choice),
        each abandoned as soon as its bound cannot beat the best line: cheap lower bounds."""
        rng = random.Random(ROLLOUT_SEED)
        count = 0
        while (
            self.best < upper
            and count < ROLLOUTS
            and time.perf_counter() < until
            and not self.out_of_nodes()
        ):
            self.stall_always = count % 2 == 1
            eps = ROLLOUT_NOISE[count // 2 % len(ROLLOUT_NOISE)]
            count += 1
            self._rollout(st, rng, eps)
        self.stall_always = False

    def _rollout(self, st: tuple, rng: random.Random, eps: float) -> None:
        """One randomised game from ``st``: kept if it ends above the best line."""
        deal = self.deal
        line = []
        while st[END] is None:
            moves = self.ordered_moves(st)
            move = moves[0]
            if len(moves) > 1 and rng.random() < eps:
                move = moves[1 + rng.randrange(min(2, len(moves) - 1))]
            line.append(move)
            st = step(deal, st, *move)
            self.nodes += 1
            if self.upper(st) <= self.best:
                return
        value = score(st)
        if value > self.best:
            self.best = value
            self.best_line = line

    def out_of_nodes(self) -> bool:
        return self.node_limit is not None and self.nodes > self.node_limit

    def out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline

    # -- the depth-first search ----------------------------------------------------------------

    def key(self, st: tuple) -> tuple:
        """The state up to equivalence: seats counted from the player to move; each hand as
        the multiset of its needed identities plus its number of useless cards (all alike)."""
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        deal = self.deal
        players = deal.players
        seat = turn % players
        suit = deal.suit
        rank = deal.rank
        weight = self.weight
        code = 0
        for k in range(players):
            code <<= 64
            for c in hands[(seat + k) % players]:
                s = suit[c]
                if fw[s] < rank[c] < dead[s]:
                    code += weight[c]
                else:
                    code += JUNK_WEIGHT
        return (code, nxt, fw, tokens, fuses, -1 if end_turn is None else end_turn - turn)

    def dominating_bound(self, base: tuple, stalls: int, known: int | None) -> int | None:
        """The least bound stored for a state at least as good as ``base``: the same after
        no clue (it allows more), with more fuses (a fuse only ever helps), or, before the
        last draw, with a whole round of clues more (which can be spent to reach ``base``)."""
        tt = self.tt
        code, nxt, fw, tokens, fuses, left = base
        better = []
        if stalls:
            better.append(base)
        if fuses < self.deal.fuses:
            better.append((code, nxt, fw, tokens, fuses + 1, left))
        if left < 0 and self.round_of_clues:
            players = self.deal.players
            for more in range(tokens + players, MAX_CLUE_TOKENS + 1, players):
                better.append((code, nxt, fw, more, fuses, left))
        for other in better:
            bound = tt.get((other, 0))
            if bound is not None and (known is None or bound < known):
                known = bound
        return known

    def dfs(self, st: tuple, stalls: int = 0) -> int:
        """An upper bound on the best final score from ``st`` (exact if above self.best on
        entry); raises Abort at the limits. ``stalls``: the clues given in a row."""
        self.nodes += 1
        if st[END] is not None:
            v = score(st)
            if v > self.best:
                self.best = v
                self.best_line = self.path[:]
            return v
        if (not self.nodes & 1023 and time.perf_counter() > self.deadline) or (
            self.node_cap is not None and self.nodes > self.node_cap
        ):
            raise Abort(self.upper(st))
        if st[END_TURN] is not None:
            stalls = 0
        base = self.key(st)
        key = (base, stalls)
        tt = self.tt
        if len(tt) > TABLE_LIMIT:  # forgetting proved bounds is safe; it bounds memory
            tt.clear()
            self.bounds.clear_caches()
        known = tt.get(key)
        if known is None or known > self.best:
            known = self.dominating_bound(base, stalls, known)
        if known is not None and known <= self.best:
            return known
        ub = self._node_bound(st, base, known)
        if ub <= self.best:
            tt[key] = ub
            return ub
        result = self._search_moves(st, stalls, ub)
        tt[key] = result
        return result

    def _node_bound(self, st: tuple, base: tuple, known: int | None) -> int:
        """The bound of a state the table does not settle: the static bounds and the stored
        one; bound 5 or 6 only where it cuts, once the search has run a while (they cost
        more than bounds 2 and 3, and most deals never need them)."""
        ub = self.upper(st, self.bounds.held_of(st[HANDS]))
        if known is not None and known < ub:
            ub = known
        if (
            ub == self.best + 1
            and self.nodes > COSTLY_BOUNDS_AFTER
            and ub == sum(st[DEAD]) - len(st[DEAD])
            and self.bounds.all_needed_ruled_out(st, base)
        ):
            ub -= 1
        return ub

    def _search_moves(self, st: tuple, stalls: int, ub: int) -> int:
        """The best of the moves' values (at most ``ub``), until the best line reaches
        ``ub``; at the limits, raises Abort with a bound over the moves not yet searched."""
        deal = self.deal
        path = self.path
        result = -1
        moves = self.ordered_moves(st)
        if stalls and stalls == self.last_stall and st[TOKENS] + stalls < MAX_CLUE_TOKENS:
            # the next clue would complete a round of clues: never needed (README)
            moves = [m for m in moves if m[0] != CLUE]
        for index, move in enumerate(moves):
            path.append(move)
            try:
                if move[0] == CLUE:
                    v = self.dfs(step(deal, st, *move), min(stalls + 1, self.last_stall))
                else:
                    v = self.dfs(step(deal, st, *move))
            except Abort as abort:
                rest = [self.upper(step(deal, st, *m)) for m in moves[index + 1 :]]
                raise Abort(min(ub, max([result, abort.upper, *rest]))) from None
            finally:
                path.pop()
            if v > result:
                result = v
            if self.best >= ub:
                break
        return result if result < ub else ub

    # -- move ordering -------------------------------------------------------------------------

    def ordered_moves(self, st: tuple) -> list[tuple[int, int]]:
        """The moves worth trying, best first (by a cheating greedy policy).

        Equivalent moves are merged (one clue; one move per identity) and dominated ones left
        out: with a useless card in hand ("junk": already played, unreachable, or a second
        copy in the same hand), discarding (or, at 8 tokens, misplaying) it is at least as good
        as discarding any other card; below 8 tokens a misplay is never needed."""
        seat = st[TURN] % self.deal.players
        hand = st[HANDS][seat]
        plays, junk, free, keep, crit = self._hand_roles(st, seat)
        if len(plays) > 1:
            plays.sort(key=lambda c: self._play_priority(c, st))
        moves = [(PLAY, c) for c in plays]
        can_discard = may_discard(st[TOKENS])
        clue = may_clue_someone(self.deal.options, st[HANDS], seat, st[TOKENS])
        if can_discard and junk is not None:
            moves.append((DISCARD, junk))
            if clue:
                moves.append((CLUE, NO_CARD))
        elif can_discard:
            moves += self._discards_and_clue(st, seat, plays, free, keep, crit, clue)
        else:
            if clue:
                moves.append((CLUE, NO_CARD))
            if st[FUSES] > 1:
                # 8 tokens: a misplay cycles a card (junk first), except with the last fuse
                if junk is not None:
                    moves.append((PLAY, junk))
                else:
                    moves += [(PLAY, c) for c in free + keep + crit if c not in plays]
        if not moves:
            # 8 tokens, nobody else holds a card, nothing playable and the last fuse (until
            # perfect): every legal move burns it
            moves.append((PLAY, hand[0]))
        return moves

    def _hand_roles(self, st: tuple, seat: int) -> tuple:
        """The cards of the player to move, one per needed identity: (playable ones, a junk
        card or None, needed cards another hand also holds, needed cards with a copy still
        in the deck, needed cards whose every other copy is lost)."""
        hands = st[HANDS]
        fw = st[FW]
        dead = st[DEAD]
        nxt = st[NXT]
        deal = self.deal
        players = deal.players
        suit = deal.suit
        rank = deal.rank
        ident = deal.ident
        last_pos = deal.last_pos
        elsewhere = set()  # identities in the other hands
        for k in range(1, players):
            for c in hands[(seat + k) % players]:
                elsewhere.add(ident[c])
        plays = []
        junk = None
        free = []
        keep = []
        crit = []
        seen = set()
        for c in hands[seat]:
            s = suit[c]
            r = rank[c]
            i = ident[c]
            if r <= fw[s] or r >= dead[s] or i in seen:
                if junk is None:
                    junk = c
                continue
            seen.add(i)
            if fits_firework(fw[s], r):
                plays.append(c)
            if i in elsewhere:
                free.append(c)
            elif last_pos[i] >= nxt:
                keep.append(c)
            else:
                crit.append(c)
        return plays, junk, free, keep, crit

    def _discards_and_clue(
        self,
        st: tuple,
        seat: int,
        plays: list[int],
        free: list[int],
        keep: list[int],
        crit: list[int],
        clue: bool,
    ) -> list[tuple[int, int]]:
        """Below 8 tokens with no junk: discard a card another hand also holds; stall when
        it helps (or always, in the second policy); discard a card with a copy in the deck
        (the highest rank first, then the one whose next copy comes soonest); stall; then
        discard playable cards and last copies."""
        moves = [(DISCARD, c) for c in free if c not in plays]
        stall_first = clue and (not keep or self.stall_always or self._stall_useful(st, seat))
        if stall_first:
            moves.append((CLUE, NO_CARD))
        if len(keep) > 1:
            rank = self.deal.rank
            nxt = st[NXT]
            keep.sort(key=lambda c: (-rank[c], self._next_copy(c, nxt)))
        moves += [(DISCARD, c) for c in keep if c not in plays]
        if clue and not stall_first:
            moves.append((CLUE, NO_CARD))
        moves += [(DISCARD, c) for c in free + keep if c in plays]
        moves += [(DISCARD, c) for c in crit]
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
        ident = deal.ident
        hands = st[HANDS]
        players = deal.players
        count: dict[int, int] = {}
        for h in hands:
            for c in h:
                count[ident[c]] = count.get(ident[c], 0) + 1
        for k in range(1, players):
            for c in hands[(seat + k) % players]:
                s = suit[c]
                r = rank[c]
                if r <= fw[s] + 1 or r >= dead[s] or count[ident[c]] > 1:
                    return True
        return False

    def _play_priority(self, c: int, st: tuple) -> tuple:
        """Plays first: a 5 that gives a token back, then cards whose next rank someone
        holds, lowest rank first."""
        deal = self.deal
        r = deal.rank[c]
        bonus = five_returns_token(r, st[TOKENS])
        unlocks = False
        if r < MAX_RANK:
            successor = deal.ident[c] + 1
            unlocks = any(deal.ident[o] == successor for h in st[HANDS] for o in h)
        return (not bonus, not unlocks, r)
