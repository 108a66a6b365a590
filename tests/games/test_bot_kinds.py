"""Issue 17: a bot seat is the house bot or the expert (hat-guessing) bot; the expert bot plays
only seats no person holds, and never moves for a player whose time ran out."""

import pytest

from games.bots import hat
from games.engine import GameOptions
from games.errors import GameError
from games.models import BotKind, Game, MadeBy, Seat
from games.services import clock, lobby, play
from tests.deadlines.conftest import make_overdue
from tests.games.conftest import start_game, user_at


def game_with_bots(creator, kind: str, bots: int = 2) -> Game:
    game = lobby.create_game(creator, GameOptions(players=1 + bots), Game.Visibility.INVITE)
    for position in range(1, 1 + bots):
        lobby.set_bot(game.pk, creator, position, True, kind)
    lobby.start_game(game.pk, creator)
    game.refresh_from_db()
    return game


@pytest.fixture
def policies(monkeypatch):
    """Which policy made each bot move."""
    made: list[str] = []
    house, expert = play.choose_action, hat.choose_action

    def as_house(view, bot_seats=()):
        made.append("house")
        return house(view, bot_seats)

    def as_expert(view):
        made.append("expert")
        return expert(view)

    monkeypatch.setattr(play, "choose_action", as_house)
    monkeypatch.setattr(play.hat, "choose_action", as_expert)
    return made


def test_an_expert_bot_seat_is_played_by_the_expert_bot(alice, policies):
    game = game_with_bots(alice, BotKind.EXPERT)
    bots = game.seats.filter(is_bot=True)
    assert {seat.bot_kind for seat in bots} == {BotKind.EXPERT}
    assert all(seat.name.startswith("Expert bot") for seat in bots)
    for _ in range(6):
        game.refresh_from_db()
        if not game.is_playing():
            break  # (an expert bot beside a person may strike out quickly)
        if game.seats.get(position=game.current_seat).is_bot:
            assert play.bot_move(game.pk, game.turn).made_by == MadeBy.BOT
        else:
            play.submit_action(game.pk, alice, _a_clue(game), game.turn)
    assert policies and set(policies) == {"expert"}


def test_the_house_bot_is_the_default(alice, policies):
    game = game_with_bots(alice, BotKind.HOUSE)
    game.refresh_from_db()
    while not game.seats.get(position=game.current_seat).is_bot:
        play.submit_action(game.pk, alice, _a_clue(game), game.turn)
        game.refresh_from_db()
    play.bot_move(game.pk, game.turn)
    assert policies == ["house"]


def test_the_expert_bot_never_moves_for_an_absent_player(alice, bob, policies):
    """Even a person's seat marked expert (as no service does) is played by the house bot,
    both when their time runs out and once a bot has taken the seat over."""
    game = start_game(alice, bob, turn_time_limit=24)
    Seat.objects.filter(game=game).update(bot_kind=BotKind.EXPERT)
    absent = game.current_seat
    make_overdue(game)
    assert clock.time_out(game.pk, game.turn)
    assert policies == ["house"]
    Seat.objects.filter(game=game, position=absent).update(is_bot=True)
    game.refresh_from_db()
    play.submit_action(game.pk, user_at(game, game.current_seat), _a_clue(game), game.turn)
    game.refresh_from_db()
    assert game.current_seat == absent
    play.bot_move(game.pk, game.turn)
    assert policies == ["house", "house"]


def test_bot_kinds_move_with_their_seats_when_the_table_is_shuffled(alice, bob):
    game = lobby.create_game(alice, GameOptions(players=4), Game.Visibility.INVITE)
    lobby.join_game(game.pk, bob, game.invite_code)
    lobby.set_bot(game.pk, alice, 2, True, BotKind.EXPERT)
    lobby.set_bot(game.pk, alice, 3, True, BotKind.HOUSE)
    lobby.start_game(game.pk, alice)
    seats = list(Seat.objects.filter(game=game))
    assert sorted(s.bot_kind for s in seats if s.is_bot) == [BotKind.EXPERT, BotKind.HOUSE]
    assert all(s.bot_kind == BotKind.HOUSE for s in seats if not s.is_bot)


def test_a_bot_can_be_swapped_for_the_other_kind_and_nonsense_is_refused(alice):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.set_bot(game.pk, alice, 1, True)
    lobby.set_bot(game.pk, alice, 1, True, BotKind.EXPERT)
    assert Seat.objects.get(game=game, position=1).bot_kind == BotKind.EXPERT
    with pytest.raises(GameError, match="already sits"):
        lobby.set_bot(game.pk, alice, 1, True, BotKind.EXPERT)
    with pytest.raises(GameError, match="no such bot"):
        lobby.set_bot(game.pk, alice, 2, True, "oracle")
    lobby.set_bot(game.pk, alice, 1, False)
    seat = Seat.objects.get(game=game, position=1)
    assert not seat.is_bot and seat.bot_kind == BotKind.HOUSE


def _a_clue(game: Game) -> dict:
    """A move that changes nothing for the test: a clue, or a discard when no token is left
    (the bots may have spent them)."""
    from games.engine import Clue, Discard, action_to_dict

    legal = game.load_state().legal_actions()
    clue = next((a for a in legal if isinstance(a, Clue)), None)
    return action_to_dict(clue or next(a for a in legal if isinstance(a, Discard)))


def test_the_creator_seats_an_expert_bot_from_the_waiting_room(client, alice):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "add an expert bot" in page
    client.post(f"/games/{game.pk}/bot/", {"position": 2, "bot": "yes", "kind": "expert"})
    seat = Seat.objects.get(game=game, position=2)
    assert seat.is_bot and seat.bot_kind == BotKind.EXPERT
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Expert bot" in page and "people cannot read its clues" in page
    response = client.post(
        f"/games/{game.pk}/bot/", {"position": 1, "bot": "yes", "kind": "oracle"}, follow=True
    )
    assert "There is no such bot." in response.content.decode()
    assert not Seat.objects.get(game=game, position=1).is_bot


def test_a_new_game_with_expert_bots(client, alice):
    client.force_login(alice)
    form = {
        "players": 3,
        "bots": 2,
        "bot_kind": "expert",
        "multicolour": 0,
        "fuses": 3,
        "visibility": "invite",
        "timeout_policy": "auto_move",
        "chat_policy": "after",
    }
    page = client.get("/games/new/").content.decode()
    assert 'value="expert"' in page
    response = client.post("/games/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(creator=alice)
    kinds = list(game.seats.filter(is_bot=True).values_list("bot_kind", flat=True))
    assert kinds == [BotKind.EXPERT, BotKind.EXPERT]


def test_the_house_bot_is_told_which_seats_it_has_played_from_the_start(alice, bob, monkeypatch):
    """Its own seats' clues are read by its conventions from the first move; a seat it took
    over from a person (who played before it) and an expert bot's seat are not among them."""
    told: list = []
    house = play.choose_action
    monkeypatch.setattr(
        play, "choose_action", lambda view, bot_seats=(): told.append(bot_seats) or house(view)
    )
    game = lobby.create_game(alice, GameOptions(players=4), Game.Visibility.INVITE)
    lobby.join_game(game.pk, bob, game.invite_code)
    lobby.set_bot(game.pk, alice, 2, True, BotKind.HOUSE)
    lobby.set_bot(game.pk, alice, 3, True, BotKind.EXPERT)
    lobby.start_game(game.pk, alice)
    seats = {s.position: s for s in Seat.objects.filter(game=game)}
    house_seat = next(p for p, s in seats.items() if s.is_bot and s.bot_kind == BotKind.HOUSE)
    bob_seat = next(p for p, s in seats.items() if s.user_id == bob.pk)
    Seat.objects.filter(game=game, user=bob).update(is_bot=True)  # taken over after timeouts
    game.refresh_from_db()
    for _ in range(12):
        game.refresh_from_db()
        if not game.is_playing():
            break  # (an expert bot beside people may strike out quickly)
        seat = Seat.objects.get(game=game, position=game.current_seat)
        if seat.is_bot:
            play.bot_move(game.pk, game.turn)
        else:
            play.submit_action(game.pk, seat.user, _a_clue(game), game.turn)
    assert told and all(list(seats_told) == [house_seat] for seats_told in told)
    assert bob_seat not in told[0]
