"""The command line imports a command's module only when that command is asked for (cli/app.py), so a light
command such as ``ratscrew check`` starts without the servers, the lab or Rich; and the help still lists
every command with its summary. bench/cli_startup.py measures what this saves."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from harness.deals import PAULHUS
from harness.records import EXAMPLE_RECORD
from ratscrew.cli import main
from ratscrew.cli.app import COMMANDS

# Packages only the servers, the lab's runs (and their process pools), reports and progress bars need.
HEAVY = (
    "starlette",
    "uvicorn",
    "anyio",
    "redis",
    "dask",
    "distributed",
    "multiprocessing",
    "rich",
    "matplotlib",
    "numpy",
    "textual",
)
HEAVY_OURS = (
    "ratscrew.web",
    "ratscrew.hosting",
    "ratscrew.executor",
    "ratscrew.lab.report",
    "ratscrew.lab.bmn_search",
)


def imported(args: list[str], stdin: str | None = None) -> tuple[set[str], str]:
    """The modules ``python -m ratscrew ARGS`` imported, read from ``-X importtime``, and what it printed."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "ratscrew", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # Each line: "import time: <self us> | <cumulative us> | <name, indented by depth>".
    names = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    names.discard("imported package")  # the header line
    return names, done.stdout


def heavy_among(names: set[str]) -> list[str]:
    return sorted(
        n for n in names if n.split(".")[0] in HEAVY or any(n == o or n.startswith(o + ".") for o in HEAVY_OURS)
    )


@pytest.mark.parametrize(
    ("args", "stdin", "says", "needed"),
    [
        (["check", "9", "7", "9"], None, "slappable: sandwich", "ratscrew.patterns"),
        (["bmn", *PAULHUS], None, "hand 1 wins after 4791 cards", "ratscrew.bmn"),
        (["replay", "-"], json.dumps(EXAMPLE_RECORD), "playing: 3 cards turned", "ratscrew.record"),
        (["rules", "explain", "slaps.run"], None, "slaps.run:", "ratscrew.i18n"),
    ],
    ids=["check", "bmn", "replay", "rules-explain"],
)
def test_a_light_command_imports_only_what_it_needs(args: list[str], stdin: str | None, says: str, needed: str) -> None:
    names, out = imported(args, stdin)
    assert says in out
    assert needed in names  # the list is read right: the command's own modules are in it
    assert heavy_among(names) == []
    # and no other command's module came with it
    others = {spec.partition(":")[0] for name, spec in COMMANDS.items() if name != args[0]}
    assert not names & others


def test_the_terminal_tables_help_needs_no_textual() -> None:
    names, out = imported(["tui", "--help"])
    assert "--join URL_OR_CODE" in out
    assert "ratscrew.i18n" in names  # the list is read right: the command's own imports are in it
    assert heavy_among(names) == []


def test_a_heavy_command_still_brings_what_it_needs() -> None:
    names, out = imported(["simulate", "--help"])
    assert "--games" in out
    assert "rich" in heavy_among(names)  # so the light commands' empty lists above are not a blind reading


def test_the_help_lists_every_command_with_its_summary() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0, result.output
    listed = result.output.split("Commands:", 1)[1]
    ctx = click.Context(main)
    assert main.list_commands(ctx) == sorted(COMMANDS)
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
        opening = command.get_short_help_str(limit=1000).split()[:4]
        assert len(opening) == 4, f"ratscrew {name} has no summary"
        assert any(line.split()[:5] == [name, *opening] for line in listed.splitlines()), name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_has_its_own_help(name: str) -> None:
    result = CliRunner().invoke(main, [name, "--help"], prog_name="ratscrew")
    assert result.exit_code == 0, result.output
    assert f"ratscrew {name}" in result.output


def test_an_unknown_command_gets_the_suggestion_click_gives_when_every_command_is_loaded() -> None:
    eager = click.Group("ratscrew", commands=[click.Command(name) for name in COMMANDS])
    expected = CliRunner().invoke(eager, ["chekc", "9"])
    assert expected.exit_code == 2
    said = expected.output.strip().splitlines()[-1].removeprefix("Error: ")
    result = CliRunner().invoke(main, ["chekc", "9", "7", "9"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"ratscrew: error: {said} (see `ratscrew main --help`)"]
