import re

import pytest

from accounts.models import User
from tests.conftest import PASSWORD

URL = "/accounts/profile/"


def checked_radio(html: str, name: str) -> str:
    (value,) = re.findall(rf'<input type="radio" name="{name}" value="(\w+)"[^>]* checked>', html)
    return value


def profile_form(**changes: str) -> dict[str, str]:
    """Alice's profile as the form posts it, with `changes`."""
    return {
        "display_name": "Alice",
        "email": "alice@example.org",
        "notify": "every_turn",
        "time_zone": "UTC",
        **changes,
    }


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
    response = client.post(URL, profile_form(display_name="Alice B.", email="alice@Example.NET"))
    assert response.status_code == 302
    assert response.url == URL

    alice.refresh_from_db()
    assert alice.display_name == "Alice B."
    assert alice.email == "alice@example.net"
    assert "Your profile is saved." in client.get(URL).content.decode()


@pytest.mark.django_db
def test_a_taken_email_is_refused_and_nothing_changes(client, alice, bob):
    client.force_login(alice)
    response = client.post(URL, profile_form(display_name="Mallory", email="BOB@example.org"))
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
    response = client.post(
        URL, profile_form(display_name="Alice C.", email="Alice@example.org"), follow=True
    )
    # Saved, not refused as "taken" by her own account: back on the profile with the message.
    assert response.redirect_chain == [(URL, 302)]
    html = response.content.decode()
    assert "Your profile is saved." in html
    assert "already exists" not in html
    assert 'value="Alice C."' in html

    alice.refresh_from_db()
    assert alice.display_name == "Alice C."
    assert alice.email == "Alice@example.org"  # as she typed it
    assert User.objects.filter(email__iexact="alice@example.org").count() == 1
    client.logout()
    assert client.login(username="alice@example.org", password=PASSWORD)


@pytest.mark.django_db
def test_an_empty_display_name_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(URL, profile_form(display_name="   "))
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.django_db
def test_the_email_preferences_are_radio_buttons_in_a_named_group(client, alice):
    client.force_login(alice)
    html = client.get(URL).content.decode()
    assert "<legend>Game emails:</legend>" in html
    for value in ("every_turn", "daily_digest", "none"):
        assert f'type="radio" name="notify" value="{value}"' in html
    assert checked_radio(html, "notify") == "every_turn"


@pytest.mark.django_db
def test_the_time_zone_is_a_list_of_real_zones(client, alice):
    client.force_login(alice)
    html = client.get(URL).content.decode()
    assert '<select name="time_zone"' in html
    assert '<option value="UTC" selected>UTC</option>' in html
    assert '<option value="America/New_York">America/New York</option>' in html
    assert 'value="localtime"' not in html  # the server's zone, not a place


@pytest.mark.django_db
def test_changing_the_email_preferences_and_time_zone(client, alice):
    client.force_login(alice)
    response = client.post(URL, profile_form(notify="daily_digest", time_zone="Europe/Paris"))
    assert response.status_code == 302

    alice.refresh_from_db()
    assert (alice.notify, alice.time_zone) == (User.Notify.DAILY_DIGEST, "Europe/Paris")
    html = client.get(URL).content.decode()
    assert '<option value="Europe/Paris" selected>' in html
    assert checked_radio(html, "notify") == "daily_digest"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("notify", "every_hour"),
        ("notify", ""),
        ("time_zone", "Mars/Olympus_Mons"),
        ("time_zone", "../../etc/passwd"),
        ("time_zone", "localtime"),
        ("time_zone", ""),
    ],
)
def test_a_bad_preference_is_refused_and_nothing_changes(client, alice, field, value):
    client.force_login(alice)
    changes = {"display_name": "Alice B.", "notify": "none", "time_zone": "Asia/Tokyo"}
    response = client.post(URL, profile_form(**{**changes, field: value}))
    assert response.status_code == 200
    assert f'id="id_{field}_error"' in response.content.decode()

    alice.refresh_from_db()
    assert (alice.display_name, alice.notify, alice.time_zone) == (
        "Alice",
        User.Notify.EVERY_TURN,
        "UTC",
    )


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
