"""Random games for the property tests (hypothesis): over random options and seeds, a game
after a random legal action sequence, its rules' invariants checked after every action.

Games are played by choosing among the legal actions; half the games avoid misplays (when
they can) so that they run long enough to reach the last round and the end of the deck.
"""

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.engine import Discard, GameOptions, Play, new_game
from games.engine.options import MAX_CLUE_TOKENS

from .helpers import is_critical, is_playable

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def options_strategy(fuses: tuple[int, ...] = (1, 2, 3)):
    return st.builds(
        GameOptions,
        players=st.integers(2, 6),
        multicolour=st.integers(0, 3),
        until_perfect=st.booleans(),
        fuses=st.sampled_from(fuses),
        empty_clues=st.booleans(),
    )


def check_invariants(state):
    options = state.options
    deck_len = len(state.deck)
    hands = state.hands
    in_hands = [cid for hand in hands for cid in hand]
    everywhere = in_hands + list(state.discards) + list(state.played)
    # every dealt card is in exactly one place; undealt cards are nowhere
    assert sorted(everywhere) == list(range(state.cards_drawn))
    assert state.deck_size + len(everywhere) == deck_len
    assert 0 <= state.clue_tokens <= MAX_CLUE_TOKENS
    assert 0 <= state.fuses_left <= options.fuses
    assert all(len(hand) <= options.hand_size for hand in hands)
    if state.deck_size > 0:
        assert all(len(hand) == options.hand_size for hand in hands)
    assert sum(state.fireworks) == len(state.played) == state.fireworks_total
    for suit, height in enumerate(state.fireworks):
        ranks = [state.card(cid).rank for cid in state.played if state.card(cid).suit == suit]
        assert ranks == list(range(1, height + 1))
    assert state.turn == len(state.actions) == len(state.events)
    assert 0 <= state.score <= state.max_reachable_score <= options.max_score
    for cid in in_hands:  # clue knowledge never rules out the truth
        assert state.clue_mask(cid) >> state.card(cid).identity & 1
    if state.is_over:
        assert state.legal_actions() == []


def careful_choices(state, legal):
    """Legal actions that neither misplay nor throw away the last copy of a needed card,
    grouped by kind so that plays and discards are as likely as clues."""
    groups = {}
    for action in legal:
        if type(action) is Play and not is_playable(state, action.card_id):
            continue
        if type(action) is Discard and is_critical(state, action.card_id):
            continue
        groups.setdefault(type(action), []).append(action)
    return list(groups.values())


@st.composite
def games(draw, max_actions=220, options=None):
    """A game after a random legal action sequence, and its fingerprint after every action.

    Style "uniform" picks uniformly among the legal actions (games strike out early);
    "careful" picks a kind of action, then an action of that kind, avoiding misplays and
    critical discards when it can, so that games reach the end of the deck.
    """
    options = draw(options if options is not None else options_strategy())
    seed = draw(st.integers(0, 2**64 - 1))
    careful = draw(st.sampled_from(["uniform", "careful", "careful"])) == "careful"
    length = draw(st.integers(0, max_actions))
    state = new_game(options, seed=seed)
    prints = [state.fingerprint()]
    check_invariants(state)
    for _ in range(length):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal, "a game that is not over always has a legal action"
        if careful:
            groups = careful_choices(state, legal)
            if groups:
                legal = groups[draw(st.integers(0, len(groups) - 1))]
        state.apply(legal[draw(st.integers(0, len(legal) - 1))])
        check_invariants(state)
        prints.append(state.fingerprint())
    return state, prints
