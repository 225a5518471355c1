"""The ``ratscrew`` command: a Click group whose every failure is one clear line and a known exit code."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click

from ratscrew import __version__
from ratscrew.errors import (
    Conflict,
    Forbidden,
    IllegalAction,
    MalformedInput,
    NotFound,
    RatscrewError,
    TooMany,
    Unavailable,
    by_branch,
)

# The one place where errors become exit codes. 2 is what Click gives a bad option: whatever the user typed or
# pointed at could not be used (a card, a rules file, a record whose action the rules refuse). 3 is for input
# that was fine but cannot be done now; no command raises those today, the code is kept apart for when one does.
EXIT_CODES: dict[type[RatscrewError], int] = {
    MalformedInput: 2,
    IllegalAction: 2,
    NotFound: 2,
    Conflict: 3,
    Forbidden: 3,
    TooMany: 3,
    Unavailable: 3,
}


# Where each command lives, as ``module:name``. A command's module is imported only when that command runs or
# its help is shown: importing them all first (the lab, Rich, process pools) made `ratscrew check` take about
# three times the CPU it takes now (bench/cli_startup.py).
COMMANDS: Mapping[str, str] = {
    "backup": "ratscrew.cli.backup:backup",
    "bmn": "ratscrew.cli.bmn:bmn",
    "check": "ratscrew.cli.check:check",
    "lab": "ratscrew.cli.lab:lab",
    "play": "ratscrew.cli.play:play",
    "replay": "ratscrew.cli.replay:replay",
    "rules": "ratscrew.cli.rules:rules",
    "serve": "ratscrew.cli.serve:serve",
    "simulate": "ratscrew.cli.simulate:simulate_command",
    "tui": "ratscrew.cli.tui:tui",
}


def exit_code(exc: RatscrewError) -> int:
    """The exit code of an error, found by its branch of the tree (2 for the bare root)."""
    return by_branch(exc, EXIT_CODES, 2)


class RatscrewGroup(click.Group):
    """Turns bad input (ours or Click's) into ``ratscrew: error: ...`` on stderr and an exit code, never a
    traceback; and finds the commands named in ``COMMANDS`` only when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in COMMANDS:
            module, _, name = COMMANDS[cmd_name].partition(":")
            found = getattr(importlib.import_module(module), name)
            assert isinstance(found, click.Command), COMMANDS[cmd_name]
            self.add_command(found, cmd_name)
        return found

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in COMMANDS:
            # A mistyped name: Click suggests the nearest among the commands it holds, so give it them all.
            for name in COMMANDS:
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except RatscrewError as exc:
            fail(str(exc), exit_code(exc))
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            sys.exit(0)
        except click.UsageError as exc:
            hint = f" (see `ratscrew {exc.ctx.command.name} --help`)" if exc.ctx and exc.ctx.command.name else ""
            fail(exc.format_message().replace("\n", " ") + hint)
        except click.ClickException as exc:
            fail(exc.format_message().replace("\n", " "))
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("ratscrew: stopped", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            sys.exit(130)
        sys.exit(0)


def fail(message: str, code: int = 2) -> None:
    click.echo(f"ratscrew: error: {message}", err=True)
    sys.exit(code)


@click.group(cls=RatscrewGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ratscrew")
def main() -> None:
    """Egyptian Ratscrew: play it, learn it, referee it and measure it.

    Start with `ratscrew play` for the game in the browser, or `ratscrew check 7 K 7` to settle an argument.
    """
