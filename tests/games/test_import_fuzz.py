"""Bad input never crashes the import page (issue 13): any file at all is imported and its
replay shows, or it is refused with a form error saying why (400), never a 500. The files
are damaged copies of valid ones (tests/engine/malformed.py); the engine's own fuzz tests
(tests/engine/test_malformed_input.py) run many more through the reader itself."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings

from games.errors import GameError
from games.models import ImportedReplay
from games.services.replays import import_hanablive
from tests.engine.malformed import VALID, game_files

REFUSED = "This file cannot be imported: "
SITE_FUZZ = settings(
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


@pytest.fixture
def logged_in(client, alice):
    client.force_login(alice)
    return client


def upload(client, content: bytes):
    file = SimpleUploadedFile("game.json", content, content_type="application/json")
    return client.post("/games/import/", {"file": file})


def assert_imported_or_refused(client, content: bytes) -> None:
    response = upload(client, content)
    if response.status_code == 302:
        imported = ImportedReplay.objects.latest("pk")
        for turn in (0, len(imported.actions)):
            page = client.get(f"/replays/{imported.pk}/{turn}/")
            assert page.status_code == 200
    else:
        assert response.status_code == 400
        page = response.content.decode()
        assert '<input type="file" name="file"' in page  # the form again, with the error:
        assert REFUSED in page or (content == b"" and "The submitted file is empty" in page)


@pytest.mark.django_db
@settings(SITE_FUZZ, max_examples=400)
@given(content=game_files())
def test_the_import_service_imports_any_file_or_says_why_not(alice, content):
    try:
        imported = import_hanablive(alice, content, "game.json")
    except GameError as error:
        message = str(error)
        assert message.startswith(REFUSED) and len(message) > len(REFUSED)
        assert "\n" not in message
    else:
        imported.refresh_from_db()  # stored as it was read (PostgreSQL refuses some text)
        assert 2 <= len(imported.player_names) <= 6


@pytest.mark.django_db
@settings(SITE_FUZZ, max_examples=40)
@given(content=game_files())
def test_the_import_page_answers_any_file_with_a_replay_or_a_form_error(logged_in, content):
    assert_imported_or_refused(logged_in, content)


# -- one test per kind of crash, through the page ---------------------------------------------


def hanablive_with(**changes) -> bytes:
    data = json.loads(json.dumps(VALID[0]))
    data.update(changes)
    return json.dumps(data).encode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 10_000, "nested too deeply"),  # RecursionError, hidden by a catch-all
        (b'{"a": ' * 10_000, "nested too deeply"),
        (b'{"players": ' + b"9" * 5000 + b"}", "a number too long to read"),
        (hanablive_with(options={"variant": ["No Variant"]}), "is not played here"),  # TypeError
        (b"\xff\xfe\x00", "not UTF-16-LE text"),
        (b"{\xc3}", "not UTF-8 text (byte 1 is b&#x27;\\xc3&#x27;)"),
        (hanablive_with(deck=[[[[[]]]]] * 3), "deck card 0 must be"),
    ],
)
def test_each_crash_input_gets_a_form_error(logged_in, content, message):
    response = upload(logged_in, content)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not ImportedReplay.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "\ud800",  # the replay page failed to encode it: a 500 after a successful import
        "Bob\x00",  # PostgreSQL's jsonb refuses \u0000: a 500 on import
        "Bob\n",
    ],
)
def test_a_player_name_that_cannot_be_shown_gets_a_form_error(logged_in, name):
    data = json.loads(json.dumps(VALID[0]))
    data["players"][1] = name
    response = upload(logged_in, json.dumps(data).encode())
    assert response.status_code == 400
    assert "player 1&#x27;s name" in response.content.decode()
    assert not ImportedReplay.objects.exists()


@pytest.mark.django_db
def test_names_in_any_script_are_imported_and_shown(logged_in):
    data = json.loads(json.dumps(VALID[0]))
    data["players"] = ["Zoë", "李小龍", "👩‍👩‍👧 <b>team</b>", "Ann Lee"]
    response = upload(logged_in, json.dumps(data).encode())
    assert response.status_code == 302
    page = logged_in.get(response.url).content.decode()
    assert "李小龍" in page and "&lt;b&gt;team&lt;/b&gt;" in page
