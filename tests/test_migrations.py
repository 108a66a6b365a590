"""Moving the outbox and moderation out of the games app loses nothing: a database filled
before the move (at games 0008) holds, after migrating, every row it held, and every game
replays to exactly the state it had."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import GameOptions, action_to_dict, new_game, replay
from games.engine.shuffle import SplitMix64

BEFORE_THE_MOVE = [
    ("games", "0008_analyse_finished_games"),
    ("outbox", None),
    ("moderation", None),
    ("mailplay", None),  # later, and standing on games' latest migration
]


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def played_moves(options: GameOptions, seed: int, count: int) -> tuple[list[dict], tuple]:
    """`count` legal moves chosen by a seeded generator, and the state they lead to."""
    state, rng = new_game(options, seed), SplitMix64(seed)
    actions = []
    while len(actions) < count and not state.is_over:
        legal = state.legal_actions()
        action = legal[rng.next() % len(legal)]
        state.apply(action)
        actions.append(action_to_dict(action))
    return actions, state.fingerprint()


def fill_the_old_database(apps) -> dict:
    """Games with moves, chat, a report, an audit entry and outbox rows, written with the
    models as they were before the move."""
    User = apps.get_model("accounts", "User")
    Game, Seat, Move = (apps.get_model("games", name) for name in ("Game", "Seat", "Move"))
    ChatMessage = apps.get_model("games", "ChatMessage")
    Report, ModeratorAction = (
        apps.get_model("games", "Report"),
        apps.get_model("games", "ModeratorAction"),
    )
    Outbox = apps.get_model("games", "Outbox")

    ann = User.objects.create(email="ann@example.org", display_name="Ann")
    ben = User.objects.create(email="ben@example.org", display_name="Ben")
    expected = {}
    for index, (players, multicolour) in enumerate([(2, 0), (3, 1), (4, 3)]):
        options = GameOptions(players=players, multicolour=multicolour)
        seed = 1000 + index
        actions, fingerprint = played_moves(options, seed, count=12 + 5 * index)
        game = Game.objects.create(
            options=options.to_dict(),
            player_count=players,
            variant=options.variant_name(),
            seed=seed,
            creator=ann,
            status="playing",
            turn=len(actions),
        )
        for position in range(players):
            user = [ann, ben][position] if position < 2 else None
            Seat.objects.create(game=game, position=position, user=user, is_bot=user is None)
        for turn, action in enumerate(actions):
            Move.objects.create(game=game, turn=turn, seat=turn % players, action=action)
        expected[game.pk] = fingerprint

    game = Game.objects.get(pk=min(expected))
    message = ChatMessage.objects.create(game=game, author=ben, text="good luck")
    Report.objects.create(
        reporter=ann, game=game, message=message, reason="rude", reported_user=ben
    )
    ModeratorAction.objects.create(
        moderator=ann, action="pause", description="paused the game", reason="a dispute", game=game
    )
    Outbox.objects.create(
        kind="your_turn", payload={"game": game.pk, "turn": 3}, due_at="2026-01-01T00:00Z"
    )
    Outbox.objects.create(
        kind="analysis",
        payload={"game": game.pk},
        dedupe_key=str(game.pk),
        due_at="2026-01-01T00:00Z",
    )
    return expected


@pytest.mark.django_db(transaction=True)
def test_moving_the_models_out_of_games_loses_nothing():
    executor = migrate(BEFORE_THE_MOVE)
    # Every other app as it is now, games as it was: the models the old code used.
    # (and issue 26's apps, whose migrations stand on games' later ones)
    moved = ("games", "outbox", "moderation", "mailplay", "players", "rematches", "deals")
    others = [node for node in latest() if node[0] not in moved]
    old_apps = executor.loader.project_state([*others, BEFORE_THE_MOVE[0]]).apps
    try:
        expected = fill_the_old_database(old_apps)
    finally:
        migrate(latest())

    from django.contrib.auth.models import Group, Permission

    from games.models import ChatMessage, Game
    from moderation.models import ModeratorAction, Report
    from outbox.models import Outbox

    assert sorted(Game.objects.values_list("pk", flat=True)) == sorted(expected)
    for game in Game.objects.all():
        assert game.load_state().fingerprint() == expected[game.pk]
        moves = list(game.moves.order_by("turn").values_list("action", flat=True))
        assert replay(game.game_options, game.seed, moves).fingerprint() == expected[game.pk]

    report = Report.objects.get()
    assert (report.reason, report.message, report.reported_user.display_name) == (
        "rude",
        ChatMessage.objects.get(),
        "Ben",
    )
    assert ModeratorAction.objects.get().description == "paused the game"
    assert sorted(Outbox.objects.values_list("kind", flat=True)) == ["analysis", "your_turn"]

    # The moved models' permissions exist under their new app, and moderators hold them.
    moderators = Group.objects.get(name="Moderators")
    for codename in ("view_report", "view_moderatoraction"):
        permission = Permission.objects.get(content_type__app_label="moderation", codename=codename)
        assert moderators.permissions.filter(pk=permission.pk).exists()
    assert not Permission.objects.filter(content_type__app_label="games", codename="view_report")
