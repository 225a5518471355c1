"""``simulate --vary``: a grid of rule sets played on the same games, and the figures of each cell.

Every cell plays games 0 to N-1 of the run's seed, so each game has the same deal and the same random
streams in every cell: the difference between two cells is measured game by game (paired), which cancels
the noise the deals and the bots bring to both, and its standard error is far smaller than that of two
separate runs whenever the change leaves most of a game alone.
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Callable, Sequence
from pathlib import Path

from ratscrew.errors import MalformedInput
from ratscrew.lab.simulate import Paired, Summary, play_grid
from ratscrew.rules import load_rules

Vary = tuple[str, tuple[str, ...]]  # a rule key and the values it takes


def parse_vary(specs: Sequence[str], sets: Sequence[str]) -> list[Vary]:
    """``KEY=V1,V2,...`` for each ``--vary``; a key may be varied once, and not also given with ``--set``."""
    out: list[Vary] = []
    fixed = {s.partition("=")[0].strip() for s in sets}
    for spec in specs:
        key, eq, values = spec.partition("=")
        key = key.strip()
        chosen = tuple(v.strip() for v in values.split(","))
        if not eq or not key or not all(chosen):
            raise MalformedInput(f"--vary {spec!r} is not KEY=V1,V2,...: e.g. --vary slaps.run=3,4,5")
        if key in fixed:
            raise MalformedInput(f"--vary {key} and --set {key} both give {key}: give it in one of them")
        if any(key == k for k, _ in out):
            raise MalformedInput(f"--vary {key} is given twice: give all its values in one --vary {key}=V1,V2,...")
        if len(set(chosen)) != len(chosen):
            raise MalformedInput(f"--vary {spec!r} repeats a value: give each once")
        out.append((key, chosen))
    return out


def grid(vary: Sequence[Vary]) -> list[dict[str, str]]:
    """Every combination of the varied values, the first key's values changing slowest."""
    keys = [k for k, _ in vary]
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*(v for _, v in vary))]


def run_sweep(
    rules_name: str | None,
    sets: Sequence[str],
    vary: Sequence[Vary],
    levels: Sequence[str],
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, object]]:
    """Each cell's figures, as ``simulate --json`` prints them, with ``"set"`` (the varied values) and, after
    the first cell, ``"vs_first"`` (the paired differences from the first cell)."""
    cells = grid(vary)
    rules = [load_rules(rules_name, (*sets, *(f"{k}={v}" for k, v in cell.items()))) for cell in cells]
    results = play_grid(rules, levels, games, seed, workers=workers, scheduler=scheduler, progress=progress)
    return [cell_doc(summary, paired, cell) for (summary, paired), cell in zip(results, cells, strict=True)]


def cell_doc(summary: Summary, paired: Paired | None, chosen: dict[str, str] | None) -> dict[str, object]:
    """A cell's figures; ``"histogram"`` (the length distribution as counts) is printed only when asked for."""
    doc = summary.as_dict()
    doc["kernel"] = summary.kernel  # "c" (the compiled kernel) or "python"
    if summary.kernel_fallback and summary.kernel == "python":
        doc["kernel_fallback"] = summary.kernel_fallback
    if chosen is not None:
        doc = {"set": chosen, **doc}
    if paired is not None:
        doc["vs_first"] = paired.as_dict()
    doc["histogram"] = summary.histogram()
    return doc


def write_csv(path: Path, cells: Sequence[dict[str, object]]) -> None:
    """One row per cell: the varied values, then every figure (lists spread over one column per seat, each
    paired difference as a diff and a se column)."""
    rows = [_flat(cell) for cell in cells]
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    try:
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.DictWriter(out, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rows)
    except OSError as exc:
        raise MalformedInput(f"cannot write the CSV file {str(path)!r}: {exc.strerror}") from None


def _flat(doc: dict[str, object], prefix: str = "") -> dict[str, object]:
    row: dict[str, object] = {}
    for key, value in doc.items():
        name = f"{prefix}{key}"
        if key == "histogram":
            continue
        if isinstance(value, dict):
            row.update(_flat(value, f"{name}." if key != "set" else ""))
        elif isinstance(value, list):
            for i, item in enumerate(value, 1):
                row.update(_flat(item, f"{name}.{i}.") if isinstance(item, dict) else {f"{name}.{i}": item})
        else:
            row[name] = value
    return row
