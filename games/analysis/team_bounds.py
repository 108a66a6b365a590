"""Proven upper bounds on the best score from a compact state (games/analysis/team_model.py).

Each is a relaxation of the real game, so each is sound; the proofs are in
``games/analysis/README.md`` ("Upper bounds"), numbered as here:

1. lost cards: a suit cannot rise past a rank whose every copy is lost (``dead``);
2. pace: each needed card has an earliest time, one card is played a time (``upper``);
3. storage: the identities that must be held at once do not fit in the hands (``upper``);
4. the last round, exactly (``team_model.last_round_reach``);
5. every needed card, with squeezes (``all_needed_impossible``, ``needed_jobs``);
6. the last turns: a suit's last cards after its holders' last turns
   (``last_turns_impossible``).

Bounds 2, 3 and 5 depend only on the next card, the fireworks and which identities the hands
hold, and are cached on that; bound 6 on the search's key (``all_needed_ruled_out``).
``tests/analysis/test_team_bounds.py`` checks bounds 5 and 6 against an exhaustive search
through the engine on small endgames.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from games.engine.cards import MAX_RANK

from .team_model import Deal, last_round_reach, score


@dataclass(slots=True)
class Job:
    """A needed card (one identity) in a line that plays every needed card (bound 5)."""

    earliest: int  # the earliest time it can be played, pushed up by its suit and squeezes
    deadline: int  # the latest: the ranks above it come later, one a time
    usable: list[int]  # the deck positions of its copies released by the deadline
    drawn: int  # the time its last usable copy is drawn (0: none in the deck)
    ident: int


class Bounds:
    """The bounds of one deal, with what they precompute and cache."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
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
        self.bit = tuple(1 << i for i in deal.ident)
        self.upper_cache: dict[tuple, int] = {}
        self.fifth_cache: dict[tuple, bool] = {}
        self.last_turns_cache: dict[tuple, bool] = {}

    def clear_caches(self) -> None:
        self.upper_cache.clear()
        self.fifth_cache.clear()
        self.last_turns_cache.clear()

    def held_of(self, hands: tuple) -> int:
        """The identities in the hands, as a bitmask."""
        bit = self.bit
        held = 0
        for h in hands:
            for c in h:
                held |= bit[c]
        return held

    # -- bounds 1 to 4 -------------------------------------------------------------------------

    def upper(self, st: tuple, held: int = -1) -> int:
        """A proven upper bound on the best final score from ``st`` (bounds 1 to 4);
        ``held``: the identities in the hands, if known."""
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        deal = self.deal
        if end is not None:
            return score(st)
        if deal.until_perfect:
            return deal.max_score
        if end_turn is not None:
            return last_round_reach(deal, turn, hands, fw, end_turn)  # bound 4: exact
        # Before the last draw the bound depends on these only (dead follows from them).
        if held < 0:
            held = self.held_of(hands)
        cache_key = (nxt, fw, held)
        known = self.upper_cache.get(cache_key)
        if known is None:
            known = self.upper_cache[cache_key] = sum(fw) + self._cards_left_to_play(
                nxt, fw, dead, held
            )
        return known

    def _cards_left_to_play(self, nxt: int, fw: tuple, dead: tuple, held: int) -> int:
        """At most how many cards are still played before the last draw: bounds 2 and 3."""
        tmax = self.deal.n - nxt + self.deal.players
        jobs = self._earliest_times(nxt, fw, dead, held, tmax)
        if not jobs:
            return 0
        pace = _pace([a for a, _ in jobs], tmax)
        storage = self._storage(jobs, nxt)
        return pace if pace < storage else storage

    def _earliest_times(
        self, nxt: int, fw: tuple, dead: tuple, held: int, tmax: int
    ) -> list[tuple[int, int]]:
        """Bound 2: (earliest time, identity) of each needed card, each suit's run cut at
        its first card that cannot be played by ``tmax``.

        Time k >= 1 is the k-th play or discard from now while cards remain to draw (it
        draws card nxt+k-1), then left+j the j-th turn after the last card is drawn. A held
        card can be played from time 1, a deck copy from the time after it is drawn (the
        last card only at ``tmax``), and rank r + 1 at least one time after rank r."""
        n = self.deal.n
        last = n - 1
        first = self.first_at[nxt]
        jobs = []
        for s, height in enumerate(fw):
            a = 0
            base = s * MAX_RANK - 1
            for r in range(height + 1, dead[s]):
                i = base + r
                t = 1 if held >> i & 1 else 99
                p = first[i]
                if p < n:
                    tp = tmax if p == last else p - nxt + 2
                    if tp < t:
                        t = tp
                a = a + 1 if a >= t else t
                if a > tmax:
                    break
                jobs.append((a, i))
        return jobs

    def _storage(self, jobs: list[tuple[int, int]], nxt: int) -> int:
        """Bound 3: after time k the hands hold players * hand_size cards, among them a copy
        of every identity whose copies are all drawn and which is not played yet; every
        identity beyond that capacity is given up. At most how many of ``jobs`` are played."""
        deal = self.deal
        left = deal.n - nxt
        tmax = left + deal.players
        last_pos = deal.last_pos
        # released[t] jobs become playable at time t; drawn[k] identities have their last
        # copy drawn at time k; ready[k] both, from time k on.
        released = [0] * (tmax + 2)
        drawn = [0] * (left + 1)
        ready = [0] * (tmax + 2)
        for a, i in jobs:
            k0 = last_pos[i] - nxt + 1
            if k0 < 0:
                k0 = 0
            released[a] += 1
            drawn[k0] += 1
            ready[a if a > k0 else k0] += 1
        m = best = len(jobs)
        capacity = deal.players * deal.hand_size
        total = ready_k = waiting = done = 0
        for k in range(left + 1):
            total += drawn[k]
            ready_k += ready[k]
            waiting += released[k]
            if waiting and k:  # at most one card played a time, a released one
                waiting -= 1
                done += 1
            v = m - total + (ready_k if ready_k < done else done) + capacity
            if v < best:
                best = v
        return best

    # -- bounds 5 and 6 ------------------------------------------------------------------------

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

    def all_needed_impossible(self, nxt: int, fw: tuple, dead: tuple, held: int, tmax: int) -> bool:
        """Bound 5: True when no line plays every needed card (every rank from each
        firework up to its lowest lost rank). ``held``: the identities in the hands;
        ``tmax``: the times left (cards to draw + players)."""
        suits = self.needed_jobs(nxt, fw, dead, held, tmax)
        if suits is None:
            return True
        return not _one_a_time(
            sorted((job.earliest, job.deadline) for chain in suits for job in chain), tmax
        )

    def needed_jobs(
        self, nxt: int, fw: tuple, dead: tuple, held: int, tmax: int
    ) -> list[list[Job]] | None:
        """Per suit, per needed rank, its ``Job``, the times pushed by the squeezes of bound
        5; None when that already shows that not every needed card can be played."""
        suits = self._needed_chains(nxt, fw, dead, held, tmax)
        if suits is None or not self._squeeze(suits, nxt, tmax):
            return None
        return suits

    def _needed_chains(
        self, nxt: int, fw: tuple, dead: tuple, held: int, tmax: int
    ) -> list[list[Job]] | None:
        """Bound 5's jobs before the squeezes: each needed card's window, from its release
        (pushed up along its suit) to its deadline; None if a window is empty."""
        deal = self.deal
        last = deal.n - 1
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
                chain.append(Job(a, deadline, usable, drawn, i))
            suits.append(chain)
        return suits

    def _squeeze(self, suits: list[list[Job]], nxt: int, tmax: int) -> bool:
        """Bound 5's squeezes: after time k the hands hold exactly ``capacity`` cards. When
        the identities that must be held then fill them, every other job is played from a
        copy drawn later, and its time rises (in place). False when that is impossible."""
        deal = self.deal
        capacity = deal.players * deal.hand_size
        left = deal.n - nxt
        jobs = [job for chain in suits for job in chain]
        k = 0
        while k < left:
            squeeze = _next_squeeze(jobs, k, left, capacity)
            if squeeze is None:
                return True
            k, count = squeeze
            if count > capacity or not self._held_elsewhere_later(suits, k, nxt, tmax):
                return False
        return True

    def _held_elsewhere_later(self, suits: list[list[Job]], k: int, nxt: int, tmax: int) -> bool:
        """After a squeeze at time k: each job not held then is played from a usable copy
        drawn after time k, and its suit's later ranks come after it. False if a job then
        has no such copy or passes its deadline."""
        last = self.deal.n - 1
        for chain in suits:
            a = 0
            for job in chain:
                if job.earliest > k and job.drawn > k:
                    # not held after time k: a copy drawn later is the one played
                    p = next((p for p in job.usable if p >= nxt + k), None)
                    if p is None:
                        return False
                    t = tmax if p == last else p - nxt + 2
                    if t > job.earliest:
                        job.earliest = t
                if job.earliest <= a:
                    job.earliest = a + 1
                a = job.earliest
                if a > job.deadline:
                    return False
        return True

    def last_turns_impossible(self, st: tuple) -> bool:
        """Bound 6: True when no line plays every needed card because each player plays one
        card in the last round, on their own turn, from their own hand."""
        turn, hands, nxt, fw, dead, tokens, fuses, end_turn, end = st
        deal = self.deal
        if end is not None or end_turn is not None or deal.until_perfect:
            return False
        players = deal.players
        tmax = deal.n - nxt + players
        holders = [0] * len(deal.last_pos)  # per identity, the seats holding it, as bits
        for q, hand in enumerate(hands):
            for c in hand:
                holders[deal.ident[c]] |= 1 << q
        suits = self.needed_jobs(nxt, fw, dead, self.held_of(hands), tmax)
        if suits is None:
            return True
        facts = [[self._copy_facts(job, holders, nxt, tmax) for job in chain] for chain in suits]
        for drawer in range(players):  # who draws the last card, and so moves last
            windows = []
            for chain, chain_facts in zip(suits, facts, strict=True):
                spans = self._chain_windows(chain, chain_facts, holders, drawer, nxt)
                if spans is None:
                    break
                windows += spans
            else:
                if _all_matched(windows):
                    return False
        return True

    def _copy_facts(self, job: Job, holders: list[int], nxt: int, tmax: int) -> tuple:
        """For bound 6: the first time a copy of the job allows before the last draw (any
        time from then on does), the first release of a deck copy other than the last card,
        and whether the last card is a usable copy."""
        last = self.deal.n - 1
        early = [p - nxt + 2 for p in job.usable if p != last]
        from_deck = early[0] if early else tmax + 1
        first = job.earliest if holders[job.ident] else max(job.earliest, from_deck)
        return first, from_deck, last in job.usable

    def _chain_windows(
        self, chain: list[Job], facts: list[tuple], holders: list[int], drawer: int, nxt: int
    ) -> list[list[int]] | None:
        """For bound 6, with ``drawer`` drawing the last card (at time D, then the players'
        last turns in seat order): the times each job of one suit may take, tightened along
        the suit (after the rank below's first, before the rank above's last); None if one
        is left with none."""
        players = self.deal.players
        left = self.deal.n - nxt  # D
        tmax = left + players
        low = 0
        spans = []
        for job, (first, from_deck, last_card) in zip(chain, facts, strict=True):
            # before D: any time its copy allows; from D on, only on its holder's turn, or
            # from a deck copy's release (the last card only at the very end)
            slots = list(range(max(first, low + 1), min(job.deadline, left - 1) + 1))
            for t in range(max(job.earliest, low + 1, left), job.deadline + 1):
                owner = (drawer + t - left) % players  # at D, the drawer
                if holders[job.ident] >> owner & 1 or from_deck <= t or (t == tmax and last_card):
                    slots.append(t)
            if not slots:
                return None
            low = slots[0]
            spans.append(slots)
        high = tmax + 1
        for slots in reversed(spans):
            slots[:] = [t for t in slots if t < high]
            if not slots:
                return None
            high = slots[-1]
        return spans


def _pace(times: list[int], tmax: int) -> int:
    """Bound 2: the most cards with these earliest times that can be played one a time by
    ``tmax``: the minimum over t of (the cards with a time < t) + (tmax - t + 1)."""
    m = best = len(times)
    times.sort(reverse=True)
    for k, a in enumerate(times):
        v = m - k + tmax - a
        if v < best:
            best = v
    return best


def _next_squeeze(jobs: list[Job], k: int, left: int, capacity: int) -> tuple[int, int] | None:
    """The first time after ``k`` (and before the last draw) at which the identities that
    must be held (every usable copy drawn, not played yet) fill the hands: (that time, how
    many), or None."""
    must = [0] * (left + 2)  # must[t] - must[t - 1]: the identities held after time t
    for job in jobs:
        start = job.drawn if job.drawn > k else k + 1
        if start < job.earliest and start <= left:
            must[start] += 1
            must[min(job.earliest, left + 1)] -= 1
    count = 0
    for squeeze in range(k + 1, left + 1):
        count += must[squeeze]
        if count >= capacity:
            return squeeze, count
    return None


def _one_a_time(windows: list[tuple[int, int]], tmax: int) -> bool:
    """Whether unit jobs, each with (earliest time, deadline) and sorted by earliest time,
    can be played one a time by ``tmax``: earliest deadline first."""
    waiting: list[int] = []
    index = 0
    for t in range(1, tmax + 1):
        while index < len(windows) and windows[index][0] <= t:
            heapq.heappush(waiting, windows[index][1])
            index += 1
        if waiting and heapq.heappop(waiting) < t:
            return False
    return index >= len(windows) and not waiting


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
