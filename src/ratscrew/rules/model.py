"""The rules value: one frozen, validated set of house rules, built from a preset plus changes.

>>> rules = Rules.build("standard", {"slaps.run": 4})
>>> rules.slaps.run, rules.challenge.K, rules.preset
(4, 3, 'standard')
>>> Rules.build("beggar").any_slap_enabled(jokers_in_play=False)
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from ratscrew.cards import Card, DeckSpec, Rank
from ratscrew.patterns import PATTERNS
from ratscrew.rules.options import OPTIONS, OPTIONS_BY_KEY, Value, check_needs, needs_met, option
from ratscrew.rules.presets import preset as find_preset
from ratscrew.rules.sections import (
    SECTION_TYPES,
    ChallengeRules,
    DeckRules,
    Decks,
    EmptyPayer,
    EndRules,
    Leader,
    MarriageSuits,
    OnceScope,
    OutWhen,
    Penalty,
    PenaltyFrom,
    PlayerRules,
    Section,
    SlappingRules,
    SlapRules,
    TenGap,
    TenRule,
    Tie,
    Wildcard,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "ChallengeRules",
    "DeckRules",
    "Decks",
    "EmptyPayer",
    "EndRules",
    "Leader",
    "MarriageSuits",
    "OnceScope",
    "OutWhen",
    "Penalty",
    "PenaltyFrom",
    "PlayerRules",
    "Rules",
    "Section",
    "SlapRules",
    "SlappingRules",
    "TenGap",
    "TenRule",
    "Tie",
    "Wildcard",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 12


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set. ``preset`` names where it started; equality looks only at the rules themselves."""

    preset: str = field(default="standard", compare=False)
    challenge: ChallengeRules = ChallengeRules()
    slapping: SlappingRules = SlappingRules()
    players: PlayerRules = PlayerRules()
    slaps: SlapRules = SlapRules()
    end: EndRules = EndRules()
    deck: DeckRules = DeckRules()

    @staticmethod
    def build(preset: str = "standard", changes: Mapping[str, object] | None = None) -> Rules:
        """A preset with ``changes`` (dotted keys to values, typed or as text) applied and checked."""
        base = find_preset(preset)
        values: dict[str, Value] = {o.key: o.default for o in OPTIONS}
        values.update(base.changes)
        for key, raw in (changes or {}).items():
            values[key] = option(key).parse(raw)
        return _from_values(base.name, values)

    def get(self, key: str) -> Value:
        opt = option(key)
        return cast(Value, getattr(getattr(self, opt.section), opt.name))

    def applies(self, key: str) -> bool:
        """Whether ``key`` can change play under these rules (what it ``needs`` holds). Where it cannot, both engines
        leave its value unused, so that the settings pages may grey it out and mean it."""
        return needs_met(option(key), self.values())

    def values(self) -> dict[str, Value]:
        """Every key with its value, in the order of docs/rules.md (that of OPTIONS)."""
        return {o.key: self.get(o.key) for o in OPTIONS}

    def changes_from_preset(self) -> dict[str, Value]:
        """The keys whose values differ from this rule set's own preset."""
        base = Rules.build(self.preset).values()
        return {k: v for k, v in self.values().items() if base[k] != v}

    def with_changes(self, changes: Mapping[str, object]) -> Rules:
        merged: dict[str, object] = dict(self.changes_from_preset())
        merged.update(changes)
        return Rules.build(self.preset, merged)

    # Derived facts the engine asks often.

    def demand(self, card: Card) -> int:
        """Cards this card demands from the next player (0 for a number card)."""
        return _demands(self.challenge).get(card.rank, 0)

    def deck_for(self, players: int) -> DeckSpec:
        decks = self.deck.decks
        count = (1 if players <= 6 else 2) if decks == "auto" else decks
        return DeckSpec(decks=count, jokers=self.deck.jokers)

    def any_slap_enabled(self, *, jokers_in_play: bool) -> bool:
        """Whether any pattern could ever be slapped (without one, a game can loop forever)."""
        s = self.slaps
        return any(p.enabled(s) and (p.key != "joker" or jokers_in_play) for p in PATTERNS)


def _check_patterns() -> None:
    """Every pattern is switched on by slap rules keys (a typo in a pattern's declaration is named here)."""
    for pattern in PATTERNS:
        unknown = [k for k in pattern.on if k not in OPTIONS_BY_KEY or not k.startswith("slaps.")]
        if unknown:
            raise TypeError(f"pattern {pattern.key} is switched on by {unknown[0]}, which is no slaps.* rules key")


_check_patterns()


@cache
def _demands(challenge: ChallengeRules) -> dict[Rank, int]:
    c = challenge
    return {Rank.JACK: c.J, Rank.QUEEN: c.Q, Rank.KING: c.K, Rank.ACE: c.A, Rank.JOKER: c.joker}


def _from_values(preset: str, values: Mapping[str, Value]) -> Rules:
    check_needs(values)
    sections: dict[str, Any] = {}
    for name, cls in SECTION_TYPES:
        updates: dict[str, Any] = {k.split(".", 1)[1]: v for k, v in values.items() if k.split(".", 1)[0] == name}
        sections[name] = cls(**updates)
    return Rules(preset, **sections)
