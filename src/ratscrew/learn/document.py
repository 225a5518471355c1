"""The Learn pages as data: the rules explained from the very definitions the engine plays by.

Every sentence that depends on a rule reads it from a :class:`~ratscrew.rules.Rules` value, every example
pile is judged by :func:`~ratscrew.patterns.find_matches` and every worked challenge is played by
:class:`~ratscrew.engine.Game`, so the pages cannot drift from the engine: change a preset and the words,
the demand table and the verdicts change with it. The result is a plain JSON-able document per language;
the browser only lays it out.

>>> doc = learn_document("en", Rules.build("one-chance"))
>>> [row["demand"] for row in doc["rules"]["sections"][3]["blocks"][1]["rows"]]
[1, 1, 1, 1]
"""

from __future__ import annotations

from ratscrew.i18n import LANGUAGES
from ratscrew.learn.cards_page import card_reference
from ratscrew.learn.cheatsheet import cheatsheet
from ratscrew.learn.faq import faq
from ratscrew.learn.rules_page import rules_page
from ratscrew.learn.words import Doc, Texts
from ratscrew.rules import PRESETS, Rules


def learn_document(lang: str, rules: Rules) -> Doc:
    """Everything the Learn pages show, in one language, for one rule set."""
    tr = Texts(lang if lang in LANGUAGES else "en")
    return {
        "lang": tr.lang,
        "preset": rules.preset,
        "preset_label": tr(f"preset.{rules.preset}.name"),
        "preset_summary": tr(f"preset.{rules.preset}"),
        "presets": [{"name": p, "label": tr(f"preset.{p}.name"), "summary": tr(f"preset.{p}")} for p in PRESETS],
        "changes": rules.changes_from_preset(),
        "rules": rules_page(tr, rules),
        "cheatsheet": cheatsheet(tr, rules),
        "cards": card_reference(tr, rules),
        "faq": faq(tr, rules),
    }
