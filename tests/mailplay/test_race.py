"""A reply to the turn email and a move on the site, for the same turn, at the same moment:
exactly one lands, and the other gets its clear refusal (on PostgreSQL, whose row locks are
what the services rely on; SQLite serialises every write anyway).

The order is forced, not left to the scheduler: the test holds the game's row lock (the lock
both sides take in games/services/play.py) while the side that must win starts and blocks
on it, then the other side; then it lets go. PostgreSQL grants a row's waiters in the order
they came (the first holds the tuple lock while it waits), so the first to block moves and
the second finds the turn gone. Both have done all their checks before the lock, as in a
real race: the reply has been read and found to be for the current turn, the form posted.
"""

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.test import Client

from games.engine import Clue, action_to_dict, view_for
from games.models import Game, Move
from games.reply_address import scope_of, token_of
from games.text_commands import example_commands, read_reply
from mailplay.inbound import dedupe_key
from mailplay.models import InboundMessage
from mailplay.processing import process
from tests.games.conftest import current_user, start_game
from tests.mailplay.conftest import address_for, reply, run_due

# Long enough for a loaded machine; a side that never blocks fails the test at once.
BLOCKED_WITHIN_SECONDS = 30


def stored_reply(to: str, sender: str, text: str) -> InboundMessage:
    """A reply as the receiver stores it, not yet processed."""
    raw = reply(to, sender, text)
    return InboundMessage.objects.create(
        game_id=scope_of(token_of(to))[0].game_id,
        source=InboundMessage.Source.SMTP,
        raw=raw,
        dedupe_key=dedupe_key(raw, ""),
        recipient=to,
        sender=sender,
    )


def clue_form(action: dict, turn: int) -> dict:
    """The turn page's form for a clue, as the browser posts it."""
    value = {"colour": action["colour"]} if "colour" in action else {"rank": action["rank"]}
    return {"turn": turn, "kind": "clue", "target": action["target"], **value}


class Side(threading.Thread):
    """One side of the race, on its own database connection, whose backend pid it tells
    first, so that the test can see when it is waiting for the game's lock."""

    def __init__(self, name: str, work: Callable[[], object]) -> None:
        super().__init__(name=name)
        self.work = work
        self.pid: int | None = None
        self.connected = threading.Event()
        self.result: object = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self.connected.set()
            self.result = self.work()
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error
        finally:
            self.connected.set()
            connection.close()


def start_and_wait_until_blocked(side: Side) -> None:
    """Start `side` and return once its backend waits for a lock (the game's row)."""
    side.start()
    assert side.connected.wait(BLOCKED_WITHIN_SECONDS), side.name
    deadline = time.monotonic() + BLOCKED_WITHIN_SECONDS
    while True:
        assert side.error is None, (side.name, side.error)
        assert side.is_alive(), f"{side.name} finished without waiting for the game's lock"
        with connection.cursor() as cursor:
            cursor.execute("SELECT cardinality(pg_blocking_pids(%s)) > 0", [side.pid])
            if cursor.fetchone()[0]:
                return
        assert time.monotonic() < deadline, f"{side.name} never waited for the game's lock"
        time.sleep(0.005)


def forced_race(game: Game, first: Side, second: Side) -> None:
    """Hold the game's row lock while `first`, then `second`, start and block on it."""
    with transaction.atomic():
        Game.objects.locked(game.pk)
        start_and_wait_until_blocked(first)
        start_and_wait_until_blocked(second)
    # Committed: the lock goes to `first`, then to `second`.
    for side in (first, second):
        side.join(BLOCKED_WITHIN_SECONDS)
        assert not side.is_alive(), side.name
        assert side.error is None, (side.name, side.error)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("winner", ["email", "web"])
def test_a_reply_racing_a_web_move_gives_exactly_one_move_to_whichever_locks_first(
    winner, alice, bob, mailoutbox
):
    game = start_game(alice, bob)
    mover = current_user(game)
    turn = game.turn
    state = game.load_state()
    view = view_for(state, game.current_seat, game.seat_names())
    # Clues on both sides (eight tokens: no discard; a play could end the game), two
    # different ones, so that the move on record tells which side made it.
    command = next(c for c in example_commands(view) if c.startswith("clue"))
    by_email = read_reply(command, view).action
    on_the_site = next(
        action_to_dict(a)
        for a in state.legal_actions()
        if isinstance(a, Clue) and action_to_dict(a) != by_email
    )
    message = stored_reply(address_for(game, mover), mover.email, command)
    browser = Client()
    browser.force_login(mover)
    sides = {
        "email": Side("email", lambda: process(message.pk)),
        "web": Side(
            "web", lambda: browser.post(f"/games/{game.pk}/move/", clue_form(on_the_site, turn))
        ),
    }
    loser = "web" if winner == "email" else "email"

    forced_race(game, sides[winner], sides[loser])

    (move,) = Move.objects.filter(game=game)
    assert move.turn == turn
    assert move.action == (by_email if winner == "email" else on_the_site)
    game.refresh_from_db()
    assert game.turn == turn + 1
    message.refresh_from_db()
    page = sides["web"].result
    run_due("mail_answer")
    (answer,) = [m for m in mailoutbox if m.to == [mover.email]]
    if winner == "email":
        assert message.status == InboundMessage.Status.MOVED, message.outcome
        assert "your move is made" in answer.subject
        # The page's refusal: the table as it is now, saying why nothing was done.
        assert page.status_code == 409
        assert "The game moved on since your page was loaded" in page.content.decode()
    else:
        assert page.status_code == 302  # the move went through: back to the game
        # The email's refusal: the reply's turn has passed, nothing was done.
        assert message.status == InboundMessage.Status.ANSWERED, message.outcome
        assert message.outcome == (
            f"This reply was for turn {turn + 1}, which has passed (the game is at turn "
            f"{turn + 2}): nothing was done."
        )
        assert "that turn has passed" in answer.subject
