"""The front end's static check covers every module but the ones named here, and the tools agree on which.

TypeScript checks a module whose first line is ``// @ts-check`` (tsconfig.json keeps ``checkJs`` off so that
checked modules can still import the few that are not typed yet); ESLint skips the modules its config lists
as not yet checked. ``scripts/test`` runs both (``npm run check``); this test keeps their lists from drifting
apart, and keeps a new module from slipping past both. To check one of these modules, give it the line,
take it off ``NOT_YET_CHECKED`` in eslint.config.js, and off the list below.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC_JS = ROOT / "src" / "ratscrew" / "web" / "static" / "js"
PRAGMA = "// @ts-check"

# Other work is reshaping these now; they are typed and restructured once it has landed.
NOT_YET_CHECKED = {
    "pages/drills.js",
    "pages/learn.js",
}


def modules() -> dict[str, str]:
    return {
        path.relative_to(STATIC_JS).as_posix(): path.read_text(encoding="utf-8") for path in STATIC_JS.rglob("*.js")
    }


def test_every_module_but_the_listed_ones_is_type_checked() -> None:
    found = modules()
    assert set(found) >= NOT_YET_CHECKED, f"listed but gone: {sorted(NOT_YET_CHECKED - set(found))}"
    unchecked = {name for name, source in found.items() if not source.startswith(PRAGMA + "\n")}
    assert unchecked == NOT_YET_CHECKED, (
        f"without a first line {PRAGMA!r}: {sorted(unchecked - NOT_YET_CHECKED)}; "
        f"checked but still listed here: {sorted(NOT_YET_CHECKED - unchecked)}"
    )
    assert len(found) > len(NOT_YET_CHECKED)  # the glob found the modules at all


def test_eslint_skips_the_same_modules() -> None:
    config = (ROOT / "eslint.config.js").read_text(encoding="utf-8")
    block = re.search(r"export const NOT_YET_CHECKED = \[(.*?)\];", config, re.DOTALL)
    assert block is not None, "eslint.config.js no longer lists NOT_YET_CHECKED"
    assert set(re.findall(r'"([^"]+)"', block.group(1))) == NOT_YET_CHECKED


def test_typescript_checks_the_page_scripts_strictly_and_emits_nothing() -> None:
    lines = (ROOT / "tsconfig.json").read_text(encoding="utf-8").splitlines()
    config = json.loads("\n".join(line for line in lines if not line.lstrip().startswith("//")))
    options = config["compilerOptions"]
    assert options["strict"] is True and options["noEmit"] is True and options["allowJs"] is True
    assert options["checkJs"] is False  # the pragma decides, module by module (see above)
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
