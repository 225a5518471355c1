"""``simulate --vary``: a grid of rule sets and line-ups played on the same games, and the figures of each cell.

Every cell plays games 0 to N-1 of the run's seed, so each game has the same deal and the same random
streams in every cell: the difference between two cells is measured game by game (paired), which cancels
the noise the deals and the bots bring to both, and its standard error is far smaller than that of two
separate runs whenever the change leaves most of a game alone. ``--vary`` takes any rules key, ``rules`` (a
preset or rules file per value, each cell's ``--set`` changes made on it), ``bots`` (a line-up per value, seats
joined by "+") and ``players``; the values come out typed as the rules hold them.
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from ratscrew.errors import MalformedInput
from ratscrew.lab.inputs import LabInputError
from ratscrew.lab.lineup import parse_lineup
from ratscrew.lab.simulate import CellSpec, GridRun, check_levels, play_grid
from ratscrew.rules import load_rules
from ratscrew.rules.options import Value

Vary = tuple[str, tuple[str, ...]]  # a key and the values it takes, as typed
# Keys of a design that are not rules keys: the rule set (a preset or a rules file), the line-up (seats separated
# by "+") and the number of seats.
DESIGN_KEYS = ("rules", "bots", "players")


def parse_vary(specs: Sequence[str], sets: Sequence[str], *, given: Collection[str] = ()) -> list[Vary]:
    """``KEY=V1,V2,...`` for each ``--vary``, a key given once (then checked by :func:`check_vary`)."""
    out: list[Vary] = []
    for spec in specs:
        key, eq, values = spec.partition("=")
        key = key.strip()
        chosen = tuple(v.strip() for v in values.split(","))
        if not eq or not key or not all(chosen):
            raise MalformedInput(f"--vary {spec!r} is not KEY=V1,V2,...: e.g. --vary slaps.run=3,4,5")
        if any(key == k for k, _ in out):
            raise MalformedInput(f"--vary {key} is given twice: give all its values in one --vary {key}=V1,V2,...")
        out.append((key, chosen))
    return check_vary(out, sets, given=given)


def check_vary(vary: Sequence[Vary], sets: Sequence[str], *, given: Collection[str] = ()) -> list[Vary]:
    """Each key varied over values given once each, and not also given with the fixed rules (``sets``) or, for
    a design key (``rules``, ``bots``, ``players``), beside the vary (``given`` names those that were)."""
    fixed = {s.partition("=")[0].strip() for s in sets}
    for key, chosen in vary:
        _check_values(key, chosen, also_fixed=key in fixed, also_given=key in DESIGN_KEYS and key in given)
    return list(vary)


def _check_values(key: str, chosen: tuple[str, ...], *, also_fixed: bool, also_given: bool) -> None:
    if not chosen or not all(chosen):
        raise LabInputError(lambda s: f"{s.name('vary', key)} needs values, none of them empty: got {list(chosen)!r}")
    if also_fixed:
        raise LabInputError(
            lambda s: f"{s.name('vary', key)} and {s.name('sets', key)} both give {key}: give it in one of them"
        )
    if also_given:
        raise LabInputError(
            lambda s: f"{s.name('vary', key)} and {s.name(key)} both give the {key}: give it in one of them"
        )
    repeated = sorted({v for v in chosen if chosen.count(v) > 1})
    if repeated:
        raise LabInputError(lambda s: f"{s.name('vary', key)} repeats a value ({', '.join(repeated)}): give each once")


def grid(vary: Sequence[Vary]) -> list[dict[str, str]]:
    """Every combination of the varied values, the first key's values changing slowest."""
    keys = [k for k, _ in vary]
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*(v for _, v in vary))]


@dataclass(frozen=True, slots=True)
class DesignCell:
    """A cell of a design: the values that make it (typed: a rules key's value as the rules hold it, the
    number of seats as a number, a line-up as its levels joined by "+"), its rules and its line-up."""

    chosen: dict[str, Value]
    spec: CellSpec


def design_cells(
    rules_name: str | None, sets: Sequence[str], vary: Sequence[Vary], bots: str | None, players: int | None
) -> list[DesignCell]:
    """The cells of ``vary`` over the rules ``rules_name`` with ``sets`` and the line-up ``bots``/``players``."""
    cells: list[DesignCell] = []
    for raw in grid(vary):
        rule_sets = [f"{k}={v}" for k, v in raw.items() if k not in DESIGN_KEYS]
        seats = _seats(raw["players"]) if "players" in raw else players
        try:
            rules = load_rules(raw.get("rules", rules_name), (*sets, *rule_sets))
            levels = parse_lineup(raw.get("bots", bots), seats, in_vary="bots" in raw)
            check_levels(levels)
        except MalformedInput as exc:
            raise _in_cell(exc, raw) from None
        chosen: dict[str, Value] = {}
        for key, text in raw.items():
            if key == "players":
                chosen[key] = len(levels)
            elif key == "bots":
                chosen[key] = "+".join(p.strip().lower() for p in text.replace(",", "+").split("+"))
            elif key == "rules":
                chosen[key] = text  # the preset's name (or the rules file) as given
            else:
                chosen[key] = rules.get(key)
        cells.append(DesignCell(chosen, CellSpec(rules, levels)))
    return cells


def _seats(text: str) -> int:
    if not text.isdigit():
        raise LabInputError(
            lambda s: (
                f"{s.name('vary', 'players')} needs whole numbers of seats, e.g. "
                f"{'players=2,3,4' if s.command_line else '[2, 3, 4]'}; got {text!r}"
            )
        )
    return int(text)


def _in_cell(exc: MalformedInput, raw: dict[str, str]) -> MalformedInput:
    """A cell's error, saying which cell when the design has more than one."""
    if not raw:
        return exc
    where = " ".join(f"{k}={v}" for k, v in raw.items())
    if isinstance(exc, LabInputError):
        why = exc
        return LabInputError(lambda s: f"{why.worded(s)} (in the cell {where})")
    return MalformedInput(f"{exc} (in the cell {where})")


def run_design(
    cells: Sequence[DesignCell],
    games: int,
    seed: int,
    *,
    rotate: bool = False,
    replicates: int = 1,
    keep_rows: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> GridRun:
    """Play the cells of a design on the same deals (see :func:`ratscrew.lab.simulate.play_grid`)."""
    return play_grid(
        [c.spec for c in cells],
        games,
        seed,
        rotate=rotate,
        replicates=replicates,
        keep_rows=keep_rows,
        workers=workers,
        scheduler=scheduler,
        progress=progress,
    )


def cell_docs(run: GridRun, cells: Sequence[DesignCell] | None, *, contrasts: bool = False) -> list[dict[str, object]]:
    """Each cell's figures, as ``simulate --json`` prints them: with ``"set"`` (the varied values, typed) for
    the cells of a grid, ``"vs_first"`` after the first cell (its paired differences from the first), and with
    ``contrasts`` ``"contrasts"`` (its paired differences from every other cell)."""
    docs = []
    for i, summary in enumerate(run.summaries()):
        doc = summary.as_dict()
        doc["kernel"] = summary.kernel  # "c" (the compiled kernel) or "python"
        if summary.kernel_fallback and summary.kernel == "python":
            doc["kernel_fallback"] = summary.kernel_fallback
        doc["seed"] = run.seed
        if len(run.seeds) > 1:
            doc["replicates"] = run.replicate_docs(i)
            doc["between_replicates"] = run.between_replicates(i)
        if cells is not None:
            doc = {"set": dict(cells[i].chosen), **doc}
        if i > 0:
            doc["vs_first"] = run.contrast(i, 0).as_dict()
        if contrasts:
            doc["contrasts"] = [{"cell": j, **run.contrast(i, j).as_dict()} for j in range(len(run.cells)) if j != i]
        doc["histogram"] = summary.histogram()
        docs.append(doc)
    return docs


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
            row.update(_flat({str(i): item for i, item in enumerate(value, 1)}, f"{name}."))
        else:
            row[name] = value
    return row
