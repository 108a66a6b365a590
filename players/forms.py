"""The history's filters: a GET form whose choices are the player's own variants and partners."""

from datetime import date, datetime, time, timedelta

from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.templatetags.wording_tags import variant_text
from players.figures import TABLE_SIZES, variant_order

RESULTS = [("", _("any")), ("won", _("won")), ("lost", _("lost")), ("struck_out", _("struck out"))]


class HistoryFilter(forms.Form):
    variant = forms.ChoiceField(required=False, label=_("Variant"))
    players = forms.TypedChoiceField(
        required=False,
        label=_("Players"),
        coerce=int,
        empty_value=None,
        choices=[("", _("any"))] + [(n, str(n)) for n in TABLE_SIZES],
    )
    partner = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=_("Partner")
    )
    result = forms.ChoiceField(required=False, choices=RESULTS, label=_("Result"))
    date_from = forms.DateField(
        required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label=_("To"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, data, variants: list[str], partners: list[tuple[int, str]]) -> None:
        super().__init__(data)
        self.fields["variant"].choices = [("", _("any"))] + [
            (name, variant_text(name)) for name in sorted(variants, key=variant_order)
        ]
        self.fields["partner"].choices = [("", _("anyone"))] + partners

    def clean(self) -> dict:
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(_("The first date comes after the last."))
        return data

    def apply(self, records: QuerySet) -> QuerySet:
        """The records that pass the valid filters (call after is_valid())."""
        data = self.cleaned_data
        if data.get("variant"):
            records = records.filter(variant=data["variant"])
        if data.get("players"):
            records = records.filter(player_count=data["players"])
        if data.get("partner"):
            records = records.filter(game__seats__user_id=data["partner"])
        result = data.get("result")
        if result == "won":
            records = records.filter(won=True)
        elif result == "lost":
            records = records.filter(won=False)
        elif result == "struck_out":
            records = records.filter(struck_out=True)
        # Whole days in the current time zone, as a range on the indexed column.
        if data.get("date_from"):
            records = records.filter(finished_at__gte=midnight(data["date_from"]))
        if data.get("date_to"):
            records = records.filter(finished_at__lt=midnight(data["date_to"] + timedelta(days=1)))
        return records


def midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))
