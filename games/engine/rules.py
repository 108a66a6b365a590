"""The rules of docs/RULES.md, one named function each: who may do what, and when it ends.

This is where a rule lives. ``GameState`` (state.py) asks these functions when it lists the
legal actions and when it checks and applies one; the per-seat view (perspectives.py) asks
them for its ``"legal"`` entry; the bots and the analysis ask them instead of copying a rule.
Each function takes only the plain facts it depends on (token counts, hands as card ids,
the options), so that a model without a ``GameState`` (the analysis's compact states) can
ask it too.

Set-up
    ``dealt_hands``: which card ids each seat holds after the deal.
A turn: exactly one action, no passing
    ``may_clue`` (a clue needs a token), ``may_clue_player`` (another player),
    ``may_name_colour`` (no "multicolour" with wild multicolour), ``clue_touch_mask`` (what
    a clue touches; wild multicolour), ``may_give_clue_touching`` (a clue must touch a card
    unless empty clues are on), ``may_clue_someone`` (some clue is open);
    ``holds_card`` (a play or a discard names a card of the mover's own hand: nothing else
    restricts a play, a misplay is legal), ``may_discard`` (not at 8 clue tokens);
    ``fits_firework`` (a played card is placed or misplayed), ``five_returns_token``;
    ``has_legal_action`` (nobody may pass: a player with no card and no clue is stuck).
Rearranging one's hand (an option; no turn)
    ``may_rearrange`` (the option is on, the game goes on, the card is the mover's own and
    the slot is in the hand), ``rearranged`` (the hand after the move).
End of the game
    ``End`` (the endings), ``last_round_ends_at`` (one more turn each after the last draw),
    ``game_end`` (which ending, if any, an action brought, in the order they take effect).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from .actions import IllegalAction
from .cards import MAX_RANK, MULTICOLOUR, RANK_MASK, SUIT_INDEX, SUIT_MASK
from .options import MAX_CLUE_TOKENS, GameOptions

# -- set-up ----------------------------------------------------------------------------------


def dealt_hands(options: GameOptions) -> list[list[int]]:
    """Each seat's card ids after the deal, newest first (index 0 is slot 1).

    Seat 0 takes a full hand from the top of the deck (card ids 0 to hand size - 1), then
    seat 1, and so on; a newly drawn card enters on the left, so each hand lists its cards
    last-dealt first.
    """
    size = options.hand_size
    return [
        list(range(seat * size + size - 1, seat * size - 1, -1)) for seat in range(options.players)
    ]


# -- a turn: clues ---------------------------------------------------------------------------


def may_clue(clue_tokens: int) -> bool:
    """A clue needs at least one clue token (it costs one)."""
    return clue_tokens > 0


def may_clue_player(giver: int, target: int, players: int) -> bool:
    """A clue names another player at the table, never the giver."""
    return 0 <= target < players and target != giver


def may_name_colour(options: GameOptions, colour: str) -> bool:
    """The colours of this game's suits; with wild multicolour, nobody can name multicolour
    (``GameOptions.clue_colours``)."""
    return colour in options.clue_colours


def clue_touch_mask(
    options: GameOptions, colour: str | None = None, rank: int | None = None
) -> int:
    """The identities a clue touches, as a bitmask over ``suit * 5 + rank - 1``.

    A rank clue touches every card of that rank. A colour clue touches every card of that
    colour and, with wild multicolour, every multicolour card as well. Raises IllegalAction
    for a colour nobody may name in this game (see ``may_name_colour``).
    """
    if colour is None:
        return RANK_MASK[rank]
    if not may_name_colour(options, colour):
        if SUIT_INDEX[colour] >= options.num_suits:
            raise IllegalAction(f"there is no {colour} suit in this game")
        raise IllegalAction(
            "nobody can clue multicolour with wild multicolour: "
            "every colour clue touches multicolour cards"
        )
    touch = SUIT_MASK[SUIT_INDEX[colour]]
    if options.wild_multicolour:
        touch |= SUIT_MASK[MULTICOLOUR]
    return touch


def may_give_clue_touching(touched: int, options: GameOptions) -> bool:
    """A clue must touch at least one card, unless the option empty clues is on.

    ``touched``: how many cards the clue touches (any int that is 0 exactly when it touches
    none will do, such as a bitmask of them).
    """
    return touched > 0 or options.empty_clues


def may_clue_someone(
    options: GameOptions, hands: Sequence[Sequence[int]], giver: int, clue_tokens: int
) -> bool:
    """Some clue is open to ``giver``: a token is left, and another player holds a card
    (every card is touched at least by the clue of its own rank) or empty clues are on."""
    if not may_clue(clue_tokens):
        return False
    players = len(hands)
    for target, hand in enumerate(hands):
        if may_clue_player(giver, target, players) and may_give_clue_touching(len(hand), options):
            return True
    return False


# -- a turn: plays and discards ---------------------------------------------------------------


def holds_card(hand: Sequence[int], card_id: int) -> bool:
    """A play or a discard names a card of the mover's own hand, by id (never by slot).

    Nothing else restricts a play: a card that does not fit its firework is still a legal
    play (a misplay, which burns a fuse).
    """
    return card_id in hand


# -- rearranging one's hand (an option; it takes no turn) ---------------------------------------


def may_rearrange(
    options: GameOptions, over: bool, hand: Sequence[int], card_id: int, slot: int
) -> str:
    """Why a player may not move card ``card_id`` of their own ``hand`` to ``slot`` (1 = the
    newest end) now, or "" if they may.

    Only with the option; at any time while the game goes on, on anyone's turn, as a player
    holds their cards in the box game (001: "a player who is given information can rearrange
    his hand"; 002's appendix: "players may rearrange their hand cards"), and as hanab.live
    lets its players drag their cards at any time. Only the holder moves their cards, never
    onto a slot the hand does not have, and a move must change the order.
    """
    if not options.rearrange:
        return "rearranging one's hand is not an option of this game"
    if over:
        return "the game is over"
    if not holds_card(hand, card_id):
        return f"card {card_id} is not in your hand"
    if not 1 <= slot <= len(hand):
        return f"your hand has slots 1 to {len(hand)}, not {slot}"
    if hand.index(card_id) == slot - 1:
        return f"that card is in slot {slot} already"
    return ""


def rearranged(hand: Sequence[int], card_id: int, slot: int) -> list[int]:
    """The hand after card ``card_id`` moves to ``slot``: the cards between shift over by
    one, as when a card is dragged along a row (slot 4 to slot 1: the old slots 1 to 3
    become 2 to 4)."""
    cards = [cid for cid in hand if cid != card_id]
    cards.insert(slot - 1, card_id)
    return cards


def may_discard(clue_tokens: int) -> bool:
    """A discard gives a clue token back, so it is allowed only while fewer than 8 clue
    tokens are available."""
    return clue_tokens < MAX_CLUE_TOKENS


def fits_firework(height: int, rank: int) -> bool:
    """A played card is placed if it is the next rank of its suit's firework (``height`` is
    the firework's top rank, 0 if none); otherwise it is misplayed."""
    return height == rank - 1


def five_returns_token(rank: int, clue_tokens: int) -> bool:
    """A 5 placed on its firework returns one clue token, unless all 8 are available."""
    return rank == MAX_RANK and clue_tokens < MAX_CLUE_TOKENS


def has_legal_action(
    options: GameOptions, hands: Sequence[Sequence[int]], seat: int, clue_tokens: int
) -> bool:
    """Nobody may pass: a player can act if they hold a card (a card can always be played)
    or some clue is open to them. With play until perfect, a player who cannot is defeat."""
    return bool(hands[seat]) or may_clue_someone(options, hands, seat, clue_tokens)


# -- end of the game ---------------------------------------------------------------------------


class End(StrEnum):
    """How a game ended. The value is the stable string stored and exported."""

    STRIKEOUT = "strikeout"  # the last fuse burned: lost, score 0
    PERFECT = "perfect"  # every firework complete: maximum score (victory until perfect)
    LAST_ROUND = "last_round"  # the round after the last card was drawn is over
    NO_MORE_POINTS = "no_more_points"  # no remaining card can still raise the score
    DEFEAT_LOST_CARD = "defeat_lost_card"  # until perfect: a card the display needs is gone
    DEFEAT_NO_ACTION = "defeat_no_action"  # until perfect: a player can neither act nor pass

    @property
    def lost(self) -> bool:
        """True for the endings that score 0."""
        return self in LOSING_ENDS

    @property
    def text(self) -> str:
        return _END_TEXT[self]


LOSING_ENDS = frozenset({End.STRIKEOUT, End.DEFEAT_LOST_CARD, End.DEFEAT_NO_ACTION})
_END_TEXT = {
    End.STRIKEOUT: "the last fuse burned",
    End.PERFECT: "every firework is complete",
    End.LAST_ROUND: "the last round is over",
    End.NO_MORE_POINTS: "no remaining card can raise the score",
    End.DEFEAT_LOST_CARD: "a card the display needed is lost, so it can no longer be perfect",
    End.DEFEAT_NO_ACTION: "a player had no card and no clue token, and nobody may pass",
}


def last_round_ends_at(options: GameOptions, turn: int) -> int | None:
    """When action ``turn`` (its index) draws the last card: the number of actions after
    which the game ends, since every player, the drawer included, takes exactly one more
    turn. None with play until perfect, which has no last round."""
    if options.until_perfect:
        return None
    return turn + 1 + options.players


def game_end(
    options: GameOptions,
    *,
    fuses_left: int,
    score: int,
    reachable: int,
    last_round_over: bool,
    hands: Sequence[Sequence[int]],
    mover: int,
    clue_tokens: int,
) -> End | None:
    """The ending an action brought about, or None if the game goes on.

    ``score``: the fireworks' total; ``reachable``: the most the fireworks can still reach
    given the lost cards; ``last_round_over``: the last round (see ``last_round_ends_at``)
    is over; ``mover``: the seat to move next. When one action meets several endings, the
    first listed wins: the last fuse, then a complete display, then (until perfect) a lost
    card before a stuck player, or (otherwise) the end of the last round before "nothing
    left to play for".
    """
    if fuses_left == 0:
        return End.STRIKEOUT
    max_score = options.max_score
    if score == max_score:
        return End.PERFECT
    if options.until_perfect:
        if reachable < max_score:
            return End.DEFEAT_LOST_CARD
        if not has_legal_action(options, hands, mover, clue_tokens):
            return End.DEFEAT_NO_ACTION
        return None
    if last_round_over:
        return End.LAST_ROUND
    if reachable == score:
        return End.NO_MORE_POINTS
    if not has_legal_action(options, hands, mover, clue_tokens):
        return End.DEFEAT_NO_ACTION  # cannot happen without until perfect; kept safe
    return None
