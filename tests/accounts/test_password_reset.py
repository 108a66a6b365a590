import pytest
from django.core import mail

from tests.accounts.conftest import without_csrf_tokens
from tests.mail import assert_email_contains, link_in

URL = "/accounts/password-reset/"


@pytest.mark.django_db(transaction=True)  # the email goes out when the request commits
def test_the_reset_email_link_lets_the_person_choose_a_new_password(client, alice):
    response = client.post(URL, {"email": "ALICE@example.org"})
    assert response.status_code == 302
    assert response.url == "/accounts/password-reset/sent/"

    (message,) = mail.outbox
    assert message.to == ["alice@example.org"]
    assert message.subject == "Reset your password on Hanabi by post"
    assert_email_contains(message, "Hello Alice,")
    assert_email_contains(message, "The link works once, for 3 days.")
    url = link_in(message)
    assert url.startswith("http://127.0.0.1:8000/accounts/password-reset/")

    # Django swaps the token for a session value and redirects to the form.
    form_url = client.get(url).url
    response = client.get(form_url)
    assert b"Choose a new password" in response.content
    response = client.post(
        form_url,
        {"new_password1": "a-new-starry-password", "new_password2": "a-new-starry-password"},
    )
    assert response.status_code == 302
    assert response.url == "/accounts/password-reset/done/"

    alice.refresh_from_db()
    assert alice.check_password("a-new-starry-password")
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert b"Your password is changed" in client.get(response.url).content

    # The link works once.
    response = client.get(url, follow=True)
    assert b"This reset link does not work" in response.content


@pytest.mark.django_db(transaction=True)  # the email goes out when the request commits
def test_an_unknown_address_gets_the_same_page_and_no_email(client, alice):
    pages = []
    for email in ("alice@example.org", "nobody@example.org"):
        response = client.post(URL, {"email": email}, follow=True)
        pages.append(without_csrf_tokens(response.content))
    assert pages[0] == pages[1]
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)  # the email goes out when the request commits
def test_a_forged_reset_link_says_so(client, alice):
    response = client.get("/accounts/password-reset/MQ/set-password/", follow=True)
    assert response.status_code == 200
    assert b"This reset link does not work" in response.content


@pytest.mark.django_db(transaction=True)  # the email goes out when the request commits
def test_the_pages_answer(client):
    assert b'<label for="id_email"' in client.get(URL).content
    assert client.get("/accounts/password-reset/sent/").status_code == 200
