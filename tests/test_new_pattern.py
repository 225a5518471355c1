"""A made-up slap pattern added by its declarations alone, in a copy of the source tree: the suite names every
piece it still lacks, and nothing about it passes silently.

The pattern is ``ace_king`` (an Ace and a King side by side): its predicate and its line in ``patterns.PATTERNS``,
and the option that switches it on, a field of ``SlapRules`` in ``rules/sections.py``. Then the checks that guard
the declarations (tests/test_declarations.py, tests/test_docs.py) run in the copy, and the C kernel is compiled
from the copy with its lists regenerated.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KEY = "ace_king"

PREDICATE = """

def ace_king(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 2 and {pile[-1].rank, pile[-2].rank} == {Rank.ACE, Rank.KING}:
        top, at = _top(pile, 2)
        return Match("ace_king", top, f"ace-king: {_ranks(top)}, an Ace and a King side by side", at)
    return None

"""
ENTRY = '    Pattern("ace_king", ace_king, on=("slaps.ace_king",), reach=2),\n'
SWITCH = '    ace_king: bool = declare(False, "slap an Ace and a King next to each other, either order")\n'


def insert_before(path: Path, anchor: str, text: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count(anchor) == 1, f"{path.name}: the anchor {anchor!r} moved; update this test"
    path.write_text(source.replace(anchor, text + anchor), encoding="utf-8")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source tree (with the kernels as they were compiled) plus the made-up pattern."""
    copy = tmp_path_factory.mktemp("tree")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "artifacts", "test-artifacts")
    for folder in ("src", "tests", "harness", "docs"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=skip)
    for name in ("pyproject.toml", "CONTRIBUTING.md", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    package = copy / "src" / "ratscrew"
    insert_before(package / "patterns.py", "PATTERNS: tuple[Pattern, ...] = (", PREDICATE.lstrip("\n") + "\n")
    insert_before(package / "patterns.py", ")\nPATTERN_KEYS: tuple", ENTRY)
    insert_before(package / "rules" / "sections.py", "\n\n@dataclass(frozen=True, slots=True)\nclass EndRules:", SWITCH)
    return copy


def environment(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "RATSCREW_"))}
    env["PYTHONPATH"] = str(tree / "src")  # ahead of the editable install's path to this checkout
    return env


@pytest.fixture(scope="module")
def outcomes(tree: Path) -> tuple[str, dict[str, str | None]]:
    """The copy's declaration checks: their whole output, and each test's name with its failure (None: passed)."""
    report = tree / "report.xml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-o",
            "addopts=",
            f"--junitxml={report}",
            "tests/test_declarations.py",
            "tests/test_docs.py",
        ],
        cwd=tree,
        env=environment(tree),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]  # failed tests, not a broken run
    failures: dict[str, str | None] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        failed = [child for child in case if child.tag in ("failure", "error")]
        failures[case.attrib["name"]] = "\n".join(f"{c.get('message', '')}\n{c.text or ''}" for c in failed) or None
    return done.stdout, failures


def test_the_copy_imports_the_made_up_pattern(tree: Path) -> None:
    probe = "from ratscrew.patterns import PATTERN_KEYS; from ratscrew.rules import Rules; import ratscrew; "
    probe += f"print(ratscrew.__file__, PATTERN_KEYS[-1], Rules.build('standard', {{'slaps.{KEY}': True}}).slaps)"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tree, env=environment(tree), capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith(str(tree / "src" / "ratscrew"))
    assert f"{KEY} " in done.stdout and f"{KEY}=True" in done.stdout


@pytest.mark.parametrize(
    "named",
    [
        # The C kernel: its lists are stale (with the lines the declarations add), its function is missing, and
        # the compiled module is older than the declarations.
        "src/ratscrew/_ers_rules.h is stale",
        'X(SLAPS_ACE_KING, "slaps.ace_king", 0, 1, NULL)',
        f'X(ACE_KING, "{KEY}", match_{KEY}, CFG_SLAPS_ACE_KING, CFG_SLAPS_ACE_KING)',
        f"_ers_fast.c has no match_{KEY}",
        "the compiled kernel is stale: rebuild it",
        # The computer players.
        f"PATTERN_DIFFICULTY lacks ['{KEY}']",
        # The texts the declarations call for, language by language (English has the option's sentence: it is
        # the declaration's own), and the texts its pages reach.
        *(f"i18n/{lang} lacks" for lang in ("en", "fr", "de")),
        f"pattern.{KEY} (the name of the pattern {KEY})",
        f"pattern.{KEY}.why (why a pile shows {KEY})",
        f"scores.opt.slaps.{KEY} (the short label of slaps.{KEY} (score keeper, Learn))",
        f"learn.pattern.{KEY}.short ({KEY} in Learn's list of patterns)",
        f"option.slaps.{KEY} (the sentence that explains slaps.{KEY})",
        f"fr: learn.pattern.{KEY}.rule (reached under slaps.{KEY}=True)",
        f"de: scores.rules.pattern.{KEY} (reached under slaps.{KEY}=True)",
        # Learn and the drills.
        f"learn/examples.py has no pile that shows {KEY} under slaps.{KEY}=True",
        f"learn/cards_page.py says of no card what it does in {KEY}",
        f"learn/drills.py builds no pile for the pattern {KEY}",
        # docs/rules.md: its line in the options table, ready to paste, and the patterns' list.
        f"| `slaps.{KEY}` | false | true or false | slap an Ace and a King next to each other, either order |",
        "test_the_rules_page_lists_the_patterns_in_the_engines_order",
    ],
)
def test_the_checks_name_every_missing_piece(outcomes: tuple[str, dict[str, str | None]], named: str) -> None:
    output, _ = outcomes
    assert named in output


def test_nothing_about_the_pattern_passes_silently(outcomes: tuple[str, dict[str, str | None]]) -> None:
    _, failures = outcomes
    about = [name for name in failures if KEY in name]
    assert about, "no check is parametrized by the new pattern or its switch"
    every = [
        *about,
        "test_the_kernels_lists_are_generated_from_the_declarations",
        "test_the_compiled_kernel_was_built_from_these_declarations",
        "test_every_pattern_has_a_difficulty",
        "test_every_text_the_declarations_call_for_exists[en]",
        "test_every_text_the_declarations_call_for_exists[fr]",
        "test_every_text_the_declarations_call_for_exists[de]",
        "test_the_rules_page_holds_every_option_and_preset[options-expected0]",
        "test_the_rules_page_lists_the_patterns_in_the_engines_order",
    ]
    assert [name for name in every if failures.get(name) is None] == []
    # Every check that fails fails over the new pattern (Learn lists every pattern under any rules, so the texts
    # of each key's values miss its words too), and the rest still holds.
    beside = {name: why for name, why in failures.items() if why is not None and name not in every}
    assert [name for name, why in beside.items() if KEY not in why] == []


def kernel_flags() -> list[str]:
    """The flags setup.py compiles the game kernel with (read from it: running it would build)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    lists: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.List):
            items: list[str] = []
            for item in node.value.elts:
                if isinstance(item, ast.Starred) and isinstance(item.value, ast.Name):
                    items += lists[item.value.id]
                elif isinstance(item, ast.Constant) and isinstance(item.value, str):
                    items.append(item.value)
            lists[node.targets[0].id] = items
    return lists["KERNEL_FLAGS"]


def test_the_c_build_names_the_missing_function(tree: Path) -> None:
    """With its lists regenerated from the copy, the kernel does not compile until ``match_ace_king`` is written."""
    subprocess.run(
        [sys.executable, "-m", "ratscrew.lab.kernel_header"],
        cwd=tree,
        env=environment(tree),
        capture_output=True,
        check=True,
    )
    header = (tree / "src" / "ratscrew" / "_ers_rules.h").read_text(encoding="utf-8")
    assert f"match_{KEY}" in header
    compiler = sysconfig.get_config_var("CC").split()[0]
    include = sysconfig.get_paths()["include"]
    done = subprocess.run(
        [compiler, "-fsyntax-only", *kernel_flags(), "-I", include, "src/ratscrew/_ers_fast.c"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert re.search(rf"error: implicit declaration of function .match_{KEY}.", done.stderr), done.stderr[-2000:]
