from django import forms

from games.engine import MULTICOLOUR_VARIANTS, GameOptions, InvalidOptions
from games.models import TIME_LIMITS, BotKind, ChatPolicy, Game, SpectatorPolicy, TimeoutPolicy


class NewGameForm(forms.Form):
    players = forms.TypedChoiceField(
        label="Players",
        choices=[(n, f"{n} players") for n in range(2, 7)],
        coerce=int,
        initial=3,
    )
    bots = forms.TypedChoiceField(
        label="Bots at the table",
        choices=[(n, str(n)) for n in range(6)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
        help_text="Bots take seats at once; you can add or remove them until the start. "
        "They follow the conventions of the “How the bots play” page.",
    )
    bot_kind = forms.TypedChoiceField(
        label="Which bots",
        choices=BotKind.choices,
        initial=BotKind.HOUSE,
        required=False,
        empty_value=BotKind.HOUSE,
        widget=forms.RadioSelect,
        help_text="The house bot plays with people and adapts to how they clue. The expert bot "
        "is for watching bots play their best: its clues follow a code people cannot read.",
    )
    multicolour = forms.TypedChoiceField(
        label="Multicolour",
        choices=[(key, label.capitalize()) for key, label in MULTICOLOUR_VARIANTS.items()],
        coerce=int,
        initial=0,
        help_text="1: a sixth suit; 2: a sixth suit with one card of each rank; "
        "3: multicolour cards are touched by every colour clue.",
    )
    until_perfect = forms.BooleanField(
        label="Play until perfect (variant 4)",
        required=False,
        help_text="Play on after the deck runs out until every firework is complete, or defeat.",
    )
    fuses = forms.TypedChoiceField(
        label="Fuses",
        choices=[(3, "3 (standard)"), (2, "2 (harder)"), (1, "1 (hardest)")],
        coerce=int,
        initial=3,
    )
    empty_clues = forms.BooleanField(
        label="Allow empty clues",
        required=False,
        help_text="A clue may touch no card (“you have no blue cards”).",
    )
    rearrange = forms.BooleanField(
        label="Allow rearranging one's hand",
        required=False,
        help_text="A player may move a card within their own hand at any time; it takes no "
        "turn, and everyone sees it. (Such a game downloads as this site's own record: "
        "hanab.live files cannot hold it.)",
    )
    turn_time_limit = forms.TypedChoiceField(
        label="Time per turn",
        choices=[("", "No limit"), *TIME_LIMITS],
        coerce=int,
        empty_value=None,
        required=False,
        initial=72,
    )
    timeout_policy = forms.ChoiceField(
        label="When a turn's time runs out",
        choices=TimeoutPolicy.choices,
        initial=TimeoutPolicy.AUTO_MOVE,
        widget=forms.RadioSelect,
        help_text="With automatic moves, a player who times out 3 turns in a row "
        "is replaced by a bot.",
    )
    chat_policy = forms.ChoiceField(
        label="Table talk",
        choices=ChatPolicy.choices,
        initial=ChatPolicy.AFTER,
        widget=forms.RadioSelect,
        required=False,
    )
    visibility = forms.ChoiceField(
        label="Who can join",
        choices=[
            (Game.Visibility.INVITE, "Only people with the invitation link"),
            (Game.Visibility.PUBLIC, "Anyone: list it in the lobby"),
        ],
        initial=Game.Visibility.INVITE,
        widget=forms.RadioSelect,
    )
    spectators = forms.ChoiceField(
        label="Spectators",
        choices=SpectatorPolicy.choices,
        initial=SpectatorPolicy.AFTER,
        widget=forms.RadioSelect,
        required=False,
        help_text="A spectator sees every hand; the players never see who watches.",
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
            self.add_error("bots", "Leave at least one seat for a person: you.")
        return cleaned


class ExtendForm(forms.Form):
    hours = forms.TypedChoiceField(
        label="Give this turn more time",
        choices=[(12, "12 more hours"), (24, "1 more day"), (72, "3 more days")],
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
    email = forms.EmailField(label="Email address to invite")


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
        return None, -1, "The form is incomplete: reload the page and try again."
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
    return None, expected_turn, "That move is not one the game understands."
