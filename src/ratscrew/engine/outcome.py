"""How a game ended, as a value: a kind of result plus the winner (and the cycle, for a loop)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ratscrew.engine.actions import Seat


class Result(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOOP = "loop"
    LIMIT = "limit"


class Ending(StrEnum):
    """What ended the game."""

    ALL_CARDS = "all_cards"  # one player holds every card
    LAST_IN = "last_in"  # everyone else is out
    TIME = "time"  # end.time_limit_s ran out
    CARD_LIMIT = "card_limit"  # end.max_cards was reached
    LOOP = "loop"  # without slaps the game came back to a position seen before


@dataclass(frozen=True, slots=True)
class Loop:
    """A repeating game: it first reaches the repeating state after ``prefix_*``; one cycle lasts ``cycle_*``."""

    prefix_cards: int
    prefix_tricks: int
    cycle_cards: int
    cycle_tricks: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """``how`` says what ended the game, for programs; ``reason`` says it in words."""

    result: Result
    winner: Seat | None = None
    loop: Loop | None = None
    reason: str = ""
    how: Ending | None = None
