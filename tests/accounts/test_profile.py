import re

import pytest

from accounts.models import User

URL = "/accounts/profile/"


def checked_radio(html: str, name: str) -> str:
    (value,) = re.findall(rf'<input type="radio" name="{name}" value="(\w+)"[^>]* checked>', html)
    return value


def profile_form(**changes: str) -> dict[str, str]:
    """Alice's profile as the form posts it, with `changes`."""
    return {
        "display_name": "Alice",
        "notify": "every_turn",
        "time_zone": "UTC",
        "language": "en",
        **changes,
    }


@pytest.mark.django_db
def test_the_profile_needs_a_login(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/accounts/profile/"


@pytest.mark.django_db
def test_the_profile_shows_the_current_values_with_labels(client, alice):
    client.force_login(alice)
    html = client.get(URL).content.decode()
    assert '<label for="id_display_name"' in html
    assert 'name="email"' not in html  # changed on allauth's page, with reauthentication
    assert 'value="Alice"' in html
    assert "alice@example.org" in html
    assert 'href="/accounts/email/"' in html
    assert 'href="/accounts/password/change/"' in html


@pytest.mark.django_db
def test_changing_the_display_name(client, alice):
    client.force_login(alice)
    response = client.post(URL, profile_form(display_name="Alice B.", email="x@example.net"))
    assert response.status_code == 302
    assert response.url == URL

    alice.refresh_from_db()
    assert alice.display_name == "Alice B."
    assert alice.email == "alice@example.org"  # the form has no email field
    assert "Your profile is saved." in client.get(URL).content.decode()


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
