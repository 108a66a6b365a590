import pytest

from accounts.models import User
from tests.conftest import PASSWORD

URL = "/accounts/signup/"
URL_PROFILE = "/accounts/profile/"


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "email": "dora@example.org",
        "display_name": "Dora",
        "password1": "fireworks-in-five-colours",
        "password2": "fireworks-in-five-colours",
    }
    return {**data, **overrides}


@pytest.mark.django_db
def test_the_form_has_a_label_for_every_field(client):
    response = client.get(URL)
    assert response.status_code == 200
    for field in ("email", "display_name", "password1", "password2"):
        assert f'<label for="id_{field}"' in response.content.decode()


@pytest.mark.django_db
def test_signing_up_creates_the_user_and_logs_in(client):
    response = client.post(URL, signup_data())
    assert response.status_code == 302
    assert response.url == "/"

    user = User.objects.get(email="dora@example.org")
    assert user.display_name == "Dora"
    assert user.check_password("fireworks-in-five-colours")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert b'<a class="who" href="/accounts/profile/">Dora</a>' in client.get(URL_PROFILE).content


@pytest.mark.django_db
def test_signing_up_goes_to_next(client):
    response = client.post(URL + "?next=/games/7/", signup_data())
    assert response.url == "/games/7/"


@pytest.mark.django_db
def test_next_survives_a_rejected_form(client):
    response = client.post(URL + "?next=/games/7/", signup_data(password2="different"))
    assert 'name="next" value="/games/7/"' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "next_url", ["https://evil.example/", "//evil.example/", "/\\evil.example/", "javascript:x"]
)
def test_an_off_site_next_is_ignored(client, next_url):
    response = client.post(URL, {**signup_data(), "next": next_url})
    assert response.status_code == 302
    assert response.url == "/"


@pytest.mark.django_db
def test_a_taken_email_is_refused_whatever_its_case(client, alice):
    response = client.post(URL, signup_data(email="ALICE@Example.org"))
    assert response.status_code == 200
    assert "An account with this email address already exists." in response.content.decode()
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_error_is_tied_to_its_field(client, alice):
    response = client.post(URL, signup_data(email="alice@example.org"))
    html = response.content.decode()
    assert 'id="id_email_error"' in html
    assert 'aria-invalid="true"' in html
    assert 'aria-describedby="id_email_error"' in html


@pytest.mark.django_db
def test_passwords_must_match_and_pass_the_validators(client):
    response = client.post(URL, signup_data(password2="something-else-entirely"))
    assert "The two password fields didn’t match." in response.content.decode()

    response = client.post(URL, signup_data(password1="12345678", password2="12345678"))
    assert "This password is too common." in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_a_logged_in_person_is_sent_on(client, alice):
    client.force_login(alice)
    response = client.get(URL + "?next=/games/3/")
    assert response.url == "/games/3/"


@pytest.mark.django_db
def test_login_accepts_the_email_in_any_case(client, alice):
    response = client.post("/login/", {"username": "ALICE@example.org", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.django_db
def test_the_database_refuses_two_addresses_that_differ_only_in_case(alice):
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        User.objects.create_user("Alice@example.org", PASSWORD)
