"""Friends and recent partners: who they are, adding and removing a friend, and inviting
one to an open game. A friend is chosen by their account's id or display name, never by an
address: the inviter never sees a friend's email address, which only the server reads to
send the invitation (games.services.lobby.invite_by_email)."""

from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from accounts.models import User
from friends.models import Friendship
from games.errors import GameError, NotAllowed
from games.models import Game, Invitation
from games.services import lobby

# Games that make two people partners: played together, or being played.
SHARED = [Game.Status.PLAYING, Game.Status.FINISHED]
RECENT_PARTNERS = 20


def friends_of(user: User) -> QuerySet[User]:
    """The people `user` marked as friends, the most recently added first."""
    return User.objects.filter(befriended_by__user=user, is_active=True).order_by(
        "-befriended_by__created_at"
    )


def partners_of(user: User) -> QuerySet[User]:
    """Everyone who shared a table in play or finished with `user`, the most recent table
    first (when it ended, or started if it is still being played)."""
    return (
        User.objects.filter(seats__game__seats__user=user, seats__game__status__in=SHARED)
        .exclude(pk=user.pk)
        .filter(is_active=True)
        .annotate(last_played=Max(Coalesce("seats__game__finished_at", "seats__game__started_at")))
        .order_by("-last_played", "pk")
    )


def recent_partners(user: User, limit: int = RECENT_PARTNERS) -> list[User]:
    return list(partners_of(user)[:limit])


def _known(user: User, person_id: int) -> User:
    """A friend or partner of `user`, by id; anyone else is refused with the same words as
    an id that names nobody, so that ids cannot be probed for accounts."""
    person = (
        friends_of(user).filter(pk=person_id).first()
        or partners_of(user).filter(pk=person_id).first()
    )
    if person is None:
        raise NotAllowed(
            _("You can choose only among your friends and the people you played with.")
        )
    return person


def add_friend(user: User, person_id: int) -> Friendship:
    """Mark someone `user` has played with as a friend: only partners, so that an id typed
    in a form cannot reveal a stranger's name on the friends page."""
    person = partners_of(user).filter(pk=person_id).first()
    if person is None:
        raise NotAllowed(_("You can add as a friend only someone you have played with."))
    try:
        with transaction.atomic():
            return Friendship.objects.create(user=user, friend=person)
    except IntegrityError:
        raise GameError(
            _("%(name)s is already your friend.") % {"name": person.display_name}
        ) from None


def remove_friend(user: User, person_id: int) -> None:
    deleted, _by_model = Friendship.objects.filter(user=user, friend_id=person_id).delete()
    if not deleted:
        raise GameError(_("That person is not among your friends."))


def friend_named(user: User, name: str) -> User:
    """The one friend of `user` with this display name (case aside)."""
    name = name.strip()
    if not name:
        raise GameError(_("Type a friend's name."))
    found = list(friends_of(user).filter(display_name__iexact=name)[:2])
    if not found:
        raise GameError(_("None of your friends is called %(name)s.") % {"name": name})
    if len(found) > 1:
        raise GameError(
            _("More than one of your friends is called %(name)s: use the buttons of the list.")
            % {"name": name}
        )
    return found[0]


def invite(game_id: int, inviter: User, person: User) -> Invitation:
    """Invite a friend or partner to an open game by their address, read here only."""
    with transaction.atomic():
        # The game's lock first, as invite_by_email takes it: the check below and the
        # invitation cannot be separated by another invitation of the same person.
        game = Game.objects.locked(game_id)
        if not game.seats.filter(user=inviter).exists():
            raise NotAllowed(_("Only a player at this table can invite others."))
        if game.seats.filter(user=person).exists():
            raise GameError(
                _("%(name)s already has a seat at this table.") % {"name": person.display_name}
            )
        if Invitation.objects.filter(game=game, email__iexact=person.email).exists():
            raise GameError(
                _("%(name)s has already been invited to this game.") % {"name": person.display_name}
            )
        return lobby.invite_by_email(game_id, inviter, person.email, by_name=True)


def invite_by_id(game_id: int, inviter: User, person_id: int) -> User:
    person = _known(inviter, person_id)
    invite(game_id, inviter, person)
    return person


def invite_by_name(game_id: int, inviter: User, name: str) -> User:
    person = friend_named(inviter, name)
    invite(game_id, inviter, person)
    return person
