"""The README's layout table matches the tree: every path it names exists, and every app,
every module of the services and the views, and every top-level folder is in it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
TABLE = README[README.index("| where | what |") : README.index("## How a move flows")]


def named_paths() -> set[str]:
    """Each backticked path in the table's first column ("`games/emails.py`, `tasks.py`"
    names games/tasks.py too), and each module named in its second column for a folder."""
    paths = set()
    for row in TABLE.splitlines()[2:]:
        if not row.startswith("| "):
            continue
        where, what = row.split(" | ", 1)
        first = re.findall(r"`([^`]+)`", where)
        parent = first[0].rstrip("/").rpartition("/")[0]
        for name in first:
            paths.add(name if "/" in name or not parent else f"{parent}/{name}")
        if first[0].endswith("/"):
            paths.update(first[0] + name for name in re.findall(r"`(\w+\.py)`", what))
    return paths


def test_every_path_in_the_layout_table_exists():
    missing = sorted(path for path in named_paths() if not (ROOT / path).exists())
    assert missing == []


def test_every_app_and_every_services_and_views_module_is_in_the_table():
    paths = named_paths()
    apps = ["lib/", "outbox/", "accounts/", "games/engine/", "games/bots/", "games/analysis/"]
    apps += ["moderation/", "mailplay/", "hanabi_site/", "tests/", "bench/", "docs/RULES.md"]
    assert [app for app in apps if app not in paths] == []
    for folder in ("games/services", "games/views", "outbox"):
        modules = {p.name for p in (ROOT / folder).glob("*.py")} - {"__init__.py", "apps.py"}
        modules -= {"admin.py", "tasks.py", "models.py"}  # Django's own places, as everywhere
        listed = {path.rsplit("/", 1)[1] for path in paths if path.startswith(folder + "/")}
        assert sorted(modules - listed) == [], folder
    top_level = {
        p.name + "/"
        for p in ROOT.iterdir()
        if p.is_dir() and (p / "__init__.py").exists() and p.name != "tests"
    }
    assert sorted(t for t in top_level if not any(p.startswith(t) for p in paths)) == []
