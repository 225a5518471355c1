"""The named rule sets (docs/rules.md lists them), each a short list of changes from the defaults."""

from __future__ import annotations

from dataclasses import dataclass

from ratscrew.errors import RulesError
from ratscrew.rules.options import Value


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    summary: str
    changes: tuple[tuple[str, Value], ...] = ()


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "standard",
            "double and sandwich; J1 Q2 K3 A4; burn 1; empty players slap back in; "
            "1 s to slap a won challenge; the winner leads",
        ),
        Preset(
            "bicycle",
            "standard plus top-bottom, marriage, runs of 4 (with wrap), tens with an Ace as 1 "
            "and tens around a court card, joker slaps",
            (
                ("slaps.top_bottom", True),
                ("slaps.marriage", True),
                ("slaps.run", 4),
                ("slaps.run_wrap", True),
                ("slaps.ten", "ace-one"),
                ("slaps.ten_gap", "court"),
                ("slaps.joker", True),
            ),
        ),
        Preset(
            "one-chance",
            "standard, but every court card demands a single card",
            (("challenge.J", 1), ("challenge.Q", 1), ("challenge.K", 1), ("challenge.A", 1)),
        ),
        Preset(
            "everything",
            "standard plus top-bottom, marriage, runs of 3 and tens of two number cards",
            (("slaps.top_bottom", True), ("slaps.marriage", True), ("slaps.run", 3), ("slaps.ten", "numbers")),
        ),
        Preset(
            "bataille-corse",
            "double and sandwich; a wrong slap gives a card to each other player; nobody is ever out",
            (("slapping.penalty", "give-each"), ("players.out_when", "never")),
        ),
        Preset("out-is-out", "standard, but a player with no cards is out", (("players.slap_in", False),)),
        Preset(
            "beggar",
            "Beggar-my-neighbour: no slapping at all, and a player with no cards is out",
            (("slaps.double", False), ("slaps.sandwich", False), ("slaps.joker", False), ("players.slap_in", False)),
        ),
        Preset(
            "slapjack",
            "Slapjack: no challenges at all, slap every Jack and nothing else; a wrong slap burns a card, and "
            "a player with no cards is out once they miss a slap",
            (
                ("challenge.J", 0),
                ("challenge.Q", 0),
                ("challenge.K", 0),
                ("challenge.A", 0),
                ("slaps.double", False),
                ("slaps.sandwich", False),
                ("slaps.joker", False),
                ("slaps.wildcard", "J"),
                ("players.out_when", "missed-slap"),
            ),
        ),
    )
}


def preset(name: str) -> Preset:
    found = PRESETS.get(name.strip().lower())
    if found is None:
        raise RulesError(f"unknown preset {name!r}: expected one of {', '.join(PRESETS)}")
    return found
