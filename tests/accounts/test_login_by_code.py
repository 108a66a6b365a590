"""Logging in with a code sent by email (allauth's login by code): single use, short-lived,
a few wrong guesses and it is void; the page is the same whether or not the account
exists."""

import pytest
from django.core import mail

from outbox.models import Outbox
from tests.accounts.conftest import code_in, send_account_emails, without_csrf_tokens

URL = "/accounts/login/code/"
CONFIRM = "/accounts/login/code/confirm/"


def ask_for_code(client, email: str, next_path: str = ""):
    url = URL + (f"?next={next_path}" if next_path else "")
    response = client.post(url, {"email": email})
    assert response.status_code == 302
    return response


@pytest.mark.django_db
def test_the_code_arrives_through_the_outbox_and_logs_in_once(client, alice):
    response = ask_for_code(client, "Alice@Example.org", next_path="/games/12/")
    assert response.url.startswith(CONFIRM)
    (message,) = send_account_emails()
    assert message.to == ["alice@example.org"]
    assert message.subject == "Hanabi: your login code"
    code = code_in(message)
    # The row kept the code only until it was sent.
    (row,) = Outbox.objects.filter(kind="account_email")
    assert code not in str(row.payload)

    response = client.post(response.url, {"code": code})
    assert response.status_code == 302
    assert response.url == "/games/12/"
    assert client.session["_auth_user_id"] == str(alice.pk)

    # Single use: the same code does not log in again.
    client.logout()
    response = client.post(CONFIRM, {"code": code})
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_three_wrong_codes_void_it(client, alice):
    ask_for_code(client, alice.email)
    code = code_in(send_account_emails()[0])
    for _ in range(3):
        client.post(CONFIRM, {"code": "WRONG1"})
    response = client.post(CONFIRM, {"code": code})
    assert "_auth_user_id" not in client.session
    assert response.status_code == 302  # back to asking for a code
    assert response.url.startswith(URL)


@pytest.mark.django_db
def test_the_code_expires(client, alice, settings):
    from unittest import mock

    ask_for_code(client, alice.email)
    code = code_in(send_account_emails()[0])
    later = settings.ACCOUNT_LOGIN_BY_CODE_TIMEOUT + 1
    import time

    now = time.time()
    with mock.patch("time.time", return_value=now + later):
        client.post(CONFIRM, {"code": code})
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_page_is_the_same_whether_or_not_the_account_exists(client, alice):
    pages = []
    for email in ("alice@example.org", "nobody@example.org"):
        response = client.post(URL, {"email": email}, follow=True)
        assert response.status_code == 200
        pages.append(without_csrf_tokens(response.content).replace(email, "EMAIL"))
        client.logout()
    assert pages[0] == pages[1]
    # The unknown address is told there is no account there, never given a code.
    sent = send_account_emails()
    assert [m.to for m in sent] == [["alice@example.org"], ["nobody@example.org"]]
    assert "nobody" in sent[1].to[0]
    assert sent[1].subject == "Hanabi: no account for this address"


@pytest.mark.django_db
def test_a_suspended_account_gets_no_session_from_a_code(client, alice):
    from datetime import timedelta

    from django.utils import timezone

    alice.suspended_until = timezone.now() + timedelta(days=1)
    alice.save(update_fields=["suspended_until"])
    ask_for_code(client, alice.email)
    code = code_in(send_account_emails()[0])
    client.post(CONFIRM, {"code": code})
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_no_email_goes_out_before_the_request_commits(client, alice):
    ask_for_code(client, alice.email)
    assert mail.outbox == []  # a worker sends it, after commit
