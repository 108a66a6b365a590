"""Issue 30: where the H-Group bot takes the safe reading of a clue that could mean two things
at its level, the game's history says so beside its move, in words and in the reader's
language, naming only the bot's own slot and the clue's giver and turn: never a card. The
note is kept on the move (Move.safe_reading), so the replay of a finished game shows it too.
While the game is played, a player whose blind play the bot's reading waits on is not shown
it (to them it would say that a card of their own connects)."""

import re
from html import unescape

import pytest

from games.bots.hgroup.safe import SAVE, WAITS
from games.emails import in_language_of, turn_context
from games.engine import Clue, GameOptions, action_to_dict
from games.engine.cards import SUIT_LETTERS, SUITS
from games.models import BotKind, Game, MadeBy, Move, Seat
from games.services import lobby, play
from tests.bots.hgroup.test_level2_positions import XX, at2

SAFE = re.compile(r'<em class="safe-reading">\((.*?)\)</em>', re.S)
ENGLISH = re.compile(
    r"Its slot [1-5] could be read two ways from (your clue|(?P<giver>.+)'s clue) on turn "
    r"\d+; it took the safe reading( and waits|: a save, not a play yet)\."
)
WAITING = (
    "(Its slot 3 could be read two ways from your clue on turn 1; it took the safe reading "
    "and waits.)"
)
WAITING_DE = (
    "(Sein Platz 3 ließ sich nach deinem Hinweis in Zug 1 auf zwei Arten lesen; er nahm die "
    "sichere Lesart und wartet.)"
)


def seat_as(game: Game, position: int, **fields) -> None:
    Seat.objects.filter(game=game, position=position).update(**fields)


def finesse_table(alice, bob) -> Game:
    """Alice (seat 0), an H-Group bot at level 2 (seat 1), Bob (seat 2), dealt so that
    Alice's red clue on the bot's red 2 (its slot 3) may be a play clue on a red 1 or a
    finesse on Bob's red 1 (tests/bots/hgroup/test_level2_positions.py's safe reading)."""
    position = at2([XX, ["xx", "xx", "r2", "xx", "xx"], ["r1", "xx", "xx", "xx", "xx"]])
    game = lobby.create_game(alice, GameOptions(players=3), Game.Visibility.INVITE)
    Game.objects.filter(pk=game.pk).update(deck=[list(card) for card in position.state.deck])
    lobby.join_game(game.pk, bob, game.invite_code)
    lobby.set_bot(game.pk, alice, 2, True, BotKind.HGROUP, 2)
    lobby.start_game(game.pk, alice)
    # The seats as the position has them (the start shuffled them).
    Seat.objects.filter(game=game).update(user=None)
    seat_as(game, 0, user=alice, is_bot=False, bot_kind=BotKind.HOUSE, bot_level=None)
    seat_as(game, 1, user=None, is_bot=True, bot_kind=BotKind.HGROUP, bot_level=2)
    seat_as(game, 2, user=bob, is_bot=False, bot_kind=BotKind.HOUSE, bot_level=None)
    game.refresh_from_db()
    assert game.turn == 0 and game.current_seat == 0
    return game


def clue_and_wait(game: Game, alice) -> Move:
    play.submit_action(game.pk, alice, action_to_dict(Clue(1, colour="red")), 0)
    red = game.load_state().hand(1)[2]
    move = play.bot_move(game.pk, 1)
    assert move is not None and move.made_by == MadeBy.BOT
    # It does not play its red card (slot 3) yet: Bob's blind play may come first.
    assert move.action != {"type": "play", "card_id": red}
    return move


def page(client, user, game: Game) -> str:
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/", follow=True)  # (the replay, once over)
    assert response.status_code == 200
    return unescape(response.content.decode())


def sentences(html: str) -> list[str]:
    return [" ".join(found.split()) for found in SAFE.findall(html)]


def play_to_the_end(game: Game) -> Game:
    """Every seat by its bot: the H-Group seat by bot_move, each person's by the house bot
    through submit_action (as a person's move)."""
    for _ in range(300):
        game.refresh_from_db()
        if not game.is_playing():
            return game
        seat = Seat.objects.select_related("user").get(game=game, position=game.current_seat)
        if seat.is_bot:
            play.bot_move(game.pk, game.turn)
        else:
            action = play.bot_action(game, seat, game.load_state())
            play.submit_action(game.pk, seat.user, action_to_dict(action), game.turn)
    raise AssertionError("the game did not end")


def test_the_bot_keeps_its_safe_reading_on_its_move(alice, bob):
    game = finesse_table(alice, bob)
    move = clue_and_wait(game, alice)
    assert move.safe_reading == {"slot": 3, "turn": 1, "giver": 0, "kind": WAITS, "via": [2]}
    # Alice's own move took no reading.
    assert Move.objects.get(game=game, turn=0).safe_reading is None


def test_the_history_says_it_beside_the_move_in_english_and_german(client, alice, bob):
    game = finesse_table(alice, bob)
    clue_and_wait(game, alice)
    html = page(client, alice, game)
    assert sentences(html) == [WAITING[1:-1]]
    assert WAITING in html
    # Beside the bot's move (turn 2), not beside Alice's clue (turn 1).
    item = re.search(r'<li value="2">(.*?)</li>', html, re.S).group(1)
    assert WAITING in item
    assert "safe-reading" not in re.search(r'<li value="1">(.*?)</li>', html, re.S).group(1)
    alice.language = "de"
    alice.save(update_fields=["language"])
    html = page(client, alice, game)
    assert WAITING_DE in html and WAITING not in html
    # The turn email's history says it too (in Alice's language).
    seat = Seat.objects.select_related("user").get(game=game, position=0)
    with in_language_of(alice):
        context = turn_context(game, seat)
    said = [entry["safe"] for entry in context["recent"] if entry.get("safe")]
    assert said == [WAITING_DE[1:-1]]
    text = " ".join(" ".join(line.split()) for e in context["recent"] for line in e["lines"])
    assert WAITING_DE in text


def test_the_player_whose_blind_play_it_waits_on_is_not_told_until_the_end(client, alice, bob):
    game = finesse_table(alice, bob)
    clue_and_wait(game, alice)
    assert sentences(page(client, bob, game)) == []
    with_bob = Seat.objects.select_related("user").get(game=game, position=2)
    assert not any(entry.get("safe") for entry in turn_context(game, with_bob)["recent"])
    play_to_the_end(game)
    # Once the game is over, the page (the replay) tells everyone.
    giver = game.seat_names()[0]
    assert (
        f"Its slot 3 could be read two ways from {giver}'s clue on turn 1; it took the safe "
        "reading and waits." in sentences(page(client, bob, game))
    )


def test_the_note_survives_the_replay_of_the_page(client, alice, bob):
    game = finesse_table(alice, bob)
    clue_and_wait(game, alice)
    first = sentences(page(client, alice, game))
    assert first == [WAITING[1:-1]]
    assert sentences(page(client, alice, game)) == first  # drawn again (from the cache)
    play_to_the_end(game)
    stored = {m.turn: m.safe_reading for m in game.moves.exclude(safe_reading=None)}
    assert stored[1]["slot"] == 3
    client.force_login(alice)
    for turn in (2, game.turn):
        html = unescape(client.get(f"/games/{game.pk}/replay/{turn}/").content.decode())
        shown = sentences(html)
        # The replay's history: every stored note up to that turn, and no other.
        assert len(shown) == sum(1 for t in stored if t < turn)
        assert any(
            s.startswith("Its slot 3 could be read two ways from") and "on turn 1;" in s
            for s in shown
        )
    alice.language = "de"
    alice.save(update_fields=["language"])
    html = unescape(client.get(f"/games/{game.pk}/replay/2/").content.decode())
    assert any("Sein Platz 3 ließ sich nach dem Hinweis von" in s for s in sentences(html))


def test_no_sentence_for_moves_without_a_safe_reading(client, alice, bob):
    game = finesse_table(alice, bob)
    play_to_the_end(game)
    stored = game.moves.exclude(safe_reading=None).count()
    assert game.moves.filter(made_by=MadeBy.PLAYER, safe_reading__isnull=False).count() == 0
    html = page(client, alice, game)
    assert len(sentences(html)) == stored


SEEDS = {1: 20261137, 2: 20261128, 3: 20261136}


def hidden_names(game: Game, position: int) -> set[str]:
    """Every way the page could name a card of the hand at ``position`` now."""
    state = game.load_state()
    names = set()
    for cid in state.hand(position):
        card = state.card(cid)
        suit = SUITS[card.suit]
        names |= {f"{suit} {card.rank}", f"{SUIT_LETTERS[card.suit]}{card.rank}", suit}
    return names


@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_sentence_tells_a_player_any_card_of_their_own(client, alice, bob, level):
    """A game of two people (played by the house bot) and two H-Group bots: at each turn,
    each person's page; every sentence is one of the sentence's forms (a slot, a name and a
    turn), and names none of the cards the viewer holds."""
    game = lobby.create_game(alice, GameOptions(players=4), Game.Visibility.INVITE)
    # Seeds whose game meets safe readings at that level (level 2's: one that waits).
    Game.objects.filter(pk=game.pk).update(seed=SEEDS[level])
    lobby.join_game(game.pk, bob, game.invite_code)
    for position in (2, 3):
        lobby.set_bot(game.pk, alice, position, True, BotKind.HGROUP, level)
    lobby.start_game(game.pk, alice)
    people = {s.position: s.user for s in game.seats.select_related("user") if s.user_id}
    names = game.seat_names()
    checked = 0
    for _ in range(300):
        game.refresh_from_db()
        if not game.is_playing():
            break
        for position, user in people.items():
            hidden = hidden_names(game, position)
            for said in sentences(page(client, user, game)):
                found = ENGLISH.fullmatch(said)
                assert found, said
                assert found["giver"] in (None, *names), said
                for card in hidden:
                    assert card not in said.replace(found["giver"] or "", ""), (card, said)
                checked += 1
        seat = Seat.objects.select_related("user").get(game=game, position=game.current_seat)
        if seat.is_bot:
            play.bot_move(game.pk, game.turn)
        else:
            action = play.bot_action(game, seat, game.load_state())
            play.submit_action(game.pk, seat.user, action_to_dict(action), game.turn)
    game.refresh_from_db()
    assert game.is_finished()
    stored = list(game.moves.exclude(safe_reading=None).values_list("safe_reading", flat=True))
    assert stored and checked > 0, "the game met no safe reading: choose another seed"
    assert {s["kind"] for s in stored} <= {WAITS, SAVE}
    for safe in stored:
        assert set(safe) == {"slot", "turn", "giver", "kind", "via"}


def test_the_sentence_in_each_language_and_to_whom():
    from django.utils import translation

    from games.safe_words import sentence

    names = ["Alice", "H-Group bot 2 (level 2)", "Bob"]
    safe = {"slot": 3, "turn": 7, "giver": 0, "kind": WAITS, "via": [2]}
    assert sentence(safe, names, None, False) == (
        "Its slot 3 could be read two ways from Alice's clue on turn 7; it took the safe "
        "reading and waits."
    )
    assert sentence(safe, names, 2, False) is None  # Bob's blind play is waited on
    assert sentence(safe, names, 2, True).startswith("Its slot 3")  # (the game is over)
    saved = {**safe, "kind": SAVE, "via": []}
    with translation.override("fr"):
        assert sentence(safe, names, 2, True) == (
            "Sa position 3 pouvait se lire de deux façons après l'indice d'Alice au tour 7 ; "
            "il a pris la lecture prudente et attend."
        )
        assert sentence(saved, names, 0, False) == (
            "Sa position 3 pouvait se lire de deux façons après ton indice au tour 7 ; il a "
            "pris la lecture prudente : un sauvetage, pas encore un jeu."
        )
    with translation.override("de"):
        assert sentence(saved, names, 2, False) == (
            "Sein Platz 3 ließ sich nach dem Hinweis von Alice in Zug 7 auf zwei Arten lesen; "
            "er nahm die sichere Lesart: eine Rettung, noch kein Ausspielen."
        )
    assert sentence(None, names, 0, False) is None
    assert sentence({**safe, "kind": "other"}, names, 0, False) is None
