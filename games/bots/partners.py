"""Simple partner policies that know none of the bots' conventions, to test the bots with and
for people to practise against. Each is ``(view) -> Action`` over ``view_for``, like
``choose_action``, and reads clues only for what they prove.

- ``cautious``: plays a card only when what it knows of it (the clues, and the cards it can
  see) proves it playable; otherwise clues a teammate's playable card, preferring the clue
  that leaves them sure of it; otherwise discards its oldest unclued card.
- ``saver``: ``cautious``, and also saves the next player's oldest unclued card when it is
  the last copy of a card still needed (a 5, say) and they have nothing to play, and
  discards a card it knows is useless before its oldest unclued card.

Neither gives a clue a meaning beyond its facts; neither keeps memory between turns.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Action, Clue, Discard, GameOptions, Play, clue_touch_mask
from games.engine.cards import SUIT_LETTERS, copies_per_identity

CODE_TO_IDENT = {
    f"{letter}{rank}": suit * 5 + rank - 1
    for suit, letter in enumerate(SUIT_LETTERS)
    for rank in range(1, 6)
}


class _Seen:
    """What the mover can tell from its view: fireworks, useful and playable identities, the
    copies in view, and the cards of every hand."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.options = GameOptions.from_dict(view["options"])
        self.me = view["viewer"]
        self.players = view["players"]
        self.height = [0] * 6
        for firework in view["fireworks"]:
            self.height[SUIT_LETTERS.index(firework["letter"])] = firework["height"]
        copies = copies_per_identity(self.options.multicolour)
        self.copies = copies
        lost = [0] * 30
        for card in view["discards"]:
            lost[CODE_TO_IDENT[card["code"]]] += 1
        self.lost = lost
        self.hands = {hand["seat"]: hand["cards"] for hand in view["hands"]}
        # Copies each other player can see outside their own hand and the mover's.
        self.public = [0] * 30
        for suit, height in enumerate(self.height):
            for rank in range(1, height + 1):
                self.public[suit * 5 + rank - 1] += 1
        for ident, n in enumerate(lost):
            self.public[ident] += n

    def ident(self, card: dict) -> int:
        return CODE_TO_IDENT[card["code"]]

    def playable(self, ident: int) -> bool:
        return self.height[ident // 5] == ident % 5

    def trash(self, ident: int) -> bool:
        suit, rank = divmod(ident, 5)
        if rank < self.height[suit]:
            return True
        return any(
            self.lost[suit * 5 + r] >= self.copies[suit * 5 + r]
            for r in range(self.height[suit], rank)
        )

    def critical(self, ident: int) -> bool:
        return not self.trash(ident) and self.copies[ident] - self.lost[ident] == 1

    def own_cards(self) -> list[dict]:
        return self.hands[self.me]

    def own_possible(self, card: dict) -> list[int]:
        return [CODE_TO_IDENT[code] for code in card["possible_counted"]]

    def seen_by(self, seat: int) -> list[int]:
        """Copies of each identity that ``seat`` sees, as far as the mover can tell (the public
        cards and the hands of everyone but ``seat`` and the mover)."""
        seen = list(self.public)
        for other, cards in self.hands.items():
            if other in (seat, self.me):
                continue
            for card in cards:
                seen[self.ident(card)] += 1
        return seen

    def their_possible(self, seat: int, card: dict, mask: int | None = None) -> list[int]:
        """What ``seat`` can say its card may be (its clues, counting the cards it sees),
        after a clue that leaves it ``mask`` if given."""
        seen = self.seen_by(seat)
        result = []
        for code in card["possible"]:
            ident = CODE_TO_IDENT[code]
            if mask is not None and not mask >> ident & 1:
                continue
            if seen[ident] < self.copies[ident]:
                result.append(ident)
        return result

    def knows_playable(self, possible: list[int]) -> bool:
        return bool(possible) and all(self.playable(i) for i in possible)

    def knows_trash(self, possible: list[int]) -> bool:
        return bool(possible) and all(self.trash(i) for i in possible)

    def clued_elsewhere(self) -> set[int]:
        """Identities of clued cards in the hands the mover sees."""
        return {
            self.ident(card)
            for seat, cards in self.hands.items()
            if seat != self.me
            for card in cards
            if card["clued"]
        }


def _known_play(seen: _Seen) -> Action | None:
    playable = [card for card in seen.own_cards() if seen.knows_playable(seen.own_possible(card))]
    if not playable:
        return None
    return Play(min(playable, key=lambda card: min(i % 5 for i in seen.own_possible(card)))["id"])


def _oldest_unclued(seen: _Seen) -> int | None:
    cards = seen.own_cards()
    for card in reversed(cards):
        if not card["clued"]:
            return card["id"]
    return cards[-1]["id"] if cards else None


def _clue_value(seen: _Seen, option: dict) -> float:
    """How much a clue helps its target play: a card made sure to be playable counts 1, a
    playable card only touched 0.3, and a card touched that cannot be played now -0.1. Zero
    if it touches no playable card worth telling of."""
    target = option["target"]
    touched = set(option["touches"])
    touch = clue_touch_mask(seen.options, option.get("colour"), option.get("rank"))
    elsewhere = seen.clued_elsewhere()
    value = 0.0
    useful = False
    for card in seen.hands[target]:
        if card["id"] not in touched:
            continue
        ident = seen.ident(card)
        before = seen.their_possible(target, card)
        if not seen.playable(ident):
            value -= 0.1
            continue
        if seen.knows_playable(before) or (ident in elsewhere and not card["clued"]):
            continue
        useful = True
        after = seen.their_possible(target, card, touch)
        value += 1.0 if seen.knows_playable(after) else 0.3
    return value if useful else 0.0


def _best_play_clue(seen: _Seen) -> Action | None:
    best = None
    best_key = None
    for option in seen.view["legal"]["clues"]:
        value = _clue_value(seen, option)
        if value <= 0:
            continue
        distance = (option["target"] - seen.me) % seen.players
        key = (value, -distance)
        if best_key is None or key > best_key:
            best, best_key = option, key
    return None if best is None else _as_clue(best)


def _any_clue(seen: _Seen) -> Action:
    """A clue when nothing else is allowed: the one touching the fewest cards."""
    option = min(seen.view["legal"]["clues"], key=lambda o: len(o["touches"]))
    return _as_clue(option)


def _as_clue(option: dict) -> Clue:
    return Clue(option["target"], colour=option.get("colour"), rank=option.get("rank"))


def _last_resort(seen: _Seen) -> Action:
    """Nothing but a play is allowed: the card likeliest to be playable."""

    def chance(card: dict) -> float:
        counts = card["possible_counted"]
        total = sum(counts.values()) or 1
        return sum(n for code, n in counts.items() if seen.playable(CODE_TO_IDENT[code])) / total

    return Play(max(seen.own_cards(), key=chance)["id"])


def _check_turn(view: dict) -> None:
    if not view.get("your_turn") or view.get("legal") is None:
        raise ValueError("it is not this seat's turn")


def cautious(view: dict) -> Action:
    """Play what is proven playable; clue a playable card; discard the oldest unclued card."""
    _check_turn(view)
    return _simple_turn(_Seen(view), saves=False)


def _simple_turn(seen: _Seen, saves: bool) -> Action:
    """The turn of both partners; `saves`: saver's two additions (a save first, known trash
    discarded before the oldest unclued card)."""
    legal = seen.view["legal"]
    if saves and legal["clues"]:
        save = _save(seen)
        if save is not None:
            return save
    play = _known_play(seen)
    if play is not None:
        return play
    if legal["clues"]:
        clue = _best_play_clue(seen)
        if clue is not None:
            return clue
    if legal["discard"]:
        if saves:
            for card in reversed(seen.own_cards()):
                if seen.knows_trash(seen.own_possible(card)):
                    return Discard(card["id"])
        return Discard(_oldest_unclued(seen))
    if legal["clues"]:
        return _any_clue(seen)
    return _last_resort(seen)


def _save(seen: _Seen) -> Action | None:
    """Clue the next player's oldest unclued card if it is the last copy of a needed card
    and they have nothing to play: the clue that touches it and the fewest others."""
    target = (seen.me + 1) % seen.players
    cards = seen.hands.get(target, [])
    if any(seen.knows_playable(seen.their_possible(target, card)) for card in cards):
        return None
    chop = next((card for card in reversed(cards) if not card["clued"]), None)
    if chop is None or not seen.critical(seen.ident(chop)):
        return None
    options = [
        option
        for option in seen.view["legal"]["clues"]
        if option["target"] == target and chop["id"] in option["touches"]
    ]
    if not options:
        return None
    return _as_clue(min(options, key=lambda o: len(o["touches"])))


def saver(view: dict) -> Action:
    """``cautious``, and saves the next player's critical chop, and discards known trash."""
    _check_turn(view)
    return _simple_turn(_Seen(view), saves=True)


PARTNERS: dict[str, Callable[[dict], Action]] = {"cautious": cautious, "saver": saver}

__all__ = ["PARTNERS", "cautious", "saver"]
