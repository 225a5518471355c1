"""The project's modules import each other without a cycle, counting the imports inside functions.

An import inside a function is how a cycle hides: it works because it runs late, and the two modules can then
only be read together. Imports under ``if TYPE_CHECKING:`` never run, and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "ratscrew"


def module_files() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name, for its __init__)."""
    found: dict[str, Path] = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _typing_only(tree: ast.Module) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``), which never run."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
            if name == "TYPE_CHECKING":
                skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skipped


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules that ``name`` imports, anywhere in its file: each import names the deepest
    module it reaches (``from ratscrew.lab import kernel`` is ``ratscrew.lab.kernel``)."""

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = _typing_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str | None] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets.update(known(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets.update(known(f"{base}.{alias.name}") for alias in node.names)
    return {t for t in targets if t is not None and t != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def test_no_module_imports_itself_back_even_from_inside_a_function() -> None:
    graph = import_graph()
    assert len(graph) > 50 and graph["ratscrew.lab.simulate"]  # the walk found the package and its imports
    assert cycles(graph) == []


def test_no_two_parts_of_the_package_lean_on_each_other() -> None:
    """Nor do two top-level parts (``ratscrew.lab``, ``ratscrew.bmn``, ...) import each other both ways, by
    whatever modules: the package's own ``__init__`` aside, which anything may read."""
    parts: dict[str, set[str]] = {}
    for source, targets in import_graph().items():
        for target in targets:
            a, b = (".".join(name.split(".")[:2]) for name in (source, target))
            if a != b and PACKAGE not in (a, b):
                parts.setdefault(a, set()).add(b)
    both_ways = sorted((a, b) for a, outs in parts.items() for b in outs if a < b and a in parts.get(b, set()))
    assert both_ways == []


def test_the_walk_sees_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from ratscrew import b\n")
    (package / "b.py").write_text("def late() -> None:\n    from ratscrew.a import x\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ratscrew import a\n")
    modules = {f"{PACKAGE}.{n}": package / f"{n}.py" for n in "abc"} | {PACKAGE: package / "__init__.py"}
    graph = {name: imported(name, path, modules) for name, path in modules.items()}
    assert graph["ratscrew.c"] == set()  # typing only: it never runs
    assert cycles(graph) == [["ratscrew.a", "ratscrew.b"]]
