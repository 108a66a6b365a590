"""The H-Group bot's turn at level 5 ("Intermediate Finesses", docs/level-5.mdx; README.md
here).

Level 4's turn with level 5's reading of the table (``Notes5``: layered, clandestine, hidden
and ambiguous finesses) and level 5's moves:

- **Layered finesses**, given: a play clue whose connecting card sits on another player's
  finesse positions behind cards that play first is worth the blind plays it gets; the
  finessed player (at level 5) blind-plays on until the card comes.
- **No stomping on a layer**: no clue on a card a layered finesse will blind-play first.
- **The Queued Finesse**: of its finessed cards, the one finessed first plays first.
- **The Urgency Principle**: a blind play into a finesse or a prompt comes before anything
  but a save (level 2's rule), so that the others never wait in vain.
"""

from __future__ import annotations

from games.engine import Action, Play

from .level1 import Decision
from .level4 import Turn4
from .notes5 import Notes5

# The most players at a table where level 5 gives layered finesses (see Turn5.value).
LAYERED_MOST_PLAYERS = 3


class Turn5(Turn4):
    NOTES = Notes5

    def decide(self) -> Decision:
        committed = self.committed_play()
        if committed is not None and self.save_is_due() and not self.deferred(committed):
            nxt = (self.me + 1) % self.players
            if self.notes.critical(self.notes.ident[self.notes.chop(nxt)]):
                save = self.urgent_save(self.evaluate_clues())
                if save is not None:
                    why = (
                        "the Urgency Principle: a save that cannot wait comes before its "
                        "blind play, which waits a turn"
                    )
                    return self.clue_decision(save, why)
        return super().decide()

    def value(self, twin, reading, target: int, option: dict, before: set[int]) -> float:
        if self.layers() & set(option["touches"]):
            # A card a layered finesse will blind-play on the way to the card it waits on:
            # cluing it would stomp on the finesse (its player would no longer blind-play).
            return -1.0
        if twin.last_layered and self.players > LAYERED_MOST_PLAYERS:
            # A layered finesse keeps its player blind-playing for several turns, while the
            # other players' clues land on the cards it digs through; the more players, the
            # more such clues (self-play, 200 decks: 5 players 19.05 giving them, 19.72
            # not; 4 players 21.20 and 21.66). Read always, given at 2 and 3 players.
            return -1.0
        return super().value(twin, reading, target, option, before)

    def layers(self) -> set[int]:
        """The unclued cards left of a card a reading waits on in that player's hand."""
        notes: Notes5 = self.notes
        found = set()
        for deps in notes.deps.values():
            for chain in deps.values():
                for seat, cid in chain:
                    hand = notes.hands[seat]
                    if cid not in hand:
                        continue
                    for other in hand[: hand.index(cid)]:
                        note = notes.notes[other]
                        if not note.gotten and not note.chop_moved:
                            found.add(other)
        return found

    def deferred(self, cid: int) -> bool:
        """Whether it has already let this blind play wait a turn (once only)."""
        since = self.view["history"][self.notes.notes[cid].turn + 1 :]
        return any(entry["seat"] == self.me for entry in since)

    def first_committed(self, candidates: list[int]) -> int:
        """Blind plays first (``blind_first``), the finesses in the order they were given;
        clued 1s in level 3's order among themselves (the others read a 1 played out of
        that order as an Order Chop Move)."""
        order = self.notes.play_order(self.me, candidates)
        return min(
            candidates,
            key=lambda c: (not self.is_blind(c), self.notes.notes[c].turn, order.index(c)),
        )

    def best_play(self) -> Action | None:
        play = super().best_play()
        if play is None:
            return None
        notes = self.notes.notes
        chosen = notes[play.card_id]
        if not chosen.finessed or chosen.clued:
            return play
        blind = [
            c
            for c in self.own
            if notes[c].finessed and not notes[c].clued and self.known_playable(c)
        ]
        if play.card_id not in blind:
            return play  # a last try in the final round, say
        # The finesses in the order they were given (docs: "The Queued Finesse").
        return Play(min(blind, key=lambda c: (notes[c].turn, self.own.index(c))))


def decide(view: dict) -> Decision:
    return Turn5(view).decide()


def choose(view: dict) -> Action:
    return decide(view).action
