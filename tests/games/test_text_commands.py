"""The command language of email replies (games/text_commands.py): no database needed."""

import pytest

from games.engine import (
    Clue,
    Discard,
    GameOptions,
    SplitMix64,
    action_to_dict,
    new_game,
    view_for,
)
from games.text_commands import (
    Impossible,
    NotUnderstood,
    Reply,
    command_help,
    example_commands,
    read_reply,
)
from tests.engine.helpers import deck_with_top

NAMES = ["Ann", "Mary Ann", "Mark", "Bob", "bobby"]


def table(players: int = 3, seat: int = 0, names=NAMES, top: str = "", **options):
    """A fresh game and the view of ``seat``. Seat 0 holds ids 0-4 (slot 1 = id 4, the
    newest), seat 1 ids 5-9, and so on (hand size 5 with 3 players)."""
    opts = GameOptions(players, **options)
    state = new_game(opts, deck=deck_with_top(opts, top)) if top else new_game(opts, seed=7)
    return state, view_for(state, seat, names[:players])


def action(text: str, view) -> dict:
    return read_reply(text, view).action


def refusal(text: str, view) -> str:
    with pytest.raises(NotUnderstood) as caught:
        read_reply(text, view)
    assert str(caught.value) == caught.value.reason
    return caught.value.reason


# -- play and discard ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["play 3", "Play 3.", "PLAY #3", "play slot 3", "  play   slot #3!  ", "play card 3"]
)
def test_play_names_a_slot_as_the_email_shows_it(text):
    _, view = table()
    assert read_reply(text, view) == Reply(
        action={"type": "play", "card_id": 2}, summary="play slot 3", wants_help=False, chat=""
    )


def test_slot_one_is_the_newest_card():
    _, view = table()
    assert action("play 1", view) == {"type": "play", "card_id": 4}
    assert action("play 5", view) == {"type": "play", "card_id": 0}


@pytest.mark.parametrize("text", ["discard 1", "Discard 1.", "DISCARD #1", "discard slot 1"])
def test_discard_names_a_slot(text):
    _, view = table(seat=1)
    reply = read_reply(text, view)
    assert reply.action == {"type": "discard", "card_id": 9}
    assert reply.summary == "discard slot 1"


def test_legality_is_left_to_the_engine():
    # Discarding at 8 clue tokens is illegal, but it is the engine's refusal to give.
    state, view = table()
    assert view["legal"]["discard"] == []
    assert action("discard 2", view) == {"type": "discard", "card_id": 3}
    # ... and it reads the same when it is not the viewer's turn.
    _, view = table(seat=2)
    assert action("play 2", view) == {"type": "play", "card_id": 13}


@pytest.mark.parametrize("text", ["play 6", "play 0", "discard 9"])
def test_a_slot_out_of_range(text):
    _, view = table()
    slot = text.split()[-1]
    assert refusal(text, view) == f"There is no slot {slot}: your hand has slots 1 to 5."


def test_a_slot_out_of_range_with_four_cards():
    _, view = table(players=4)
    assert refusal("play 5", view) == "There is no slot 5: your hand has slots 1 to 4."


# A command that was read but names what is not there is a move refused (Impossible, the
# email's "no move was made"); words that hold no command are not understood.
@pytest.mark.parametrize(
    "text",
    ["play 9", "discard 0", "clue Zed red", "clue 4 red", "clue Ann red", "clue Mark 6"],
)
def test_a_command_for_what_is_not_there_is_impossible(text):
    _, view = table()
    with pytest.raises(Impossible):
        read_reply(text, view)


@pytest.mark.parametrize("text", ["I pass", "play", "play red", "clue Mark", "clue Mark pink"])
def test_words_without_a_command_are_not_understood_and_not_impossible(text):
    _, view = table()
    with pytest.raises(NotUnderstood) as caught:
        read_reply(text, view)
    assert not isinstance(caught.value, Impossible)


@pytest.mark.parametrize("text", ["play", "play red", "discard 1 2", "play slot"])
def test_a_play_without_one_slot_number(text):
    _, view = table()
    assert "slot number" in refusal(text, view)


# -- clues: who ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, target",
    [
        ("clue Mark red", 2),
        ("clue mark red", 2),
        ("CLUE MARK RED", 2),
        ("clue Mark: red.", 2),
        ("clue Mary Ann red", 1),
        ("clue mary   ann red", 1),
        ("clue mary a red", 1),  # a prefix with a space in it
        ("clue mary red", 1),  # a prefix of one name only
        ("clue mark red", 2),
        ("clue 2 red", 1),  # seat numbers as the email shows them: index + 1
        ("clue #3 red", 2),
        ("clue seat 3 red", 2),
        ("clue player 2 red", 1),
        ("hint Mark red", 2),
    ],
)
def test_a_clue_names_a_player(text, target):
    _, view = table()
    assert action(text, view) == {"type": "clue", "target": target, "colour": "red"}


def test_an_exact_name_wins_over_a_longer_name_it_is_a_prefix_of():
    _, view = table(players=5)
    assert action("clue bob 1", view)["target"] == 3
    assert action("clue bobb 1", view)["target"] == 4
    assert action("clue bobby 1", view)["target"] == 4


def test_an_ambiguous_prefix_names_the_candidates():
    _, view = table(players=5)
    reason = refusal("clue ma blue", view)
    assert "Mary Ann (seat 2)" in reason and "Mark (seat 3)" in reason
    assert "Bob" not in reason
    reason = refusal("clue b 2", view)
    assert "Bob (seat 4)" in reason and "bobby (seat 5)" in reason


def test_the_viewer_does_not_make_a_prefix_ambiguous():
    # "a" fits Ann (the viewer) and Al: nobody clues themself, so it means Al.
    _, view = table(names=["Ann", "Al", "Cid"])
    assert action("clue a 1", view)["target"] == 1


def test_twin_names_ask_for_the_seat_number():
    _, view = table(names=["Ann", "Bob", "Bob"])
    assert "seat number" in refusal("clue bob red", view)
    assert action("clue 3 red", view)["target"] == 2


@pytest.mark.parametrize("text", ["clue Ann red", "clue ann 3", "clue 1 red", "clue an r"])
def test_nobody_clues_themself(text):
    _, view = table()
    assert refusal(text, view) == "You cannot clue yourself."


def test_an_unknown_player_or_seat():
    _, view = table()
    reason = refusal("clue Zed red", view)
    assert "“zed”" in reason and "Mary Ann (seat 2), Mark (seat 3)" in reason
    assert refusal("clue 4 red", view) == "There is no seat 4: the seats are 1 to 3."


def test_default_names_and_seat_numbers():
    state = new_game(GameOptions(3), seed=1)
    view = view_for(state, 0)
    assert action("clue player 3 2", view) == {"type": "clue", "target": 2, "rank": 2}
    assert action("clue 3 2", view) == {"type": "clue", "target": 2, "rank": 2}


def test_a_clue_needs_a_player_and_a_value():
    _, view = table()
    assert "names a player" in refusal("clue red", view)
    assert "names a player" in refusal("clue", view)


# -- clues: what -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "word, colour",
    [
        ("red", "red"),
        ("R", "red"),
        ("yellow", "yellow"),
        ("y", "yellow"),
        ("Green", "green"),
        ("g", "green"),
        ("blue", "blue"),
        ("b.", "blue"),
        ("WHITE", "white"),
        ("w", "white"),
        ("blues", "blue"),
        ("“red”", "red"),
    ],
)
def test_colours_by_name_or_letter(word, colour):
    _, view = table()
    reply = read_reply(f"clue Mark {word}", view)
    assert reply.action == {"type": "clue", "target": 2, "colour": colour}
    assert reply.summary == f"clue Mark: {colour}"


@pytest.mark.parametrize(
    "word, rank",
    [("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("4s", 4), ("fours", 4), ("one", 1)],
)
def test_ranks(word, rank):
    _, view = table()
    reply = read_reply(f"clue mary ann {word}", view)
    assert reply.action == {"type": "clue", "target": 1, "rank": rank}
    assert reply.summary == f"clue Mary Ann: {rank}s"


def test_a_rank_out_of_range():
    _, view = table()
    assert refusal("clue Mark 6", view) == "There is no rank 6: the ranks are 1 to 5."


@pytest.mark.parametrize("variant", [1, 2])
@pytest.mark.parametrize("word", ["multicolour", "multicolor", "rainbow", "m", "M"])
def test_multicolour_when_it_is_a_clue_colour(variant, word):
    _, view = table(multicolour=variant)
    assert action(f"clue Mark {word}", view) == {
        "type": "clue",
        "target": 2,
        "colour": "multicolour",
    }


@pytest.mark.parametrize("variant", [0, 3])
@pytest.mark.parametrize("word", ["multicolour", "rainbow", "m"])
def test_multicolour_when_it_is_not_a_clue_colour(variant, word):
    # No sixth suit, or wild multicolour (variant 3): nobody can name multicolour.
    _, view = table(multicolour=variant)
    reason = refusal(f"clue Mark {word}", view)
    assert reason == (
        "multicolour is not a clue colour in this game: the clue colours are red (R), "
        "yellow (Y), green (G), blue (B), white (W)."
    )


def test_wild_multicolour_still_takes_the_five_colours():
    _, view = table(multicolour=3)
    assert action("clue mark b", view) == {"type": "clue", "target": 2, "colour": "blue"}


def test_a_word_that_is_neither_colour_nor_rank():
    _, view = table(multicolour=1)
    reason = refusal("clue Mark purple", view)
    assert "“purple” is not a colour or a rank" in reason
    assert "multicolour (M)" in reason and "1 to 5" in reason


# -- help, chat, and what is not a command -----------------------------------------------------


@pytest.mark.parametrize("text", ["help", "Help!", "?", " ??? ", "commands", "HELP me"])
def test_help(text):
    _, view = table()
    assert read_reply(text, view) == Reply(action=None, summary="", wants_help=True, chat="")


def test_chat_alone():
    _, view = table()
    reply = read_reply("Chat:   well   played,\n  everyone!  ", view)
    assert reply == Reply(action=None, summary="", wants_help=False, chat="well played, everyone!")


def test_a_command_and_chat():
    _, view = table()
    reply = read_reply("play 3\nchat: sorry!", view)
    assert reply.action == {"type": "play", "card_id": 2}
    assert reply.chat == "sorry!"
    reply = read_reply("\n  clue mark 4\n\n  CHAT : nice one\nsee you", view)
    assert reply.action == {"type": "clue", "target": 2, "rank": 4}
    assert reply.chat == "nice one see you"


def test_help_and_chat():
    _, view = table()
    reply = read_reply("help\nchat: what is going on?", view)
    assert reply.wants_help and reply.chat == "what is going on?"


def test_lines_after_the_command_are_ignored():
    _, view = table()
    reply = read_reply("discard 4\nThanks,\nMark\nSent from my phone", view)
    assert reply.action == {"type": "discard", "card_id": 1} and reply.chat == ""


def test_quoted_lines_are_not_the_players_words():
    _, view = table()
    assert action("> play 1\nplay 2", view) == {"type": "play", "card_id": 3}
    assert refusal("> play 1\n>> clue Mark red", view) == "The reply was empty."


@pytest.mark.parametrize("text", ["jump 3", "I think I should play 3", "...", "red 3"])
def test_garbage(text):
    _, view = table()
    assert refusal(text, view) == f"“{text}” is not a command. Reply “help” for the commands."


def test_garbage_first_then_a_command_is_not_understood():
    _, view = table()
    assert "is not a command" in refusal("Hi all!\nplay 3", view)


def test_a_long_line_is_shortened_in_the_reason():
    _, view = table()
    assert len(refusal("blah " * 50, view)) < 120


@pytest.mark.parametrize("text", ["", "   \n\n  ", None])
def test_an_empty_reply(text):
    _, view = table()
    assert refusal(text, view) == "The reply was empty."


def test_an_empty_chat_line_and_nothing_else():
    _, view = table()
    assert refusal("chat:   ", view) == "The reply was empty."


# -- examples and help text ---------------------------------------------------------------------


def legal_dicts(state) -> list[dict]:
    return [action_to_dict(legal) for legal in state.legal_actions()]


def test_examples_show_a_play_a_clue_and_a_discard():
    state, view = table(top="R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2  B2 B3 G2 G3 W3")
    state.apply(Clue(1, colour="red"))  # seat 0: 7 clue tokens
    state.apply(Clue(2, colour="blue"))  # seat 1: 6
    state.apply(Discard(14))  # seat 2: 7, so seat 0 may discard
    view = view_for(state, 0, NAMES[:3])
    assert example_commands(view) == ["play 1", "clue Mary Ann red", "discard 5"]
    assert example_commands(view, count=1) == ["play 1"]
    more = example_commands(view, count=8)
    assert more[:4] == ["play 1", "clue Mary Ann red", "discard 5", "clue Mary Ann 1"]
    assert len(more) == len(set(more)) == 8


def test_examples_when_no_discard_or_clue_is_open():
    _, view = table()  # 8 clue tokens: no discard
    assert [example.split()[0] for example in example_commands(view)] == ["play", "clue", "clue"]
    state, _ = table()
    for _ in range(8):  # spend every clue token
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Clue)))
    view = view_for(state, state.current_seat, NAMES[:3])
    assert example_commands(view, 4) == ["play 1", "discard 5", "play 2", "discard 4"]


def test_no_examples_out_of_turn():
    _, view = table(seat=1)
    assert example_commands(view) == []


def test_examples_fall_back_on_the_seat_number_when_the_name_does_not_read_back():
    # Both other players are "Bob": a name cannot tell them apart, a seat number can.
    _, view = table(names=["Ann", "Bob", "Bob"])
    clues = [example for example in example_commands(view, 10) if example.startswith("clue")]
    assert clues and all(example.split()[1] in ("2", "3") for example in clues)


@pytest.mark.parametrize("seed", range(12))
def test_every_example_reads_back_to_a_legal_action(seed):
    rng = SplitMix64(seed)
    options = GameOptions(
        players=2 + seed % 5,
        multicolour=seed % 4,
        empty_clues=seed % 3 == 0,
        until_perfect=seed % 5 == 1,
    )
    names = ["Ann", "Mary Ann", "Mark", "Bob", "bobby", "Al"]
    state = new_game(options, seed=seed)
    for _ in range(rng.below(40)):
        legal = state.legal_actions()
        if state.is_over or not legal:
            break
        state.apply(legal[rng.below(len(legal))])
    if state.is_over:
        return
    view = view_for(state, state.current_seat, names[: options.players])
    legal = legal_dicts(state)
    examples = example_commands(view, count=30)
    assert examples
    for example in examples:
        assert read_reply(example, view).action in legal, example
    # Every legal move can be written, too: each play, discard and clue.
    for move in legal:
        slot = {card["id"]: card["slot"] for card in view["hands"][state.current_seat]["cards"]}
        if move["type"] == "clue":
            value = move.get("colour") or move.get("rank")
            text = f"clue {move['target'] + 1} {value}"
        else:
            text = f"{move['type']} {slot[move['card_id']]}"
        assert read_reply(text, view).action == move


def test_command_help_describes_this_game():
    _, view = table(multicolour=1)
    text = command_help(view)
    assert "slot 1 to 5" in text
    assert "Mary Ann (seat 2), Mark (seat 3)" in text
    assert "red (R), yellow (Y), green (G), blue (B), white (W), multicolour (M)" in text
    assert "1 to 5" in text and "help" in text and "chat:" in text
    assert "if this game allows it" in text
    assert "For example: “play 1”" in text


def test_command_help_for_wild_multicolour_and_chat_policy():
    _, view = table(players=4, seat=2, multicolour=3)
    text = command_help(view, chat_open=True)
    assert "multicolour" not in text and "slot 1 to 4" in text
    assert "Bob (seat 4), Ann (seat 1), Mary Ann (seat 2)" in text
    assert "goes to the table talk" in text and "if this game" not in text
    assert "For example" not in text  # not seat 2's turn
    assert "closed" in command_help(view, chat_open=False)
