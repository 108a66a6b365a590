"""Rearranging one's own hand (the game option "rearrange"; RULES.md, "Rearranging one's
hand"): a player moves a card of their hand from one slot to another. It takes no turn, so
the turn, the tokens and the deadline stay as they are; it is kept on the game's row
(`Game.rearrangements`), in order, and the game's version is raised so that every open page
shows the new order and the history line at once.

A request names the slots as the player's page showed them, and the hand it showed (its
cards' ids): if the hand has changed since (a card played or drawn, or moved from another
page), "slot 3" may no longer be the card the player meant, so nothing is moved and the
player is told why.
"""

from django.db import transaction
from django.db.models import F

from accounts.models import User
from games.engine import IllegalAction, Rearrange
from games.errors import GameError, IllegalMove, NotAllowed, StaleMove
from games.models import REARRANGE_KEYS, Game
from games.services import snapshots, versions

STALE_HAND = (
    "Your hand changed since your page was loaded (a card was played, drawn or moved), so "
    "no card was moved. Here is your hand as it is now."
)


def rearrange_hand(
    game_id: int, user: User, from_slot: int, to_slot: int, shown_hand: list[int]
) -> Game:
    """Move the card in `from_slot` of the user's hand to `to_slot` (slots count from 1, the
    newest card), if the hand is still `shown_hand` (card ids, slot 1 first). Returns the
    game with its new version."""
    with transaction.atomic():
        game = Game.objects.locked(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed("You are not playing in this game.")
        if not game.is_playing():
            raise GameError("This game is not being played: no card can be moved.")
        if not game.game_options.rearrange:
            raise IllegalMove("Rearranging one's hand is not an option of this game.")
        if seat.is_bot:
            raise GameError("A bot plays your seat now: take it back to move your cards.")
        state = snapshots.state_of(game)
        hand = list(state.hand(seat.position))
        if hand != list(shown_hand):
            raise StaleMove(STALE_HAND)
        if not 1 <= from_slot <= len(hand):
            raise IllegalMove(
                f"Your hand has slots 1 to {len(hand)}: there is no slot {from_slot}."
            )
        action = Rearrange(seat.position, hand[from_slot - 1], to_slot)
        try:
            state.apply(action)
        except IllegalAction as error:
            raise IllegalMove(f"That card was not moved: {error.reason}.") from None
        item = {"turn": game.turn, **{key: getattr(action, key) for key in REARRANGE_KEYS}}
        game.rearrangements = [*game.rearrangements, item]
        # The rearrangement and the new version in one UPDATE, under the row lock held since
        # the read above: the version is the one read plus one (as a move's, services/play.py).
        Game.objects.filter(pk=game.pk).update(
            rearrangements=game.rearrangements, version=F("version") + 1
        )
        game.version += 1
        game_id, new_version = game.pk, game.version
        transaction.on_commit(lambda: versions.changed(game_id, new_version))
        snapshots.keep_after_commit(game, state)
    return game
