"""What the house bot believes of each player, in words (games/bots/beliefs.py, issue 27).

Two players: Alice (seat 0, a person, scripted) holds cards 4 3 2 1 0 (slot 1 first), the
bot (seat 1, "Bot 2", seated from the start) holds 9 8 7 6 5. The bot's moves are its own.
"""

import random
import re

from games.bot_remarks import Voice, remark, sentences
from games.bots import choose_action
from games.bots.beliefs import Stance, changes, current, stance
from games.bots.knowledge import BASIC, CONVENTION, LITERAL, Table
from games.bots.partners import cautious, saver
from games.engine import SUITS, Clue, Discard, GameOptions, Play, new_game, view_for
from tests.engine.helpers import deck_with_top

TWO = GameOptions(players=2)
NAMES = ["Alice", "Bot 2"]


def _game(deck: str, alice: list) -> object:
    """Alice's moves as scripted, the bot's (seat 1, known to be the bot) as it chooses, to
    the bot's move after Alice's last."""
    state = new_game(TWO, deck=deck_with_top(TWO, deck))
    moves = list(alice)
    while moves or state.current_seat == 1:
        if state.current_seat == 0:
            state.apply(moves.pop(0))
        else:
            state.apply(choose_action(view_for(state, 1), [1]))
    return state


def _said(state, viewer: int | None = None) -> tuple[dict, list]:
    view = view_for(state, 0 if viewer is None else viewer, NAMES)
    return sentences(view["options"], view["history"], NAMES, [1], [1], viewer=viewer)


# Alice's first clue is forced (8 tokens); then she clues red on the bot's R3 (card 7) alone:
# by the one-card rule, "play it". The bot plays it, and it burns.
OFF = ("G3 B4 W4 Y3 G4  Y4 B3 R3 W3 G2  Y2 R4 B5", [Clue(1, rank=4), Clue(1, colour="red")])
# The bot clues Alice's B1 (card 1) alone and she plays it: she reads clues as the
# conventions do.
KEEPS = ("G3 B1 W4 Y3 G4  Y4 B3 R3 W3 R1  Y1 G1 W1", [Clue(1, rank=4), Play(1)])
# Alice clues the bot's R1 alone; the bot plays it: nothing to change.
PLAIN = ("G3 B2 W4 Y3 G4  Y4 B3 R1 W3 G2  Y1 G1 W1", [Clue(1, rank=4), Clue(1, colour="red")])


def test_a_partner_whose_lone_clue_misleads_is_then_read_literally_and_the_bot_says_so():
    state = _game(*OFF)
    view = view_for(state, 0, NAMES)
    assert view["history"][3]["text"] == "Bot 2 misplays red 3 (slot 3; fuse burns)"
    remarks, lines = _said(state)
    assert remarks == {
        3: [
            "Bot 2 reads Alice's clues literally from now on: Bot 2 misplayed red 3, "
            "which Alice's clue had marked as playable."
        ]
    }
    assert lines == ["Bot 2 reads Alice's clues literally (since turn 4)."]
    # To Alice herself:
    remarks, lines = _said(state, viewer=0)
    assert remarks[3] == [
        "Bot 2 reads your clues literally from now on: Bot 2 misplayed red 3, "
        "which your clue had marked as playable."
    ]
    assert lines == ["Bot 2 reads your clues literally (since turn 4)."]
    # The bot's own belief, as it rebuilds it to move: the same.
    assert Table(view_for(state, 1), [1]).gives[0] == LITERAL


def test_a_partner_who_keeps_to_the_conventions_loses_no_trust():
    state = _game(*KEEPS)
    remarks, lines = _said(state)
    # The rise to the conventions is the bot working as /bots/ says: not a word of it.
    (gained,) = changes(view_for(state, 1)["options"], view_for(state, 1)["history"], [1])
    assert gained.turn == 2 and gained.after == Stance(CONVENTION, False)
    assert remark(Voice(NAMES, [1], None), gained) == (
        "Bot 2 reads Alice's clues by its conventions from now on: Alice played blue 1, "
        "which the clues had only implied was playable."
    )
    assert remarks == {} and lines == []
    assert stance(Table(view_for(state, 1), [1]), 0) == Stance(CONVENTION, False)
    # A partner who only gives lone clues that hold: not a word.
    plain = _game(*PLAIN)
    assert view_for(plain, 0, NAMES)["history"][3]["text"] == "Bot 2 plays red 1 (slot 3)"
    assert _said(plain) == ({}, [])


def test_a_partner_who_discards_a_card_clued_as_playable_is_no_longer_expected_to_read_clues():
    # As in KEEPS; then the bot clues yellow, its focus Alice's slot 1 (Y1), read by the
    # conventions as playable, and Alice discards her chop instead of playing it.
    deck, alice = KEEPS
    state = _game(deck + " R2 G2 B2", [*alice, Discard(0)])
    assert view_for(state, 0, NAMES)["history"][3]["text"].startswith("Bot 2 clues Alice: yellow")
    remarks, lines = _said(state)
    assert remarks[4] == [
        "Bot 2 no longer reads Alice's clues by its conventions, and no longer expects Alice "
        "to read a clue beyond what it shows: Alice discarded although a clue had shown "
        "Alice's card in slot 1 to be playable."
    ]
    assert lines == [
        "Bot 2 no longer reads Alice's clues by its conventions, and no longer expects Alice to "
        "read a clue beyond what it shows (since turn 5)."
    ]
    assert stance(Table(view_for(state, 1), [1]), 0) == Stance(BASIC, True)


def _mixed_games(count: int):
    """Finished 2 to 4-player games of the bot beside partners who know no convention."""
    for i in range(count):
        players = 2 + i % 3
        options = GameOptions(players=players)
        state = new_game(options, seed=500 + i)
        partner = (cautious, saver)[i % 2]
        while not state.is_over:
            seat = state.current_seat
            view = view_for(state, seat)
            state.apply(choose_action(view) if seat % 2 == 0 else partner(view))
        yield state


def test_the_beliefs_are_the_bots_own_and_the_same_from_every_seat():
    # What the history says the bot believes after the last move is what the bot rebuilds
    # to move, from any seat's view; and the changes are the same whoever looks.
    seen_change = False
    for state in _mixed_games(9):
        views = [view_for(state, seat) for seat in range(state.players)]
        found = [changes(view["options"], view["history"]) for view in views]
        assert all(f == found[0] for f in found)
        seen_change = seen_change or bool(found[0])
        stances, _ = current(views[0]["options"], views[0]["history"])
        for view in views:
            table = Table(view)
            assert [stance(table, s) for s in range(state.players)] == stances
    assert seen_change  # (the test saw some)


CARD = re.compile(rf"\b({'|'.join(SUITS)}) ([1-5])\b")


def test_a_remark_names_no_card_but_the_one_just_shown():
    # The only card a remark may name is the one its move played or discarded (face up
    # since): never one still in a hand, which its holder does not see.
    checked = 0
    for state in _mixed_games(9):
        view = view_for(state, 0)
        names = [f"P{seat}" for seat in range(state.players)]
        # Every change in words, those the history leaves out too: more remarks to check.
        voice = Voice(names, [], None)
        for change in changes(view["options"], view["history"]):
            entry = view["history"][change.turn]
            shown = f"{entry['card']['suit']} {entry['card']['rank']}" if "card" in entry else None
            text = remark(voice, change)
            for match in CARD.finditer(text):
                assert match.group(0) == shown, (text, entry)
                checked += 1
    assert checked


def test_trust_lost_to_a_misleading_clue_never_comes_back():
    # gives only steps down: after the misplay, every later change of Alice's stance keeps
    # her clues read literally.
    state = _game(*OFF)
    rng = random.Random(3)
    while not state.is_over and state.turn < 40:
        view = view_for(state, state.current_seat)
        if state.current_seat == 1:
            state.apply(choose_action(view, [1]))
        else:
            state.apply(rng.choice([cautious, saver])(view))
    view = view_for(state, 0)
    stances, found = current(view["options"], view["history"], [1])
    after = [c for c in found if c.seat == 0 and c.turn > 3]
    assert all(c.after.level == LITERAL for c in after)
    assert stances[0].level == LITERAL
