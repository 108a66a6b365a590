"""The command language of email replies in English, German and French
(games/text_commands.py, issue 29): every command form of each language, read whatever the
reader's language, and the words that mean different things in different languages (a
colour letter) taken in the reader's language. No database needed."""

import pytest

from games.engine import GameOptions, SplitMix64, action_to_dict, new_game, view_for
from games.text_commands import (
    LANGUAGES,
    VOCABULARIES,
    Impossible,
    NotUnderstood,
    Reply,
    example_commands,
    read_reply,
)
from tests.games.test_text_commands import NAMES, table


def action(text: str, view, language: str = "en") -> dict:
    return read_reply(text, view, language=language).action


def refusal(text: str, view, language: str = "en") -> str:
    with pytest.raises(NotUnderstood) as caught:
        read_reply(text, view, language=language)
    return caught.value.reason


def test_the_three_languages():
    assert LANGUAGES == ("en", "de", "fr")


def test_the_only_words_that_differ_between_languages_are_the_letters_b_and_g():
    # Any other word read differently in two languages needs a test of its own here.
    differing = set()
    for kind in ("verbs", "separable", "help", "colours", "ranks", "fillers"):
        tables = [getattr(vocabulary, kind) for vocabulary in VOCABULARIES.values()]
        tables = [table if isinstance(table, dict) else dict.fromkeys(table) for table in tables]
        for word in set().union(*tables):
            if len({table[word] for table in tables if word in table}) > 1:
                differing.add((kind, word))
    assert differing == {("colours", "b"), ("colours", "g")}
    # ... and no word is a verb in one language and a colour, rank or help in another.
    verbs = {word for vocabulary in VOCABULARIES.values() for word in vocabulary.verbs}
    others = {
        word
        for vocabulary in VOCABULARIES.values()
        for word in (*vocabulary.colours, *vocabulary.ranks, *vocabulary.help)
    }
    assert not verbs & others


# -- play and discard ----------------------------------------------------------------------

PLAYS = [
    # German: the verb as a command (spiele), its short form, the infinitive, "ausspielen".
    "spiele 3",
    "Spiele 3.",
    "spiel 3",
    "spielen 3",
    "ausspielen 3",
    "spiele #3",
    "spiele karte 3",
    "spiele die 3",
    "spiele die Karte 3",
    "spiele 3 aus",
    # French: the imperative, the infinitive, the card and its article.
    "joue 3",
    "Joue 3 !",
    "jouer 3",
    "joue la 3",
    "joue la carte 3",
    "joue carte 3",
    "joue case 3",
    # English, unchanged.
    "play 3",
    "play the 3",
]


@pytest.mark.parametrize("language", ["en", "de", "fr"])
@pytest.mark.parametrize("text", PLAYS)
def test_play_in_each_language_whoever_reads(text, language):
    _, view = table()
    assert read_reply(text, view, language=language) == Reply(
        action={"type": "play", "card_id": 2}, summary="play slot 3", wants_help=False, chat=""
    )


DISCARDS = [
    "abwerfen 1",
    "Abwerfen 1.",
    "abwerfen karte 1",
    "wirf 1 ab",
    "Wirf die 1 ab!",
    "wirf karte 1 ab",
    "werfe 1 ab",
    "wirf 1 weg",
    "ablegen 1",
    "lege 1 ab",
    "défausse 1",
    "Défausse la 1",
    "defausse 1",
    "DÉFAUSSE 1",
    "défausser 1",
    "défausse la carte 1",
    "discard 1",
]


@pytest.mark.parametrize("language", ["en", "de", "fr"])
@pytest.mark.parametrize("text", DISCARDS)
def test_discard_in_each_language_whoever_reads(text, language):
    _, view = table(seat=1)
    reply = read_reply(text, view, language=language)
    assert reply.action == {"type": "discard", "card_id": 9}
    assert reply.summary == "discard slot 1"


def test_an_accent_written_as_two_code_points_reads_the_same():
    # "é" as e + U+0301, as some clients send it (NFD).
    _, view = table(seat=1)
    assert action("de\u0301fausse 1", view, "fr") == {"type": "discard", "card_id": 9}


@pytest.mark.parametrize("text", ["wirf 1", "lege 1", "wirf ab"])
def test_a_german_separable_verb_needs_its_particle_and_a_slot(text):
    _, view = table(seat=1)
    with pytest.raises(NotUnderstood) as caught:
        read_reply(text, view, language="de")
    assert not isinstance(caught.value, Impossible)


@pytest.mark.parametrize(
    "text, language", [("spiele", "de"), ("joue rouge", "fr"), ("abwerfen 1 2", "de")]
)
def test_a_verb_without_one_slot_number_is_asked_back_in_the_words_written(text, language):
    _, view = table()
    reason = refusal(text, view, language)
    verb = text.split()[0]
    assert "slot number" in reason and f"“{verb} 1”" in reason


@pytest.mark.parametrize("text", ["spiele 9", "joue 0", "défausse 6"])
def test_a_slot_out_of_range_in_german_or_french(text):
    _, view = table()
    with pytest.raises(Impossible) as caught:
        read_reply(text, view, language="de")
    assert "your hand has slots 1 to 5" in caught.value.reason


@pytest.mark.parametrize("text", ["play ²", "spiele ³", "joue ½"])
def test_a_digit_that_is_no_number_is_not_understood(text):
    # "²".isdigit() is true, but int("²") raises: the reply was answered by a crash.
    _, view = table()
    assert "slot number" in refusal(text, view)


def test_digits_of_other_scripts_are_numbers():
    _, view = table()
    assert action("joue ３", view, "fr") == {"type": "play", "card_id": 2}


# -- rearranged hands: "now" in each language ------------------------------------------------


def rearranged_view():
    """Seat 0's view, its hand rearranged during its own turn (the newest card moved to
    slot 5)."""
    from games.engine import Rearrange

    state, _ = table(rearrange=True)
    state.apply(Rearrange(0, state.hand(0)[0], 5))
    return state, view_for(state, 0, NAMES[:3])


@pytest.mark.parametrize(
    "text, language",
    [
        ("play 3 now", "en"),
        ("spiele 3 jetzt", "de"),
        ("spiele jetzt 3", "de"),
        ("joue 3 maintenant", "fr"),
        ("wirf 3 jetzt ab", "de"),
        ("défausse 3 maintenant", "fr"),
    ],
)
def test_now_in_each_language_after_a_rearrangement(text, language):
    state, view = rearranged_view()
    card_id = next(card["id"] for card in view["hands"][0]["cards"] if card["slot"] == 3)
    assert action(text, view, language)["card_id"] == card_id


@pytest.mark.parametrize(
    "text, language, asked",
    [
        ("play 3", "en", "“play 3 now”"),
        ("spiele 3", "de", "“spiele 3 jetzt”"),
        ("joue 3", "fr", "“joue 3 maintenant”"),
        ("wirf 2 ab", "de", "“wirf 2 jetzt ab”"),
        ("défausse 2", "fr", "“défausse 2 maintenant”"),
    ],
)
def test_the_refusal_after_a_rearrangement_suggests_now_in_the_words_written(text, language, asked):
    _, view = rearranged_view()
    with pytest.raises(Impossible) as caught:
        read_reply(text, view, language=language)
    assert asked in caught.value.reason


# -- clues: verbs, players and seats ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "hinweis Mark rot",
        "Hinweis mark: rot.",
        "tipp Mark rot",
        "hinweis platz 3 rot",
        "hinweis spieler 3 rot",
        "hinweis 3 rot",
        "indice Mark rouge",
        "Indice mark : rouge",
        "indice joueur 3 rouge",
        "indice place 3 rouge",
        "indice siège 3 rouge",
        "indice siege 3 rouge",
        "indice à Mark rouge",
        "clue Mark red",
    ],
)
def test_a_clue_in_each_language(text):
    _, view = table()
    for language in LANGUAGES:
        assert action(text, view, language) == {"type": "clue", "target": 2, "colour": "red"}


def test_a_french_a_is_still_a_name_prefix():
    # "à" is a word of the French clue ("indice à Al rouge"); a bare "a" is a name's start.
    _, view = table(names=["Ann", "Al", "Cid"])
    assert action("indice a rouge", view, "fr")["target"] == 1
    assert action("indice à al rouge", view, "fr")["target"] == 1


def test_a_clue_without_a_value_in_german():
    _, view = table()
    assert "names a player" in refusal("hinweis rot", view, "de")


# -- clues: colours by name ----------------------------------------------------------------------

COLOUR_NAMES = {
    "red": ["rot", "rote", "Roten", "rouge", "rouges"],
    "yellow": ["gelb", "gelbe", "jaune", "jaunes"],
    "green": ["grün", "Grün", "grüne", "gruen", "gruene", "vert", "verte", "verts"],
    "blue": ["blau", "blaue", "bleu", "bleue", "bleus"],
    "white": ["weiß", "Weiß", "weiss", "weiße", "weisse", "blanc", "blanche", "blancs"],
    "multicolour": [
        "bunt",
        "bunte",
        "mehrfarbig",
        "Farbrausch",
        "regenbogen",
        "multicolore",
        "multicolores",
        "arc-en-ciel",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "word, colour", [(word, colour) for colour, words in COLOUR_NAMES.items() for word in words]
)
def test_colour_names_of_every_language_whoever_reads(word, colour, language):
    _, view = table(multicolour=1)
    reply = read_reply(f"hinweis Mark {word}", view, language=language)
    assert reply.action == {"type": "clue", "target": 2, "colour": colour}
    assert reply.summary == f"clue Mark: {colour}"


def test_a_colour_name_of_another_language_does_not_make_multicolour_a_clue_colour():
    _, view = table(multicolour=0)
    with pytest.raises(Impossible) as caught:
        read_reply("hinweis Mark bunt", view, language="de")
    assert caught.value.reason.startswith("multicolour is not a clue colour in this game")


# -- clues: colours by letter, and the letters that differ between languages -----------------

LETTERS = {
    # Each language's letters, as its edition's colour names begin.
    "en": {"r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "white", "m": "multicolour"},
    "de": {
        "r": "red",  # rot
        "g": "yellow",  # gelb
        "ge": "yellow",
        "gr": "green",  # grün
        "b": "blue",  # blau
        "bl": "blue",
        "w": "white",  # weiß
        "m": "multicolour",  # mehrfarbig
        "bu": "multicolour",  # bunt
    },
    "fr": {
        "r": "red",  # rouge
        "j": "yellow",  # jaune
        "v": "green",  # vert
        "b": "white",  # blanc
        "bc": "white",
        "bl": "blue",  # bleu
        "m": "multicolour",  # multicolore
    },
}


@pytest.mark.parametrize(
    "language, letter, colour",
    [
        (lang, letter, colour)
        for lang, letters in LETTERS.items()
        for letter, colour in letters.items()
    ],
)
def test_each_languages_letters_in_that_language(language, letter, colour):
    _, view = table(multicolour=2)
    for written in (letter, letter.upper(), f"{letter.upper()}."):
        assert action(f"clue Mark {written}", view, language) == {
            "type": "clue",
            "target": 2,
            "colour": colour,
        }


@pytest.mark.parametrize("language, colour", [("en", "blue"), ("de", "blue"), ("fr", "white")])
def test_b_is_blue_in_english_and_german_and_white_in_french(language, colour):
    _, view = table()
    # Whatever language the command's verb is in: the letter is the reader's.
    for verb in ("clue", "hinweis", "indice"):
        assert action(f"{verb} Mark b", view, language)["colour"] == colour


@pytest.mark.parametrize("language, colour", [("en", "green"), ("de", "yellow")])
def test_g_is_green_in_english_and_yellow_in_german(language, colour):
    _, view = table()
    assert action("hinweis Mark g", view, language)["colour"] == colour
    assert action("clue Mark G", view, language)["colour"] == colour


def test_g_for_a_french_reader_is_neither_guessed_nor_wrong():
    # French has no colour with G: English says green, German yellow. Nothing is clued.
    _, view = table()
    reason = refusal("indice Mark g", view, "fr")
    assert "“g”" in reason and "green" in reason and "yellow" in reason
    assert "name" in reason


@pytest.mark.parametrize(
    "letter, colour", [("y", "yellow"), ("j", "yellow"), ("v", "green"), ("gr", "green")]
)
def test_a_letter_of_one_language_only_is_read_whoever_reads(letter, colour):
    _, view = table()
    for language in LANGUAGES:
        assert action(f"clue Mark {letter}", view, language)["colour"] == colour


def test_bl_is_blue_in_german_and_french():
    _, view = table()
    for language in LANGUAGES:
        assert action("clue Mark bl", view, language)["colour"] == "blue"


def test_an_unknown_language_reads_as_english():
    _, view = table()
    assert action("clue Mark b", view, "es")["colour"] == "blue"
    assert action("clue Mark b", view, "de-AT")["colour"] == "blue"
    assert action("clue Mark b", view, "fr-CA")["colour"] == "white"
    assert action("clue Mark b", view, None)["colour"] == "blue"


def test_the_default_reader_is_english():
    _, view = table()
    assert read_reply("clue Mark b", view).action["colour"] == "blue"
    assert read_reply("clue Mark g", view).action["colour"] == "green"


# -- clues: ranks --------------------------------------------------------------------------------

RANK_WORDS = {
    1: ["eins", "Einsen", "einser", "un", "une", "1er"],
    2: ["zwei", "zweien", "zweier", "deux", "2er"],
    3: ["drei", "dreien", "trois"],
    4: ["vier", "vieren", "vierer", "quatre", "4er"],
    5: ["fünf", "fuenf", "fünfen", "fünfer", "cinq"],
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "word, rank", [(word, rank) for rank, words in RANK_WORDS.items() for word in words]
)
def test_rank_words_of_every_language(word, rank, language):
    _, view = table()
    reply = read_reply(f"indice mary ann {word}", view, language=language)
    assert reply.action == {"type": "clue", "target": 1, "rank": rank}


def test_a_rank_out_of_range_in_german():
    _, view = table()
    with pytest.raises(Impossible):
        read_reply("hinweis Mark 6er", view, language="de")


# -- help, chat and what is not a command ----------------------------------------------------------


@pytest.mark.parametrize("text", ["hilfe", "Hilfe!", "befehle", "aide", "Aide !", "commandes"])
def test_help_in_each_language(text):
    _, view = table()
    for language in LANGUAGES:
        assert read_reply(text, view, language=language) == Reply(
            action=None, summary="", wants_help=True, chat=""
        )


def test_chat_after_a_german_or_french_command():
    _, view = table()
    reply = read_reply("spiele 3\nchat: Entschuldigung!", view, language="de")
    assert reply.action == {"type": "play", "card_id": 2} and reply.chat == "Entschuldigung!"
    reply = read_reply("indice mark 4\nChat : bien joué", view, language="fr")
    assert reply.action == {"type": "clue", "target": 2, "rank": 4}
    assert reply.chat == "bien joué"


@pytest.mark.parametrize("text", ["ich spiele 3", "je joue 3", "rot 3", "spielen wir"])
def test_words_that_are_no_command_in_any_language(text):
    _, view = table()
    for language in LANGUAGES:
        with pytest.raises(NotUnderstood) as caught:
            read_reply(text, view, language=language)
        assert not isinstance(caught.value, Impossible)


# -- examples in the reader's language --------------------------------------------------------


def test_examples_in_german_and_french():
    from games.engine import Clue, Discard
    from tests.engine.helpers import deck_with_top

    opts = GameOptions(3)
    state = new_game(
        opts, deck=deck_with_top(opts, "R1 R2 Y1 G1 B1  R3 Y3 R4 W1 W2  B2 B3 G2 G3 W3")
    )
    state.apply(Clue(1, colour="red"))
    state.apply(Clue(2, colour="blue"))
    state.apply(Discard(14))
    view = view_for(state, 0, NAMES[:3])
    assert example_commands(view) == ["play 1", "clue Mary Ann red", "discard 5"]
    assert example_commands(view, language="de") == [
        "spiele 1",
        "hinweis Mary Ann rot",
        "abwerfen 5",
    ]
    assert example_commands(view, language="fr") == [
        "joue 1",
        "indice Mary Ann rouge",
        "défausse 5",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", range(8))
def test_every_example_in_each_language_reads_back_to_a_legal_action(seed, language):
    rng = SplitMix64(seed)
    options = GameOptions(players=2 + seed % 5, multicolour=seed % 4)
    state = new_game(options, seed=seed)
    for _ in range(rng.below(30)):
        legal = state.legal_actions()
        if state.is_over or not legal:
            break
        state.apply(legal[rng.below(len(legal))])
    if state.is_over:
        return
    names = ["Ann", "Mary Ann", "Mark", "Bob", "bobby", "Al"]
    view = view_for(state, state.current_seat, names[: options.players])
    legal = [action_to_dict(move) for move in state.legal_actions()]
    examples = example_commands(view, count=30, language=language)
    assert examples
    for example in examples:
        assert read_reply(example, view, language=language).action in legal, example
