"""``ratscrew simulate``: complete games between computer players, and the numbers they give."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ratscrew.bots.registry import LEVEL_NAMES, STRATEGY_NAMES
from ratscrew.cli.app import main
from ratscrew.cli.common import (
    check_workers,
    json_option,
    print_json,
    rules_from_options,
    rules_options,
    scheduler_option,
)
from ratscrew.errors import MalformedInput
from ratscrew.lab.simulate import Summary, check_levels, simulate


@main.command("simulate")
@rules_options
@click.option("--players", type=int, default=None, help="Seats at the table (default: one per level in --bots).")
@click.option(
    "--bots",
    "bots_text",
    default=None,
    metavar="LEVEL[:STRATEGY],...",
    help=(
        f"One computer per seat: a level ({', '.join(LEVEL_NAMES)}), optionally with a slapping strategy "
        f"after a colon ({', '.join(STRATEGY_NAMES)}), e.g. instant:risk-faces,perfect. "
        "One name fills every seat. Default: medium."
    ),
)
@click.option("--games", type=int, default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same numbers.")
@click.option("--workers", type=int, default=None, help="Processes to play in (default: every core).")
@scheduler_option
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Save a histogram of game length to this PNG (needs matplotlib: pip install 'ratscrew[plot]').",
)
@json_option
def simulate_command(
    rules_name: str | None,
    sets: tuple[str, ...],
    players: int | None,
    bots_text: str | None,
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    plot_path: str | None,
    as_json: bool,
) -> None:
    """Play GAMES complete games between computer players and report how they went."""
    rules = rules_from_options(rules_name, sets)
    levels = _levels(bots_text, players)
    check_levels(levels)
    if seed < 0:
        raise MalformedInput(f"--seed must be a non-negative integer, got {seed}")
    check_workers(workers, scheduler)
    if plot_path:
        _check_plotting()
    err = Console(stderr=True)
    if err.is_terminal:
        columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task("games", total=games)
            summary = simulate(
                rules,
                levels,
                games,
                seed,
                workers=workers,
                scheduler=scheduler,
                progress=lambda n: bar.advance(task, n),
            )
    else:
        summary = simulate(rules, levels, games, seed, workers=workers, scheduler=scheduler)
    doc = summary.as_dict()
    if plot_path:
        _plot(summary, Path(plot_path), rules.preset)
    if as_json:
        doc["kernel"] = summary.kernel  # "c" (the compiled kernel) or "python"
        if summary.kernel_fallback and summary.kernel == "python":
            doc["kernel_fallback"] = summary.kernel_fallback
        print_json(doc)
    else:
        _print_summary(doc, rules.preset)


def _levels(bots_text: str | None, players: int | None) -> list[str]:
    if players is not None and players < 1:
        raise MalformedInput(f"--players must be from 2 to 12, got {players}")
    named = [b.strip().lower() for b in (bots_text or "medium").split(",") if b.strip()]
    if not named:
        raise MalformedInput("--bots needs at least one level, e.g. --bots medium,hard")
    if players is None:
        return named if len(named) > 1 or bots_text else named * 4
    if len(named) == 1:
        return named * players
    if len(named) != players:
        raise MalformedInput(
            f"--bots gives {len(named)} levels but --players is {players}: give one level per seat, "
            "or a single level for every seat"
        )
    return named


def _print_summary(doc: dict[str, object], preset: str) -> None:
    console = Console()
    table = RichTable(title=f"{doc['games']} games, {doc['players']} players, rules: {preset}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    results, levels, win_rate, win_se = doc["results"], doc["levels"], doc["win_rate"], doc["win_rate_se"]
    assert isinstance(results, dict)
    assert isinstance(levels, list)
    assert isinstance(win_rate, list)
    assert isinstance(win_se, list)
    knockouts = doc["games_with_wrong_slap_knockout"]
    assert isinstance(knockouts, float | int)
    rows = [
        (
            "cards per game: mean / median / 90% / max",
            f"{doc['mean_cards']} / {doc['median_cards']} / {doc['p90_cards']} / {doc['max_cards']}",
        ),
        ("minutes per game: mean / median", f"{doc['mean_minutes']} / {doc['median_minutes']}"),
        ("piles won by slap, per game", str(doc["piles_by_slap"])),
        ("piles won by challenge, per game", str(doc["piles_by_challenge"])),
        ("wrong slaps, per game", str(doc["wrong_slaps"])),
        ("games where a wrong slap knocked someone out", f"{100 * knockouts:.1f}%"),
        ("results", ", ".join(f"{k} {v}" for k, v in results.items() if v)),
    ]
    for seat, (rate, se) in enumerate(zip(win_rate, win_se, strict=True)):
        rows.append((f"seat {seat + 1} ({levels[seat]}) wins", f"{100 * rate:.1f}% ± {100 * se:.1f}"))
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)


def _check_plotting() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MalformedInput("--plot needs matplotlib: pip install 'ratscrew[plot]'") from None


def _plot(summary: Summary, path: Path, preset: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lengths = summary.tally.cards  # games per number of cards turned
    values = sorted(lengths)
    counts = [lengths[v] for v in values]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bins = min(60, max(10, summary.games // 20))
    ax.hist(values, bins=bins, weights=counts, color="#2f6f4e", edgecolor="white")
    ax.set_xlabel("cards turned in the game")
    ax.set_ylabel("games")
    ax.set_title(f"Game length: {summary.games} games, {summary.players} players, {preset}")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise MalformedInput(f"cannot write the plot to {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
    print(f"histogram saved to {path}", file=sys.stderr)
