"""``ratscrew bmn``: play Beggar-my-neighbour deals in the notation of the published records.

Hands start with ``-`` as often as not, so this command reads its own arguments: only the words listed
in ``OPTIONS`` are options, and everything else (``--`` included) is a hand.
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any, cast

import click

from ratscrew.bmn import parse_bmn_hands, play_bmn, play_random, to_notation
from ratscrew.cli.common import place_options, print_json
from ratscrew.errors import MalformedInput
from ratscrew.lab.bmn_random import RandomRun, play_random_for
from ratscrew.lab.bmn_random import random_figures as random_figures  # where it was first

USAGE = """Usage: ratscrew bmn HAND HAND... [--json]
       ratscrew bmn --random [N] [--seconds S] [--seed S] [--players P] [--workers W | --scheduler ADDRESS]
                             [--json] [--report DIR [--force]]
       ratscrew bmn --search [--seconds S] [--batches B] [--state FILE] [--seed S] [--from HAND HAND]
                             [--workers W | --scheduler ADDRESS] [--json] [--report DIR [--force]]

  Play a Beggar-my-neighbour deal: one string per hand, top card first, '-' for a number card and
  J Q K A for court cards; together exactly one deck. The first hand leads. Hands are never read
  as options, even when they start with '-'.

  --random N      play N shuffled deals: games per second, game lengths (mean, percentiles, longest, and
                  the longest deal), mean tricks, each hand's share of the wins (every mean and share with
                  its standard error and 95% confidence interval), endless deals
  --search        hunt for long two-hand deals: each batch deals 500,000 random deals and searches the
                  families of the 2,000 longest (the deals whose games run into theirs, found by playing
                  backwards); prints every new best (endless deals beat any that end, and their cycles are
                  counted); Ctrl-C stops it
  --seconds S     stop after S seconds: with --random, N may be left out, and the deals played are the
                  first of the seed's sequence (rerun with --random and their count for the same figures);
                  with --search, the search stops then
  --batches B     stop the search after B batches (counted from the start of a resumed search too)
  --state FILE    keep the search's progress (and its 32 longest deals) in FILE after every batch, and
                  carry on from it next time
  --from HAND HAND
                  start the search from this deal: search its family far and wide first (for an endless
                  deal, list every deal found that reaches its cycle)
  --seed S        the seed of the shuffles (default 1); same seed, same numbers
  --players P     hands per random deal (default 2)
  --workers W     processes to play in (default 1); the numbers do not depend on it
  --scheduler ADDRESS
                  play on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://127.0.0.1:8786)
                  instead; same numbers (needs pip install 'ratscrew[cluster]')
  --json          print JSON (with --search: one line per new best)
  --report DIR    also write a report folder: the command, version, commit, seed, figures as tables and
                  plots in one HTML page that opens from disk, and the figures as JSON (needs matplotlib:
                  pip install 'ratscrew[plot]'); a folder that is not empty is refused unless --force
  --force         with --report: replace the report already in DIR (its old plots are removed)
"""
# Options that take a value, and what kind: a whole number, a number, a path, an address, or two hands.
VALUE_OPTIONS = {
    "--random": ("random", "int"),
    "--seed": ("seed", "int"),
    "--players": ("players", "int"),
    "--workers": ("workers", "int"),
    "--seconds": ("seconds", "number"),
    "--batches": ("batches", "int"),
    "--state": ("state", "path"),
    "--report": ("report", "path"),
    "--scheduler": ("scheduler", "address"),
    "--from": ("from", "deal"),
}
FLAGS = {"--json": "json", "--search": "search", "--force": "force"}
RANDOM_OPTIONS = {"random", "seconds", "seed", "players", "workers", "scheduler", "report", "force"}
SEARCH_OPTIONS = {"search", "seconds", "batches", "state", "seed", "workers", "scheduler", "from", "report", "force"}


class RawArgs(click.Command):
    """A command that receives its arguments untouched (Click would take ``--...`` hands for options)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["raw_args"] = list(args)
        return []


@click.command(cls=RawArgs, add_help_option=False, context_settings={"ignore_unknown_options": True})
@click.pass_context
def bmn(ctx: click.Context) -> None:
    """Play Beggar-my-neighbour deals (published-record notation, or --random N)."""
    args: list[str] = ctx.meta["raw_args"]
    if any(a in ("-h", "--help") for a in args):
        click.echo(USAGE.rstrip())
        return
    hands, options = _split_args(args)
    as_json = bool(options.pop("json", False))
    if "random" in options and "search" in options:
        raise MalformedInput("give either --random N or --search, not both")
    mode, allowed = ("random", RANDOM_OPTIONS) if "random" in options else ("search", SEARCH_OPTIONS)
    if mode in options:
        if hands:
            raise MalformedInput(f"give either hands or --{mode}{' N' if mode == 'random' else ''}, not both")
        stray = sorted(set(options) - allowed)
        if stray:
            raise MalformedInput(f"--{stray[0]} does not go with --{mode}")
        _run(mode, ["ratscrew", "bmn", *args], options, as_json)
        return
    if options:
        raise MalformedInput(f"--{sorted(options)[0]} only goes with --random N or --search")
    result = play_bmn(parse_bmn_hands(hands))
    if result.loop is not None:
        loop = result.loop
        doc: dict[str, Any] = {
            "result": "loop",
            "prefix_cards": loop.prefix_cards,
            "prefix_tricks": loop.prefix_tricks,
            "cycle_cards": loop.cycle_cards,
            "cycle_tricks": loop.cycle_tricks,
        }
        text = (
            f"endless: after {loop.prefix_cards} cards ({loop.prefix_tricks} tricks) the game repeats every "
            f"{loop.cycle_cards} cards ({loop.cycle_tricks} tricks)"
        )
    else:
        assert result.winner is not None
        doc = {"result": "win", "winner": result.winner + 1, "cards": result.cards, "tricks": result.tricks}
        text = f"hand {result.winner + 1} wins after {result.cards} cards and {result.tricks} tricks"
    if as_json:
        print_json(doc)
    else:
        click.echo(text)


def _run(mode: str, command: list[str], options: dict[str, object], as_json: bool) -> None:
    """``--random`` or ``--search``, and the report folder when ``--report`` asks for one (its folder is checked
    before the run, so a folder that cannot take it stops the command before any work is done)."""
    # Here, not at the top: a plain deal needs neither the hunt (nor Rich, its progress bar) nor the reports.
    from ratscrew.cli.bmn_search import run_search
    from ratscrew.lab.report import bmn_random_report, bmn_search_report, check_report_folder, write_report

    folder = options.pop("report", None)
    force = bool(options.pop("force", False))
    if force and folder is None:
        raise MalformedInput("--force only goes with --report DIR: it replaces the report already in DIR")
    if folder is not None:
        check_report_folder(Path(str(folder)), force=force)
    if mode == "random":
        run = _random(options, as_json)
        report = bmn_random_report(command, run) if folder is not None else None
    else:
        hunt = run_search(options, as_json)
        report = bmn_search_report(command, hunt) if folder is not None else None
    if report is not None:
        write_report(Path(str(folder)), report, force=force)


def _split_args(args: list[str]) -> tuple[list[str], dict[str, object]]:
    hands: list[str] = []
    options: dict[str, object] = {}
    i = 0
    while i < len(args):
        word = args[i]
        name, eq, inline = word.partition("=")
        if word in FLAGS:
            options[FLAGS[word]] = True
        elif name == "--random" and not eq and (i + 1 == len(args) or _is_option(args[i + 1])):
            options["random"] = None  # no count: --seconds must give the budget
        elif name in VALUE_OPTIONS:
            key, kind = VALUE_OPTIONS[name]
            if kind == "deal":  # two words: the hands
                deal = args[i + 1 : i + 3]
                if eq or len(deal) < 2:
                    raise MalformedInput(f"{name} needs a deal of two hands, e.g. {name} HAND HAND")
                options[key] = deal
                i += 3
                continue
            if eq:
                value = inline
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                example = {"path": "FILE", "address": "tcp://127.0.0.1:8786"}.get(kind, "10")
                raise MalformedInput(f"{name} needs a value, e.g. {name} {example}")
            options[key] = _value(name, kind, value)
        else:
            hands.append(word)
        i += 1
    return hands, options


def _is_option(word: str) -> bool:
    return word in FLAGS or word in ("-h", "--help") or word.partition("=")[0] in VALUE_OPTIONS


def _value(name: str, kind: str, value: str) -> object:
    text = value.strip()
    if kind == "path":
        if not text:
            raise MalformedInput(f"{name} needs a file name")
        return value
    if kind == "address":
        if not text:
            raise MalformedInput(f"{name} needs an address, e.g. {name} tcp://127.0.0.1:8786")
        return text
    if kind == "int":
        if not text.isdigit():
            raise MalformedInput(f"{name} needs a whole number, got {value!r}")
        return int(text)
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not number > 0 or number == float("inf"):
        raise MalformedInput(f"{name} needs a number of seconds above 0, got {value!r}")
    return number


def _random(options: dict[str, object], as_json: bool) -> RandomRun:
    games, budget = options.get("random"), options.get("seconds")
    seed = options.get("seed", 1)
    players = options.get("players", 2)
    assert games is None or isinstance(games, int)
    assert budget is None or isinstance(budget, float)
    assert isinstance(seed, int)
    assert isinstance(players, int)
    if games is None and budget is None:
        raise MalformedInput("--random needs a number of deals, e.g. --random 10000, or a time budget: --seconds 60")
    if games is not None and games < 1:
        raise MalformedInput("--random needs at least 1 game")
    if not 2 <= players <= 12:
        raise MalformedInput(f"--players must be from 2 to 12, got {players}")
    workers, scheduler = place_options(options)
    start = time.perf_counter()
    if budget is None:
        assert games is not None
        tally = play_random(games, seed, players, workers=workers, scheduler=scheduler)
    else:
        tally = play_random_for(budget, seed, players, games=games, workers=workers, scheduler=scheduler)
    seconds = time.perf_counter() - start
    run = RandomRun(tally, seed, seconds, budget if games is None or tally.games < games else None)
    doc = run.figures()
    if as_json:
        print_json(doc)
        return run
    stopped = f" (stopped by --seconds {budget:g})" if run.budget is not None else ""
    click.echo(f"{tally.games:,} deals in {seconds:.3f} s{stopped}, {tally.games / seconds:,.0f} games/s")
    if tally.ended:
        click.echo(f"cards per game: mean {_estimate(doc, 'mean_cards')}, longest {doc['max_cards']}")
        click.echo(f"tricks per game: mean {_estimate(doc, 'mean_tricks')}")
        marks = ", ".join(f"{mark}% {value}" for mark, value in run.percentiles().items())
        click.echo(f"cards per game, percentiles: {marks}")
        shares = ", ".join(f"hand {seat + 1} {text}" for seat, text in enumerate(_shares(doc)))
        click.echo(f"wins (of the deals that ended): {shares}")
        click.echo(f"longest deal: {' '.join(to_notation(h) for h in tally.longest[0].hands)}")
    click.echo(f"endless deals: {tally.loops:,}")
    if run.budget is not None:
        click.echo(f"the same figures again: {shlex.join(run.reproduce())}")
    return run


def _estimate(doc: dict[str, object], key: str) -> str:
    low, high = cast(list[float], doc[f"{key}_ci95"])
    return f"{doc[key]:.2f} ± {doc[f'{key}_se']:.2f} (95% CI {low:.2f}-{high:.2f})"


def _shares(doc: dict[str, object]) -> list[str]:
    shares = cast(list[float], doc["winner_share"])
    errors = cast(list[float], doc["winner_share_se"])
    intervals = cast(list[list[float]], doc["winner_share_ci95"])
    return [
        f"{100 * s:.2f}% ± {100 * se:.2f} (95% CI {100 * lo:.2f}-{100 * hi:.2f}%)"
        for s, se, (lo, hi) in zip(shares, errors, intervals, strict=True)
    ]
