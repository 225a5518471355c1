"""RULES.md's table of defaults and presets, written out once for the tests that check against it."""

from __future__ import annotations

from ratscrew.rules.options import Value

# The defaults of RULES.md, key by key.
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
    "slaps.run": 0,
    "slaps.run_wrap": True,
    "slaps.ten": "off",
    "slaps.ten_gap": "off",
    "slaps.joker": True,
    "slaps.burned_count": False,
    "end.time_limit_s": 0,
    "end.max_cards": 0,
    "deck.decks": "auto",
    "deck.jokers": 0,
}

# The presets of RULES.md, as changes from the defaults.
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
}
