"""How a game ended, as a value: a kind of result plus the winner (and the cycle, for a loop)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ratscrew.engine.actions import Seat


class Result(Enum):
    WIN = "win"
    DRAW = "draw"
    LOOP = "loop"
    LIMIT = "limit"


@dataclass(frozen=True, slots=True)
class Loop:
    """A repeating game: it first reaches the repeating state after ``prefix_*``; one cycle lasts ``cycle_*``."""

    prefix_cards: int
    prefix_tricks: int
    cycle_cards: int
    cycle_tricks: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """``how`` says what ended the game, for programs: ``all_cards``, ``last_in``, ``time``, ``card_limit``
    or ``loop``; ``reason`` says it in words."""

    result: Result
    winner: Seat | None = None
    loop: Loop | None = None
    reason: str = ""
    how: str = ""
