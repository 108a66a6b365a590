"""One-click unsubscribe from game emails (RFC 8058): the link in the List-Unsubscribe
header and in every game email's footer."""

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from accounts.models import User
from accounts.unsubscribe import unsubscribe_url

pytestmark = pytest.mark.django_db

# What a mail provider sends when its reader clicks "Unsubscribe" (RFC 8058, section 3.1).
ONE_CLICK_BODY = "List-Unsubscribe=One-Click"
FORM_ENCODED = "application/x-www-form-urlencoded"


def unsubscribe_path(user: User) -> str:
    url = unsubscribe_url(user)
    assert url.startswith(settings.SITE_URL + "/accounts/unsubscribe/")
    return url.removeprefix(settings.SITE_URL)


def tampered(path: str) -> str:
    token = path.split("/")[-2]
    last = "A" if token[-1] != "A" else "B"
    return path.replace(token, token[:-1] + last)


def mail_provider() -> Client:
    """A client like a mail provider's server: no cookies, no session, and a CSRF check
    that would refuse any POST without a token."""
    return Client(enforce_csrf_checks=True)


def notify_of(user: User) -> str:
    user.refresh_from_db()
    return user.notify


def test_the_page_asks_first_and_changes_nothing(alice):
    # Link checkers and mail scanners fetch every link in an email.
    response = mail_provider().get(unsubscribe_path(alice))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Stop game emails for alice@example.org?</h1>" in html
    assert '<form method="post"' in html
    assert '<input type="hidden" name="List-Unsubscribe" value="One-Click">' in html
    assert '<button type="submit">Stop game emails</button>' in html
    assert 'href="/accounts/profile/"' in html
    assert notify_of(alice) == User.Notify.EVERY_TURN


def test_a_one_click_post_without_cookies_unsubscribes(alice):
    response = mail_provider().post(
        unsubscribe_path(alice), ONE_CLICK_BODY, content_type=FORM_ENCODED
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Game emails are off</h1>" in html
    assert "We will not email alice@example.org about games any more." in html
    assert '<a href="/accounts/profile/">Turn game emails back on in your preferences</a>' in html
    assert notify_of(alice) == User.Notify.NONE


def test_the_button_on_the_page_unsubscribes(client, alice):
    response = client.post(unsubscribe_path(alice), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert notify_of(alice) == User.Notify.NONE


def test_a_daily_digest_can_be_unsubscribed_too(alice):
    alice.notify = User.Notify.DAILY_DIGEST
    alice.save(update_fields=["notify"])
    mail_provider().post(unsubscribe_path(alice), ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert notify_of(alice) == User.Notify.NONE


def test_unsubscribing_twice_is_fine(alice):
    path = unsubscribe_path(alice)
    for _ in range(2):
        response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
        assert response.status_code == 200
    assert notify_of(alice) == User.Notify.NONE


def test_the_link_unsubscribes_only_its_owner(alice, bob):
    mail_provider().post(unsubscribe_path(alice), ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert notify_of(bob) == User.Notify.EVERY_TURN


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_tampered_link_says_it_is_broken_and_changes_nothing(alice, method):
    path = tampered(unsubscribe_path(alice))
    if method == "GET":
        response = mail_provider().get(path)
    else:
        response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 400
    html = response.content.decode()
    assert "<h1>This unsubscribe link is broken</h1>" in html
    assert "Nothing has been changed." in html
    assert 'href="/accounts/profile/"' in html
    assert notify_of(alice) == User.Notify.EVERY_TURN


@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        # Signed by this site, but for something else: not an unsubscribe link.
        signing.dumps(1),
        signing.dumps(1, salt="accounts.login"),
    ],
    # Signed tokens hold the time: named, so that every pytest-xdist worker collects the same.
    ids=["nonsense", "signed-unsalted", "signed-for-login"],
)
def test_other_tokens_are_refused(alice, token):
    path = f"/accounts/unsubscribe/{token}/"
    response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 400
    assert notify_of(alice) == User.Notify.EVERY_TURN


def test_the_link_of_a_deleted_account_is_refused_politely(alice):
    path = unsubscribe_path(alice)
    alice.delete()
    response = mail_provider().post(path, ONE_CLICK_BODY, content_type=FORM_ENCODED)
    assert response.status_code == 400
    assert "This unsubscribe link is broken" in response.content.decode()
