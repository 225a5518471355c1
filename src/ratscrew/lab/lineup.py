"""A line-up of computer players: ``--bots`` and ``--players`` read together, one level per seat.

Seats are separated by commas on the command line (``--bots hard,medium,easy``); inside a ``--vary bots=...``
value, where commas separate the cells, by ``+`` (``--vary bots=medium,hard+easy+easy``). One level fills every
seat. A seat left empty (``--bots ""``, ``--bots medium,,medium``) is an error, never a default.
"""

from __future__ import annotations

from ratscrew.errors import MalformedInput
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS

DEFAULT_LEVEL = "medium"
DEFAULT_SEATS = 4
SEAT_SEPARATORS = (",", "+")


def parse_lineup(bots: str | None, players: int | None, *, option: str = "--bots") -> tuple[str, ...]:
    """The levels seat by seat: ``bots`` (None: Medium in every seat) and ``players`` (None: one seat per level
    given, or four seats when no level is given). The seat count itself is checked by ``check_levels``."""
    if players is not None and players < 1:
        raise MalformedInput(f"--players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    if bots is None:
        return (DEFAULT_LEVEL,) * (players or DEFAULT_SEATS)
    text = bots
    for separator in SEAT_SEPARATORS[1:]:
        text = text.replace(separator, SEAT_SEPARATORS[0])
    named = [b.strip().lower() for b in text.split(SEAT_SEPARATORS[0])]
    if not any(named):
        raise MalformedInput(f"{option} needs at least one level, e.g. {option} medium,hard; got {bots!r}")
    if not all(named):
        raise MalformedInput(
            f"{option} {bots!r} leaves a seat empty (nothing between two separators, or at an end): "
            "give one level per seat, e.g. medium,hard,medium"
        )
    if players is None:
        return tuple(named)
    if len(named) == 1:
        return tuple(named * players)
    if len(named) != players:
        raise MalformedInput(
            f"{option} gives {len(named)} levels but --players is {players}: give one level per seat, "
            "or a single level for every seat"
        )
    return tuple(named)
