"""House rules: the options, the presets and the frozen rules value built from them."""

from ratscrew.rules.io import (
    load_rules,
    parse_set,
    rules_from_mapping,
    rules_from_toml,
    rules_to_mapping,
    rules_to_toml,
)
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.rules.options import OPTIONS, OPTIONS_BY_KEY, SECTIONS, Option, option
from ratscrew.rules.presets import PRESETS, Preset

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTIONS",
    "OPTIONS_BY_KEY",
    "PRESETS",
    "SECTIONS",
    "Option",
    "Preset",
    "Rules",
    "load_rules",
    "option",
    "parse_set",
    "rules_from_mapping",
    "rules_from_toml",
    "rules_to_mapping",
    "rules_to_toml",
]
