"""The README's layout table matches the tree: every path it names exists, and every app,
every module of the services and the views, and every top-level folder is in it. The README
stays short and opens with its two commands; every repository path and every link that the
README, docs/ and bench/README.md name leads somewhere that exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
TABLE = README[README.index("| where | what |") : README.index("## How a move flows")]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md"]
# Folders a run makes (the embedded default's files, the environment, collected static files):
# the docs name them, a fresh clone has none of them.
MADE_BY_A_RUN = {"var", ".venv", "staticfiles"}


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


def test_the_readme_opens_with_its_two_commands_and_reads_in_five_minutes():
    lines = README.splitlines()
    assert len(lines) <= 250
    opening = README[README.index("```sh\n") + len("```sh\n") :]
    opening = opening[: opening.index("```")]
    commands = [line.split("#")[0].strip() for line in opening.splitlines()]
    assert commands == ["python3 dev.py run", "python3 dev.py test"]
    assert README.index("```sh") < README.index("## ")
    assert 'python3 dev.py test -m "not slow"' in README


def repository_paths(text: str) -> set[str]:
    """The backticked words of a document that look like a path in this repository: with a
    slash, no spaces, placeholders or URL, and a first part that is a top-level entry."""
    top_level = {p.name for p in ROOT.iterdir()} - MADE_BY_A_RUN
    paths = set()
    for word in re.findall(r"`([^`\s]+)`", text):
        if "/" not in word or re.search(r"[<>…@=:(){}\[\]]", word) or word.startswith("/"):
            continue
        if word.split("/")[0] in top_level:
            paths.add(word)
    return paths


def missing_paths(text: str) -> list[str]:
    return sorted(
        path
        for path in repository_paths(text)
        if not (any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists())
    )


def test_every_repository_path_the_docs_name_exists():
    missing = {doc.relative_to(ROOT).as_posix(): missing_paths(doc.read_text()) for doc in DOCS}
    assert {doc: paths for doc, paths in missing.items() if paths} == {}


def test_the_path_check_finds_a_made_up_path_and_passes_over_urls_and_run_folders():
    text = "`games/engine/rules.py`, `games/engine/no_such_rule.py`, `bench/*_FIGURES.md`, "
    text += "`bench/*_NOTHING.md`, `/games/<id>/`, `var/mail/`, `https://example.org/a/b`"
    assert missing_paths(text) == ["bench/*_NOTHING.md", "games/engine/no_such_rule.py"]


def heading_anchors(markdown: str) -> set[str]:
    """The anchors GitHub makes of a document's headings: lower case, punctuation dropped,
    spaces as hyphens, "-1", "-2" … after a repeated one."""
    anchors: set[str] = set()
    in_code = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not re.match(r"#{1,6} ", line):
            continue
        anchor = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        repeated, count = anchor, 0
        while repeated in anchors:
            count += 1
            repeated = f"{anchor}-{count}"
        anchors.add(repeated)
    return anchors


def broken_links(doc: Path) -> list[str]:
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
        if re.match(r"[a-z]+:", target):  # https:, mailto:: another site's business
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        heading_missing = (
            file.exists()
            and bool(anchor)
            and file.suffix == ".md"
            and anchor not in heading_anchors(file.read_text())
        )
        if not file.exists() or heading_missing:
            broken.append(target)
    return broken


def test_every_link_in_the_docs_reaches_a_file_and_its_heading():
    broken = {doc.relative_to(ROOT).as_posix(): broken_links(doc) for doc in DOCS}
    assert {doc: links for doc, links in broken.items() if links} == {}


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## A heading: with punctuation\n")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "[ok](other.md#a-heading-with-punctuation) [gone](gone.md) [lost](other.md#nowhere) "
        "[web](https://example.org/x) [here](#here)\n\n# Here\n"
    )
    assert broken_links(doc) == ["gone.md", "other.md#nowhere"]
