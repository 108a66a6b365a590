"""The answer to every reply that was read: the move made and the table after it, or why
nothing happened. Sent through the outbox (a row written with the processing), to the
seat's user, in the thread of their reply.

The table is the seat's own view (games/emails.py: turn_context), as the game is when the
answer goes: never a card its reader may not see. A reply from someone else than the seat's
user gets a short note and no table: a forwarded turn email is no way into the game.
"""

from games.emails import send_game_email, turn_context
from games.engine import event_dict
from games.text_commands import command_help
from lib.emails import send_email
from mailplay import outbox_kinds
from mailplay.models import InboundMessage
from mailplay.processing import Answer, parsed, sender_address
from outbox.models import Outbox
from outbox.registry import handler

SUBJECTS = {
    Answer.MOVED: "your move is made",
    Answer.REFUSED: "no move was made",
    Answer.HELP: "the table and the commands",
    Answer.CHATTED: "your message",
    Answer.NOT_UNDERSTOOD: "your reply was not understood",
    Answer.PASSED: "that turn has passed",
}


@handler(outbox_kinds.MAIL_ANSWER)
def send_answer(row: Outbox) -> None:
    message = InboundMessage.objects.select_related("game").get(pk=row.payload["message"])
    answer = row.payload["answer"]
    thread = _thread_headers(message)
    if answer == Answer.WRONG_SENDER:
        sender = sender_address(parsed(bytes(message.raw)))
        send_email("mailplay/wrong_sender", sender, {"outcome": message.outcome}, headers=thread)
        return
    game = message.game
    seat = game.seats.select_related("user").get(position=message.seat)
    context = turn_context(game, seat)
    context.update(
        answer=answer,
        subject_text=SUBJECTS[answer],
        outcome=message.outcome,
        move_text=_move_text(game, message.turn, context) if answer == Answer.MOVED else "",
        final=game.outcome(game.load_state()) if game.is_finished() else None,
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


def _thread_headers(message: InboundMessage) -> dict:
    """In-Reply-To and References, so that mail clients show the answer under the reply;
    and Auto-Submitted (RFC 3834), so that an out-of-office robot does not answer it."""
    headers = {"Auto-Submitted": "auto-replied"}
    if message.message_id.startswith("<"):
        headers.update({"In-Reply-To": message.message_id, "References": message.message_id})
    return headers


def _move_text(game, turn: int, context: dict) -> str:
    """The history line of the move this reply made ("Ann plays R3 from slot 2 …")."""
    state = game.load_state()
    names = context["view"]["names"]
    for event in state.events:
        if event.turn == turn:
            return event_dict(event, state, names)["text"]
    return ""
