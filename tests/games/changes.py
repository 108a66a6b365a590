"""The changes a game goes through, one case per service call that changes what a page of
the game shows: each case sets up a game and makes its change. The version's tests
(tests/games/test_versions.py), the poll's (test_poll_cache.py) and the cached table's
(test_turn_page_cache.py) run every case, so that a new kind of change is one case here."""

from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from games.engine import GameOptions, action_to_dict
from games.models import ChatMessage, ChatPolicy, Game, Seat, TimeoutPolicy
from games.services import chat, clock, lobby, play
from moderation import services as moderation
from moderation.models import Report
from tests.games.conftest import current_user, start_game


def a_clue(game: Game) -> dict:
    game.refresh_from_db()
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
    return action_to_dict(clue)


def playing(people) -> Game:
    return start_game(
        people["alice"], people["bob"], turn_time_limit=24, chat_policy=ChatPolicy.DURING
    )


def waiting(people, bots: int = 0) -> Game:
    return lobby.create_game(
        people["alice"], GameOptions(players=3), Game.Visibility.PUBLIC, bots=bots
    )


def overdue(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    return game


def a_message(game: Game, people) -> ChatMessage:
    return ChatMessage.objects.create(game=game, author=people["bob"], text="hello")


# (name, set up a game and return it, the change to make to it)
Case = tuple[str, Callable[[dict], Game], Callable[[Game, dict], object]]

CASES: list[Case] = [
    # games/services/play.py
    (
        "a move",
        playing,
        lambda g, p: play.submit_action(g.pk, current_user(g), a_clue(g), g.turn),
    ),
    (
        "a bot's move",
        lambda p: _bot_to_move(p),
        lambda g, p: play.bot_move(g.pk, g.turn),
    ),
    (
        "taking a seat back from a bot",
        lambda p: _seat_given_to_bot(playing(p), p["bob"]),
        lambda g, p: play.reclaim_seat(g.pk, p["bob"]),
    ),
    ("muting the game's emails", playing, lambda g, p: play.set_muted(g.pk, p["bob"], True)),
    # games/services/chat.py
    ("a chat message", playing, lambda g, p: chat.post_message(g.pk, p["bob"], "hi")),
    (
        "a chat message before the start",
        waiting,
        lambda g, p: chat.post_message(g.pk, p["alice"], "hi"),
    ),
    # games/services/clock.py
    ("a pause vote", playing, lambda g, p: clock.vote_pause(g.pk, p["alice"])),
    (
        "the last pause vote: the game pauses",
        lambda p: _one_vote_in(playing(p), p["alice"]),
        lambda g, p: clock.vote_pause(g.pk, p["bob"]),
    ),
    (
        "resuming",
        lambda p: _paused(playing(p), p),
        lambda g, p: clock.resume(g.pk, p["alice"]),
    ),
    ("more time", playing, lambda g, p: clock.extend_deadline(g.pk, p["alice"], 12)),
    (
        "a timeout: a bot moves for the player",
        lambda p: overdue(playing(p)),
        lambda g, p: _applied(clock.time_out(g.pk, g.turn)),
    ),
    (
        "a timeout: the game ends",
        lambda p: overdue(
            start_game(
                p["alice"], p["bob"], turn_time_limit=24, timeout_policy=TimeoutPolicy.END_GAME
            )
        ),
        lambda g, p: _applied(clock.time_out(g.pk, g.turn)),
    ),
    # games/services/lobby.py
    ("joining", waiting, lambda g, p: lobby.join_game(g.pk, p["bob"])),
    (
        "leaving",
        lambda p: _joined(waiting(p), p["bob"]),
        lambda g, p: lobby.leave_game(g.pk, p["bob"]),
    ),
    ("seating a bot", waiting, lambda g, p: lobby.set_bot(g.pk, p["alice"], 2, True)),
    (
        "removing a bot",
        lambda p: waiting(p, bots=1),
        lambda g, p: lobby.set_bot(g.pk, p["alice"], 2, False),
    ),
    ("cancelling", waiting, lambda g, p: lobby.abort_game(g.pk, p["alice"])),
    (
        "starting",
        lambda p: _joined(waiting(p, bots=1), p["bob"]),
        lambda g, p: lobby.start_game(g.pk, p["alice"]),
    ),
    # moderation/services.py
    (
        "a moderator extends the deadline",
        playing,
        lambda g, p: moderation.extend_deadline(g.pk, p["maud"], "slow week", 5),
    ),
    (
        "a moderator clears the deadline",
        playing,
        lambda g, p: moderation.clear_deadline(g.pk, p["maud"], "holiday"),
    ),
    ("a moderator pauses", playing, lambda g, p: moderation.pause(g.pk, p["maud"], "storm")),
    (
        "a moderator resumes",
        lambda p: _paused(playing(p), p),
        lambda g, p: moderation.resume(g.pk, p["maud"], "calm"),
    ),
    ("a moderator aborts", playing, lambda g, p: moderation.abort(g.pk, p["maud"], "spam")),
    (
        "a moderator hides a message",
        playing,
        lambda g, p: moderation.hide_message(a_message(g, p).pk, p["maud"], "rude"),
    ),
    (
        "a moderator resolves a report about the game",
        playing,
        lambda g, p: moderation.resolve_report(
            Report.objects.create(reporter=p["bob"], game=g, reason="slow").pk, p["maud"], "ok"
        ),
    ),
    (
        "a moderator gives a seat to a bot",
        playing,
        lambda g, p: moderation.replace_seat(g.pk, p["maud"], "gone", _position(g, p["bob"])),
    ),
    (
        "a moderator gives a seat to someone else",
        playing,
        lambda g, p: moderation.replace_seat(
            g.pk, p["maud"], "swap", _position(g, p["bob"]), p["carol"].email
        ),
    ),
    (
        "a moderator suspends a player: a bot takes the seat",
        playing,
        lambda g, p: moderation.suspend_user(p["bob"].pk, p["maud"], "abuse", 3),
    ),
    (
        "a moderator suspends a player who waits for the start: the seat is freed",
        lambda p: _joined(waiting(p), p["bob"]),
        lambda g, p: moderation.suspend_user(p["bob"].pk, p["maud"], "abuse", 3),
    ),
    (
        "a moderator suspends a creator: the waiting game is cancelled",
        waiting,
        lambda g, p: moderation.suspend_user(p["alice"].pk, p["maud"], "abuse", 3),
    ),
]


def _bot_to_move(people) -> Game:
    game = playing(people)
    Seat.objects.filter(game=game, position=game.current_seat).update(is_bot=True)
    return game


def _seat_given_to_bot(game: Game, user) -> Game:
    Seat.objects.filter(game=game, user=user).update(is_bot=True, timeouts_in_a_row=3)
    return game


def _one_vote_in(game: Game, user) -> Game:
    clock.vote_pause(game.pk, user)
    return game


def _paused(game: Game, people) -> Game:
    moderation.pause(game.pk, people["maud"], "set up")
    return game


def _joined(game: Game, user) -> Game:
    lobby.join_game(game.pk, user)
    return game


def _position(game: Game, user) -> int:
    return Seat.objects.get(game=game, user=user).position


def _applied(done: bool) -> None:
    assert done, "the change was not made"
