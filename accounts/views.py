import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.messages.views import SuccessMessageMixin
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from accounts import links, unsubscribe
from accounts.forms import EMAIL_TAKEN, LoginLinkForm, ProfileForm, SignupForm
from accounts.models import User
from outbox.delivery import schedule
from outbox.models import Outbox

logger = logging.getLogger(__name__)

# With two authentication backends, login() must be told which one vouched for the user.
PASSWORD_BACKEND = "accounts.backends.PasswordBackend"
# The address a login link was asked for, shown on the "check your inbox" page.
LOGIN_LINK_SENT_TO = "accounts.login_link_sent_to"


def _local_next(value: str | None) -> str:
    """`value` if it is a path on this site, else "": never redirect off-site."""
    return value if value and links.is_local_path(value) else ""


def _after_login_url(next_path: str) -> str:
    return next_path or resolve_url(settings.LOGIN_REDIRECT_URL)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_path = _local_next(request.POST.get("next") or request.GET.get("next"))
    if request.user.is_authenticated:
        return redirect(_after_login_url(next_path))

    form = SignupForm(request.POST) if request.method == "POST" else SignupForm()
    if form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the address between the check and the insert.
            form.add_error("email", EMAIL_TAKEN)
        else:
            login(request, user, backend=PASSWORD_BACKEND)
            messages.success(request, f"Welcome, {user.display_name}! Your account is ready.")
            return redirect(_after_login_url(next_path))

    return render(request, "accounts/signup.html", {"form": form, "next": next_path})


def _send_login_link(email: str, next_path: str) -> None:
    """An outbox row, so that the page reads the same (and as fast) whether or not the
    account exists, and a mail failure is retried rather than shown."""
    user = User.objects.filter(email__iexact=email, is_active=True).first()
    if user is None:
        return
    next_path = next_path or resolve_url(settings.LOGIN_REDIRECT_URL)
    schedule(Outbox.Kind.LOGIN_LINK, {"user": user.pk, "next": next_path})


@require_http_methods(["GET", "POST"])
def login_link(request: HttpRequest) -> HttpResponse:
    """Ask for a link that logs in without a password."""
    if request.method == "POST":
        form = LoginLinkForm(request.POST)
        if form.is_valid():
            email = form.cleaned_data["email"]
            _send_login_link(email, _local_next(form.cleaned_data["next"]))
            request.session[LOGIN_LINK_SENT_TO] = email
            return redirect("accounts:login_link_sent")
    else:
        form = LoginLinkForm(initial={"next": _local_next(request.GET.get("next"))})
    return render(request, "accounts/login_link.html", {"form": form})


@require_GET
def login_link_sent(request: HttpRequest) -> HttpResponse:
    email = request.session.get(LOGIN_LINK_SENT_TO, "")
    context = {"email": email, "valid_minutes": links.LOGIN_LINK_MAX_AGE // 60}
    return render(request, "accounts/login_link_sent.html", context)


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

    # Expired or broken: a friendly page offering a fresh link, never an error page.
    owner = checked.expired_for
    form = LoginLinkForm(initial={"email": owner.email if owner else "", "next": checked.next_path})
    context = {"form": form, "expired": owner is not None}
    return render(request, "accounts/link_invalid.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        # A copy, so that rejected input never shows up as the name in the header.
        form = ProfileForm(request.POST, instance=User.objects.get(pk=request.user.pk))
        if form.is_valid():
            user = form.save(commit=False)
            try:
                with transaction.atomic():
                    user.save(update_fields=ProfileForm.Meta.fields)
            except IntegrityError:
                form.add_error("email", EMAIL_TAKEN)
            else:
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


class PasswordChangeView(SuccessMessageMixin, auth_views.PasswordChangeView):
    success_url = reverse_lazy("accounts:profile")
    success_message = "Your password is changed."
