from allauth.account import views as allauth_views
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm
from accounts.models import User


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        # A copy, so that rejected input never shows up as the name in the header.
        form = ProfileForm(request.POST, instance=User.objects.get(pk=request.user.pk))
        if form.is_valid():
            user = form.save(commit=False)
            user.save(update_fields=ProfileForm.Meta.fields)
            messages.success(request, _("Your profile is saved."))
            return redirect("accounts:profile")
    else:
        form = ProfileForm(instance=request.user)
    return render(request, "accounts/profile.html", {"form": form})


class TooManyAttemptsAre429:
    """allauth checks the per-address limits of log-in and login codes inside the forms, so
    its pages would answer 200: answer them with 429, like every other limit."""

    def form_invalid(self, form) -> HttpResponse:
        response = super().form_invalid(form)
        codes = {error.code for errors in form.errors.as_data().values() for error in errors}
        if "too_many_login_attempts" in codes:
            response.status_code = 429
        return response


class LoginView(TooManyAttemptsAre429, allauth_views.LoginView):
    pass


class RequestLoginCodeView(TooManyAttemptsAre429, allauth_views.RequestLoginCodeView):
    pass
