"""The answers to a player's replies show nothing of their own cards, nor the deck: two
games that differ only in those send the player the same answers, text and HTML; and a
search of the answers finds none of the cards the player cannot see."""

import pytest
from django.utils import translation

from games.engine import GameOptions, new_deck
from games.models import Game
from games.services import play
from games.wording import card_name
from tests.games.conftest import make_user, start_game
from tests.games.leak_probe import (
    SEED,
    hide_swapped_deck,
    local_code,
    normalise_email,
    same_clue,
    shown_in_text,
)
from tests.mail import html_body
from tests.mailplay.conftest import send_reply

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("send_at_once")]

# What the viewer replies, one after the other, while it is their turn: each is answered
# with the table (the clue is a move, answered with the table after it).
REPLIES = ("help", "what is this?", "play 9", "clue 3 1")


def answers(game: Game, viewer, mailoutbox, replies=REPLIES) -> list[tuple[str, str, str]]:
    """(subject, text, HTML) of the answers to each reply, in order."""
    found = []
    for text in replies:
        mailoutbox.clear()
        send_reply(game, viewer, text)
        (answer,) = [m for m in mailoutbox if m.to == [viewer.email]]
        found.append((answer.subject, answer.body, html_body(answer)))
    return found


# What the answers' subjects say, and the reader's own hand, in each language (issue 29):
# the answers are checked in every language a player may choose.
SUBJECTS = {
    "en": [
        "the table and the commands",
        "your reply was not understood",
        "no move was made",
        "your move is made",
    ],
    "de": [
        "der Tisch und die Befehle",
        "deine Antwort wurde nicht verstanden",
        "kein Zug wurde gemacht",
        "dein Zug ist gemacht",
    ],
    "fr": [
        "la table et les commandes",
        "ta réponse n'a pas été comprise",
        "aucun coup n'a été joué",
        "ton coup est joué",
    ],
}
YOUR_HAND = {"en": "Your hand", "de": "Deine Hand", "fr": "Ta main"}
LANGUAGES = pytest.mark.parametrize("language", ["en", "de", "fr"])


def speaking(language: str, users: list) -> list:
    for user in users:
        user.language = language
        user.save(update_fields=["language"])
    return users


def local_names(card, language: str) -> set[str]:
    """The card's name as the engine writes it and as the reader's language does."""
    with translation.override(language):
        return {card.name, card_name(card.suit_name, card.rank)}


def clued_game(deck: list, users) -> Game:
    return start_game(*users, deck=deck, seed=SEED, turn_time_limit=24)


@LANGUAGES
def test_the_answers_do_not_depend_on_the_readers_own_cards(mailoutbox, language, translated):
    users = speaking(language, [make_user(name) for name in ("ann", "ben", "cid")])
    deck = [list(card) for card in new_deck(GameOptions(players=3), SEED)]
    game_a = clued_game(deck, users)
    viewer_seat = 1
    viewer = game_a.seats.get(position=viewer_seat).user
    deck_b = hide_swapped_deck(deck, list(game_a.load_state().hand(viewer_seat)))
    game_b = clued_game(deck_b, users)
    clue = same_clue(game_a, game_b, viewer_seat)
    for game in (game_a, game_b):
        play.submit_action(game.pk, game.seats.get(position=0).user, clue, 0)

    answers_a = answers(game_a, viewer, mailoutbox)
    answers_b = answers(game_b, viewer, mailoutbox)
    for answer_a, answer_b in zip(answers_a, answers_b, strict=True):
        for part_a, part_b in zip(answer_a, answer_b, strict=True):
            assert normalise_email(part_a, game_a) == normalise_email(part_b, game_b)
    # There was something to compare: each answer holds the table.
    assert [subject.split(": ", 1)[1] for subject, _, _ in answers_a] == SUBJECTS[language]
    assert all(YOUR_HAND[language] in text for _, text, _ in answers_a)


@LANGUAGES
def test_the_answers_name_no_hidden_card(mailoutbox, language, translated):
    users = speaking(language, [make_user(name) for name in ("ann", "ben")])
    game = start_game(*users, seed=SEED, turn_time_limit=24)
    viewer = game.seats.get(position=game.current_seat).user
    state = game.load_state()
    viewer_seat = game.current_seat
    visible = {state.card(cid) for cid in state.hand(1 - viewer_seat)}
    hidden = [state.card(cid) for cid in state.hand(viewer_seat)]
    hidden += [state.card(cid) for cid in range(state.cards_drawn, len(state.deck))]
    never_seen = {card for card in hidden if card not in visible}
    assert any(state.card(cid) in never_seen for cid in state.hand(viewer_seat))

    other = 1 - viewer_seat
    rank = state.card(state.hand(other)[0]).rank
    replies = [*REPLIES[:-1], f"clue {other + 1} {rank}"]
    found = answers(game, viewer, mailoutbox, replies)
    assert SUBJECTS[language][-1] in found[-1][0]
    for subject, text, html in found:
        for card in never_seen:
            for name in local_names(card, language):
                for body in (subject, text, html):
                    assert name not in body, card
            # The code in the reader's letters: in French "B3" is blanc 3, which may be
            # shown, whatever blue 3's English code.
            code = local_code(card, language)
            assert not shown_in_text(code).search(text), card
            assert f">{code}<" not in html, card
