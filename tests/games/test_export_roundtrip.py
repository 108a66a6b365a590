"""Issue 27: every finished game downloads, and the import reads every download back. For
every option combination the new-game form allows, a game played to its end (short: clues
and blind plays until the fuses burn) exports as hanab.live JSON when hanab.live can hold it
and as this site's own record otherwise, and imports back to the same options, deck, actions
and names. Then the same through the pages, for a 1-fuse and a 3-fuse game of the site."""

import itertools
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.engine import Clue, GameOptions, Play, Rearrange, action_to_dict, new_game
from games.engine.record import RECORD_FORMAT
from games.errors import GameError
from games.models import ImportedReplay
from games.services import play, replays
from tests.games.conftest import current_user, start_game

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]
# What games/forms.py's NewGameForm offers: 2-6 players, the four multicolour variants,
# play until perfect or not, 1-3 fuses, empty clues or not.
COMBINATIONS = list(
    itertools.product(range(2, 7), (0, 1, 2, 3), (False, True), (1, 2, 3), (False, True))
)


def short_game(options: GameOptions, seed: int) -> tuple[list, list]:
    """The deck and the actions of a game played to its end: a clue (a different one each
    time, so that colour, rank and, where allowed, empty clues all occur), then a blind play
    of the newest card, which burns a fuse more often than not. With the option of
    rearranging, the mover first moves their oldest card to slot 1 (issue 27)."""
    state = new_game(options, seed=seed)
    while not state.is_over:
        hand = state.hand(state.turn % options.players)
        if options.rearrange and len(hand) > 1:
            state.apply(Rearrange(state.turn % options.players, hand[-1], 1))
        legal = state.legal_actions()
        clues = [action for action in legal if isinstance(action, Clue)]
        if state.turn % 2 == 0 and clues:
            action = clues[(state.turn * 7) % len(clues)]
        else:
            action = Play(state.hand(state.turn % options.players)[-1])
        state.apply(action)
    return list(state.deck), list(state.actions)


@pytest.mark.django_db
@pytest.mark.parametrize("players,multicolour,until_perfect,fuses,empty_clues", COMBINATIONS)
def test_every_download_imports_back_to_the_same_game(
    alice, players, multicolour, until_perfect, fuses, empty_clues
):
    options = GameOptions(players, multicolour, until_perfect, fuses, empty_clues)
    deck, actions = short_game(options, seed=players * 100 + multicolour * 10 + fuses)
    names = NAMES[:players]
    record = {"options": options, "deck_source": deck, "actions": actions, "names": names}

    download = replays.download(record)
    content = json.dumps(download.data).encode()
    imported = replays.import_game_file(alice, content, "game.json")

    # hanab.live always plays with 3 fuses: only then is the file hanab.live's.
    assert download.is_hanablive == (fuses == 3)
    assert ("format" in download.data) == (fuses != 3)
    imported.refresh_from_db()
    assert imported.options == options.to_dict()
    assert imported.deck == [list(card) for card in deck]
    assert imported.actions == [action_to_dict(action) for action in actions]
    assert imported.player_names == names


# Every combination of the variants, with rearranging on, the players cycling 2 to 6.
REARRANGING = [
    (2 + index % 5, *variant)
    for index, variant in enumerate(
        itertools.product((0, 1, 2, 3), (False, True), (1, 2, 3), (False, True))
    )
]


@pytest.mark.django_db
@pytest.mark.parametrize("players,multicolour,until_perfect,fuses,empty_clues", REARRANGING)
def test_a_game_with_rearranging_downloads_as_the_sites_record_and_imports_back(
    alice, players, multicolour, until_perfect, fuses, empty_clues
):
    """hanab.live JSON has no rearranging: the site's own record, which keeps every move of a
    card within a hand where it was made, and imports back to the same game."""
    options = GameOptions(players, multicolour, until_perfect, fuses, empty_clues, rearrange=True)
    deck, actions = short_game(options, seed=players * 100 + multicolour * 10 + fuses)
    assert any(isinstance(action, Rearrange) for action in actions)
    names = NAMES[:players]
    record = {"options": options, "deck_source": deck, "actions": actions, "names": names}

    download = replays.download(record)
    imported = replays.import_game_file(alice, json.dumps(download.data).encode(), "game.json")

    assert not download.is_hanablive and download.data["format"] == RECORD_FORMAT
    imported.refresh_from_db()
    assert imported.options == options.to_dict() and imported.options["rearrange"] is True
    assert imported.deck == [list(card) for card in deck]
    assert imported.actions == [action_to_dict(action) for action in actions]
    assert imported.player_names == names


def test_the_short_games_cover_every_kind_of_clue():
    """The round trip above would miss a wrong colour index if no game clued a colour."""
    seen = set()
    for players, multicolour, until_perfect, fuses, empty_clues in COMBINATIONS:
        options = GameOptions(players, multicolour, until_perfect, fuses, empty_clues)
        _, actions = short_game(options, seed=players * 100 + multicolour * 10 + fuses)
        for action in actions:
            if isinstance(action, Clue):
                seen.add((multicolour, "colour" if action.colour else "rank"))
    assert seen == {(variant, kind) for variant in range(4) for kind in ("colour", "rank")}


# -- the site's own records are read as strictly as hanab.live files ------------------------


def site_record() -> dict:
    """The download of a finished 1-fuse game: this site's record."""
    options = GameOptions(2, fuses=1)
    deck, actions = short_game(options, seed=5)
    record = {"options": options, "deck_source": deck, "actions": actions, "names": NAMES[:2]}
    return replays.download(record).data


def one_more_action(data: dict) -> dict:
    return {"actions": [*data["actions"], data["actions"][-1]]}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes,message",
    [
        (lambda data: {"players": ["Ann", "B\x00n"]}, "player 1's name must be 1 to 100"),
        (lambda data: {"players": ["Ann", ""]}, "player 1's name must be 1 to 100"),
        (lambda data: {"actions": [{"type": "discard", "card_id": 0}]}, "action 0 (Ann disc"),
        (one_more_action, "comes after the end of the game"),
        (lambda data: {"options": {"players": 2, "fuses": 4}}, "fuses must be 1, 2 or 3"),
    ],
)
def test_a_damaged_site_record_is_refused_with_what_is_wrong(alice, changes, message):
    data = site_record()
    content = json.dumps({**data, **changes(data)}).encode()
    with pytest.raises(GameError) as refused:
        replays.import_game_file(alice, content, "game.json")
    assert str(refused.value).startswith("This file cannot be imported: ")
    assert message in str(refused.value)
    assert not ImportedReplay.objects.exists()


# -- through the pages ----------------------------------------------------------------------


def strike_out(game) -> None:
    """Blind plays of the newest card by whoever's turn it is, until the game ends."""
    for _ in range(60):
        game.refresh_from_db()
        if not game.is_playing():
            return
        state = game.load_state()
        newest = state.hand(state.turn % state.players)[-1]
        action = action_to_dict(Play(newest))
        play.submit_action(game.pk, current_user(game), action, game.turn)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fuses,link,file_name",
    [
        (1, "(this site's JSON: hanab.live has no 1-fuse option)", "hanabi-game-{}-site.json"),
        (2, "(this site's JSON: hanab.live has no 2-fuse option)", "hanabi-game-{}-site.json"),
        (3, "Download (hanab.live JSON)", "hanabi-game-{}.json"),
    ],
)
def test_a_finished_game_downloads_as_a_json_file_that_imports_back(
    client, alice, bob, fuses, link, file_name
):
    game = start_game(alice, bob, fuses=fuses)
    strike_out(game)
    client.force_login(alice)

    replay_page = client.get(f"/games/{game.pk}/replay/{game.turn}/").content.decode()
    response = client.get(f"/games/{game.pk}/export.json")
    upload = SimpleUploadedFile("game.json", response.content, content_type="application/json")
    imported_response = client.post("/games/import/", {"file": upload})

    assert link in replay_page
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    name = file_name.format(game.pk)
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    data = json.loads(response.content)
    assert (data.get("format") == RECORD_FORMAT) == (fuses != 3)
    imported = ImportedReplay.objects.get(owner=alice)
    assert imported_response.url == f"/replays/{imported.pk}/0/"
    assert imported.options == game.game_options.to_dict()
    assert imported.actions == list(game.moves.order_by("turn").values_list("action", flat=True))
    assert imported.player_names == game.seat_names()
    final = client.get(f"/replays/{imported.pk}/{len(imported.actions)}/").content.decode()
    assert "Final score" in final
