"""Issue 30: the H-Group bot as a seat choice, its level chosen when seating it. Its seat is
played by games.bots.hgroup at that level, the waiting room offers each level (in English,
German and French), a bad level changes nothing, and the review of a finished game is made
at the table's level."""

from html import unescape

import pytest

from games import review
from games.bots import hgroup
from games.engine import GameOptions, action_to_dict, view_for
from games.errors import GameError
from games.models import BotKind, Game, MadeBy, Move, Seat
from games.services import lobby, play
from games.services.replays import game_record

LEVELS = pytest.mark.parametrize("level", hgroup.LEVELS)
REFUSAL = "Choose the H-Group bot's level: 1, 2, 3, 4, 5."


def open_game(creator, players: int = 3) -> Game:
    game = lobby.create_game(creator, GameOptions(players=players), Game.Visibility.INVITE)
    Game.objects.filter(pk=game.pk).update(seed=4321)
    return game


def seat(game: Game, position: int) -> Seat:
    return Seat.objects.get(game=game, position=position)


@LEVELS
def test_the_creator_seats_an_hgroup_bot_at_a_level(alice, level):
    game = open_game(alice)
    lobby.set_bot(game.pk, alice, 1, True, BotKind.HGROUP, level)
    bot = seat(game, 1)
    assert (bot.is_bot, bot.bot_kind, bot.bot_level) == (True, BotKind.HGROUP, level)
    assert bot.name == f"H-Group bot 2 (level {level})"
    with pytest.raises(GameError, match="That bot already sits there."):
        lobby.set_bot(game.pk, alice, 1, True, BotKind.HGROUP, level)
    other = next(n for n in hgroup.LEVELS if n != level)
    lobby.set_bot(game.pk, alice, 1, True, BotKind.HGROUP, other)
    assert seat(game, 1).bot_level == other
    # Another kind takes no level; a freed seat keeps none.
    lobby.set_bot(game.pk, alice, 1, True, BotKind.EXPERT, level)
    assert (seat(game, 1).bot_kind, seat(game, 1).bot_level) == (BotKind.EXPERT, None)
    lobby.set_bot(game.pk, alice, 1, True, BotKind.HGROUP, level)
    lobby.set_bot(game.pk, alice, 1, False)
    freed = seat(game, 1)
    assert (freed.is_bot, freed.bot_kind, freed.bot_level) == (False, BotKind.HOUSE, None)


@pytest.mark.parametrize("level", [None, 0, 6, 99, -1])
def test_a_level_that_does_not_exist_is_refused_and_changes_nothing(alice, level):
    game = open_game(alice)
    lobby.set_bot(game.pk, alice, 2, True, BotKind.EXPERT)
    version = Game.objects.get(pk=game.pk).version
    for position in (1, 2):
        with pytest.raises(GameError, match=REFUSAL):
            lobby.set_bot(game.pk, alice, position, True, BotKind.HGROUP, level)
    assert (seat(game, 1).is_bot, seat(game, 1).bot_level) == (False, None)
    assert (seat(game, 2).bot_kind, seat(game, 2).bot_level) == (BotKind.EXPERT, None)
    assert Game.objects.get(pk=game.pk).version == version
    with pytest.raises(GameError, match=REFUSAL):
        lobby.create_game(
            alice,
            GameOptions(players=3),
            Game.Visibility.INVITE,
            bots=1,
            bot_kind=BotKind.HGROUP,
            bot_level=level,
        )
    assert Game.objects.filter(creator=alice).count() == 1


def test_a_new_game_with_hgroup_bots_at_a_level(alice):
    game = lobby.create_game(
        alice,
        GameOptions(players=3),
        Game.Visibility.INVITE,
        bots=2,
        bot_kind=BotKind.HGROUP,
        bot_level=2,
    )
    seats = list(game.seats.order_by("position"))
    assert [(s.bot_kind, s.bot_level) for s in seats] == [
        (BotKind.HOUSE, None),
        (BotKind.HGROUP, 2),
        (BotKind.HGROUP, 2),
    ]


@LEVELS
def test_the_waiting_room_seats_an_hgroup_bot_at_a_level(client, alice, level):
    game = open_game(alice)
    client.force_login(alice)
    page = unescape(client.get(f"/games/{game.pk}/").content.decode())
    for offered in hgroup.LEVELS:
        assert f'name="level" value="{offered}"' in page
        assert f"H-Group bot, level {offered}</button>" in page
    response = client.post(
        f"/games/{game.pk}/bot/",
        {"position": 2, "bot": "yes", "kind": "hgroup", "level": level},
        follow=True,
    )
    page = unescape(response.content.decode())
    bot = seat(game, 2)
    assert (bot.is_bot, bot.bot_kind, bot.bot_level) == (True, BotKind.HGROUP, level)
    # The seat shows its level, and offers only the other levels.
    assert f"H-Group bot, level {level} <span" in page
    assert f"Seat 3: H-Group bot, level {level}" not in page
    other = next(n for n in hgroup.LEVELS if n != level)
    assert f"Seat 3: H-Group bot, level {other}" in page


@pytest.mark.parametrize("level", ["", "two", "6", "0"])
def test_the_waiting_room_refuses_a_bad_level(client, alice, level):
    game = open_game(alice)
    client.force_login(alice)
    response = client.post(
        f"/games/{game.pk}/bot/",
        {"position": 1, "bot": "yes", "kind": "hgroup", "level": level},
        follow=True,
    )
    assert REFUSAL in unescape(response.content.decode())
    assert (seat(game, 1).is_bot, seat(game, 1).bot_level) == (False, None)


@pytest.mark.parametrize(
    ("language", "offers", "seated"),
    [
        ("de", "H-Group-Bot, Stufe", "Platz 3: H-Group-Bot, Stufe"),
        ("fr", "Bot H-Group, niveau", "Place 3 : bot H-Group, niveau"),
    ],
)
def test_the_waiting_room_offers_the_levels_in_german_and_french(
    client, alice, language, offers, seated
):
    alice.language = language
    alice.save(update_fields=["language"])
    game = open_game(alice)
    client.force_login(alice)
    page = unescape(client.get(f"/games/{game.pk}/").content.decode())
    for level in hgroup.LEVELS:
        assert f"{offers} {level}</button>" in page
        assert f"{seated} {level}" in page
    assert "H-Group bot, level" not in page
    lobby.set_bot(game.pk, alice, 1, True, BotKind.HGROUP, 2)
    page = unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert f"{offers} 2 <span" in page
    response = client.post(
        f"/games/{game.pk}/bot/",
        {"position": 2, "bot": "yes", "kind": "hgroup", "level": "9"},
        follow=True,
    )
    refusal = {"de": "Wähle die Stufe des H-Group-Bots: 1, 2, 3, 4, 5.", "fr": "Choisis le niveau"}
    assert refusal[language] in unescape(response.content.decode())


@LEVELS
def test_a_game_with_hgroup_seats_is_played_by_the_hgroup_bot_at_its_level(
    alice, level, monkeypatch
):
    """Each H-Group seat's move is the H-Group bot's at the seat's level from the seat's own
    view, to the end of the game; the person's seat is played here by the house bot. Then the
    review is made at the table's level."""
    asked: list[int] = []
    chosen = hgroup.decide

    def spy(view, level=1):
        asked.append(level)
        return chosen(view, level=level)

    monkeypatch.setattr(play.hgroup, "decide", spy)
    game = open_game(alice)
    for position in (1, 2):
        lobby.set_bot(game.pk, alice, position, True, BotKind.HGROUP, level)
    lobby.start_game(game.pk, alice)
    compared = 0
    for _ in range(200):
        game.refresh_from_db()
        if not game.is_playing():
            break
        current = seat(game, game.current_seat)
        state = game.load_state()
        if current.is_bot:
            assert (current.bot_kind, current.bot_level) == (BotKind.HGROUP, level)
            expected = hgroup.decide(view_for(state, current.position), level).action
            move = play.bot_move(game.pk, game.turn)
            assert move.made_by == MadeBy.BOT
            assert move.action == action_to_dict(expected), f"turn {move.turn}"
            compared += 1
        else:
            action = play.bot_action(game, current, state)
            play.submit_action(game.pk, alice, action_to_dict(action), game.turn)
    game.refresh_from_db()
    assert game.is_finished()
    assert (
        compared >= 20
        and compared
        == Move.objects.filter(
            game=game, seat__in=[s.position for s in game.seats.filter(is_bot=True)]
        ).count()
    )
    assert asked and set(asked) == {level}

    assert review.table_level(game) == level
    context = review.page_context(game, game_record(game, "t"))
    assert context["review_level"] == level


def test_the_review_is_at_level_1_without_an_hgroup_bot(alice):
    game = open_game(alice)
    lobby.set_bot(game.pk, alice, 1, True, BotKind.EXPERT)
    lobby.set_bot(game.pk, alice, 2, True, BotKind.HOUSE)
    assert review.table_level(game) == 1
    lobby.set_bot(game.pk, alice, 2, True, BotKind.HGROUP, 2)
    assert review.table_level(game) == 2


def test_a_rematch_seats_the_hgroup_bot_again_at_its_level(alice, bob):
    from rematches import services as rematches
    from tests.rematches.conftest import ended

    game = lobby.create_game(
        alice,
        GameOptions(players=4),
        Game.Visibility.PUBLIC,
        bots=2,
        bot_kind=BotKind.HGROUP,
        bot_level=2,
    )
    lobby.set_bot(game.pk, alice, 3, True, BotKind.HOUSE)
    lobby.join_game(game.pk, bob)
    lobby.start_game(game.pk, alice)
    rematch, _ = rematches.propose(ended(game).pk, bob)
    bots = rematch.game.seats.filter(is_bot=True).values_list("bot_kind", "bot_level")
    assert sorted(bots) == [(BotKind.HGROUP, 2), (BotKind.HOUSE, None)]


@pytest.mark.django_db
@LEVELS
def test_the_new_game_form_seats_hgroup_bots_at_the_level_chosen(client, alice, level):
    client.force_login(alice)
    page = client.get("/games/new/").content.decode()
    assert f'value="hgroup:{level}"' in page
    assert f"H-Group bot, level {level}: reads and gives clues" in page
    form = {
        "players": 3,
        "bots": 2,
        "bot_kind": f"hgroup:{level}",
        "multicolour": 0,
        "fuses": 3,
        "visibility": "invite",
        "timeout_policy": "auto_move",
        "chat_policy": "after",
    }
    response = client.post("/games/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(creator=alice)
    bots = game.seats.filter(is_bot=True)
    assert [(seat.bot_kind, seat.bot_level) for seat in bots] == [(BotKind.HGROUP, level)] * 2


@pytest.mark.django_db
def test_the_new_game_form_refuses_a_level_it_does_not_offer(client, alice):
    client.force_login(alice)
    form = {"players": 3, "bots": 1, "bot_kind": "hgroup:9", "multicolour": 0, "fuses": 3}
    response = client.post("/games/new/", {**form, "visibility": "invite"})
    assert response.status_code == 200
    assert not Game.objects.filter(creator=alice).exists()
