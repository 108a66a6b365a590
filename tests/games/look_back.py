"""Games to look back on (/games/<id>/as-seen/<turn>/), for the look back's tests here and in
the browser (tests/browser/test_look_back_browser.py): played by every seat, the viewer's
included, and what the viewer could not see at each turn."""

from games.engine import Clue, Discard, Play, action_to_dict, replay
from games.models import Game
from games.services import play
from tests.games.conftest import user_at

# The seat whose looking back is checked (of three).
VIEWER = 1


def never_seen_at(game: Game, turn: int, seat: int) -> set:
    """The identities the player at `seat` holds (or that are still in the deck) at `turn`
    and that show nowhere on their table then: not in another hand, the discards or the
    fireworks."""
    actions = list(game.moves.order_by("turn").values_list("action", flat=True))
    state = replay(game.game_options, game.deck_source, actions, upto=turn)
    hidden = [state.card(cid) for cid in state.hand(seat)]
    hidden += [state.card(cid) for cid in range(state.cards_drawn, len(state.deck))]
    seen = {
        state.card(cid)
        for other in range(state.players)
        if other != seat
        for cid in state.hand(other)
    }
    seen |= {state.card(cid) for cid in (*state.discards, *state.played)}
    return {card for card in hidden if card not in seen}


def play_everything(game: Game, turns: int) -> None:
    """Clues, discards and plays by every player (the viewer too: the cards they play and
    discard are shown from then on, and the cards they draw are new to hide)."""
    for _ in range(turns):
        game.refresh_from_db()
        state = game.load_state()
        legal = state.legal_actions()
        # The viewer plays too (the others do not: their misplays would end the game).
        viewer_plays = state.current_seat == VIEWER and state.fuses_left > 1
        kinds = [Clue, Discard, Play] if viewer_plays else [Clue, Discard]
        shift = state.turn // state.players % len(kinds)  # each kind in turn
        kinds = kinds[shift:] + kinds[:shift]
        action = next(a for kind in kinds for a in legal if isinstance(a, kind))
        play.submit_action(
            game.pk, user_at(game, state.current_seat), action_to_dict(action), game.turn
        )
    game.refresh_from_db()
    assert game.is_playing()
