"""One-click unsubscribe links (RFC 8058) for game emails, and the page they open.

A link is signed for one user and does not expire: an old email's unsubscribe link must keep
working. An email about one game the recipient plays carries a link for that game, which
mutes that game only (issue 25: the same mute as the game page's); its page offers every
game email as a second, explicit choice. A link for no game (a digest, an invitation, and
every link sent before issue 25, whose footer said "Unsubscribe from game emails") turns
every game email off.

Muting is the games app's to do, and accounts stands below games (tests/test_layers.py):
the games app hands its mute to `mutes_games_with` when it starts (games/apps.py).
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.languages import supported
from accounts.models import User

logger = logging.getLogger(__name__)

SALT = "accounts.unsubscribe"

# Mutes one game's emails for one player; False if they hold no seat in it.
GameMute = Callable[[int, User], bool]
_mute_game: GameMute | None = None


def mutes_games_with(mute: GameMute) -> None:
    global _mute_game
    _mute_game = mute


@dataclass(frozen=True)
class Link:
    user: User
    game_id: int | None  # None: every game email


def unsubscribe_url(user: User, game_id: int | None = None) -> str:
    # The payload of a link for no game is the user's id alone, as it was before game links.
    payload = user.pk if game_id is None else [user.pk, game_id]
    token = signing.dumps(payload, salt=SALT)
    return settings.SITE_URL + reverse("accounts:unsubscribe", args=[token])


def link_for_token(token: str) -> Link | None:
    try:
        payload = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    game_id = None
    if isinstance(payload, list) and len(payload) == 2:
        payload, game_id = payload
        if type(game_id) is not int:
            return None
    if type(payload) is not int:
        return None
    user = User.objects.filter(pk=payload).first()
    return None if user is None else Link(user, game_id)


def user_for_token(token: str) -> User | None:
    link = link_for_token(token)
    return None if link is None else link.user


@csrf_exempt  # mail providers POST "List-Unsubscribe=One-Click" with no session or token
@require_http_methods(["GET", "POST"])
def unsubscribe_from_game_emails(request: HttpRequest, token: str) -> HttpResponse:
    """One-click unsubscribe (RFC 8058). Only a POST unsubscribes: link checkers and
    mail scanners fetch the GET, and that must change nothing."""
    link = link_for_token(token)
    if link is None:
        return render(request, "accounts/unsubscribe_invalid.html", status=400)
    # The page speaks the language of the emails it stops (issue 29), whatever browser opens
    # it: a mail provider's, or the person's own.
    with translation.override(supported(link.user.language)):
        response = _unsubscribe_page(request, link)
        response.headers["Content-Language"] = translation.get_language()
    return response


def _unsubscribe_page(request: HttpRequest, link: Link) -> HttpResponse:
    user = link.user
    context = {"email": user.email, "game_id": link.game_id}
    if link.game_id is not None:
        context["all_games_path"] = reverse(
            "accounts:unsubscribe", args=[signing.dumps(user.pk, salt=SALT)]
        )
    if request.method == "GET":
        return render(request, "accounts/unsubscribe.html", context)
    if link.game_id is not None:
        context["seated"] = _mute_game(link.game_id, user)
    elif user.notify != User.Notify.NONE:
        user.notify = User.Notify.NONE
        user.save(update_fields=["notify"])
        logger.info("User %s unsubscribed from game emails", user.pk)
    return render(request, "accounts/unsubscribed.html", context)
