"""Replaying a seat's view into public knowledge (see public.py), with a small memo.

The memo only saves time: the knowledge after a run of actions is a function of the seat, the
options, the actions with the identities they revealed, and the identities of the cards the
seat has seen in the other hands. Those are the memo's key (a cached run is used only when it
is a prefix of the view's), so a rebuild from scratch gives the same result.
"""

from __future__ import annotations

import threading

from games.engine import GameOptions
from games.engine.cards import SUIT_INDEX, identity

from .board import Variant
from .public import Public

# Runs kept (a few per seat of the games in progress in this process).
MEMO_SIZE = 256

_variants: dict[tuple, Variant] = {}
_memo: dict[tuple, tuple[tuple, Public]] = {}
_memo_lock = threading.Lock()  # for a worker that runs bots in threads


class Rebuilt:
    """The view's seat, what it knows of each card it can see, and the public knowledge."""

    def __init__(self, view: dict) -> None:
        options = GameOptions.from_dict(view["options"])
        key = tuple(options.to_dict().values())
        var = _variants.get(key)
        if var is None:
            var = _variants[key] = Variant(options)
        self.var = var
        self.me = me = view["viewer"]
        known: dict[int, int] = {}
        for hand in view["hands"]:
            if hand["seat"] == me:
                continue
            for card in hand["cards"]:
                known[card["id"]] = identity(SUIT_INDEX[card["suit"]], card["rank"])
        for card in view["discards"]:
            known[card["id"]] = identity(SUIT_INDEX[card["suit"]], card["rank"])
        history = view["history"]
        for entry in history:
            if entry["type"] != "clue":
                card = entry["card"]
                known[card["id"]] = identity(SUIT_INDEX[card["suit"]], card["rank"])
        self.known = known
        self.public = self._replay(history)

    def identity_of(self, cid: int) -> int:
        """A card the seat can see (or has seen face up); never one of its own in hand."""
        return self.known[cid]

    def _records(self, history: list[dict]) -> list[tuple]:
        records = []
        me, known = self.me, self.known
        for entry in history:
            seat = entry["seat"]
            if entry["type"] == "clue":
                records.append(
                    (
                        seat,
                        entry["target"],
                        entry["colour"],
                        entry["rank"],
                        tuple(entry["touched"]),
                        entry["clue_tokens"],
                        entry["fuses_left"],
                    )
                )
            else:
                cid = entry["card"]["id"]
                drawn = entry["drawn"]
                records.append(
                    (
                        seat,
                        entry["type"],
                        cid,
                        known[cid],
                        entry.get("placed"),
                        drawn,
                        None if drawn is None or seat == me else known.get(drawn),
                        entry["clue_tokens"],
                        entry["fuses_left"],
                    )
                )
        return records

    def _replay(self, history: list[dict]) -> Public:
        var, me = self.var, self.me
        start = Public(var)
        dealt = tuple(
            tuple(self.known.get(cid) for cid in hand) if seat != me else ()
            for seat, hand in enumerate(start.hands)
        )
        key = (me, tuple(var.options.to_dict().values()), dealt)
        records = self._records(history)
        public = start
        done = 0
        with _memo_lock:
            cached = _memo.get(key)
        if cached is not None:
            run, state = cached
            if len(run) <= len(records) and tuple(records[: len(run)]) == run:
                public = state.copy()
                done = len(run)
        for entry in history[done:]:
            self._apply(public, entry)
        kept = (tuple(records), public.copy())
        with _memo_lock:
            _memo.pop(key, None)
            while len(_memo) >= MEMO_SIZE:
                del _memo[next(iter(_memo))]
            _memo[key] = kept
        return public

    def _apply(self, public: Public, entry: dict) -> None:
        seat = entry["seat"]
        board = public.board
        if entry["type"] == "clue":
            target = entry["target"]
            blocks = public.message_blocks(seat)
            total = sum(count for _, count in blocks)
            message = public.clue_message(
                blocks, target, entry["colour"], entry["rank"], entry["touched"]
            )
            if message is not None and total > 1:
                public.learn_hat_sum(seat, message, total, self.me, self.identity_of)
            public.apply_clue(target, entry["colour"], entry["rank"], entry["touched"])
        else:
            cid = entry["card"]["id"]
            ident = self.known[cid]
            if entry["type"] == "discard":
                useless = public.known_useless(seat)
                if board.tokens > 0:
                    public.nobody_needs_a_clue(seat)
                hand = public.hands[seat]
                index = hand.index(cid) if cid in hand else -1
                if len(useless) > 1 and index in useless:
                    public.learn_hat_sum(
                        seat, useless.index(index), len(useless), self.me, self.identity_of
                    )
            public.remove_card(seat, cid, ident, entry["drawn"])
            if entry["type"] == "play" and entry.get("placed"):
                board.heights[ident // 5] += 1
            else:
                board.discarded[ident] += 1
        board.tokens = entry["clue_tokens"]
        board.fuses = entry["fuses_left"]
        board.refresh()


def clear_memo() -> None:
    with _memo_lock:
        _memo.clear()
