"""Every file the docs and the Python sources name is there: a module moved or made a package (the rooms'
protocol was one module, ``wire``, before it was a folder) fails here until every page and comment that
pointed to it is brought along."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where a path is written from: the checkout, the package, the page's scripts, the catalogues.
BASES = (
    ROOT,
    ROOT / "src",
    ROOT / "src" / "ratscrew",
    ROOT / "src" / "ratscrew" / "web" / "static",
    ROOT / "src" / "ratscrew" / "web" / "static" / "js",
    ROOT / "src" / "ratscrew" / "i18n",
)
PATH = re.compile(r"(?<![\w./-])((?:[\w-]+/)+[\w.-]+\.(?:py|js|md|json|css|d\.ts|c|toml|html))\b")
EXAMPLES = {"tests/test_x.py"}  # CONTRIBUTING's placeholder for any test file


def named_files() -> dict[str, list[str]]:
    """Each path a doc or a Python file names, with where it is named."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    sources = [p for p in listed.split() if p.endswith((".md", ".py")) and not p.startswith("tests/golden/")]
    named: dict[str, list[str]] = {}
    for source in sources:
        for found in PATH.finditer((ROOT / source).read_text(encoding="utf-8")):
            named.setdefault(found.group(1), []).append(source)
    return named


def test_every_file_a_doc_or_a_source_names_is_there() -> None:
    named = named_files()
    assert "rooms/wire/client.py" in named  # the search itself finds what it looks for
    missing = {
        path: where
        for path, where in named.items()
        if path not in EXAMPLES and not any((base / path).exists() for base in BASES)
    }
    assert not missing, f"named but not there (path: where named): {missing}"
