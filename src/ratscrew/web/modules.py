"""The page's module graph, read from its scripts' own import statements when the server starts.

The browser learns a module's imports only once it has fetched it, so a page whose modules import each other
ten levels deep costs ten round trips. The shell page therefore carries the graph: a ``modulepreload`` link for
each module the shell script (``app.js``) needs, and every module's static imports as JSON, from which the
shell preloads a page's whole graph before it imports the page (``preloadModule`` in app.js). Nothing here is
kept by hand: the lists come from the ``import`` and ``export ... from`` statements of the files as they are.
"""

from __future__ import annotations

import json
import posixpath
import re
from importlib.resources.abc import Traversable

SHELL = "app.js"
# A static import or re-export at the start of a line, its clause up to "from" (which holds no ";", "(" or
# "="), or a bare `import "x";`. JSDoc's type-only `@import` lines start with "/**" or "*" and are left out;
# so are `import("x")` calls, which load a module when it is asked for, not with the page.
STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b[^;(=]*?\bfrom\s*(["'])(?P<from>[^"'\n]+)\1"""
    r"""|^[ \t]*import\s*(["'])(?P<bare>[^"'\n]+)\3""",
    re.MULTILINE,
)


def imports(source: str) -> list[str]:
    """The specifiers of a module's static imports, in the order they appear."""
    return [match["from"] or match["bare"] for match in STATIC_IMPORT.finditer(source)]


def module_graph(js: Traversable) -> dict[str, list[str]]:
    """Each module under ``js`` (by its path there, "pages/game.js") and the modules it imports statically,
    resolved to the same kind of path. Specifiers that are not relative ("/x.js", a URL) are left out."""
    graph: dict[str, list[str]] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            name = prefix + entry.name
            if entry.is_dir():
                walk(entry, name + "/")
            elif entry.name.endswith(".js"):
                here = posixpath.dirname(name)
                found = imports(entry.read_text(encoding="utf-8"))
                resolved = [posixpath.normpath(posixpath.join(here, spec)) for spec in found if spec.startswith(".")]
                graph[name] = list(dict.fromkeys(resolved))  # a module imported and re-exported from is one edge

    walk(js, "")
    return graph


def reach(graph: dict[str, list[str]], root: str) -> list[str]:
    """Every module ``root`` needs, itself included, each once (depth first, in import order)."""
    seen: dict[str, None] = {}
    stack = [root]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen[name] = None
        stack.extend(reversed(graph.get(name, [])))
    return list(seen)


def with_preloads(html: str, graph: dict[str, list[str]]) -> str:
    """The shell page with its script's modules preloaded and the graph for the pages' modules, put just
    before the shell's own script tag (the page is returned as it was if it has none)."""
    tag = f'<script type="module" src="/static/js/{SHELL}"></script>'
    if tag not in html:
        return html
    links = "".join(f'<link rel="modulepreload" href="/static/js/{name}">\n  ' for name in reach(graph, SHELL)[1:])
    # Modules that import nothing are left out (the page reads a missing entry as none). Inside a script
    # element only "</" could end it early; "<\/" reads the same to JSON.
    edges = {name: needs for name, needs in graph.items() if needs}
    data = json.dumps(edges, separators=(",", ":")).replace("</", "<\\/")
    inserted = f'{links}<script type="application/json" id="module-graph">{data}</script>\n  '
    return html.replace(tag, inserted + tag, 1)
