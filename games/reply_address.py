"""The reply address of a turn email: `play+<game>-<seat>-<turn>-<mac>@MAIL_DOMAIN`.

A reply sent to it may make one move, for one seat, in one turn of one game (mailplay/ does
that). The MAC signs the game, the seat, the turn and the user who holds the seat, so an
address cannot be altered into another game, seat or turn, and dies if the seat changes
hands. It dies too once the turn has passed: the caller compares the scope with the game.
The address never logs anyone in, and the sender of a reply must also be the seat's user.

The token is lower-case letters, digits and hyphens: mail systems may fold the case of an
address's local part, and a plus or a colon would not survive every one of them.
"""

import re
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "games.reply_address"
# 80 bits of HMAC-SHA256: a forger gets one guess per email sent.
MAC_LENGTH = 20
TOKEN = re.compile(rf"(\d{{1,12}})-(\d)-(\d{{1,4}})-([0-9a-f]{{{MAC_LENGTH}}})")


@dataclass(frozen=True)
class ReplyScope:
    """What a genuine reply address allows: a move in this game, at this seat and turn."""

    game_id: int
    seat: int
    turn: int


def _mac(game_id: int, seat: int, turn: int, user_id: int) -> str:
    value = f"{game_id}:{seat}:{turn}:{user_id}"
    return salted_hmac(SALT, value, algorithm="sha256").hexdigest()[:MAC_LENGTH]


def reply_token(game_id: int, seat: int, turn: int, user_id: int) -> str:
    return f"{game_id}-{seat}-{turn}-{_mac(game_id, seat, turn, user_id)}"


def reply_address(game_id: int, seat: int, turn: int, user_id: int) -> str:
    """The address a reply to this seat's turn email goes to."""
    token = reply_token(game_id, seat, turn, user_id)
    return f"{settings.REPLY_ADDRESS_PREFIX}+{token}@{settings.MAIL_DOMAIN}"


def token_of(address: str) -> str | None:
    """The token in a reply address (`play+<token>@any domain`, any case), or None."""
    local, at, _domain = address.strip().strip("<>").rpartition("@")
    prefix, plus, token = local.partition("+")
    if not at or not plus or prefix.lower() != settings.REPLY_ADDRESS_PREFIX.lower():
        return None
    return token.lower()


def scope_of(token: str) -> tuple[ReplyScope, str] | None:
    """The scope a token names and its MAC, if it has the right shape (not yet checked)."""
    match = TOKEN.fullmatch(token)
    if match is None:
        return None
    game_id, seat, turn, mac = match.groups()
    return ReplyScope(int(game_id), int(seat), int(turn)), mac


def is_genuine(scope: ReplyScope, mac: str, user_id: int) -> bool:
    """Whether the MAC was made by this site for this scope and the seat's user."""
    expected = _mac(scope.game_id, scope.seat, scope.turn, user_id)
    return constant_time_compare(expected, mac)
