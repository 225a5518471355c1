"""The front end's static check covers every module of the page, and no module slips past it.

TypeScript's checker reads every module (tsconfig.json's ``checkJs``), and each module says so on its first
line, ``// @ts-check``, for an editor that opens it alone; ESLint lints the whole folder and skips none of it.
``scripts/test`` runs both (``npm run check``); this test keeps the configuration from leaving a module out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC_JS = ROOT / "src" / "ratscrew" / "web" / "static" / "js"
PRAGMA = "// @ts-check"


def modules() -> dict[str, str]:
    return {
        path.relative_to(STATIC_JS).as_posix(): path.read_text(encoding="utf-8") for path in STATIC_JS.rglob("*.js")
    }


def test_every_module_is_type_checked() -> None:
    found = modules()
    assert {"table.js", "table/core.js", "pages/room.js", "pages/drills/stream.js"} <= set(found)  # the parts too
    unchecked = sorted(name for name, source in found.items() if not source.startswith(PRAGMA + "\n"))
    assert unchecked == [], f"without a first line {PRAGMA!r}: {unchecked}"


def test_eslint_skips_none_of_the_page_scripts() -> None:
    config = (ROOT / "eslint.config.js").read_text(encoding="utf-8")
    ignores = re.search(r"\{ ignores: \[(.*?)\] \}", config)
    assert ignores is not None, "eslint.config.js no longer has its ignores where this test looks"
    ignored = re.findall(r'"([^"]+)"', ignores.group(1))
    assert ignored and not any(pattern.startswith(("src", "$")) or "static" in pattern for pattern in ignored), ignored
    assert "STATIC_JS}/**/*.js" in config  # the page's rules apply to every module under js/


def test_typescript_checks_the_page_scripts_strictly_and_emits_nothing() -> None:
    lines = (ROOT / "tsconfig.json").read_text(encoding="utf-8").splitlines()
    config = json.loads("\n".join(line for line in lines if not line.lstrip().startswith("//")))
    options = config["compilerOptions"]
    assert options["strict"] is True and options["noEmit"] is True and options["allowJs"] is True
    assert options["checkJs"] is True
    assert "src/ratscrew/web/static/js/**/*.js" in config["include"]


def test_the_checkers_are_pinned() -> None:
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    wanted = package["devDependencies"]
    assert {"typescript", "eslint"} <= set(wanted)
    for name, version in wanted.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), (
            f"{name} {version}: an exact version, so CI runs what was checked"
        )
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name
