"""The table of defaults and presets of docs/rules.md, written out once for the tests that check against it,
and a helper for tests that draw random rule sets."""

from __future__ import annotations

from collections.abc import Mapping

from ratscrew.rules import OPTIONS, OPTIONS_BY_KEY, Rules
from ratscrew.rules.options import Value, needs_met

# The defaults of docs/rules.md, key by key.
DEFAULTS: dict[str, Value] = {
    "challenge.J": 1,
    "challenge.Q": 2,
    "challenge.K": 3,
    "challenge.A": 4,
    "challenge.empty_payer": "loses",
    "challenge.ten_stops": False,
    "challenge.joker": 0,
    "slapping.collect_delay_ms": 1000,
    "slapping.penalty": "burn",
    "slapping.penalty_cards": 1,
    "slapping.lockout_cards": 5,
    "slapping.penalty_from": "top",
    "slapping.once_per_card": False,
    "slapping.once_per_card_scope": "player",
    "slapping.tie_window_ms": 0,
    "slapping.tie": "first",
    "players.slap_in": True,
    "players.out_when": "wrong-slap",
    "players.leader": "winner",
    "slaps.double": True,
    "slaps.sandwich": True,
    "slaps.top_bottom": False,
    "slaps.marriage": False,
    "slaps.divorce": False,
    "slaps.marriage_suits": "any",
    "slaps.run": 0,
    "slaps.run_wrap": True,
    "slaps.ten": "off",
    "slaps.ten_gap": "off",
    "slaps.joker": True,
    "slaps.burned_count": False,
    "slaps.bigmac": False,
    "slaps.flush": 0,
    "slaps.wildcard": "off",
    "slaps.six_nine": False,
    "slaps.top_bottom_ten": False,
    "end.time_limit_s": 0,
    "end.max_cards": 0,
    "deck.decks": "auto",
    "deck.jokers": 0,
}

# The presets of docs/rules.md, as changes from the defaults.
PRESET_CHANGES: dict[str, dict[str, Value]] = {
    "standard": {},
    "bicycle": {
        "slaps.top_bottom": True,
        "slaps.marriage": True,
        "slaps.run": 4,
        "slaps.ten": "ace-one",
        "slaps.ten_gap": "court",
    },
    "one-chance": {"challenge.Q": 1, "challenge.K": 1, "challenge.A": 1},
    "everything": {"slaps.top_bottom": True, "slaps.marriage": True, "slaps.run": 3, "slaps.ten": "numbers"},
    "bataille-corse": {"slapping.penalty": "give-each", "players.out_when": "never"},
    "out-is-out": {"players.slap_in": False},
    "beggar": {"slaps.double": False, "slaps.sandwich": False, "slaps.joker": False, "players.slap_in": False},
    "slapjack": {
        "challenge.J": 0,
        "challenge.Q": 0,
        "challenge.K": 0,
        "challenge.A": 0,
        "slaps.double": False,
        "slaps.sandwich": False,
        "slaps.joker": False,
        "slaps.wildcard": "J",
        "players.out_when": "missed-slap",
    },
}


def settled(preset: str, changes: Mapping[str, object]) -> dict[str, object]:
    """Random ``changes`` made consistent: an option whose ``needs`` are not met goes back to its off value
    (``slaps.ten_gap`` without a ten, which ``Rules.build`` refuses)."""
    out = dict(changes)
    values: dict[str, Value] = Rules.build(preset).values()
    values.update({k: OPTIONS_BY_KEY[k].parse(v) for k, v in out.items()})
    for opt in OPTIONS:
        if opt.needs is not None and opt.needs.off is not None and not needs_met(opt, values):
            out[opt.key] = values[opt.key] = opt.needs.off
    return out
