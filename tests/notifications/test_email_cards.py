"""The turn email's cards look like the site's: each suit in the site's colours (inline, as
mail clients need) with its letter, and the reader's clued slots say which clue."""

import re
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string

from games.emails import SUIT_STYLES, turn_context
from games.engine import SUITS
from tests.games.conftest import current_user
from tests.notifications.helpers import three_players_with_clues

SITE_CSS = Path(settings.BASE_DIR) / "static" / "css" / "site.css"


def test_the_email_suit_colours_are_the_sites():
    css = SITE_CSS.read_text()
    # Multicolour too: one colour on both, not a gradient on the site and purple in emails.
    for suit in SUITS:
        found = re.search(rf"\.suit-{suit} {{ --suit: (#\w+); --suit-ink: (#\w+); }}", css)
        assert found, suit
        assert SUIT_STYLES[suit] == (found[1], found[2]), suit


def test_multicolour_has_one_name_on_the_site_and_in_emails():
    """The rules' name, "multicolour", everywhere a player reads it; hanab.live's
    "Rainbow" stays only where hanab.live's files are read and written (issue 27)."""
    base = Path(settings.BASE_DIR)
    files = [*(base / "templates").rglob("*.html"), *(base / "templates").rglob("*.txt")]
    files += [*(base / "static").rglob("*.css"), *(base / "static").rglob("*.js")]
    for path in files:
        text = path.read_text().casefold()
        # Whole words: French writes "multicolore", the rules' own name in that language.
        for word in ("rainbow", "purple", "multicolor"):
            assert not re.search(rf"\b{word}\b", text), (path, word)
    assert "multicolour" in SUITS


def test_each_card_of_the_html_email_is_coloured_with_its_letter(alice, bob, carol):
    game = three_players_with_clues(alice, bob, carol)
    seat = game.seats.select_related("user").get(user=current_user(game))
    context = turn_context(game, seat)
    html = render_to_string("emails/games/_table.html", context)
    for hand in context["others"]:
        for card in hand["cards"]:
            background, ink = SUIT_STYLES[card["suit"]]
            face = (
                rf'title="{card["name"]}" style="[^"]*background:{background};color:{ink};[^"]*">'
            )
            assert re.search(face + re.escape(card["code"]) + "</div>", html), card
    clued = [card for card in context["own"]["cards"] if card["touched_by"]]
    assert clued, "the reader holds a clued card"
    for card in clued:
        said = f"<strong>Slot {card['slot']}:</strong> clued {', '.join(card['touched_by'])}"
        assert said in html
