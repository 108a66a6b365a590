"""What a reply to a turn email does: at most one move, through the same service as a move
made on the site, and an answer saying what happened.

Each stored message (mailplay/inbound.py) is processed by its outbox row. The message row is
locked and its status changed in the same transaction as the move and the answer's outbox
row: a worker that dies mid-way leaves the message waiting, and the outbox runs it again; a
second run finds it processed and does nothing. The move itself locks the game
(games/services/play.py), so a reply racing a web move or a timeout gives exactly one move.

A reply address authorises one move of one seat in one turn (games/reply_address.py), and
only for a message whose From is the seat's user alone (`sole_sender`) and is authenticated
for its domain (mailplay/sender_authentication.py): it never logs anyone in.
"""

import email
import email.policy
import logging
import re
from dataclasses import dataclass
from email import errors
from email.header import decode_header, make_header
from email.message import EmailMessage

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.languages import supported
from games.engine import view_for
from games.errors import GameError, StaleMove
from games.models import Game, Seat
from games.reply_address import is_genuine, scope_of, token_of
from games.services import chat, play
from games.text_commands import Impossible, NotUnderstood, Reply, read_reply
from games.wording import refusal
from mailplay import outbox_kinds, sender_authentication
from mailplay.models import InboundMessage
from mailplay.reply_text import UnreadableReply, written_text
from outbox.delivery import schedule
from outbox.models import Outbox
from outbox.registry import handler

logger = logging.getLogger(__name__)


class Answer:
    """What the answer email says happened (its templates branch on it)."""

    MOVED = "moved"  # the move was made
    # A move the game would not take (illegal, not your turn…), or a command that was read
    # but names what is not there ("play 9" with five cards): with the reason.
    REFUSED = "refused"
    HELP = "help"  # the table and the commands, as asked
    CHATTED = "chatted"  # only a message for the table talk
    NOT_UNDERSTOOD = "not_understood"  # no command found: the commands
    PASSED = "passed"  # the turn of this address is over: nothing can be done with it
    # Not verified as the seat's user's: nothing done, nothing shown, and the note goes to
    # the seat's user (never to the unverified From).
    WRONG_SENDER = "wrong_sender"


@dataclass
class Outcome:
    status: str
    answer: str | None  # None: no answer at all (an address this site never made)
    text: str  # for the player (and the admin's log): never a hidden card


def ignored(message: InboundMessage, why: str) -> Outcome:
    logger.warning("inbound message #%s to %s ignored: %s", message.pk, message.recipient, why)
    return Outcome(InboundMessage.Status.IGNORED, None, why)


@handler(outbox_kinds.INBOUND_EMAIL)
def process_inbound(row: Outbox) -> None:
    process(row.payload["message"])


def process(message_pk: int) -> InboundMessage | None:
    """Process one stored message, once: None if it was processed already."""
    with transaction.atomic():
        message = (
            InboundMessage.objects.select_for_update()
            .filter(pk=message_pk, status=InboundMessage.Status.RECEIVED)
            .first()
        )
        if message is None:
            return None
        outcome = decide(message)
        message.status = outcome.status
        message.outcome = outcome.text
        message.processed_at = timezone.now()
        message.save(update_fields=["status", "outcome", "processed_at", "game", "seat", "turn"])
        if outcome.answer is not None:
            schedule(outbox_kinds.MAIL_ANSWER, {"message": message.pk, "answer": outcome.answer})
    logger.info("inbound message #%s: %s", message.pk, outcome.text)
    return message


def parsed(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


class UntrustedSender(Exception):
    """The From header does not name one sender beyond doubt: `reason` says why (for the log)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


# Anything written like an address: in a display name, a comment or an encoded word, it is
# what a mail client shows as the sender, so it must be the mailbox itself or nothing.
ADDRESS_LIKE = re.compile(r"[^\s<>()\[\]\"',;:]+@[^\s<>()\[\]\"',;:]+")


def sole_sender(parsed_message: EmailMessage) -> str:
    """The address of the only mailbox in the only From header, lower-cased.

    Python's parser reads a forged From leniently: `bob@x <evil@y>` as bob@x, a group
    `x: bob@x;, evil@y` as bob@x first, an encoded word that only decodes to `bob@x` as an
    address. A mail server, DMARC and the reader's client see evil@y. So a From is taken
    only when it is unambiguous: exactly one header, not a group, exactly one mailbox,
    parsed without an invalid-syntax defect, and no other address written anywhere in it
    (display name and comments, after decoding encoded words)."""
    try:
        headers = parsed_message.get_all("From") or []
        if len(headers) != 1:
            raise UntrustedSender(f"{len(headers)} From headers")
        (header,) = headers
        groups = header.groups
        invalid = [d for d in header.defects if isinstance(d, errors.InvalidHeaderDefect)]
        # The parsed value drops comments: read the header as written too, and with every
        # encoded word decoded, wherever it stands.
        (raw,) = [value for name, value in parsed_message.raw_items() if name.lower() == "from"]
        written = " ".join([str(header), raw, str(make_header(decode_header(raw)))])
    except UntrustedSender:
        raise
    except Exception as error:
        raise UntrustedSender(f"an unreadable From ({error.__class__.__name__})") from None
    if invalid:
        raise UntrustedSender(f"a malformed From ({invalid[0]})")
    if len(groups) != 1 or groups[0].display_name is not None:
        raise UntrustedSender("a From with several addresses or a group")
    if len(groups[0].addresses) != 1:
        raise UntrustedSender("a From with several addresses")
    (mailbox,) = groups[0].addresses
    if not mailbox.username or not mailbox.domain:
        raise UntrustedSender("a From whose address has no domain")
    address = mailbox.addr_spec.lower()
    others = {found.lower().strip(".") for found in ADDRESS_LIKE.findall(written)} - {address}
    if others:
        raise UntrustedSender("a From whose display name or comment holds another address")
    return address


def is_automatic(parsed_message: EmailMessage) -> bool:
    """An out-of-office or other automatic reply, as RFC 3834 and common practice mark it."""
    auto_submitted = str(parsed_message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(parsed_message.get("Precedence", "")).strip().lower()
    return (
        auto_submitted not in ("", "no")
        or precedence in ("auto_reply", "bulk", "junk", "list")
        or any(name in parsed_message for name in ("X-Autoreply", "X-Autorespond"))
    )


def decide(message: InboundMessage) -> Outcome:
    """Check the address, the sender and the turn; then do what the reply asks."""
    token = token_of(message.recipient)
    scoped = scope_of(token) if token else None
    if scoped is None:
        return ignored(message, "not a reply address")
    scope, mac = scoped
    seat = (
        Seat.objects.select_related("user", "game")
        .filter(game_id=scope.game_id, position=scope.seat, user__isnull=False)
        .first()
    )
    if seat is None or not is_genuine(scope, mac, seat.user_id):
        return ignored(message, "a forged or altered reply address")
    message.game, message.seat, message.turn = seat.game, scope.seat, scope.turn
    # What the answer says, in the seat's player's language (issue 29): the outcome is
    # stored as the answer will show it.
    with translation.override(supported(seat.user.language)):
        return _decide_for_seat(message, seat, scope)


def _decide_for_seat(message: InboundMessage, seat: Seat, scope) -> Outcome:
    try:
        content = parsed(bytes(message.raw))
    except Exception:
        return ignored(message, "unreadable message")
    if is_automatic(content):
        # An out-of-office reply would be answered "not understood", and answer our answer.
        return ignored(message, "an automatic reply (RFC 3834), not a player's")
    if seat.user.is_suspended() or not seat.user.is_active:
        return ignored(message, "the player's account is suspended or closed")
    try:
        sender = sole_sender(content)
    except UntrustedSender as untrusted:
        sender, why = "", untrusted.reason
    else:
        why = "another sender"
    if sender == seat.user.email.lower():
        # Raises VerificationUnavailable on a DNS timeout: the outbox runs this again later.
        authentication = sender_authentication.verdict(message, content, sender)
        logger.info("inbound message #%s from %s: %s", message.pk, sender, authentication.how)
        if not authentication.authenticated:
            why = authentication.how
            sender = ""
    if sender != seat.user.email.lower():
        logger.warning(
            "inbound message #%s to seat %s of game %s is from %r (%s), not the seat's user",
            message.pk,
            scope.seat,
            scope.game_id,
            sender,
            why,
        )
        # The answer goes to the seat's player, whose turn email this address came in:
        # never to the From, which anyone can write (an answer there would be backscatter).
        return Outcome(
            InboundMessage.Status.ANSWERED,
            Answer.WRONG_SENDER,
            _("A reply to your turn email could not be verified as yours: nothing was done."),
        )
    game = seat.game
    if not game.is_playing() or game.turn != scope.turn:
        return Outcome(InboundMessage.Status.ANSWERED, Answer.PASSED, passed_text(game, scope.turn))
    try:
        # Read in every language; a word that differs between them, in the player's.
        reply = read_reply(written_text(content), seat_view(game, seat), seat.user.language)
    except Impossible as error:
        # Read, but impossible: the player needs the reason, not the list of commands.
        text = f"{error.reason} {_('Nothing was played.')}"
        return Outcome(InboundMessage.Status.ANSWERED, Answer.REFUSED, text)
    except (UnreadableReply, NotUnderstood) as error:
        return Outcome(InboundMessage.Status.ANSWERED, Answer.NOT_UNDERSTOOD, error.reason)
    return carry_out(game, seat, reply, scope.turn)


def seat_view(game: Game, seat: Seat) -> dict:
    return view_for(game.load_state(), seat.position, game.seat_names())


def passed_text(game: Game, turn: int) -> str:
    if game.is_finished():
        return _("The game is over: this reply came too late, and nothing was done.")
    if not game.is_playing():
        return _("This game is not being played now: nothing was done.")
    return _(
        "This reply was for turn %(turn)s, which has passed (the game is at turn "
        "%(now)s): nothing was done."
    ) % {"turn": turn + 1, "now": game.turn + 1}


def carry_out(game: Game, seat: Seat, reply: Reply, turn: int) -> Outcome:
    """The chat first (it says something about the move, usually), then the move or help."""
    said = []
    if reply.chat:
        try:
            chat.post_message(game.pk, seat.user, reply.chat)
            said.append(_("Your message was posted to the table talk."))
        except GameError as error:
            said.append(
                _("Your message was not posted: %(error)s") % {"error": refusal(str(error))}
            )
    if reply.action is not None:
        try:
            play.submit_action(game.pk, seat.user, reply.action, turn)
        except StaleMove:
            # Another move (the site, a timeout) landed while this reply was being read.
            game.refresh_from_db()
            text = " ".join([passed_text(game, turn), *said])
            return Outcome(InboundMessage.Status.ANSWERED, Answer.PASSED, text)
        except GameError as error:
            text = " ".join(
                [
                    _("“%(move)s”: %(reason)s")
                    % {"move": reply.summary, "reason": refusal(str(error))},
                    _("Nothing was played."),
                    *said,
                ]
            )
            return Outcome(InboundMessage.Status.ANSWERED, Answer.REFUSED, text)
        text = " ".join([_("Done: %(move)s.") % {"move": reply.summary}, *said])
        return Outcome(InboundMessage.Status.MOVED, Answer.MOVED, text)
    if reply.wants_help:
        text = " ".join([_("Here is the table, and the commands you can reply with."), *said])
        return Outcome(InboundMessage.Status.ANSWERED, Answer.HELP, text)
    return Outcome(InboundMessage.Status.ANSWERED, Answer.CHATTED, " ".join(said))
