"""The plots of a report folder (lab/report.py), drawn with matplotlib as SVG files from a report's figures.

Each function takes the figures and the folder, writes its SVGs there, and returns (file name, caption) pairs
in the order the page shows them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

GREEN, GREY = "#2f6f4e", "#8a9a92"
COLOURS = ("#2f6f4e", "#b5562c", "#3c5f9e", "#9c7a1c", "#7b3f8c", "#4d8a8a", "#a33f5c", "#5d6b2f")
Plot = tuple[str, str]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "ratscrew"  # the same figures give the same file
    plt.rcParams["svg.fonttype"] = "path"  # no font to fetch: the text is drawn
    return plt


def _save(fig: Any, folder: Path, name: str) -> str:
    plt = _pyplot()
    fig.tight_layout()
    fig.savefig(folder / name, format="svg", metadata={"Date": None})
    plt.close(fig)
    return name


def _bins(series: Sequence[Sequence[Sequence[int]]]) -> list[float]:
    """Shared bin edges for length distributions, so cells drawn together are compared bin for bin."""
    values = [int(p[0]) for pairs in series for p in pairs]
    low, high = (min(values), max(values) + 1) if values else (0, 1)
    count = min(80, max(10, len({*values}) // 4))
    return [low + (high - low) * i / count for i in range(count + 1)]


def _lengths(
    ax: Any, pairs: Sequence[Sequence[int]], label: str | None, colour: str, log: bool, bins: list[float]
) -> None:
    values = [int(p[0]) for p in pairs]
    counts = [int(p[1]) for p in pairs]
    if not values:
        return
    ax.hist(values, bins=bins, weights=counts, histtype="step", linewidth=1.6, color=colour, label=label)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("cards turned in the game")
    ax.set_ylabel("games")


def _shares(ax: Any, groups: list[tuple[str, list[float], list[float]]], names: list[str]) -> None:
    """Grouped bars, one group per entry of ``groups`` (label, shares, standard errors), one bar per name."""
    width = 0.8 / max(1, len(names))
    for j, name in enumerate(names):
        xs = [i + (j - (len(names) - 1) / 2) * width for i in range(len(groups))]
        ys = [100 * g[1][j] for g in groups]
        errs = [100 * g[2][j] for g in groups]
        ax.bar(xs, ys, width, yerr=errs, capsize=3, color=COLOURS[j % len(COLOURS)], label=name)
    ax.set_xticks(range(len(groups)), [g[0] for g in groups], rotation=20 if len(groups) > 4 else 0)
    ax.set_ylabel("share of the games won (%), ± one standard error")
    if len(names) > 1:
        ax.legend(fontsize=8)


def simulate_plots(figures: dict[str, Any], folder: Path) -> list[Plot]:
    plt = _pyplot()
    cells: list[dict[str, Any]] = figures["cells"]
    labels = [cell_label(c) for c in cells]
    plots: list[Plot] = []
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bins = _bins([c["histogram"]["cards"] for c in cells])
    for i, (cell, label) in enumerate(zip(cells, labels, strict=True)):
        _lengths(ax, cell["histogram"]["cards"], label, COLOURS[i % len(COLOURS)], False, bins)
    if len(cells) > 1:
        ax.legend(fontsize=8)
    ax.set_title("Game length")
    plots.append((_save(fig, folder, "lengths.svg"), "Game length: games per number of cards turned, for each cell"))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    seats = [f"seat {i + 1} ({level})" for i, level in enumerate(cells[0]["levels"])]
    _shares(ax, [(label, c["win_rate"], c["win_rate_se"]) for c, label in zip(cells, labels, strict=True)], seats)
    ax.set_title("Who wins")
    plots.append((_save(fig, folder, "wins.svg"), "Each seat's share of the games won, with one standard error"))
    if len(cells) > 1:
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.5))
        xs = list(range(len(cells)))
        left.errorbar(
            xs,
            [c["mean_cards"] for c in cells],
            yerr=[c["mean_cards_se"] for c in cells],
            fmt="o",
            color=GREEN,
            capsize=4,
        )
        left.set_ylabel("mean cards per game, ± one standard error")
        diffs = [c.get("vs_first", {}).get("mean_cards", {"diff": 0.0, "se": 0.0}) for c in cells]
        right.errorbar(xs, [d["diff"] for d in diffs], yerr=[d["se"] for d in diffs], fmt="o", color=GREEN, capsize=4)
        right.axhline(0, color=GREY, linewidth=1)
        right.set_ylabel("paired difference from the first cell, ± one SE")
        for ax in (left, right):
            ax.set_xticks(xs, labels, rotation=20 if len(cells) > 4 else 0)
        fig.suptitle("The sweep: mean game length in each cell")
        plots.append(
            (
                _save(fig, folder, "sweep.svg"),
                "The sweep: each cell's mean length, and its paired difference from the first cell "
                "(same deals, same random streams)",
            )
        )
    return plots


def cell_label(cell: dict[str, Any]) -> str:
    chosen = cell.get("set") or {}
    return ", ".join(f"{k}={v}" for k, v in chosen.items()) or "as given"


def bmn_random_plots(figures: dict[str, Any], folder: Path) -> list[Plot]:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    pairs = figures["histogram"]["cards"]
    _lengths(ax, pairs, None, GREEN, True, _bins([pairs]))
    ax.set_title(f"Game length over {figures['games']:,} random deals")
    plots = [(_save(fig, folder, "lengths.svg"), "Game length: deals per number of cards turned (log scale)")]
    if figures.get("winner_share"):
        fig, ax = plt.subplots(figsize=(6, 4))
        hands = [f"hand {i + 1}" for i in range(len(figures["winner_share"]))]
        _shares(ax, [("", figures["winner_share"], figures["winner_share_se"])], hands)
        ax.set_title("Which hand wins")
        plots.append(
            (_save(fig, folder, "wins.svg"), "Each hand's share of the games that ended, with one standard error")
        )
    return plots


def bmn_search_plots(figures: dict[str, Any], folder: Path) -> list[Plot]:
    plt = _pyplot()
    plots: list[Plot] = []
    progress = figures["progress"]
    if progress:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        ax.step([p["seconds"] for p in progress], [p["cards"] for p in progress], where="post", color=GREEN)
        ax.plot([p["seconds"] for p in progress], [p["cards"] for p in progress], "o", color=GREEN, markersize=3)
        ax.set_xlabel("seconds")
        ax.set_ylabel("longest game found (cards)")
        ax.set_title("Best so far")
        plots.append((_save(fig, folder, "progress.svg"), "The longest deal found so far, against time"))
    pool = figures["state"]["pool"]
    if pool:
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.bar(range(1, len(pool) + 1), [f["cards"] for f in pool], color=GREEN)
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
