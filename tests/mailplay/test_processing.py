"""A reply to a turn email makes the move it names, once, for the seat it was sent to, and
is always answered; anything else changes nothing."""

import email
import email.policy
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import User
from games.engine import action_to_dict, view_for
from games.models import ChatMessage, ChatPolicy, Game, Move
from games.services import play
from games.text_commands import read_reply
from mailplay.inbound import receive
from mailplay.models import InboundMessage
from mailplay.processing import process
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, start_game
from tests.mail_signing import signed_by
from tests.mailplay.conftest import address_for, deliver, reply, run_due, send_reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]


@pytest.fixture
def game(alice, bob, carol) -> Game:
    return start_game(alice, bob, carol, chat_policy=ChatPolicy.DURING)


def next_seat_card(game: Game) -> tuple[int, dict]:
    """The next player's seat and the card in their slot 1."""
    game.refresh_from_db()
    state = game.load_state()
    target = (game.current_seat + 1) % state.players
    card_id = state.hand(target)[0]
    card = state.deck[card_id]
    return target, {"suit": card.suit_name, "rank": card.rank}


def answers_to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email] and "Hanabi game" in m.subject]


def the_move(game: Game, turn: int) -> dict:
    return Move.objects.get(game=game, turn=turn).action


def test_play_by_slot_makes_the_move_and_the_answer_shows_it(game, mailoutbox):
    mover = current_user(game)
    own = game.load_state().hand(game.current_seat)
    message = send_reply(game, mover, "play 2")
    assert message.status == InboundMessage.Status.MOVED
    assert the_move(game, 0) == {"type": "play", "card_id": own[1]}
    (answer,) = answers_to(mailoutbox, mover)
    assert "your move is made" in answer.subject
    assert "Done: play slot 2." in answer.body
    assert "Your move:" in answer.body
    assert answer.extra_headers["In-Reply-To"] == message.message_id


def test_discard_by_slot(game):
    first = current_user(game)
    target, card = next_seat_card(game)
    send_reply(game, first, f"clue {target + 1} {card['rank']}")
    second = current_user(game)
    own = game.load_state().hand(game.current_seat)
    send_reply(game, second, "Discard 5.")
    assert the_move(game, 1) == {"type": "discard", "card_id": own[4]}


@pytest.mark.parametrize(
    "command",
    [
        "clue {name} {colour}",
        "clue {prefix} {rank}",
        "clue {seat} {letter}",
        "CLUE {name} {rank}s",
    ],
)
def test_clues_by_name_prefix_or_seat_and_colour_letter_or_rank(game, command):
    mover = current_user(game)
    target, card = next_seat_card(game)
    name = game.seats.get(position=target).name
    text = command.format(
        name=name,
        prefix=name[:2].lower(),
        seat=target + 1,
        colour=card["suit"],
        letter=card["suit"][0],
        rank=card["rank"],
    )
    message = send_reply(game, mover, text)
    assert message.status == InboundMessage.Status.MOVED, message.outcome
    move = the_move(game, 0)
    assert move["type"] == "clue" and move["target"] == target
    assert move.get("colour") == card["suit"] or move.get("rank") == card["rank"]


def test_help_answers_with_the_table_and_the_commands_and_moves_nothing(game, mailoutbox):
    mover = current_user(game)
    message = send_reply(game, mover, "help")
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.filter(game=game).exists()
    (answer,) = answers_to(mailoutbox, mover)
    assert "the table and the commands" in answer.subject
    assert "play" in answer.body and "discard" in answer.body and "clue" in answer.body
    # Still this player's turn: the answer can be replied to.
    assert answer.extra_headers["Reply-To"] == address_for(game, mover)


def test_chat_goes_to_the_table_talk_with_the_move(game, mailoutbox):
    mover = current_user(game)
    send_reply(game, mover, "play 1\nchat: sorry,   a blind play!")
    assert Move.objects.filter(game=game, turn=0).exists()
    assert ChatMessage.objects.get(game=game).text == "sorry, a blind play!"
    (answer,) = answers_to(mailoutbox, mover)
    assert "posted to the table talk" in answer.body


def test_chat_is_refused_where_the_table_keeps_quiet(alice, bob, mailoutbox):
    game = start_game(alice, bob)  # chat only after the game: the default
    mover = current_user(game)
    message = send_reply(game, mover, "chat: hello")
    assert message.status == InboundMessage.Status.ANSWERED
    assert not ChatMessage.objects.exists()
    (answer,) = answers_to(mailoutbox, mover)
    assert "Your message was not posted" in answer.body


def test_not_understood_answers_with_the_commands(game, mailoutbox):
    mover = current_user(game)
    message = send_reply(game, mover, "I think I will pass this time")
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.filter(game=game).exists()
    (answer,) = answers_to(mailoutbox, mover)
    assert "not understood" in answer.subject
    assert "is not a command" in answer.body or "not understood" in answer.body
    assert "play" in answer.body


def test_an_illegal_move_is_refused_with_the_reason(game, mailoutbox):
    mover = current_user(game)
    # Eight clue tokens: no discard.
    message = send_reply(game, mover, "discard 1")
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.filter(game=game).exists()
    (answer,) = answers_to(mailoutbox, mover)
    assert "no move was made" in answer.subject
    assert "Nothing was played." in answer.body


def test_a_reply_after_the_turn_has_passed_changes_nothing(game, mailoutbox):
    mover = current_user(game)
    late = address_for(game, mover)
    state = game.load_state()
    play.submit_action(game.pk, mover, action_to_dict(state.legal_actions()[0]), 0)
    mailoutbox.clear()
    message = deliver(reply(late, mover.email, "play 1"), late, mover.email)
    assert message.status == InboundMessage.Status.ANSWERED
    assert Move.objects.filter(game=game).count() == 1
    (answer,) = answers_to(mailoutbox, mover)
    assert "that turn has passed" in answer.subject


def test_the_same_reply_delivered_twice_moves_once(game):
    mover = current_user(game)
    to = address_for(game, mover)
    raw = reply(to, mover.email, "play 1", message_id="<same@client.example>")
    first = deliver(raw, to, mover.email)
    second = deliver(raw, to, mover.email)
    assert first.status == InboundMessage.Status.MOVED
    assert second is None
    assert InboundMessage.objects.count() == 1
    assert Move.objects.filter(game=game).count() == 1


def test_processing_a_message_twice_does_it_once(game):
    mover = current_user(game)
    to = address_for(game, mover)
    message = deliver(reply(to, mover.email, "play 1"), to, mover.email)
    assert process(message.pk) is None
    assert Move.objects.filter(game=game).count() == 1
    assert Outbox.objects.filter(kind="mail_answer").count() == 1


def test_a_forged_or_altered_address_is_ignored_without_an_answer(game, mailoutbox):
    mover = current_user(game)
    genuine = address_for(game, mover)
    local, domain = genuine.split("@")
    mac = local.rsplit("-", 1)[1]
    forged_mac = local.replace(mac, ("1" if mac[0] != "1" else "2") + mac[1:])
    other_game = local.replace(f"play+{game.pk}-", f"play+{game.pk + 1}-")
    mailoutbox.clear()
    for address in (f"{forged_mac}@{domain}", f"{other_game}@{domain}"):
        message = deliver(reply(address, mover.email, "play 1"), address, mover.email)
        assert message.status == InboundMessage.Status.IGNORED
    assert not Move.objects.exists()
    assert mailoutbox == []


def test_another_seats_address_does_not_move_for_its_sender(game, mailoutbox):
    mover = current_user(game)
    other = next(seat.user for seat in game.seats.all() if seat.user != mover)
    # The other player's address for this turn (not theirs to move), from the other player.
    theirs = address_for(game, other)
    message = deliver(reply(theirs, other.email, "play 1"), theirs, other.email)
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.exists()
    (answer,) = answers_to(mailoutbox, other)
    assert "no move was made" in answer.subject
    assert "not your turn" in answer.body


def test_a_forwarded_reply_from_someone_else_moves_nothing_and_shows_nothing(
    game, mailoutbox, mallory
):
    mover = current_user(game)
    to = address_for(game, mover)
    mailoutbox.clear()
    message = deliver(reply(to, "Mallory <MALLORY@example.org>", "play 1"), to)
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.exists()
    # The note goes to the seat's player, never to the From anyone can write (backscatter).
    (note,) = mailoutbox
    assert note.to == [mover.email]
    assert "could not be verified as yours" in note.body
    assert "Fireworks" not in note.body and "slot" not in note.body


def test_the_sender_is_compared_without_case(game):
    mover = current_user(game)
    to = address_for(game, mover)
    message = deliver(reply(to, mover.email.upper(), "play 1"), to)
    assert message.status == InboundMessage.Status.MOVED


def test_an_html_only_reply_makes_the_move(game):
    mover = current_user(game)
    html = (
        '<div dir="ltr">play 3</div><br><div class="gmail_quote"><div>On Tue, Hanabi wrote:'
        "</div><blockquote>play 1<br>Fireworks: R0 Y0</blockquote></div>"
    )
    message = send_reply(game, mover, "", html=html)
    assert message.status == InboundMessage.Status.MOVED, message.outcome
    assert the_move(game, 0)["card_id"] == game.load_state().events[0].card_id


def test_an_oversized_message_is_not_stored(game, settings, caplog):
    settings.INBOUND_MAX_BYTES = 10_000
    mover = current_user(game)
    to = address_for(game, mover)
    raw = reply(to, mover.email, "play 1\n" + "x" * 20_000)
    assert deliver(raw, to, mover.email) is None
    assert not InboundMessage.objects.exists()
    assert "over 10000" in caplog.text


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\xff\xfe\x00garbage",
        b"From: x\r\nContent-Type: multipart/mixed; boundary=\r\n\r\n--\r\n",
        b"Content-Type: text/plain; charset=x-unknown\r\n\r\nplay 1",
        # Python's own header parser raises IndexError on this one...
        b"Content-Type: text/plain; 0*0*\r\n\r\nplay 1",
        # ...and on a part's charset broken by a carriage return (a damaged iPhone reply,
        # found by tests/mailplay/test_reply_text.py).
        b"Content-Type: multipart/alternative; boundary=b\n\n"
        b"--b\nContent-Type: text/plain;\n\tc*\rharset=utf-8\n\nplay 1\n--b--\n",
    ],
)
def test_malformed_messages_never_crash_and_move_nothing(game, raw):
    mover = current_user(game)
    to = address_for(game, mover)
    message = deliver(raw, to, mover.email)
    assert message is not None
    assert message.status in (InboundMessage.Status.IGNORED, InboundMessage.Status.ANSWERED)
    assert not Move.objects.exists()
    assert run_due("mail_answer") == 0


def test_a_reply_whose_only_text_has_an_unreadable_disposition_is_answered(game, mailoutbox):
    """Python's parser raises (IndexError) on this Content-Disposition when it is read, as
    the reply's text is looked for: the part is not read, and the answer says so."""
    mover = current_user(game)
    to = address_for(game, mover)
    raw = (
        f"From: {mover.email}\r\nTo: {to}\r\nSubject: Re: Your turn\r\n"
        "Content-Type: text/plain\r\nContent-Disposition: ;0*0*\r\n\r\nplay 1\r\n"
    ).encode()
    mailoutbox.clear()
    message = deliver(signed_by(raw, mover.email), to, mover.email)
    assert message.status == InboundMessage.Status.ANSWERED
    assert not Move.objects.exists()
    (answer,) = answers_to(mailoutbox, mover)
    assert "not understood" in answer.subject
    assert "no text in it that could be read" in answer.body


def test_a_reply_with_an_attachment_reads_its_text(game):
    from email.message import EmailMessage

    mover = current_user(game)
    to = address_for(game, mover)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = mover.email, to, "Re: turn"
    message.set_content("play 1\n")
    message.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="x.png")
    stored = deliver(signed_by(message.as_bytes(), mover.email), to, mover.email)
    assert stored.status == InboundMessage.Status.MOVED


REPLIES = Path(__file__).resolve().parent / "replies"
# Replies as each client writes them (tests/mailplay/replies/), and what their sender wrote.
CLIENT_REPLIES = {
    "gmail_top.eml": "play 3",
    "outlook_desktop_top.eml": "discard 4",
    "outlook_ios_top.eml": "clue carol 2",
    "outlook_web_html_only.eml": "clue bob red",
    "apple_iphone_top.eml": "Play 2",
    "k9_english_top.eml": "play 4",
    "k9_german_top.eml": "discard 4",
    "thunderbird_bottom_signature.eml": "clue bob red",
    "mutt_bottom.eml": "clue carol 5",
}


def as_sent_to(path: Path, to: str, sender: str) -> bytes:
    """The sample with its From and To rewritten, the rest (MIME, encodings) as the client
    wrote it, and signed as the sender's mail server signs it."""
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.compat32)
    del message["From"], message["To"]
    message["From"], message["To"] = sender, to
    return signed_by(message.as_bytes(), sender)


@pytest.mark.parametrize("sample", CLIENT_REPLIES)
def test_replies_from_the_common_clients_make_the_move_they_name(sample, alice, bob, carol):
    game = start_game(alice, bob, carol, empty_clues=True)
    # One clue first, so that a discard is legal; then the mover is "Alice" to the others.
    first = current_user(game)
    target, card = next_seat_card(game)
    send_reply(game, first, f"clue {target + 1} {card['rank']}")
    mover = current_user(game)
    others = [seat.user for seat in game.seats.order_by("position") if seat.user != mover]
    for user, name in zip([mover, *others], ["Alice", "Bob", "Carol"], strict=True):
        User.objects.filter(pk=user.pk).update(display_name=name)
    view = view_for(game.load_state(), game.current_seat, game.seat_names())
    expected = read_reply(CLIENT_REPLIES[sample], view).action

    to = address_for(game, mover)
    message = deliver(as_sent_to(REPLIES / sample, to, mover.email), to, mover.email)
    assert message.status == InboundMessage.Status.MOVED, message.outcome
    assert the_move(game, 1) == expected


@pytest.mark.parametrize(
    "header", ["Auto-Submitted: auto-replied", "Precedence: auto_reply", "X-Autoreply: yes"]
)
def test_an_out_of_office_reply_is_ignored_and_not_answered(game, mailoutbox, header):
    mover = current_user(game)
    to = address_for(game, mover)
    name, value = header.split(": ")
    raw = reply(to, mover.email, "I am away until Monday.").replace(
        b"Subject:", f"{name}: {value}\nSubject:".encode()
    )
    mailoutbox.clear()
    message = deliver(raw, to, mover.email)
    assert message.status == InboundMessage.Status.IGNORED
    assert mailoutbox == []


def test_answers_say_they_are_automatic_so_that_robots_do_not_answer_them(game, mailoutbox):
    mover = current_user(game)
    send_reply(game, mover, "help")
    (answer,) = answers_to(mailoutbox, mover)
    assert answer.extra_headers["Auto-Submitted"] == "auto-replied"


def test_a_message_stored_but_never_run_is_picked_up_by_the_sweep(game):
    """As after a crash between storing and enqueueing (or a broker outage): the outbox
    sweep finds the row and the move is made, once."""
    from outbox.delivery import enqueue_due

    mover = current_user(game)
    to = address_for(game, mover)
    # In this test's transaction nothing is enqueued at commit: the row just waits.
    message = receive(reply(to, mover.email, "play 1"), InboundMessage.Source.SMTP, [to])
    assert message.status == InboundMessage.Status.RECEIVED
    assert enqueue_due() >= 1  # tasks run in the test's process
    message.refresh_from_db()
    assert message.status == InboundMessage.Status.MOVED
    assert Move.objects.filter(game=game).count() == 1


def test_a_failure_while_processing_undoes_the_move_and_the_retry_makes_it_once(game, monkeypatch):
    """Everything a reply does is one transaction: if anything fails (here, writing the
    answer's row), the move is undone and the message waits; the outbox runs it again."""
    from mailplay import processing

    mover = current_user(game)
    to = address_for(game, mover)
    message = receive(reply(to, mover.email, "play 1"), InboundMessage.Source.SMTP, [to])
    (row,) = Outbox.objects.filter(kind="inbound_email")

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(processing, "schedule", broken)
    assert not delivery.run(row.pk)
    message.refresh_from_db()
    assert message.status == InboundMessage.Status.RECEIVED
    assert not Move.objects.exists()

    monkeypatch.undo()
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())  # its backoff has passed
    assert delivery.run(row.pk)
    message.refresh_from_db()
    assert message.status == InboundMessage.Status.MOVED
    assert Move.objects.filter(game=game).count() == 1
