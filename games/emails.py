"""What each game email says, and when it is not sent. Each is the handler of one kind of
outbox row (games/services/announce.py says when the rows are written). Every handler is
safe to run twice: it re-reads the game and does nothing if the moment has passed (the turn
was played, the game ended)."""

import textwrap
from datetime import datetime

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.game_email import may_receive_game_email
from accounts.languages import IN_LANGUAGE, LINK_PARAMETER, supported
from accounts.models import User
from accounts.scoped import scoped_url
from accounts.unsubscribe import unsubscribe_url
from games import outbox_kinds, review, safe_words
from games.engine import SUIT_LETTERS, SUITS, view_for
from games.engine.cards import RANKS
from games.models import Game, Invitation, MadeBy, Seat
from games.reply_address import reply_address
from games.services import replays
from games.services.announce import notify_delay
from games.table_context import clue_badges
from games.text_commands import example_commands, local_code, local_letters
from games.wording import colour_name, entry_sentence, options_text, outcome_in_words
from lib.emails import send_email
from lib.time_zones import zone_named
from outbox.models import Outbox
from outbox.registry import Retry, handler


def game_link(user: User, game: Game, path: str | None = None) -> str:
    """A link that opens this game's pages, and nothing else, for `user` (a scoped link:
    accounts/scoped.py), at `path` (default: the game). It does not log in: a forwarded
    email lets its reader act in this one game, for as long as the link lives."""
    return scoped_url(user, game.get_absolute_url(), path)


@handler(outbox_kinds.INVITATION)
def send_invitation(row: Outbox) -> None:
    invitation = Invitation.objects.select_related("game", "invited_by").get(
        pk=row.payload["invitation"]
    )
    game = invitation.game
    join_path = reverse("games:invite", args=[game.pk, game.invite_code])
    context = {
        "game": game,
        "inviter": invitation.invited_by,
        "join_url": settings.SITE_URL + join_path,
    }
    member = User.objects.filter(email__iexact=invitation.email, is_active=True).first()
    if member is None or not may_receive_game_email(member):
        # No account (or one whose owner never confirmed the address), so no preferences
        # to point at: the email says why it came. In the inviter's language, the only one
        # known (issue 29).
        with in_language_of(invitation.invited_by):
            context["options_text"] = options_text(game.game_options)
            # The reader's language is unknown: the table's page in each other language.
            context["in_other_languages"] = [
                (code, IN_LANGUAGE[code], f"{context['join_url']}?{LINK_PARAMETER}={code}")
                for code in IN_LANGUAGE
                if code != translation.get_language()
            ]
            send_email("games/invitation", invitation.email, context)
    elif member.notify != User.Notify.NONE:
        with in_language_of(member):
            context["options_text"] = options_text(game.game_options)
            send_game_email("invitation", member, context)


def send_game_email(kind: str, user: User, context: dict, headers: dict | None = None) -> None:
    """A game email: one-click unsubscribe headers (RFC 8058), any `headers` given (a
    Reply-To, say), and a preferences footer. None goes to an address its owner has not
    confirmed: a sign-up with someone else's address must not fill their inbox."""
    if not may_receive_game_email(user):
        return
    # An email about one game the recipient plays unsubscribes from that game only (issue
    # 25); a digest, or an invitation to a game not joined yet, from every game email.
    game = context.get("game")
    plays_in_it = game is not None and game.seats.filter(user=user).exists()
    unsubscribe = unsubscribe_url(user, game_id=game.pk if plays_in_it else None)
    context = {
        **context,
        "user": user,
        "unsubscribe_url": unsubscribe,
        "unsubscribe_mutes_one_game": plays_in_it,
        "preferences_url": settings.SITE_URL + reverse("accounts:profile"),
    }
    headers = {
        **(headers or {}),
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    # Deadlines in the email are shown in the recipient's time zone, as on the site, and
    # everything in the recipient's language (issue 29), whoever's action sent it.
    with timezone.override(zone_named(user.time_zone)), in_language_of(user):
        send_email(f"games/{kind}", user.email, context, headers=headers)


def in_language_of(user: User) -> translation.override:
    """Inside, everything is said in `user`'s language: a whole email, including what its
    context says in words (turn_context's), must be made inside."""
    return translation.override(supported(user.language))


def _wants_turn_emails(seat: Seat) -> bool:
    return (
        seat.user_id is not None
        and not seat.is_bot
        and not seat.muted
        and seat.user.notify == User.Notify.EVERY_TURN
    )


def turn_context(game: Game, seat: Seat) -> dict:
    """Everything the turn emails' templates need: the table as this seat's player may see
    it (never their own cards), what happened since their last move, and, while it is their
    turn, the address a reply goes to and commands they could reply with. The partials
    emails/games/_table.* and _commands.* render from this context alone, in any email."""
    names = game.seat_names()
    state = game.load_state()
    view = view_for(state, seat.position, names)
    view["options_text"] = options_text(state.options)  # in the reader's language
    # The moves not made by their player, and where an H-Group bot's took the safe reading
    # of a card of its own (said beside it: games/safe_words.py).
    not_by_players = list(
        game.moves.exclude(made_by=MadeBy.PLAYER).values_list("turn", "safe_reading")
    )
    automatic = {turn for turn, _ in not_by_players}
    safe = {turn: reading for turn, reading in not_by_players if reading}
    finished = game.is_finished()
    previous_own = [e.turn for e in state.events if e.seat == seat.position]
    since = previous_own[-1] if previous_own else -1
    recent = []
    # The view's history: the moves, and the free rearrangements of hands (an option) where
    # they were made, by slots only.
    for entry in view["history"]:
        if entry["turn"] > since:
            made_by_rule = entry["type"] != "rearrange" and entry["turn"] in automatic
            entry = {
                **entry,
                "automatic": made_by_rule,
                "text": entry_sentence(entry, state, names),
                "safe": None
                if entry["type"] == "rearrange"
                else safe_words.sentence(safe.get(entry["turn"]), names, seat.position, finished),
            }
            prefix = "- " + _("(automatic)") + " " if entry["automatic"] else "- "
            said = f" ({entry['safe']})" if entry["safe"] else ""
            entry["lines"] = _wrap(prefix + entry["text"] + said, "  ")
            recent.append(entry)
    last_own_move = (
        game.moves.filter(seat=seat.position).order_by("-turn").values_list("created_at", flat=True)
    ).first() or game.started_at
    said = list(
        game.chat.filter(hidden_at=None, created_at__gt=last_own_move)
        .exclude(author=seat.user)
        .select_related("author")
    )
    said_lines = [
        line
        for message in said
        for line in _wrap(f"- {message.author.display_name}: {message.text}", "  ")
    ]
    num_suits = len(view["fireworks"])
    # The others in the order they play after this seat, as on the turn page.
    others = [
        _other_hand(hand)
        for hand in view["hands"][seat.position + 1 :] + view["hands"][: seat.position]
    ]
    _label_hands(others)
    own = _own_hand(view["hands"][seat.position], num_suits)
    discards = _discards(view, num_suits)
    my_turn = (
        game.is_playing()
        and view["your_turn"]
        and game.current_seat == seat.position
        and seat.user_id is not None
    )
    current = view["current_seat"]
    discards_label = _("Discards:") + " "
    return {
        "game": game,
        "view": view,
        "recent": recent,
        "said": said,
        "said_lines": said_lines,
        "fireworks": [
            {
                **firework,
                "letter": _local_code(firework["letter"]),
                **_suit_style(firework["suit"]),
                "suit_name": colour_name(firework["suit"]),
            }
            for firework in view["fireworks"]
        ],
        "figures_text": _figures_text(view),
        "discards": discards,
        "discards_lines": _wrap(
            discards_label
            + (
                " · ".join(" ".join(card["code"] for card in group["cards"]) for group in discards)
                or _("none")
            ),
            " " * len(discards_label),
        ),
        "others": others,
        "own": own,
        "seat_number": seat.position + 1,
        "current_name": None if current is None else view["names"][current],
        "game_url": game_link(seat.user, game),
        "reply_to": (
            reply_address(game.pk, seat.position, game.turn, seat.user_id) if my_turn else None
        ),
        # The commands in the reader's language (all three are read in any reply).
        "examples": example_commands(view, language=translation.get_language()) if my_turn else [],
        "command_forms": command_forms(),
    }


def command_forms() -> list[str]:
    """The forms of the commands, in the active language, as the turn email lists them."""
    return [
        _("play N"),
        _("discard N"),
        _("clue <name or seat> <colour or rank>"),
        _("help"),
        _("chat: <text>"),
    ]


def _figures_text(view: dict) -> str:
    """ "Clue tokens 8/8 · Fuses 3/3 · Deck 35", and the turns left in the last round."""
    text = _(
        "Clue tokens %(clues)s/%(max_clues)s · Fuses %(fuses)s/%(max_fuses)s · Deck %(deck)s"
    ) % {
        "clues": view["clue_tokens"],
        "max_clues": view["max_clue_tokens"],
        "fuses": view["fuses_left"],
        "max_fuses": view["fuses"],
        "deck": view["deck_size"],
    }
    left = view.get("turns_left")
    if left is not None:
        text += " · " + ngettext(
            "last round: %(count)d turn left", "last round: %(count)d turns left", left
        ) % {"count": left}
    return text


def _clue_names(values: list[str]) -> list[str]:
    """A card's clues in words of the active language: colours by name, ranks as digits."""
    return [colour_name(value) for value in values]


# Lines of the text part fit a phone held upright, and a monospace font.
TEXT_WIDTH = 72

# The suit colours of static/css/site.css (emails need inline styles): background and ink.
SUIT_STYLES = {
    "red": ("#c62828", "#fff"),
    "yellow": ("#f2c200", "#1d1d27"),
    "green": ("#2e7d32", "#fff"),
    "blue": ("#1e4fb5", "#fff"),
    "white": ("#f4f4f4", "#1d1d27"),
    # One colour, not a gradient: mail clients seldom draw one, and the site shows the same.
    "multicolour": ("#8e44ad", "#fff"),
}


def _suit_style(suit: str) -> dict:
    background, ink = SUIT_STYLES[suit]
    return {"background": background, "ink": ink}


def _wrap(text: str, indent: str, width: int = TEXT_WIDTH) -> list[str]:
    """`text` as lines of at most `width` characters (unless one word is longer), the
    lines after the first indented."""
    return textwrap.wrap(
        text, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    ) or [text]


def _other_hand(hand: dict) -> dict:
    """A hand the reader sees: each card with its colours, its name, the clues that touched
    it and its text cell ("2 G1 (green)")."""
    cards = []
    for card in hand["cards"]:
        touched = _clue_names(clue_badges(card)[0])
        code = _local_code(card["code"])
        cell = f"{card['slot']} {code}"
        if touched:
            cell += f" ({', '.join(touched)})"
        cards.append(
            {
                **card,
                **_suit_style(card["suit"]),
                "name": f"{colour_name(card['suit'])} {card['rank']}",
                "code": code,
                "letter": _local_code(card["code"][0]),
                "touched_by": touched,
                "cell": cell,
            }
        )
    return {**hand, "number": hand["seat"] + 1, "cards": cards}


def _label_hands(hands: list[dict]) -> None:
    """Each hand's text lines: "2 Bob:   1 R3   2 G1 (green) …", the cards of every hand
    starting in the same column (as far as the names allow), wrapped to the width."""
    labels = [f"{hand['number']} {hand['name']}:" for hand in hands]
    column = min(max((len(label) for label in labels), default=0), 16) + 3
    for hand, label in zip(hands, labels, strict=True):
        line = label + " " * max(3, column - len(label))
        lines = []
        for index, cell in enumerate(card["cell"] for card in hand["cards"]):
            if index and len(line) + 3 + len(cell) > TEXT_WIDTH:
                lines.append(line.rstrip())
                line = " " * column
            elif index:
                line += "   "
            line += cell
        lines.append(line.rstrip() if hand["cards"] else label + " " + _("no cards"))
        hand["lines"] = lines


def _own_hand(hand: dict, num_suits: int) -> dict:
    """This seat's own cards: slot, the clues each got and what it can still be. No
    identity: the view has none for one's own cards."""
    cards = []
    for card in hand["cards"]:
        touched, missed = (_clue_names(values) for values in clue_badges(card))
        nots = [_("not %(value)s") % {"value": value} for value in missed]
        knows = "; ".join(part for part in (", ".join(touched), ", ".join(nots)) if part)
        clued = _("clued %(values)s") % {"values": ", ".join(touched)} if touched else ""
        could_be = _could_be(list(card.get("possible_counted", {})), num_suits)
        said = _("%(knows)s: %(could_be)s") % {
            "knows": knows or _("no clues"),
            "could_be": could_be,
        }
        text = f"{card['slot']:>3}  {said}"
        cards.append(
            {
                "id": card["id"],
                "slot": card["slot"],
                "clued": card["clued"],
                "touched_by": touched,
                "missed_by": missed,
                "knows": knows,
                # The HTML part's words: "clued red, 3; not 1, not blue".
                "knows_html": "; ".join(part for part in (clued, ", ".join(nots)) if part)
                or _("no clues"),
                "could_be": could_be,
                "lines": _wrap(text, "      "),
            }
        )
    return {
        "seat": hand["seat"],
        "number": hand["seat"] + 1,
        "name": hand["name"],
        "cards": cards,
        "clued_slots": [card["slot"] for card in cards if card["clued"]],
    }


def _could_be(codes: list[str], num_suits: int) -> str:
    """What a card can still be, briefly: "any card", "any card but B5", "can be R1 R3",
    "can be any colour, rank 1 3 4; not W4" (the colours and ranks left, and the few
    identities among them that counting rules out), or else suit by suit,
    "can be R1,3-5 Y1,3". Worked out on the engine's codes, written in the reader's letters
    ("can be G1 Gr1" in German: gelb, grün)."""
    letters = SUIT_LETTERS[:num_suits]
    shown = local_letters(translation.get_language())

    def cards(codes: list[str]) -> str:
        return " ".join(shown[code[0]] + code[1:] for code in codes)

    every = [f"{letter}{rank}" for letter in letters for rank in RANKS]
    possible = [code for code in every if code in codes]
    if not possible:
        return _("can be %(cards)s") % {"cards": "?"}  # never: its own copy is unseen
    if len(possible) == len(every):
        return _("any card")
    excluded = [code for code in every if code not in possible]
    if len(excluded) <= 4 < len(possible):
        return _("any card but %(cards)s") % {"cards": cards(excluded)}
    if len(possible) <= 6:
        return _("can be %(cards)s") % {"cards": cards(possible)}
    colours = [letter for letter in letters if any(code[0] == letter for code in possible)]
    ranks = [rank for rank in RANKS if any(code[1] == str(rank) for code in possible)]
    product = [f"{letter}{rank}" for letter in colours for rank in ranks]
    missing = [code for code in product if code not in possible]
    if len(missing) <= 3:
        colours_text = (
            _("any colour")
            if len(colours) == num_suits
            else " ".join(shown[letter] for letter in colours)
        )
        ranks_text = (
            _("any rank")
            if len(ranks) == len(RANKS)
            else _("rank %(ranks)s") % {"ranks": " ".join(map(str, ranks))}
        )
        text = _("can be %(cards)s") % {"cards": f"{colours_text}, {ranks_text}"}
        return text + ("; " + _("not %(value)s") % {"value": cards(missing)} if missing else "")
    groups = []
    for letter in letters:
        ranks = [int(code[1]) for code in possible if code[0] == letter]
        if ranks:
            groups.append(shown[letter] + _ranks_text(ranks))
    return _("can be %(cards)s") % {"cards": " ".join(groups)}


def _local_code(code: str) -> str:
    return local_code(code, translation.get_language())


def _ranks_text(ranks: list[int]) -> str:
    """[1, 2, 3, 5] -> "1-3,5"; [2, 4] -> "2,4"."""
    runs: list[list[int]] = []
    for rank in ranks:
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    parts = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"{run[0]}-{run[-1]}")
        else:
            parts.extend(str(rank) for rank in run)
    return ",".join(parts)


def _discards(view: dict, num_suits: int) -> list[dict]:
    """The discard pile by suit, lowest rank first; suits with no discard left out."""
    groups = []
    for suit, letter in zip(SUITS[:num_suits], SUIT_LETTERS, strict=False):
        cards = sorted(
            (card for card in view["discards"] if card["suit"] == suit),
            key=lambda card: card["rank"],
        )
        if cards:
            style = _suit_style(suit)
            groups.append(
                {
                    "suit": suit,
                    "letter": _local_code(letter),
                    "cards": [
                        {
                            **card,
                            **style,
                            "code": _local_code(card["code"]),
                            "name": f"{colour_name(suit)} {card['rank']}",
                        }
                        for card in cards
                    ],
                }
            )
    return groups


def _current_seat(game: Game, turn: int) -> Seat | None:
    """The seat to move, if the game is still at that turn."""
    if not game.is_playing() or game.turn != turn:
        return None
    return game.seats.select_related("user").get(position=game.current_seat)


def _reply_headers(context: dict) -> dict:
    """A reply to a turn email makes the move it says (mailplay/)."""
    return {"Reply-To": context["reply_to"]} if context["reply_to"] else {}


@handler(outbox_kinds.YOUR_TURN)
def send_your_turn(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    seat = _current_seat(game, row.payload["turn"])
    if seat is None or not _wants_turn_emails(seat):
        return
    if seat.last_seen_at and timezone.now() - seat.last_seen_at < notify_delay():
        # The player is looking at the game: ask again later, and send if they leave.
        raise Retry(notify_delay())
    with in_language_of(seat.user):
        context = turn_context(game, seat)
        send_game_email("your_turn", seat.user, context, headers=_reply_headers(context))


@handler(outbox_kinds.REMINDER)
def send_reminder(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    seat = _current_seat(game, row.payload["turn"])
    if seat is None or seat.is_bot or seat.muted or seat.user.notify == User.Notify.NONE:
        return
    deadline = datetime.fromisoformat(row.payload["deadline"])
    if game.turn_deadline != deadline:
        return  # paused, resumed or extended since: another reminder was scheduled
    with in_language_of(seat.user):
        context = turn_context(game, seat)
        send_game_email("reminder", seat.user, context, headers=_reply_headers(context))


@handler(outbox_kinds.GAME_OVER)
def send_game_over(row: Outbox) -> None:
    game = Game.objects.get(pk=row.payload["game"])
    seat = game.seats.select_related("user").get(user_id=row.payload["user"])
    if seat.muted or seat.user.notify == User.Notify.NONE:
        return
    state = game.load_state()
    replay_path = reverse("games:replay", args=[game.pk, game.turn])
    with in_language_of(seat.user):
        outcome = outcome_in_words(game.outcome(state), state, game.seat_names())
        reviewed = _own_review(game, seat) if seat.user.review_by_email else None
    send_game_email(
        "game_over",
        seat.user,
        {
            "game": game,
            "names": game.seat_names(),
            "outcome": outcome,
            "replay_url": game_link(seat.user, game, replay_path),
            "review": reviewed,
        },
    )


# The game-over email's review names this many of the reader's moves at most; the replay
# shows every one.
REVIEW_LINES = 8


def _own_review(game: Game, seat: Seat) -> dict:
    """The H-Group bot's review (games/review.py) of this seat's moves only, in the active
    language: how many it agreed with, and the first moves it would have made otherwise,
    with its reasons. The game is over, so nothing here is hidden from anyone."""
    record = replays.game_record(game, "")
    turns = review.page_context(game, record, review.table_level(game))["review"]
    own = [turn for turn in turns if turn.seat == seat.position]
    differing = [turn for turn in own if not turn.agrees]
    return {
        "agreed": len(own) - len(differing),
        "moves": len(own),
        "differing": differing[:REVIEW_LINES],
        "more": max(0, len(differing) - REVIEW_LINES),
        "level": review.table_level(game),
    }


@handler(outbox_kinds.DIGEST)
def send_digest(row: Outbox) -> None:
    user = User.objects.get(pk=row.payload["user"])
    if user.notify != User.Notify.DAILY_DIGEST:
        return
    games = list(Game.objects.waiting_on(user))
    if not games:
        return
    with in_language_of(user):
        links = [(game, game_link(user, game), options_text(game.game_options)) for game in games]
        send_game_email("digest", user, {"links": links})
