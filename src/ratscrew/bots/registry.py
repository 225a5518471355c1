"""The one place computer players are looked up by name: a level, optionally with a strategy.

Names are ``LEVEL`` or ``LEVEL:STRATEGY`` (``medium``, ``instant:risk-faces``). The levels are the four
people play against (``LEVELS``), the lab's ideal players (``LAB_LEVELS``) and ``match``, which plays at a
person's measured speed and at Medium's until it has measured enough. The lab, the table and the web
server all resolve names here, so a name means the same everywhere and a bad one gets the same message.

>>> resolve("instant:risk-faces").name
'instant:risk-faces'
>>> resolve("Hard").reaction == LEVELS["hard"].reaction
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ratscrew.bots.levels import LAB_LEVELS, LEVELS, Level
from ratscrew.bots.strategy import STRATEGIES, UnknownStrategy, strategy
from ratscrew.errors import MalformedInput

MATCH = "match"
# Every level name a player can be given, in the order they are listed to people.
LEVEL_NAMES: tuple[str, ...] = (*LEVELS, *LAB_LEVELS, MATCH)
STRATEGY_NAMES: tuple[str, ...] = tuple(STRATEGIES)
# The levels offered to people in the browser (the lab's ideal players and strategies are for the lab).
PLAYABLE: tuple[str, ...] = (*LEVELS, MATCH)

__all__ = [
    "LEVEL_NAMES",
    "MATCH",
    "PLAYABLE",
    "STRATEGY_NAMES",
    "UnknownLevel",
    "UnknownStrategy",
    "resolve",
    "resolve_all",
]


class UnknownLevel(MalformedInput):
    """A computer player's name whose level part is not a known level."""


def resolve(name: str) -> Level:
    """The level called ``name`` (``LEVEL`` or ``LEVEL:STRATEGY``), with its strategy attached."""
    text = name.strip().lower()
    level_name, colon, strategy_name = text.partition(":")
    base = _level(level_name.strip(), name)
    if not colon:
        return base
    chosen = strategy(strategy_name)
    return replace(base, name=f"{base.name}:{chosen.name}", strategy=chosen)


def resolve_all(names: Iterable[str]) -> tuple[Level, ...]:
    return tuple(resolve(name) for name in names)


def _level(level_name: str, asked: str) -> Level:
    if level_name == MATCH:
        medium = LEVELS["medium"]
        return replace(medium, name=MATCH, summary="plays at a person's own speed (Medium's until measured)")
    found = LEVELS.get(level_name) or LAB_LEVELS.get(level_name)
    if found is None:
        raise UnknownLevel(
            f"unknown bot level {asked.strip()[:30]!r}: expected one of {', '.join(LEVEL_NAMES)}, "
            "optionally with a strategy as LEVEL:STRATEGY (e.g. instant:risk-faces)"
        )
    return found
