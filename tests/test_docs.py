"""docs/rules.md and docs/commands.md against the code: every option and preset has its line, the examples
give what the commands really print, and nothing in the repository sends a reader to a file it lacks."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.docs_tables import option_lines, preset_lines
from ratscrew.cli import main
from ratscrew.patterns import PATTERN_KEYS
from ratscrew.record import Record, state_json

ROOT = Path(__file__).resolve().parent.parent
RULES_PAGE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
COMMANDS_PAGE = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
# The contract files the project was first written against live outside it; nothing may cite them.
OUTSIDE = ("RULES" + ".md", "CONTRACT" + ".md")


def table_rows(page: str, header: str) -> list[str]:
    """The rows of the table that starts with ``header``, up to the first line that is not a row."""
    lines = page.splitlines()
    start = lines.index(header)
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


@pytest.mark.parametrize(("name", "expected"), [("options", option_lines()), ("presets", preset_lines())])
def test_the_rules_page_holds_every_option_and_preset(name: str, expected: list[str]) -> None:
    rows = table_rows(RULES_PAGE, expected[0])
    missing = [line for line in expected if line not in rows]
    assert not missing, f"docs/rules.md lacks these {name} lines (or they changed):\n" + "\n".join(missing)
    extra = [line for line in rows if line not in expected]
    assert not extra, f"docs/rules.md has {name} lines the engine does not define:\n" + "\n".join(extra)


def test_the_rules_page_lists_the_patterns_in_the_engines_order() -> None:
    sentence = re.search(r"lists them in the\s+engine's order: (.*?)\.\n", RULES_PAGE, re.S)
    assert sentence is not None
    assert re.findall(r"`(\w+)`", sentence.group(1)) == list(PATTERN_KEYS)


def _json_blocks(page: str) -> list[object]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", page, re.S)]


def test_the_record_example_replays_to_the_state_shown() -> None:
    record_doc, state_doc = _json_blocks(COMMANDS_PAGE)
    game = Record.from_json(record_doc).replay()
    assert dict(state_json(game)) == state_doc
    # Every field of the state is described in the list under it.
    for key in dict(state_json(game)):
        assert f"`{key}`" in COMMANDS_PAGE


def _examples(page: str) -> list[tuple[list[str], str]]:
    """Each ``$ ratscrew ...`` line of a shell block with the output printed under it."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", page, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ ratscrew "):
                output = []
                for after in lines[i + 1 :]:
                    if after.startswith("$ "):
                        break
                    output.append(after)
                found.append((shlex.split(line[len("$ ratscrew ") :]), "\n".join(output)))
    return found


EXAMPLES = [
    pytest.param(args, output, id=f"{page}: ratscrew {' '.join(args)}")
    for page in ("docs/commands.md", "README.md")
    for args, output in _examples((ROOT / page).read_text(encoding="utf-8"))
    if args[0] in ("check", "rules") and output
]


@pytest.mark.parametrize(("args", "output"), EXAMPLES)
def test_the_examples_print_what_the_pages_say(args: list[str], output: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == output.strip()


def test_every_command_has_its_section() -> None:
    for name in main.list_commands(None):  # type: ignore[arg-type]
        assert f"## ratscrew {name}" in COMMANDS_PAGE, f"docs/commands.md has no section for ratscrew {name}"


def test_nothing_cites_the_contract_files_from_outside_the_project() -> None:
    here = Path(__file__).resolve()
    places = [ROOT / "README.md", *(ROOT / d for d in ("src", "tests", "docs", "bench", "scripts"))]
    files = [p for place in places for p in ([place] if place.is_file() else place.rglob("*")) if p.is_file()]
    cited = []
    for path in files:
        if (
            path == here
            or path.suffix not in (".py", ".md", ".js", ".json", ".c", ".toml", ".txt", "")
            or ("egg-info" in str(path))
        ):
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        cited += [f"{path.relative_to(ROOT)} cites {name}" for name in OUTSIDE if name in text]
    assert not cited, "point these at docs/rules.md or docs/commands.md:\n" + "\n".join(cited)
