"""What the house bot believes of each player, turn by turn, and why (issue 27).

The bot keeps no memory: on every turn it replays the public history (``knowledge.Table``)
and judges each player from it alone (README.md, "Playing with people"). So what it believes
of a player after any entry of the history is a function of that history, the options and
the seats known to be bots from the start, the same from every seat: this module replays the
history once, one entry at a time, and notes each entry after which a belief changed, with
its reason in public terms only (a name, a slot, a card once played or discarded: never a
card still in a hand). Nothing is stored: a replay or a look-back at any turn says the same.

A belief has two parts (``Stance``): how the bot reads the player's clues (by its
conventions, by the one-card rule made of anyone, or literally) and whether it takes the
player to read clues only for what they show.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from games.bots.knowledge import BASIC, CONVENTION, CardInfo, Table


@dataclass(frozen=True)
class Stance:
    """``level``: how a clue from the player is read (CONVENTION, BASIC or LITERAL, as
    ``Table.reading`` reads it for a target not known to read literally, when the giver could
    have discarded instead). ``literal_reader``: the player is taken to read clues only for
    what they show (``Table.reads`` False), so every clue to them is read literally."""

    level: int
    literal_reader: bool


# A person's stance before the first move: their lone clues read as "play this" (or, on the
# chop, "play or save this"), their other clues for what they show.
DEFAULT = Stance(BASIC, False)


def stance(table: Table, seat: int) -> Stance:
    reads = table.reads[seat]
    level = table.gives[seat] if reads is True else min(table.gives[seat], BASIC)
    return Stance(level, reads is False)


@dataclass(frozen=True)
class Change:
    """A belief about ``seat`` that changed with the history entry of ``turn`` (0-based, as
    the entry's "turn"), and why.

    ``cause``: "implied_play" (the player played ``card``, which only a reading of the clues
    beyond their facts showed playable), "ignored_play" (the player discarded, or clued
    ``target``, while a clue had shown the cards in ``slots`` of their hand to be playable),
    "clue_belied" (``actor`` played, misplayed or discarded ``card``, and it was not what the
    player's clue on it, as read, had said; ``focus`` what that clue was read as: "play",
    "save" or None). ``verb``: "played", "misplayed", "discarded" or "clued"."""

    turn: int
    seat: int
    before: Stance
    after: Stance
    cause: str
    actor: int
    verb: str
    card: str | None = None
    target: int | None = None
    slots: tuple[int, ...] = ()
    focus: str | None = None


def _public_table(options: dict, bot_seats: Collection[int]) -> Table:
    """A table before the first move, from no seat's cards: the judging reads public facts
    only (README.md, "How the partner is judged")."""
    view = {
        "viewer": 0,
        "options": options,
        "hands": [],
        "history": [],
        "clue_tokens": 0,
        "fuses_left": 0,
        "deck_size": 0,
        "turns_left": None,
    }
    return Table(view, bot_seats)


def changes(options: dict, history: Sequence[dict], bot_seats: Collection[int] = ()) -> list:
    """Every change of belief along ``history`` (a view's history: every entry, public), in
    order. ``bot_seats``: as given to ``choose_action`` (games/services/play.house_bot_seats)."""
    table = _public_table(options, bot_seats)
    players = table.players
    found: list[Change] = []
    for entry in history:
        before = [stance(table, seat) for seat in range(players)]
        mover = entry["seat"]
        shown: CardInfo | None = None
        slots: tuple[int, ...] = ()
        if entry["type"] in ("play", "discard"):
            # Kept as it is now: the replay may forget what its clue was read as.
            shown = table.info[entry["card"]["id"]].copy()
        if entry["type"] in ("clue", "discard") and table.reads[mover] is not False:
            table.board.refresh()  # as the replay does before judging (it is idempotent)
            hand = table.hands[mover]
            slots = tuple(
                slot
                for slot, cid in enumerate(hand, start=1)
                if table.inferred_playable(table.info[cid], mover)
            )
        table.replay_entry(entry)
        for seat in range(players):
            after = stance(table, seat)
            if after == before[seat]:
                continue
            found.append(_change(entry, seat, before[seat], after, shown, slots))
    return found


def _change(
    entry: dict,
    seat: int,
    before: Stance,
    after: Stance,
    shown: CardInfo | None,
    slots: tuple[int, ...],
) -> Change:
    mover = entry["seat"]
    kind = entry["type"]
    card = None
    if kind != "clue":
        card = f"{entry['card']['suit']} {entry['card']['rank']}"
    if kind == "play":
        verb = "played" if entry["placed"] else "misplayed"
    else:
        verb = "discarded" if kind == "discard" else "clued"
    common = {"turn": entry["turn"], "seat": seat, "before": before, "after": after}
    if seat == mover and kind == "play":
        # Only the mover's own reading is judged by their move (Table._judge_reader).
        return Change(**common, cause="implied_play", actor=mover, verb=verb, card=card)
    if seat == mover:
        return Change(
            **common,
            cause="ignored_play",
            actor=mover,
            verb=verb,
            card=card,
            target=entry.get("target"),
            slots=slots,
        )
    # Another seat's belief moved: the card shown belied that seat's clue (Table._check_claim).
    assert shown is not None and shown.clued_by == seat, (entry, seat)
    return Change(
        **common, cause="clue_belied", actor=mover, verb=verb, card=card, focus=shown.focus
    )


def current(
    options: dict, history: Sequence[dict], bot_seats: Collection[int] = ()
) -> tuple[list[Stance], list[Change]]:
    """Every seat's stance after ``history``, and the changes that led there."""
    found = changes(options, history, bot_seats)
    players = options["players"]
    stances = [DEFAULT] * players
    for seat in bot_seats:
        stances[seat] = Stance(CONVENTION, False)
    for change in found:
        stances[change.seat] = change.after
    return stances, found


# -- what to tell ---------------------------------------------------------------------------
# The words are games/bot_remarks.py's, in the reader's language: this module stays free of
# Django, as every bot does (tests/test_layers.py).


@dataclass(frozen=True)
class Remark:
    """A change worth a sentence in the history; ``again``: trust in the conventions
    regained (the player had it before)."""

    change: Change
    again: bool


@dataclass(frozen=True)
class Line:
    """A player the bot trusts less than its conventions now, for the table's status line:
    ``since`` is the history turn of the last change."""

    seat: int
    stance: Stance
    was_conventional: bool
    since: int


def told(
    options: dict,
    history: Sequence[dict],
    bots: Sequence[int],
    bot_seats: Collection[int],
) -> tuple[dict[int, list[Remark]], list[Line]]:
    """The remarks by history turn, and the table's lines, for the players not played by a
    bot. A line per player the bot trusts less than its conventions after some change, with
    the turn of the last one. (Trust in the conventions has no line: it is how the bot plays
    as its page says, and the first screen has little room; the history says when it began.)
    ``bots``: the seats a house bot plays (who speaks); ``bot_seats``: those it has played
    from the start (as the bot is told)."""
    stances, found = current(options, history, bot_seats)
    by_turn: dict[int, list[Remark]] = {}
    ever_conventional: set[int] = set()
    lost_trust: set[int] = set()
    last_change: dict[int, Change] = {}
    for change in found:
        if change.seat in bots:
            continue
        again = change.after.level == CONVENTION and change.seat in ever_conventional
        if change.after.level == CONVENTION:
            ever_conventional.add(change.seat)
        if _lowers(change):
            lost_trust.add(change.seat)
        elif change.seat not in lost_trust:
            # Trust gained by a partner who keeps to the conventions is the bot working as
            # /bots/ says: only a loss, and a regain after one, is news worth a line.
            continue
        by_turn.setdefault(change.turn, []).append(Remark(change, again))
        last_change[change.seat] = change
    lines = [
        Line(seat, stances[seat], seat in ever_conventional, change.turn)
        for seat, change in sorted(last_change.items())
        if stances[seat].level != CONVENTION  # the history told when it began
    ]
    return by_turn, lines


def _lowers(change: Change) -> bool:
    """Whether the change takes some trust away: a plainer reading of the player's clues, or
    the player taken to read clues only for what they show."""
    before, after = change.before, change.after
    return after.level < before.level or (after.literal_reader and not before.literal_reader)
