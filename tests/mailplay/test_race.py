"""A reply to the turn email and a move on the site, for the same turn, at the same moment:
exactly one lands (on PostgreSQL, whose row locks are what the services rely on; SQLite
serialises every write anyway)."""

import random
import threading
import time
from collections import Counter

import pytest
from django.db import connection

from games.engine import Play, action_to_dict, view_for
from games.errors import GameError
from games.models import Move
from games.reply_address import scope_of, token_of
from games.services import play
from games.text_commands import example_commands
from mailplay.inbound import dedupe_key
from mailplay.models import InboundMessage
from mailplay.processing import process
from tests.games.conftest import current_user, start_game
from tests.mailplay.conftest import address_for, reply

ROUNDS = 12
# Each round one side, drawn at random, starts a little later (by a random few
# milliseconds), so that each side wins some rounds whichever is faster on this machine.
CHANCE = random.Random(14)


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


def race(message: InboundMessage, mover, web_action: dict, turn: int, delays: dict) -> dict:
    """Process the stored reply and submit the web move together; what each got back."""
    barrier = threading.Barrier(2)
    results: dict[str, object] = {}

    def by_email() -> None:
        try:
            barrier.wait()
            time.sleep(delays["email"])
            results["email"] = process(message.pk)
        finally:
            connection.close()

    def on_the_site() -> None:
        try:
            barrier.wait()
            time.sleep(delays["web"])
            results["web"] = play.submit_action(message.game_id, mover, web_action, turn)
        except GameError as error:
            results["web"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=by_email), threading.Thread(target=on_the_site)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_reply_racing_a_web_move_gives_exactly_one_move(alice, bob):
    game = start_game(alice, bob)
    outcomes = Counter()
    for turn in range(ROUNDS):
        game.refresh_from_db()
        mover = current_user(game)
        # No plays, which could end the game early: a clue or a discard on each side.
        state = game.load_state()
        view = view_for(state, game.current_seat, game.seat_names())
        command = next(c for c in example_commands(view) if not c.startswith("play"))
        message = stored_reply(address_for(game, mover), mover.email, command)
        web_action = action_to_dict(
            next(a for a in reversed(state.legal_actions()) if not isinstance(a, Play))
        )
        late = CHANCE.choice(["email", "web"])
        delays = {"email": 0.0, "web": 0.0, late: CHANCE.uniform(0, 0.03)}
        results = race(message, mover, web_action, turn, delays)

        assert Move.objects.filter(game=game, turn=turn).count() == 1
        assert Move.objects.filter(game=game).count() == turn + 1
        message.refresh_from_db()
        web_won = isinstance(results["web"], Move)
        assert (message.status == InboundMessage.Status.MOVED) != web_won, message.outcome
        outcomes["web" if web_won else "email"] += 1
        game.refresh_from_db()
        if not game.is_playing():
            break
    # Both sides won some rounds: the race was real.
    assert outcomes["web"] and outcomes["email"], outcomes
