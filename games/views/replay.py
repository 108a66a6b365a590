"""Finished games: the replay that steps through every turn, the deal's analysis, the
download (hanab.live JSON, or this site's own record when hanab.live cannot hold the game);
and game files of either kind imported to be watched."""

import re

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from games import hindsight, review
from games.engine import replay, spectator_view, takes_turn
from games.errors import GameError
from games.forms import ImportForm
from games.models import ImportedReplay, outcome
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
) -> HttpResponse:
    """A replay: every hand face up, stepping through the turns of a game that is over (or
    of an imported record). `record` is what games.services.replays makes; `notes` the
    players' notes on cards, by card id, each with its writer's name."""
    options, deck_source, actions = record["options"], record["deck_source"], record["actions"]
    # The turns: the actions without the free rearrangements of hands (an option).
    turns = sum(1 for action in actions if takes_turn(action))
    if not 0 <= turn <= turns:
        raise Http404("No such turn")
    final = replay(options, deck_source, actions)
    state = final if turn == turns else replay(options, deck_source, actions, upto=turn)
    view = spectator_view(state, record["names"])
    view["viewer"] = None
    over = final.is_over or bool(record.get("end"))

    def link(t: int) -> str:
        return reverse(url_name, args=[*url_args, t])

    context = {
        "title": record["title"],
        "view": view,
        **table(view, notes=notes),
        "outcome": _without_the_score(outcome(final, record.get("end", ""))) if over else None,
        "turn": turn,
        "last_turn": turns,
        "nav": {
            "first": link(0) if turn > 0 else None,
            "previous": link(turn - 1) if turn > 0 else None,
            "next": link(turn + 1) if turn < turns else None,
            "last": link(turns) if turn < turns else None,
        },
        "last_action": view["history"][-1]["text"] if turn else None,
        **extra,
    }
    template = "games/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


# The score and its rating inside the engine's words for the ending ("The last round is
# over: 17 points, 8 short of perfect."), which the replay's outcome line says just before
# them. (A "scores 0" stays: it says why a game with fireworks scores nothing.)
SCORE_IN_ENDING = re.compile(r":\s*\d+ points?, [^.!]+(?=[.!]$)")


def _without_the_score(result: dict) -> dict:
    return {**result, "text": SCORE_IN_ENDING.sub("", result["text"] or "")}


@login_required
@vary_on_headers("HX-Request")
def replay_view(request: HttpRequest, game_id: int, turn: int) -> HttpResponse:
    game, seat, seats = game_and_seats(request, game_id)
    if not game.is_finished():
        raise Http404("The replay opens when the game is over")
    record = replays.game_record(game, f"Game {game.pk}")
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
            "export_refusal": download.hanablive_refusal,
            "viewer_played": seat is not None,
            **chat_context(game, seat, seats),
            **hindsight.page_context(game, record["names"]),
            # The H-Group bot's review, on request only (games/review.py).
            **(review.page_context(game, record) if request.GET.get("review") else {}),
        },
        # The game is over: every player's private notes are shown, under their names.
        notes=notes_by_card(seats, writer_names=True),
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
    game, _ = game_for(request, game_id)
    if not game.is_finished():
        return HttpResponseForbidden(review.REFUSAL, content_type="text/plain; charset=utf-8")
    if not request.htmx:
        return redirect(reverse("games:replay", args=[game.pk, game.turn]) + "?review=1#review")
    record = replays.game_record(game, f"Game {game.pk}")
    context = {"game": game, **review.page_context(game, record)}
    return render(request, "games/_review.html", context)


@login_required
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    """Always a JSON file, never a page: hanab.live JSON, or this site's record when
    hanab.live cannot hold the game (the replay's link says which)."""
    game, _ = game_for(request, game_id)
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
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        # One byte past the limit is enough to know the file is too large.
        content = upload.read(replays.MAX_IMPORT_BYTES + 1)
        try:
            imported = replays.import_game_file(request.user, content, upload.name)
        except GameError as error:
            form.add_error("file", str(error))
        else:
            return redirect("games:imported", imported.pk, 0)
    return render(request, "games/import.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@vary_on_headers("HX-Request")
def imported_replay(request: HttpRequest, replay_id: int, turn: int) -> HttpResponse:
    imported = get_object_or_404(ImportedReplay, pk=replay_id, owner=request.user)
    record = replays.imported_record(imported)
    return replay_page(request, record, turn, "games:imported", [imported.pk], {})
