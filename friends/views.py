"""The friends page (your friends and recent partners, with add and remove buttons) and the
waiting page's invitations of a friend, by button or by name. People are named by their
display name and posted as account ids: no page shows anyone's email address."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from friends import services
from games.errors import GameError, TooMany
from games.models import Seat
from games.views.access import too_many


@login_required
def index(request: HttpRequest) -> HttpResponse:
    friends = list(services.friends_of(request.user))
    friend_ids = {friend.pk for friend in friends}
    partners = services.recent_partners(request.user)
    context = {
        "friends": friends,
        "partners": [(partner, partner.pk in friend_ids) for partner in partners],
    }
    return render(request, "friends/index.html", context)


def _person_id(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("person", ""))
    except ValueError:
        return None


@login_required
@require_POST
def add(request: HttpRequest) -> HttpResponse:
    try:
        friendship = services.add_friend(request.user, _person_id(request))
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("%(name)s is now your friend.") % {"name": friendship.friend.display_name}
        )
    return redirect("friends:index")


@login_required
@require_POST
def remove(request: HttpRequest) -> HttpResponse:
    try:
        services.remove_friend(request.user, _person_id(request))
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Removed from your friends."))
    return redirect("friends:index")


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    """Invite one friend or partner: the button posts their id, the field a friend's name."""
    try:
        if "name" in request.POST:
            person = services.invite_by_name(game_id, request.user, request.POST["name"])
        else:
            person = services.invite_by_id(game_id, request.user, _person_id(request))
    except TooMany as error:
        return too_many(request, error, game_id)
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Invitation sent to %(name)s.") % {"name": person.display_name})
    # Someone without a seat may not see the game's page (a 404): home, as games does.
    if not Seat.objects.filter(game_id=game_id, user=request.user).exists():
        return redirect("home")
    return redirect("games:detail", game_id)
