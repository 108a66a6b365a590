"""Dates and times in each person's language and time zone (issue 29): templates name a
format (hanabi_site/formats/), and each language writes it as it writes dates."""

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import timezone, translation

from accounts.models import User
from tests.games.conftest import current_user
from tests.mail import html_body, run_due
from tests.notifications.helpers import three_players_with_clues

# A Saturday in November, 14:05 UTC.
MOMENT = datetime(2026, 11, 28, 14, 5, tzinfo=ZoneInfo("UTC"))

WRITTEN = {
    "en": {
        "SHORT_DATETIME_FORMAT": "Sat 28 Nov, 14:05",
        "DATETIME_FORMAT": "Sat 28 Nov, 14:05 UTC",
        "SHORT_DATE_FORMAT": "28 Nov 2026",
        "DATE_FORMAT": "28 November 2026",
        "TIME_FORMAT": "14:05",
    },
    "de": {
        "SHORT_DATETIME_FORMAT": "Sa., 28. Nov., 14:05",
        "DATETIME_FORMAT": "Sa., 28. Nov., 14:05 UTC",
        "SHORT_DATE_FORMAT": "28. Nov. 2026",
        "DATE_FORMAT": "28. November 2026",
        "TIME_FORMAT": "14:05",
    },
    "fr": {
        "SHORT_DATETIME_FORMAT": "sam. 28 nov., 14:05",
        "DATETIME_FORMAT": "sam. 28 nov., 14:05 UTC",
        "SHORT_DATE_FORMAT": "28 nov. 2026",
        "DATE_FORMAT": "28 novembre 2026",
        "TIME_FORMAT": "14:05",
    },
}


@pytest.mark.parametrize("language", sorted(WRITTEN))
def test_each_named_format_reads_as_the_language_writes_dates(language, translated):
    with translation.override(language), timezone.override(ZoneInfo("UTC")):
        for name, expected in WRITTEN[language].items():
            rendered = Template(f'{{{{ moment|date:"{name}" }}}}').render(
                Context({"moment": MOMENT})
            )
            assert rendered == expected, name


def test_no_template_writes_a_date_format_of_its_own():
    """A literal format ("j M Y") would read the same in every language: templates name one
    of the formats above (or "c", the machine-readable form of a <time> element)."""
    literal = []
    root = Path(settings.BASE_DIR, "templates")
    for template in root.rglob("*.*"):
        if template.is_relative_to(root / "dev"):
            continue  # /dev/mail/, a developer's tool (DEBUG only), shows seconds as ISO does
        text = template.read_text(encoding="utf-8")
        for found in re.finditer(r"\|date:[\"']([^\"']*)[\"']", text):
            if found.group(1) != "c" and found.group(1) not in WRITTEN["en"]:
                literal.append(f"{template.relative_to(root)}: {found.group(1)}")
    assert literal == []


@pytest.mark.django_db
def test_a_german_readers_deadline_is_written_in_german_in_their_time_zone(
    alice, bob, carol, mailoutbox, send_at_once, translated
):
    game = three_players_with_clues(alice, bob, carol, turn_time_limit=24)
    mover = current_user(game)
    User.objects.filter(pk=mover.pk).update(time_zone="Europe/Berlin", language="de")
    mailoutbox.clear()
    run_due("your_turn")
    (message,) = mailoutbox
    local = timezone.localtime(game.turn_deadline, ZoneInfo("Europe/Berlin"))
    with translation.override("de"):
        weekday = Template('{{ d|date:"D" }}').render(Context({"d": local}))
    expected = f"{weekday}., {local.day}. "
    zone = local.tzname()
    assert zone in ("CET", "CEST")
    line = next(line for line in message.body.splitlines() if zone in line)
    assert expected in line and f"{local:%H:%M} {zone}" in line, line
    assert f"{local:%H:%M} {zone}" in html_body(message)
