from django import forms
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import wording
from games.bots import hgroup
from games.engine import GameOptions, InvalidOptions
from games.models import TIME_LIMITS, BotKind, ChatPolicy, Game, SpectatorPolicy, TimeoutPolicy

# The new-game form's choices in the reader's language (issue 29): callables, read at each
# rendering, or lazy strings. Their English is the models' and the engine's, word for word.


def player_choices() -> list[tuple[int, str]]:
    return [
        (n, ngettext("%(count)d player", "%(count)d players", n) % {"count": n})
        for n in range(2, 7)
    ]


def multicolour_choices() -> list[tuple[int, str]]:
    return [(0, gettext("No multicolour"))] + [
        (key, capfirst(gettext(label))) for key, label in wording.MULTICOLOUR_VARIANTS.items()
    ]


def time_limit_label(hours: int) -> str:
    """A turn's time limit as games.models.TIME_LIMITS words it: '72 hours', '7 days'."""
    if hours % 24 == 0 and hours > 72:
        days = hours // 24
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}


def time_limit_choices() -> list[tuple[int | str, str]]:
    return [
        ("", gettext("No limit")),
        *((hours, time_limit_label(hours)) for hours, _label in TIME_LIMITS),
    ]


TIMEOUT_CHOICES = [
    (TimeoutPolicy.AUTO_MOVE, _("A bot makes the move for the absent player")),
    (TimeoutPolicy.END_GAME, _("The game ends, timed out (score 0)")),
]
# The H-Group bot's choices name its level too ("hgroup:2"): NewGameForm.bot_choice.
HGROUP_CHOICE = "{kind}:{level}"
BOT_KIND_CHOICES = [
    (BotKind.HOUSE, _("House bot: plays with people, adapts to how they clue")),
    *[
        (
            HGROUP_CHOICE.format(kind=BotKind.HGROUP, level=level),
            format_lazy(
                _("H-Group bot, level {level}: reads and gives clues by the H-Group conventions"),
                level=level,
            ),
        )
        for level in hgroup.LEVELS
    ],
    (
        BotKind.EXPERT,
        _("Expert bot (hat guessing): for bots only, people cannot read its clues"),
    ),
]
CHAT_CHOICES = [
    (ChatPolicy.AFTER, _("Only after the game ends (the rules forbid table talk)")),
    (ChatPolicy.DURING, _("During the game too")),
]
SPECTATOR_CHOICES = [
    (
        SpectatorPolicy.NOBODY,
        _("Nobody: the game and its replay stay with the people at the table"),
    ),
    (SpectatorPolicy.AFTER, _("After the game: a public game's replay is open to everyone")),
    (
        SpectatorPolicy.DURING,
        _("During the game too: anyone may watch every hand, and never take a seat"),
    ),
]


class NewGameForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=player_choices,
        coerce=int,
        initial=3,
    )
    bots = forms.TypedChoiceField(
        label=_("Bots at the table"),
        choices=[(n, str(n)) for n in range(6)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
        help_text=_(
            "Bots take seats at once; you can add or remove them until the start. "
            "They follow the conventions of the “How the bots play” page."
        ),
    )
    bot_kind = forms.TypedChoiceField(
        label=_("Which bots"),
        choices=BOT_KIND_CHOICES,
        initial=BotKind.HOUSE,
        required=False,
        empty_value=BotKind.HOUSE,
        widget=forms.RadioSelect,
        help_text=_(
            "The house bot plays with people and adapts to how they clue. The H-Group bot "
            "plays the conventions most players learn, up to its level. The expert bot is for "
            "watching bots play their best: its clues follow a code people cannot read."
        ),
    )
    multicolour = forms.TypedChoiceField(
        label=_("Multicolour"),
        choices=multicolour_choices,
        coerce=int,
        initial=0,
        help_text=_(
            "1: a sixth suit; 2: a sixth suit with one card of each rank; "
            "3: multicolour cards are touched by every colour clue."
        ),
    )
    until_perfect = forms.BooleanField(
        label=_("Play until perfect (variant 4)"),
        required=False,
        help_text=_("Play on after the deck runs out until every firework is complete, or defeat."),
    )
    fuses = forms.TypedChoiceField(
        label=_("Fuses"),
        choices=[(3, _("3 (standard)")), (2, _("2 (harder)")), (1, _("1 (hardest)"))],
        coerce=int,
        initial=3,
    )
    empty_clues = forms.BooleanField(
        label=_("Allow empty clues"),
        required=False,
        help_text=_("A clue may touch no card (“you have no blue cards”)."),
    )
    rearrange = forms.BooleanField(
        label=_("Allow rearranging one's hand"),
        required=False,
        help_text=_(
            "A player may move a card within their own hand at any time; it takes no "
            "turn, and everyone sees it. (Such a game downloads as this site's own record: "
            "hanab.live files cannot hold it.)"
        ),
    )
    turn_time_limit = forms.TypedChoiceField(
        label=_("Time per turn"),
        choices=time_limit_choices,
        coerce=int,
        empty_value=None,
        required=False,
        initial=72,
    )
    timeout_policy = forms.ChoiceField(
        label=_("When a turn's time runs out"),
        choices=TIMEOUT_CHOICES,
        initial=TimeoutPolicy.AUTO_MOVE,
        widget=forms.RadioSelect,
        help_text=_(
            "With automatic moves, a player who times out 3 turns in a row is replaced by a bot."
        ),
    )
    chat_policy = forms.ChoiceField(
        label=_("Table talk"),
        choices=CHAT_CHOICES,
        initial=ChatPolicy.AFTER,
        widget=forms.RadioSelect,
        required=False,
    )
    visibility = forms.ChoiceField(
        label=_("Who can join"),
        choices=[
            (Game.Visibility.INVITE, _("Only people with the invitation link")),
            (Game.Visibility.PUBLIC, _("Anyone: list it in the lobby")),
        ],
        initial=Game.Visibility.INVITE,
        widget=forms.RadioSelect,
    )
    spectators = forms.ChoiceField(
        label=_("Spectators"),
        choices=SPECTATOR_CHOICES,
        initial=SpectatorPolicy.AFTER,
        widget=forms.RadioSelect,
        required=False,
        help_text=_("A spectator sees every hand; the players never see who watches."),
    )

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            cleaned["options"] = GameOptions(
                players=cleaned["players"],
                multicolour=cleaned["multicolour"],
                until_perfect=cleaned["until_perfect"],
                fuses=cleaned["fuses"],
                empty_clues=cleaned["empty_clues"],
                rearrange=cleaned.get("rearrange", False),
            )
        except InvalidOptions as error:
            raise forms.ValidationError(str(error)) from None
        cleaned["chat_policy"] = cleaned.get("chat_policy") or ChatPolicy.AFTER
        cleaned["spectators"] = cleaned.get("spectators") or SpectatorPolicy.AFTER
        if cleaned["bots"] >= cleaned["players"]:
            self.add_error("bots", gettext("Leave at least one seat for a person: you."))
        # "hgroup:2": the kind, and the H-Group bot's level (None for the other kinds).
        kind, _colon, level = str(cleaned.get("bot_kind") or BotKind.HOUSE).partition(":")
        cleaned["bot_kind"] = kind
        cleaned["bot_level"] = int(level) if level else None
        return cleaned


class ExtendForm(forms.Form):
    hours = forms.TypedChoiceField(
        label=_("Give this turn more time"),
        choices=[(12, _("12 more hours")), (24, _("1 more day")), (72, _("3 more days"))],
        coerce=int,
    )


class ChatForm(forms.Form):
    # The service counts 500 characters once runs of spaces are squeezed; the form lets a
    # little more through so that it never refuses what the service would take.
    text = forms.CharField(label="Message", max_length=2000)


class ReportForm(forms.Form):
    reason = forms.CharField(label="What is wrong?", max_length=1000, widget=forms.Textarea)
    message = forms.IntegerField(required=False, widget=forms.HiddenInput)
    reported_user = forms.IntegerField(required=False, widget=forms.HiddenInput)


class InviteForm(forms.Form):
    email = forms.EmailField(label=_("Email address to invite"))


class ImportForm(forms.Form):
    file = forms.FileField(label="hanab.live game file (JSON)")


def action_from_post(post) -> tuple[dict | None, int, str]:
    """(the engine's action dict, the turn the page showed, an error message or '').

    The form names cards by id and the turn it was made on, so a stale page can never hit
    a different card or a later turn. Whether the action is legal is the engine's to say.
    """
    try:
        expected_turn = int(post.get("turn", ""))
    except ValueError:
        return None, -1, gettext("The form is incomplete: reload the page and try again.")
    kind = post.get("kind")
    try:
        if kind in ("play", "discard"):
            return {"type": kind, "card_id": int(post.get("card", ""))}, expected_turn, ""
        if kind == "clue":
            target = int(post.get("target", ""))
            if post.get("colour"):
                return (
                    {"type": "clue", "target": target, "colour": post["colour"]},
                    expected_turn,
                    "",
                )
            return (
                {"type": "clue", "target": target, "rank": int(post.get("rank", ""))},
                expected_turn,
                "",
            )
    except ValueError:
        pass
    return None, expected_turn, gettext("That move is not one the game understands.")
