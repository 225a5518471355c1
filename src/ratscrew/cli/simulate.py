"""``ratscrew simulate``: complete games between computer players, and the numbers they give."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ratscrew.bots.registry import LEVEL_NAMES, STRATEGY_NAMES
from ratscrew.cli.common import (
    check_workers,
    json_option,
    print_json,
    rules_from_options,
    rules_options,
    scheduler_option,
)
from ratscrew.cli.lengths import print_lengths
from ratscrew.errors import MalformedInput
from ratscrew.lab.inputs import COMMAND_LINE, check_count, check_seed, worded_for
from ratscrew.lab.lineup import parse_lineup
from ratscrew.lab.outputs import check_output_files
from ratscrew.lab.report import check_report_folder, simulate_report, write_report
from ratscrew.lab.results import game_table
from ratscrew.lab.simulate import Summary, check_levels
from ratscrew.lab.sweep import cell_docs, design_cells, parse_vary, run_design, write_csv
from ratscrew.lab.tables import check_table_path, write_table

_UNLIMITED = 10_000  # columns: wide enough to measure any table at its natural width


@click.command("simulate")
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
    "--vary",
    "varies",
    multiple=True,
    metavar="KEY=V1,V2,...",
    help=(
        "Play a grid: every combination of the values given (repeatable, one key each), each cell on the same "
        "games (same deals, same random streams), with each mean's paired difference from the first cell. "
        "KEY is any rules key, rules (presets, e.g. rules=standard,bicycle), players, or bots (seats joined by +, "
        "e.g. bots=medium,hard+easy+easy)."
    ),
)
@click.option(
    "--rotate-seats",
    is_flag=True,
    help=(
        "Play every deal once in every rotation of the seats (each player holds each hand once), and give each "
        "player's share of the wins beside each seat's; standard errors are then taken over deals."
    ),
)
@click.option(
    "--replicates",
    type=int,
    default=1,
    show_default=True,
    help="Repeat the run on this many seeds (the first is --seed, the others derived from it and printed).",
)
@click.option(
    "--contrasts",
    "all_contrasts",
    is_flag=True,
    help="With --vary: give each cell its paired difference from every other cell, not only from the first.",
)
@click.option(
    "--games-out",
    "games_out",
    type=click.Path(dir_okay=False),
    default=None,
    help=(
        "Also write one row per game to this file: Parquet (.parquet, needs pyarrow) or CSV (.csv); "
        "a file that exists is refused before the run, unless --force."
    ),
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    default=None,
    help=(
        "Save a histogram of game length to this PNG, or .svg, .pdf... as the extension says (needs matplotlib: "
        "pip install 'ratscrew[plot]'); a file that exists is refused before the run, unless --force."
    ),
)
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write one row per cell to this CSV file; a file that exists is refused before the run, unless --force.",
)
@click.option(
    "--histogram",
    is_flag=True,
    help="Show the game-length distribution: a table of ranges, or with --json the exact counts in the JSON.",
)
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    default=None,
    help=(
        "Also write a report folder: command, version, commit, seed, figures as tables and plots in one HTML page "
        "(needs matplotlib); a folder that is not empty is refused unless --force."
    ),
)
@click.option(
    "--force",
    is_flag=True,
    help=(
        "Replace what is there: the report already in --report DIR (old plots removed), the file --games-out, "
        "--csv or --plot names."
    ),
)
@json_option
@click.pass_context
def simulate_command(
    ctx: click.Context,
    rules_name: str | None,
    sets: tuple[str, ...],
    players: int | None,
    bots_text: str | None,
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    varies: tuple[str, ...],
    rotate_seats: bool,
    replicates: int,
    all_contrasts: bool,
    games_out: str | None,
    plot_path: str | None,
    csv_path: str | None,
    histogram: bool,
    report_dir: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Play GAMES complete games between computer players and report how they went."""
    with worded_for(COMMAND_LINE):  # the lab's checks name --games, not games=
        _simulate(ctx, **ctx.params)


def _simulate(
    ctx: click.Context,
    rules_name: str | None,
    sets: tuple[str, ...],
    players: int | None,
    bots_text: str | None,
    games: int,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    varies: tuple[str, ...],
    rotate_seats: bool,
    replicates: int,
    all_contrasts: bool,
    games_out: str | None,
    plot_path: str | None,
    csv_path: str | None,
    histogram: bool,
    report_dir: str | None,
    force: bool,
    as_json: bool,
) -> None:
    rules = rules_from_options(rules_name, sets)
    given = [k for k, v in (("rules", rules_name), ("bots", bots_text), ("players", players)) if v is not None]
    vary = parse_vary(varies, sets, given=given)
    # The rules named in titles: the preset, or each one a vary over rules plays.
    preset = next((", ".join(values) for key, values in vary if key == "rules"), None)
    levels = parse_lineup(bots_text, players)
    check_levels(levels)
    grid = design_cells(rules_name, sets, vary, bots_text, players) if vary else None
    check_count("games", games)
    check_seed(seed)
    check_count("replicates", replicates)
    if all_contrasts and not vary:
        raise MalformedInput("--contrasts compares the cells of a grid: give --vary KEY=V1,V2,... too")
    check_workers(workers, scheduler)
    if plot_path and vary:
        raise MalformedInput("--plot draws one run: for the plots of a --vary grid, give --report DIR")
    if plot_path:
        _check_plotting(Path(plot_path))
    files = {"--games-out": games_out, "--csv": csv_path, "--plot": plot_path}
    if force and report_dir is None and not any(files.values()):
        raise MalformedInput(
            "--force only goes with --report DIR or a file to write (--games-out, --csv or --plot FILE): "
            "it replaces the report in DIR, or FILE"
        )
    if games_out is not None:
        check_table_path(Path(games_out), "--games-out")
    check_output_files(files, force=force)
    if report_dir is not None:
        check_report_folder(Path(report_dir), force=force)

    def play(progress: Callable[[int], None] | None) -> list[dict[str, object]]:
        design = grid or design_cells(rules_name, sets, [], bots_text, players)
        run = run_design(
            design,
            games,
            seed,
            rotate=rotate_seats,
            replicates=replicates,
            keep_rows=games_out is not None,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
        )
        if plot_path:
            _plot(run.summaries()[0], Path(plot_path), rules.preset)
        if games_out is not None:
            write_table(Path(games_out), game_table(run, grid), "--games-out")
        return cell_docs(run, grid, contrasts=all_contrasts)

    err = Console(stderr=True)
    if err.is_terminal:
        columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task("games", total=games * replicates)
            cells = play(lambda n: bar.advance(task, n))
    else:
        cells = play(None)
    shown = [_shown(cell, histogram) for cell in cells]
    if csv_path:
        write_csv(Path(csv_path), shown)
    if as_json:
        for doc in shown:
            print_json(doc)
    elif vary:
        _print_grid(shown, preset or rules.preset)
    else:
        _print_summary(shown[0], rules.preset)
    if histogram and not as_json:
        print_lengths(cells, printer=_print_table)
    if report_dir is not None:
        cells_text = f"{len(cells)} cell{'s' if len(cells) > 1 else ''}"
        title = f"ratscrew simulate: {cells_text} of {games:,} games, rules {preset or rules.preset}"
        write_report(Path(report_dir), simulate_report(_command(ctx), cells, shown, title, seed), force=force)


def _command(ctx: click.Context) -> list[str]:
    """The command as typed when this process was started by it, else the same command rebuilt from the
    options' values (when called from Python)."""
    if sys.argv[1:2] == ["simulate"]:
        return ["ratscrew", *sys.argv[1:]]
    words = ["ratscrew", "simulate"]
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if not isinstance(param, click.Option) or value == param.default or value in (None, ()):
            continue
        flag = max(param.opts, key=len)
        if param.is_flag:
            words.append(flag)
        else:
            for one in value if param.multiple else (value,):
                words += [flag, str(one)]
    return words


def _shown(cell: dict[str, object], histogram: bool) -> dict[str, object]:
    """A cell as printed: the histogram only when asked for."""
    return {k: v for k, v in cell.items() if k != "histogram" or histogram}


def _print_grid(cells: list[dict[str, object]], preset: str) -> None:
    """One row per cell: the varied values, the means with their standard errors, and the paired differences
    from the first cell."""
    first = cells[0]
    varied = first["set"]
    assert isinstance(varied, dict)
    keys = list(varied)
    levels = first["levels"]
    assert isinstance(levels, list)
    # Every cell plays the same deals; the seats (and with them the rotations) may differ from cell to cell.
    played = f"{first['games']} games a cell"
    if first.get("rotate_seats"):
        played = f"{first['deals']} deals a cell in every rotation of the seats"
    players = {c["players"] for c in cells}
    seated = [f"{first['players']} players"] if len(players) == 1 else []
    title = ", ".join([played, *seated, f"rules: {preset}"])
    caption = (
        "Δ: the paired difference from the first cell (the same games), ± one standard error; "
        "--json gives every 95% interval"
    )
    seeds = _replicate_seeds(first)
    if seeds:
        caption += f"\nreplicate seeds (the first is --seed): {seeds}"
    table = RichTable(title=title, caption=caption)
    for key in keys:
        table.add_column(key, no_wrap=True, min_width=len(key))
    # Seat 1's computer is named only when every cell seats the same one there (a vary over bots changes it).
    same = all(isinstance(c["levels"], list) and c["levels"][0] == levels[0] for c in cells)
    seat1 = f"seat 1 ({levels[0]}) wins" if same else "seat 1 wins"
    for name in ("cards ± se", "median / 90%", "minutes ± se", seat1, "Δ cards", "Δ seat 1"):
        table.add_column(name, justify="right")
    for cell in cells:
        chosen, rate, rate_se = cell["set"], cell["win_rate"], cell["win_rate_se"]
        assert isinstance(chosen, dict) and isinstance(rate, list) and isinstance(rate_se, list)
        paired = cell.get("vs_first")
        if isinstance(paired, dict):
            cards, wins = paired["mean_cards"], paired["win_rate"][0]
            vs = (f"{cards['diff']:+.2f} ± {cards['se']:.2f}", f"{100 * wins['diff']:+.1f}% ± {100 * wins['se']:.1f}")
        else:
            vs = ("", "")
        table.add_row(
            *(_value_text(chosen[k]) for k in keys),
            f"{cell['mean_cards']} ± {cell['mean_cards_se']:.2f}",
            f"{cell['median_cards']} / {cell['p90_cards']}",
            f"{cell['mean_minutes']} ± {cell['mean_minutes_se']:.2f}",
            f"{100 * rate[0]:.1f}% ± {100 * rate_se[0]:.1f}",
            *vs,
        )
    _print_table(table)


def _print_table(table: RichTable) -> None:
    """On a terminal a table fits the window; elsewhere (a pipe, a file, a notebook's ``!ratscrew``) nothing
    limits its width, so it is printed at its natural width rather than with figures wrapped or cut to 80
    columns."""
    console = Console()
    if not console.is_terminal:
        natural = Console(width=_UNLIMITED).measure(table).maximum
        console = Console(width=max(console.width, natural))
    console.print(table)


def _replicate_seeds(doc: dict[str, object]) -> str:
    """The seed of each replicate, as --json gives them (empty for one replicate)."""
    replicates = doc.get("replicates")
    if not isinstance(replicates, list):
        return ""
    return ", ".join(str(r["seed"]) for r in replicates if isinstance(r, dict))


def _interval(pair: object, scale: float = 1) -> str:
    """A 95% interval as "low to high"."""
    assert isinstance(pair, list)
    low, high = (scale * x for x in pair)
    places = 1 if scale != 1 else 2
    return f"{low:.{places}f} to {high:.{places}f}"


def _value_text(value: object) -> str:
    """A varied value as it is typed on the command line (true, not True)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _print_summary(doc: dict[str, object], preset: str) -> None:
    games = f"{doc['games']} games"
    if doc.get("rotate_seats"):
        games = f"{doc['deals']} deals in every rotation of the seats ({doc['games']} games)"
    table = RichTable(title=f"{games}, {doc['players']} players, rules: {preset}")
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
            "cards per game: mean ± se (95% interval) / median / 90% / max",
            f"{doc['mean_cards']} ± {doc['mean_cards_se']} ({_interval(doc['mean_cards_ci95'])}) "
            f"/ {doc['median_cards']} / {doc['p90_cards']} / {doc['max_cards']}",
        ),
        (
            "minutes per game: mean ± se (95% interval) / median",
            f"{doc['mean_minutes']} ± {doc['mean_minutes_se']} ({_interval(doc['mean_minutes_ci95'])}) "
            f"/ {doc['median_minutes']}",
        ),
        ("piles won by slap, per game", str(doc["piles_by_slap"])),
        ("piles won by challenge, per game", str(doc["piles_by_challenge"])),
        ("wrong slaps, per game", str(doc["wrong_slaps"])),
        ("games where a wrong slap knocked someone out", f"{100 * knockouts:.1f}%"),
        ("results", ", ".join(f"{k} {v}" for k, v in results.items() if v)),
    ]
    win_ci = doc["win_rate_ci95"]
    assert isinstance(win_ci, list)
    for seat, (rate, se, ci) in enumerate(zip(win_rate, win_se, win_ci, strict=True)):
        # With rotated seats every player sits in every seat: a seat has no level of its own.
        who = "" if doc.get("rotate_seats") else f" ({levels[seat]})"
        rows.append((f"seat {seat + 1}{who} wins", f"{100 * rate:.1f}% ± {100 * se:.1f} ({_interval(ci, 100)}%)"))
    player_rate, player_ci = doc.get("player_win_rate"), doc.get("player_win_rate_ci95")
    if isinstance(player_rate, list) and isinstance(player_ci, list):
        for p, (rate, ci) in enumerate(zip(player_rate, player_ci, strict=True)):
            rows.append((f"player {p + 1} ({levels[p]}) wins, any seat", f"{100 * rate:.1f}% ({_interval(ci, 100)}%)"))
    seeds = _replicate_seeds(doc)
    if seeds:
        rows.append(("replicate seeds (the first is --seed)", seeds))
    for name, value in rows:
        table.add_row(name, value)
    _print_table(table)


def _check_plotting(path: Path) -> None:
    """Before the run: matplotlib is there and writes the format the file's extension names (none: PNG)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise MalformedInput("--plot needs matplotlib: pip install 'ratscrew[plot]'") from None
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = path.suffix.lower().removeprefix(".")
    if suffix and suffix not in formats:
        known = ", ".join(f".{name}" for name in sorted(formats))
        raise MalformedInput(f"--plot {str(path)!r}: matplotlib cannot write .{suffix} files: give one of {known}")


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
