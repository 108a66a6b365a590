"""Finished games: the replay that steps through every turn, the deal's analysis, the
download (hanab.live JSON, or this site's own record when hanab.live cannot hold the game);
and game files of either kind imported to be watched."""

import re

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from games import hindsight, review, wording
from games.engine import replay, spectator_view, takes_turn
from games.errors import GameError
from games.forms import ImportForm
from games.models import ImportedReplay, outcome
from games.safe_words import safe_readings
from games.services import replays
from games.services.notes import notes_by_card
from games.table_context import table
from games.views.access import game_and_seats, game_for
from games.views.chat import chat_context


def replay_page(
    request: HttpRequest,
    record: dict,
    turn: int,
    url_name: str,
    url_args: list,
    extra: dict,
    notes: dict[int, list[dict]] | None = None,
    safe: dict[int, dict] | None = None,
) -> HttpResponse:
    """A replay: every hand face up, stepping through the turns of a game that is over (or
    of an imported record). `record` is what games.services.replays makes; `notes` the
    players' notes on cards, by card id, each with its writer's name; `safe` the H-Group
    bot's safe readings by turn (games/safe_words.py)."""
    options, deck_source, actions = record["options"], record["deck_source"], record["actions"]
    # The turns: the actions without the free rearrangements of hands (an option).
    turns = sum(1 for action in actions if takes_turn(action))
    if not 0 <= turn <= turns:
        raise Http404("No such turn")
    final = replay(options, deck_source, actions)
    state = final if turn == turns else replay(options, deck_source, actions, upto=turn)
    view = spectator_view(state, record["names"])
    view["viewer"] = None
    view["options_text"] = wording.options_text(options)
    over = final.is_over or bool(record.get("end"))
    names = record["names"]

    def link(t: int) -> str:
        return reverse(url_name, args=[*url_args, t])

    context = {
        "title": record["title"],
        "view": view,
        **table(view, notes=notes, state=state, safe_readings=safe),
        "outcome": (
            _without_the_score(
                wording.outcome_in_words(outcome(final, record.get("end", "")), final, names)
            )
            if over
            else None
        ),
        "turn": turn,
        "last_turn": turns,
        "nav": {
            "first": link(0) if turn > 0 else None,
            "previous": link(turn - 1) if turn > 0 else None,
            "next": link(turn + 1) if turn < turns else None,
            "last": link(turns) if turn < turns else None,
        },
        "last_action": wording.entry_sentence(view["history"][-1], state, names) if turn else None,
        **extra,
    }
    template = "games/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


# The score and its rating inside the engine's words for the ending ("The last round is
# over: 17 points, 8 short of perfect."), which the replay's outcome line says just before
# them. (A "scores 0" stays: it says why a game with fireworks scores nothing.) In German
# and French too (games/wording.py: "…: 17 Punkte, …", "… : 17 points, … !").
SCORE_IN_ENDING = re.compile(r"\s*:\s*\d+ (?:points?|Punkte?), [^.!]+?(?=\s*[.!]$)")


def _without_the_score(result: dict) -> dict:
    return {**result, "text": SCORE_IN_ENDING.sub("", result["text"] or "")}


def game_title(game) -> str:
    """A finished game's replay title, in the reader's language: 'Game 12', 'Partie 12'."""
    return _("Game %(game)s") % {"game": game.pk}


# Why a download is this site's JSON (games/services/replays.download), in the reader's
# language; the engine's longer reasons (rare) stay as the engine words them.
EXPORT_REFUSALS = [
    (
        r"hanab\.live has no (?P<count>\d+)-fuse option",
        gettext_noop("hanab.live has no %(count)s-fuse option"),
    ),
    (
        r"hanab\.live has no rearranging of hands",
        gettext_noop("hanab.live has no rearranging of hands"),
    ),
]


# Why an import is refused (games/services/replays.import_game_file and the engine's readers),
# in the reader's language: the wrapper always, the reasons a person meets most (not JSON,
# not a game, a count or a key wrong) in words; the rarer, technical ones as the engine words
# them, inside the translated wrapper.
IMPORT_REFUSAL = r"This file cannot be imported: (?P<reason>.+)"
IMPORT_REASONS = [
    (
        r"the file is larger than (?P<size>\d+) MB",
        gettext_noop("the file is larger than %(size)s MB"),
    ),
    (
        r"the file is not JSON \((?P<detail>.+)\)",
        gettext_noop("the file is not JSON (%(detail)s)"),
    ),
    (
        r"the file is not JSON: it is not (?P<encoding>\S+) text \((?P<detail>.+)\)",
        gettext_noop("the file is not JSON: it is not %(encoding)s text (%(detail)s)"),
    ),
    (
        r"the file is not a game: its lists or objects are nested too deeply to read",
        gettext_noop("the file is not a game: its lists or objects are nested too deeply to read"),
    ),
    (
        r"the file is not a game: it holds a number too long to read",
        gettext_noop("the file is not a game: it holds a number too long to read"),
    ),
    (r"a hanab\.live game is a JSON object", gettext_noop("a hanab.live game is a JSON object")),
    (r'the game has no "(?P<key>[^"]+)"', gettext_noop('the game has no "%(key)s"')),
    (
        r"detrimental characters are not played here",
        gettext_noop("detrimental characters are not played here"),
    ),
    (r'"players" must be a list of names', gettext_noop('"players" must be a list of names')),
    (
        r"this project plays with 2 to 6 players, not (?P<count>\d+)",
        gettext_noop("this project plays with 2 to 6 players, not %(count)s"),
    ),
    (r'"deck" must be a list of cards', gettext_noop('"deck" must be a list of cards')),
    (r'"actions" must be a list', gettext_noop('"actions" must be a list')),
    (r'"options" must be a JSON object', gettext_noop('"options" must be a JSON object')),
    (
        r'"players" must list (?P<count>\d+) names',
        gettext_noop('"players" must list %(count)s names'),
    ),
    (
        r"action (?P<index>\d+) comes after the end of the game",
        gettext_noop("action %(index)s comes after the end of the game"),
    ),
    (
        r"action (?P<index>\d+) \((?P<who>.+)\) is illegal: (?P<why>.+)",
        gettext_noop("action %(index)s (%(who)s) is illegal: %(why)s"),
    ),
    (
        r'not a game record \(expected "format": "(?P<format>[^"]+)"\)',
        gettext_noop('not a game record (expected "format": "%(format)s")'),
    ),
]


def import_refusal(text: str) -> str:
    """A refused import's message (GameError), in the reader's language."""
    found = re.fullmatch(IMPORT_REFUSAL, text)
    if wording.english() or not found:
        return text
    reason = _translated(found["reason"], IMPORT_REASONS)
    illegal = re.fullmatch(IMPORT_REASONS[-2][0], found["reason"])
    if illegal:  # the engine's reason, as games/wording.py words the rules' refusals
        words = {**illegal.groupdict(), "why": wording.refusal(illegal["why"])}
        reason = _(IMPORT_REASONS[-2][1]) % words
    return _("This file cannot be imported: %(reason)s") % {"reason": reason}


def export_refusal(text: str) -> str:
    return _translated(text, EXPORT_REFUSALS)


def _translated(text: str, patterns: list[tuple[str, str]]) -> str:
    """``text`` through the first pattern it matches whole, as games/wording.refusal does;
    unchanged if none (and always in English)."""
    if wording.english():
        return text
    for pattern, message in patterns:
        found = re.fullmatch(pattern, text)
        if found:
            return _(message) % found.groupdict() if "%(" in message else _(message)
    return text


@login_required
@vary_on_headers("HX-Request")
def replay_view(request: HttpRequest, game_id: int, turn: int) -> HttpResponse:
    game, seat, seats = game_and_seats(request, game_id)
    if not game.is_finished():
        raise Http404("The replay opens when the game is over")
    record = replays.game_record(game, game_title(game))
    download = replays.download(record)
    return replay_page(
        request,
        record,
        turn,
        "games:replay",
        [game.pk],
        {
            "game": game,
            "seats": seats,  # (the bots' beliefs in the history: games/templatetags/bot_beliefs.py)
            "export_url": reverse("games:export", args=[game.pk]),
            "export_refusal": export_refusal(download.hanablive_refusal),
            "viewer_played": seat is not None,
            **chat_context(game, seat, seats),
            **hindsight.page_context(game, record["names"]),
            # The H-Group bot's review, on request only (games/review.py).
            **(review.page_context(game, record) if request.GET.get("review") else {}),
        },
        # The game is over: every player's private notes are shown, under their names.
        notes=notes_by_card(seats, writer_names=True),
        # Where the H-Group bot took the safe reading, beside its moves (Move.safe_reading).
        safe=safe_readings(game.moves.exclude(safe_reading=None).only("turn", "safe_reading")),
    )


@require_GET
@login_required
def analysis(request: HttpRequest, game_id: int) -> HttpResponse:
    """The analysis section alone, which a finished game's page asks for until it is ready.
    Opened as a page (a bookmark, a reload), it is the replay's last turn, which shows it."""
    game, seat = game_for(request, game_id)
    if not game.is_finished():
        raise Http404("The analysis opens when the game is over")
    if not request.htmx:
        return redirect(reverse("games:replay", args=[game.pk, game.turn]) + "#analysis")
    context = {
        "game": game,
        "viewer_played": seat is not None,
        **hindsight.page_context(game, game.seat_names()),
    }
    return render(request, "games/_analysis.html", context)


@require_GET
@login_required
@vary_on_headers("HX-Request")
def review_section(request: HttpRequest, game_id: int) -> HttpResponse:
    """The H-Group bot's review of a finished game (games/review.py), asked for from the
    replay. Refused while the game is played: it would tell each player about their own
    cards. Opened as a page, it is the replay's last turn with the review shown."""
    game, _seat = game_for(request, game_id)
    if not game.is_finished():
        return HttpResponseForbidden(_(review.REFUSAL), content_type="text/plain; charset=utf-8")
    if not request.htmx:
        return redirect(reverse("games:replay", args=[game.pk, game.turn]) + "?review=1#review")
    record = replays.game_record(game, game_title(game))
    context = {"game": game, **review.page_context(game, record)}
    return render(request, "games/_review.html", context)


@login_required
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    """Always a JSON file, never a page: hanab.live JSON, or this site's record when
    hanab.live cannot hold the game (the replay's link says which)."""
    game, _seat = game_for(request, game_id)
    if not game.is_finished():
        raise Http404("A game can be downloaded once it is over")
    download = replays.download(replays.game_record(game, f"Game {game.pk}"))
    suffix = "" if download.is_hanablive else "-site"
    response = JsonResponse(download.data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="hanabi-game-{game.pk}{suffix}.json"'
    return response


@login_required
def import_game(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    form.fields["file"].label = _("hanab.live game file (JSON)")  # (games/forms.py's, worded)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        # One byte past the limit is enough to know the file is too large.
        content = upload.read(replays.MAX_IMPORT_BYTES + 1)
        try:
            imported = replays.import_game_file(request.user, content, upload.name)
        except GameError as error:
            form.add_error("file", import_refusal(str(error)))
        else:
            return redirect("games:imported", imported.pk, 0)
    return render(request, "games/import.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@vary_on_headers("HX-Request")
def imported_replay(request: HttpRequest, replay_id: int, turn: int) -> HttpResponse:
    imported = get_object_or_404(ImportedReplay, pk=replay_id, owner=request.user)
    record = replays.imported_record(imported)
    record["title"] = _("Imported game: %(names)s") % {"names": ", ".join(record["names"])}
    return replay_page(request, record, turn, "games:imported", [imported.pk], {})
