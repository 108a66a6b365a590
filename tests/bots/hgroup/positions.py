"""Convention positions for the H-Group bot, set up on the real engine.

A position is written as the H-Group documents and will-bot's tests write theirs: each
player's hand from slot 1 (newest, left) to the chop side, the fireworks' heights, cards in
the discard pile. ``Position`` deals a deck that reaches it: before the players named here
move, the fireworks are built and the discards made by the seats in turn, each playing (or
discarding) its slot-1 card, so slots 2 onwards of every hand are as dealt; then the names
are given to the seats so that "Alice" is the seat to move. The bot sees only ``view_for``.

Suits are those of the site: red, yellow, green, blue, white (will-bot's purple is white
here). "xx" is a card the test does not care about: a 4 of a suit no card of the position
uses, where possible, so that it connects to nothing.
"""

from __future__ import annotations

from collections import Counter

from games.bots.hgroup import choose_action
from games.bots.hgroup.level1 import Turn
from games.bots.hgroup.level2 import Turn2
from games.bots.hgroup.level3 import Turn3
from games.bots.hgroup.level4 import Turn4
from games.bots.hgroup.level5 import Turn5
from games.bots.hgroup.notes import Notes
from games.engine import Clue, Discard, GameOptions, Play, new_game, view_for
from games.engine.cards import SUIT_LETTERS, SUITS, Card, deck_composition

NAMES = ("Alice", "Bob", "Cathy", "Donald", "Emily")
COLOURS = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "white", "p": "white"}


def code(short: str) -> str:
    """'r1' (or 'p1', will-bot's purple) -> 'R1' (white for purple)."""
    letter = "W" if short[0].lower() == "p" else short[0].upper()
    return f"{letter}{short[1]}"


def _quiet(card: str, busy: set[str]) -> int:
    """How little a filler (or drawn) card may mean at level 2, lowest first: the 3s and 4s
    of suits the position does not use, their 2s, the 4s and 3s of the suits it uses, then
    5s and 1s (which call for a save or a play)."""
    suit, rank = card[0], card[1]
    if suit not in busy:
        return {"3": 0, "4": 0, "2": 1, "5": 4, "1": 5}[rank]
    return {"4": 2, "3": 3, "2": 6, "5": 7, "1": 8}[rank]


class Position:
    def __init__(
        self,
        hands: list[list[str]],
        stacks: dict[str, int] | list[int] | None = None,
        discards: list[str] = (),
        level: int = 1,
    ) -> None:
        self.level = level  # the H-Group level the bot reads and plays at
        players = len(hands)
        self.options = GameOptions(players=players)
        if isinstance(stacks, list):
            stacks = {letter: h for letter, h in zip("rygbw", stacks, strict=False)}
        stacks = stacks or {}
        setup: list[tuple[str, str]] = []
        for letter, height in stacks.items():
            setup += [("play", code(f"{letter}{r}")) for r in range(1, height + 1)]
        setup += [("discard", code(c)) for c in discards]
        if setup and setup[0][0] == "discard":
            raise ValueError("a position with discards needs a firework above 0 too")
        # A discard needs a token spent: seat 0 first clues seat 1's first setup card (at
        # level 2, one clue per discard: seat k clues seat k + 1's first setup card).
        lead = (len(discards) if level >= 2 else 1) if discards else 0
        used = Counter(c for _, c in setup)
        for hand in hands:
            used.update(code(c) for c in hand if c != "xx")
        self._busy = {c[0] for c in used}
        filler = self._filler(used, sum(c == "xx" for hand in hands for c in hand))
        final = [[code(c) if c != "xx" else filler.pop(0) for c in hand] for hand in hands]
        start = (len(setup) + lead) % players  # the seat to move after the setup: Alice
        self.seat_of = {NAMES[i]: (start + i) % players for i in range(players)}
        actor = [(k + lead) % players for k in range(len(setup))]
        by_seat: dict[int, list[tuple[str, str]]] = {s: [] for s in range(players)}
        for k, action in enumerate(setup):
            by_seat[actor[k]].append(action)
        final_of = {(start + i) % players: final[i] for i in range(players)}
        top: list[str] = []
        for seat in range(players):
            hand = list(final_of[seat])
            if by_seat[seat]:
                hand[0] = by_seat[seat][0][1]
            top += reversed(hand)
        taken = {s: 1 for s in range(players)}
        for k in range(len(setup)):
            seat = actor[k]
            queue = by_seat[seat]
            top.append(queue[taken[seat]][1] if taken[seat] < len(queue) else final_of[seat][0])
            taken[seat] += 1
        self.state = new_game(self.options, deck=self._deck(top))
        for k in range(lead):
            self._lead_clue(k % players, (k + 1) % players)
        for k, (kind, _) in enumerate(setup):
            cid = self.state.hand(actor[k])[0]
            self.state.apply(Play(cid) if kind == "play" else Discard(cid))
        for name, seat in self.seat_of.items():
            shown = [self.state.card(c) for c in self.state.hand(seat)]
            assert [f"{SUIT_LETTERS[c.suit]}{c.rank}" for c in shown] == final_of[seat], name

    def _lead_clue(self, giver: int = 0, target: int = 1) -> None:
        """``giver`` clues ``target``'s slot-1 card (its first setup card, played soon) alone."""
        assert self.state.current_seat == giver
        card = self.state.card(self.state.hand(target)[0])
        for clue in (Clue(target, colour=SUITS[card.suit]), Clue(target, rank=card.rank)):
            touched = self.state.clue_touches(target, clue.colour, clue.rank)
            if list(touched) == [self.state.hand(target)[0]]:
                self.state.apply(clue)
                return
        raise ValueError(f"no clue touches seat {target + 1}'s first setup card alone")

    def _filler(self, used: Counter, count: int) -> list[str]:
        left = Counter(
            f"{SUIT_LETTERS[c.suit]}{c.rank}" for c in deck_composition(self.options.multicolour)
        )
        left.subtract(used)
        busy = {c[0] for c in used}
        if self.level >= 2:
            # 3s and 4s only where possible (no 5 to save, no 1 to play, no 2 to save).
            order = sorted(left, key=lambda c: (_quiet(c, busy), c))
        else:
            order = sorted(left, key=lambda c: (c[0] in busy, abs(int(c[1]) - 4), c))
        out: list[str] = []
        for c in order:
            while left[c] > 0 and len(out) < count:
                out.append(c)
                left[c] -= 1
        return out

    def _deck(self, top: list[str]) -> list[Card]:
        chosen = [Card.parse(c) for c in top]
        remaining = Counter(deck_composition(self.options.multicolour))
        for card in chosen:
            assert remaining[card] > 0, f"too many {card}"
            remaining[card] -= 1
        rest = []
        for card in deck_composition(self.options.multicolour):
            if remaining[card] > 0:
                rest.append(card)
                remaining[card] -= 1
        if self.level >= 2:
            # The cards drawn during a position: those of the suits the position uses come
            # last, and 3s and 4s first, so that a draw connects to nothing.
            rest.sort(key=lambda c: _quiet(f"{SUIT_LETTERS[c.suit]}{c.rank}", self._busy))
        return chosen + rest

    # -- moves -------------------------------------------------------------------------------

    def seat(self, name: str) -> int:
        return self.seat_of[name]

    def card(self, name: str, slot: int) -> int:
        return self.state.hand(self.seat(name))[slot - 1]

    def clue(self, giver: str, target: str, value: str | int) -> None:
        assert self.state.current_seat == self.seat(giver), f"it is not {giver}'s turn"
        if isinstance(value, int):
            self.state.apply(Clue(self.seat(target), rank=value))
        else:
            self.state.apply(Clue(self.seat(target), colour=COLOURS.get(value, value)))

    def play(self, name: str, slot: int) -> None:
        assert self.state.current_seat == self.seat(name)
        self.state.apply(Play(self.card(name, slot)))

    def discard(self, name: str, slot: int) -> None:
        assert self.state.current_seat == self.seat(name)
        self.state.apply(Discard(self.card(name, slot)))

    # -- what the bot concludes and does -----------------------------------------------------

    def notes(self, viewer: str) -> Notes:
        return self.turn_class.NOTES(view_for(self.state, self.seat(viewer)))

    @property
    def turn_class(self) -> type[Turn]:
        return {1: Turn, 2: Turn2, 3: Turn3, 4: Turn4, 5: Turn5}[self.level]

    def inferred(self, viewer: str, holder: str, slot: int) -> set[str]:
        """The identities ``viewer``'s notes leave ``holder``'s card in ``slot``."""
        notes = self.notes(viewer)
        cid = self.card(holder, slot)
        mask = notes.notes[cid].inferred & ~notes.trash_mask()
        return {f"{SUIT_LETTERS[i // 5]}{i % 5 + 1}" for i in range(30) if mask >> i & 1}

    def live(self, name: str, slot: int) -> set[str]:
        """What ``name`` makes of its own card in ``slot``: its notes, with the counting of
        the cards it sees (the view's possible_counted), trash and good touch removed."""
        view = view_for(self.state, self.seat(name))
        view["your_turn"], view["legal"] = True, {"play": [], "discard": [], "clues": []}
        turn = self.turn_class(view)
        mask = turn.live(self.card(name, slot))
        return {f"{SUIT_LETTERS[i // 5]}{i % 5 + 1}" for i in range(30) if mask >> i & 1}

    def finessed(self, viewer: str, holder: str, slot: int) -> bool:
        return self.notes(viewer).notes[self.card(holder, slot)].finessed

    def reason(self) -> str:
        """The bot's reason, in words, for the seat to move."""
        from games.bots.hgroup import decide

        names = [""] * len(self.seat_of)
        for name, seat in self.seat_of.items():
            names[seat] = name
        view = view_for(self.state, self.state.current_seat, names=names)
        return decide(view, level=self.level).reason

    def action(self, name: str | None = None) -> tuple:
        """The bot's move for the seat to move: ("play", slot), ("discard", slot), or
        ("clue", target name, colour or rank)."""
        seat = self.state.current_seat
        assert name is None or seat == self.seat(name)
        action = choose_action(view_for(self.state, seat), level=self.level)
        names = {s: n for n, s in self.seat_of.items()}
        if isinstance(action, Clue):
            return ("clue", names[action.target], action.colour or action.rank)
        slot = self.state.hand(seat).index(action.card_id) + 1
        return ("play" if isinstance(action, Play) else "discard", slot)
