"""The import page's size limit (games/services/replays.py MAX_IMPORT_BYTES): one byte over
is refused with a clear message and nothing stored; a file at the limit is read whole."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.engine import GameOptions, new_deck, to_hanablive
from games.models import ImportedReplay
from games.services.replays import MAX_IMPORT_BYTES

TOO_LARGE = "This file cannot be imported: the file is larger than 1 MB"
NOT_JSON = "This file cannot be imported: the file is not JSON"


def hanablive_file(size: int) -> bytes:
    """A valid hanab.live game (dealt, no move yet), padded with spaces to `size` bytes: only
    its size can be wrong with it."""
    options = GameOptions(players=2)
    game = json.dumps(to_hanablive(options, list(new_deck(options, 1)), [], ["Ann", "Ben"]))
    content = game.encode()
    assert len(content) < size
    return content + b" " * (size - len(content))


def upload(client, content: bytes):
    file = SimpleUploadedFile("game.json", content, content_type="application/json")
    return client.post("/games/import/", {"file": file})


@pytest.fixture
def logged_in(client, alice):
    client.force_login(alice)
    return client


def test_the_limit_is_the_megabyte_the_message_names():
    assert MAX_IMPORT_BYTES == 1_000_000


def test_a_file_one_byte_over_the_limit_is_refused_and_nothing_is_stored(logged_in):
    response = upload(logged_in, hanablive_file(MAX_IMPORT_BYTES + 1))
    assert response.status_code == 400
    page = response.content.decode()
    assert TOO_LARGE in page
    assert '<input type="file" name="file"' in page  # the form again, to choose another file
    assert not ImportedReplay.objects.exists()


def test_a_much_larger_file_gets_the_same_message(logged_in):
    response = upload(logged_in, hanablive_file(3 * MAX_IMPORT_BYTES))
    assert response.status_code == 400
    assert TOO_LARGE in response.content.decode()
    assert not ImportedReplay.objects.exists()


def test_a_file_at_the_limit_that_is_not_json_says_so(logged_in):
    response = upload(logged_in, b"x" * MAX_IMPORT_BYTES)
    assert response.status_code == 400
    page = response.content.decode()
    assert NOT_JSON in page
    assert "larger than 1 MB" not in page
    assert not ImportedReplay.objects.exists()


def test_a_game_file_at_the_limit_is_imported(logged_in, alice):
    response = upload(logged_in, hanablive_file(MAX_IMPORT_BYTES))
    (imported,) = ImportedReplay.objects.filter(owner=alice)
    assert response.status_code == 302
    assert response.url == f"/replays/{imported.pk}/0/"
    assert imported.player_names == ["Ann", "Ben"]
