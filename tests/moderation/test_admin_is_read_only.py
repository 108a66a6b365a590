"""Issue 13, B: nobody bypasses the rules through the admin.

The admin shows games, seats, moves, chat, invitations, reports and the audit log, and edits
none of them, for superusers too: a game changes through the players' moves and the
moderators' actions (moderation/services.py), each of which writes its audit row. Staff
without the moderator right change nothing at all: every POST is refused with 403, and the
tables are as they were.
"""

import re

import pytest
from django.contrib.auth.models import Group, Permission

from accounts.models import User
from games.engine import action_to_dict
from games.models import (
    ChatMessage,
    DealAnalysis,
    Game,
    ImportedReplay,
    Invitation,
    Move,
    Seat,
    TurnAnalysis,
)
from games.services import play
from moderation import services as moderation
from moderation.models import ModeratorAction, Report
from outbox.models import Outbox
from tests.conftest import make_moderator
from tests.games.conftest import current_user, make_user, start_game

TABLES = [
    Game,
    Seat,
    Move,
    ChatMessage,
    Invitation,
    ImportedReplay,
    DealAnalysis,
    TurnAnalysis,
    Report,
    ModeratorAction,
    Outbox,
    User,
    User.groups.through,
    User.user_permissions.through,
    Group,
    Group.permissions.through,
]


def snapshot() -> dict[str, list[dict]]:
    """Every row of every table the admin can reach (last_login aside: logging in sets it)."""
    return {
        model._meta.label: [
            {k: v for k, v in row.items() if k != "last_login"}
            for row in model.objects.order_by("pk").values()
        ]
        for model in TABLES
    }


def staff(name: str, permissions) -> User:
    user = make_user(name)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.set(permissions)
    return user


def viewer(kind: str) -> User:
    if kind == "superuser":
        return User.objects.create_superuser("root@example.org", "a-long-root-password")
    if kind == "moderator":
        return make_moderator("maud")
    if kind == "view-only staff":
        return staff("stan", Permission.objects.filter(codename__startswith="view_"))
    # Staff given every permission of every model, but not the moderator right.
    return staff("sue", Permission.objects.exclude(codename="moderate_game"))


NOT_MODERATORS = ["view-only staff", "staff with every other permission"]


@pytest.fixture
def world(alice, bob):
    """A game in play with a move, a chat message, a report, an invitation and an audit row."""
    game = start_game(alice, bob, turn_time_limit=24)
    message = ChatMessage.objects.create(game=game, author=bob, text="hello")
    report = moderation.report(game.pk, alice, "rude", message_id=message.pk)
    invitation = Invitation.objects.create(game=game, email="dora@example.org", invited_by=alice)
    mo = make_moderator("mo")
    moderation.pause(game.pk, mo, "a dispute")
    moderation.resume(game.pk, mo, "settled")
    game.refresh_from_db()
    legal = game.load_state().legal_actions()
    play.submit_action(game.pk, current_user(game), action_to_dict(legal[0]), game.turn)
    game.refresh_from_db()
    return {
        "game": game,
        "move": game.moves.get(),
        "chatmessage": message,
        "report": report,
        "invitation": invitation,
        "moderatoraction": game.moderator_actions.first(),
    }


def editable_inputs(html: str) -> list[str]:
    """The inputs, selects and text areas of a page that a person could fill in (an inline
    in view mode keeps only the hidden ids of its rows)."""
    tags = re.findall(r"<(?:input|select|textarea)\b[^>]*>", html)
    return [tag for tag in tags if " name=" in tag and 'type="hidden"' not in tag]


URLS = {
    "game": "/admin/games/game/",
    "move": "/admin/games/move/",
    "chatmessage": "/admin/games/chatmessage/",
    "invitation": "/admin/games/invitation/",
    "report": "/admin/moderation/report/",
    "moderatoraction": "/admin/moderation/moderatoraction/",
}


TAMPERING = {
    "move": {"action": '{"type": "discard", "card_id": 0}', "turn": "5", "seat": "1"},
    "chatmessage": {"text": "edited", "hidden_at_0": "2020-01-01", "hidden_at_1": "00:00"},
    "invitation": {"email": "eve@example.org"},
    "report": {"status": "resolved", "note": "nothing to see"},
    "moderatoraction": {"reason": "rewritten", "description": "did nothing"},
}


def tampering(name: str, item, mallory: User) -> dict:
    """What someone who wanted to bypass the rules would post to the item's change page."""
    if name != "game":
        return {**TAMPERING[name], "_save": "Save"}
    seat = item.seats.order_by("position").first()
    return {
        "status": "finished",
        "score": "25",
        "turn": "0",
        "seed": "1",
        "deck": "null",
        "seats-TOTAL_FORMS": "1",
        "seats-INITIAL_FORMS": "1",
        "seats-0-id": str(seat.pk),
        "seats-0-game": str(item.pk),
        "seats-0-user": str(mallory.pk),
        "_save": "Save",
    }


@pytest.mark.parametrize(
    "kind", ["superuser", "moderator", "view-only staff", "staff with every other permission"]
)
def test_nobody_adds_edits_or_deletes_the_record_of_a_game(client, kind, world, mallory):
    user = viewer(kind)
    client.force_login(user)
    before = snapshot()
    for name, url in URLS.items():
        item = world[name]
        change = f"{url}{item.pk}/change/"
        page = client.get(change)
        if page.status_code == 200:  # who may read it sees no field to edit
            html = page.content.decode()
            assert editable_inputs(html) == [], name
            assert 'name="_save"' not in html and "deletelink" not in html, name
            listing = client.get(url).content.decode()
            assert "delete_selected" not in listing, name
        else:
            assert page.status_code == 403, (name, page.status_code)
        assert client.post(change, tampering(name, item, mallory)).status_code == 403, name
        assert client.get(f"{url}add/").status_code == 403, name
        assert client.post(f"{url}add/", tampering(name, item, mallory)).status_code == 403
        assert client.get(f"{url}{item.pk}/delete/").status_code == 403, name
        assert client.post(f"{url}{item.pk}/delete/", {"post": "yes"}).status_code == 403
        deleting = {"action": "delete_selected", "_selected_action": [item.pk], "post": "yes"}
        assert client.post(url, deleting).status_code == 403, name
    assert snapshot() == before


MODERATION_ACTIONS = [
    ("game", "extend", {"hours": 24}),
    ("game", "clear_deadline", {}),
    ("game", "pause", {}),
    ("game", "resume", {}),
    ("game", "replace_seat", {"position": 0, "email": ""}),
    ("game", "abort", {}),
    ("chatmessage", "hide", {}),
    ("report", "resolve", {}),
]


@pytest.mark.parametrize("kind", NOT_MODERATORS)
def test_staff_without_the_moderator_right_change_nothing(client, kind, world, bob):
    user = viewer(kind)
    client.force_login(user)
    before = snapshot()
    targets = [
        (URLS[name], world[name].pk, action, fields) for name, action, fields in MODERATION_ACTIONS
    ]
    targets.append(("/admin/accounts/user/", bob.pk, "suspend", {"days": 7}))
    for url, pk, action, fields in targets:
        assert f'<option value="{action}">' not in client.get(url).content.decode(), action
        form = {"action": action, "_selected_action": [pk], "index": "0"}
        assert client.post(url, form).status_code == 403, action  # asking why
        applied = {**form, "apply": "yes", "reason": "I feel like it", **fields}
        assert client.post(url, applied).status_code == 403, action
    # Nor through the accounts: no superuser status, no moderator right, no one's password.
    account = f"/admin/accounts/user/{user.pk}/change/"
    escalate = {"email": user.email, "is_staff": "on", "is_superuser": "on", "_save": "Save"}
    escalate["groups"] = [Group.objects.get(name="Moderators").pk]
    assert client.post(account, escalate).status_code == 403
    password = {"password1": "a-new-long-password", "password2": "a-new-long-password"}
    assert client.post(f"/admin/accounts/user/{bob.pk}/password/", password).status_code == 403
    assert snapshot() == before


@pytest.mark.parametrize(("name", "action", "fields"), MODERATION_ACTIONS)
def test_every_change_a_moderator_makes_in_the_admin_is_an_action_with_its_audit_row(
    client, world, name, action, fields
):
    moderator = make_moderator("maud")
    game = world["game"]
    if action == "resume":
        moderation.pause(game.pk, moderator, "first a pause")
    client.force_login(moderator)
    logged = set(ModeratorAction.objects.values_list("pk", flat=True))
    before = snapshot()
    form = {"action": action, "_selected_action": [world[name].pk], "index": "0"}
    assert client.post(URLS[name], form).status_code == 200  # the form asks why
    assert snapshot() == before
    applied = {**form, "apply": "yes", "reason": "because", **fields}
    assert client.post(URLS[name], applied).status_code == 302
    assert snapshot() != before
    (row,) = ModeratorAction.objects.exclude(pk__in=logged)
    assert (row.moderator, row.reason, row.game) == (moderator, "because", game)


def test_a_superuser_still_manages_accounts(client, bob):
    root = viewer("superuser")
    client.force_login(root)
    page = client.get(f"/admin/accounts/user/{bob.pk}/change/").content.decode()
    assert 'name="display_name"' in page and 'name="is_staff"' in page
    assert client.get(f"/admin/accounts/user/{bob.pk}/password/").status_code == 200
    assert client.get("/admin/accounts/user/add/").status_code == 200
