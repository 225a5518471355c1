"""Learn's answers name settings and their values in the reader's words, never as a rules file spells them: a
French player once read "(lockout ou lockout-pile)" in the questions. Every answer of the questions page, the
variants, the rules page and the cheat sheet is scanned in English, French and German, under every preset and
under rules that switch on what the answers describe (a lockout, jokers, a time limit)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from ratscrew.i18n import LANGUAGES
from ratscrew.learn.cheatsheet import cheatsheet
from ratscrew.learn.faq import faq
from ratscrew.learn.rules_page import rules_page
from ratscrew.learn.words import Texts, value_label
from ratscrew.rules import OPTIONS, OPTIONS_BY_KEY, PRESETS, Rules

RULE_SETS = [Rules.build(name) for name in PRESETS] + [
    Rules.build("standard", {"slapping.penalty": "lockout-pile", "deck.jokers": 2, "end.time_limit_s": 600}),
    Rules.build("bataille-corse", {"slapping.penalty": "lockout", "slapping.once_per_card": True}),
]
# The fields of the documents that are data for the page (a key, a value, an id), not words a player reads.
DATA_FIELDS = {"id", "key", "value", "default", "type", "preset", "section", "pattern", "rank", "cards", "card"}
WORDS = {
    str(c)
    for opt in OPTIONS
    if opt.kind == "choice"
    for c in opt.choices
    if isinstance(c, str) and len(c) > 1 and c.islower()
}
ANY_VALUE = "|".join(re.escape(w) for w in sorted(WORDS, key=len, reverse=True))
A_KEY = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in OPTIONS_BY_KEY) + r")(?![\w])")
# A value with a hyphen or an underscore ("lockout-pile", "give-each") is a rules file's spelling in any language.
SPELT_VALUE = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in WORDS if "-" in w or "_" in w) + r")(?![\w-])")
# Values listed in brackets, "(lockout or lockout-pile)": the file's words for a setting's choices.
BRACKETED_VALUES = re.compile(r"\((?:" + ANY_VALUE + r")(?:\s+\S+\s+(?:" + ANY_VALUE + r"))*\)")
CODE_WORDS = re.compile(r"\b(true|false|True|False|None|null)\b|\w=\w")
# Choice values that are also plain words of French or German ("à table", "à court de cartes").
NATIVE = {"fr": {"table", "court"}, "de": set[str]()}


def texts(doc: object, field: str = "") -> Iterator[str]:
    """Every string a player reads in a Learn document."""
    if isinstance(doc, str) and field not in DATA_FIELDS:
        yield doc
    elif isinstance(doc, dict):
        for key, value in doc.items():
            yield from texts(value, key)
    elif isinstance(doc, list):
        for item in doc:
            yield from texts(item, field)


def raw_words(lang: str, text: str) -> list[str]:
    found = [
        m.group(0) for pattern in (A_KEY, SPELT_VALUE, BRACKETED_VALUES, CODE_WORDS) for m in pattern.finditer(text)
    ]
    if lang != "en":  # an English value word in a French or German sentence is the file's spelling
        english = sorted(WORDS - NATIVE[lang])
        found += re.findall(r"(?<![\w-])(" + "|".join(map(re.escape, english)) + r")(?![\w-])", text)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_learn_answer_names_settings_and_values_in_words(lang: str) -> None:
    tr = Texts(lang)
    wrong: set[tuple[str, str]] = set()
    scanned = 0
    for rules in RULE_SETS:
        for doc in (faq(tr, rules), rules_page(tr, rules), cheatsheet(tr, rules)):
            for text in texts(doc):
                scanned += 1
                wrong |= {(found, text) for found in raw_words(lang, text)}
    assert scanned > 500
    assert sorted(wrong) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lockout_answer_names_the_two_lockouts_by_their_choices(lang: str) -> None:
    """The answer that once listed "lockout or lockout-pile" names them as the setup page's list does."""
    tr = Texts(lang)
    locked = next(q for q in faq(tr, Rules.build("standard"))["questions"] if q["id"] == "locked")  # type: ignore[attr-defined]
    penalty = OPTIONS_BY_KEY["slapping.penalty"]
    for choice in ("lockout", "lockout-pile"):
        assert tr("learn.ui.value_named", value=value_label(tr, penalty, choice)) in locked["a"][0]
