"""The websocket protocol of a room: one closed set of typed messages each way, with a version.

Every message from a page is untrusted: :func:`parse_client` checks size, shape and every field before
anything else sees it, and answers what was wrong with a :class:`~ratscrew.errors.BadMessage`.

Page to server (JSON objects, at most ``MAX_MESSAGE_BYTES``); the first must be ``hello``:

- ``hello {v, token?, since?}``: protocol version, the seat token this page holds (if any), and the last
  event number it saw (when it reconnects), so it is sent exactly what it missed.
- ``ping {id}``: answered at once with ``pong {id}`` (the page's own view of its delay).
- ``echo {id}``: the answer to the server's ``probe {id}``, sent every two seconds: it keeps the socket alive
  and its round trip goes into the record, but bounds nothing (the server times the link itself with
  websocket pings, which the browser answers, not the page).
- ``flip {seat}``, ``slap {seat, card, rt}``: ``card`` is the number of the card the slap reacts to (the
  pile the player saw) and ``rt`` the reaction time in ms the page measured from that card's first paint.
- ``resync {since}``: send again every event after number ``since``.
- Lobby: ``sit {seat, name}`` takes an empty seat, ``stand`` leaves it, ``ready {ready}``; the host's
  ``seats {count}``, ``bot {seat, level, name?}`` (``level`` null empties the seat), ``rules {rules}``,
  ``visibility {public}``, ``start``; after a game, ``rematch`` brings everyone back to the lobby.
- ``pause {paused}``: a player of a game against the computer (or two on one screen) stops the table's
  clock, or starts it again; other rooms refuse it.

Server to page: ``welcome`` (the whole room as this page may see it), ``seated`` (a seat and its token),
``lobby`` (the lobby changed; ``window_ms`` is the decision window and ``waits_for`` the seat whose slow link
widens it, or null), ``latency {seats, window_ms, waits_for}`` (only the measured delays moved: each seat's,
at most every five seconds), ``events`` (numbered game events and the state after them), ``state`` (the
whole state, when a page is too far behind for the events it missed), ``rejected`` (an input that was not
taken, and why), ``error`` (a message that could not be read), ``over`` (the end-of-game summary), ``pong``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ratscrew.errors import BadMessage

VERSION = 4  # 4: lobby and latency say which seat's link the table waits for; races show echo_rtt, tcp_rtt
MAX_MESSAGE_BYTES = 2048
MAX_NAME = 24
MAX_TOKEN = 64
_BIG = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Hello:
    v: int
    token: str | None
    since: int  # -1: a new page


@dataclass(frozen=True, slots=True)
class Ping:
    id: int


@dataclass(frozen=True, slots=True)
class Echo:
    """The page's answer to the server's ``probe``: proof the page is there, and a round trip for the record."""

    id: int


@dataclass(frozen=True, slots=True)
class FlipMsg:
    seat: int


@dataclass(frozen=True, slots=True)
class SlapMsg:
    seat: int
    card: int | None
    rt: int | None  # reaction time the page measured, in ms


@dataclass(frozen=True, slots=True)
class Resync:
    since: int


@dataclass(frozen=True, slots=True)
class Sit:
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class Stand:
    pass


@dataclass(frozen=True, slots=True)
class Ready:
    ready: bool


@dataclass(frozen=True, slots=True)
class SetSeats:
    count: int


@dataclass(frozen=True, slots=True)
class SetBot:
    seat: int
    level: str | None
    name: str = ""  # in the host's language; empty: "Computer N"


@dataclass(frozen=True, slots=True)
class SetRules:
    rules: object  # checked by the rules reader when applied


@dataclass(frozen=True, slots=True)
class SetVisibility:
    public: bool


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Rematch:
    pass


@dataclass(frozen=True, slots=True)
class Pause:
    """Stop (or restart) the table's clock: only in a game against the computer or two on one screen."""

    paused: bool


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
)
TYPES = (
    "hello",
    "ping",
    "echo",
    "flip",
    "slap",
    "resync",
    "sit",
    "stand",
    "ready",
    "seats",
    "bot",
    "rules",
    "visibility",
    "start",
    "rematch",
    "pause",
)


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
    message: ClientMessage = reader(doc)
    return message


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


def _bool(doc: dict[str, Any], name: str) -> bool:
    value = doc.get(name)
    if not isinstance(value, bool):
        raise BadMessage(f"{name} must be true or false, got {json.dumps(value)[:40]}")
    return value


def clean_name(value: object, fallback: str) -> str:
    """A display name: text, control characters removed, at most MAX_NAME characters (pages escape it)."""
    if value is None:
        return fallback
    if not isinstance(value, str):
        raise BadMessage(f"name must be text, got {json.dumps(value)[:40]}")
    name = "".join(ch for ch in value if ch.isprintable()).strip()[:MAX_NAME]
    return name or fallback


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


def _level(doc: dict[str, Any]) -> str | None:
    value = doc.get("level")
    if value is not None and (not isinstance(value, str) or len(value) > 40):
        raise BadMessage(f"level must be a level name or null, got {json.dumps(value)[:40]}")
    return value


_READERS: dict[str, Any] = {
    "hello": _hello,
    "ping": lambda d: Ping(_int(d, "id")),
    "echo": lambda d: Echo(_int(d, "id")),
    "flip": lambda d: FlipMsg(_int(d, "seat", maximum=11)),
    "slap": lambda d: SlapMsg(
        _int(d, "seat", maximum=11), _optional_int(d, "card"), _optional_int(d, "rt", maximum=600_000)
    ),
    "resync": lambda d: Resync(_int(d, "since", minimum=-1)),
    "sit": lambda d: Sit(_int(d, "seat", maximum=11), clean_name(d.get("name"), "")),
    "stand": lambda d: Stand(),
    "ready": lambda d: Ready(_bool(d, "ready")),
    "seats": lambda d: SetSeats(_int(d, "count", minimum=2, maximum=12)),
    "bot": lambda d: SetBot(_int(d, "seat", maximum=11), _level(d), clean_name(d.get("name"), "")),
    "rules": lambda d: SetRules(d.get("rules")),
    "visibility": lambda d: SetVisibility(_bool(d, "public")),
    "start": lambda d: Start(),
    "rematch": lambda d: Rematch(),
    "pause": lambda d: Pause(_bool(d, "paused")),
}
