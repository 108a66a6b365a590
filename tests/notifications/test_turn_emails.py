"""Turn, reminder, game-over and digest emails: sent through the outbox, at most once,
only when still relevant, and never showing the recipient's own cards."""

import re
from datetime import timedelta
from urllib.parse import urlparse
from zoneinfo import ZoneInfo

import pytest
from django.template.loader import render_to_string
from django.utils import dateformat, timezone

from accounts.models import User
from games import tasks
from games.emails import turn_context
from games.engine import SUITS, GameOptions, action_to_dict, view_for
from games.models import Game
from games.reply_address import reply_address
from games.services import lobby, play
from games.text_commands import example_commands
from outbox.models import Outbox
from tests.games.conftest import current_user, play_to_the_end, start_game, user_at
from tests.mail import html_body, run_due
from tests.notifications.helpers import three_players_with_clues

pytestmark = pytest.mark.usefixtures("send_at_once")


def first_clue(game: Game) -> dict:
    state = game.load_state()
    return action_to_dict(next(a for a in state.legal_actions() if type(a).__name__ == "Clue"))


def test_the_player_to_move_gets_one_email_with_the_table_and_a_link_to_the_game(
    client, alice, bob, mailoutbox
):
    game = start_game(alice, bob)
    mover = current_user(game)
    assert run_due("your_turn") == 1
    assert run_due("your_turn") == 0  # done rows are never run again
    (message,) = mailoutbox
    assert message.to == [mover.email]
    assert message.subject == f"Your turn in Hanabi game {game.pk}"
    html = html_body(message)
    assert "Fireworks:" in message.body and "Your hand (" in message.body
    assert "Fireworks" in html and "Your hand" in html and "Open the game" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")

    # The other player's cards are listed; the recipient's own are not.
    state = game.load_state()
    seat = game.seats.get(user=mover).position
    others = [state.card(cid).code for cid in state.hand(1 - seat)]
    cells = "   ".join(f"{slot} {code}" for slot, code in enumerate(others, start=1))
    assert cells in message.body
    assert_full_table(message, game, seat)

    link = re.search(r"(http://\S+/accounts/open/\S+)", message.body).group(1)
    assert f'href="{link}"' in html
    assert "for a week" in message.body and "does not log you in" in html
    response = client.get(link.replace("http://127.0.0.1:8000", ""), follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert "It is your turn" in response.content.decode()
    assert_opens_only_the_game(client, mover)


def assert_opens_only_the_game(client, user: User) -> None:
    """The link left a pass for the game, not a login: the account is out of reach."""
    assert "_auth_user_id" not in client.session
    for path in ("/accounts/profile/", "/accounts/password/change/"):
        response = client.get(path)
        assert response.status_code == 302 and response.url.startswith("/accounts/login/"), path


def test_the_email_tells_what_happened_since_my_last_turn(alice, bob, mailoutbox):
    game = start_game(alice, bob)
    first, second = current_user(game), user_at(game, 1 - game.current_seat)
    play.submit_action(game.pk, first, first_clue(game), 0)
    run_due("your_turn")
    to_second = next(m for m in mailoutbox if m.to == [second.email])
    assert f"{first.display_name} clues {second.display_name}" in to_second.body
    assert "Since your last turn:" in to_second.body


def test_no_email_once_the_turn_is_played_or_for_muted_or_unsubscribed_players(
    alice, bob, mailoutbox
):
    game = start_game(alice, bob)
    play.submit_action(game.pk, current_user(game), first_clue(game), 0)
    # The first player's row is stale now; only the second player's email goes out.
    assert run_due("your_turn") == 2
    assert [m.to for m in mailoutbox] == [[current_user(game).email]]

    mailoutbox.clear()
    waiting = current_user(game)
    game.seats.filter(user=waiting).update(muted=True)
    play.submit_action(game.pk, waiting, first_clue(game), 1)
    User.objects.filter(pk=current_user(game).pk).update(notify=User.Notify.NONE)
    play.submit_action(game.pk, current_user(game), first_clue(game), 2)
    run_due("your_turn")
    assert mailoutbox == []


def test_a_player_looking_at_the_game_gets_no_email_until_they_leave(
    client, alice, bob, mailoutbox, settings
):
    settings.NOTIFY_DELAY_SECONDS = 60
    game = start_game(alice, bob)
    mover = current_user(game)
    client.force_login(mover)
    poll = f"/games/{game.pk}/poll/?status=playing&v={game.version}"
    assert client.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    Outbox.objects.filter(kind="your_turn").update(due_at=timezone.now())
    assert run_due("your_turn") == 0  # retried later: the page is open
    assert mailoutbox == []
    row = Outbox.objects.get(kind="your_turn")
    assert row.done_at is None and row.due_at > timezone.now() + timedelta(seconds=50)

    # The page was closed: the player stops polling; when the row is due again, it sends.
    game.seats.filter(user=mover).update(last_seen_at=timezone.now() - timedelta(minutes=5))
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    assert run_due("your_turn") == 1
    assert [m.to for m in mailoutbox] == [[mover.email]]


def test_a_reminder_goes_out_before_the_deadline_unless_the_turn_was_played(alice, bob, mailoutbox):
    game = start_game(alice, bob, turn_time_limit=24)
    row = Outbox.objects.get(kind="reminder")
    game.refresh_from_db()
    assert row.due_at == pytest.approx(
        game.turn_deadline - timedelta(hours=6), abs=timedelta(seconds=5)
    )
    Outbox.objects.filter(pk=row.pk).update(due_at=timezone.now())
    assert run_due("reminder") == 1
    (message,) = mailoutbox
    assert "ends soon" in message.subject and "time runs out at" in message.body

    mailoutbox.clear()
    play.submit_action(game.pk, current_user(game), first_clue(game), 0)
    Outbox.objects.filter(kind="reminder").update(due_at=timezone.now())
    run_due("reminder")
    assert all(
        "ends soon" not in m.subject or m.to == [current_user(game).email] for m in mailoutbox
    )
    assert sum("ends soon" in m.subject for m in mailoutbox) == 1


def test_everyone_gets_the_game_over_email_once_with_score_and_replay_link(
    client, alice, bob, mailoutbox
):
    game = play_to_the_end(start_game(alice, bob))
    run_due("game_over")
    run_due("game_over")
    over = [m for m in mailoutbox if "is over" in m.subject]
    assert sorted(m.to[0] for m in over) == [alice.email, bob.email]
    message = over[0]
    assert f"{game.score} / 25" in message.subject
    assert "Final score:" in message.body
    link = re.search(r"(http://\S+/accounts/open/\S+)", message.body).group(1)
    response = client.get(urlparse(link).path, follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/replay/{game.turn}/"
    assert response.status_code == 200
    assert_opens_only_the_game(client, User.objects.get(email=message.to[0]))


def test_the_daily_digest_lists_the_games_waiting_on_me_once_a_day(
    client, alice, bob, carol, mailoutbox
):
    User.objects.filter(pk__in=[alice.pk, bob.pk, carol.pk]).update(notify=User.Notify.DAILY_DIGEST)
    game = start_game(alice, bob)
    run_due("your_turn")
    assert mailoutbox == []  # digest users get no per-turn email
    assert tasks.daily_digest() == 3
    assert tasks.daily_digest() == 0  # one a day, however often beat runs it
    run_due("digest")
    (digest,) = mailoutbox  # carol has no game waiting: no email
    assert digest.to == [current_user(game).email]
    assert f"Game {game.pk}" in digest.body
    link = re.search(r"(http://\S+/accounts/open/\S+)", digest.body).group(1)
    response = client.get(urlparse(link).path, follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert_opens_only_the_game(client, current_user(game))


def test_the_reminder_links_to_the_game_only(client, alice, bob, mailoutbox):
    game = start_game(alice, bob, turn_time_limit=24)
    Outbox.objects.filter(kind="reminder").update(due_at=timezone.now())
    run_due("reminder")
    (message,) = mailoutbox
    link = re.search(r"(http://\S+/accounts/open/\S+)", message.body).group(1)
    assert f'href="{link}"' in html_body(message)
    response = client.get(urlparse(link).path, follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert_opens_only_the_game(client, current_user(game))


def test_an_invitation_to_a_member_carries_the_unsubscribe_headers(alice, bob, mailoutbox):
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    lobby.invite_by_email(game.pk, alice, bob.email.upper())
    lobby.invite_by_email(game.pk, alice, "stranger@example.org")
    run_due("invitation")
    to_bob = next(m for m in mailoutbox if m.to == [bob.email])
    assert "List-Unsubscribe" in to_bob.extra_headers and "Email preferences" in to_bob.body
    to_stranger = next(m for m in mailoutbox if m.to == ["stranger@example.org"])
    assert "List-Unsubscribe" not in to_stranger.extra_headers
    assert "Without an account" in to_stranger.body
    assert f"/games/{game.pk}/join/{game.invite_code}/" in to_stranger.body


def test_no_game_email_goes_to_an_address_its_owner_has_not_confirmed(alice, mailoutbox):
    """Someone who signs up with another person's address (never confirmed) must not fill
    that inbox: no turn email, and an invitation to the address reads as to a stranger."""
    from allauth.account.models import EmailAddress

    from tests.conftest import make_user

    unconfirmed = make_user("dora", verified=False)
    game = start_game(alice, unconfirmed)

    def move_until_it_is(user) -> None:
        while current_user(game) != user:
            play.submit_action(game.pk, current_user(game), first_clue(game), game.turn)

    move_until_it_is(unconfirmed)
    run_due("your_turn")
    assert unconfirmed.email not in [to for m in mailoutbox for to in m.to]

    EmailAddress.objects.filter(user=unconfirmed).update(verified=True)
    play.submit_action(game.pk, unconfirmed, first_clue(game), game.turn)
    move_until_it_is(unconfirmed)
    run_due("your_turn")
    assert [m.to for m in mailoutbox].count([unconfirmed.email]) == 1


# -- the table in the turn email and the reminder ---------------------------------------------


def clue_value(event) -> str:
    """A clue as the emails name it: "red" or "3"."""
    return SUITS[event.colour] if event.colour is not None else str(event.rank)


def assert_full_table(message, game: Game, seat: int) -> None:
    """Both bodies show every other hand (seat number, name, each card with its slot and
    the clues that touched it), the reader's slots with what they know, and, in the text,
    lines that fit a phone."""
    state = game.load_state()
    names = game.seat_names()
    html = html_body(message)
    clued: dict[int, list[str]] = {}  # card id -> values of the clues that touched it
    missed: dict[int, list[str]] = {}
    for event in state.events:
        if event.kind == "clue":
            for cid in state.hands[event.target]:
                if cid in event.touched:
                    clued.setdefault(cid, []).append(clue_value(event))
                elif cid in event.hand:
                    missed.setdefault(cid, []).append(clue_value(event))
    lines = message.body.splitlines()
    for other in range(state.players):
        if other == seat:
            continue
        label = f"{other + 1} {names[other]}:"
        start = next(i for i, line in enumerate(lines) if line.startswith(label))
        # A hand may wrap onto indented lines.
        text = " ".join(
            [lines[start]]
            + [line for line in lines[start + 1 : start + 3] if line.startswith("   ")]
        )
        html_hand = html.split(f"<strong>{other + 1} {names[other]}</strong>")[1].split("<p ")[0]
        for slot, cid in enumerate(state.hand(other), start=1):
            card = state.card(cid)
            cell = f"{slot} {card.code}"
            if cid in clued:
                cell += f" ({', '.join(clued[cid])})"
            assert re.search(rf"(?<!\S){re.escape(cell)}(?!\S)", text), (cell, text)
            assert f'title="{card.name}"' in html_hand and f">{card.code}</div>" in html_hand
            if cid in clued:
                assert f">{', '.join(clued[cid])}</div>" in html_hand
    own = lines.index(next(line for line in lines if line.startswith("Your hand (")))
    assert lines[own].startswith(f"Your hand ({seat + 1} {names[seat]})")
    for slot, cid in enumerate(state.hand(seat), start=1):
        line = lines[own + slot]
        assert line.startswith(f"{slot:>3}  "), line
        assert "can be " in line or "any card" in line, line
        html_line = html.split(f"<strong>Slot {slot}:</strong> ")[1].split("<br>")[0]
        if cid in clued:
            assert line.startswith(f"{slot:>3}  {', '.join(clued[cid])}"), line
            assert html_line.startswith(f"clued {', '.join(clued[cid])}")
        elif cid in missed:
            assert line.startswith(f"{slot:>3}  not {missed[cid][0]}"), line
            assert html_line.startswith(f"not {missed[cid][0]}")
        else:
            assert line == f"{slot:>3}  no clues: any card" or "any card but" in line, line
            assert html_line == "no clues"
    for line in lines:
        assert len(line) <= 72 or "http" in line, line


def assert_reply_commands(message, game: Game, seat: int, user: User) -> None:
    """Three commands legal now, the forms, and a Reply-To that takes the reply."""
    state = game.load_state()
    view = view_for(state, seat, game.seat_names())
    examples = example_commands(view)
    assert len(examples) == 3
    html = html_body(message)
    assert "Reply to this email with one command:" in message.body
    assert "Reply to this email with one command:" in html
    for example in examples:
        assert f"\n  {example}\n" in message.body
        assert example in html
    assert "play N · discard N · clue <name or seat> <colour or rank>" in message.body
    assert "clue &lt;name or seat&gt; &lt;colour or rank&gt;" in html
    assert message.extra_headers["Reply-To"] == reply_address(game.pk, seat, game.turn, user.pk)


def deadline_in(game: Game, zone: str) -> str:
    return dateformat.format(timezone.localtime(game.turn_deadline, ZoneInfo(zone)), "D j M, H:i e")


def test_the_turn_email_is_the_whole_table_with_commands_to_reply_with(
    alice, bob, carol, mailoutbox
):
    game = three_players_with_clues(alice, bob, carol, turn_time_limit=24)
    mover = current_user(game)
    User.objects.filter(pk=mover.pk).update(time_zone="Asia/Tokyo")
    mailoutbox.clear()
    run_due("your_turn")
    (message,) = mailoutbox
    assert message.to == [mover.email]
    assert_full_table(message, game, 2)
    assert_reply_commands(message, game, 2, mover)
    # The deadline in the reader's time zone, not the server's.
    in_tokyo, in_utc = deadline_in(game, "Asia/Tokyo"), deadline_in(game, "UTC")
    assert "JST" in in_tokyo and in_tokyo != in_utc
    assert f"Play before {in_tokyo}." in message.body
    assert in_tokyo in html_body(message) and in_utc not in message.body
    # What happened since: both clues, and the table's counters.
    assert message.body.index("Since your last turn:") < message.body.index("Fireworks:")
    assert "Clue tokens 6/8 · Fuses 3/3 · Deck " in message.body
    assert "Discards: none" in message.body
    assert message.body.index("Your hand (") < message.body.index("Reply to this email")
    assert message.body.index("Reply to this email") < message.body.index("Open the game")


def test_the_reminder_has_the_same_table_and_reply_to(alice, bob, carol, mailoutbox):
    game = three_players_with_clues(alice, bob, carol, turn_time_limit=24)
    mover = current_user(game)
    User.objects.filter(pk=mover.pk).update(time_zone="America/New_York")
    mailoutbox.clear()
    Outbox.objects.filter(kind="reminder").update(due_at=timezone.now())
    run_due("reminder")
    (message,) = mailoutbox
    assert "ends soon" in message.subject
    assert_full_table(message, game, 2)
    assert_reply_commands(message, game, 2, mover)
    assert f"time runs out at {deadline_in(game, 'America/New_York')}" in " ".join(
        message.body.split()
    )


def test_a_game_with_no_time_limit_says_so_and_discards_show_by_suit(alice, bob, mailoutbox):
    game = start_game(alice, bob)
    play.submit_action(game.pk, current_user(game), first_clue(game), 0)
    state = game.load_state()
    discard = next(a for a in state.legal_actions() if type(a).__name__ == "Discard")
    card = state.card(discard.card_id)
    play.submit_action(game.pk, current_user(game), action_to_dict(discard), 1)
    mailoutbox.clear()
    run_due("your_turn")
    (message,) = mailoutbox
    assert "No time limit." in message.body and "No time limit." in html_body(message)
    assert f"Discards: {card.code}\n" in message.body
    assert f'title="{card.name}"' in html_body(message)


def test_the_table_renders_from_turn_context_alone_in_any_email(alice, bob, carol):
    """Another email (the answer to a reply) includes the same partials with this context;
    when it is not the seat's turn, there is no reply address and no example."""
    game = three_players_with_clues(alice, bob, carol)
    waiting = game.seats.select_related("user").get(position=0)
    context = turn_context(game, waiting)
    assert context["reply_to"] is None and context["examples"] == []
    text = render_to_string("emails/games/_table.txt", context)
    html = render_to_string("emails/games/_table.html", context)
    names = game.seat_names()
    assert f"\n2 {names[1]}:" in text and f"\n3 {names[2]}:" in text
    assert f"Your hand (1 {names[0]})" in text and f"{names[2]} is to play." in text
    assert f"<strong>3 {names[2]}</strong> (to play)" in html
    assert render_to_string("emails/games/_commands.txt", context).strip() == ""

    mover = game.seats.select_related("user").get(position=2)
    context = turn_context(game, mover)
    assert context["reply_to"] == reply_address(game.pk, 2, game.turn, mover.user_id)
    assert context["examples"] == example_commands(context["view"])
    assert set(context) >= {"game", "view", "recent", "said", "others", "own", "game_url"}
