"""What can happen at the table: a card is turned, somebody slaps, or time passes.

``t`` is milliseconds since the deal (None when a record does not say: the action then happens at the
same moment as the one before). A slap's ``card`` is how many cards had been turned when the slapper
reacted, so a slap meant for a pile that has since been won can be recognised and dismissed.
"""

from __future__ import annotations

from dataclasses import dataclass

Seat = int
Millis = int


@dataclass(frozen=True, slots=True)
class Flip:
    """Turn the next card (whoever is due); a pending collection happens first."""

    t: Millis | None = None


@dataclass(frozen=True, slots=True)
class Wait:
    """Time passes with nobody slapping: a pile waiting to be collected is collected."""

    t: Millis | None = None


@dataclass(frozen=True, slots=True)
class Slap:
    """A slap by ``seat``, judged against the pile as it stands when it is applied."""

    seat: Seat
    t: Millis | None = None
    card: int | None = None


Action = Flip | Wait | Slap
