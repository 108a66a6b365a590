"""Moderators act from the admin, through games.services: each action asks why, is written
to the audit log, and shows in the game's history. Staff who are not moderators cannot."""

import pytest
from django.conf import settings
from django.test import Client

from accounts.scoped import PASSES, scoped_url
from games.engine import GameOptions
from games.errors import GameError, NotAllowed
from games.models import ChatMessage, ChatPolicy, Game, Seat
from games.services import chat, lobby
from moderation import services as moderation
from moderation.models import ModeratorAction, Report
from outbox import delivery
from outbox.models import Outbox
from tests.conftest import PASSWORD, make_moderator
from tests.games.conftest import make_user, play_to_the_end, start_game


@pytest.fixture
def moderator(db):
    return make_moderator("maud")


@pytest.fixture
def plain_staff(db):
    """Staff who may view and edit games, chat and reports in the admin, but who are not in
    the Moderators group: the moderation actions are not theirs."""
    from django.contrib.auth.models import Permission

    user = make_user("stan")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    models = ["game", "chatmessage", "report", "user"]
    user.user_permissions.set(
        Permission.objects.filter(
            codename__in=[f"{verb}_{model}" for verb in ("view", "change") for model in models]
        )
    )
    return user


def admin_action(client, model: str, action: str, pk: int, reason: str | None = None, **fields):
    """Run an admin action as the admin's forms do: choose it, then give the reason (and
    whatever else the action asks)."""
    app = {"report": "moderation", "moderatoraction": "moderation", "user": "accounts"}
    url = f"/admin/{app.get(model, 'games')}/{model}/"
    form = {"action": action, "_selected_action": [pk]}
    first = client.post(url, form)
    if reason is None:
        return first
    return client.post(url, {**form, "apply": "yes", "reason": reason, **fields}, follow=True)


def test_a_moderator_extends_clears_and_aborts_with_a_reason_each_logged(
    client, moderator, alice, bob
):
    game = start_game(alice, bob, turn_time_limit=24)
    deadline = Game.objects.get(pk=game.pk).turn_deadline
    client.force_login(moderator)
    assert '<option value="extend">' in client.get("/admin/games/game/").content.decode()
    asked = admin_action(client, "game", "extend", game.pk).content.decode()
    assert "Why" in asked and "this many more hours" in asked
    assert Game.objects.get(pk=game.pk).turn_deadline == deadline  # nothing yet

    refused = admin_action(client, "game", "extend", game.pk, "a year off", hours=24 * 365)
    assert "less than or equal to 168" in refused.content.decode()
    admin_action(client, "game", "extend", game.pk, "Bob is travelling", hours=36)
    assert (Game.objects.get(pk=game.pk).turn_deadline - deadline).total_seconds() == 36 * 3600
    admin_action(client, "game", "clear_deadline", game.pk, "waiting for Bob")
    assert Game.objects.get(pk=game.pk).turn_deadline is None
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "A moderator extended the deadline by 36 hours" in page and "Bob is travelling" in page
    client.force_login(moderator)
    admin_action(client, "game", "abort", game.pk, "abandoned")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED

    log = list(ModeratorAction.objects.filter(game=game).order_by("created_at"))
    assert [(a.action, a.moderator, a.reason) for a in log] == [
        ("extend", moderator, "Bob is travelling"),
        ("clear_deadline", moderator, "waiting for Bob"),
        ("abort", moderator, "abandoned"),
    ]
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "This game was aborted" in page and "A moderator aborted the game: abandoned" in page


def test_a_moderator_hides_a_message_and_resolves_its_report(client, moderator, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    message = chat.post_message(game.pk, bob, "something rude")
    report = moderation.report(game.pk, alice, "rude", message_id=message.pk)
    client.force_login(moderator)
    assert "rude" in client.get("/admin/moderation/report/?status__exact=open").content.decode()
    admin_action(client, "chatmessage", "hide", message.pk, "insult")
    admin_action(client, "report", "resolve", report.pk, "message hidden, Bob warned")
    message.refresh_from_db()
    report.refresh_from_db()
    assert message.hidden_at is not None
    assert (report.status, report.note) == (Report.Status.RESOLVED, "message hidden, Bob warned")
    assert ModeratorAction.objects.filter(action="hide_message", user=bob).exists()
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/", follow=True).content.decode()
    assert "something rude" not in page and "hid a message by Bob" in page


def test_staff_who_are_not_moderators_cannot_moderate(client, plain_staff, alice, bob):
    game = start_game(alice, bob, turn_time_limit=24)
    Game.objects.filter(pk=game.pk).update(chat_policy=ChatPolicy.DURING)
    message = chat.post_message(game.pk, bob, "hello")
    report = moderation.report(game.pk, alice, "rude", message_id=message.pk)
    before = Game.objects.filter(pk=game.pk).values().get()
    seats_before = list(Seat.objects.filter(game=game).values())
    client.force_login(plain_staff)
    reason = "I feel like it"
    for action, fields in [
        ("extend", {"hours": 24}),
        ("clear_deadline", {}),
        ("pause", {}),
        ("resume", {}),
        ("replace_seat", {"position": 0, "email": ""}),
        ("abort", {}),
    ]:
        assert f'<option value="{action}">' not in client.get("/admin/games/game/").content.decode()
        assert admin_action(client, "game", action, game.pk).status_code == 403
        assert admin_action(client, "game", action, game.pk, reason, **fields).status_code == 403
    for url, pk, action in [
        ("/admin/games/chatmessage/", message.pk, "hide"),
        ("/admin/moderation/report/", report.pk, "resolve"),
    ]:
        page = client.get(url)
        assert page.status_code == 200 and f'<option value="{action}">' not in page.content.decode()
        model = url.split("/")[-2]
        assert admin_action(client, model, action, pk, reason).status_code == 403
    assert Game.objects.filter(pk=game.pk).values().get() == before
    assert list(Seat.objects.filter(game=game).values()) == seats_before
    assert ChatMessage.objects.get(pk=message.pk).hidden_at is None
    assert Report.objects.get(pk=report.pk).status == Report.Status.OPEN
    assert not ModeratorAction.objects.exists()
    for action in (
        lambda: moderation.abort(game.pk, plain_staff, "x"),
        lambda: moderation.extend_deadline(game.pk, plain_staff, "x", 24),
        lambda: moderation.hide_message(message.pk, plain_staff, "x"),
    ):
        with pytest.raises(NotAllowed):
            action()


def test_a_moderator_must_say_why(moderator, alice, bob):
    game = start_game(alice, bob, turn_time_limit=24)
    with pytest.raises(GameError, match="Say why"):
        moderation.clear_deadline(game.pk, moderator, "   ")
    assert Game.objects.get(pk=game.pk).turn_deadline is not None


def test_a_moderator_pauses_and_resumes_a_game(client, moderator, alice, bob):
    game = start_game(alice, bob, turn_time_limit=24)
    client.force_login(moderator)
    admin_action(client, "game", "pause", game.pk, "a dispute to settle")
    paused = Game.objects.get(pk=game.pk)
    assert paused.paused_at is not None and paused.turn_deadline is None
    admin_action(client, "game", "resume", game.pk, "settled")
    resumed = Game.objects.get(pk=game.pk)
    assert resumed.paused_at is None and resumed.turn_deadline is not None
    assert list(
        ModeratorAction.objects.filter(game=game).order_by("created_at").values_list("action")
    ) == [("pause",), ("resume",)]


def test_a_suspended_user_is_locked_out_and_their_seats_handed_on(
    client, moderator, alice, bob, carol, mailoutbox
):
    playing = start_game(alice, bob)
    waiting_own = lobby.create_game(bob, GameOptions(players=2), Game.Visibility.PUBLIC)
    waiting_other = lobby.create_game(carol, GameOptions(players=3), Game.Visibility.PUBLIC)
    lobby.join_game(waiting_other.pk, bob)
    bob_client = Client()
    bob_client.force_login(bob)
    assert bob_client.get("/").status_code == 200

    client.force_login(moderator)
    form = {"action": "suspend", "_selected_action": [bob.pk]}
    assert "For" in client.post("/admin/accounts/user/", form).content.decode()
    client.post("/admin/accounts/user/", {**form, "apply": "yes", "reason": "abuse", "days": 7})

    bob.refresh_from_db()
    assert bob.is_suspended() and bob.suspension_reason == "abuse"
    # Locked out: the open session is gone, and neither a password nor a link logs in.
    assert "Log in" in bob_client.get("/").content.decode()
    assert not Client().login(email=bob.email, password=PASSWORD)
    link = scoped_url(bob, f"/games/{playing.pk}/")
    stranger = Client()
    stranger.get(link.removeprefix(settings.SITE_URL))
    assert "_auth_user_id" not in stranger.session and PASSES not in stranger.session
    assert Seat.objects.get(game=playing, user=bob).is_bot
    assert Game.objects.get(pk=waiting_own.pk).status == Game.Status.ABORTED
    assert not Seat.objects.filter(game=waiting_other, user=bob).exists()
    assert ModeratorAction.objects.filter(action="suspend", user=bob, moderator=moderator).exists()
    row = Outbox.objects.get(kind="suspended")
    delivery.run(row.pk)
    (message,) = [m for m in mailoutbox if m.to == [bob.email]]
    assert "suspended" in message.subject and "abuse" in message.body


def test_plain_staff_cannot_suspend(client, plain_staff, bob):
    client.force_login(plain_staff)
    refused = client.post(
        "/admin/accounts/user/",
        {
            "action": "suspend",
            "_selected_action": [bob.pk],
            "apply": "yes",
            "reason": "x",
            "days": 7,
        },
    )
    assert refused.status_code == 403
    bob.refresh_from_db()
    assert not bob.is_suspended()
    with pytest.raises(NotAllowed):
        moderation.suspend_user(bob.pk, plain_staff, "x", 7)


def test_a_moderator_gives_a_seat_to_another_player_or_a_bot(client, moderator, alice, bob, carol):
    game = start_game(alice, bob)
    bob_seat = Seat.objects.get(game=game, user=bob).position
    client.force_login(moderator)
    form = {"action": "replace_seat", "_selected_action": [game.pk]}
    client.post(
        "/admin/games/game/",
        {**form, "apply": "yes", "reason": "Bob left", "position": bob_seat, "email": carol.email},
    )
    seat = Seat.objects.get(game=game, position=bob_seat)
    assert seat.user == carol and not seat.is_bot
    client.post(
        "/admin/games/game/",
        {**form, "apply": "yes", "reason": "Carol too", "position": bob_seat, "email": ""},
    )
    assert Seat.objects.get(game=game, position=bob_seat).is_bot
    assert [a.description for a in ModeratorAction.objects.order_by("created_at")] == [
        "gave Bob's seat to Carol",
        "gave Carol's seat to a bot",
    ]
    with pytest.raises(GameError, match="already plays"):
        moderation.replace_seat(game.pk, moderator, "x", bob_seat, alice.email)
