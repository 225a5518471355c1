"""Another git revision's ``src/``, for the benchmarks that time this tree against it (``--against REV``)."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export_src(rev: str, into: Path) -> Path:
    """Writes revision ``rev``'s ``src/`` into the folder ``into`` (``git archive``) and returns its path."""
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"
