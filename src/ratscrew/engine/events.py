"""What happened, one step at a time, so a user interface can show it card by card.

Every action returns a tuple of these. Each event turns into a plain JSON object with ``to_dict`` (cards
in the short notation) and back with :func:`event_from_dict`; the browser, the records and the wire all
see that one form. Kinds and reasons are :class:`~enum.StrEnum` members with one spelling each
(``docs/vocabulary.md`` lists them).

>>> from ratscrew.cards import Card
>>> event = CardTurned(0, Card.parse("QH"), 3)
>>> event.to_dict()
{'kind': 'card_turned', 'seat': 0, 'card': 'QH', 'number': 3}
>>> event_from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import ClassVar

from ratscrew.cards import Card
from ratscrew.engine.actions import Seat
from ratscrew.engine.outcome import Ending, Loop, Outcome, Result
from ratscrew.errors import RecordError
from ratscrew.patterns import Match


class EventKind(StrEnum):
    CARD_TURNED = "card_turned"
    CHALLENGE_OPENED = "challenge_opened"
    DEBT_PASSED = "debt_passed"
    CHALLENGE_WON = "challenge_won"
    CHALLENGE_STOPPED = "challenge_stopped"
    SLAP_CORRECT = "slap_correct"
    WRONG_SLAP = "wrong_slap"
    SLAP_DISMISSED = "slap_dismissed"
    PILE_WON = "pile_won"
    PLAYER_OUT = "player_out"
    GAME_OVER = "game_over"


class ChallengeWin(StrEnum):
    """How a challenge was won."""

    PAID = "paid"  # the debt was paid in number cards
    RAN_OUT = "ran_out"  # the payer had no more cards
    UNOPPOSED = "unopposed"  # nobody else had cards to pay with
    LAST_CARD = "last_card"  # everyone still in was empty


class StopReason(StrEnum):
    """Why a challenge ended with no winner."""

    TEN = "ten"  # a 10 under challenge.ten_stops
    CHALLENGER_OUT = "challenger_out"  # the challenger went out while owed
    WINNER_OUT = "winner_out"  # the winner went out before collecting


class DismissReason(StrEnum):
    """Why a slap was set aside: it changes nothing and is not a wrong slap."""

    LATE = "late"  # it reacted to a card of a pile that has since been won
    ALREADY_SHARING = "already_sharing"  # a second slap by a seat already sharing a split pile
    LOCKED_OUT = "locked_out"  # the seat is locked out after a wrong slap (slapping.penalty = lockout...)
    ONCE_PER_CARD = "once_per_card"  # a second wrong slap on the same card (slapping.once_per_card)


class WonBy(StrEnum):
    """How a pile changed hands."""

    SLAP = "slap"
    CHALLENGE = "challenge"
    LAST_IN = "last_in"  # everyone else was out
    GIVEN = "given"  # a wrong slap gave the pile away (slapping.penalty = give-pile)


class OutReason(StrEnum):
    """Why a player went out."""

    EMPTY = "empty"  # no card when play passed to them
    WRONG_SLAP = "wrong_slap"  # a wrong slap with no cards (players.out_when = wrong-slap)
    MISSED_SLAP = "missed_slap"  # let a slappable pile go with no cards (players.out_when = missed-slap)


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[EventKind]

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind.value}
        for name in self.__dataclass_fields__:
            out[name] = _plain(getattr(self, name))
        return out


def _plain(value: object) -> object:
    if isinstance(value, int | None):  # seats and counts (bool too): most fields, so looked at first
        return value
    if isinstance(value, StrEnum):
        return value.value
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
            "how": value.how.value if value.how else None,
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

    kind: ClassVar[EventKind] = EventKind.CARD_TURNED
    seat: Seat
    card: Card
    number: int


@dataclass(frozen=True, slots=True)
class ChallengeOpened(Event):
    """A court card: ``payer`` now owes ``owed`` cards to ``seat`` (a court card while paying passes it on)."""

    kind: ClassVar[EventKind] = EventKind.CHALLENGE_OPENED
    seat: Seat
    card: Card
    payer: Seat
    owed: int
    passed_on: bool


@dataclass(frozen=True, slots=True)
class DebtPassed(Event):
    """Under ``next_pays``: ``from_seat`` ran out, and ``to_seat`` pays the ``owed`` cards still due."""

    kind: ClassVar[EventKind] = EventKind.DEBT_PASSED
    from_seat: Seat
    to_seat: Seat
    owed: int


@dataclass(frozen=True, slots=True)
class ChallengeWon(Event):
    """``seat`` won the pile by challenge; it waits a moment before it moves so a slap can still take it."""

    kind: ClassVar[EventKind] = EventKind.CHALLENGE_WON
    seat: Seat
    how: ChallengeWin


@dataclass(frozen=True, slots=True)
class ChallengeStopped(Event):
    """The challenge ended with no winner: a 10 under ``ten_stops``, or the challenger went out."""

    kind: ClassVar[EventKind] = EventKind.CHALLENGE_STOPPED
    seat: Seat
    reason: StopReason


@dataclass(frozen=True, slots=True)
class SlapCorrect(Event):
    """``seat`` slapped a pattern first (or inside the tie window)."""

    kind: ClassVar[EventKind] = EventKind.SLAP_CORRECT
    seat: Seat
    matches: tuple[Match, ...]


@dataclass(frozen=True, slots=True)
class WrongSlap(Event):
    """``seat`` slapped when no pattern showed; ``burned`` went under the pile, ``given`` to other seats.

    A lockout shows in the state (``Game.lockout``) rather than here; a pile given away follows as PileWon.

    Burned and given cards are face down at a real table: what leaves the server is redacted by the web layer.
    """

    kind: ClassVar[EventKind] = EventKind.WRONG_SLAP
    seat: Seat
    burned: tuple[Card, ...]
    given: tuple[tuple[Seat, Card], ...]


@dataclass(frozen=True, slots=True)
class SlapDismissed(Event):
    """A slap set aside without effect, for ``reason``: late, already sharing, locked out, once per card."""

    kind: ClassVar[EventKind] = EventKind.SLAP_DISMISSED
    seat: Seat
    reason: DismissReason


@dataclass(frozen=True, slots=True)
class PileWon(Event):
    """The pile moved under ``seat``'s stack (``shares`` lists each seat's cards when a tie was split)."""

    kind: ClassVar[EventKind] = EventKind.PILE_WON
    seat: Seat
    how: WonBy
    cards: tuple[Card, ...]
    shares: tuple[tuple[Seat, int], ...]


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """``seat`` is out, for ``reason``."""

    kind: ClassVar[EventKind] = EventKind.PLAYER_OUT
    seat: Seat
    reason: OutReason


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[EventKind] = EventKind.GAME_OVER
    outcome: Outcome


EVENT_TYPES: dict[EventKind, type[Event]] = {
    cls.kind: cls
    for cls in (
        CardTurned,
        ChallengeOpened,
        DebtPassed,
        ChallengeWon,
        ChallengeStopped,
        SlapCorrect,
        WrongSlap,
        SlapDismissed,
        PileWon,
        PlayerOut,
        GameOver,
    )
}


# ---------------------------------------------------------------------- reading events back


def event_from_dict(doc: Mapping[str, object]) -> Event:
    """The event a ``to_dict`` object describes; raises RecordError naming the field that is wrong."""
    kind_text = doc.get("kind")
    try:
        kind = EventKind(_text(kind_text))
    except ValueError:
        raise RecordError(f"unknown event kind {kind_text!r}: expected one of {', '.join(EventKind)}") from None
    cls = EVENT_TYPES[kind]
    names = [f.name for f in fields(cls)]
    extra = set(doc) - {"kind", *names}
    if extra:
        raise RecordError(f"a {kind} event has no field {sorted(extra)[0]!r}: expected {', '.join(names)}")
    try:
        return _READERS[kind](doc)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(
            f"a {kind} event is malformed ({type(exc).__name__}: {exc}): expected {', '.join(names)}"
        ) from None


def _seat(value: object) -> Seat:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"a seat must be a whole number, got {value!r}")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, got {value!r}")
    return value


def _int(value: object) -> int:
    return _seat(value)


def _card(value: object) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"a card must be text such as 'QH', got {value!r}")
    return Card.parse(value)


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list, got {value!r}")
    return value


def _match(value: object) -> Match:
    if not isinstance(value, dict):
        raise ValueError(f"a match must be an object, got {value!r}")
    return Match(str(value["pattern"]), tuple(_card(c) for c in _list(value["cards"])), str(value["why"]))


def _outcome(value: object) -> Outcome:
    if not isinstance(value, dict):
        raise ValueError(f"an outcome must be an object, got {value!r}")
    loop_doc = value.get("loop")
    loop = None
    if loop_doc is not None:
        if not isinstance(loop_doc, dict):
            raise ValueError(f"a loop must be an object, got {loop_doc!r}")
        loop = Loop(*(_int(loop_doc[k]) for k in ("prefix_cards", "prefix_tricks", "cycle_cards", "cycle_tricks")))
    winner = value.get("winner")
    how = value.get("how")
    return Outcome(
        Result(_text(value["result"])),
        None if winner is None else _seat(winner),
        loop,
        str(value.get("reason", "")),
        None if how is None else Ending(_text(how)),
    )


def _pair(item: object) -> list[object]:
    pair = _list(item)
    if len(pair) != 2:
        raise ValueError(f"expected a [seat, value] pair, got {item!r}")
    return pair


def _given(value: object) -> tuple[tuple[Seat, Card], ...]:
    return tuple((_seat(p[0]), _card(p[1])) for p in map(_pair, _list(value)))


def _shares(value: object) -> tuple[tuple[Seat, int], ...]:
    return tuple((_seat(p[0]), _int(p[1])) for p in map(_pair, _list(value)))


_READERS: dict[EventKind, Callable[[Mapping[str, object]], Event]] = {
    EventKind.CARD_TURNED: lambda d: CardTurned(_seat(d["seat"]), _card(d["card"]), _int(d["number"])),
    EventKind.CHALLENGE_OPENED: lambda d: ChallengeOpened(
        _seat(d["seat"]), _card(d["card"]), _seat(d["payer"]), _int(d["owed"]), bool(d["passed_on"])
    ),
    EventKind.DEBT_PASSED: lambda d: DebtPassed(_seat(d["from_seat"]), _seat(d["to_seat"]), _int(d["owed"])),
    EventKind.CHALLENGE_WON: lambda d: ChallengeWon(_seat(d["seat"]), ChallengeWin(_text(d["how"]))),
    EventKind.CHALLENGE_STOPPED: lambda d: ChallengeStopped(_seat(d["seat"]), StopReason(_text(d["reason"]))),
    EventKind.SLAP_CORRECT: lambda d: SlapCorrect(_seat(d["seat"]), tuple(_match(m) for m in _list(d["matches"]))),
    EventKind.WRONG_SLAP: lambda d: WrongSlap(
        _seat(d["seat"]), tuple(_card(c) for c in _list(d["burned"])), _given(d["given"])
    ),
    EventKind.SLAP_DISMISSED: lambda d: SlapDismissed(_seat(d["seat"]), DismissReason(_text(d["reason"]))),
    EventKind.PILE_WON: lambda d: PileWon(
        _seat(d["seat"]), WonBy(_text(d["how"])), tuple(_card(c) for c in _list(d["cards"])), _shares(d["shares"])
    ),
    EventKind.PLAYER_OUT: lambda d: PlayerOut(_seat(d["seat"]), OutReason(_text(d["reason"]))),
    EventKind.GAME_OVER: lambda d: GameOver(_outcome(d["outcome"])),
}
