"""The texts each rules key and each slap pattern needs in every language, read from their declarations.

The pages look a rule's words up by its key (``choice.players.leader.next``); a language that lacks one falls back
to English, and English to the key itself, so nothing breaks where a text is missing: the tests ask here instead,
and a missing text fails with its key and what needs it. Texts that only some rule sets reach (a sentence for one
value of a rule) are found by rendering every page under every value, which the tests do too
(``ratscrew.i18n.recording``).
"""

from __future__ import annotations

from ratscrew.patterns import PATTERNS
from ratscrew.rules import OPTIONS


def required_texts() -> dict[str, str]:
    """Every key the declarations call for, each with what needs it."""
    needed: dict[str, str] = {}
    for opt in OPTIONS:
        needed[f"option.{opt.key}"] = f"the sentence that explains {opt.key}"
        for choice in opt.choices:
            needed[f"choice.{opt.key}.{choice}"] = f"{opt.key} = {choice} in words"
        if opt.table:
            needed[f"scores.opt.{opt.key}"] = f"the short label of {opt.key} (score keeper, Learn)"
    for pattern in PATTERNS:
        needed[f"pattern.{pattern.key}"] = f"the name of the pattern {pattern.key}"
        needed[f"pattern.{pattern.key}.why"] = f"why a pile shows {pattern.key}"
        needed[f"learn.pattern.{pattern.key}.short"] = f"{pattern.key} in Learn's list of patterns"
    return needed
