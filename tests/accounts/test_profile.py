import pytest

from accounts.models import User
from tests.accounts.conftest import PASSWORD

URL = "/accounts/profile/"


@pytest.mark.django_db
def test_the_profile_needs_a_login(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url == "/login/?next=/accounts/profile/"


@pytest.mark.django_db
def test_the_profile_shows_the_current_values_with_labels(client, alice):
    client.force_login(alice)
    html = client.get(URL).content.decode()
    assert '<label for="id_display_name"' in html
    assert '<label for="id_email"' in html
    assert 'value="Alice"' in html
    assert 'value="alice@example.org"' in html
    assert 'href="/accounts/password-change/"' in html


@pytest.mark.django_db
def test_changing_the_display_name_and_email(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"display_name": "Alice B.", "email": "alice@Example.NET"})
    assert response.status_code == 302
    assert response.url == URL

    alice.refresh_from_db()
    assert alice.display_name == "Alice B."
    assert alice.email == "alice@example.net"
    assert "Your profile is saved." in client.get(URL).content.decode()


@pytest.mark.django_db
def test_a_taken_email_is_refused_and_nothing_changes(client, alice, bob):
    client.force_login(alice)
    response = client.post(URL, {"display_name": "Mallory", "email": "BOB@example.org"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "An account with this email address already exists." in html
    assert 'id="id_email_error"' in html
    # The rejected name is not shown as who is logged in.
    assert '<a class="who" href="/accounts/profile/">Alice</a>' in html

    alice.refresh_from_db()
    assert (alice.display_name, alice.email) == ("Alice", "alice@example.org")


@pytest.mark.django_db
def test_keeping_ones_own_email_in_another_case_is_fine(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"display_name": "Alice", "email": "Alice@example.org"})
    assert response.status_code == 302


@pytest.mark.django_db
def test_an_empty_display_name_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"display_name": "   ", "email": "alice@example.org"})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.django_db
def test_changing_the_password_keeps_the_person_logged_in(client, alice):
    client.force_login(alice)
    assert b'<label for="id_old_password"' in client.get("/accounts/password-change/").content
    response = client.post(
        "/accounts/password-change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-password",
            "new_password2": "another-long-password",
        },
    )
    assert response.status_code == 302
    assert response.url == URL
    assert User.objects.get(pk=alice.pk).check_password("another-long-password")
    response = client.get(URL)
    assert response.status_code == 200
    assert "Your password is changed." in response.content.decode()


@pytest.mark.django_db
def test_a_wrong_old_password_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(
        "/accounts/password-change/",
        {
            "old_password": "wrong",
            "new_password1": "another-long-password",
            "new_password2": "another-long-password",
        },
    )
    assert response.status_code == 200
    assert User.objects.get(pk=alice.pk).check_password(PASSWORD)
