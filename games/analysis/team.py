"""The best score a team that sees every card could reach in the real game.

``best_score(state)`` answers, for a full-information state at any point of a game (the deal,
a position in the middle, the last round): what is the highest final score the players could
have reached with these hands, this deck order, their clue tokens, fuses, turn order and hand
sizes, if each of them could see every card, their own and the deck included?
``analyse_deal(options, deck)`` asks it of the deal. The problem is NP-hard, so the answer is
a pair of bounds, ``lower <= best <= upper``, found by an exact search that stops at a time
(or node) limit: when the bounds meet, the answer is exact; otherwise both are still true.
``lower`` always comes with a line of play that reaches it, replayed through the engine
before it is returned (a disagreement is a bug: ``LineMismatch``).

Pure Python, no Django. The rules engine (``games.engine``) stays the authority: the search
runs on a compact model of the game (``_legal``, ``_step``) that asks the engine's rule
predicates (``games.engine.rules``: ``may_discard``, ``may_clue_someone``, ``fits_firework``,
``game_end``...) on its own compact states, and the tests compare it with the engine action
by action on random games of every variant.

The compact model
-----------------
A state is a tuple of ints and tuples: turn, hands (card ids), the next card to draw,
fireworks, ``dead`` (per suit, the lowest rank above the firework whose every copy is lost),
clue tokens, fuses, the turn the last round ends, and the ending. With every card known, a
clue changes nothing but the tokens, so all clues are one move, "stall", legal when a token
is left and another player holds a card (any card is touched by its own rank), or always
with empty clues. Endings and the score follow the engine's order exactly (strikeout first,
then a complete display, then the variant's own endings).

Moves the search leaves out (none of them can be needed for the best score)
---------------------------------------------------------------------------
* Equivalent moves: all clues are one; two cards of one identity in a hand are one; every
  useless card (its identity already played, or above a lost rank: "junk") is alike.
* Misplays with fewer than 8 tokens: discarding the card instead has the same effect on the
  cards, keeps the fuse and gains a token. The line goes on one token richer until it would
  gain a token at 8 (a discard at 7 in the old line: that card is misplayed, or played if it
  fits, instead; a 5's token: no token there), where the two agree again but for a spare
  fuse (or point). At 8 tokens (where nobody may discard) a misplay is kept as a way to
  cycle a card, except with the last fuse, unless it is the only legal move (until perfect).
* With junk in hand, discarding (or at 8 tokens misplaying) anything else: the state after
  throwing the junk differs only by holding the other card instead, and a team holding a
  card can do whatever it would have done holding junk in its place.
* A whole round of clues in a row (one by each player, before the last draw) that does not
  start at 8 tokens: it leads back to the same state with fewer tokens. Take a best line
  and its first such round; drop it and play the rest of the line with those extra tokens.
  The only thing they can prevent is a token gained at 8 (a discard, or a 5's token); just
  before the first such move, give the whole round of clues there instead, from 8 tokens:
  the states agree again. If the last card is drawn first, the extra tokens are harmless
  in the last round (where a discard at 8 tokens can become a clue: each player has one
  turn left, and at least as many tokens). The new line is as good and has one such round
  fewer (a round crossing the removed one starts where the round before it did, at 8).
  The search counts the clues given in a row (part of its key; a bound proved for the same
  state after no clue holds too, since it allows more).
* The equivalence of states: the transposition table's key counts seats from the player to
  move and keeps of each hand only the multiset of its needed identities and its number of
  junk cards. The discard pile need not be kept: what is lost follows from what is in the
  hands, the deck and the fireworks.
* States at least as good: a bound proved for the same state with one fuse more (a fuse
  only ever helps) or, before the last draw, a whole round of clues' worth of tokens more
  (which can be spent to reach this state) holds for this one too; the table is also asked
  for those.

Upper bounds (each a relaxation of the real game, so each is sound)
-------------------------------------------------------------------
Let *time* k = 1, 2, ... count the plays and discards from now while cards remain (the k-th
draws deck card ``next + k - 1``), and after the last draw, D + j the j-th of the last
round's turns (D = cards left to draw). There are at most T = D + players such times (T =
the turns left once the last round has begun); each plays at most one card.

1. Lost cards: a suit cannot rise past a rank whose every copy is lost (``dead``). This is
   the engine's ``max_reachable_score`` before the last draw.
2. Release times (pace): a copy in a hand can be played from time 1 (in the last round, only
   on its holder's own turn); a copy at deck position p from time p - next + 2, the time
   after it is drawn; the last card only on the final turn of the game, which is its
   drawer's next turn. Within a suit, rank r + 1 comes at least one time after rank r, so
   each needed card gets an earliest time a_i (its release, pushed up by its suit). Playing
   m cards, one per time, by time T is possible only if, for every t, at most T - t + 1 of
   them have a_i >= t; the most cards that can be played is the minimum over t of (the cards
   with a_i < t) + (T - t + 1), achieved by dropping the latest cards, which are the tops of
   their suits, so the dropped cards are still the top of each suit's run. This bounds the
   number of cards still played, and so the score. It covers "a 2 at the bottom of the deck
   leaves no time for its 3, 4 and 5".
3. Storage: before the last draw the hands always hold players × hand_size cards. After time
   k, every needed identity whose copies are all drawn by then and which is not yet played
   must have a copy in a hand. At most G(k) cards are played by time k (one per time,
   released ones only, computed by playing any released card at each time), so at least
   S(k) - min(R(k), G(k)) such identities are held, with S(k) the identities all drawn by
   k and R(k) those among them released by k. Every identity beyond the hands' capacity is
   one the team gives up, and each costs at least one point.

4. The last round, exactly: the engine's ``last_round_reachable`` (each player left to move
   places at most one card, on their own turn, after the cards below it). Nobody is ever
   forced to misplay there (the hands are full when it starts and each player moves once,
   so a clue is open while a token is, and a discard otherwise), so this is the best score.
   The compact model ends the game where the engine does: at once when it equals the score.
5. Every needed card, with squeezes (an existing checker's "pace after squeeze" and hand-size
   counting, argued afresh). Asked, before the last draw, when bounds 1 to 3 allow every
   needed card (each rank from its firework up to below its lowest lost one), of the analysed
   state and in the search only where it would cut the subtree (when it is all that keeps the
   bound above the best line) once the search has visited ``_COSTLY_BOUNDS_AFTER`` states:
   bounds 5 and 6 cost more than the others, and most deals never need them. Suppose a line
   plays them all, card i at time t_i. Then a_i <= t_i <= d_i = T - (ranks above i in its
   suit), since those come later, one per time. So only a copy released by d_i can be the one
   played ("usable"; a copy in a hand always is; the last card only for a suit's top needed
   rank). After time k (1 <= k <= D) the hands hold exactly players x hand_size = C cards,
   and every needed identity whose usable copies are all drawn by then and with a_i > k (not
   yet played) has one of them in a hand. More than C such identities: impossible. Exactly C:
   the hands hold nothing else, so every other needed identity with a_i > k is played from a
   usable copy drawn after time k, and a_i rises to that copy's release (and along its suit:
   a_(i+1) >= a_i + 1). Past d_i: impossible. Finally one card per time, each between a_i and
   d_i: the earliest deadline first schedules such unit jobs whenever anything can (ignoring
   the order within a suit only relaxes). If anything fails, the team misses a needed card
   and the bound is one less than all of them.
6. The last turns (asked as bound 5 is, when 5 does not already decide): a suit's last cards
   may arrive after the players who hold its middle have had their last turn. In a line
   playing every needed card, take X, the player who draws the last card: time D (that draw)
   is X's move, and the P times after it are the players' last turns in seat order, X's last.
   A card in a hand is played by its holder, so at a time before D, at D if X holds it, or on
   its holder's last turn; a deck copy from its release (who draws it is not followed: any
   time), the last card only at T. Each needed identity gets the times allowed by one of its
   copies within its window from bound 5, tightened along its suit (after the rank below's
   first, before the rank above's last), and the identities need distinct times: a bipartite
   matching. If for no X every identity is matched, not every needed card can be played. This
   bound depends on who holds what, not only on which identities are held; the search caches
   it on its key's hands, next card and fireworks, and tries every seat as X (so the seat to
   move does not matter).

Bounds 2, 3 and 5 depend only on the next card, the fireworks and which identities the hands
hold (``dead`` follows from them), so they are cached on that; bound 6 on the search's key.
Play until perfect has no last round: its result is the maximum or 0, so its bound is the
maximum while no needed card is lost (the state is otherwise already over, lost).
``tests/analysis/test_team_bounds.py`` checks bounds 5 and 6 against an exhaustive search
through the engine on small endgames.

The search
----------
1. Two greedy "cheating" policies: play a playable card (a 5 first while it gives a token
   back, then cards whose next rank someone holds, lowest first); else throw junk or a card
   someone else also holds; stall when someone else can play or throw junk before our next
   turn (or always, in the second policy); else discard the needed card furthest from being
   played whose copy is still in the deck.
2. A short search (step 4, a few thousand nodes): it settles most endgames outright.
3. Randomised games of that policy (a fifth of the time limit at most), each abandoned as
   soon as its bound says it cannot beat the best line found. They find the rare hard wins
   far sooner than the search, whose backtracking starts at the end of the game.
4. Depth-first branch and bound, moves in the policy's order, with a transposition table
   holding a proven upper bound per state (exact when the subtree was searched with the
   best line below it); a subtree is cut when its bound is no better than the best line.
   At the limits, the root's upper bound is the largest of the best line, the bounds of the
   moves searched, the bound of the subtree being searched and the static bounds of the
   moves not yet searched. The table forgets everything past a few million entries
   (forgetting a proved bound is safe), which bounds memory on long runs.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.actions import Clue, Discard, Play, action_to_dict
from games.engine.cards import MAX_RANK
from games.engine.options import MAX_CLUE_TOKENS, GameOptions
from games.engine.rules import (
    fits_firework,
    five_returns_token,
    game_end,
    last_round_ends_at,
    may_clue_someone,
    may_discard,
)
from games.engine.state import GameState, last_round_reachable, new_game

PLAY, DISCARD, CLUE = 0, 1, 2
_NO_CARD = -1  # the card id of a clue move
_JUNK_WEIGHT = 1 << 60  # in a hand's code (see _Solver.key)
_ROLLOUT_SHARE = 0.2  # of the time limit, for randomised greedy games before the search
_ROLLOUTS = 20_000  # at most, of those games
_PROBE_NODES = 3000  # the short search before them
_COSTLY_BOUNDS_AFTER = 300  # nodes searched before bounds 5 and 6 are asked inside the search
_TABLE_LIMIT = 3_000_000  # transposition table entries (a few hundred bytes each)
_ROLLOUT_NOISE = (0.03, 0.06, 0.1, 0.2)  # chances of not taking the policy's first choice

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
    if end is not None and end.lost:
        return 0
    return sum(st[FW])


def _legal(deal: _Deal, st: tuple) -> list[tuple[int, int]]:
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
        if kind == PLAY and fits_firework(fw[s], r):
            fw = fw[:s] + (r,) + fw[s + 1 :]
            if five_returns_token(r, tokens):
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
            if nxt == deal.n:
                end_turn = last_round_ends_at(deal.options, turn)
        hands = hands[:seat] + (hand,) + hands[seat + 1 :]
    turn += 1
    reachable = sum(dead) - len(dead)
    if end_turn is not None and turn < end_turn:
        reachable = _last_round_reach(deal, turn, hands, fw, end_turn)
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


def _last_round_reach(deal: _Deal, turn: int, hands: tuple, fw: tuple, end_turn: int) -> int:
    """The engine's exact best score in the last round (``last_round_reachable``): what the
    players with a turn left can still place, each on their own turn."""
    ident = deal.ident
    players = deal.players
    turn_hands = [[ident[c] for c in hands[t % players]] for t in range(turn, end_turn)]
    return last_round_reachable(fw, turn_hands)


def _all_matched(windows: list[list[int]]) -> bool:
    """Whether every job gets its own time among its allowed ones (bipartite matching)."""
    owner: dict[int, int] = {}

    def place(job: int, seen: set[int]) -> bool:
        for t in windows[job]:
            if t not in seen:
                seen.add(t)
                if t not in owner or place(owner[t], seen):
                    owner[t] = job
                    return True
        return False

    order = sorted(range(len(windows)), key=lambda job: (windows[job][-1], len(windows[job])))
    return all(place(job, set()) for job in order)


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
        self.node_cap = node_limit
        self.last_stall = 0 if deal.until_perfect else deal.players - 1
        # whether a whole round of clues before the last draw leads back to the same state
        self.round_of_clues = not deal.until_perfect
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
        self.upper_cache: dict[tuple, int] = {}
        self.fifth_cache: dict[tuple, bool] = {}
        self.last_turns_cache: dict[tuple, bool] = {}
        # a hand's code: 2 bits per identity (a hand holds at most 3 copies), junk on top
        self.weight = tuple(1 << (2 * i) for i in deal.ident)
        self.bit = tuple(1 << i for i in deal.ident)
        self.variant = 0

    # -- bounds --------------------------------------------------------------------------------

    def upper(self, st: tuple, held: int = -1) -> int:
        """A proven upper bound on the best final score from ``st`` (see the module doc);
        ``held``: the identities in the hands, if known."""
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
            # Before the last draw the bound depends on these only (dead follows from them).
            if held < 0:
                held = 0
                for h in hands:
                    for c in h:
                        held |= 1 << ident[c]
            cache_key = (nxt, fw, held)
            known = self.upper_cache.get(cache_key)
            if known is not None:
                return known
            tmax = left + players
            for i in range(len(rel)):
                if held >> i & 1:
                    rel[i] = 1
        else:
            # The last round: exact (bound 4).
            return _last_round_reach(deal, turn, hands, fw, end_turn)
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
        best += sum(fw)
        if cache_key is not None:
            self.upper_cache[cache_key] = best
        return best

    def all_needed_impossible(self, nxt: int, fw: tuple, dead: tuple, held: int, tmax: int) -> bool:
        """Bound 5: True when no line plays every needed card (every rank from each
        firework up to its lowest lost rank); see the module doc. ``held``: the identities
        in the hands; ``tmax``: the times left (cards to draw + players)."""
        suits = self.needed_jobs(nxt, fw, dead, held, tmax)
        if suits is None:
            return True
        # One card a time, each between its time and its deadline: earliest deadline first.
        jobs = sorted([job[0], job[1]] for chain in suits for job in chain)
        waiting: list[int] = []
        index = 0
        for t in range(1, tmax + 1):
            while index < len(jobs) and jobs[index][0] <= t:
                heapq.heappush(waiting, jobs[index][1])
                index += 1
            if waiting and heapq.heappop(waiting) < t:
                return True
        return index < len(jobs) or bool(waiting)

    def needed_jobs(
        self, nxt: int, fw: tuple, dead: tuple, held: int, tmax: int
    ) -> list[list[list]] | None:
        """Per suit, per needed rank: [earliest time, deadline, usable deck positions, time
        its last usable copy is drawn, identity], the times pushed by the squeezes of bound
        5; None when that already shows that not every needed card can be played."""
        deal = self.deal
        n = deal.n
        last = n - 1
        capacity = deal.players * deal.hand_size
        left = n - nxt
        jobs = []
        suits = []
        for s, height in enumerate(fw):
            top = dead[s] - 1
            chain = []
            a = 0
            for r in range(height + 1, top + 1):
                i = s * MAX_RANK + r - 1
                deadline = tmax - (top - r)
                usable = [
                    p
                    for p in deal.copies[i]
                    if p >= nxt and (tmax if p == last else p - nxt + 2) <= deadline
                ]
                if held >> i & 1:
                    t = 1
                elif usable:
                    t = tmax if usable[0] == last else usable[0] - nxt + 2
                else:
                    return None
                a = a + 1 if a >= t else t
                if a > deadline:
                    return None
                drawn = usable[-1] - nxt + 1 if usable else 0
                job = [a, deadline, usable, drawn, i]
                chain.append(job)
                jobs.append(job)
            suits.append(chain)
        # Squeezes: after time k the hands hold exactly ``capacity`` cards.
        k = 0
        while k < left:
            # must[k]: the identities that have to be held after time k
            must = [0] * (left + 2)
            for job in jobs:
                start = job[3] if job[3] > k else k + 1
                if start < job[0] and start <= left:
                    must[start] += 1
                    must[min(job[0], left + 1)] -= 1
            count = 0
            for squeeze in range(k + 1, left + 1):
                count += must[squeeze]
                if count >= capacity:
                    break
            else:
                break
            k = squeeze
            if count > capacity:
                return None
            for chain in suits:
                a = 0
                for job in chain:
                    if job[0] > k and job[3] > k:
                        # not held after time k: a copy drawn later is the one played
                        p = next((p for p in job[2] if p >= nxt + k), None)
                        if p is None:
                            return None
                        t = tmax if p == last else p - nxt + 2
                        if t > job[0]:
                            job[0] = t
                    if job[0] <= a:
                        job[0] = a + 1
                    a = job[0]
                    if a > job[1]:
                        return None
        return suits

    def all_needed_ruled_out(self, st: tuple, base: tuple | None = None) -> bool:
        """Whether bound 5 or 6 shows that not every needed card can be played (before the
        last draw; False otherwise). Bound 5 is cached on the next card, the fireworks and
        the identities held; bound 6 on ``base`` (the search's key: the hands, seats counted
        from the player to move, which does not matter since it tries every seat as the last
        to move), the next card and fireworks."""
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        if end is not None or end_turn is not None or self.deal.until_perfect:
            return False
        held = self.held_of(hands)
        fifth_key = (nxt, fw, held)
        known = self.fifth_cache.get(fifth_key)
        if known is None:
            tmax = self.deal.n - nxt + self.deal.players
            known = self.fifth_cache[fifth_key] = self.all_needed_impossible(
                nxt, fw, dead, held, tmax
            )
        if known:
            return True
        if base is None:
            return self.last_turns_impossible(st)
        sixth_key = base[:3]
        known = self.last_turns_cache.get(sixth_key)
        if known is None:
            known = self.last_turns_cache[sixth_key] = self.last_turns_impossible(st)
        return known

    def last_turns_impossible(self, st: tuple) -> bool:
        """Bound 6 (asked of the analysed state only): True when no line plays every needed
        card because each player plays one card in the last round, on their own turn, from
        their own hand; see the module doc."""
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        deal = self.deal
        if end is not None or end_turn is not None or deal.until_perfect:
            return False
        players = deal.players
        n = deal.n
        left = n - nxt
        tmax = left + players
        ident = deal.ident
        holders = [0] * len(self.last_pos)
        for q, hand in enumerate(hands):
            for c in hand:
                holders[ident[c]] |= 1 << q
        held = self.held_of(hands)
        suits = self.needed_jobs(nxt, fw, dead, held, tmax)
        if suits is None:
            return True
        # Per job: the first time a copy allows before D (any time from then on does), the
        # first release of a deck copy other than the last card, and whether the last card
        # is a usable copy.
        facts = []
        for chain in suits:
            for a, _deadline, usable, _drawn, i in chain:
                early = [p - nxt + 2 for p in usable if p != n - 1]
                from_deck = early[0] if early else tmax + 1
                facts.append((a if holders[i] else max(a, from_deck), from_deck, n - 1 in usable))
        for drawer in range(players):  # who draws the last card, and so moves last
            windows = []
            index = 0
            for chain in suits:
                low = 0
                spans = []
                for a, deadline, _usable, _drawn, i in chain:
                    first, from_deck, last_card = facts[index]
                    index += 1
                    slots = list(range(max(first, low + 1), min(deadline, left - 1) + 1))
                    for t in range(max(a, low + 1, left), deadline + 1):
                        if t == left:  # the move that draws the last card is the drawer's
                            ok = holders[i] >> drawer & 1 or from_deck <= t
                        else:
                            owner = (drawer + t - left) % players
                            ok = (
                                holders[i] >> owner & 1
                                or from_deck <= t
                                or (t == tmax and last_card)
                            )
                        if ok:
                            slots.append(t)
                    if not slots:
                        break
                    low = slots[0]
                    spans.append(slots)
                else:
                    high = tmax + 1
                    for slots in reversed(spans):
                        slots[:] = [t for t in slots if t < high]
                        if not slots:
                            break
                        high = slots[-1]
                    else:
                        windows += spans
                        continue
                break
            else:
                if _all_matched(windows):
                    return False
        return True

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
        last_pos = self.last_pos
        elsewhere = set()  # identities in the other hands
        for k in range(1, players):
            for c in hands[(seat + k) % players]:
                elsewhere.add(ident[c])
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
            if fits_firework(fw[s], r):
                plays.append(c)
            if i in elsewhere:
                free.append(c)
            elif last_pos[i] >= nxt:
                keep.append(c)
            else:
                crit.append(c)
        moves: list[tuple[int, int]] = []
        if plays:
            if len(plays) > 1:
                plays.sort(key=lambda c: self._play_priority(c, st))
            moves += [(PLAY, c) for c in plays]
        can_discard = may_discard(tokens)
        clue = may_clue_someone(deal.options, hands, seat, tokens)
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
        if not moves:
            # 8 tokens, nobody else holds a card, nothing playable and the last fuse (until
            # perfect): every legal move burns it
            moves.append((PLAY, hand[0]))
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
        deal = self.deal
        r = deal.rank[c]
        bonus = five_returns_token(r, st[TOKENS])
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
            self.nodes += 1
        return _score(st), line

    def solve(self, st: tuple, start: float, time_limit: float) -> tuple[int, int, bool]:
        """Bounds on the best score from ``st`` (self.best_line reaches the lower one)."""
        upper = self.upper(st)
        for variant in (0, 1):
            self.variant = variant
            value, line = self.greedy(st)
            if value > self.best:
                self.best = value
                self.best_line = line
            if self.best >= upper:
                break
        self.variant = 0
        if self.best < upper == sum(st[DEAD]) - len(st[DEAD]) and self.all_needed_ruled_out(st):
            upper -= 1  # bound 5 or 6: not every needed card, so at least one point less
        timed_out = False
        # a short search first (it settles most endgames), then randomised games, then the
        # search to the end: the transposition table keeps what the short one proved
        for phase in ("probe", "rollouts", "search"):
            if self.best >= upper:
                break
            if phase == "rollouts":
                self.rollouts(st, upper, start + time_limit * _ROLLOUT_SHARE)
                continue
            self.node_cap = self.node_limit
            if phase == "probe":
                probe = self.nodes + _PROBE_NODES
                self.node_cap = probe if self.node_limit is None else min(probe, self.node_limit)
            try:
                bound = self.dfs(st)
            except _Abort as abort:
                upper = min(upper, max(abort.upper, self.best))
                if phase == "search" or self.out_of_nodes() or self.out_of_time():
                    timed_out = True
                    break
            else:
                upper = min(upper, max(bound, self.best))
        return self.best, upper, timed_out

    def rollouts(self, st: tuple, upper: int, until: float) -> None:
        """Randomised greedy games (the policy, now and then its second or third choice),
        each abandoned as soon as its bound cannot beat the best line: cheap lower bounds."""
        deal = self.deal
        rng = random.Random(20_240_917)
        count = 0
        while (
            self.best < upper
            and count < _ROLLOUTS
            and time.perf_counter() < until
            and not self.out_of_nodes()
        ):
            self.variant = count % 2
            eps = _ROLLOUT_NOISE[count // 2 % len(_ROLLOUT_NOISE)]
            count += 1
            line = []
            x = st
            while x[END] is None:
                moves = self.ordered_moves(x)
                move = moves[0]
                if len(moves) > 1 and rng.random() < eps:
                    move = moves[1 + rng.randrange(min(2, len(moves) - 1))]
                line.append(move)
                x = _step(deal, x, *move)
                self.nodes += 1
                if self.upper(x) <= self.best:
                    break
            else:
                value = _score(x)
                if value > self.best:
                    self.best = value
                    self.best_line = line
        self.variant = 0

    def out_of_nodes(self) -> bool:
        return self.node_limit is not None and self.nodes > self.node_limit

    def out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline

    # -- search --------------------------------------------------------------------------------

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
                    code += _JUNK_WEIGHT
        return (code, nxt, fw, tokens, fuses, -1 if end_turn is None else end_turn - turn)

    def held_of(self, hands: tuple) -> int:
        """The identities in the hands, as a bitmask."""
        bit = self.bit
        held = 0
        for h in hands:
            for c in h:
                held |= bit[c]
        return held

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
            step = self.deal.players
            for more in range(tokens + step, MAX_CLUE_TOKENS + 1, step):
                better.append((code, nxt, fw, more, fuses, left))
        for other in better:
            bound = tt.get((other, 0))
            if bound is not None and (known is None or bound < known):
                known = bound
        return known

    def dfs(self, st: tuple, stalls: int = 0) -> int:
        """An upper bound on the best final score from ``st`` (exact if above self.best on
        entry); raises _Abort at the limits."""
        self.nodes += 1
        if st[END] is not None:
            v = _score(st)
            if v > self.best:
                self.best = v
                self.best_line = self.path[:]
            return v
        if (not self.nodes & 1023 and time.perf_counter() > self.deadline) or (
            self.node_cap is not None and self.nodes > self.node_cap
        ):
            raise _Abort(self.upper(st))
        if st[END_TURN] is not None:
            stalls = 0
        base = self.key(st)
        key = (base, stalls)
        tt = self.tt
        if len(tt) > _TABLE_LIMIT:  # forgetting proved bounds is safe; it bounds memory
            tt.clear()
            self.upper_cache.clear()
            self.fifth_cache.clear()
            self.last_turns_cache.clear()
        known = tt.get(key)
        if known is None or known > self.best:
            known = self.dominating_bound(base, stalls, known)
        if known is not None and known <= self.best:
            return known
        ub = self.upper(st, self.held_of(st[HANDS]))
        if known is not None and known < ub:
            ub = known
        if (
            ub == self.best + 1
            and self.nodes > _COSTLY_BOUNDS_AFTER
            and ub == sum(st[DEAD]) - len(st[DEAD])
            and self.all_needed_ruled_out(st, base)
        ):
            # bound 5 or 6, asked only where it cuts, and once the search has run a while:
            # they cost more than bounds 2 and 3, and most deals never need them
            ub -= 1
        if ub <= self.best:
            self.tt[key] = ub
            return ub
        result = -1
        deal = self.deal
        path = self.path
        moves = self.ordered_moves(st)
        if stalls and stalls == self.last_stall and st[TOKENS] + stalls < MAX_CLUE_TOKENS:
            moves = [m for m in moves if m[0] != CLUE]
        for index, move in enumerate(moves):
            path.append(move)
            try:
                if move[0] == CLUE:
                    v = self.dfs(_step(deal, st, *move), min(stalls + 1, self.last_stall))
                else:
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
    lower, upper, timed_out = solver.solve(st, start, time_limit)
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
