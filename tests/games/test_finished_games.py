import json

from django.core.files.uploadedfile import SimpleUploadedFile

from games.engine import from_hanablive, replay
from games.models import ImportedReplay
from tests.games.conftest import play_to_the_end, start_game


def test_a_finished_game_opens_on_its_last_turn_with_every_hand_revealed(client, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/", follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/replay/{game.turn}/"
    page = response.content.decode()
    assert f"Final score: {game.score}" in page
    state = game.load_state()
    for cid in state.hand(0) + state.hand(1):
        assert state.card(cid).name in page
    assert "Your hand" not in page


def test_the_replay_steps_through_every_turn(client, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(bob)
    first = client.get(f"/games/{game.pk}/replay/0/").content.decode()
    assert "The cards are dealt." in first and f"Turn 1 of {game.turn + 1}" in first
    assert f'href="/games/{game.pk}/replay/1/"' in first
    middle = client.get(f"/games/{game.pk}/replay/3/").content.decode()
    assert f'href="/games/{game.pk}/replay/2/"' in middle
    assert f'href="/games/{game.pk}/replay/4/"' in middle
    assert "Last move:" in middle
    assert client.get(f"/games/{game.pk}/replay/{game.turn + 1}/").status_code == 404
    partial = client.get(f"/games/{game.pk}/replay/2/", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="replay"')


def test_the_download_is_hanab_live_json_of_the_same_game(client, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    imported = from_hanablive(data)
    assert data["players"] == game.seat_names()
    original = game.load_state()
    again = replay(imported.options, imported.deck, imported.actions)
    assert again.score == original.score and again.end == original.end


def test_a_game_hanab_live_cannot_hold_downloads_as_the_sites_own_record(client, alice, bob):
    """Never an HTML page (issue 27): tests/games/test_export_roundtrip.py reads every
    option combination back."""
    game = play_to_the_end(start_game(alice, bob, fuses=2))
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["format"] == "hanabi-engine/1"


def test_importing_a_hanab_live_file_opens_its_replay(client, alice, bob):
    game = play_to_the_end(start_game(alice, bob))
    client.force_login(alice)
    exported = client.get(f"/games/{game.pk}/export.json").content
    upload = SimpleUploadedFile("game.json", exported, content_type="application/json")
    response = client.post("/games/import/", {"file": upload}, follow=True)
    record = ImportedReplay.objects.get(owner=alice)
    assert response.redirect_chain[-1][0] == f"/replays/{record.pk}/0/"
    assert "Imported game" in response.content.decode()
    last = client.get(f"/replays/{record.pk}/{len(record.actions)}/").content.decode()
    assert f"Final score: {game.score}" in last
    client.force_login(bob)
    assert client.get(f"/replays/{record.pk}/0/").status_code == 404


def test_a_malformed_import_gets_a_clear_message_and_stores_nothing(client, alice):
    client.force_login(alice)
    cases = {
        b"not json at all": "not JSON",
        b'{"players": ["a", "b"]}': "cannot be imported",
        json.dumps(
            {"players": ["a", "b"], "deck": [], "actions": [], "options": {"variant": "Mix"}}
        ).encode(): "cannot be imported",
    }
    for content, message in cases.items():
        upload = SimpleUploadedFile("bad.json", content, content_type="application/json")
        response = client.post("/games/import/", {"file": upload})
        assert response.status_code == 400
        assert message in response.content.decode()
    assert not ImportedReplay.objects.exists()
