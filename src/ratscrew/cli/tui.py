"""``ratscrew tui``: the real-time table in a terminal, against the computer or at an online room.

Textual is imported only when the table starts, so ``ratscrew tui --help`` (and every other command) starts
without it; without the ``tui`` extra the command says how to get it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ratscrew.cli.common import rules_from_options, rules_options
from ratscrew.errors import MalformedInput
from ratscrew.i18n import LANGUAGES

LOCAL_ONLY = ("bots", "people", "pace", "seed", "rules_name", "sets")
ONLINE_ONLY = ("server", "watch", "seat")


@click.command()
@click.option(
    "--bots",
    default=None,
    metavar="LEVEL,...",
    help="The computers at the table, one level each (easy, medium, hard, expert, match), up to eleven, or none "
    "[default: one medium computer for one person, none for two].",
)
@click.option("--people", type=click.IntRange(1, 2), default=1, show_default=True, help="People at this keyboard.")
@click.option("--name", "names", multiple=True, metavar="NAME", help="Your name at the table (repeat for two people).")
@click.option(
    "--pace", type=float, default=1.0, show_default=True, help="The computers' pace: 0.25 brisk to 4 leisurely."
)
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=None, help="Deal this seed's cards.")
@rules_options
@click.option("--join", metavar="URL_OR_CODE", help="Play at an online room: its link, or its code with --server.")
@click.option("--server", metavar="URL", help="The server of a room code given to --join, e.g. http://HOST:PORT.")
@click.option("--watch", is_flag=True, help="With --join: watch the room without taking a seat.")
@click.option("--seat", type=click.IntRange(1, 12), default=None, help="With --join: the seat to take (from 1).")
@click.option(
    "--lang", type=click.Choice(LANGUAGES), default=None, help="The table's language (default: the terminal's)."
)
@click.option("--plain", is_flag=True, help="No colour (also when NO_COLOR is set or the terminal has none).")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of the SQLite store that ratscrew play keeps games in (default: ~/.local/share/ratscrew).",
)
def tui(**options: object) -> None:
    """Play at the real-time table in this terminal: against computers, or at an online room.

    Keys: F or Space turns your card, J slaps (two people: A and S, L and K), P pauses, ? shows help.
    """
    check_options(options)
    try:
        from ratscrew.tui.run import run
    except ImportError as exc:
        raise MalformedInput(
            f"the terminal table needs Textual ({exc.name} is missing): pip install 'ratscrew[tui]'"
        ) from None
    from ratscrew.tui.local import chosen_levels, make_setup
    from ratscrew.tui.online import parse_address
    from ratscrew.tui.run import Local, Online, language, plain_wanted
    from ratscrew.tui.words import Words

    words = Words(language(_text(options["lang"]), os.environ))
    data_dir = _path(options["data_dir"]) or default_data_dir()
    names = tuple(str(n) for n in _names(options["names"]))
    where: Local | Online
    if options["join"] is not None:
        address = parse_address(str(options["join"]), _text(options["server"]))
        name = names[0] if names else words.t("setup.player_n", n=1)
        seat = options["seat"]
        where = Online(address, data_dir, bool(options["watch"]), name, seat - 1 if isinstance(seat, int) else None)
    else:
        people = int(str(options["people"]))
        if len(names) > people:
            raise MalformedInput(
                f"{len(names)} names for {people} {'person' if people == 1 else 'people'}: add --people 2"
            )
        named = names + tuple(words.t("setup.player_n", n=i + 1) for i in range(len(names), people))
        rules = rules_from_options(_text(options["rules_name"]), tuple(str(s) for s in _names(options["sets"])))
        seed = options["seed"]
        setup = make_setup(
            named,
            chosen_levels(_text(options["bots"]), people),
            rules,
            float(str(options["pace"])),
            seed if isinstance(seed, int) else None,
        )
        folder = str(options["data_dir"]) if options["data_dir"] is not None else str(data_dir)
        where = Local(setup, data_dir, folder)
    sys.exit(run(where, words, plain_wanted(bool(options["plain"]), os.environ)))


def default_data_dir() -> Path:
    """The folder ``ratscrew play`` keeps its store in by default (``web.serve.default_data_dir``, without the
    web server's imports)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ratscrew"


def check_options(options: dict[str, object]) -> None:
    """The options of a game against the computer and those of an online room do not mix."""
    given = {name for name, value in options.items() if value is not None and value is not False and value != ()}
    defaults = {"people": 1, "pace": 1.0}
    given -= {name for name, value in defaults.items() if options.get(name) == value}
    if options.get("join") is not None:
        local = sorted(given & set(LOCAL_ONLY))
        if local:
            flag = "--" + local[0].replace("rules_name", "rules").replace("sets", "set")
            raise MalformedInput(
                f"{flag} sets up a game against the computer; an online room's host chooses with --join"
            )
    else:
        online = sorted(given & set(ONLINE_ONLY))
        if online:
            raise MalformedInput(f"--{online[0]} goes with --join URL_OR_CODE (an online room)")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _path(value: object) -> Path | None:
    return value if isinstance(value, Path) else None


def _names(value: object) -> tuple[object, ...]:
    return value if isinstance(value, tuple) else ()
