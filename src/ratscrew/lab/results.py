"""What a simulation study gives a notebook: each cell's figures, any two cells' paired differences, and one row
per game, as plain Python or as pandas and Arrow tables (lab/tables.py).

Cells are numbered from 0 in the order ``--json`` prints them; seats and players from 1, as the commands say
them ("seat 1"). A game's ``winner`` is the seat that won it; ``winner_player`` the player of the line-up who sat
there (the same number when the seats do not rotate).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ratscrew.lab.simulate import GridRun, Summary, rotated
from ratscrew.lab.sweep import DesignCell, cell_docs
from ratscrew.lab.tables import Table, from_rows, to_arrow, to_pandas
from ratscrew.lab.tally import Contrast, Estimate
from ratscrew.rules.options import Value

TABLES = ("games", "cells", "contrasts")
_SEAT_FIGURES = (
    ("piles_by_slap", "seat_slap_piles"),
    ("piles_by_challenge", "seat_challenge_piles"),
    ("wrong_slaps", "seat_wrong_slaps"),
)


def game_table(run: GridRun, cells: Sequence[DesignCell] | None) -> Table:
    """One row per game of ``run`` (played with ``keep_rows``), in replicate, deal, cell, rotation order."""
    if run.rows is None:
        raise ValueError("this run kept no per-game rows: play it with rows=True")
    seats = max(len(c.levels) for c in run.cells)
    varied = [k for k in (cells[0].chosen if cells else {}) if k != "players"]
    table: Table = {
        name: []
        for name in (
            "cell",
            *varied,
            "replicate",
            "seed",
            "deal",
            "rotation",
            "players",
            "result",
            "winner",
            "winner_player",
            "cards",
            "tricks",
            "ms",
            "minutes",
            "piles_by_slap",
            "piles_by_challenge",
            "wrong_slaps",
            "out_by_wrong_slap",
        )
    }
    for seat in range(1, seats + 1):
        for name in ("level", "player", *(figure for figure, _ in _SEAT_FIGURES)):
            table[f"seat{seat}_{name}"] = []
    for row in run.rows:
        s, levels = row.stats, run.cells[row.cell].levels
        n = len(levels)
        values: dict[str, Any] = {
            "cell": row.cell,
            "replicate": row.replicate,
            "seed": row.seed,
            "deal": row.deal,
            "rotation": row.rotation,
            "players": n,
            "result": s.result,
            "winner": None if s.winner is None else s.winner + 1,
            "winner_player": None if s.winner is None else (s.winner + row.rotation) % n + 1,
            "cards": s.cards,
            "tricks": s.tricks,
            "ms": s.ms,
            "minutes": s.ms / 60_000,
            "piles_by_slap": s.piles_by_slap,
            "piles_by_challenge": s.piles_by_challenge,
            "wrong_slaps": s.wrong_slaps,
            "out_by_wrong_slap": s.out_by_wrong_slap,
        }
        if cells:
            values |= {k: cells[row.cell].chosen[k] for k in varied}
        sat = rotated(levels, row.rotation)
        for seat in range(seats):
            here = seat < n
            values[f"seat{seat + 1}_level"] = sat[seat] if here else None
            values[f"seat{seat + 1}_player"] = (seat + row.rotation) % n + 1 if here else None
            for figure, field in _SEAT_FIGURES:
                values[f"seat{seat + 1}_{figure}"] = getattr(s, field)[seat] if here else None
        for name, column in table.items():
            column.append(values[name])
    return table


def _estimate_row(e: Estimate) -> dict[str, Any]:
    low, high = e.ci95
    return {"value": e.value, "se": e.se, "ci95_low": low, "ci95_high": high, "df": e.df}


@dataclass(frozen=True)
class Study:
    """A played design: ``simulate`` and ``sweep`` in ratscrew.lab.api return one.

    ``figures`` are the cells' figures exactly as ``ratscrew simulate --json`` prints them (one dict per cell).
    """

    run: GridRun
    cells: tuple[DesignCell, ...] | None  # None for a plain run (one cell, nothing varied)

    def __repr__(self) -> str:
        """What was played, as the call that plays it again, and how much: a notebook shows this, where the
        dataclass's own repr printed every game (about 100,000 characters for a thousand)."""
        run, first = self.run, self.run.cells[0]
        varied: dict[str, list[Value]] = {}
        for cell in self.cells or ():
            for key, value in cell.chosen.items():
                if value not in varied.setdefault(key, []):
                    varied[key].append(value)
        args = [f"vary={varied!r}"] if varied else []
        if "rules" not in varied:
            args.append(f"rules={first.rules.preset!r}")
        fixed = {k: v for k, v in first.rules.changes_from_preset().items() if k not in varied}
        if fixed:
            args.append(f"sets={fixed!r}")
        if not varied.keys() & {"bots", "players"}:
            args.append(f"bots={','.join(first.levels)!r}")
        args += [f"games={run.games}", f"seed={run.seed}"]
        if run.rotate:
            args.append("rotate_seats=True")
        if len(run.seeds) > 1:
            args.append(f"replicates={len(run.seeds)}")
        if run.rows is None:
            args.append("rows=False")
        played = run.games * len(run.seeds) * sum(len(c.levels) if run.rotate else 1 for c in run.cells)
        cells = len(run.cells)
        call = f"{'sweep' if varied else 'simulate'}({', '.join(args)})"
        return f"<Study of {call}: {cells} cell{'s' if cells != 1 else ''}, {played:,} games played>"

    @property
    def figures(self) -> list[dict[str, Any]]:
        return copy.deepcopy(self._figures)

    @functools.cached_property
    def _figures(self) -> list[dict[str, Any]]:
        docs: list[dict[str, Any]] = cell_docs(self.run, self.cells)
        for doc in docs:
            doc.pop("histogram")
        return docs

    @property
    def seeds(self) -> list[int]:
        """The seed of each replicate (the first is the run's seed)."""
        return list(self.run.seeds)

    def chosen(self, cell: int) -> dict[str, Value]:
        """The varied values that make cell ``cell`` (empty for a plain run)."""
        return dict(self.cells[self._cell(cell)].chosen) if self.cells else {}

    def summary(self, cell: int = 0, replicate: int | None = None) -> Summary:
        return self.run.summary(self._cell(cell), replicate)

    def _cell(self, cell: int) -> int:
        """A cell's number checked: Python's counting from the end would give another cell's figures."""
        count = len(self.run.cells)
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < count:
            raise ValueError(f"no cell {cell!r}: this study's cells are numbered 0 to {count - 1}")
        return cell

    def mean(self, name: str, cell: int = 0) -> Estimate:
        """A mean per game (``mean_cards``, ``mean_minutes``, ``mean_tricks``, ``piles_by_slap``,
        ``piles_by_challenge``, ``wrong_slaps``) with its standard error and 95% interval."""
        estimates = self.summary(cell).estimates()
        if name not in estimates:
            raise KeyError(f"no mean {name!r}: one of {', '.join(estimates)}")
        return estimates[name]

    def win_rate(self, seat: int, cell: int = 0, *, by_player: bool = False) -> Estimate:
        """Seat ``seat``'s share of the games (from 1), or with ``by_player`` the share of the line-up's
        player ``seat`` wherever it sat (the same without rotation)."""
        seats = len(self.run.cells[self._cell(cell)].levels)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
            raise ValueError(f"no seat {seat!r}: seats are numbered from 1, here 1 to {seats}")
        return self.summary(cell).tally.win_share(seat - 1, by_player=by_player)

    def contrast(self, a: int, b: int) -> Contrast:
        """Cell ``a`` minus cell ``b``, paired deal by deal."""
        return self.run.contrast(a, b)

    # ------------------------------------------------------------------ tables

    def table(self, name: str = "games") -> Table:
        """``games`` (one row per game), ``cells`` (one row per cell and figure: value, se, 95% interval) or
        ``contrasts`` (one row per ordered pair of cells and figure)."""
        if name == "games":
            return game_table(self.run, self.cells)
        if name == "cells":
            return self._cells_table()
        if name == "contrasts":
            return self._contrasts_table()
        raise ValueError(f"no table {name!r}: one of {', '.join(TABLES)}")

    def to_pandas(self, table: str = "games") -> Any:
        """A table as a pandas DataFrame (needs pandas and pyarrow: pip install 'ratscrew[lab]')."""
        return to_pandas(self.table(table))

    def to_arrow(self, table: str = "games") -> Any:
        """A table as a pyarrow Table (needs pyarrow: pip install 'ratscrew[lab]')."""
        return to_arrow(self.table(table))

    def _cells_table(self) -> Table:
        rows: list[dict[str, Any]] = []
        for cell in range(len(self.run.cells)):
            summary = self.summary(cell)
            head = {"cell": cell, **self.chosen(cell)}
            for name, e in summary.estimates().items():
                rows.append({**head, "figure": name, "seat": None, **_estimate_row(e)})
            for seat in range(summary.players):
                e = summary.tally.win_share(seat)
                rows.append({**head, "figure": "win_rate", "seat": seat + 1, **_estimate_row(e)})
            if summary.tally.rotations > 1:
                for seat in range(summary.players):
                    e = summary.tally.win_share(seat, by_player=True)
                    rows.append({**head, "figure": "player_win_rate", "seat": seat + 1, **_estimate_row(e)})
        return from_rows(rows)

    def _contrasts_table(self) -> Table:
        rows: list[dict[str, Any]] = []
        count = len(self.run.cells)
        for a in range(count):
            for b in range(count):
                if a == b:
                    continue
                c = self.contrast(a, b)
                head = {"cell": a, "minus": b}
                for name, e in c.figures.items():
                    rows.append({**head, "figure": name, "seat": None, **_estimate_row(e)})
                for seat, e in enumerate(c.win_rate, 1):
                    rows.append({**head, "figure": "win_rate", "seat": seat, **_estimate_row(e)})
                for seat, e in enumerate(c.player_win_rate or [], 1):
                    rows.append({**head, "figure": "player_win_rate", "seat": seat, **_estimate_row(e)})
        return from_rows(rows)
