"""Password reset (allauth): a link by email, through the outbox; the same page whether
or not the account exists."""

import pytest

from accounts.models import User
from tests.accounts.conftest import send_account_emails, url_in, without_csrf_tokens

URL = "/accounts/password/reset/"
NEW_PASSWORD = "a-brand-new-hanabi-password"


@pytest.mark.django_db
def test_the_reset_link_lets_the_person_choose_a_new_password(client, alice):
    response = client.post(URL, {"email": "Alice@example.org"})
    assert response.status_code == 302
    assert response.url == "/accounts/password/reset/done/"
    (message,) = send_account_emails()
    assert message.to == ["alice@example.org"]
    url = url_in(message)
    assert url.startswith("http://127.0.0.1:8000/accounts/password/reset/key/")

    # The key page redirects to a form without the key in its address.
    response = client.get(url.removeprefix("http://127.0.0.1:8000"), follow=True)
    form_path = response.redirect_chain[-1][0]
    assert "<h1>Choose a new password</h1>" in response.content.decode()
    response = client.post(form_path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)

    # The link works once.
    response = client.get(url.removeprefix("http://127.0.0.1:8000"), follow=True)
    assert "This link does not work" in response.content.decode()
    # The account is told its password changed.
    notices = send_account_emails()[1:]
    assert [m.subject for m in notices] == ["Hanabi: your password was reset"]


@pytest.mark.django_db
def test_an_unknown_address_gets_the_same_page(client, alice):
    pages = []
    for email in ("alice@example.org", "nobody@example.org"):
        response = client.post(URL, {"email": email}, follow=True)
        pages.append(without_csrf_tokens(response.content))
    assert pages[0] == pages[1]
    assert "If an account uses that address" in pages[0]
    sent = send_account_emails()
    assert [m.to for m in sent] == [["alice@example.org"], ["nobody@example.org"]]
    assert "/accounts/password/reset/key/" not in sent[1].body  # no key for nobody


@pytest.mark.django_db
def test_a_forged_reset_link_says_so(client, alice):
    response = client.get("/accounts/password/reset/key/1-forged/", follow=True)
    assert "This link does not work" in response.content.decode()
    assert User.objects.get(pk=alice.pk).check_password("a-long-hanabi-password")


@pytest.mark.django_db
def test_the_reset_link_expires_after_three_days(client, alice, settings, monkeypatch):
    from datetime import datetime, timedelta

    from django.contrib.auth.tokens import PasswordResetTokenGenerator

    assert settings.PASSWORD_RESET_TIMEOUT == 3 * 24 * 3600  # as docs/SECURITY.md says
    client.post(URL, {"email": alice.email})
    (message,) = send_account_emails()
    later = datetime.now() + timedelta(days=3, minutes=1)
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", lambda self: later)
    response = client.get(url_in(message).removeprefix("http://127.0.0.1:8000"), follow=True)
    assert "This link does not work" in response.content.decode()
