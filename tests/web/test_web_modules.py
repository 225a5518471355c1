"""The shell page carries its scripts' module graph, read from their import statements (web/modules.py), so a
page's modules are fetched at once. ``tests/browser/test_browser_preload.py`` checks in Chromium that every module
a page loads was asked for by a preload; these check the reading itself, without a browser."""

from __future__ import annotations

import json
import posixpath
import re
from importlib import resources
from pathlib import Path

from ratscrew.web.modules import SHELL, imports, module_graph, reach, with_preloads

STATIC = Path(str(resources.files("ratscrew.web").joinpath("static")))
JS = STATIC / "js"


def test_static_imports_are_read_and_the_rest_left_out() -> None:
    source = "\n".join(
        [
            "// @ts-check",
            'import { a } from "./a.js";',
            "import {",
            "  b,",
            "  c,",
            '} from "../b.js";',
            'export { d } from "./d.js";',
            "import './side.js';",
            'import * as e from "./e.js"',
            '/** @import { T } from "./types.js" */',
            ' * @import { U } from "./types.js"',
            '// import { z } from "./commented.js";',
            'const lazy = () => import("./lazy.js");',
            'export const f = "from \\"./not-an-import.js\\"";',
            "export function g() {}",
        ]
    )
    assert imports(source) == ["./a.js", "../b.js", "./d.js", "./side.js", "./e.js"]


def test_the_graph_names_every_import_of_every_module_and_only_files_that_exist() -> None:
    graph = module_graph(JS)
    files = {path.relative_to(JS).as_posix() for path in JS.rglob("*.js")}
    assert set(graph) == files
    comment = re.compile(r"^\s*(?://|/\*|\*)")
    for name, needs in graph.items():
        assert set(needs) <= files, (name, set(needs) - files)
        assert len(needs) == len(set(needs)), name
        # A looser reading of the same file, line by line: any relative specifier after "from" outside a comment.
        code = "\n".join(
            line for line in (JS / name).read_text(encoding="utf-8").splitlines() if not comment.match(line)
        )
        loose = {
            posixpath.normpath(posixpath.join(posixpath.dirname(name), spec))
            for spec in re.findall(r'\bfrom\s*"(\.[^"]+)"', code)
        }
        assert set(needs) == loose, name
    assert graph["table.js"].count("table/seats.js") == 1  # imported and re-exported from: one edge
    assert "played.js" in reach(graph, "pages/game.js")


def test_the_shell_page_preloads_its_script_s_modules_and_carries_the_graph() -> None:
    raw = (STATIC / "index.html").read_text(encoding="utf-8")
    graph = module_graph(JS)
    html = with_preloads(raw, graph)
    links = re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)">', html)
    assert sorted(links) == sorted(set(reach(graph, SHELL)) - {SHELL})
    assert {"i18n.js", "dom.js", "api.js"} <= set(links)
    carried = re.search(r'<script type="application/json" id="module-graph">(.*?)</script>', html, re.S)
    assert carried is not None
    assert json.loads(carried.group(1)) == {name: needs for name, needs in graph.items() if needs}
    # All of it before the shell's script, which reads it as it starts.
    assert html.index("module-graph") < html.index(f'src="/static/js/{SHELL}"')
    assert with_preloads("<p>no script here</p>", graph) == "<p>no script here</p>"
