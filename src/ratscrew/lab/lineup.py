"""A line-up of computer players: ``--bots`` and ``--players`` read together, one level per seat.

Seats are separated by commas on the command line (``--bots hard,medium,easy``); inside a ``--vary bots=...``
value, where commas separate the cells, by ``+`` (``--vary bots=medium,hard+easy+easy``). One level fills every
seat. A seat left empty (``--bots ""``, ``--bots medium,,medium``) is an error, never a default.
"""

from __future__ import annotations

from ratscrew.lab.inputs import LabInputError, Spelling
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS

DEFAULT_LEVEL = "medium"
DEFAULT_SEATS = 4
SEAT_SEPARATORS = (",", "+")


def parse_lineup(bots: str | None, players: int | None, *, in_vary: bool = False) -> tuple[str, ...]:
    """The levels seat by seat: ``bots`` (None: Medium in every seat) and ``players`` (None: one seat per level
    given, or four seats when no level is given). The seat count itself is checked by ``check_levels``;
    ``in_vary`` says the line-up is one value of a vary over ``bots``, for the messages."""
    key = "bots" if in_vary else None
    param = "vary" if in_vary else "bots"
    if players is not None and players < 1:
        raise LabInputError(lambda s: f"{s.name('players')} must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    if bots is None:
        return (DEFAULT_LEVEL,) * (players or DEFAULT_SEATS)
    text = bots
    for separator in SEAT_SEPARATORS[1:]:
        text = text.replace(separator, SEAT_SEPARATORS[0])
    named = [b.strip().lower() for b in text.split(SEAT_SEPARATORS[0])]
    if not any(named):
        raise LabInputError(
            lambda s: f"{s.name(param, key)} needs at least one level, e.g. {_example(s, in_vary)}; got {bots!r}"
        )
    if not all(named):
        raise LabInputError(
            lambda s: (
                f"{s.given(param, bots, key)} leaves a seat empty (nothing between two separators, or at an "
                "end): give one level per seat, e.g. medium,hard,medium"
            )
        )
    if players is None:
        return tuple(named)
    if len(named) == 1:
        return tuple(named * players)
    if len(named) != players:
        raise LabInputError(
            lambda s: (
                f"{s.name(param, key)} gives {len(named)} levels but {s.name('players')} is {players}: "
                "give one level per seat, or a single level for every seat"
            )
        )
    return tuple(named)


def _example(s: Spelling, in_vary: bool) -> str:
    if in_vary:
        return "--vary bots=medium+hard,easy+easy" if s.command_line else "vary={'bots': ['medium,hard', 'easy,easy']}"
    return "--bots medium,hard" if s.command_line else "bots='medium,hard'"
