"""The push stream's pass: a short-lived signed token in the page, so that the stream
(games/views/events.py) authorises once, when it opens, with no session and no database.

The turn page, which has checked the viewer's seat in the database, signs what it found: the
game, the user, the seat, and a digest of the browser's session key. The spectator page
(games/views/spectate.py), once games/spectators.py has admitted the viewer, signs the same
with no seat (`"s": None`): the stream it opens carries the same version numbers, and marks no
seat present (games/push_presence.py). The stream accepts the
token only for that game, within MAX_AGE of its signing, and only from a browser that still
sends that session's cookie: a log-out deletes the session (and its cookie), so a token
copied from a page, or kept after a log-out, opens nothing. (A stolen cookie with its token
would open a stream until the token expires; the stream carries version numbers only.)

An open stream sends a fresh token every RENEW_EVERY (the stream checked the claims when it
opened), so that a page open for days reconnects after a network blip; a page that lost its
stream for longer than MAX_AGE gets a fresh token with its next table (games/views/table.py:
the X-Events header of a poll's answer)."""

import hashlib

from django.core import signing

SALT = "games.push.stream"
MAX_AGE = 15 * 60  # seconds
RENEW_EVERY = MAX_AGE / 3


def session_digest(session_key: str) -> str:
    # The token is readable in the page: only a digest of the session key, never the key.
    return hashlib.sha256(f"{SALT}:{session_key}".encode()).hexdigest()[:32]


def mint(game_id: int, user_id: int, seat_id: int | None, session_key: str) -> str:
    """A player's pass (their seat), or a spectator's (seat_id None)."""
    claims = {"g": game_id, "u": user_id, "s": seat_id, "k": session_digest(session_key)}
    return signing.dumps(claims, salt=SALT)


def check(token: str, game_id: int, session_key: str | None) -> dict | None:
    """The token's claims if it is genuine, unexpired, for this game and this session;
    otherwise None."""
    if not token or not session_key:
        return None
    try:
        claims = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # forged, altered or expired (SignatureExpired)
        return None
    if not isinstance(claims, dict) or claims.get("g") != game_id:
        return None
    if claims.get("k") != session_digest(session_key):
        return None
    return claims


def renewed(claims: dict) -> str:
    """The same claims, signed now."""
    return signing.dumps(claims, salt=SALT)
