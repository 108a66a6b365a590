"""Django's {# … #} comment is one line only: one that runs over lines is printed on the page
as text. Every template's {# closes on its own line ({% comment %} spans lines)."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def test_no_comment_runs_over_lines():
    unclosed = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html")) + sorted(TEMPLATES.rglob("*.txt"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "{#" in line and "#}" not in line[line.index("{#") :]
    ]
    assert unclosed == []
