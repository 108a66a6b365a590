"""Rearranging one's hand on the site (issue 27): the service (games/services/rearrange.py),
its form and view, and what follows from it: free (no turn, token or deadline), shown to
everyone (the table and the history), kept by the moves after it, the look-back, the replay,
the download and its import, the turn email; a stale form and a forged one change nothing;
an email's slot command of a turn in which the hand was rearranged is refused unless it says
"now"; the bots play on."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from games import table_context
from games.engine import GameOptions, Play, action_to_dict, view_for
from games.engine.record import RECORD_FORMAT
from games.errors import GameError, IllegalMove
from games.models import Game, ImportedReplay, Move
from games.services import lobby, play, rearrange, replays, snapshots
from games.text_commands import Impossible, read_reply
from outbox import delivery
from outbox.models import Outbox
from tests.games.conftest import current_user, start_game, user_at

HTMX = {"HTTP_HX_REQUEST": "true"}
MOVED_TEXT = "moves a card from slot 5 to slot 1"


def hand_of(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    return list(game.load_state().hand(seat))


def waiting_seat(game: Game) -> int:
    """A seat whose turn it is not."""
    return (game.current_seat + 1) % game.player_count


def card_order(page: str, ids: list[int]) -> list[int]:
    """The ids among `ids` in the order the page shows them (their data-card-id)."""
    found = [int(cid) for cid in re.findall(r'data-card-id="(\d+)"', page)]
    return [cid for cid in found if cid in ids]


@pytest.mark.django_db
def test_rearranging_is_free_turn_tokens_and_deadline_stay(alice, bob):
    game = start_game(alice, bob, rearrange=True, turn_time_limit=24)
    seat = waiting_seat(game)
    hand = hand_of(game, seat)
    before = (game.turn, game.current_seat, game.turn_deadline, game.turn_started_at)
    tokens = game.load_state().clue_tokens

    rearrange.rearrange_hand(game.pk, user_at(game, seat), 5, 1, hand)

    version = game.version
    game.refresh_from_db()
    assert (game.turn, game.current_seat, game.turn_deadline, game.turn_started_at) == before
    assert game.version == version + 1  # open pages refresh
    assert not Move.objects.filter(game=game).exists()
    state = game.load_state()
    assert state.clue_tokens == tokens and state.turn == 0
    assert list(state.hand(seat)) == [hand[4], *hand[:4]]
    # The cached state (issue 15) holds it too, and the next move starts from it.
    assert list(snapshots.state_of(game).hand(seat)) == [hand[4], *hand[:4]]


@pytest.mark.django_db
def test_the_player_on_turn_may_rearrange_and_their_move_names_the_new_slot(alice, bob):
    game = start_game(alice, bob, rearrange=True)
    seat, user = game.current_seat, current_user(game)
    hand = hand_of(game, seat)
    rearrange.rearrange_hand(game.pk, user, 5, 1, hand)
    play.submit_action(game.pk, user, action_to_dict(Play(hand[4])), 0)
    game.refresh_from_db()
    texts = [entry["text"] for entry in view_for(game.load_state(), 0)["history"]]
    assert texts[0].endswith(MOVED_TEXT)
    assert "(slot 1" in texts[1]  # the card played from where it was moved to


@pytest.mark.django_db
def test_every_player_sees_it_on_the_table_and_in_the_history(client, alice, bob, carol):
    game = start_game(alice, bob, carol, rearrange=True)
    seat = waiting_seat(game)
    mover = user_at(game, seat)
    hand = hand_of(game, seat)
    client.force_login(mover)
    response = client.post(
        f"/games/{game.pk}/rearrange/", {"from": 5, "to": 1, "hand": ",".join(map(str, hand))}
    )
    assert response.status_code == 302
    name = game.seats.get(position=seat).name
    for position in range(3):
        client.force_login(user_at(game, position))
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert f"{name} {MOVED_TEXT}" in page
        if position != seat:  # the mover's cards are shown face up to the others
            assert card_order(page, hand) == [hand[4], *hand[:4]]


@pytest.mark.django_db
def test_the_form_works_with_htmx_and_offers_the_slots(client, alice, bob):
    game = start_game(alice, bob, rearrange=True)
    seat = waiting_seat(game)
    user = user_at(game, seat)
    hand = hand_of(game, seat)
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'name="hand" value="{",".join(map(str, hand))}"' in page
    response = client.post(
        f"/games/{game.pk}/rearrange/",
        {"from": 2, "to": 4, "hand": ",".join(map(str, hand))},
        **HTMX,
    )
    assert response.status_code == 200
    assert hand_of(game, seat) == [hand[0], hand[2], hand[3], hand[1], hand[4]]


@pytest.mark.django_db
def test_no_form_without_the_option(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    assert "rearrange-from" not in client.get(f"/games/{game.pk}/").content.decode()
    with pytest.raises(IllegalMove, match="not an option"):
        rearrange.rearrange_hand(game.pk, alice, 5, 1, hand_of(game, 0))


@pytest.mark.django_db
def test_a_stale_form_moves_nothing_and_says_why(client, alice, bob):
    game = start_game(alice, bob, rearrange=True)
    seat = waiting_seat(game)
    user = user_at(game, seat)
    shown = hand_of(game, seat)
    rearrange.rearrange_hand(game.pk, user, 5, 1, shown)  # from another tab
    game.refresh_from_db()
    version, now = game.version, hand_of(game, seat)

    client.force_login(user)
    response = client.post(
        f"/games/{game.pk}/rearrange/",
        {"from": 3, "to": 2, "hand": ",".join(map(str, shown))},
        **HTMX,
    )
    assert response.status_code == 200
    assert "Your hand changed since your page was loaded" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version and hand_of(game, seat) == now
    assert len(game.rearrangements) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data,message",
    [
        ({"from": 1, "to": 2, "hand": "0,1,2,3,99"}, "Your hand changed since"),  # forged ids
        ({"from": "x", "to": 2, "hand": "0"}, "That form is incomplete or damaged"),
        ({"from": 1, "to": 9, "hand": None}, "your hand has slots 1 to 5, not 9"),
        ({"from": 7, "to": 1, "hand": None}, "there is no slot 7"),
        ({"from": 2, "to": 2, "hand": None}, "in slot 2 already"),
    ],
)
def test_a_bad_or_forged_form_moves_nothing_and_says_why(client, alice, bob, data, message):
    game = start_game(alice, bob, rearrange=True)
    seat = waiting_seat(game)
    user = user_at(game, seat)
    before = hand_of(game, seat)
    if data["hand"] is None:
        data = {**data, "hand": ",".join(map(str, before))}
    client.force_login(user)
    response = client.post(f"/games/{game.pk}/rearrange/", data, **HTMX)
    assert message in response.content.decode()
    game.refresh_from_db()
    assert game.rearrangements == [] and hand_of(game, seat) == before


@pytest.mark.django_db
def test_no_rearranging_once_the_game_is_over_or_by_someone_not_playing(alice, bob, carol):
    game = start_game(alice, bob, rearrange=True, fuses=1)
    with pytest.raises(GameError, match="not playing"):
        rearrange.rearrange_hand(game.pk, carol, 5, 1, hand_of(game, 0))
    while game.is_playing():  # blind plays until the one fuse burns
        state = game.load_state()
        card = state.hand(state.current_seat)[0]
        play.submit_action(game.pk, current_user(game), action_to_dict(Play(card)), game.turn)
        game.refresh_from_db()
    assert not game.is_playing()
    with pytest.raises(GameError, match="not being played"):
        rearrange.rearrange_hand(game.pk, alice, 5, 1, hand_of(game, 0))


@pytest.mark.django_db
def test_a_play_form_made_before_a_rearrangement_still_plays_its_card(client, alice, bob):
    """The web's move forms name cards by id, so a rearrangement cannot make them hit
    another card: the card played is the one the form showed, wherever it is now."""
    game = start_game(alice, bob, rearrange=True)
    seat, user = game.current_seat, current_user(game)
    hand = hand_of(game, seat)
    rearrange.rearrange_hand(game.pk, user, 1, 5, hand)  # hand[0] is now in slot 5
    client.force_login(user)
    client.post(
        f"/games/{game.pk}/move/",
        {"turn": 0, "kind": "discard", "card": hand[2]},  # 8 tokens: refused, try a play
    )
    client.post(
        f"/games/{game.pk}/move/",
        {"turn": 0, "kind": "play", "card": hand[0], "confirmed": "yes"},
    )
    move = Move.objects.get(game=game)
    assert move.action == {"type": "play", "card_id": hand[0]}


# -- look-back, replay, download and import ------------------------------------------------


def finish_with_rearrangements(game: Game) -> list[list[int]]:
    """Blind plays of slot 1 after moving the oldest card there, until the end; the hands
    of seat 0 after each move."""
    hands = []
    for _ in range(60):
        game.refresh_from_db()
        if not game.is_playing():
            return hands
        seat = game.current_seat
        user = current_user(game)
        rearrange.rearrange_hand(game.pk, user, 5, 1, hand_of(game, seat))
        game.refresh_from_db()
        card = hand_of(game, seat)[0]
        play.submit_action(game.pk, user, action_to_dict(Play(card)), game.turn)
        game.refresh_from_db()
        hands.append(hand_of(game, 0))
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_the_replay_the_download_and_its_import_keep_the_rearrangements(client, alice, bob):
    game = start_game(alice, bob, rearrange=True)
    hands = finish_with_rearrangements(game)
    game.refresh_from_db()
    client.force_login(alice)
    for turn in range(1, game.turn + 1):
        page = client.get(f"/games/{game.pk}/replay/{turn}/").content.decode()
        assert card_order(page, hands[turn - 1]) == hands[turn - 1], turn
    last = client.get(f"/games/{game.pk}/replay/{game.turn}/").content.decode()
    assert MOVED_TEXT in last
    assert "hanab.live has no rearranging of hands" in last  # the download link says which

    response = client.get(f"/games/{game.pk}/export.json")
    data = json.loads(response.content)
    assert data["format"] == RECORD_FORMAT and data["options"]["rearrange"] is True
    kinds = [action["type"] for action in data["actions"]]
    assert kinds.count("rearrange") == game.turn and kinds.count("play") == game.turn
    upload = SimpleUploadedFile("game.json", response.content, content_type="application/json")
    client.post("/games/import/", {"file": upload})
    imported = ImportedReplay.objects.get(owner=alice)
    assert imported.actions == data["actions"]
    final = client.get(f"/replays/{imported.pk}/{game.turn}/")
    assert final.status_code == 200 and "Final score" in final.content.decode()
    assert client.get(f"/replays/{imported.pk}/{game.turn + 1}/").status_code == 404


@pytest.mark.django_db
def test_the_look_back_shows_the_order_each_move_left(client, alice, bob):
    game = start_game(alice, bob, rearrange=True)
    seat, user = game.current_seat, current_user(game)
    hand = hand_of(game, seat)
    rearrange.rearrange_hand(game.pk, user, 5, 1, hand)
    play.submit_action(game.pk, user, action_to_dict(Play(hand[4])), 0)
    game.refresh_from_db()
    other = user_at(game, 1 - seat)
    client.force_login(other)
    before = client.get(f"/games/{game.pk}/as-seen/0/").content.decode()
    after = client.get(f"/games/{game.pk}/as-seen/1/").content.decode()
    assert card_order(before, hand) == hand  # the deal, before anything was moved
    client.force_login(user)  # the mover's own look-back offers no form: it is the past
    assert "rearrange-from" not in client.get(f"/games/{game.pk}/as-seen/0/").content.decode()
    assert "rearrange-from" in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(other)
    assert MOVED_TEXT not in before
    assert MOVED_TEXT in after and "(slot 1" in after
    kept = hand[:4]  # the cards left, in the order the rearrangement gave them
    assert card_order(after, kept) == kept


@pytest.mark.django_db
def test_the_download_of_a_game_with_the_option_is_never_hanablive(alice, bob):
    options = GameOptions(2, rearrange=True)
    record = {"options": options, "deck_source": 1, "actions": [], "names": ["Ann", "Bob"]}
    download = replays.download(record)
    assert not download.is_hanablive and download.data["format"] == RECORD_FORMAT


# -- the turn email and replies by email ---------------------------------------------------


def _turn_email_text(game: Game, user, mailoutbox) -> str:
    mailoutbox.clear()
    rows = Outbox.objects.filter(kind="your_turn", payload__game=game.pk, done_at=None)
    rows.update(due_at=timezone.now())
    for pk in rows.values_list("pk", flat=True):
        delivery.run(pk)
    (message,) = [m for m in mailoutbox if m.to == [user.email]]
    return message.body


@pytest.mark.django_db
def test_the_turn_email_tells_the_rearrangements_since_the_last_turn(alice, bob, mailoutbox):
    game = start_game(alice, bob, rearrange=True)
    first, user = game.current_seat, current_user(game)
    other = user_at(game, 1 - first)
    rearrange.rearrange_hand(game.pk, other, 5, 1, hand_of(game, 1 - first))
    state = game.load_state()
    clue = next(a for a in state.legal_actions() if type(a).__name__ == "Clue")
    play.submit_action(game.pk, user, action_to_dict(clue), 0)
    text = _turn_email_text(game, other, mailoutbox)
    name = game.seats.get(position=1 - first).name
    assert f"{name} {MOVED_TEXT}" in text.replace("\n  ", " ")


def test_an_email_slot_command_after_a_rearrangement_this_turn_needs_now():
    from games.engine import Rearrange, new_game

    state = new_game(GameOptions(2, rearrange=True), seed=3)
    me = state.current_seat
    before = read_reply("play 3", view_for(state, me)).action
    # Rearranged in an earlier turn (before this turn's email): the slots are today's.
    other = 1 - me
    state.apply(Rearrange(other, state.hand(other)[4], 1))
    assert read_reply("play 3", view_for(state, me)).action == before
    # Rearranged during this turn: "play 3" may mean the old slot 3.
    state.apply(Rearrange(me, state.hand(me)[4], 1))
    with pytest.raises(Impossible, match="rearranged during this turn"):
        read_reply("play 3", view_for(state, me))
    now = read_reply("play 3 now", view_for(state, me))
    assert now.action == {"type": "play", "card_id": state.hand(me)[2]}
    assert now.summary == "play slot 3"
    with pytest.raises(Impossible, match="discard 2 now"):
        read_reply("discard 2", view_for(state, me))


# -- bots -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_bot_plays_on_legally_after_its_partner_rearranges(alice):
    game = lobby.create_game(alice, GameOptions(2, rearrange=True), Game.Visibility.INVITE)
    lobby.set_bot(game.pk, alice, 1, True)
    lobby.start_game(game.pk, alice)
    game.refresh_from_db()
    me = next(s.position for s in game.seats.all() if not s.is_bot)
    for _ in range(8):
        game.refresh_from_db()
        if not game.is_playing():
            break
        if game.current_seat != me:
            play.bot_move(game.pk, game.turn)
            continue
        hand = hand_of(game, me)
        rearrange.rearrange_hand(game.pk, alice, len(hand), 1, hand)
        game.refresh_from_db()
        state = game.load_state()
        clue = next((a for a in state.legal_actions() if type(a).__name__ == "Clue"), None)
        action = clue or state.legal_actions()[0]
        play.submit_action(game.pk, alice, action_to_dict(action), game.turn)
    game.refresh_from_db()
    bot_moves = game.moves.filter(made_by="bot").count()
    assert bot_moves >= 3 and len(game.rearrangements) >= 3
    game.load_state()  # every move replays: the bot's moves were legal


@pytest.mark.django_db
def test_the_page_of_a_bot_game_shows_a_rearrangement(client, alice):
    """The table says what the house bot believes of each player by replaying the history
    (games/bots/beliefs.py): a rearrangement in it moves the hand's order and judges nobody."""
    game = lobby.create_game(alice, GameOptions(2, rearrange=True), Game.Visibility.INVITE)
    lobby.set_bot(game.pk, alice, 1, True)
    lobby.start_game(game.pk, alice)
    game.refresh_from_db()
    me = next(s.position for s in game.seats.all() if not s.is_bot)
    if game.current_seat != me:
        play.bot_move(game.pk, game.turn)
    rearrange.rearrange_hand(game.pk, alice, 5, 1, hand_of(game, me))
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    assert MOVED_TEXT in response.content.decode()


@pytest.mark.django_db
def test_the_new_game_form_offers_the_option_off_by_default(client, alice):
    client.force_login(alice)
    page = client.get("/games/new/").content.decode()
    assert 'name="rearrange"' in page and "Allow rearranging one&#x27;s hand" in page
    form = {
        "players": 3,
        "multicolour": 0,
        "fuses": 3,
        "turn_time_limit": "",
        "timeout_policy": "auto_move",
        "visibility": "invite",
    }
    client.post("/games/new/", form)
    client.post("/games/new/", {**form, "rearrange": "on"})
    plain, rearranging = Game.objects.filter(creator=alice).order_by("pk")
    assert "rearrange" not in plain.options
    assert rearranging.options["rearrange"] is True
    assert rearranging.game_options.describe() == "3 players, rearranging"


@pytest.mark.django_db
def test_a_rearrangement_keeps_the_last_clues_marks_and_takes_no_automatic_note(client, alice, bob):
    """It takes no turn: the ▼ marks stay on the cards the last clue touched, and the note of
    a move a bot made for a player (its turn's) is not put on the rearrangement before it."""
    game = start_game(alice, bob, rearrange=True)
    clue = next(a for a in game.load_state().legal_actions() if type(a).__name__ == "Clue")
    play.submit_action(game.pk, current_user(game), action_to_dict(clue), 0)
    game.refresh_from_db()
    seat = game.current_seat  # the clue's target moves next
    user = user_at(game, seat)
    rearrange.rearrange_hand(game.pk, user, 5, 1, hand_of(game, seat))
    game.refresh_from_db()
    client.force_login(user_at(game, 1 - seat))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert MOVED_TEXT in page
    assert page.count('class="last-clue-mark"') == len(
        view_for(game.load_state(), seat)["history"][0]["touched"]
    )
    view = view_for(game.load_state(), 1 - seat)
    shown = table_context.table(view, automatic_turns={1: "timeout"})["history"]
    assert [entry["type"] for entry in shown] == ["rearrange", "clue"]
    assert shown[0]["note"] is None


@pytest.mark.django_db
def test_the_history_numbers_moves_by_turn_and_leaves_a_rearrangement_unnumbered(
    client, alice, bob
):
    game = start_game(alice, bob, rearrange=True)
    seat, user = game.current_seat, current_user(game)
    rearrange.rearrange_hand(game.pk, user, 5, 1, hand_of(game, seat))
    play.submit_action(game.pk, user, action_to_dict(Play(hand_of(game, seat)[0])), 0)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    section = page[page.index('id="history-heading"') :]
    items = re.findall(r"<li([^>]*)>", section[: section.index("</ol>")])
    # Newest first: the play, numbered as turn 1; the rearrangement before it, no number.
    assert len(items) == 2 and items[0].endswith(' value="1"')  # (a misplay is marked first)
    assert items[1] == ' class="free-action"'
