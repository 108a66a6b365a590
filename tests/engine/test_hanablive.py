"""hanab.live game JSON, both ways, and this engine's own record."""

import copy
import json
from pathlib import Path

import pytest

from games.engine import (
    Clue,
    Discard,
    End,
    ExportError,
    GameOptions,
    HanabLiveImportError,
    Play,
    from_hanablive,
    from_record,
    new_deck,
    new_game,
    to_hanablive,
    to_record,
)
from games.engine.hanablive import VARIANT_NAMES

from .helpers import cheating_greedy, deck_with_top, run

DATA = Path(__file__).parent / "data"
NAMES = ["Ann", "Bob", "Cid"]


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def played_game(options: GameOptions, seed: int):
    return run(new_game(options, seed=seed), cheating_greedy)


# -- the hand-written files -------------------------------------------------------------------


def test_no_variant_three_players_strikeout():
    game = from_hanablive(load("no_variant_3p_strikeout.json"))
    assert game.options == GameOptions(3)
    assert game.player_names == ["Alice", "Bob", "Cathy"]
    assert game.actions[:4] == [Play(0), Play(5), Play(10), Clue(1, colour="yellow")]
    assert game.actions[4] == Clue(2, rank=3)
    assert game.actions[5] == Discard(14)
    state = game.replay()
    assert state.end is End.STRIKEOUT and state.score == 0 and state.turn == 12
    assert state.fireworks == (3, 3, 0, 0, 0)


def test_rainbow_all_or_nothing_maps_to_wild_multicolour_until_perfect():
    game = from_hanablive(load("rainbow_all_or_nothing_2p.json"))
    assert game.options == GameOptions(2, multicolour=3, until_perfect=True)
    assert game.actions[0] == Clue(1, colour="red")
    assert game.actions[1] == Clue(0, colour="white")  # hanab.live's purple
    state = game.replay()
    assert set(state.events[0].touched) == {5, 8, 9}  # red touches the two rainbow cards too
    assert state.end is End.DEFEAT_LOST_CARD and state.turn == 7


def test_black_six_suits_empty_clues_and_a_game_over_marker():
    game = from_hanablive(load("black_4p_empty_clues_terminated.json"))
    assert game.options == GameOptions(4, multicolour=2, empty_clues=True)
    assert game.actions[4] == Clue(1, colour="multicolour")  # black is our multicolour
    assert game.end_marker == {"target": 3, "value": 4}
    assert game.extra == {"id": 123456, "seed": "p4v2s7"}
    state = game.replay()
    assert state.events[4].touched == ()  # an empty clue
    assert state.events[10].bonus  # the red 5 gave a token back
    assert not state.is_over and state.score == 7 and state.turn == 11


# -- export -----------------------------------------------------------------------------------


def test_export_follows_the_format():
    options = GameOptions(3)
    deck = deck_with_top(options, "R1 R2 Y1 G1 B1  B3 Y3 B4 W1 W2  Y4 B2 Y2 G2 G3")
    actions = [Clue(1, colour="blue"), Play(5), Discard(13), Play(0), Clue(2, rank=3)]
    data = to_hanablive(options, deck, actions, NAMES)
    assert data["players"] == NAMES
    assert data["deck"][:2] == [{"suitIndex": 0, "rank": 1}, {"suitIndex": 0, "rank": 2}]
    assert data["actions"] == [
        {"type": 2, "target": 1, "value": 3},
        {"type": 0, "target": 5, "value": 0},
        {"type": 1, "target": 13, "value": 0},
        {"type": 0, "target": 0, "value": 0},
        {"type": 3, "target": 2, "value": 3},
    ]
    assert data["options"] == {"variant": "No Variant"}


@pytest.mark.parametrize("multicolour", [0, 1, 2, 3])
def test_variant_names(multicolour):
    options = GameOptions(2, multicolour=multicolour, until_perfect=True, empty_clues=True)
    data = to_hanablive(options, new_deck(options, 1), [], NAMES[:2])
    assert data["options"] == {
        "variant": VARIANT_NAMES[multicolour],
        "emptyClues": True,
        "allOrNothing": True,
    }


def test_colour_clue_values_index_the_variants_clue_colours():
    for multicolour, expected in [(1, 5), (2, 5)]:
        options = GameOptions(2, multicolour=multicolour)
        deck = deck_with_top(options, "R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1")
        data = to_hanablive(options, deck, [Clue(1, colour="multicolour")], NAMES[:2])
        assert data["actions"][0]["value"] == expected
    options = GameOptions(2, multicolour=3)
    deck = deck_with_top(options, "R1 Y1 G1 B1 W1  M1 R2 Y3 M4 B1")
    data = to_hanablive(options, deck, [Clue(1, colour="white")], NAMES[:2])
    assert data["actions"][0]["value"] == 4


@pytest.mark.parametrize("fuses", [1, 2])
def test_fewer_than_three_fuses_cannot_be_exported(fuses):
    options = GameOptions(2, fuses=fuses)
    with pytest.raises(ExportError, match="no fuse option"):
        to_hanablive(options, new_deck(options, 1), [], NAMES[:2])


def test_export_refuses_bad_names_and_illegal_actions():
    options = GameOptions(2)
    deck = new_deck(options, 1)
    with pytest.raises(ExportError, match="player names"):
        to_hanablive(options, deck, [], NAMES)
    with pytest.raises(ExportError, match="distinct"):
        to_hanablive(options, deck, [], ["Ann", "Ann"])
    with pytest.raises(ExportError, match="action 0 is illegal"):
        to_hanablive(options, deck, [Discard(0)], NAMES[:2])


@pytest.mark.parametrize(
    "options",
    [
        GameOptions(2),
        GameOptions(3, multicolour=1),
        GameOptions(4, multicolour=2, empty_clues=True),
        GameOptions(5, multicolour=3, until_perfect=True),
        GameOptions(6),
    ],
)
def test_export_then_import_gives_the_same_game(options):
    state = played_game(options, seed=17)
    names = [f"P{i}" for i in range(options.players)]
    data = json.loads(json.dumps(to_hanablive(options, state.deck, state.actions, names)))
    game = from_hanablive(data)
    assert game.options == options
    assert game.deck == list(state.deck)
    assert game.actions == state.actions
    assert game.player_names == names
    assert game.dropped_actions == 0
    assert game.replay().fingerprint() == state.fingerprint()


# -- import refusals ----------------------------------------------------------------------------


def base():
    return load("no_variant_3p_strikeout.json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["options"].update(variant="Pink (5 Suits)"), "Pink"),
        (lambda d: d["options"].update(oneExtraCard=True), "one extra card"),
        (lambda d: d["options"].update(deckPlays=True), "deck plays"),
        (lambda d: d["options"].update(detrimentalCharacters=True), "detrimental"),
        (lambda d: d["options"].update(cardCycle=True), "card cycling"),
        (lambda d: d["options"].update(someFutureOption=3), "someFutureOption"),
        (lambda d: d["options"].update(startingPlayer=1), "startingPlayer"),
        (lambda d: d["options"].update(emptyClues="yes"), "emptyClues"),
        (lambda d: d.update(characters=[{"name": "Fuming", "metadata": 2}]), "characters"),
        (lambda d: d.pop("deck"), '"deck"'),
        (lambda d: d.update(players=["Solo"]), "2 to 6 players"),
        (lambda d: d.update(players="Ann"), "list of names"),
        (lambda d: d["deck"].pop(), "49 cards"),
        (lambda d: d["deck"].__setitem__(0, {"suitIndex": 5, "rank": 1}), "does not exist"),
        (lambda d: d["deck"].__setitem__(0, {"suitIndex": 0, "rank": 5}), "red 5"),
        (lambda d: d["deck"].__setitem__(0, {"suit": 0, "rank": 1}), "suitIndex"),
        (lambda d: d["actions"].append({"type": 7, "target": 0}), "type 7"),
        (lambda d: d["actions"].append({"type": 0}), "target"),
        (lambda d: d["actions"].insert(0, {"type": 0, "target": 50}), "card 50"),
        (lambda d: d["actions"].insert(0, {"type": 2, "target": 1, "value": 5}), "colours 0 to 4"),
        (lambda d: d["actions"].insert(0, {"type": 3, "target": 1, "value": 6}), "rank 6"),
        (lambda d: d["actions"].insert(0, {"type": 3, "target": 3, "value": 1}), "player 3"),
        (lambda d: d["actions"].insert(0, {"type": 4, "target": 0, "value": 4}), "more actions"),
        (lambda d: d.update(options=[]), "options"),
    ],
)
def test_import_refuses_what_is_not_played_here_or_malformed(change, message):
    data = copy.deepcopy(base())
    change(data)
    with pytest.raises(HanabLiveImportError, match=message):
        from_hanablive(data)


def test_import_accepts_options_present_but_false_and_time_controls():
    data = base()
    data["options"].update(
        oneExtraCard=False,
        oneLessCard=False,
        deckPlays=False,
        detrimentalCharacters=False,
        cardCycle=False,
        allOrNothing=False,
        emptyClues=False,
        speedrun=False,
        timed=True,
        timeBase=60,
        timePerTurn=10,
        startingPlayer=0,
    )
    assert from_hanablive(data).options == GameOptions(3)
    data.pop("options")
    assert from_hanablive(data).options == GameOptions(3)


def test_import_names_an_illegal_action():
    data = base()
    data["actions"][3] = {"type": 1, "target": 2, "value": 0}  # discard at 8 clue tokens
    with pytest.raises(HanabLiveImportError) as caught:
        from_hanablive(data)
    assert caught.value.action_index == 3
    assert "action 3 (Alice discards card 2)" in str(caught.value)
    assert "clue tokens" in str(caught.value)


def test_import_drops_actions_after_this_projects_end():
    options = GameOptions(2)
    state = new_game(options, deck=deck_with_top(options, "R2 R3 R4 R5 Y5  Y4 Y3 Y2 W5 W4"))
    for card_id in (0, 5, 1):  # red 2, yellow 4, red 3: three misplays
        state.apply(Play(card_id))
    assert state.end is End.STRIKEOUT
    data = to_hanablive(options, state.deck, state.actions, ["A", "B"])
    data["actions"] += [{"type": 2, "target": 0, "value": 0}, {"type": 4, "target": 0, "value": 2}]
    game = from_hanablive(data)
    assert game.actions == state.actions
    assert game.dropped_actions == 1
    assert game.end_marker == {"target": 0, "value": 2}


# -- the engine's own record --------------------------------------------------------------------


@pytest.mark.parametrize("seed_or_deck", ["seed", "deck"])
def test_record_round_trip_includes_games_hanablive_cannot_hold(seed_or_deck):
    options = GameOptions(3, multicolour=3, fuses=1)
    state = played_game(options, seed=5)
    source = state.seed if seed_or_deck == "seed" else list(state.deck)
    data = json.loads(json.dumps(to_record(options, source, state.actions, NAMES)))
    record = from_record(data)
    assert record.options == options and record.player_names == NAMES
    assert record.replay().fingerprint() == state.fingerprint()
