"""Every rules key and every slap pattern is declared once (rules/sections.py, patterns.py); everything else is
generated from those declarations or checked against them here, and each check names the piece still missing.

What a declaration needs besides itself, and where (CONTRIBUTING.md lists them too):

- the C kernel: its lists, generated into ``_ers_rules.h``, and for a pattern its ``match_<key>`` function;
- the computer players: how hard a pattern is to see (``bots/levels.py`` ``PATTERN_DIFFICULTY``);
- the texts, in every language: the ones the declaration calls for (``learn/required_texts.py``) and every one
  a page reaches under each value of the key;
- Learn: a pile that shows the pattern, what each card does in it (the card reference); the drills: piles
  built on it.

The front end's lists (the settings form, the score keeper's) come from ``/api/meta`` and docs/rules.md's tables
are checked by tests/test_docs.py. tests/test_new_pattern.py adds a made-up pattern by its declaration alone, in a
copy of the tree, and sees this module name every piece it lacks.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ratscrew.bots.levels import PATTERN_DIFFICULTY
from ratscrew.cards import Rank
from ratscrew.i18n import LANGUAGES, catalog, recording
from ratscrew.lab import kernel, kernel_header
from ratscrew.learn import learn_document, make_drill
from ratscrew.learn.cards_page import card_facts
from ratscrew.learn.drills import _segment, build_pile
from ratscrew.learn.examples import pattern_pile
from ratscrew.learn.required_texts import required_texts
from ratscrew.learn.summary import rules_summary
from ratscrew.learn.words import Texts, no_challenges, slap_keys
from ratscrew.patterns import PATTERN_KEYS, PATTERNS, Pattern, find_matches
from ratscrew.rules import OPTIONS, OPTIONS_BY_KEY, Rules
from ratscrew.rules.options import Option, Value, needs_met
from ratscrew.shuffle import SeededRandom

ROOT = Path(__file__).resolve().parent.parent
KERNEL_SOURCE = ROOT / "src" / "ratscrew" / "_ers_fast.c"
_OFF: tuple[Value, ...] = (False, 0, "off")


def rules_where(key: str, value: Value) -> Rules:
    """Standard with ``key`` = ``value``, and what it needs set so that it applies (and what that needs...)."""
    values = Rules.build().values()
    changes: dict[str, Value] = {key: value}
    values[key] = value
    opt: Option | None = OPTIONS_BY_KEY[key]
    while opt is not None and opt.needs is not None and not needs_met(opt, values):
        needed = opt.needs.key
        changes[needed] = values[needed] = opt.needs.values[0]
        opt = OPTIONS_BY_KEY[needed]
    return Rules.build("standard", changes)


def sample(opt: Option) -> list[Value]:
    """Values of a key worth rendering: every choice, both truths, a range's ends and default."""
    if opt.kind == "bool":
        return [True, False]
    if opt.kind == "choice":
        return list(opt.choices)
    return sorted({opt.minimum, int(opt.default), opt.maximum})


def switched_on(pattern: Pattern) -> Iterator[tuple[str, Rules]]:
    """Each way of turning the pattern on: every value of its switch but off."""
    opt = OPTIONS_BY_KEY[pattern.switch]
    for value in sample(opt):
        if value not in _OFF:
            yield f"{opt.key}={value}", rules_where(opt.key, value)


# ---------------------------------------------------------------------------------------------------- the C kernel


def test_the_kernels_lists_are_generated_from_the_declarations() -> None:
    written = kernel_header.HEADER.read_text(encoding="utf-8").splitlines()
    fresh = kernel_header.header().splitlines()
    missing = [line.strip() for line in fresh if line not in written]
    stale = [line.strip() for line in written if line not in fresh]
    assert not missing and not stale, (
        f"src/ratscrew/_ers_rules.h is stale: run `{kernel_header.COMMAND}` and rebuild the kernel "
        f"(scripts/setup-env dev).\nThe declarations add:\n  "
        + "\n  ".join(missing)
        + "\nand drop:\n  "
        + "\n  ".join(stale)
    )


@pytest.mark.parametrize("key", PATTERN_KEYS)
def test_the_kernel_implements_every_pattern(key: str) -> None:
    source = KERNEL_SOURCE.read_text(encoding="utf-8")
    assert re.search(
        rf"^static int match_{key}\(const Sim \*s, int len, int top, int second, int third\)", source, re.M
    ), (
        f"src/ratscrew/_ers_fast.c has no match_{key}: write the C test of the pattern {key} "
        "(as patterns.py's predicate), which PATTERN_LIST in _ers_rules.h names"
    )


def test_the_compiled_kernel_was_built_from_these_declarations() -> None:
    module = importlib.import_module(kernel.MODULE)
    stale = "the compiled kernel is stale: rebuild it (scripts/setup-env dev)"
    assert list(module.RULE_VALUES) == [o.key for o in OPTIONS], stale
    assert module.ENUMS["patterns"] == PATTERN_KEYS, stale
    assert kernel.kernel_mismatch(module) is None, stale


def test_a_pattern_switch_must_read_zero_in_c_when_off() -> None:
    """The kernel turns a pattern on when its switch reads non-zero: a switch whose off is not 0 is refused."""
    wrong = Option("slaps.odd", "on", "a switch whose off value is not first", choices=("on", "off"))
    assert kernel_header.code(wrong, "off") == 1
    with pytest.raises(ValueError, match=r"pattern odd is switched by slaps\.odd, whose off value"):
        kernel_header.switch_field("odd", wrong)
    assert kernel_header.switch_field("flush", OPTIONS_BY_KEY["slaps.flush"]) == "CFG_SLAPS_FLUSH"


# ---------------------------------------------------------------------------------------------------- the bots


def test_every_pattern_has_a_difficulty() -> None:
    missing = [k for k in PATTERN_KEYS if k not in PATTERN_DIFFICULTY]
    assert not missing, f"bots/levels.py PATTERN_DIFFICULTY lacks {missing}: how hard each is to see"
    extra = [k for k in PATTERN_DIFFICULTY if k not in PATTERN_KEYS]
    assert not extra, f"bots/levels.py PATTERN_DIFFICULTY names {extra}, which no pattern is"


# ---------------------------------------------------------------------------------------------------- texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_the_declarations_call_for_exists(lang: str) -> None:
    texts = catalog(lang)
    missing = [f"{key} ({why})" for key, why in required_texts().items() if not texts.get(key, "").strip()]
    assert not missing, f"i18n/{lang} lacks:\n" + "\n".join(missing)


def reached_texts(rules: Rules) -> set[str]:
    """Every key a page asks for under these rules: Learn, the rules' summary, the drills it allows."""
    with recording() as seen:
        learn_document("en", rules)
        for players in (2, 8):
            rules_summary("en", rules, players)
        kinds = ([] if no_challenges(rules) else ["debt"]) + (["slap", "stream"] if slap_keys(rules) else [])
        for kind in kinds:
            for seed in range(3):
                try:
                    make_drill(kind, seed, rules, "en")
                except LookupError:
                    continue  # a pattern the drills cannot build yet: test_the_drills_build_... names it
    return seen


@pytest.mark.parametrize("opt", OPTIONS, ids=[o.key for o in OPTIONS])
def test_every_text_each_value_reaches_exists_in_every_language(opt: Option) -> None:
    missing: dict[str, set[str]] = {}
    for value in sample(opt):
        for key in reached_texts(rules_where(opt.key, value)):
            for lang in LANGUAGES:
                if not catalog(lang).get(key, "").strip():
                    missing.setdefault(f"{lang}: {key}", set()).add(f"{opt.key}={value}")
    assert not missing, "texts the pages ask for and a language lacks:\n" + "\n".join(
        f"{what} (reached under {', '.join(sorted(where))})" for what, where in sorted(missing.items())
    )


# ---------------------------------------------------------------------------------------------------- Learn, drills


@pytest.mark.parametrize("pattern", PATTERNS, ids=PATTERN_KEYS)
def test_learn_shows_every_pattern_on_a_pile(pattern: Pattern) -> None:
    for where, rules in switched_on(pattern):
        assert pattern_pile(rules, pattern.key) is not None, (
            f"learn/examples.py has no pile that shows {pattern.key} under {where}: add candidates to _SHOWS"
        )


@pytest.mark.parametrize("pattern", PATTERNS, ids=PATTERN_KEYS)
def test_the_card_reference_tells_of_every_pattern(pattern: Pattern) -> None:
    tr = Texts("en")
    for where, rules in switched_on(pattern):
        told = {f.get("pattern") for rank in Rank for f in card_facts(tr, rules, rank)}
        assert pattern.key in told, (
            f"learn/cards_page.py says of no card what it does in {pattern.key} under {where}: add its fact"
        )


@pytest.mark.parametrize("pattern", PATTERNS, ids=PATTERN_KEYS)
def test_the_drills_build_piles_on_every_pattern(pattern: Pattern) -> None:
    for where, rules in switched_on(pattern):
        for seed in range(4):
            pile = _segment(SeededRandom(seed), rules, pattern.key, set())
            found = [m.pattern for m in find_matches(pile, rules)]
            assert pattern.key in found, f"learn/drills.py built no {pattern.key} pile under {where} (seed {seed})"
            built, target, nudged = build_pile(SeededRandom(seed), rules, [pattern.key])
            if target is not None and not nudged:
                assert pattern.key in [m.pattern for m in find_matches(built, rules)], (where, seed)
