"""What happened, one step at a time, so a user interface can show it card by card.

Every action returns a tuple of these. Each event turns into a plain JSON object with ``as_dict`` (cards
in the short notation), which is what the browser and the records see.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from ratscrew.cards import Card
from ratscrew.engine.actions import Seat
from ratscrew.engine.outcome import Outcome
from ratscrew.patterns import Match


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Match):
        return {"pattern": value.pattern, "cards": [str(c) for c in value.cards], "why": value.why}
    if isinstance(value, Outcome):
        loop = value.loop
        return {
            "result": value.result.value,
            "winner": value.winner,
            "reason": value.reason,
            "how": value.how,
            "loop": None
            if loop is None
            else {
                "prefix_cards": loop.prefix_cards,
                "prefix_tricks": loop.prefix_tricks,
                "cycle_cards": loop.cycle_cards,
                "cycle_tricks": loop.cycle_tricks,
            },
        }
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class CardTurned(Event):
    """``seat`` turned ``card``; it is the ``number``-th card of the game."""

    kind: ClassVar[str] = "card_turned"
    seat: Seat
    card: Card
    number: int


@dataclass(frozen=True, slots=True)
class ChallengeOpened(Event):
    """A court card: ``payer`` now owes ``owed`` cards to ``seat`` (a court card while paying passes it on)."""

    kind: ClassVar[str] = "challenge_opened"
    seat: Seat
    card: Card
    payer: Seat
    owed: int
    passed_on: bool


@dataclass(frozen=True, slots=True)
class DebtPassed(Event):
    """Under ``next_pays``: ``from_seat`` ran out, and ``to_seat`` pays the ``owed`` cards still due."""

    kind: ClassVar[str] = "debt_passed"
    from_seat: Seat
    to_seat: Seat
    owed: int


@dataclass(frozen=True, slots=True)
class ChallengeWon(Event):
    """``seat`` won the pile by challenge; it waits a moment before it moves so a slap can still take it.

    ``how`` is ``paid`` (the debt was paid in number cards), ``ran_out`` (the payer had no more cards),
    ``unopposed`` (nobody else had cards to pay with) or ``last_card`` (everyone was empty).
    """

    kind: ClassVar[str] = "challenge_won"
    seat: Seat
    how: str


@dataclass(frozen=True, slots=True)
class ChallengeStopped(Event):
    """The challenge ended with no winner: a 10 under ``ten_stops``, or the challenger went out."""

    kind: ClassVar[str] = "challenge_stopped"
    seat: Seat
    reason: str


@dataclass(frozen=True, slots=True)
class SlapCorrect(Event):
    """``seat`` slapped a pattern first (or inside the tie window)."""

    kind: ClassVar[str] = "slap_correct"
    seat: Seat
    matches: tuple[Match, ...]


@dataclass(frozen=True, slots=True)
class WrongSlap(Event):
    """``seat`` slapped when no pattern showed; ``burned`` went under the pile, ``given`` to other seats."""

    kind: ClassVar[str] = "wrong_slap"
    seat: Seat
    burned: tuple[Card, ...]
    given: tuple[tuple[Seat, Card], ...]


@dataclass(frozen=True, slots=True)
class SlapDismissed(Event):
    """A slap that arrived after its pile was won, or a second slap by a seat already sharing the pile."""

    kind: ClassVar[str] = "slap_dismissed"
    seat: Seat
    reason: str


@dataclass(frozen=True, slots=True)
class PileWon(Event):
    """The pile moved under ``seat``'s stack (``shares`` lists each seat's cards when a tie was split).

    ``how``: ``slap``, ``challenge`` or ``last_in`` (everyone else was out).
    """

    kind: ClassVar[str] = "pile_won"
    seat: Seat
    how: str
    cards: tuple[Card, ...]
    shares: tuple[tuple[Seat, int], ...]


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """``seat`` is out: ``empty`` (no card when play passed to them), ``wrong-slap`` or ``missed-slap``."""

    kind: ClassVar[str] = "player_out"
    seat: Seat
    reason: str


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    outcome: Outcome
