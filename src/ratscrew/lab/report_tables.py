"""The figures of a report folder (lab/report.py) as tables a reader can take in: each estimate with its
standard error (and its 95% confidence interval where the run gives one), each difference between cells with
its own.

:func:`cell_estimates` is the one place that reads a simulate run's figures out of its results (the cells as
``simulate --json`` prints them): what it finds there (a ``_ci95`` beside a mean, a difference measured from
another cell) the tables show, so a new figure or a new kind of contrast needs a change there and nowhere else.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure measured by a run: its value, standard error and 95% confidence interval (when known)."""

    value: float
    se: float | None = None
    ci95: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Figure:
    """How a figure reads: its title, the word for its estimate, and how to print it (``scale`` 100 for a
    share printed in %)."""

    key: str
    title: str
    stat: str = "mean"
    scale: float = 1.0
    digits: int = 2
    unit: str = ""

    def number(self, value: float, signed: bool = False) -> str:
        return f"{value * self.scale:{'+' if signed else ''}.{self.digits}f}{self.unit}"

    def estimate(self, e: Estimate, signed: bool = False) -> str:
        text = self.number(e.value, signed)
        return text if e.se is None else f"{text} ± {self.number(e.se)}"

    def interval(self, e: Estimate) -> str:
        return "" if e.ci95 is None else f"{self.number(e.ci95[0])} to {self.number(e.ci95[1])}"


@dataclass(frozen=True, slots=True)
class Contrast:
    """A cell's difference from another, cell number ``against`` (paired over the same games)."""

    against: int
    estimate: Estimate


@dataclass(frozen=True, slots=True)
class CellEstimate:
    """A figure of one cell (number ``cell`` in the run): its estimate, its differences from other cells, and
    with replicates the mean of the replicates' figures with the standard error of their spread."""

    cell: int
    estimate: Estimate
    contrasts: tuple[Contrast, ...] = ()
    replicates: Estimate | None = None


@dataclass
class Table:
    """A table for the page: ``key`` names it (its id there), ``head`` the columns, ``rows`` the cells' text;
    the first ``labels`` columns name the rows (text, set left), the others hold figures (set right)."""

    key: str
    title: str
    head: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""
    labels: int = 1

    def html(self) -> str:
        e = html.escape

        def cell(i: int, text: str) -> str:
            return f"<td class='label'>{e(text)}</td>" if i < self.labels else f"<td>{e(text)}</td>"

        head = "".join(f"<th scope='col'>{e(h)}</th>" for h in self.head)
        body = "".join("<tr>" + "".join(cell(i, c) for i, c in enumerate(row)) + "</tr>" for row in self.rows)
        note = f"<p class='note'>{e(self.note)}</p>" if self.note else ""
        return (
            f"<h3>{e(self.title)}</h3><table class='figures' id='table-{e(self.key)}'>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}"
        )


# ---------------------------------------------------------------------- reading a simulate run's results

MEANS = (
    Figure("mean_cards", "Cards turned per game"),
    Figure("mean_tricks", "Tricks per game"),
    Figure("mean_minutes", "Minutes per game"),
    Figure("piles_by_slap", "Piles won by a slap, per game"),
    Figure("piles_by_challenge", "Piles won by a challenge, per game"),
    Figure("wrong_slaps", "Wrong slaps per game", digits=3),
)
PAIRED_NOTE = "A difference is paired: measured game by game over the same deals and random streams."


def varied(cell: dict[str, Any]) -> dict[str, str]:
    """The values a cell of a grid was given (empty for a plain run)."""
    chosen = cell.get("set") or {}
    return {str(k): str(v) for k, v in chosen.items()}


def cell_name(cell: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in varied(cell).items()) or "the run"


def _estimate(value: Any, se: Any = None, ci: Any = None) -> Estimate | None:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    interval = (float(ci[0]), float(ci[1])) if isinstance(ci, list | tuple) and len(ci) == 2 else None
    return Estimate(float(value), float(se) if isinstance(se, int | float) else None, interval)


def _at(values: Any, seat: int | None) -> Any:
    """``values`` itself, or its ``seat``-th item (None when it has none)."""
    if seat is None:
        return values
    return values[seat] if isinstance(values, list) and seat < len(values) else None


def seat_figures(cells: Sequence[dict[str, Any]]) -> list[Figure]:
    """A share of the wins per seat, named by its computer player when every cell seats the same ones; and
    with rotated seats, a share per player (player i being the one of the line-up first seated at seat i)."""
    levels = [tuple(c.get("levels") or ()) for c in cells]
    seats = max((len(c.get("win_rate") or ()) for c in cells), default=0)
    players = max((len(c.get("player_win_rate") or ()) for c in cells), default=0)
    same = len(set(levels)) == 1 and len(levels[0]) >= max(seats, players)

    def named(i: int) -> str:
        return f" ({levels[0][i]})" if same else ""

    return [Figure(f"win_rate.{i}", f"Seat {i + 1}{named(i)} wins", "share", 100, 1, "%") for i in range(seats)] + [
        Figure(f"player_win_rate.{i}", f"Player {i + 1}{named(i)} wins, over every seat", "share", 100, 1, "%")
        for i in range(players)
    ]


def _difference(doc: Any, key: str, seat: int | None) -> Estimate | None:
    paired = _at(doc.get(key), seat) if isinstance(doc, dict) else None
    return _estimate(paired.get("diff"), paired.get("se"), paired.get("ci95")) if isinstance(paired, dict) else None


def cell_estimates(cells: Sequence[dict[str, Any]]) -> list[tuple[Figure, list[CellEstimate]]]:
    """Every figure with a standard error, for each cell that has it: its estimate, its differences from other
    cells, and the spread between replicates. Read from the results as the command prints them: ``KEY``,
    ``KEY_se`` and ``KEY_ci95`` for a mean (``win_rate``, ``player_win_rate`` and their ``_se`` and ``_ci95``
    hold one per seat or player); each mean's ``diff``, ``se`` and ``ci95`` under ``vs_first`` (against the
    first cell) and under each of ``contrasts`` (against cell number ``cell``); and ``between_replicates``,
    each mean's ``mean``, ``se`` and ``ci95`` over the replicates."""
    out = []
    for figure in (*MEANS, *seat_figures(cells)):
        key, _, seat_text = figure.key.partition(".")
        seat = int(seat_text) if seat_text else None
        rows = []
        for number, cell in enumerate(cells):
            mean = _estimate(
                _at(cell.get(key), seat), _at(cell.get(f"{key}_se"), seat), _at(cell.get(f"{key}_ci95"), seat)
            )
            if mean is None:
                continue
            contrasts: dict[int, Estimate] = {}
            first = _difference(cell.get("vs_first"), key, seat)
            if first is not None:
                contrasts[0] = first
            for other in cell.get("contrasts") or []:
                diff = _difference(other, key, seat)
                if diff is not None and isinstance(other.get("cell"), int):
                    contrasts.setdefault(other["cell"], diff)
            spread = _at((cell.get("between_replicates") or {}).get(key), seat)
            replicates = (
                _estimate(spread.get("mean"), spread.get("se"), spread.get("ci95"))
                if isinstance(spread, dict)
                else None
            )
            pairs = tuple(Contrast(j, e) for j, e in sorted(contrasts.items()))
            rows.append(CellEstimate(number, mean, pairs, replicates))
        if rows:
            out.append((figure, rows))
    return out


def simulate_tables(cells: Sequence[dict[str, Any]]) -> list[Table]:
    """One table per figure for a grid (a row per cell, with its difference from the first cell), and one of
    the differences between every two cells when the run gives them; one table of every figure for a plain run;
    then the figures without a standard error."""
    estimates = cell_estimates(cells)
    keys = list(varied(cells[0])) if cells else []
    tables = []
    if len(cells) == 1:
        plain = Table("figures", "The figures", ["figure", "estimate ± standard error", "95% confidence interval"])
        for figure, rows in estimates:
            [row] = rows
            plain.rows.append(
                [f"{figure.title} ({figure.stat})", figure.estimate(row.estimate), figure.interval(row.estimate)]
            )
            if row.replicates is not None:
                e = row.replicates
                plain.rows.append(["  the same, between replicates", figure.estimate(e), figure.interval(e)])
        tables.append(_without_empty_columns(plain, keep=2))
    for figure, rows in estimates if len(cells) > 1 else []:
        tables.append(_grid_table(cells, keys, figure, rows))
        pairs = [(row.cell, c) for row in rows for c in row.contrasts if 0 < c.against < row.cell]
        if pairs:
            table = Table(f"{figure.key}-pairs", f"{figure.title}: between every two cells", [], labels=2)
            table.head = ["cell", "minus cell", "difference ± SE", "95% CI"]
            for cell, c in sorted(pairs, key=lambda pair: (pair[1].against, pair[0])):
                e = c.estimate
                table.rows.append(
                    [cell_name(cells[cell]), cell_name(cells[c.against]), figure.estimate(e, True), figure.interval(e)]
                )
            table.note = PAIRED_NOTE
            tables.append(_without_empty_columns(table, keep=3))
    tables.append(_other_figures(cells, keys))
    return tables


def _grid_table(cells: Sequence[dict[str, Any]], keys: list[str], figure: Figure, rows: list[CellEstimate]) -> Table:
    """A figure across a grid: each cell's estimate, its difference from the first cell, and the spread between
    replicates when there are some."""
    first = cell_name(cells[0])
    spread = any(row.replicates is not None for row in rows)
    paired = any(c.against == 0 for row in rows for c in row.contrasts)
    head = [*keys, f"{figure.stat} ± SE", "95% CI"]
    head += ["between replicates ± SE", "95% CI"] if spread else []
    head += [f"difference from {first} ± SE", "95% CI"] if paired else []
    table = Table(figure.key, figure.title, head, labels=len(keys))
    for row in rows:
        line = [*varied(cells[row.cell]).values(), figure.estimate(row.estimate), figure.interval(row.estimate)]
        if spread:
            e = row.replicates
            line += ["", ""] if e is None else [figure.estimate(e), figure.interval(e)]
        if paired:
            diff = next((c.estimate for c in row.contrasts if c.against == 0), None)
            if row.cell == 0:
                line += ["the reference", ""]
            else:
                line += ["", ""] if diff is None else [figure.estimate(diff, signed=True), figure.interval(diff)]
        table.rows.append(line)
    if paired:
        table.note = PAIRED_NOTE
    return _without_empty_columns(table, keep=len(keys) + 1)


def _other_figures(cells: Sequence[dict[str, Any]], keys: list[str]) -> Table:
    columns = [
        ("games", "games"),
        ("median_cards", "median cards"),
        ("p90_cards", "90th percentile of cards"),
        ("max_cards", "longest game (cards)"),
        ("median_minutes", "median minutes"),
        ("games_with_wrong_slap_knockout", "games where a wrong slap knocked a player out"),
        ("results", "how the games ended"),
    ]
    table = Table("other", "Other figures", [*keys, *(title for _, title in columns)], labels=len(keys))
    for cell in cells:
        line = list(varied(cell).values())
        for key, _ in columns:
            value = cell.get(key)
            if key == "games_with_wrong_slap_knockout" and isinstance(value, int | float):
                line.append(f"{100 * value:.1f}%")
            elif isinstance(value, dict):
                line.append(", ".join(f"{k} {v:,}" for k, v in value.items() if v))
            else:
                line.append("" if value is None else f"{value:,}" if isinstance(value, int) else str(value))
        table.rows.append(line)
    return table


def _without_empty_columns(table: Table, keep: int) -> Table:
    """The table without the columns (past the first ``keep``) that no row fills, such as a CI column for a
    run that gives none."""
    filled = [i < keep or any(row[i] for row in table.rows) for i in range(len(table.head))]
    table.head = [h for h, f in zip(table.head, filled, strict=True) if f]
    table.rows = [[c for c, f in zip(row, filled, strict=True) if f] for row in table.rows]
    return table


# ---------------------------------------------------------------------- random deals and the hunt


def bmn_random_tables(figures: dict[str, Any]) -> list[Table]:
    main = Table("figures", "The figures", ["figure", "estimate ± standard error", "95% confidence interval"])
    budget = figures.get("budget_seconds")
    played = f"{figures['games']:,}" + (f" (when the {budget:g} s budget ran out)" if budget is not None else "")
    main.rows.append(["deals played", played, ""])
    means = (Figure("mean_cards", "cards turned per game (mean)"), Figure("mean_tricks", "tricks per game (mean)"))
    for figure in means:
        e = _estimate(figures.get(figure.key), figures.get(f"{figure.key}_se"), figures.get(f"{figure.key}_ci95"))
        if e is not None:
            main.rows.append([f"{figure.title}, of the deals that ended", figure.estimate(e), figure.interval(e)])
    share = Figure("winner_share", "", "share", 100, 2, "%")
    for hand, value in enumerate(figures.get("winner_share") or []):
        e = _estimate(value, _at(figures.get("winner_share_se"), hand), _at(figures.get("winner_share_ci95"), hand))
        if e is not None:
            main.rows.append(
                [f"hand {hand + 1} wins (share of the deals that ended)", share.estimate(e), share.interval(e)]
            )
    if figures.get("max_cards") is not None:
        main.rows.append(["longest game (cards)", f"{figures['max_cards']:,}", ""])
    marks = figures.get("percentiles") or {}
    if marks:
        main.rows.append(
            [
                "cards per game at the " + ", ".join(f"{m}%" for m in marks) + " marks",
                ", ".join(map(str, marks.values())),
                "",
            ]
        )
    main.rows.append(["endless deals", f"{figures.get('loops', 0):,}", ""])
    if figures.get("longest_deal"):
        main.rows.append(["the longest deal", " ".join(figures["longest_deal"]), ""])
    timing = Table("timing", "Time", ["measure", "value"], labels=2)
    timing.rows += [
        ["seconds", f"{figures.get('seconds', 0):.3f}"],
        ["deals per second", f"{figures.get('games_per_s') or 0:,.0f}"],
        ["played by", "the C kernel" if figures.get("kernel") == "c" else "Python"],
    ]
    return [_without_empty_columns(main, keep=2), timing]


def bmn_search_tables(figures: dict[str, Any]) -> list[Table]:
    state = figures["state"]
    summary = Table("summary", "The hunt", ["measure", "value"], labels=2)
    first = figures.get("first_batch", 0)
    batches = state["next_batch"] - first
    summary.rows += [
        ["batches run", f"{batches:,} (batches {first:,} to {state['next_batch'] - 1:,})" if batches else "none"],
        ["deals dealt, since the hunt started", f"{state['played']:,}"],
        ["positions searched backwards, since the hunt started", f"{state['searched']:,}"],
    ]
    if figures.get("seconds") is not None:
        summary.rows.append(["seconds this run took", f"{figures['seconds']:,.2f}"])
    summary.rows.append(["stopped by", "its time budget (--seconds)" if figures.get("stopped_by_time") else "its end"])
    summary.rows.append(["distinct cycles met", str(len(state.get("cycles") or []))])
    best = figures.get("best")
    if isinstance(best, dict):
        summary.rows.append(["best deal", f"{' '.join(best['deal'])} ({_length(best)})"])
    bests = Table("bests", "Each new best, as it was found", ["deal", "length", "tricks", "batch", "seconds"])
    for find in figures.get("progress") or []:
        batch = find.get("batch")
        where = "--from" if batch == -1 else "" if batch is None else str(batch)
        bests.rows.append([" ".join(find["deal"]), _length(find), str(find["tricks"]), where, f"{find['seconds']:.2f}"])
    tables = [summary, _without_empty_columns(bests, keep=1)]
    cycles = state.get("cycles") or []
    if cycles:
        table = Table("cycles", "The cycles met", ["cycle", "tricks", "cards", "deals found that reach it"])
        table.rows += [[c["key"], str(c["cycle_tricks"]), str(c["cycle_cards"]), str(c["deals"])] for c in cycles]
        tables.append(table)
    return tables


def _length(find: dict[str, Any]) -> str:
    if find.get("result") == "loop":
        return f"endless, repeats after {find['cards']:,} cards"
    return f"{find['cards']:,} cards"
