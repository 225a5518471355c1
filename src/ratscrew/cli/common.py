"""Options and output helpers shared by several commands."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

import click

from ratscrew.lab.inputs import COMMAND_LINE, check_place, worded_for
from ratscrew.rules import Rules, load_rules

F = TypeVar("F", bound=Callable[..., object])


def rules_options(func: F) -> F:
    """``--rules NAME_OR_FILE`` and repeatable ``--set key=value``, as docs/commands.md describes them."""
    func = click.option(
        "--set",
        "sets",
        multiple=True,
        metavar="KEY=VALUE",
        help="Change one rule, e.g. --set slaps.run=4 (repeatable).",
    )(func)
    func = click.option(
        "--rules",
        "rules_name",
        metavar="NAME_OR_FILE",
        help="A preset (standard, bicycle, ...) or a TOML/JSON rules file.",
    )(func)
    return func


def rules_from_options(rules_name: str | None, sets: tuple[str, ...]) -> Rules:
    return load_rules(rules_name, sets)


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(func)


def print_json(doc: object) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False))


SCHEDULER_HELP = (
    "Play on the Dask cluster whose scheduler is at this address, e.g. tcp://127.0.0.1:8786, instead of local "
    "processes (needs pip install 'ratscrew[cluster]'); the numbers are the same."
)


def scheduler_option(func: F) -> F:
    return click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)(func)


def check_workers(workers: int | None, scheduler: str | None) -> None:
    """``--workers`` is a positive count of local processes, and does not go with ``--scheduler`` (the lab's
    check, worded with the options)."""
    with worded_for(COMMAND_LINE):
        check_place(workers, scheduler)


def place_options(options: dict[str, object]) -> tuple[int, str | None]:
    """Where to play: (local processes, Dask scheduler address or None), from --workers and --scheduler."""
    workers, scheduler = options.get("workers"), options.get("scheduler")
    assert workers is None or isinstance(workers, int)
    assert scheduler is None or isinstance(scheduler, str)
    check_workers(workers, scheduler)
    return workers or 1, scheduler
