"""The views, built from what the state keeps as it goes (each card's clue turns, each
event's history entry made once), are exactly the views rebuilt from the whole history
(reference_view.py, the way they used to be computed), on random games with every option."""

import itertools
import json
import pickle

from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    GameOptions,
    SplitMix64,
    clue_notes,
    describe,
    event_dict,
    finished_view,
    history_text,
    new_game,
    replay,
    spectator_view,
    view_for,
)
from games.engine.knowledge import card_clue_notes, visible_counts

from . import reference_view as reference
from .helpers import safe_random
from .strategies import SETTINGS, games

ALL_OPTIONS = [
    GameOptions(players, multicolour, until_perfect, fuses, empty_clues)
    for players, multicolour, until_perfect, fuses, empty_clues in itertools.product(
        range(2, 7), range(4), (False, True), (1, 2, 3), (False, True)
    )
]
NAMES = [
    None,
    ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"],
    ["Ann"],  # fewer names than seats: the others are "Player n"
    ["{0} %s", "Bob {seat}", "", "a\u00e9\u4e2d", "5", "Zoë"],
]


def same(new, old):
    """Equal, and equal as JSON text too (so the keys come in the same order)."""
    assert new == old
    assert json.dumps(new) == json.dumps(old)


def check_views(state, seats, names):
    for seat in seats:
        same(view_for(state, seat, names), reference.view_for(state, seat, names))


def check_state(state, seats=None, names_choices=NAMES):
    """Every view of ``state`` against the reference."""
    expected_notes = reference.clue_notes(state)
    assert list(clue_notes(state).items()) == list(expected_notes.items())
    for cid in range(state.cards_drawn):
        assert card_clue_notes(state, cid) == expected_notes.get(cid, [])
    for viewer in (None, *range(state.players)):
        assert visible_counts(state, viewer) == reference.visible_counts(state, viewer)
    for names in names_choices:
        names = None if names is None else names[: state.players]
        check_views(state, range(state.players) if seats is None else seats, names)
        same(spectator_view(state, names), reference.spectator_view(state, names))
        same(
            spectator_view(state, names, include_deck=True),
            reference.spectator_view(state, names, include_deck=True),
        )
        if state.is_over:
            expected = reference.spectator_view(state, names, include_deck=True)
            expected["kind"] = "finished"
            same(finished_view(state, names), expected)
        for event in state.events:
            same(event_dict(event, state, names), reference.event_dict(event, state, names))
            assert describe(event, state, names) == reference.describe(event, state, names)
        assert history_text(state, names) == [
            reference.describe(event, state, names) for event in state.events
        ]


def test_views_match_the_reference_on_games_with_every_option():
    """One game for each combination of options, half careful (they reach the end of the
    deck), half uniformly random; views compared along the way and at the end."""
    for index, options in enumerate(ALL_OPTIONS):
        rng = SplitMix64(index)
        state = new_game(options, seed=1000 + index)
        careful = index % 2 == 0
        while not state.is_over:
            if rng.below(8) == 0:
                names = NAMES[rng.below(len(NAMES))]
                check_views(state, [rng.below(state.players)], names)
            legal = state.legal_actions()
            state.apply(safe_random(state, rng) if careful else legal[rng.below(len(legal))])
        check_state(state, names_choices=[NAMES[index % len(NAMES)]])
        # The same game rebuilt from its moves (a fresh state, nothing worked out yet).
        again = replay(options, state.seed, state.actions)
        check_views(again, range(options.players), NAMES[1])


@SETTINGS
@given(games(max_actions=150), st.data())
def test_views_match_the_reference_on_random_games(game, data):
    state, _ = game
    names = data.draw(st.sampled_from(NAMES))
    seat = data.draw(st.integers(0, state.players - 1))
    check_state(state, seats=[seat], names_choices=[names])


def test_copies_that_go_different_ways_keep_their_own_views():
    for index, options in enumerate(ALL_OPTIONS[::7]):
        rng = SplitMix64(index)
        state = new_game(options, seed=index)
        for _ in range(20 + rng.below(30)):
            if state.is_over:
                break
            state.apply(safe_random(state, rng))
        view_for(state, 0)  # works the history out for this state (and its copies)
        copy = state.copy()
        for one in (state, copy):
            for _ in range(rng.below(12)):
                if one.is_over:
                    break
                legal = one.legal_actions()
                one.apply(legal[rng.below(len(legal))])
            check_state(one, names_choices=NAMES[1:2])
        check_state(state, names_choices=NAMES[:1])
        copy2 = state.copy()  # a copy made after the views: it extends its own history
        if not copy2.is_over:
            legal = copy2.legal_actions()
            copy2.apply(legal[-1])
            check_state(copy2, names_choices=NAMES[:1])
            check_state(state, names_choices=NAMES[:1])


def mutate(value):
    """Change every dict and list in a JSON tree, in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            mutate(item)
        for key in list(value):
            value[key] = "changed"
        value["extra"] = 1
    elif isinstance(value, list):
        for item in value:
            mutate(item)
        value.append("extra")


def test_a_view_changed_by_its_caller_changes_no_other_view():
    options = GameOptions(3, multicolour=1)
    state = new_game(options, seed=5)
    rng = SplitMix64(5)
    for _ in range(40):
        state.apply(safe_random(state, rng))
    names = ["Ann", "Bob", "Cid"]
    for _ in range(2):
        for seat in range(3):
            mutate(view_for(state, seat, names))
            mutate(spectator_view(state, names, include_deck=True))
            for event in state.events:
                mutate(event_dict(event, state, names))
        check_state(state, names_choices=[names])


def test_clue_turns_are_kept_per_card_and_copied():
    state = new_game(GameOptions(4, multicolour=3), seed=9)
    rng = SplitMix64(9)
    while not state.is_over:
        copy = state.copy()
        before = [copy.clue_turns(cid) for cid in range(len(copy.deck))]
        state.apply(safe_random(state, rng))
        # the copy is not changed by what happens to the original
        assert [copy.clue_turns(cid) for cid in range(len(copy.deck))] == before
        notes = reference.clue_notes(state)
        for cid in range(len(state.deck)):
            assert state.clue_turns(cid) == tuple(note.turn for note in notes.get(cid, []))


def test_a_pickled_state_gives_the_same_views():
    state = new_game(GameOptions(2), seed=3)
    rng = SplitMix64(3)
    for _ in range(30):
        state.apply(safe_random(state, rng))
    view_for(state, 0)
    again = pickle.loads(pickle.dumps(state))
    assert again.fingerprint() == state.fingerprint()
    check_state(again, names_choices=NAMES[:1])
