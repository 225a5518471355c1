"""Options and output helpers shared by several commands."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

import click

from ratscrew.rules import Rules, load_rules

F = TypeVar("F", bound=Callable[..., object])


def rules_options(func: F) -> F:
    """``--rules NAME_OR_FILE`` and repeatable ``--set key=value``, as CONTRACT.md defines them."""
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
