"""The answer to every reply that was read: the move made and the table after it, or why
nothing happened. Sent through the outbox (a row written with the processing), to the
seat's user, in the thread of their reply.

The table is the seat's own view (games/emails.py: turn_context), as the game is when the
answer goes: never a card its reader may not see. A reply not verified as the seat's
user's gets a short note to that user and no table: a forwarded turn email is no way into
the game, and nothing goes to an unverified From.
"""

from django.utils.translation import gettext_lazy as _

from accounts.game_email import may_receive_game_email
from accounts.models import User
from games.emails import in_language_of, send_game_email, turn_context
from games.text_commands import command_help
from games.wording import event_sentence, outcome_in_words
from lib.emails import send_email
from mailplay import outbox_kinds
from mailplay.models import InboundMessage
from mailplay.processing import Answer
from outbox.models import Outbox
from outbox.registry import handler

SUBJECTS = {
    Answer.MOVED: _("your move is made"),
    Answer.REFUSED: _("no move was made"),
    Answer.HELP: _("the table and the commands"),
    Answer.CHATTED: _("your message"),
    Answer.NOT_UNDERSTOOD: _("your reply was not understood"),
    Answer.PASSED: _("that turn has passed"),
}


@handler(outbox_kinds.MAIL_ANSWER)
def send_answer(row: Outbox) -> None:
    message = InboundMessage.objects.select_related("game").get(pk=row.payload["message"])
    answer = row.payload["answer"]
    game = message.game
    seat = game.seats.select_related("user").get(position=message.seat)
    if answer == Answer.WRONG_SENDER:
        _send_unverified_note(message, seat.user)
        return
    # The seat's player's language (issue 29): the outcome was written in it (processing).
    with in_language_of(seat.user):
        _send_answer(message, answer, seat)


def _send_answer(message: InboundMessage, answer: str, seat) -> None:
    game = message.game
    thread = _thread_headers(message)
    context = turn_context(game, seat)
    context.update(
        answer=answer,
        subject_text=str(SUBJECTS[answer]),
        outcome=message.outcome,
        move_text=_move_text(game, message.turn, context) if answer == Answer.MOVED else "",
        final=_final(game) if game.is_finished() else None,
        command_help=(
            command_help(context["view"], chat_open=game.chat_open())
            if answer in (Answer.HELP, Answer.NOT_UNDERSTOOD) and context["examples"]
            else ""
        ),
    )
    headers = dict(thread)
    if context.get("reply_to"):
        # Still this player's turn (help, a refused or unread command): answer this one.
        headers["Reply-To"] = context["reply_to"]
    send_game_email("reply_answer", seat.user, context, headers=headers)


def _send_unverified_note(message: InboundMessage, player: User | None) -> None:
    """Tell the seat's player, at the address their turn email went to, that a reply came
    that was not verified as theirs. Never to the message's From: anyone can write it, and
    an answer there would mail a stranger (backscatter). Not in the reply's thread, whose
    Message-ID the sender chose and the player never saw; nothing the sender wrote is
    repeated."""
    if player is None or not may_receive_game_email(player):
        return  # the seat went to a bot since, or the address is not confirmed: no one to tell
    context = {"outcome": message.outcome, "game": message.game, "turn": message.turn}
    with in_language_of(player):
        send_email("mailplay/wrong_sender", player.email, context, headers=_AUTOMATIC)


# RFC 3834: an out-of-office robot does not answer an answer.
_AUTOMATIC = {"Auto-Submitted": "auto-replied"}


def _thread_headers(message: InboundMessage) -> dict:
    """In-Reply-To and References, so that mail clients show the answer under the reply;
    and Auto-Submitted (RFC 3834), so that an out-of-office robot does not answer it."""
    headers = dict(_AUTOMATIC)
    if message.message_id.startswith("<"):
        headers.update({"In-Reply-To": message.message_id, "References": message.message_id})
    return headers


def _move_text(game, turn: int, context: dict) -> str:
    """The history line of the move this reply made ("Ann plays red 3 (slot 2)"), in the
    active language."""
    state = game.load_state()
    names = context["view"]["names"]
    for event in state.events:
        if event.turn == turn:
            return event_sentence(event, state, names)
    return ""


def _final(game) -> dict:
    """How the game ended, in the active language."""
    state = game.load_state()
    return outcome_in_words(game.outcome(state), state, game.seat_names())
