"""The fence between the layers: no part of ``ratscrew`` imports from a part on a higher floor.

``FLOORS`` lists the packages and top-level modules of ``src/ratscrew`` from the ground up
(``docs/architecture.md`` draws the same floors and says what each owns). A part may import from parts on
lower floors and from itself, never from its own floor or above: an import inside a function counts like
one at the top of the file, so no arrow back up hides in a function. The one exception is written down:
``patterns`` names the rules' types for the type checker only (``if TYPE_CHECKING``), while the rules import
the patterns they are made of.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "ratscrew"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "build", "database", "kernels", "shuffle", "ratscrew"),  # "ratscrew": the package's own __init__
    ("cards", "executor", "names"),
    ("patterns", "shapes"),
    ("rules",),
    ("engine", "i18n"),
    ("record", "bots", "bmn", "learn"),
    ("table",),
    ("limits", "rooms", "lab", "ladder", "accounts"),
    ("web", "tui"),
    ("hosting",),
    ("cli",),
    ("__main__",),
)
# Imports up a floor that only the type checker follows (inside ``if TYPE_CHECKING:``): (from, to).
FOR_THE_CHECKER_ONLY = {("patterns", "rules")}

FLOOR = {part: level for level, parts in enumerate(FLOORS) for part in parts}


def part_of(module: str) -> str:
    """``ratscrew.rooms.wire.server`` is part of ``rooms``; ``ratscrew`` of itself."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else pieces[0]


def is_part(name: str) -> bool:
    """Whether ``from ratscrew import name`` imports a module of the package (else a name of its __init__)."""
    return (PACKAGE / f"{name}.py").is_file() or (PACKAGE / name).is_dir()


def module_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(relative.parts).removesuffix(".__init__")


def imports(path: Path, package: str = "ratscrew") -> Iterator[tuple[str, int, bool]]:
    """Each module of ``package`` that ``path`` imports, with its line and whether only the type checker sees it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checker_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            checker_only.update(n.lineno for n in ast.walk(node) if hasattr(n, "lineno"))
    here = module_of(path).split(".") if path.is_relative_to(PACKAGE) else []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:  # a relative import, from the module's own package
                home = here if path.name == "__init__.py" else here[:-1]
                base = ".".join([*home[: len(home) - node.level + 1], *([base] if base else [])])
            names = [
                f"{base}.{alias.name}" if base == "ratscrew" and is_part(alias.name) else base for alias in node.names
            ]
        for name in names:
            if name == package or name.startswith(f"{package}."):
                yield name, node.lineno, node.lineno in checker_only


def arrows() -> list[tuple[str, str, str]]:
    """Every import between two parts: (from, to, where)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = part_of(module_of(path))
        for name, line, checker_only in imports(path):
            target = part_of(name)
            if target != source and not (checker_only and (source, target) in FOR_THE_CHECKER_ONLY):
                found.append((source, target, f"{path.relative_to(ROOT)}:{line}"))
    return found


def test_every_part_of_the_package_has_a_floor() -> None:
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or p.is_dir()}
    parts = {"ratscrew" if p == "__init__" else p for p in parts if p != "__pycache__" and not p.endswith(".egg-info")}
    assert parts - FLOOR.keys() == set(), "add the new part to FLOORS (and to docs/architecture.md)"
    assert FLOOR.keys() - parts == set(), "a part in FLOORS is gone"


def test_no_part_imports_from_its_own_floor_or_above() -> None:
    wrong = [
        f"{where}: {source} (floor {FLOOR[source]}) imports {target} (floor {FLOOR[target]})"
        for source, target, where in arrows()
        if FLOOR[target] >= FLOOR[source]
    ]
    assert not wrong, "\n".join(wrong)


def test_the_exception_is_for_the_type_checker_only() -> None:
    # Were ``patterns`` to import the rules for real, the cycle would be one Python has to untangle at run time.
    for source, target in FOR_THE_CHECKER_ONLY:
        assert FLOOR[target] > FLOOR[source]
        assert not [where for s, t, where in arrows() if (s, t) == (source, target)]


def test_the_architecture_page_draws_the_same_floors() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for level, parts in enumerate(FLOORS):
        line = next((row for row in text.splitlines() if row.startswith(f"| {level} |")), None)
        assert line is not None, f"docs/architecture.md has no row for floor {level}"
        named = {word.strip("` ") for word in line.split("|")[2].split(",")}
        assert named == set(parts), f"floor {level}: the page names {sorted(named)}, FLOORS {sorted(parts)}"


def test_the_benchmarks_and_the_harness_import_nothing_from_the_tests() -> None:
    # What the benchmarks and the tests need lives in harness/: the tests may move between folders without
    # breaking a benchmark, no test module needs another (nor runs another's tests by importing it), and no
    # benchmark leans on another.
    wrong = []
    for folder in ("bench", "harness", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            wrong += [f"{path.relative_to(ROOT)}:{line}" for name, line, _ in imports(path, package="tests")]
    for path in sorted((ROOT / "bench").glob("*.py")):
        for other in sorted((ROOT / "bench").glob("*.py")):
            wrong += [f"{path.relative_to(ROOT)}:{line}" for name, line, _ in imports(path, package=other.stem)]
    assert not wrong, f"import from harness/ instead: {wrong}"
