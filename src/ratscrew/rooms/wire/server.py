"""Server to page: every message a room sends, each a frozen dataclass written and read by its type hints.

The room builds these values and encodes each once as it leaves (``to_json``); :func:`server_from_json` reads
one back, checking every field (``ratscrew.shapes``), so the golden corpus (``tests/golden/messages.json``)
round-trips through the classes exactly, and the page's types are rendered from the same classes
(``web/typescript.py``). Two things a message carries keep the shape another module gives them: the rules
(``rules.io.rules_to_mapping``) and each game event as everyone at the table may see it (``engine.events``,
with face-down cards left unnamed: ``rooms/summary.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar, NewType, get_args

from ratscrew.errors import BadMessage
from ratscrew.rooms.wire.codes import Out, Phase, Reaction, Refusal, SeatKind
from ratscrew.rooms.wire.state import RoomState
from ratscrew.rooms.wire.summary import GameSummary
from ratscrew.rules.io import RulesDoc
from ratscrew.shapes import Shape
from ratscrew.table.seen import SlapSeen
from ratscrew.table.table import RejectCode

# A game event as everyone at the table may see it: ``engine.events``' document of it, cards that lie face
# down left unnamed (null).
EventDoc = NewType("EventDoc", dict[str, object])


@dataclass(frozen=True, slots=True)
class SeatView(Shape):
    """One seat as every page sees it."""

    kind: SeatKind
    name: str
    level: str | None  # a computer's level
    ready: bool
    connected: bool  # a person's page is open (a computer always is)
    latency_ms: int | None  # the measured one-way delay of its best page
    standin: bool  # a computer holds the seat while its person is away


@dataclass(frozen=True, slots=True)
class RoomView(Shape):
    """The room as pages see it: its lobby, and the decision window while a game is played."""

    code: str
    phase: Phase
    public: bool
    standins: bool  # a computer may hold a dropped player's seat
    pausable: bool
    seats: tuple[SeatView, ...]
    rules: RulesDoc  # the whole rule set
    preset: str
    game: str | None  # the id of the room's current or last game ("ABCD", "ABCD-2" for a rematch)
    window_ms: int | None  # the decision window, while a game is played
    waits_for: int | None  # the seat whose slow link widens it
    rematch_by: int | None = None  # in the lobby after a game, the seat that asked for the rematch
    host_seat: int | None = None  # the seat the host holds (None: the host watches)
    # Since protocol 6: a room the Play-now matchmaker made for its table (it starts once everyone is there,
    # with no host and no lobby settings), and whether its game counts for the ratings.
    matched: bool = False
    rated: bool = False


@dataclass(frozen=True, slots=True)
class EventItem(Shape):
    """A numbered game event, as everyone at the table may see it (face-down cards are not named)."""

    seq: int  # numbered per room, across its games
    game: int  # the room's game number
    t: int  # the game's time, in ms
    event: EventDoc
    # With a wrong slap, what it reacted to: the card, the pile it landed on, and the patterns the pile
    # showed at that card and the card that covered them when it came too late; else None.
    seen: SlapSeen | None = None


@dataclass(frozen=True, slots=True)
class RatingChange(Shape):
    """What a rated game did to one signed-in player's rating, as everyone at the table sees it: the numbers
    people read (never an account's id), by seat."""

    seat: int
    before: int
    after: int
    provisional: bool  # after this game
    left: bool = False  # a stand-in played this seat for a while after its person left: ranked last


@dataclass(frozen=True, slots=True)
class Welcome(Shape):
    """The answer to ``hello``: the whole room as this page may see it."""

    TYPE: ClassVar[Out] = Out.WELCOME
    v: int
    room: RoomView
    yours: tuple[int, ...]  # the seats this page's token holds
    host: bool
    seq: int  # the number of the last event
    missed: int | None  # how many events follow for a page that reconnected; None: start from this state
    state: RoomState  # the table, or {} before the first game
    summary: GameSummary | None  # the last game's, once it is over
    rated: tuple[RatingChange, ...] | None = None  # since protocol 6: the last game's rating changes, once recorded


@dataclass(frozen=True, slots=True)
class Seated(Shape):
    """The seats this page holds now, and the token that holds them (None: it watches)."""

    TYPE: ClassVar[Out] = Out.SEATED
    seats: tuple[int, ...]
    token: str | None


@dataclass(frozen=True, slots=True)
class Lobby(Shape):
    """The room changed: seats, rules, phase, or who is connected."""

    TYPE: ClassVar[Out] = Out.LOBBY
    room: RoomView


@dataclass(frozen=True, slots=True)
class Events(Shape):
    """Numbered game events, and the table's state after them."""

    TYPE: ClassVar[Out] = Out.EVENTS
    items: tuple[EventItem, ...]
    state: RoomState


@dataclass(frozen=True, slots=True)
class StateMsg(Shape):
    """The whole state, for a page too far behind for the events it missed (or a table just dealt)."""

    TYPE: ClassVar[Out] = Out.STATE
    seq: int
    state: RoomState
    room: RoomView


@dataclass(frozen=True, slots=True)
class RejectedMsg(Shape):
    """An input that was not taken: a code for the page's texts, words for the log, the seat the text names."""

    TYPE: ClassVar[Out] = Out.REJECTED
    code: Refusal | RejectCode  # the room's refusal, or the table's
    reason: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class ErrorMsg(Shape):
    """A message that could not be read, or a limit reached: one line saying what was wrong."""

    TYPE: ClassVar[Out] = Out.ERROR
    message: str


@dataclass(frozen=True, slots=True)
class Over(Shape):
    """The game ended: its summary."""

    TYPE: ClassVar[Out] = Out.OVER
    summary: GameSummary


@dataclass(frozen=True, slots=True)
class Pong(Shape):
    """The answer to a page's ``ping``."""

    TYPE: ClassVar[Out] = Out.PONG
    id: int


@dataclass(frozen=True, slots=True)
class Probe(Shape):
    """Sent every two seconds; the page answers ``echo`` with the same id."""

    TYPE: ClassVar[Out] = Out.PROBE
    id: int


@dataclass(frozen=True, slots=True)
class Latency(Shape):
    """Only the measured delays moved: each seat's (None where nothing is measured), the window, whom it waits for."""

    TYPE: ClassVar[Out] = Out.LATENCY
    seats: tuple[int | None, ...]
    window_ms: int | None
    waits_for: int | None


@dataclass(frozen=True, slots=True)
class ReactionMsg(Shape):
    """A player's quick reaction, for every page to show by their seat for a moment (kept nowhere, never resent)."""

    TYPE: ClassVar[Out] = Out.REACTION
    seat: int  # the sender's, where every page shows it
    reaction: Reaction


@dataclass(frozen=True, slots=True)
class Rated(Shape):
    """A rated game was recorded: each signed-in player's rating before and after it (sent a moment after
    ``over``, which it belongs with)."""

    TYPE: ClassVar[Out] = Out.RATED
    game: str
    changes: tuple[RatingChange, ...]


ServerMessage = (
    Welcome
    | Seated
    | Lobby
    | Events
    | StateMsg
    | RejectedMsg
    | ErrorMsg
    | Over
    | Pong
    | Probe
    | Latency
    | ReactionMsg
    | Rated
)
SERVER_MESSAGES: dict[str, type[ServerMessage]] = {cls.TYPE: cls for cls in get_args(ServerMessage)}


def server_from_json(doc: object) -> ServerMessage:
    """A server message read back from its JSON document, every field checked (the tests, and any client)."""
    kind = doc.get("type") if isinstance(doc, dict) else None
    cls = SERVER_MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadMessage(f"unknown server message {json.dumps(kind)[:40]}: expected one of {', '.join(Out)}")
    return cls.from_json(doc, error=BadMessage)
