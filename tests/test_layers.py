"""The apps stand on one another in layers, and no module imports its way back round.

    lib  <  outbox  <  accounts  <  games  <  friends  <  players  <  rematches, deals
         <  moderation, mailplay  <  hanabi_site (settings, URLs)

The rules (games.engine) and what stands on them alone (games.bots, games.analysis) import
no Django and nothing of the site. Every import counts, also those inside functions: that
is where circles used to hide (outbox -> tasks -> services -> outbox).
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = [
    "lib",
    "outbox",
    "accounts",
    "games",
    "friends",
    "players",
    "rematches",
    "deals",
    "moderation",
    "mailplay",
    "hanabi_site",
]
PURE = ["games.engine", "games.bots", "games.analysis"]

# What each layer may import (besides itself). A layer is a package, or one of PURE.
MAY_IMPORT = {
    "games.engine": set(),
    "games.bots": {"games.engine"},
    "games.analysis": {"games.engine"},
    "lib": set(),
    "outbox": {"lib"},
    "accounts": {"lib", "outbox"},
    "games": {"lib", "outbox", "accounts", *PURE},
    "friends": {"lib", "outbox", "accounts", "games", *PURE},
    "players": {"lib", "outbox", "accounts", "games", "friends", *PURE},
    "rematches": {"lib", "outbox", "accounts", "games", "friends", "players", *PURE},
    "deals": {"lib", "outbox", "accounts", "games", "friends", "players", *PURE},
    "moderation": {"lib", "outbox", "accounts", "games", *PURE},
    "mailplay": {"lib", "outbox", "accounts", "games", *PURE},
    "hanabi_site": {
        "lib",
        "outbox",
        "accounts",
        "games",
        "friends",
        "players",
        "rematches",
        "deals",
        "moderation",
        "mailplay",
        *PURE,
    },
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            modules[module_name(path)] = path
    return modules


MODULES = project_modules()


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imported_names(module: str, path: Path) -> set[str]:
    """Every module this one imports, anywhere in it but under `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    skipped = {
        id(n) for block in ast.walk(tree) if _is_type_checking_block(block) for n in ast.walk(block)
    }
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # `from games.services import play` imports the module games.services.play.
                candidate = f"{base}.{alias.name}"
                names.add(candidate if candidate in MODULES else base)
    return names


def layer_of(module: str) -> str | None:
    for pure in PURE:
        if module == pure or module.startswith(pure + "."):
            return pure
    top = module.split(".")[0]
    return top if top in PACKAGES else None


def upward_imports(imports: dict[str, set[str]], layer: str) -> list[str]:
    return sorted(
        f"{module} imports {name}"
        for module, names in imports.items()
        if layer_of(module) == layer
        for name in names
        if layer_of(name) not in (None, layer, *MAY_IMPORT[layer])
    )


def find_circles(graph: dict[str, set[str]]) -> list[str]:
    """Each circle as 'a -> b -> a', found by a depth-first walk."""
    circles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for name in sorted(graph.get(module, ())):
            if state.get(name) == 1:
                circles.append(" -> ".join([*path[path.index(name) :], name]))
            elif name not in state:
                visit(name, [*path, name])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return circles


IMPORTS = {module: imported_names(module, path) for module, path in MODULES.items()}


@pytest.mark.parametrize("layer", MAY_IMPORT)
def test_no_layer_imports_one_above_it(layer):
    assert upward_imports(IMPORTS, layer) == []


@pytest.mark.parametrize("layer", PURE)
def test_the_rules_and_what_stands_on_them_import_no_django(layer):
    wrong = sorted(
        f"{module} imports {name}"
        for module, names in IMPORTS.items()
        if layer_of(module) == layer
        for name in names
        if name.split(".")[0] in ("django", "celery", "kombu", "redis", "psycopg")
    )
    assert wrong == []


def test_no_module_imports_its_way_back_to_itself():
    graph = {
        module: {name for name in names if name in MODULES and name != module}
        for module, names in IMPORTS.items()
    }
    assert find_circles(graph) == []


def test_the_checks_see_a_circle_and_an_upward_import():
    """A layer test that cannot fail is no test: the checks, on made-up imports."""
    assert find_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a -> b -> c -> a"]
    assert find_circles({"a": {"b"}, "b": set()}) == []
    assert upward_imports({"accounts.admin": {"games.services.play"}}, "accounts") == [
        "accounts.admin imports games.services.play"
    ]
    assert upward_imports({"games.bots.policy": {"django.db"}}, "games.bots") == []
    assert upward_imports({"games.engine.state": {"games.models"}}, "games.engine") == [
        "games.engine.state imports games.models"
    ]
    # The parser sees imports inside functions, where circles used to hide.
    assert "outbox.registry" in IMPORTS["outbox.delivery"]
    assert "outbox.checks" in IMPORTS["outbox.apps"]
