"""The house bot says what it believes (issue 27): when it stops reading a player's clues by
its conventions, the history says so at the turn it happened, the table's status line keeps
it, the look-back and the replay say the same at the same turn, and /bots/ explains it.

Two players: Alice in seat 0 (seed 1 seats her there), the house bot ("Bot 2") in seat 1.
Alice holds cards 4 3 2 1 0 (slot 1 first), the bot 9 8 7 6 5. Alice's moves are scripted,
the bot's are its own (games/services/play.bot_move).
"""

import re
from html import unescape

import pytest
from django.core.cache import cache

from games.bots import beliefs
from games.bots.knowledge import CONVENTION
from games.engine import Clue, Discard, GameOptions, Play, action_to_dict, view_for
from games.models import Game
from games.services import lobby, play
from tests.cache_helpers import cache_keys, unprefixed
from tests.games.conftest import start_game, user_at
from tests.games.helpers import deck
from tests.games.test_page_queries import SESSION_QUERIES

# Alice's first clue is forced (8 tokens); then she clues red on the bot's R3 (card 7) alone,
# which by the one-card rule means "play it": the bot plays it, a fuse burns (turn 4).
OFF = ("G3 B4 W4 Y3 G4  Y4 B3 R3 W3 G2  Y2 R4 B5", [Clue(1, rank=4), Clue(1, colour="red")])
# The bot clues Alice's B1 alone and she plays it; later she discards while the bot's
# yellow clue has shown her slot 1 to be playable (turn 5).
KEEPS = ("G3 B1 W4 Y3 G4  Y4 B3 R3 W3 R1  Y1 G1 W1 R2 G2 B2", [Clue(1, rank=4), Play(1)])
# Alice clues the bot's R1 alone and the bot plays it: nothing to change.
PLAIN = ("G3 B2 W4 Y3 G4  Y4 B3 R1 W3 G2  Y1 G1 W1", [Clue(1, rank=4), Clue(1, colour="red")])

REMARK = re.compile(r'<em class="bot-remark">(.*?)</em>', re.S)
LINE = re.compile(r'<p class="bot-beliefs">(.*?)</p>', re.S)


def bot_game(alice, top: str, moves: list) -> Game:
    """Alice and the house bot, this deck; Alice's moves as given, each followed by the bot's
    (as the worker runs it)."""
    game = lobby.create_game(
        alice, GameOptions(players=2), Game.Visibility.INVITE, bots=1, deck=deck(top)
    )
    Game.objects.filter(pk=game.pk).update(seed=1)  # Alice in seat 0
    lobby.start_game(game.pk, alice)
    game.refresh_from_db()
    assert game.seats.get(position=0).user == alice and game.seats.get(position=1).is_bot
    for action in moves:
        advance(game, alice, action)
    return game


def advance(game: Game, alice, action) -> None:
    """Alice's move, then the bot's."""
    game.refresh_from_db()
    play.submit_action(game.pk, alice, action_to_dict(action), game.turn)
    game.refresh_from_db()
    if game.is_playing():
        assert play.bot_move(game.pk, game.turn) is not None


def _history_items(page: str) -> list[str]:
    """The history's lines, oldest first, with their remarks."""
    section = page[page.index('id="history-heading"') :]
    section = section[: section.index("</ol>")]
    return list(reversed(re.findall(r"<li[^>]*>(.*?)</li>", section, re.S)))


def _remarks(item: str) -> list[str]:
    return [unescape(re.sub(r"\s+", " ", text)) for text in REMARK.findall(item)]


def _lines(page: str) -> list[str]:
    return [unescape(re.sub(r"<a .*?</a>", "", line).strip()) for line in LINE.findall(page)]


@pytest.mark.django_db
def test_the_bot_says_when_it_stops_reading_a_partner_by_its_conventions(client, alice):
    game = bot_game(alice, *OFF)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    items = _history_items(page)
    assert "Bot 2 misplays red 3" in items[3]
    said = (
        "Bot 2 reads your clues literally from now on: Bot 2 misplayed red 3, which your "
        "clue had marked as playable."
    )
    # At the turn it happened, and only there.
    assert [_remarks(item) for item in items] == [[], [], [], [said]]
    # The status line keeps it.
    assert _lines(page) == ["Bot 2 reads your clues literally (since turn 4)."]
    assert page.index('class="status-line"') < page.index('class="bot-beliefs"')
    assert page.index('class="bot-beliefs"') < page.index('class="board')

    # Later moves leave it where it was.
    advance(game, alice, Clue(1, colour="green"))
    page = client.get(f"/games/{game.pk}/").content.decode()
    items = _history_items(page)
    assert [bool(_remarks(item)) for item in items] == [False, False, False, True, False, False]
    assert _lines(page) == ["Bot 2 reads your clues literally (since turn 4)."]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said", "line"),
    [
        (
            "de",
            "Bot 2 liest deine Hinweise ab jetzt wörtlich: Bot 2 hat rot 3 falsch ausgespielt, "
            "die dein Hinweis als spielbar markiert hatte.",
            "Bot 2 liest deine Hinweise wörtlich (seit Zug 4).",
        ),
        (
            "fr",
            "Bot 2 lit désormais tes indices à la lettre : Bot 2 a joué rouge 3 par erreur, "
            "que ton indice avait désignée comme jouable.",
            "Bot 2 lit tes indices à la lettre (depuis le tour 4).",
        ),
    ],
)
def test_the_bot_says_it_in_the_readers_language(client, alice, translated, language, said, line):
    alice.language = language
    alice.save(update_fields=["language"])
    game = bot_game(alice, *OFF)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert [_remarks(item) for item in _history_items(page)][3] == [said]
    assert _lines(page) == [line]


@pytest.mark.django_db
def test_the_look_back_and_the_replay_say_it_at_the_same_turn(client, alice):
    game = bot_game(alice, *OFF)
    client.force_login(alice)
    said = "Bot 2 reads your clues literally from now on"
    before = client.get(f"/games/{game.pk}/as-seen/3/").content.decode()  # before the misplay
    assert said not in before and 'class="bot-remark"' not in before
    after = client.get(f"/games/{game.pk}/as-seen/4/").content.decode()
    assert [bool(_remarks(item)) for item in _history_items(after)] == [False] * 3 + [True]
    assert said in _remarks(_history_items(after)[3])[0]

    # To the end: Alice discards (or clues, with no token to win back), the bot moves.
    for _ in range(200):
        game.refresh_from_db()
        if not game.is_playing():
            break
        state = game.load_state()
        legal = state.legal_actions()
        advance(game, alice, next((a for a in legal if isinstance(a, Discard)), legal[0]))
    game.refresh_from_db()
    assert game.is_finished()
    for turn in (4, game.turn):
        page = client.get(f"/games/{game.pk}/replay/{turn}/").content.decode()
        items = _history_items(page)
        # In the replay every name is a name: Alice's clues are hers.
        assert _remarks(items[3])[0].startswith(
            "Bot 2 reads Alice's clues literally from now on: Bot 2 misplayed red 3"
        )
        assert all(not _remarks(item) for item in items[:3])
    page = client.get(f"/games/{game.pk}/replay/3/").content.decode()
    assert 'class="bot-remark"' not in page


@pytest.mark.django_db
def test_a_partner_who_keeps_to_the_conventions_loses_no_trust(client, alice):
    game = bot_game(alice, *PLAIN)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Bot 2 plays red 1" in page
    assert 'class="bot-remark"' not in page and 'class="bot-beliefs"' not in page

    # Alice plays the card the bot's lone clue pointed at: it now reads her clues by its
    # conventions (beliefs.changes has it), which is the bot working as /bots/ says: neither
    # the history nor the table remarks on it.
    deck_top, moves = KEEPS
    game = bot_game(alice, deck_top, moves)
    view = view_for(game.load_state(), 0)
    (gained,) = beliefs.changes(view["options"], view["history"], [1])
    assert gained.after.level == CONVENTION and gained.cause == "implied_play"
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "blue 1" in _history_items(page)[2]
    assert 'class="bot-remark"' not in page and 'class="bot-beliefs"' not in page


@pytest.mark.django_db
def test_a_partner_who_discards_a_card_shown_playable_is_told(client, alice):
    deck_top, moves = KEEPS
    game = bot_game(alice, deck_top, [*moves, Discard(0)])
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    items = _history_items(page)
    assert items[4].startswith("Alice discards")
    assert _remarks(items[4]) == [
        "Bot 2 no longer reads your clues by its conventions, and no longer expects you to "
        "read a clue beyond what it shows: you discarded although a clue had shown your card "
        "in slot 1 to be playable."
    ]
    assert _lines(page) == [
        "Bot 2 no longer reads your clues by its conventions, and no longer expects you to "
        "read a clue beyond what it shows (since turn 5)."
    ]


@pytest.mark.django_db
def test_the_remarks_name_none_of_the_viewers_own_cards(client, alice):
    game = bot_game(alice, *OFF)
    client.force_login(alice)
    state = game.load_state()
    own = {state.card(cid).name for cid in state.hand(0)}
    shown = {"red 3"}  # the bot's misplayed card, face up in the discards
    assert own and not own & shown
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/as-seen/4/"):
        page = client.get(url).content.decode()
        said = unescape(" ".join(REMARK.findall(page) + LINE.findall(page)))
        assert "red 3" in said
        for name in own:
            assert name not in said, (name, said)


def test_the_bots_page_explains_how_the_bot_changes_its_mind(client):
    page = client.get("/bots/").content.decode()
    assert 'id="adapting"' in page
    for idea in (
        "When the bot changes its mind about you",
        "by the one-card rule only",
        "literally",
        "Up to its conventions",
        "Down one step",
        "This never goes back up",
        "You do not act on clues",
        "hardly ever happens",
    ):
        assert idea in page, idea


@pytest.mark.django_db
def test_a_table_without_a_bot_reads_no_seats_for_it(
    client, alice, bob, django_assert_max_num_queries
):
    # A turn page drawn afresh (tests/games/test_page_queries.py) once moves were made: the
    # session (unless cached), the user, the game and its seats, the moves, the chat, the
    # moderators' actions; nothing more for the bots' beliefs when no bot has moved.
    game = start_game(alice, bob)
    for _ in range(2):
        game.refresh_from_db()
        state = game.load_state()
        clue = next(a for a in state.legal_actions() if isinstance(a, Clue))
        user = user_at(game, state.current_seat)
        play.submit_action(game.pk, user, action_to_dict(clue), game.turn)
    client.force_login(alice)
    url = f"/games/{game.pk}/"
    client.get(url)
    cache.delete_many([unprefixed(key) for key in cache_keys(":table:")])
    with django_assert_max_num_queries(5 + SESSION_QUERIES):
        page = client.get(url).content.decode()
    assert "Alice clues" in page and 'class="bot-remark"' not in page
