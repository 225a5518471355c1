"""Server to page: every message a room sends, each a frozen dataclass with its encoder and its decoder.

The room builds these values and encodes each once as it leaves (``to_json``; codes stay their enum members,
which are text); :func:`server_from_json` reads one back, checking every field, so the golden corpus
(``tests/golden/messages.json``) round-trips through the classes exactly. What a message carries as the
engine or the rules give it (the table's state, the rules, an end-of-game summary) is a JSON object
(``Doc``) whose shape those modules own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from ratscrew.errors import BadMessage
from ratscrew.rooms.wire.codes import Out, Phase, Reaction, Refusal, SeatKind
from ratscrew.table.table import RejectCode

Doc = dict[str, object]
T = TypeVar("T")
E = TypeVar("E", bound=StrEnum)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as every page sees it."""

    kind: SeatKind
    name: str
    level: str | None  # a computer's level
    ready: bool
    connected: bool  # a person's page is open (a computer always is)
    latency_ms: int | None  # the measured one-way delay of its best page
    standin: bool  # a computer holds the seat while its person is away

    def to_json(self) -> Doc:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "ready": self.ready,
            "connected": self.connected,
            "latency_ms": self.latency_ms,
            "standin": self.standin,
        }

    @classmethod
    def from_json(cls, doc: object) -> SeatView:
        r = _Fields(doc, "seat", cls)
        return cls(
            r.enum("kind", SeatKind),
            r.text("name"),
            r.optional("level", _text),
            r.flag("ready"),
            r.flag("connected"),
            r.optional("latency_ms", _int),
            r.flag("standin"),
        )


@dataclass(frozen=True, slots=True)
class RoomView:
    """The room as pages see it: its lobby, and the decision window while a game is played."""

    code: str
    phase: Phase
    public: bool
    standins: bool  # a computer may hold a dropped player's seat
    pausable: bool
    seats: tuple[SeatView, ...]
    rules: Doc  # the whole rule set (``rules.io.rules_to_mapping``)
    preset: str
    game: str | None  # the id of the room's current or last game
    window_ms: int | None  # the decision window, while a game is played
    waits_for: int | None  # the seat whose slow link widens it
    rematch_by: int | None = None  # in the lobby after a game, the seat that asked for the rematch
    host_seat: int | None = None  # the seat the host holds (None: the host watches)

    def to_json(self) -> Doc:
        return {
            "code": self.code,
            "phase": self.phase,
            "public": self.public,
            "standins": self.standins,
            "pausable": self.pausable,
            "seats": [seat.to_json() for seat in self.seats],
            "rules": self.rules,
            "preset": self.preset,
            "game": self.game,
            "window_ms": self.window_ms,
            "waits_for": self.waits_for,
            "rematch_by": self.rematch_by,
            "host_seat": self.host_seat,
        }

    @classmethod
    def from_json(cls, doc: object) -> RoomView:
        r = _Fields(doc, "room", cls)
        return cls(
            r.text("code"),
            r.enum("phase", Phase),
            r.flag("public"),
            r.flag("standins"),
            r.flag("pausable"),
            r.items("seats", SeatView.from_json),
            r.doc("rules"),
            r.text("preset"),
            r.optional("game", _text),
            r.optional("window_ms", _int),
            r.optional("waits_for", _int),
            r.optional("rematch_by", _int),
            r.optional("host_seat", _int),
        )


@dataclass(frozen=True, slots=True)
class EventItem:
    """A numbered game event, as everyone at the table may see it (face-down cards are not named)."""

    seq: int  # numbered per room, across its games
    game: int  # the room's game number
    t: int  # the game's time, in ms
    event: Doc  # ``engine.events``' document of the event
    # With a wrong slap, ``table.SlapSeen``'s document: the card it reacted to, the pile it landed on, and the
    # patterns the pile showed at that card and the card that covered them when it came too late; else None.
    seen: Doc | None = None

    def to_json(self) -> Doc:
        return {"seq": self.seq, "game": self.game, "t": self.t, "event": self.event, "seen": self.seen}

    @classmethod
    def from_json(cls, doc: object) -> EventItem:
        r = _Fields(doc, "event item", cls)
        return cls(r.number("seq"), r.number("game"), r.number("t"), r.doc("event"), r.optional("seen", _doc))


@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to ``hello``: the whole room as this page may see it."""

    TYPE: ClassVar[Out] = Out.WELCOME
    v: int
    room: RoomView
    yours: tuple[int, ...]  # the seats this page's token holds
    host: bool
    seq: int  # the number of the last event
    missed: int | None  # how many events follow for a page that reconnected; None: start from this state
    state: Doc  # the table, or {} before the first game
    summary: Doc | None  # the last game's, once it is over

    def to_json(self) -> Doc:
        return {
            "type": self.TYPE,
            "v": self.v,
            "room": self.room.to_json(),
            "yours": list(self.yours),
            "host": self.host,
            "seq": self.seq,
            "missed": self.missed,
            "state": self.state,
            "summary": self.summary,
        }

    @classmethod
    def from_json(cls, doc: object) -> Welcome:
        r = _Fields(doc, cls.TYPE, cls)
        return cls(
            r.number("v"),
            RoomView.from_json(r.get("room")),
            r.items("yours", _int),
            r.flag("host"),
            r.number("seq"),
            r.optional("missed", _int),
            r.doc("state"),
            r.optional("summary", _doc),
        )


@dataclass(frozen=True, slots=True)
class Seated:
    """The seats this page holds now, and the token that holds them (None: it watches)."""

    TYPE: ClassVar[Out] = Out.SEATED
    seats: tuple[int, ...]
    token: str | None

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "seats": list(self.seats), "token": self.token}

    @classmethod
    def from_json(cls, doc: object) -> Seated:
        r = _Fields(doc, cls.TYPE, cls)
        return cls(r.items("seats", _int), r.optional("token", _text))


@dataclass(frozen=True, slots=True)
class Lobby:
    """The room changed: seats, rules, phase, or who is connected."""

    TYPE: ClassVar[Out] = Out.LOBBY
    room: RoomView

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "room": self.room.to_json()}

    @classmethod
    def from_json(cls, doc: object) -> Lobby:
        return cls(RoomView.from_json(_Fields(doc, cls.TYPE, cls).get("room")))


@dataclass(frozen=True, slots=True)
class Events:
    """Numbered game events, and the table's state after them."""

    TYPE: ClassVar[Out] = Out.EVENTS
    items: tuple[EventItem, ...]
    state: Doc

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "items": [item.to_json() for item in self.items], "state": self.state}

    @classmethod
    def from_json(cls, doc: object) -> Events:
        r = _Fields(doc, cls.TYPE, cls)
        return cls(r.items("items", EventItem.from_json), r.doc("state"))


@dataclass(frozen=True, slots=True)
class StateMsg:
    """The whole state, for a page too far behind for the events it missed (or a table just dealt)."""

    TYPE: ClassVar[Out] = Out.STATE
    seq: int
    state: Doc
    room: RoomView

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "seq": self.seq, "state": self.state, "room": self.room.to_json()}

    @classmethod
    def from_json(cls, doc: object) -> StateMsg:
        r = _Fields(doc, cls.TYPE, cls)
        return cls(r.number("seq"), r.doc("state"), RoomView.from_json(r.get("room")))


@dataclass(frozen=True, slots=True)
class RejectedMsg:
    """An input that was not taken: a code for the page's texts, words for the log, the seat the text names."""

    TYPE: ClassVar[Out] = Out.REJECTED
    code: Refusal | RejectCode
    reason: str
    seat: int | None

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "code": self.code, "reason": self.reason, "seat": self.seat}

    @classmethod
    def from_json(cls, doc: object) -> RejectedMsg:
        r = _Fields(doc, cls.TYPE, cls)
        return cls(r.code("code"), r.text("reason"), r.optional("seat", _int))


@dataclass(frozen=True, slots=True)
class ErrorMsg:
    """A message that could not be read, or a limit reached: one line saying what was wrong."""

    TYPE: ClassVar[Out] = Out.ERROR
    message: str

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "message": self.message}

    @classmethod
    def from_json(cls, doc: object) -> ErrorMsg:
        return cls(_Fields(doc, cls.TYPE, cls).text("message"))


@dataclass(frozen=True, slots=True)
class Over:
    """The game ended: its summary (``rooms/summary.py``)."""

    TYPE: ClassVar[Out] = Out.OVER
    summary: Doc

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "summary": self.summary}

    @classmethod
    def from_json(cls, doc: object) -> Over:
        return cls(_Fields(doc, cls.TYPE, cls).doc("summary"))


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to a page's ``ping``."""

    TYPE: ClassVar[Out] = Out.PONG
    id: int

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "id": self.id}

    @classmethod
    def from_json(cls, doc: object) -> Pong:
        return cls(_Fields(doc, cls.TYPE, cls).number("id"))


@dataclass(frozen=True, slots=True)
class Probe:
    """Sent every two seconds; the page answers ``echo`` with the same id."""

    TYPE: ClassVar[Out] = Out.PROBE
    id: int

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "id": self.id}

    @classmethod
    def from_json(cls, doc: object) -> Probe:
        return cls(_Fields(doc, cls.TYPE, cls).number("id"))


@dataclass(frozen=True, slots=True)
class Latency:
    """Only the measured delays moved: each seat's (None where nothing is measured), the window, whom it waits for."""

    TYPE: ClassVar[Out] = Out.LATENCY
    seats: tuple[int | None, ...]
    window_ms: int | None
    waits_for: int | None

    def to_json(self) -> Doc:
        return {
            "type": self.TYPE,
            "seats": list(self.seats),
            "window_ms": self.window_ms,
            "waits_for": self.waits_for,
        }

    @classmethod
    def from_json(cls, doc: object) -> Latency:
        r = _Fields(doc, cls.TYPE, cls)
        return cls(r.items("seats", _optional_int), r.optional("window_ms", _int), r.optional("waits_for", _int))


@dataclass(frozen=True, slots=True)
class ReactionMsg:
    """A player's quick reaction, for every page to show by their seat for a moment (kept nowhere, never resent)."""

    TYPE: ClassVar[Out] = Out.REACTION
    seat: int
    reaction: Reaction

    def to_json(self) -> Doc:
        return {"type": self.TYPE, "seat": self.seat, "reaction": self.reaction}

    @classmethod
    def from_json(cls, doc: object) -> ReactionMsg:
        r = _Fields(doc, cls.TYPE, cls)
        return cls(r.number("seat"), r.enum("reaction", Reaction))


ServerMessage = (
    Welcome | Seated | Lobby | Events | StateMsg | RejectedMsg | ErrorMsg | Over | Pong | Probe | Latency | ReactionMsg
)
SERVER_MESSAGES: dict[Out, Callable[[object], ServerMessage]] = {
    cls.TYPE: cls.from_json
    for cls in (
        Welcome,
        Seated,
        Lobby,
        Events,
        StateMsg,
        RejectedMsg,
        ErrorMsg,
        Over,
        Pong,
        Probe,
        Latency,
        ReactionMsg,
    )
}


def server_from_json(doc: object) -> ServerMessage:
    """A server message read back from its JSON document, every field checked (the tests, and any client)."""
    kind = doc.get("type") if isinstance(doc, dict) else None
    reader = SERVER_MESSAGES.get(Out(kind)) if isinstance(kind, str) and kind in _OUT else None
    if reader is None:
        raise BadMessage(f"unknown server message {json.dumps(kind)[:40]}: expected one of {', '.join(Out)}")
    return reader(doc)


_OUT = frozenset(Out)


# ---------------------------------------------------------------------- reading documents back


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMessage(f"expected a whole number, got {json.dumps(value)[:40]}")
    return value


def _optional_int(value: object) -> int | None:
    return None if value is None else _int(value)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise BadMessage(f"expected text, got {json.dumps(value)[:40]}")
    return value


def _doc(value: object) -> Doc:
    if not isinstance(value, dict):
        raise BadMessage(f"expected an object, got {json.dumps(value)[:40]}")
    return value


class _Fields:
    """One document's fields, read by name: exactly the fields its class has, each of the right kind."""

    def __init__(self, doc: object, what: str, cls: type[Any]) -> None:
        if not isinstance(doc, Mapping):
            raise BadMessage(f"{what} must be an object, got {json.dumps(doc)[:40]}")
        names = {f.name for f in fields(cls)}
        keys = set(doc) - {"type"}
        if keys != names:
            missing, extra = sorted(names - keys), sorted(keys - names)
            raise BadMessage(f"{what}: missing {missing or 'nothing'}, unknown {extra or 'nothing'}")
        self._values, self.what = doc, what

    def get(self, name: str) -> object:
        return self._values[name]

    def _read(self, name: str, reader: Callable[[object], T]) -> T:
        try:
            return reader(self._values[name])
        except BadMessage as exc:
            raise BadMessage(f"{self.what}.{name}: {exc}") from None

    def number(self, name: str) -> int:
        return self._read(name, _int)

    def text(self, name: str) -> str:
        return self._read(name, _text)

    def doc(self, name: str) -> Doc:
        return self._read(name, _doc)

    def flag(self, name: str) -> bool:
        return self._read(name, _flag)

    def optional(self, name: str, reader: Callable[[object], T]) -> T | None:
        return None if self._values[name] is None else self._read(name, reader)

    def items(self, name: str, reader: Callable[[object], T]) -> tuple[T, ...]:
        return self._read(name, lambda value: _list(value, reader))

    def enum(self, name: str, kind: type[E]) -> E:
        return self._read(name, lambda value: _member(value, kind))

    def code(self, name: str) -> Refusal | RejectCode:
        value = self._values[name]
        return self.enum(name, Refusal) if value in _REFUSALS else self.enum(name, RejectCode)


def _list(value: object, reader: Callable[[object], T]) -> tuple[T, ...]:
    if not isinstance(value, list):
        raise BadMessage(f"expected a list, got {json.dumps(value)[:40]}")
    return tuple(reader(item) for item in value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise BadMessage(f"expected true or false, got {json.dumps(value)[:40]}")
    return value


def _member(value: object, kind: type[E]) -> E:
    for member in kind:
        if member.value == value:
            return member
    raise BadMessage(f"{json.dumps(value)[:40]} is not a {kind.__name__}: expected one of {', '.join(kind)}")


_REFUSALS = frozenset(Refusal)
