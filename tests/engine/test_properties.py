"""Property tests: over random options, seeds and legal action sequences (the games of
tests/engine/strategies.py), the rules hold."""

import json

from hypothesis import assume, event, given
from hypothesis import strategies as st

from games.engine import (
    Clue,
    Discard,
    IllegalAction,
    Play,
    action_from_dict,
    action_to_dict,
    from_hanablive,
    replay,
    spectator_view,
    to_hanablive,
    view_for,
)

from .strategies import SETTINGS, check_invariants, games, options_strategy


@SETTINGS
@given(games(), st.data())
def test_replay_is_exact(game, data):
    state, prints = game
    event(f"end: {state.end}")
    event(f"deck ran out: {state.deck_size == 0}")
    source = state.seed
    assert replay(state.options, source, state.actions).fingerprint() == state.fingerprint()
    as_dicts = [json.loads(json.dumps(action_to_dict(a))) for a in state.actions]
    assert [action_from_dict(d) for d in as_dicts] == state.actions
    assert replay(state.options, list(state.deck), as_dicts).fingerprint() == prints[-1]
    upto = data.draw(st.integers(0, state.turn))
    assert replay(state.options, source, state.actions, upto=upto).fingerprint() == prints[upto]


@SETTINGS
@given(games(), st.data())
def test_illegal_actions_change_nothing(game, data):
    state, _ = game
    before = state.fingerprint()
    legal = set(state.legal_actions())
    candidates = [Play(cid) for cid in range(len(state.deck) + 2)]
    candidates += [Discard(cid) for cid in range(len(state.deck) + 2)]
    candidates += [Clue(t, rank=r) for t in range(7) for r in range(1, 6)]
    candidates += [
        Clue(t, colour=c) for t in range(7) for c in ("red", "white", "multicolour", "blue")
    ]
    for action in data.draw(st.lists(st.sampled_from(candidates), max_size=15)):
        if action in legal:
            copy = state.copy()
            copy.apply(action)
            check_invariants(copy)
        else:
            try:
                state.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} was applied but is not in legal_actions()")
            assert state.fingerprint() == before


def walk(value, path=()):
    """Every (path, dict) in a JSON tree."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*path, index))


@SETTINGS
@given(games(), st.data())
def test_a_players_view_hides_their_own_cards_and_the_deck(game, data):
    state, _ = game
    seat = data.draw(st.integers(0, state.players - 1))
    view = view_for(state, seat)
    text = json.dumps(view)  # JSON-able
    own = set(state.hand(seat))
    for path, node in walk(json.loads(text)):
        if "id" in node:
            assert node["id"] < state.cards_drawn, f"an undealt card's id at {path}"
            if node["id"] in own:
                assert not {"suit", "rank", "code"} & set(node), f"own card shown at {path}"
        for key in ("drawn", "card_id"):
            if node.get(key) is not None:
                assert node[key] < state.cards_drawn
    assert "deck" not in view


@SETTINGS
@given(games(), st.data())
def test_a_players_view_depends_only_on_what_they_may_know(game, data):
    """Swap an own card with another hidden card (own or undealt) that every clue so far
    would have treated alike: the viewer cannot tell the difference, so the view is equal."""
    state, _ = game
    seat = data.draw(st.integers(0, state.players - 1))
    own = list(state.hand(seat))
    assume(own)
    x = data.draw(st.sampled_from(own))
    ident = [card.identity for card in state.deck]
    hidden = own + list(range(state.cards_drawn, len(state.deck)))

    def alike(y):
        if y == x or ident[y] == ident[x]:
            return False
        if not state.clue_mask(x) >> ident[y] & 1:
            return False
        return y not in own or state.clue_mask(y) >> ident[x] & 1

    candidates = [y for y in hidden if alike(y)]
    assume(candidates)
    y = data.draw(st.sampled_from(candidates))
    deck = list(state.deck)
    deck[x], deck[y] = deck[y], deck[x]
    other = replay(state.options, deck, state.actions)
    assert json.dumps(view_for(other, seat)) == json.dumps(view_for(state, seat))


@SETTINGS
@given(games())
def test_spectator_view_is_json_and_shows_every_hand(game):
    state, _ = game
    view = json.loads(json.dumps(spectator_view(state)))
    shown = [card["id"] for hand in view["hands"] for card in hand["cards"]]
    assert shown == [cid for hand in state.hands for cid in hand]
    assert all("code" in card for hand in view["hands"] for card in hand["cards"])


@SETTINGS
@given(games(options=options_strategy(fuses=(3,))))  # hanab.live exports only 3 fuses
def test_hanablive_export_then_import_gives_the_same_game(game):
    state, _ = game
    names = [f"player{seat}" for seat in range(state.players)]
    exported = to_hanablive(state.options, state.deck, state.actions, names)
    imported = from_hanablive(json.loads(json.dumps(exported)))
    assert imported.options == state.options
    assert imported.deck == list(state.deck)
    assert imported.actions == state.actions
    assert imported.player_names == names
    assert imported.dropped_actions == 0
    assert imported.replay().fingerprint() == state.fingerprint()


@SETTINGS
@given(games(max_actions=60), st.data())
def test_copy_is_independent(game, data):
    state, _ = game
    if state.is_over:  # the position before the last action is not
        state = replay(state.options, state.seed, state.actions, upto=state.turn - 1)
    before = state.fingerprint()
    copy = state.copy()
    legal = copy.legal_actions()
    copy.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
    assert state.fingerprint() == before
    assert copy.turn == state.turn + 1
