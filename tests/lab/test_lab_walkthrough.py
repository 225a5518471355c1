"""docs/lab.md's walk-through runs as it stands: every Python block of its "From Python" section, in order, in
one namespace (as the cells of a notebook), each asserting what the page says it shows."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## From Python: a walk-through"


def walkthrough_blocks() -> list[str]:
    page = (ROOT / "docs" / "lab.md").read_text(encoding="utf-8")
    start = page.index(SECTION)
    end = page.find("\n## ", start + len(SECTION))
    section = page[start : end if end >= 0 else len(page)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def test_the_walkthrough_runs_and_shows_what_it_says() -> None:
    blocks = walkthrough_blocks()
    assert len(blocks) >= 8  # the page's blocks were all found (a changed fence would silently skip them)
    namespace: dict[str, object] = {}
    for number, block in enumerate(blocks, 1):
        code = compile(block, f"docs/lab.md walk-through block {number}", "exec")
        exec(code, namespace)
    assert "study" in namespace and "hunt" in namespace
