"""Which ratscrew this is: the commit of this repository it was built from (``/healthz``
and ``/api/meta`` say it beside the version, so an operator knows what runs).

An installed package has no ``.git``: building it writes the commit into the file ``COMMIT`` beside this
module (``setup.py``; an sdist carries the file, so a wheel built from it knows the commit too). Run from a
checkout (an editable install, the tests), there is no such file and git is asked. "unknown" only for a
package built outside git. A commit followed by ``-dirty`` was built from changed files.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

# No import of ratscrew here: setup.py runs this file by itself, before the package is installed.
COMMIT_FILE = Path(__file__).with_name("COMMIT")
UNKNOWN = "unknown"


@functools.cache
def commit() -> str:
    if COMMIT_FILE.is_file():
        return COMMIT_FILE.read_text(encoding="utf-8").strip() or UNKNOWN
    # src/ratscrew/build.py: two folders up is the checkout, if this runs from one.
    return commit_of_checkout(Path(__file__).resolve().parent.parent.parent) or UNKNOWN


def commit_of_checkout(root: Path) -> str | None:
    """The commit checked out in ``root`` (with ``-dirty`` if tracked files differ from it), if ``root`` is
    the top of a git work tree: not a folder inside another repository (an sdist unpacked in one)."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30, check=True)
        return done.stdout.strip()

    try:
        if Path(git("rev-parse", "--show-toplevel")).resolve() != root.resolve():
            return None
        head = git("rev-parse", "HEAD")
        changed = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}-dirty" if changed else head
