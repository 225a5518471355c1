"""What a finished game leaves: its summary, sent to every page (``over``), kept with its record, and shown
on the history page.

The summary is counted from the table's log (``rooms/summary.py``), so a game resumed after a restart is
counted whole. A race is a card several people slapped, with the figures each slap was timed by
(``rooms/fairness.py``): why it went one way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ratscrew.engine.outcome import Ending, Result
from ratscrew.shapes import Shape

Verdict = Literal["slap_correct", "wrong_slap", "slap_dismissed"]


@dataclass(frozen=True, slots=True)
class RaceSlap(Shape):
    """How one slap of a race was timed: what arrived, what was believed, and the landing time credited."""

    seat: int
    card: int | None  # the number of the card it reacted to
    verdict: Verdict | None  # the event that judged it, if any came
    received: int
    sent: int | None  # when the card it reacts to was sent to this page
    reaction: int | None  # what the page reported
    reported_lag: int | None
    rtt: int | None  # the server's own measure of this connection's round trip: the bound
    quota: int  # before this slap
    compensation: int
    landed: int
    # Kept since protocol 4; a summary kept before lacks them.
    echo_rtt: int | None = None  # the page's own answers to the probes: recorded, never believed
    tcp_rtt: int | None = None  # the kernel's round trip of the TCP connection


@dataclass(frozen=True, slots=True)
class Race(Shape):
    """A card several people slapped, the slaps in the order they landed."""

    card: int
    slaps: tuple[RaceSlap, ...]


@dataclass(frozen=True, slots=True)
class SummaryPlayer(Shape):
    seat: int
    name: str
    bot: str | None  # the computer's level, or None for a person
    cards: int
    piles_by_slap: int
    piles_by_challenge: int
    wrong_slaps: int
    reaction_ms: tuple[int, ...]
    median_reaction_ms: float | None


@dataclass(frozen=True, slots=True)
class GameSummary(Shape):
    """The end of a game: the outcome, each player's piles, wrong slaps and reactions, every close race."""

    game: str  # the game's id
    result: Result
    winner: int | None
    reason: str  # in words, for programs' readers
    how: Ending | None
    cards: int
    tricks: int
    ms: int  # the game's length on its clock
    players: tuple[SummaryPlayer, ...]
    out_order: tuple[int, ...]
    races: tuple[Race, ...]
