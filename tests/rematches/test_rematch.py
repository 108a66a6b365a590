"""A rematch, through its services: the same table again, a new deal, the others invited
by page and email; it starts when all accept, or with bots when the proposer says so."""

import pytest
from allauth.account.models import EmailAddress

from accounts.models import User
from games.errors import NotAllowed
from games.models import BotKind, Game, SpectatorPolicy
from games.services import lobby
from outbox.models import Outbox
from rematches import services
from rematches.models import Invitee, Rematch
from tests.mail import assert_email_contains, assert_email_lacks, run_due


def people_at(game: Game) -> set[int]:
    return set(game.seats.filter(is_bot=False).values_list("user_id", flat=True))


def test_all_accept_the_same_people_play_the_same_options_a_new_deal(finished, alice, bob, carol):
    rematch, created = services.propose(finished.pk, alice)
    assert created
    game = rematch.game
    assert game.is_open() and game.creator == alice
    assert people_at(game) == {alice.pk, None}  # the others' seats wait for them
    assert [i.user for i in rematch.invitees.order_by("user__email")] == [bob, carol]

    services.accept(rematch.pk, bob)
    game.refresh_from_db()
    assert game.is_open()
    services.accept(rematch.pk, carol)  # the last one: the game starts in this transaction
    game.refresh_from_db()

    assert game.is_playing()
    assert people_at(game) == {alice.pk, bob.pk, carol.pk}
    assert game.options == finished.options
    same = ["visibility", "turn_time_limit", "timeout_policy", "chat_policy"]
    assert [getattr(game, f) for f in same] == [getattr(finished, f) for f in same]
    assert game.seed != finished.seed and game.deck is None
    assert game.load_state(moves=[]).deck != finished.load_state(moves=[]).deck
    # The start's turn email goes to whoever moves first (games' own outbox rows).
    assert Outbox.objects.filter(kind="your_turn", payload__game=game.pk).count() == 1


def test_one_declines_and_the_proposer_starts_with_a_bot_in_that_seat(finished, alice, bob, carol):
    rematch, _ = services.propose(finished.pk, alice)
    services.accept(rematch.pk, bob)
    services.decline(rematch.pk, carol)
    rematch.game.refresh_from_db()
    assert rematch.game.is_open()

    services.start_with_bots(rematch.pk, alice)
    game = Game.objects.get(pk=rematch.game_id)
    assert game.is_playing()
    assert people_at(game) == {alice.pk, bob.pk}
    (bot,) = game.seats.filter(is_bot=True)
    assert bot.user is None and bot.bot_kind == BotKind.HOUSE


def test_bots_fill_every_seat_not_accepted(finished, alice, bob, carol):
    """Nobody answered: both seats go to bots; carol's later answer is too late."""
    rematch, _ = services.propose(finished.pk, alice)
    services.start_with_bots(rematch.pk, alice)
    game = Game.objects.get(pk=rematch.game_id)
    assert game.is_playing()
    assert people_at(game) == {alice.pk}
    assert game.seats.filter(is_bot=True, user=None).count() == 2


def test_who_may_watch_is_kept_too(finished, alice):
    Game.objects.filter(pk=finished.pk).update(spectators=SpectatorPolicy.DURING)
    rematch, _ = services.propose(finished.pk, alice)
    assert Game.objects.get(pk=rematch.game_id).spectators == SpectatorPolicy.DURING


def test_a_decline_after_accepting_gives_the_seat_back(finished, alice, bob):
    rematch, _ = services.propose(finished.pk, alice)
    services.accept(rematch.pk, bob)
    services.decline(rematch.pk, bob)
    assert people_at(rematch.game) == {alice.pk, None}
    assert rematch.invitees.get(user=bob).answer == Invitee.Answer.DECLINED
    services.accept(rematch.pk, bob)  # changed their mind again, while the table is open
    assert bob.pk in people_at(rematch.game)


def test_a_second_proposal_finds_the_first(finished, alice, bob):
    first, _ = services.propose(finished.pk, alice)
    again, created = services.propose(finished.pk, bob)
    assert again == first and not created
    assert Rematch.objects.count() == 1 and Game.objects.count() == 2


def test_a_cancelled_rematch_may_be_proposed_again(finished, alice, bob, carol):
    first, _ = services.propose(finished.pk, alice)
    lobby.abort_game(first.game_id, alice)
    second, created = services.propose(finished.pk, bob)
    assert created and second.game_id != first.game_id
    assert second.proposer == bob
    assert {i.user for i in second.invitees.all()} == {alice, carol}


def test_each_invitation_email_is_sent_once(finished, alice, bob, carol, mailoutbox):
    rematch, _ = services.propose(finished.pk, alice)
    services.propose(finished.pk, alice)  # a second click writes nothing more
    assert run_due("rematch_invitation") == 2
    assert run_due("rematch_invitation") == 0
    assert sorted(m.to[0] for m in mailoutbox) == [bob.email, carol.email]
    for message in mailoutbox:
        assert message.subject == f"Alice asks you to play again (game {finished.pk})"
        assert_email_contains(message, f"/rematches/{rematch.pk}/")
        assert_email_contains(message, "Alice")
        # Nobody's address but the recipient's own (in the headers).
        for person in (alice, bob, carol):
            assert_email_lacks(message, person.email)


def test_no_invitation_email_once_answered(finished, alice, bob, carol, mailoutbox):
    rematch, _ = services.propose(finished.pk, alice)
    services.decline(rematch.pk, bob)
    run_due("rematch_invitation")
    assert [m.to for m in mailoutbox] == [[carol.email]]


def test_the_bots_of_the_old_table_stay_bots_of_their_kind(with_bots, alice, bob):
    rematch, _ = services.propose(with_bots.pk, bob)
    assert [i.user for i in rematch.invitees.all()] == [alice]
    kinds = sorted(rematch.game.seats.filter(is_bot=True).values_list("bot_kind", flat=True))
    assert kinds == [BotKind.EXPERT, BotKind.HOUSE]
    services.accept(rematch.pk, alice)
    game = Game.objects.get(pk=rematch.game_id)
    assert game.is_playing() and people_at(game) == {alice.pk, bob.pk}
    assert sorted(game.seats.filter(is_bot=True).values_list("bot_kind", flat=True)) == kinds


def test_a_stranger_cannot_take_a_seat_kept_for_an_invitee(with_bots, alice, bob, mallory):
    """The rematch of a public game is listed in the lobby: its seats are kept."""
    rematch, _ = services.propose(with_bots.pk, bob)
    assert rematch.game.visibility == Game.Visibility.PUBLIC
    with pytest.raises(NotAllowed, match="kept for a rematch"):
        lobby.join_game(rematch.game_id, mallory)
    with pytest.raises(NotAllowed, match="kept for a rematch"):
        lobby.join_game(rematch.game_id, alice)  # not accepted yet: the invitation page
    assert people_at(rematch.game) == {bob.pk, None}


def test_the_invitation_email_keeps_to_each_persons_preferences(
    finished, alice, bob, carol, mailoutbox
):
    User.objects.filter(pk=bob.pk).update(notify=User.Notify.NONE)
    EmailAddress.objects.filter(user=carol).update(verified=False)
    services.propose(finished.pk, alice)
    assert run_due("rematch_invitation") == 2  # done, sending nothing
    assert mailoutbox == []


def test_the_invitation_email_can_be_unsubscribed_in_one_click(finished, alice, mailoutbox):
    services.propose(finished.pk, alice)
    run_due("rematch_invitation")
    assert len(mailoutbox) == 2
    for message in mailoutbox:
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message.extra_headers["List-Unsubscribe"].startswith("<http")
