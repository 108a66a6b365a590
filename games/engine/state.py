"""The state of a game and how actions change it; the rules themselves are in rules.py.

``GameState.apply(action)`` checks the action against every rule first and raises
IllegalAction (changing nothing) if it breaks one; otherwise it changes the state **in place**
and returns the Event that records what happened. Use ``copy()`` to simulate without
touching the original. The state is a pure function of (options, deck or seed, actions):
``replay`` rebuilds it, exactly.

Hot paths use plain ints: a card is its id (position in the deck); its identity is an int
``suit * 5 + rank - 1``; sets of identities are int bitmasks.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .actions import (
    COLOUR_CLUES,
    DISCARDS,
    PLAYS,
    RANK_CLUES,
    Action,
    Clue,
    Discard,
    IllegalAction,
    MalformedAction,
    Play,
    Rearrange,
    action_from_dict,
    action_text,
    takes_turn,
)
from .cards import (
    IDENTITIES,
    MAX_RANK,
    RANK_MASK,
    RANKS,
    SUIT_INDEX,
    SUIT_MASK,
    SUITS,
    Card,
    copies_per_identity,
)
from .jsoninput import shown
from .options import MAX_CLUE_TOKENS, GameOptions
from .rules import (
    LOSING_ENDS,
    End,
    clue_touch_mask,
    dealt_hands,
    fits_firework,
    five_returns_token,
    game_end,
    holds_card,
    last_round_ends_at,
    may_clue,
    may_clue_player,
    may_discard,
    may_give_clue_touching,
    may_name_colour,
    may_rearrange,
    rearranged,
)
from .shuffle import new_deck


class Event(NamedTuple):
    """What one action did. ``turn`` is the action's index (0 = the first action)."""

    turn: int
    seat: int  # who acted
    kind: str  # "clue", "play" or "discard"
    card_id: int | None = None  # play, discard: the card
    placed: bool | None = None  # play: True if it joined its firework, False if it misplayed
    bonus: bool = False  # play: a 5 gave a clue token back
    drawn: int | None = None  # play, discard: the card drawn to replace it, if any
    target: int | None = None  # clue: the seat clued
    colour: int | None = None  # clue: the suit index of the colour named
    rank: int | None = None  # clue: the rank named
    touched: tuple[int, ...] = ()  # clue: ids of the cards it touched
    # clue: the target's hand (newest first) when clued; play, discard: the actor's hand
    # before the card left it (the history names the slot it came from)
    hand: tuple[int, ...] = ()
    clue_tokens: int = 0  # clue tokens available after the action
    fuses_left: int = 0  # fuses left after the action


class Rearrangement(NamedTuple):
    """One free rearrangement (the option): ``seat`` moved card ``card_id`` of their own hand
    from ``from_slot`` to ``to_slot`` (1 = the newest end) while the game was at ``turn``, so
    before the move of that turn. Kept apart from ``events``, which hold one entry per turn
    (``events[turn]``)."""

    turn: int
    seat: int
    card_id: int
    from_slot: int
    to_slot: int


def _new_event(fields: tuple) -> Event:
    return tuple.__new__(Event, fields)


def rating_word(score: int, options: GameOptions) -> str:
    """A final score in words that say where it stands without judging the players (the
    rulebook's scale, "horrible" to "legendary", read as an insult beside a friendly game):
    "perfect", or how many points short of perfect it is.

    Play until perfect has no scale: the result is victory or defeat.
    """
    if options.until_perfect:
        return "victory" if score == options.max_score else "defeat"
    short = options.max_score - score
    if short <= 0:
        return "perfect"
    return f"{short} short of perfect"


class InvalidDeck(ValueError):
    """A deck given explicitly does not match the options' deck composition."""


def check_deck(options: GameOptions, deck: Iterable) -> tuple[Card, ...]:
    """The deck as Cards, or InvalidDeck if it is not exactly the variant's cards."""
    cards: list[Card] = []
    for position, item in enumerate(deck):
        try:
            suit, rank = item
        except (TypeError, ValueError):
            raise InvalidDeck(f"deck position {position} is not a card: {item!r}") from None
        if (
            isinstance(suit, bool)
            or not isinstance(suit, int)
            or not 0 <= suit < options.num_suits
            or isinstance(rank, bool)
            or rank not in (1, 2, 3, 4, 5)
        ):
            raise InvalidDeck(f"deck position {position} is not a card of this game: {item!r}")
        cards.append(Card(suit, rank))
    wanted = copies_per_identity(options.multicolour)
    counts = [0] * IDENTITIES
    for card in cards:
        counts[card.identity] += 1
    if counts != list(wanted):
        if len(cards) != sum(wanted):
            raise InvalidDeck(f"the deck has {len(cards)} cards; this game needs {sum(wanted)}")
        wrong = [
            f"{have} × {Card(ident // MAX_RANK, ident % MAX_RANK + 1).name} (not {need})"
            for ident, (have, need) in enumerate(zip(counts, wanted, strict=True))
            if have != need
        ]
        raise InvalidDeck("the deck's cards are not this game's: it has " + ", ".join(wrong))
    return tuple(cards)


class _Rules(NamedTuple):
    """What the options fix for the whole game, worked out once per options value."""

    num_suits: int
    max_score: int
    clue_touch: dict[tuple[str | None, int | None], int]  # (colour, rank) of each clue: touch
    clueable: tuple[tuple[int, int], ...]  # (suit index, touch mask) of each clue colour
    variant_mask: int  # every identity in this variant's deck
    copies: tuple[int, ...]  # copies of each identity


@functools.lru_cache(maxsize=64)
def _rules(options: GameOptions) -> _Rules:
    # What rules.py says of every clue this game's players may give, worked out once per
    # options value for the hot paths (legal_actions, apply).
    colours = [colour for colour in SUITS if may_name_colour(options, colour)]
    clue_touch = {(colour, None): clue_touch_mask(options, colour=colour) for colour in colours}
    clue_touch.update({(None, rank): clue_touch_mask(options, rank=rank) for rank in RANKS})
    return _Rules(
        num_suits=options.num_suits,
        max_score=options.max_score,
        clue_touch=clue_touch,
        clueable=tuple((SUIT_INDEX[colour], clue_touch[colour, None]) for colour in colours),
        variant_mask=sum(SUIT_MASK[: options.num_suits]),
        copies=copies_per_identity(options.multicolour),
    )


class GameState:
    """One game in progress or finished. See the module docstring for how it changes."""

    __slots__ = (
        # fixed for the whole game (shared by copies)
        "options",
        "seed",
        "deck",
        "players",
        "num_suits",
        "max_score",
        "_suit",
        "_rank",
        "_ident",
        "_bit",
        "_clue_touch",
        "_clueable",
        "_variant_mask",
        # changing
        "_hands",
        "_next",
        "_fireworks",
        "clue_tokens",
        "fuses_left",
        "_discards",
        "_played",
        "turn",
        "end_turn",
        "end",
        "events",
        "actions",
        "_masks",
        "_left",
        "_max_reach",
        "_score",
        "_clue_turns",
        "rearrangements",
        # a cache for perspectives.py (derived from events; see _view_cache in _deal)
        "_view_cache",
    )

    def __init__(self, options: GameOptions, deck: Sequence, seed: int | None = None) -> None:
        """Deal a new game. Prefer new_game(); ``deck`` is checked against the options."""
        if not isinstance(options, GameOptions):
            raise TypeError("options must be a GameOptions")
        self._deal(options, check_deck(options, deck), seed)

    @classmethod
    def _from_checked_deck(cls, options: GameOptions, deck: tuple, seed: int | None) -> GameState:
        state = object.__new__(cls)
        state._deal(options, deck, seed)
        return state

    def _deal(self, options: GameOptions, deck: tuple[Card, ...], seed: int | None) -> None:
        rules = _rules(options)
        self.options = options
        self.seed = seed
        self.deck = deck
        self.players = options.players
        self.num_suits = rules.num_suits
        self.max_score = rules.max_score
        self._suit = tuple([card[0] for card in deck])
        self._rank = tuple([card[1] for card in deck])
        self._ident = ident = tuple([suit * MAX_RANK + rank - 1 for suit, rank in deck])
        self._bit = tuple([1 << i for i in ident])
        self._clue_touch = rules.clue_touch
        self._clueable = rules.clueable
        self._variant_mask = rules.variant_mask
        self._hands = dealt_hands(options)
        self._next = sum(map(len, self._hands))
        self._fireworks = [0] * rules.num_suits
        self.clue_tokens = MAX_CLUE_TOKENS
        self.fuses_left = options.fuses
        self._discards: list[int] = []
        self._played: list[int] = []
        self.turn = 0
        self.end_turn: int | None = None
        self.end: End | None = None
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self._masks = [rules.variant_mask] * len(deck)
        self._left = list(rules.copies)
        self._score = 0
        self._max_reach = rules.max_score
        # Per card id, the turns (event indexes) of the clues given to its holder while it
        # was in the hand, oldest first: its clue notes without a walk over the history.
        self._clue_turns: list[tuple[int, ...]] = [()] * len(deck)
        # The free rearrangements (an option), in order; ``actions`` holds them too, where
        # they were made, so that a record of the actions rebuilds the hands' order.
        self.rearrangements: list[Rearrangement] = []
        # What perspectives.py has worked out once per event (the names-free parts of the
        # history entries), a tuple: immutable, so copies share it, and each state extends
        # its own. Derived from ``events`` alone; never part of the fingerprint.
        self._view_cache: tuple = ()

    # -- reading the state -----------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is; None once the game is over."""
        return None if self.end is not None else self.turn % self.players

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def won(self) -> bool:
        """Victory: every firework complete."""
        return self.end is End.PERFECT

    @property
    def fireworks_total(self) -> int:
        """The sum of the fireworks' top cards, whatever the ending."""
        return self._score

    @property
    def score(self) -> int:
        """The score: the fireworks' total, or 0 after a losing ending."""
        if self.end is not None and self.end in LOSING_ENDS:
            return 0
        return self._score

    @property
    def max_reachable_score(self) -> int:
        """The best score still possible. Before the last card is drawn: each firework can
        rise while some copy of its next card is not lost (discarded or misplayed). In the
        last round, exactly (see ``last_round_reachable``): each player left to move plays at
        most one card, on their own turn, and a card held by a player whose last turn is over
        counts as lost. Once the game is over, the final score."""
        if self.end is not None:
            return self.score
        return self._max_reach

    @property
    def deck_size(self) -> int:
        """Cards left to draw."""
        return len(self.deck) - self._next

    @property
    def turns_left(self) -> int | None:
        """Turns left once the last card is drawn (the final round); None before that."""
        if self.end_turn is None:
            return None
        return max(0, self.end_turn - self.turn)

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Card ids in each seat's hand, newest first (index 0 is slot 1)."""
        return tuple(tuple(hand) for hand in self._hands)

    def hand(self, seat: int) -> tuple[int, ...]:
        return tuple(self._hands[seat])

    @property
    def fireworks(self) -> tuple[int, ...]:
        """The height (top rank, 0 if none) of each suit's firework, in suit order."""
        return tuple(self._fireworks)

    @property
    def discards(self) -> tuple[int, ...]:
        """Ids of the discarded and misplayed cards, in the order they went to the pile."""
        return tuple(self._discards)

    @property
    def played(self) -> tuple[int, ...]:
        """Ids of the cards placed on the fireworks, in the order they were played."""
        return tuple(self._played)

    @property
    def cards_drawn(self) -> int:
        """How many cards have left the deck (the next card to draw has this id)."""
        return self._next

    def card(self, card_id: int) -> Card:
        return self.deck[card_id]

    def clue_mask(self, card_id: int) -> int:
        """Bitmask of the identities the card can be, given the clues it received."""
        return self._masks[card_id]

    def clue_turns(self, card_id: int) -> tuple[int, ...]:
        """The turns of the clues given to the card's holder while it was in the hand (each
        touched or missed it), oldest first: ``events[turn]`` is the clue."""
        return self._clue_turns[card_id]

    def copies_left(self, ident: int) -> int:
        """Copies of an identity not yet played, discarded or misplayed."""
        return self._left[ident]

    def card_location(self, card_id: int) -> tuple[str, int | None]:
        """('hand', seat), ('deck', None), ('discards', None) or ('fireworks', None)."""
        if card_id >= self._next:
            return ("deck", None)
        for seat, hand in enumerate(self._hands):
            if card_id in hand:
                return ("hand", seat)
        if card_id in self._played:
            return ("fireworks", None)
        return ("discards", None)

    def summary(self) -> dict:
        """The small JSON-able summary a web page or database row needs."""
        return {
            "turn": self.turn,
            "current_seat": self.current_seat,
            "is_over": self.is_over,
            "end": None if self.end is None else str(self.end),
            "score": self.score,
            "max_score": self.max_score,
            "max_reachable_score": self.max_reachable_score,
            "clue_tokens": self.clue_tokens,
            "fuses_left": self.fuses_left,
            "deck_size": self.deck_size,
            "turns_left": self.turns_left,
        }

    def fingerprint(self) -> tuple:
        """Everything that changes during a game, as one comparable value."""
        return (
            self.turn,
            tuple(map(tuple, self._hands)),
            self._next,
            tuple(self._fireworks),
            self.clue_tokens,
            self.fuses_left,
            tuple(self._discards),
            tuple(self._played),
            self.end_turn,
            self.end,
            tuple(self._masks),
            tuple(self._left),
            tuple(self.events),
            tuple(self.rearrangements),
        )

    # -- legality ----------------------------------------------------------------------------

    def clue_touches(self, target: int, colour: str | None = None, rank: int | None = None):
        """Ids of the cards in ``target``'s hand that the clue would touch."""
        touch = clue_touch_mask(self.options, colour, rank)
        bit = self._bit
        return tuple(cid for cid in self._hands[target] if bit[cid] & touch)

    def legal_actions(self) -> list[Action]:
        """Every legal action for the player whose turn it is: plays, discards, clues
        (each allowed by the predicates of rules.py)."""
        if self.end is not None:
            return []
        seat = self.turn % self.players
        hand = self._hands[seat]
        actions: list[Action] = [PLAYS[cid] for cid in hand]
        if may_discard(self.clue_tokens):
            actions += [DISCARDS[cid] for cid in hand]
        if may_clue(self.clue_tokens):
            self._add_legal_clues(seat, actions)
        return actions

    def _add_legal_clues(self, seat: int, actions: list[Action]) -> None:
        # Asked once, not per clue (this is a hot path): if a clue touching nothing is
        # allowed, every clue is; otherwise a clue must touch a card.
        empty_ok = may_give_clue_touching(0, self.options)
        bit = self._bit
        colours = self._clueable
        players = self.players
        for target in range(players):
            if not may_clue_player(seat, target, players):
                continue
            present = 0
            for cid in self._hands[target]:
                present |= bit[cid]
            colour_clues = COLOUR_CLUES[target]
            for colour, touch in colours:
                if empty_ok or present & touch:
                    actions.append(colour_clues[colour])
            rank_clues = RANK_CLUES[target]
            for rank in (1, 2, 3, 4, 5):
                if empty_ok or present & RANK_MASK[rank]:
                    actions.append(rank_clues[rank])

    def possible_clues(self, giver: int) -> list[tuple[Clue, tuple[int, ...]]]:
        """Every clue ``giver`` could give if it were their turn and a token were available,
        with the ids each would touch (clues touching nothing only with empty clues)."""
        options = self.options
        bit = self._bit
        players = self.players
        result = []
        for target in range(players):
            if not may_clue_player(giver, target, players):
                continue
            hand = self._hands[target]
            for c, touch in self._clueable:
                touched = tuple(cid for cid in hand if bit[cid] & touch)
                if may_give_clue_touching(len(touched), options):
                    result.append((COLOUR_CLUES[target][c], touched))
            for r in range(1, MAX_RANK + 1):
                touch = RANK_MASK[r]
                touched = tuple(cid for cid in hand if bit[cid] & touch)
                if may_give_clue_touching(len(touched), options):
                    result.append((RANK_CLUES[target][r], touched))
        return result

    def check(self, action: Action) -> None:
        """Raise IllegalAction if ``action`` is not legal now; change nothing."""
        self.copy().apply(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    # -- changing the state -----------------------------------------------------------------

    def apply(self, action: Action) -> Event | Rearrangement:
        """Take ``action`` for the player whose turn it is; return what happened. A
        Rearrange (an option) is any seat's, at any time, and takes no turn: it returns a
        Rearrangement.

        Raises IllegalAction (and changes nothing) if the rules do not allow it.
        """
        if self.end is not None:
            raise IllegalAction("the game is over")
        kind = type(action)
        if kind is Play or kind is Discard:
            event = self._play_or_discard(action.card_id, kind is Play)
        elif kind is Clue:
            event = self._clue(action)
        elif kind is Rearrange:
            return self._rearrange(action)
        else:
            raise MalformedAction(f"not an action: {action!r}")
        self.actions.append(action)
        self.events.append(event)
        self.turn += 1
        self._check_end()
        return event

    def _rearrange(self, action: Rearrange) -> Rearrangement:
        seat = action.seat
        if seat >= self.players:
            raise IllegalAction(f"there is no player {shown(seat + 1)} in this game")
        hand = self._hands[seat]
        why = may_rearrange(self.options, self.end is not None, hand, action.card_id, action.slot)
        if why:
            raise IllegalAction(why)
        moved = Rearrangement(
            self.turn, seat, action.card_id, hand.index(action.card_id) + 1, action.slot
        )
        self._hands[seat] = rearranged(hand, action.card_id, action.slot)
        self.rearrangements.append(moved)
        self.actions.append(action)
        return moved

    def _clue(self, action: Clue) -> Event:
        seat = self.turn % self.players
        if not may_clue(self.clue_tokens):
            raise IllegalAction("no clue token is available")
        target = action.target
        if not may_clue_player(seat, target, self.players):
            if target >= self.players:
                raise IllegalAction(f"there is no player {shown(target + 1)} in this game")
            raise IllegalAction("a player cannot clue themselves")
        touch = self._clue_touch.get((action.colour, action.rank))
        if touch is None:
            # Not a clue anyone may give in this game: clue_touch_mask raises and says why.
            touch = clue_touch_mask(self.options, action.colour, action.rank)
        hand = self._hands[target]
        bit = self._bit
        touched = tuple(cid for cid in hand if bit[cid] & touch)
        if not may_give_clue_touching(len(touched), self.options):
            raise IllegalAction("a clue must touch at least one card (empty clues are off)")
        masks = self._masks
        miss = ~touch
        notes = self._clue_turns
        turn = (self.turn,)
        for cid in hand:
            masks[cid] &= touch if bit[cid] & touch else miss
            notes[cid] += turn
        self.clue_tokens -= 1
        # Event's fields in order, built directly: this runs once per action replayed.
        return _new_event(
            (
                self.turn,
                seat,
                "clue",
                None,
                None,
                False,
                None,
                target,
                None if action.colour is None else SUIT_INDEX[action.colour],
                action.rank,
                touched,
                tuple(hand),
                self.clue_tokens,
                self.fuses_left,
            )
        )

    def _play_or_discard(self, cid: int, is_play: bool) -> Event:
        seat = self.turn % self.players
        hand = self._hands[seat]
        if not holds_card(hand, cid):
            raise IllegalAction(f"card {shown(cid)} is not in your hand")
        if not is_play and not may_discard(self.clue_tokens):
            raise IllegalAction(
                f"all {MAX_CLUE_TOKENS} clue tokens are available, so nobody may discard"
            )
        held = tuple(hand)
        hand.remove(cid)
        suit = self._suit[cid]
        self._left[self._ident[cid]] -= 1
        placed = None
        bonus = False
        if is_play:
            placed = fits_firework(self._fireworks[suit], self._rank[cid])
            if placed:
                self._fireworks[suit] += 1
                self._score += 1
                self._played.append(cid)
                if five_returns_token(self._rank[cid], self.clue_tokens):
                    self.clue_tokens += 1
                    bonus = True
            else:
                self._discards.append(cid)
                self.fuses_left -= 1
                self._update_max_reach()
        else:
            self._discards.append(cid)
            self.clue_tokens += 1
            self._update_max_reach()
        drawn = None
        if self._next < len(self.deck):
            drawn = self._next
            self._next += 1
            hand.insert(0, drawn)
            if self._next == len(self.deck):
                self.end_turn = last_round_ends_at(self.options, self.turn)
        return _new_event(
            (
                self.turn,
                seat,
                "play" if is_play else "discard",
                cid,
                placed,
                bonus,
                drawn,
                None,
                None,
                None,
                (),
                held,
                self.clue_tokens,
                self.fuses_left,
            )
        )

    def _update_max_reach(self) -> None:
        left = self._left
        total = 0
        for suit, height in enumerate(self._fireworks):
            base = suit * MAX_RANK
            while height < MAX_RANK and left[base + height]:
                height += 1
            total += height
        self._max_reach = total

    def _check_end(self) -> None:
        if self.end_turn is not None and self.turn < self.end_turn:
            self._max_reach = min(self._max_reach, self._last_round_reach())
        self.end = game_end(
            self.options,
            fuses_left=self.fuses_left,
            score=self._score,
            reachable=self._max_reach,
            last_round_over=self.end_turn is not None and self.turn >= self.end_turn,
            hands=self._hands,
            mover=self.turn % self.players,
            clue_tokens=self.clue_tokens,
        )

    def _last_round_reach(self) -> int:
        # The turns left, in order, each with the identities its player holds. The deck is
        # empty, so every card not in these hands is played, lost, or held by a player
        # whose last turn is over.
        ident = self._ident
        hands = self._hands
        players = self.players
        turn_hands = [
            {ident[cid] for cid in hands[turn % players]}
            for turn in range(self.turn, self.end_turn)
        ]
        return last_round_reachable(self._fireworks, turn_hands)

    # -- simulation -----------------------------------------------------------------------------

    def copy(self) -> GameState:
        """An independent copy to simulate on (the fixed parts are shared, not copied)."""
        new = object.__new__(GameState)
        new.options = self.options
        new.seed = self.seed
        new.deck = self.deck
        new.players = self.players
        new.num_suits = self.num_suits
        new.max_score = self.max_score
        new._suit = self._suit
        new._rank = self._rank
        new._ident = self._ident
        new._bit = self._bit
        new._clue_touch = self._clue_touch
        new._clueable = self._clueable
        new._variant_mask = self._variant_mask
        new._hands = [hand[:] for hand in self._hands]
        new._next = self._next
        new._fireworks = self._fireworks[:]
        new.clue_tokens = self.clue_tokens
        new.fuses_left = self.fuses_left
        new._discards = self._discards[:]
        new._played = self._played[:]
        new.turn = self.turn
        new.end_turn = self.end_turn
        new.end = self.end
        new.events = self.events[:]
        new.actions = self.actions[:]
        new._masks = self._masks[:]
        new._left = self._left[:]
        new._max_reach = self._max_reach
        new._score = self._score
        new._clue_turns = self._clue_turns[:]
        new.rearrangements = self.rearrangements[:]
        new._view_cache = self._view_cache
        return new

    def __repr__(self) -> str:
        status = f"over: {self.end}" if self.end else f"seat {self.current_seat} to move"
        return (
            f"<GameState turn {self.turn}, score {self.score}/{self.max_score}, "
            f"{self.clue_tokens} clues, {self.fuses_left} fuses, {self.deck_size} in deck, "
            f"{status}>"
        )


def last_round_reachable(fireworks: Sequence[int], turn_hands: Sequence[Iterable[int]]) -> int:
    """The highest total the fireworks can still reach in the last round (RULES.md, "End of
    the game": after the last draw every player takes exactly one more turn, drawing
    nothing).

    ``fireworks``: the height of each suit. ``turn_hands``: one entry per turn left, in the
    order they come, holding the identities (``suit * 5 + rank - 1``) in that turn's
    player's hand. Each player has one turn left, so each plays at most one card, on that
    turn, and only if it is then its firework's next card: a card held by a player whose
    last turn is over can never be played (as if lost), and neither can a card whose
    firework's next card comes only on a later turn than its own (it arrives too late). The
    game ends at once, with "nothing left to play for", when this equals the fireworks'
    total, which is when no next card of an unfinished firework is held by a player with a
    turn left (the way hanab.live ends it too).

    Exact, by trying each card a player could place on their turn: placing one is never
    worse than not (that player's other cards can never be played later, and a later copy of
    the same card only becomes useless, one card for another), and nobody is ever forced to
    misplay instead (the hands are full when the round starts and each player moves once, so
    a clue is open while a token is, and a discard otherwise). At most 6 turns, each with at
    most one choice per firework, so this is cheap.

    Computed from every hand, it reveals nothing: with the deck empty each player knows the
    identities in their own hand (every card not in another hand, the fireworks or the
    discard pile), and this depends on those and the turn order alone.
    """
    heights = list(fireworks)
    hands = [frozenset(hand) for hand in turn_hands]
    return sum(heights) + _most_placed(heights, hands, 0)


def _most_placed(heights: list[int], hands: list[frozenset[int]], k: int) -> int:
    # The most cards turns k, k+1, ... can place on ``heights`` (changed, then restored).
    turns = len(hands)
    while k < turns:
        placeable = [i for i in hands[k] if heights[i // MAX_RANK] == i % MAX_RANK]
        if placeable:
            break
        k += 1
    else:
        return 0
    most = turns - k  # one card per turn at most
    best = 0
    for i in placeable:
        suit = i // MAX_RANK
        heights[suit] += 1
        placed = 1 + _most_placed(heights, hands, k + 1)
        heights[suit] -= 1
        if placed > best:
            best = placed
            if best == most:
                break
    return best


def new_game(
    options: GameOptions, seed: int | None = None, deck: Sequence | None = None
) -> GameState:
    """A freshly dealt game, from a seed (the usual way) or an explicit deck (imports)."""
    if (seed is None) == (deck is None):
        raise ValueError("give exactly one of seed and deck")
    if seed is not None:
        if not isinstance(options, GameOptions):
            raise TypeError("options must be a GameOptions")
        return GameState._from_checked_deck(options, tuple(new_deck(options, seed)), seed)
    return GameState(options, deck)


def replay(
    options: GameOptions,
    seed_or_deck: int | Sequence,
    actions: Iterable[Action | dict],
    upto: int | None = None,
) -> GameState:
    """The state after the first ``upto`` turns (all the actions if None).

    ``upto`` counts the actions that take a turn: the free rearrangements (an option) made
    before the ``upto``-th turn's action are replayed, those made after it are not, so the
    state is the one the ``upto``-th move left. Without rearrangements, the first ``upto``
    actions.

    Actions may be Action objects or their dicts. An illegal one raises IllegalAction whose
    ``index`` is its position and whose message names it and says why.
    """
    if isinstance(seed_or_deck, int) and not isinstance(seed_or_deck, bool):
        state = new_game(options, seed=seed_or_deck)
    else:
        state = new_game(options, deck=seed_or_deck)
    actions = list(actions)
    if upto is not None:
        turns = [index for index, action in enumerate(actions) if takes_turn(action)]
        if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(turns):
            raise ValueError(f"upto must be between 0 and {len(turns)}, not {upto!r}")
        actions = actions[: turns[upto - 1] + 1] if upto else []
    apply = state.apply
    for index, action in enumerate(actions):
        try:
            if type(action) is dict:
                action = action_from_dict(action)
            apply(action)
        except IllegalAction as error:
            mover = action.seat if type(action) is Rearrange else state.turn % state.players
            described = action_text(action, seat=mover)
            raise type(error)(f"{error.reason} ({described})", index=index) from None
    return state
