"""The second method for the best score of a team that sees every card: the whole game as a
boolean formula, solved by a SAT solver (CaDiCaL, through python-sat), for the deals that
the search of team_search.py leaves open (games/analysis/team.py asks it).

``reaches(deal, st, k, time_limit)`` asks whether the final score k can be reached from the
compact state ``st`` (games/analysis/team_model.py): yes with a line of moves, no with the
solver's proof, or unknown at the time limit. Every "yes" line is replayed by the engine
(in team.py) before it counts, so a slip in the formula can never report a score that
cannot be reached; "no" is as sound as the formula is complete: every line of the real game
that reaches k, or a line at least as good, satisfies it ("The second method" in
games/analysis/README.md argues it; the tests hold its answers to the search's on decks the
search settles).

The formula, over the turns u = 0, 1, ... from ``st`` (seat (turn + u) mod players):

* ``act[kind, c, u]``: card c is played, discarded or misplayed on turn u, each card at most
  once, only on a turn of its holder: a card in a hand is its seat's; the j-th card left in
  the deck belongs to whoever made the (j+1)-th play or discard, from that seat's next turn;
* ``drawn[u][j]``: at least j plays or discards before turn u (an order encoding of the
  cards drawn), so that the last round is exact: no turn more than players after the one
  that draws the last card;
* a turn is one play, discard or misplay (``moved``), or a clue, or nothing: the game has
  stopped, and stays stopped (from any state, clues and discards lead to the end without
  losing a point, and the line the engine replays takes them);
* ``tokens[u][v]``: at least v clue tokens before turn u (order encoding: a 5 placed at 8
  keeps 8 by itself); a clue needs one, a discard fewer than 8;
* ``placed[i][u]``: identity i is on its firework before turn u; a card is placed only on
  its predecessor and once per identity; a misplay is of a card that does not fit then;
  fewer misplays than fuses (the last one loses everything);
* two moves left out, as the search leaves them out (each line using them has one as good
  without): a misplay below 8 tokens, and a whole round of clues before the last draw that
  does not start at 8 tokens;
* the score: at least k cards on the fireworks.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from games.engine.cards import MAX_RANK
from games.engine.options import MAX_CLUE_TOKENS

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
)

YES, NO, UNKNOWN = "yes", "no", "unknown"
# Glucose 4 proved the hard 2-player decks faster than CaDiCaL 1.9.5 (25 s against 37 s on
# seed 133), and stops when interrupted at the time limit (CaDiCaL did not)
SOLVER = "glucose4"
MISPLAY = 3  # a kind of the formula only: the engine's move is a play that does not fit
KINDS = (PLAY, DISCARD, MISPLAY)


@dataclass
class Answer:
    """The solver's answer to "can the score reach k?": ``verdict`` YES (with ``moves``, a
    line of compact moves), NO (proved), or UNKNOWN (out of time)."""

    k: int
    verdict: str
    moves: list[tuple[int, int]] = field(default_factory=list)
    seconds: float = 0.0


def applies(deal: Deal, st: tuple) -> bool:
    """Whether the formula covers this state: a game going on, with a last round (play until
    perfect has none: its answer is the maximum or 0, which the search decides)."""
    return st[END] is None and not deal.until_perfect


def turns_bound(deal: Deal, st: tuple, k: int) -> int:
    """How many turns a line reaching k takes at most.

    Plays and discards: at most one per card left to draw, then one per player in the last
    round. Clues: at most the tokens there are now and every token gained later, by a
    discard (a play or discard that is not one of the k - score cards placed) or by a 5."""
    if st[END_TURN] is not None:
        return st[END_TURN] - st[TURN]
    actions = deal.n - st[NXT] + deal.players
    placed = k - sum(st[FW])
    fives = sum(1 for height in st[FW] if height < MAX_RANK)
    return actions + st[TOKENS] + max(0, actions - placed) + fives


class Formula:
    """The clauses of "the score can reach k from st", and how to read a line from a model."""

    def __init__(self, deal: Deal, st: tuple, k: int) -> None:
        self.deal = deal
        self.st = st
        self.k = k
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.true = self.new()
        self.clauses.append([self.true])
        self.horizon = turns_bound(deal, st, k)
        self.card_set = set(st[HANDS][0]).union(*st[HANDS], range(st[NXT], deal.n))
        self.left = deal.n - st[NXT]  # cards left to draw
        self._cards()
        self._turns()
        self._draws()
        self._holders()
        self._tokens()
        self._fireworks()

    # -- helpers ---------------------------------------------------------------------------

    def new(self) -> int:
        return self.pool.id()

    def add(self, *literals: int) -> None:
        self.clauses.append(list(literals))

    def at_most(self, literals: list[int], bound: int) -> None:
        if bound < 0:
            self.add()  # the empty clause: impossible
        elif len(literals) > bound:
            enc = CardEnc.atmost(literals, bound, vpool=self.pool, encoding=EncType.seqcounter)
            self.clauses.extend(enc.clauses)

    def at_least(self, literals: list[int], bound: int) -> None:
        if bound > len(literals):
            self.add()  # the empty clause: impossible
        elif bound == len(literals):
            self.clauses.extend([lit] for lit in literals)
        elif bound > 0:
            enc = CardEnc.atleast(literals, bound, vpool=self.pool, encoding=EncType.seqcounter)
            self.clauses.extend(enc.clauses)

    def any_of(self, literals: Iterable[int]) -> int:
        """A new variable equal to the disjunction of ``literals``."""
        literals = list(literals)
        var = self.new()
        for lit in literals:
            self.add(-lit, var)
        self.add(-var, *literals)
        return var

    def _seat(self, u: int) -> int:
        return (self.st[TURN] + u) % self.deal.players

    # -- the clauses -------------------------------------------------------------------------

    def _cards(self) -> None:
        """``act[kind, c, u]`` for every card and every turn it may be used on."""
        st, players = self.st, self.deal.players
        self.act: dict[tuple[int, int, int], int] = {}
        self.cards = []
        for seat, hand in enumerate(st[HANDS]):
            for c in hand:
                self.cards.append(c)
                first = (seat - st[TURN]) % players
                self._card_turns(c, range(first, self.horizon, players))
        for j in range(self.left):
            c = st[NXT] + j
            self.cards.append(c)
            # drawn on turn j at the earliest, used on its drawer's next turn at the earliest
            self._card_turns(c, range(j + players, self.horizon))

    def _useful(self, c: int) -> bool:
        s, r = self.deal.suit[c], self.deal.rank[c]
        return self.st[FW][s] < r < self.st[DEAD][s]

    def _card_turns(self, c: int, turns: range) -> None:
        useful = self._useful(c)
        for u in turns:
            for kind in KINDS:
                if kind != PLAY or useful:
                    self.act[kind, c, u] = self.new()

    def _turns(self) -> None:
        """Per turn: one play, discard or misplay (``moved``), or a clue, or nothing (the
        game has stopped: then it stays stopped); each card used at most once."""
        horizon = self.horizon
        by_turn: list[list[int]] = [[] for _ in range(horizon)]
        by_card: dict[int, list[int]] = {c: [] for c in self.cards}
        self.by_kind_turn: dict[tuple[int, int], list[int]] = {}
        for (kind, c, u), var in self.act.items():
            by_turn[u].append(var)
            by_card[c].append(var)
            self.by_kind_turn.setdefault((kind, u), []).append(var)
        for used in by_card.values():
            self.at_most(used, 1)
        self.moved, self.clue, self.on = [], [], []
        for u in range(horizon):
            self.at_most(by_turn[u], 1)
            moved = self.any_of(by_turn[u])
            clue = self.new()
            on = self.any_of([moved, clue])
            self.add(-moved, -clue)
            if u:
                self.add(-on, self.on[u - 1])
            self.moved.append(moved)
            self.clue.append(clue)
            self.on.append(on)

    def _draws(self) -> None:
        """``drawn[u][j]``: at least j plays or discards before turn u (j <= cards left);
        ``draw[j][u]``: turn u draws the j-th card left (the (j+1)-th play or discard)."""
        horizon, left, true = self.horizon, self.left, self.true
        drawn = [[true] + [-true] * left]
        for u in range(horizon):
            prev, moved = drawn[u], self.moved[u]
            row = [true]
            for j in range(1, left + 1):
                if j > u + 1:
                    row.append(-true)
                    continue
                var = self.new()
                # var == prev[j] or (prev[j - 1] and moved)
                self.add(-prev[j], var)
                self.add(-prev[j - 1], -moved, var)
                self.add(-var, prev[j - 1])
                self.add(-var, prev[j], moved)
                row.append(var)
            drawn.append(row)
        self.drawn = drawn
        self.draw: list[dict[int, int]] = []
        for j in range(left):
            per_turn = {}
            for u in range(j, horizon):
                var = self.new()
                # var == drawn[u + 1][j + 1] and not drawn[u][j + 1]
                self.add(-var, drawn[u + 1][j + 1])
                self.add(-var, -drawn[u][j + 1])
                self.add(var, -drawn[u + 1][j + 1], drawn[u][j + 1])
                per_turn[u] = var
            self.draw.append(per_turn)
        if self.st[END_TURN] is None:
            players = self.deal.players
            # the last round: no turn more than `players` after the one that draws the last
            # card (last_round_ends_at), i.e. none at u once it was drawn before u - players
            for u in range(players, horizon):
                self.add(-drawn[u - players][left], -self.on[u])

    def _holders(self) -> None:
        """A card from the deck is used only by its drawer, after drawing it."""
        players = self.deal.players
        for j in range(self.left):
            c = self.st[NXT] + j
            # held[u]: card c was drawn on turn u or on one of that seat's turns before
            held: dict[int, int] = {}
            for u in range(j, self.horizon):
                earlier = held.get(u - players)
                if earlier is None:
                    held[u] = self.draw[j][u]
                else:
                    held[u] = self.new()
                    self.add(-held[u], earlier, self.draw[j][u])
            for kind in KINDS:
                for u in range(j + players, self.horizon):
                    var = self.act.get((kind, c, u))
                    if var is not None:
                        self.add(-var, held[u - players])

    def _tokens(self) -> None:
        """``tokens[u][v]``: at least v tokens before turn u (v = 0..8; [0] is true)."""
        horizon, true, deal = self.horizon, self.true, self.deal
        top = MAX_CLUE_TOKENS
        start = self.st[TOKENS]
        tokens = [[true] + [true if v <= start else -true for v in range(1, top + 1)]]
        for u in range(horizon):
            now = tokens[u]
            discards = self.by_kind_turn.get((DISCARD, u), [])
            misplays = self.by_kind_turn.get((MISPLAY, u), [])
            fives = [
                var
                for var in self.by_kind_turn.get((PLAY, u), [])
                if deal.rank[self.card_of[var]] == MAX_RANK
            ]
            for var in discards:
                self.add(-var, -now[top])  # may_discard
            for var in misplays:
                self.add(-var, now[top])  # a misplay below 8 tokens: a discard is as good
            clue = self.clue[u]
            self.add(-clue, now[1])  # may_clue
            gain = self.any_of(discards + fives)
            after = [true] + [self.new() for _ in range(top)]
            for v in range(1, top + 1):
                self.add(-after[v], after[v - 1])
                higher = now[v + 1] if v < top else -true
                # a clue: one fewer
                self.add(-clue, -higher, after[v])
                self.add(-clue, higher, -after[v])
                # a discard or a placed 5: one more, at most 8
                self.add(-gain, -now[v - 1], after[v])
                self.add(-gain, now[v - 1], -after[v])
                # anything else: as many
                self.add(clue, gain, -now[v], after[v])
                self.add(clue, gain, now[v], -after[v])
            tokens.append(after)
        self.tokens = tokens
        if self.st[END_TURN] is None:
            players, left = deal.players, self.left
            for u in range(horizon - players + 1):
                # a whole round of clues before the last draw starts at 8 tokens
                self.add(
                    *[-self.clue[v] for v in range(u, u + players)],
                    self.drawn[u + players - 1][left],
                    tokens[u][top],
                )

    @property
    def card_of(self) -> dict[int, int]:
        if not hasattr(self, "_card_of"):
            self._card_of = {var: c for (_, c, _), var in self.act.items()}
        return self._card_of

    def _fireworks(self) -> None:
        """``placed[i][u]``: identity i is on its firework before turn u."""
        deal, st, horizon, true = self.deal, self.st, self.horizon, self.true
        fw = st[FW]
        plays: dict[int, list[list[int]]] = {}
        for (kind, c, u), var in self.act.items():
            if kind == PLAY:
                plays.setdefault(deal.ident[c], [[] for _ in range(horizon)])[u].append(var)
        placed: dict[int, list[int]] = {}
        for i, per_turn in plays.items():
            row = [-true]
            for u in range(horizon):
                var = self.new()
                # var == row[u] or one of this turn's plays of i
                self.add(-row[u], var)
                for play in per_turn[u]:
                    self.add(-play, var)
                    self.add(-play, -row[u])  # each identity is placed once
                self.add(-var, row[u], *per_turn[u])
                row.append(var)
            placed[i] = row

        def on_firework(s: int, r: int, u: int) -> int:
            """Rank r of suit s is on its firework before turn u (a literal)."""
            if r <= fw[s]:
                return true
            i = s * MAX_RANK + r - 1
            return placed[i][u] if i in placed else -true

        misplays = []
        for (kind, c, u), var in self.act.items():
            s, r = deal.suit[c], deal.rank[c]
            if kind == PLAY:
                self.add(-var, on_firework(s, r - 1, u))
            elif kind == MISPLAY:
                misplays.append(var)
                if self._useful(c):
                    # it does not fit: its identity is placed already, or the rank below not
                    self.add(-var, on_firework(s, r, u), -on_firework(s, r - 1, u))
        self.at_most(misplays, st[FUSES] - 1)
        # redundant, for the solver's sake (pace): a line has at most one play or discard
        # per card left to draw and one per player after, and k - score of them place cards
        thrown = [
            self.any_of(
                self.by_kind_turn.get((DISCARD, u), []) + self.by_kind_turn.get((MISPLAY, u), [])
            )
            for u in range(horizon)
        ]
        self.at_most(thrown, self.left + deal.players - (self.k - sum(fw)))
        self._keep_needed(placed)
        self.at_least([row[horizon] for row in placed.values()], self.k - sum(fw))

    def _keep_needed(self, placed: dict[int, list[int]]) -> None:
        """Redundant, for the solver's sake: on every turn, the hands hold at most players x
        hand size cards, and of every identity placed later whose copies are all drawn by
        then, one copy (the storage argument of bounds 3 and 5)."""
        deal, st, horizon, true = self.deal, self.st, self.horizon, self.true
        capacity = deal.players * deal.hand_size
        uses: dict[int, list[list[int]]] = {c: [[] for _ in range(horizon)] for c in self.cards}
        for (_, c, u), var in self.act.items():
            uses[c][u].append(var)
        in_hand: dict[int, list[int]] = {}
        drawn_by: dict[int, list[int]] = {}
        for c in self.cards:
            used = -true  # c was used before turn u
            row, avail_row = [], []
            for u in range(horizon):
                avail = self.drawn[u][c - st[NXT] + 1] if c >= st[NXT] else true
                var = self.new()
                # var == avail and not used
                self.add(-var, avail)
                self.add(-var, -used)
                self.add(var, -avail, used)
                row.append(var)
                avail_row.append(avail)
                if uses[c][u]:
                    used = self.any_of(uses[c][u] if used == -true else [used, *uses[c][u]])
            in_hand[c] = row
            drawn_by[c] = avail_row
        for u in range(horizon):
            self.at_most([in_hand[c][u] for c in self.cards], capacity)
        for i, row in placed.items():
            copies = [c for c in deal.copies[i] if c in self.card_set]
            for u in range(horizon):
                self.add(
                    row[u],
                    -row[horizon],
                    *[in_hand[c][u] for c in copies],
                    *[-drawn_by[c][u] for c in copies if drawn_by[c][u] != true],
                )

    def phases(self, moves: list[tuple[int, int]]) -> list[int]:
        """The literals that make the formula's turns follow ``moves``, as far as it can."""
        literals = []
        for u, (kind, c) in enumerate(moves[: self.horizon]):
            literals.append(self.on[u])
            if kind == CLUE:
                literals.append(self.clue[u])
                continue
            for var in (self.act.get((kind, c, u)), self.act.get((MISPLAY, c, u))):
                if var is not None:
                    literals.append(var)
                    break
        return literals

    # -- reading a model ---------------------------------------------------------------------

    def line(self, model: list[int]) -> list[tuple[int, int]]:
        """The model's moves, turn by turn until the game stops (a misplay is a PLAY: the
        engine places the card only if it fits, and the formula says it does not)."""
        true_vars = {lit for lit in model if lit > 0}
        chosen = {}
        for (kind, c, u), var in self.act.items():
            if var in true_vars:
                chosen[u] = (PLAY if kind == MISPLAY else kind, c)
        moves = []
        for u in range(self.horizon):
            if self.on[u] not in true_vars:
                break
            moves.append(chosen.get(u, (CLUE, NO_CARD)))
        return moves


def reaches(
    deal: Deal, st: tuple, k: int, time_limit: float, hint: list[tuple[int, int]] | None = None
) -> Answer:
    """Whether the team can end the game with at least k from ``st`` (see ``applies``).

    ``hint``: a line of compact moves from ``st`` (the search's best) that the solver tries
    first: a line reaching k is often a few changes away from it."""
    started = time.perf_counter()
    formula = Formula(deal, st, k)
    with Solver(name=SOLVER, bootstrap_with=formula.clauses) as solver:
        if hint:
            solver.set_phases(formula.phases(hint))
        left = time_limit - (time.perf_counter() - started)
        timer = threading.Timer(max(0.0, left), solver.interrupt)
        timer.start()
        try:
            status = solver.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
        model = solver.get_model() if status else None
    seconds = time.perf_counter() - started
    if status is True:
        return Answer(k, YES, formula.line(model), seconds)
    if status is False:
        return Answer(k, NO, [], seconds)
    return Answer(k, UNKNOWN, [], seconds)
