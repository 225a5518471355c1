"""The plots of a report folder (lab/report.py), drawn with matplotlib as SVG files from a report's figures.

Each function takes the figures and the folder, writes its SVGs there, and returns (file name, caption) pairs
in the order the page shows them.

Readable for any grid: the cells are rows, named on the left in full, one varied key a line, and each row is
as tall as its name, so names never run into each other however many cells or keys there are; the legends
sit outside the axes, below them, so they never cover what is drawn. The text stays text in the SVG (it can
be selected, searched and measured: the browser test checks that no two labels overlap), in DejaVu Sans,
which matplotlib measures its layout with, falling back on the browser's sans-serif. Bars, points and
legends carry ids (``bar-...``, ``data-...``, ``legend``) so the test can find them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

GREEN, GREY = "#2f6f4e", "#8a9a92"
COLOURS = ("#2f6f4e", "#b5562c", "#3c5f9e", "#9c7a1c", "#7b3f8c", "#4d8a8a", "#a33f5c", "#5d6b2f")
LINES = ("-", "--", ":", "-.")  # with the colours, eight times four cells told apart
WIDTH = 9.0  # inches, every plot
FONT = 9  # points
LINE_IN = FONT * 1.25 / 72  # one line of text, in inches
WRAP = 34  # characters a line of a cell's name, at most
Plot = tuple[str, str]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "ratscrew"  # the same figures give the same file
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: selectable, and measurable by the browser test
    plt.rcParams["font.size"] = FONT
    return plt


def _figure(height: float, columns: int = 1, share_rows: bool = False) -> tuple[Any, Any]:
    plt = _pyplot()
    fig, axes = plt.subplots(
        1, columns, figsize=(WIDTH, height), layout="constrained", sharey=share_rows, squeeze=False
    )
    return fig, axes


def _save(fig: Any, folder: Path, name: str) -> str:
    plt = _pyplot()
    fig.savefig(folder / name, format="svg", metadata={"Date": None})
    plt.close(fig)
    return name


def cell_label(cell: dict[str, Any]) -> str:
    """A cell's name on one line: its varied values, ``key=value, ...``."""
    chosen = cell.get("set") or {}
    return ", ".join(f"{k}={v}" for k, v in chosen.items()) or "as given"


def cell_lines(cell: dict[str, Any]) -> str:
    """A cell's name for the side of a plot: one varied key a line, long ones wrapped."""
    chosen = cell.get("set") or {}
    parts = [f"{k}={v}" for k, v in chosen.items()] or ["as given"]
    return "\n".join(line for part in parts for line in wrap(part, WRAP))


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken after a comma or a space where it can be (a
    list of players or values), inside a word only where it must.

    >>> wrap("bots=instant:risk-faces,perfect,medium", 24)
    ['bots=instant:risk-faces,', 'perfect,medium']
    """
    lines: list[str] = []
    for token in re.split(r"(?<=[, ])", text):
        if lines and len(lines[-1]) + len(token) <= width:
            lines[-1] += token
        else:
            lines += [token[i : i + width] for i in range(0, len(token), width)] or [""]
    return [line.strip() for line in lines if line.strip()]


def _lines(text: str) -> int:
    return text.count("\n") + 1


def _legend(fig: Any, handles: list[Any], labels: list[str]) -> None:
    """Below the plots, outside them, in as many columns as fit across the figure."""
    wrapped = ["\n".join(wrap(label, 2 * WRAP)) for label in labels]
    longest = max(len(line) for label in wrapped for line in label.split("\n"))
    per_column = longest * FONT * 0.62 / 72 + 0.6  # inches: the text, its sample line and the gaps
    columns = max(1, min(len(labels), int((WIDTH - 0.4) // per_column)))
    legend = fig.legend(handles, wrapped, loc="outside lower center", ncols=columns, frameon=False)
    legend.set_gid("legend")


def _rows_height(labels: Sequence[str], per_row_min: float) -> float:
    """Inches per row: room for the tallest name, with a gap, and at least ``per_row_min``."""
    return max(per_row_min, max(_lines(label) for label in labels) * LINE_IN + 0.14)


def _lengths(
    ax: Any, pairs: Sequence[Sequence[int]], label: str | None, style: int, log: bool, bins: list[float]
) -> Any:
    """The distribution of game lengths as a line of steps over ``bins`` (on a log scale, empty bins are gaps)."""
    import numpy as np

    values = [int(p[0]) for p in pairs]
    counts = [int(p[1]) for p in pairs]
    if not values:
        return None
    heights, edges = np.histogram(values, bins=bins, weights=counts)
    if log:
        heights = np.where(heights > 0, heights, np.nan)  # log 0 is nowhere: draw nothing there
        ax.set_yscale("log")
    colour, line = COLOURS[style % len(COLOURS)], LINES[style // len(COLOURS) % len(LINES)]
    steps = ax.stairs(heights, edges, baseline=None, linewidth=1.6, color=colour, linestyle=line, label=label)
    steps.set_gid(f"data-lengths-{style}")
    ax.set_xlabel("cards turned in the game")
    ax.set_ylabel("games")
    return steps


def _bins(series: Sequence[Sequence[Sequence[int]]]) -> list[float]:
    """Shared bin edges for length distributions, so cells drawn together are compared bin for bin."""
    values = [int(p[0]) for pairs in series for p in pairs]
    low, high = (min(values), max(values) + 1) if values else (0, 1)
    count = min(80, max(10, len({*values}) // 4))
    return [low + (high - low) * i / count for i in range(count + 1)]


def _shares(
    title: str, groups: list[tuple[str, list[float], list[float]]], names: list[str], equal: float | None
) -> Any:
    """Horizontal bars of shares (in %, with one standard error): a row of bars per group, one bar per name,
    the names in a legend below; with a single group, one row per name, named on the left."""
    single = len(groups) == 1
    rows = names if single else [g[0] for g in groups]
    bars_per_row = 1 if single else len(names)
    row = _rows_height(rows, 0.16 * bars_per_row + 0.12)
    legend_rows = 0 if single else -(-len(names) // 4) + 1
    fig, axes = _figure(len(rows) * row + 1.1 + legend_rows * LINE_IN * 1.4)
    ax = axes[0][0]
    height = 0.8 / bars_per_row
    handles = []
    for j in range(len(names)):
        ys = [j] if single else [i + (j - (len(names) - 1) / 2) * height for i in range(len(groups))]
        shares = [100 * g[1][j] for g in groups]
        errors = [100 * g[2][j] for g in groups]
        bars = ax.barh(ys, shares, height if not single else 0.7, xerr=errors, capsize=2.5, color=COLOURS[j % 8])
        for i, patch in enumerate(bars.patches):
            patch.set_gid(f"bar-{j}-{i}")
        if bars.errorbar is not None:
            _name(bars.errorbar, f"data-error-{j}")
        handles.append(bars)
    if equal is not None:
        ax.axvline(100 * equal, color=GREY, linewidth=1, linestyle="--", zorder=0)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_ylim(len(rows) - 0.5, -0.5)  # the first row at the top
    ax.set_xlabel("share of the games won (%), ± one standard error" + ("; dashed: an equal share" if equal else ""))
    ax.set_title(title)
    if not single:
        _legend(fig, handles, names)
    return fig


def _name(container: Any, gid: str) -> None:
    """Give every part of an error bar container (its points, caps and bars) an id starting with ``gid``."""
    parts = [
        p for item in container.lines if item is not None for p in (item if isinstance(item, tuple | list) else [item])
    ]
    for number, artist in enumerate(parts):
        artist.set_gid(f"{gid}-{number}")


def _estimates(ax: Any, ys: list[int], values: list[float], errors: list[float], name: str) -> None:
    _name(ax.errorbar(values, ys, xerr=errors, fmt="o", color=GREEN, capsize=3, markersize=4), f"data-{name}")


def simulate_plots(figures: dict[str, Any], folder: Path) -> list[Plot]:
    cells: list[dict[str, Any]] = figures["cells"]
    plots: list[Plot] = []
    labels = [cell_label(c) for c in cells]
    many = len(cells) > 1
    legend_rows = sum(_lines(label) for label in labels) if many else 0
    fig, axes = _figure(4.2 + legend_rows * LINE_IN * 1.1)
    ax = axes[0][0]
    bins = _bins([c["histogram"]["cards"] for c in cells])
    handles = [
        _lengths(ax, c["histogram"]["cards"], label, i, False, bins)
        for i, (c, label) in enumerate(zip(cells, labels, strict=True))
    ]
    ax.set_ylim(bottom=0)  # after the lines: the top is where autoscaling put it, above the highest
    ax.set_title("Game length")
    if many:
        _legend(fig, [h for h in handles if h is not None], [lab for h, lab in zip(handles, labels, strict=True) if h])
    plots.append((_save(fig, folder, "lengths.svg"), "Game length: games per number of cards turned, for each cell"))
    seats = [f"seat {i + 1} ({level})" for i, level in enumerate(cells[0]["levels"])]
    groups = [(cell_lines(c), c["win_rate"], c["win_rate_se"]) for c in cells]
    fig = _shares("Who wins", groups, seats, 1 / len(seats))
    plots.append((_save(fig, folder, "wins.svg"), "Each seat's share of the games won, with one standard error"))
    if many:
        plots.append(_sweep(cells, folder))
    return plots


def _sweep(cells: list[dict[str, Any]], folder: Path) -> Plot:
    rows = [cell_lines(c) for c in cells]
    fig, axes = _figure(len(rows) * _rows_height(rows, 0.3) + 1.1, columns=2, share_rows=True)
    left, right = axes[0]
    ys = list(range(len(cells)))
    _estimates(left, ys, [c["mean_cards"] for c in cells], [c["mean_cards_se"] for c in cells], "mean")
    diffs = [c.get("vs_first", {}).get("mean_cards", {"diff": 0.0, "se": 0.0}) for c in cells]
    _estimates(right, ys[1:], [d["diff"] for d in diffs[1:]], [d["se"] for d in diffs[1:]], "diff")
    right.plot([0], [0], "o", mfc="white", color=GREEN, markersize=4, gid="data-diff-reference")
    right.axvline(0, color=GREY, linewidth=1, zorder=0)
    left.set_yticks(ys, rows)
    left.set_ylim(len(rows) - 0.5, -0.5)
    left.set_title("Mean cards per game")
    left.set_xlabel("cards, ± one standard error")
    right.set_title("Paired difference from the first cell")
    right.set_xlabel("cards, ± one standard error (hollow: the first cell)")
    return (
        _save(fig, folder, "sweep.svg"),
        "The sweep: each cell's mean length, and its paired difference from the first cell "
        "(same deals, same random streams)",
    )


def bmn_random_plots(figures: dict[str, Any], folder: Path) -> list[Plot]:
    fig, axes = _figure(4.2)
    ax = axes[0][0]
    pairs = figures["histogram"]["cards"]
    _lengths(ax, pairs, None, 0, True, _bins([pairs]))
    ax.set_title(f"Game length over {figures['games']:,} random deals")
    plots = [(_save(fig, folder, "lengths.svg"), "Game length: deals per number of cards turned (log scale)")]
    if figures.get("winner_share"):
        shares = figures["winner_share"]
        hands = [f"hand {i + 1}" for i in range(len(shares))]
        fig = _shares("Which hand wins", [("", shares, figures["winner_share_se"])], hands, 1 / len(hands))
        plots.append(
            (_save(fig, folder, "wins.svg"), "Each hand's share of the games that ended, with one standard error")
        )
    return plots


def bmn_search_plots(figures: dict[str, Any], folder: Path) -> list[Plot]:
    plots: list[Plot] = []
    progress = figures["progress"]
    start = figures.get("start_best")
    points = ([{"seconds": 0.0, **start}] if start else []) + progress
    if points:
        end = max(float(figures.get("seconds") or 0), points[-1]["seconds"])
        xs = [p["seconds"] for p in points] + [end]
        ys = [p["cards"] for p in points] + [points[-1]["cards"]]
        fig, axes = _figure(4.2)
        ax = axes[0][0]
        ax.step(xs, ys, where="post", color=GREEN, gid="data-best")
        ax.plot(xs[:-1], ys[:-1], "o", color=GREEN, markersize=3, gid="data-finds")
        ax.set_xlim(0, end * 1.02 or 1)
        ax.set_xlabel("seconds since the start of the run (the line runs to its end)")
        ax.set_ylabel("longest game found (cards)")
        ax.set_title("Best so far")
        plots.append((_save(fig, folder, "progress.svg"), "The longest deal found so far, against time, to the end"))
    pool = figures["state"]["pool"]
    if pool:
        fig, axes = _figure(3.8)
        ax = axes[0][0]
        bars = ax.bar(range(1, len(pool) + 1), [f["cards"] for f in pool], color=GREEN)
        for i, patch in enumerate(bars.patches):
            patch.set_gid(f"bar-pool-{i}")
        ax.set_xlabel("rank in the pool")
        ax.set_ylabel("cards")
        ax.set_title("The pool: the longest deals kept")
        plots.append((_save(fig, folder, "pool.svg"), "The longest deals the hunt keeps, longest first"))
    return plots


PLOTS: dict[str, Callable[[dict[str, Any], Path], list[Plot]]] = {
    "simulate": simulate_plots,
    "bmn-random": bmn_random_plots,
    "bmn-search": bmn_search_plots,
}
