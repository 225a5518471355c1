"""The websocket protocol of a room: one closed set of typed messages each way, with a version.

Pages send JSON objects of at most ``MAX_MESSAGE_BYTES``, the first of them ``hello``; :func:`parse_client`
reads each into one of the classes of ``client.py`` (or says what was wrong). The server sends the classes
of ``server.py``, each encoded once as it leaves; what they carry of the table is in ``state.py`` and a
game's summary in ``summary.py``. Every class is written and read by its type hints (``ratscrew.shapes``),
and the page's types are rendered from the same classes (``web/typescript.py``). ``codes.py`` holds the
version and every code a message carries. ``docs/vocabulary.md`` lists every message with its fields,
``tests/golden/messages.json`` holds an example of each, and ``tests/rooms/test_rooms_wire.py`` holds those, the
classes and the page's ``PROTOCOL`` together: a message, field, code or version changed in one place and
not the others fails there.

Page to server:

- ``hello {v, token, since}``: the protocol version, the seat token this page holds (if any), and the last
  event number it saw (when it reconnects), so it is sent exactly what it missed.
- ``ping {id}``: answered at once with ``pong {id}`` (the page's own view of its delay).
- ``echo {id}``: the answer to the server's ``probe {id}``, sent every two seconds: it keeps the socket alive
  and its round trip goes into the record, but bounds nothing (the server times the link itself with
  websocket pings, which the browser answers, not the page).
- ``flip {seat}``, ``slap {seat, card, rt}``: ``card`` is the number of the card the slap reacts to (the
  pile the player saw) and ``rt`` the reaction time in ms the page measured from that card's first paint.
- ``resync {since}``: send again every event after number ``since``.
- Lobby: ``sit {seat, name}`` takes an empty seat, ``stand`` leaves it, ``ready {ready}``; the host's
  ``seats {count}``, ``bot {seat, level, name}`` (``level`` null empties the seat), ``rules {rules}``,
  ``visibility {public}``, ``start``; after a game, ``rematch`` brings everyone back to the lobby.
- ``pause {paused}``: a player of a game against the computer (or two on one screen) stops the table's
  clock, or starts it again; other rooms refuse it.
- ``react {reaction}``: a player's quick reaction, one of the few ``Reaction`` codes (never free text). Only
  players send them (a watcher has no seat to show one by); the room passes on a few at once, then one every
  few seconds per player, and refuses the rest (``too_fast``) while the game goes on.

Server to page: ``welcome`` (the whole room as this page may see it), ``seated`` (a seat and its token),
``lobby`` (the lobby changed; ``window_ms`` is the decision window and ``waits_for`` the seat whose slow link
widens it, or null), ``latency {seats, window_ms, waits_for}`` (only the measured delays moved: each seat's,
at most every five seconds), ``events`` (numbered game events and the state after them), ``state`` (the
whole state, when a page is too far behind for the events it missed), ``rejected`` (an input that was not
taken, and why), ``error`` (a message that could not be read), ``over`` (the end-of-game summary), ``pong``,
``probe``, ``reaction {seat, reaction}`` (a player's quick reaction, for every page, watchers' too, to show
by that seat for a moment; kept nowhere), ``rated`` (a rated game's rating changes, once recorded). A socket
the server closes says why with a :class:`CloseCode`.
"""

from ratscrew.rooms.wire.client import (
    TYPES,
    ClientMessage,
    Echo,
    FlipMsg,
    Hello,
    Pause,
    Ping,
    React,
    Ready,
    Rematch,
    Resync,
    SetBot,
    SetRules,
    SetSeats,
    SetVisibility,
    Sit,
    SlapMsg,
    Stand,
    Start,
    parse_client,
)
from ratscrew.rooms.wire.codes import (
    MAX_MESSAGE_BYTES,
    MAX_NAME,
    MAX_SEAT,
    MAX_TOKEN,
    VERSION,
    CloseCode,
    In,
    Out,
    Phase,
    Reaction,
    Refusal,
    SeatKind,
)
from ratscrew.rooms.wire.server import (
    ErrorMsg,
    EventDoc,
    EventItem,
    Events,
    Latency,
    Lobby,
    Over,
    Pong,
    Probe,
    Rated,
    RatingChange,
    ReactionMsg,
    RejectedMsg,
    RoomView,
    Seated,
    SeatView,
    ServerMessage,
    StateMsg,
    Welcome,
    server_from_json,
)
from ratscrew.rooms.wire.state import NO_TABLE, GameView, NoTable, RoomState, TableState
from ratscrew.rooms.wire.summary import GameSummary, Race, RaceSlap, SummaryPlayer, Verdict

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_NAME",
    "MAX_SEAT",
    "MAX_TOKEN",
    "NO_TABLE",
    "TYPES",
    "VERSION",
    "ClientMessage",
    "CloseCode",
    "Echo",
    "ErrorMsg",
    "EventDoc",
    "EventItem",
    "Events",
    "FlipMsg",
    "GameSummary",
    "GameView",
    "Hello",
    "In",
    "Latency",
    "Lobby",
    "NoTable",
    "Out",
    "Over",
    "Pause",
    "Phase",
    "Ping",
    "Pong",
    "Probe",
    "Race",
    "RaceSlap",
    "Rated",
    "RatingChange",
    "React",
    "Reaction",
    "ReactionMsg",
    "Ready",
    "Refusal",
    "RejectedMsg",
    "Rematch",
    "Resync",
    "RoomState",
    "RoomView",
    "SeatKind",
    "SeatView",
    "Seated",
    "ServerMessage",
    "SetBot",
    "SetRules",
    "SetSeats",
    "SetVisibility",
    "Sit",
    "SlapMsg",
    "Stand",
    "Start",
    "StateMsg",
    "SummaryPlayer",
    "TableState",
    "Verdict",
    "Welcome",
    "parse_client",
    "server_from_json",
]
