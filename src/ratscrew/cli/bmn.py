"""``ratscrew bmn``: play Beggar-my-neighbour deals in the notation of the published records.

Hands start with ``-`` as often as not, so this command reads its own arguments: only the words listed
in ``OPTIONS`` are options, and everything else (``--`` included) is a hand.
"""

from __future__ import annotations

import time
from typing import Any

import click

from ratscrew.bmn import parse_bmn_hands, play_bmn, play_random, random_kernel
from ratscrew.cli.app import main
from ratscrew.cli.bmn_search import place_options, run_search
from ratscrew.cli.common import print_json
from ratscrew.errors import MalformedInput

USAGE = """Usage: ratscrew bmn HAND HAND... [--json]
       ratscrew bmn --random N [--seed S] [--players P] [--workers W | --scheduler ADDRESS] [--json]
       ratscrew bmn --search [--seconds S] [--restarts R] [--state FILE] [--seed S]
                             [--workers W | --scheduler ADDRESS] [--json]

  Play a Beggar-my-neighbour deal: one string per hand, top card first, '-' for a number card and
  J Q K A for court cards; together exactly one deck. The first hand leads. Hands are never read
  as options, even when they start with '-'.

  --random N      play N shuffled deals and report games per second and game lengths
  --search        hunt for long two-hand deals: hill climbing (swap two cards, keep what lengthens the
                  game) from random deals, restarting when stuck; prints every new best (endless deals
                  beat any that end); Ctrl-C stops it
  --seconds S     stop the search after S seconds
  --restarts R    stop the search after R restarts (counted from the start of a resumed search too)
  --state FILE    keep the search's progress in FILE after every restart and carry on from it next time
  --seed S        the seed of the shuffles (default 1); same seed, same numbers
  --players P     hands per random deal (default 2)
  --workers W     processes to play in (default 1); the numbers do not depend on it
  --scheduler ADDRESS
                  play on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://127.0.0.1:8786)
                  instead; same numbers (needs pip install 'ratscrew[cluster]')
  --json          print JSON (with --search: one line per new best)
"""
# Options that take a value, and what kind: a whole number, a number, or a path.
VALUE_OPTIONS = {
    "--random": ("random", "int"),
    "--seed": ("seed", "int"),
    "--players": ("players", "int"),
    "--workers": ("workers", "int"),
    "--seconds": ("seconds", "number"),
    "--restarts": ("restarts", "int"),
    "--state": ("state", "path"),
    "--scheduler": ("scheduler", "address"),
}
FLAGS = {"--json": "json", "--search": "search"}
RANDOM_OPTIONS = {"random", "seed", "players", "workers", "scheduler"}
SEARCH_OPTIONS = {"search", "seconds", "restarts", "state", "seed", "workers", "scheduler"}


class RawArgs(click.Command):
    """A command that receives its arguments untouched (Click would take ``--...`` hands for options)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["raw_args"] = list(args)
        return []


@main.command(cls=RawArgs, add_help_option=False, context_settings={"ignore_unknown_options": True})
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
        if mode == "random":
            _random(options, as_json)
        else:
            run_search(options, as_json)
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


def _split_args(args: list[str]) -> tuple[list[str], dict[str, object]]:
    hands: list[str] = []
    options: dict[str, object] = {}
    i = 0
    while i < len(args):
        word = args[i]
        name, eq, inline = word.partition("=")
        if word in FLAGS:
            options[FLAGS[word]] = True
        elif name in VALUE_OPTIONS:
            key, kind = VALUE_OPTIONS[name]
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


def _random(options: dict[str, object], as_json: bool) -> None:
    games = options["random"]
    seed = options.get("seed", 1)
    players = options.get("players", 2)
    assert isinstance(games, int)
    assert isinstance(seed, int)
    assert isinstance(players, int)
    if games < 1:
        raise MalformedInput("--random needs at least 1 game")
    if not 2 <= players <= 12:
        raise MalformedInput(f"--players must be from 2 to 12, got {players}")
    workers, scheduler = place_options(options)
    start = time.perf_counter()
    total, ended, longest, loops = play_random(games, seed, players, workers=workers, scheduler=scheduler)
    seconds = time.perf_counter() - start
    doc = {
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 1),
        "mean_cards": round(total / ended, 2) if ended else None,
        "max_cards": longest if ended else None,
        "loops": loops,
        "kernel": random_kernel(players),
    }
    if as_json:
        print_json(doc)
        return
    click.echo(
        f"{games} deals in {seconds:.3f} s ({games / seconds:,.0f} games/s); "
        f"mean {doc['mean_cards']} cards, longest {doc['max_cards']}, {loops} endless"
    )
