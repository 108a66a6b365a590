import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from accounts import links, unsubscribe
from accounts.forms import ProfileForm
from accounts.models import User

logger = logging.getLogger(__name__)


def _after_login_url(next_path: str) -> str:
    return next_path or resolve_url(settings.LOGIN_REDIRECT_URL)


@require_GET
def link(request: HttpRequest) -> HttpResponse:
    """Every signed link from an email lands here (see accounts.links)."""
    checked = links.check_link(request.GET)
    destination = _after_login_url(checked.next_path)
    if checked.user is not None:
        login(request, checked.user)  # sesame's backend set user.backend
        return redirect(destination)
    if checked.expired_for is not None and checked.expired_for == request.user:
        # An old link in the hands of the person already logged in: just go there.
        return redirect(destination)

    # Expired or broken: a friendly page offering a way in, never an error page.
    context = {"expired": checked.expired_for is not None, "next": checked.next_path}
    return render(request, "accounts/link_invalid.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        # A copy, so that rejected input never shows up as the name in the header.
        form = ProfileForm(request.POST, instance=User.objects.get(pk=request.user.pk))
        if form.is_valid():
            user = form.save(commit=False)
            user.save(update_fields=ProfileForm.Meta.fields)
            messages.success(request, "Your profile is saved.")
            return redirect("accounts:profile")
    else:
        form = ProfileForm(instance=request.user)
    return render(request, "accounts/profile.html", {"form": form})


@csrf_exempt  # mail providers POST "List-Unsubscribe=One-Click" with no session or token
@require_http_methods(["GET", "POST"])
def unsubscribe_from_game_emails(request: HttpRequest, token: str) -> HttpResponse:
    """One-click unsubscribe (RFC 8058). Only a POST unsubscribes: link checkers and
    mail scanners fetch the GET, and that must change nothing."""
    user = unsubscribe.user_for_token(token)
    if user is None:
        return render(request, "accounts/unsubscribe_invalid.html", status=400)
    if request.method == "POST":
        if user.notify != User.Notify.NONE:
            user.notify = User.Notify.NONE
            user.save(update_fields=["notify"])
            logger.info("User %s unsubscribed from game emails", user.pk)
        return render(request, "accounts/unsubscribed.html", {"email": user.email})
    return render(request, "accounts/unsubscribe.html", {"email": user.email})
