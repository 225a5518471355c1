"""Page to server: every message a page may send, read and checked by :func:`parse_client`.

Every message from a page is untrusted: :func:`parse_client` checks size, shape and every field before
anything else sees it, and answers what was wrong with a :class:`~ratscrew.errors.BadMessage`. Each message
also has ``to_json``, the document a page sends for it, so every message round-trips (the tests and the
simulated pages write them that way).

>>> parse_client('{"type": "slap", "seat": 1, "card": 12, "rt": 310}')
SlapMsg(seat=1, card=12, rt=310)
>>> parse_client('{"type": "seats", "count": 13}')
Traceback (most recent call last):
...
ratscrew.errors.BadMessage: count must be a whole number from 2 to 12, got 13
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ratscrew.errors import BadMessage
from ratscrew.names import clean_name
from ratscrew.rooms.wire.codes import MAX_MESSAGE_BYTES, MAX_SEAT, MAX_TOKEN, VERSION, In, Reaction
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS
from ratscrew.shapes import document

_BIG = 1_000_000_000
MAX_REACTION_MS = 600_000


class _Sent:
    """What every page message has: the document a page sends for it (read back only by ``parse_client``)."""

    __slots__ = ()

    def to_json(self) -> dict[str, object]:
        return document(self)


@dataclass(frozen=True, slots=True)
class Hello(_Sent):
    """The first message of every connection: the protocol version, the seat token this page holds (if any),
    and the last event number it saw (when it reconnects), so it is sent exactly what it missed."""

    TYPE: ClassVar[In] = In.HELLO
    v: int
    token: str | None
    since: int  # -1: a new page


@dataclass(frozen=True, slots=True)
class Ping(_Sent):
    """Answered at once with ``pong``: the page's own view of its delay."""

    TYPE: ClassVar[In] = In.PING
    id: int


@dataclass(frozen=True, slots=True)
class Echo(_Sent):
    """The page's answer to the server's ``probe``: proof the page is there, and a round trip for the record."""

    TYPE: ClassVar[In] = In.ECHO
    id: int


@dataclass(frozen=True, slots=True)
class FlipMsg(_Sent):
    TYPE: ClassVar[In] = In.FLIP
    seat: int


@dataclass(frozen=True, slots=True)
class SlapMsg(_Sent):
    """``card``: the number of the card the slap reacts to (the pile the player saw); ``rt``: the reaction time
    the page measured from that card's first paint."""

    TYPE: ClassVar[In] = In.SLAP
    seat: int
    card: int | None
    rt: int | None  # reaction time the page measured, in ms


@dataclass(frozen=True, slots=True)
class Resync(_Sent):
    """Send again every event after number ``since``."""

    TYPE: ClassVar[In] = In.RESYNC
    since: int


@dataclass(frozen=True, slots=True)
class Sit(_Sent):
    """Take an empty seat."""

    TYPE: ClassVar[In] = In.SIT
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class Stand(_Sent):
    """Leave the seat this page holds."""

    TYPE: ClassVar[In] = In.STAND


@dataclass(frozen=True, slots=True)
class Ready(_Sent):
    TYPE: ClassVar[In] = In.READY
    ready: bool


@dataclass(frozen=True, slots=True)
class SetSeats(_Sent):
    """The host's: how many seats the table has."""

    TYPE: ClassVar[In] = In.SEATS
    count: int


@dataclass(frozen=True, slots=True)
class SetBot(_Sent):
    """The host's: a computer at ``level`` in an empty seat (``level`` None empties the seat again)."""

    TYPE: ClassVar[In] = In.BOT
    seat: int
    level: str | None
    name: str = ""  # in the host's language; empty: "Computer N"


@dataclass(frozen=True, slots=True)
class SetRules(_Sent):
    """The host's: the rules to play (checked by the rules reader when applied)."""

    TYPE: ClassVar[In] = In.RULES
    rules: object


@dataclass(frozen=True, slots=True)
class SetVisibility(_Sent):
    """The host's: whether the room is listed in the open lobby."""

    TYPE: ClassVar[In] = In.VISIBILITY
    public: bool


@dataclass(frozen=True, slots=True)
class Start(_Sent):
    """The host's: deal, once every seat is taken and every person is ready."""

    TYPE: ClassVar[In] = In.START


@dataclass(frozen=True, slots=True)
class Rematch(_Sent):
    """After a game, a player brings everyone back to the lobby."""

    TYPE: ClassVar[In] = In.REMATCH


@dataclass(frozen=True, slots=True)
class Pause(_Sent):
    """Stop (or restart) the table's clock: only in a game against the computer or two on one screen."""

    TYPE: ClassVar[In] = In.PAUSE
    paused: bool


@dataclass(frozen=True, slots=True)
class React(_Sent):
    """A quick reaction from a player, shown by their seat on every page: one of a fixed few, never free text."""

    TYPE: ClassVar[In] = In.REACT
    reaction: Reaction


ClientMessage = (
    Hello
    | Ping
    | Echo
    | FlipMsg
    | SlapMsg
    | Resync
    | Sit
    | Stand
    | Ready
    | SetSeats
    | SetBot
    | SetRules
    | SetVisibility
    | Start
    | Rematch
    | Pause
    | React
)
TYPES = tuple(kind.value for kind in In)


def parse_client(raw: str | bytes) -> ClientMessage:
    """One message from a page, checked; raises BadMessage saying what was wrong and what was expected."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too large ({len(raw)} bytes): at most {MAX_MESSAGE_BYTES} are accepted")
    try:
        doc = json.loads(raw, parse_int=_small_int, parse_constant=_no_constant)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise BadMessage('message is not JSON: expected an object such as {"type": "flip", "seat": 0}') from None
    except BadMessage:
        raise
    if not isinstance(doc, dict):
        raise BadMessage('message must be a JSON object with a "type"')
    kind = doc.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise BadMessage(f"unknown message type {json.dumps(kind)[:40]}: expected one of {', '.join(TYPES)}")
    return reader(doc)


def _small_int(text: str) -> int:
    # Python refuses to read integers of more than 4,300 digits with an internal message; nothing here needs
    # more than ten.
    if len(text.lstrip("-")) > 12:
        raise BadMessage(f"number too large ({len(text)} digits): expected a whole number below {_BIG}")
    return int(text)


def _no_constant(text: str) -> object:
    raise BadMessage(f"{text} is not a number: expected a whole number")


def _int(doc: dict[str, Any], name: str, *, minimum: int = 0, maximum: int = _BIG) -> int:
    value = doc.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise BadMessage(f"{name} must be a whole number from {minimum} to {maximum}, got {json.dumps(value)[:40]}")
    return value


def _optional_int(doc: dict[str, Any], name: str, *, maximum: int = _BIG) -> int | None:
    return None if doc.get(name) is None else _int(doc, name, maximum=maximum)


def _seat(doc: dict[str, Any]) -> int:
    return _int(doc, "seat", maximum=MAX_SEAT)


def _bool(doc: dict[str, Any], name: str) -> bool:
    value = doc.get(name)
    if not isinstance(value, bool):
        raise BadMessage(f"{name} must be true or false, got {json.dumps(value)[:40]}")
    return value


def _token(doc: dict[str, Any]) -> str | None:
    value = doc.get("token")
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_TOKEN or not value.isascii():
        raise BadMessage("token must be the text this server gave you")
    return value


def _hello(doc: dict[str, Any]) -> Hello:
    version = _int(doc, "v", maximum=1000)
    if version != VERSION:
        raise BadMessage(f"protocol version {version} is not spoken here: expected {VERSION} (reload the page)")
    return Hello(version, _token(doc), -1 if doc.get("since") is None else _int(doc, "since", minimum=-1))


def _reaction(doc: dict[str, Any]) -> Reaction:
    value = doc.get("reaction")
    for reaction in Reaction:
        if reaction.value == value:
            return reaction
    raise BadMessage(f"reaction must be one of {', '.join(Reaction)}, got {json.dumps(value)[:40]}")


def _level(doc: dict[str, Any]) -> str | None:
    value = doc.get("level")
    if value is not None and (not isinstance(value, str) or len(value) > 40):
        raise BadMessage(f"level must be a level name or null, got {json.dumps(value)[:40]}")
    return value


_READERS: dict[str, Callable[[dict[str, Any]], ClientMessage]] = {
    In.HELLO: _hello,
    In.PING: lambda d: Ping(_int(d, "id")),
    In.ECHO: lambda d: Echo(_int(d, "id")),
    In.FLIP: lambda d: FlipMsg(_seat(d)),
    In.SLAP: lambda d: SlapMsg(_seat(d), _optional_int(d, "card"), _optional_int(d, "rt", maximum=MAX_REACTION_MS)),
    In.RESYNC: lambda d: Resync(_int(d, "since", minimum=-1)),
    In.SIT: lambda d: Sit(_seat(d), clean_name(d.get("name"), "", error=BadMessage)),
    In.STAND: lambda d: Stand(),
    In.READY: lambda d: Ready(_bool(d, "ready")),
    In.SEATS: lambda d: SetSeats(_int(d, "count", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)),
    In.BOT: lambda d: SetBot(_seat(d), _level(d), clean_name(d.get("name"), "", error=BadMessage)),
    In.RULES: lambda d: SetRules(d.get("rules")),
    In.VISIBILITY: lambda d: SetVisibility(_bool(d, "public")),
    In.START: lambda d: Start(),
    In.REMATCH: lambda d: Rematch(),
    In.PAUSE: lambda d: Pause(_bool(d, "paused")),
    In.REACT: lambda d: React(_reaction(d)),
}
