"""Online rooms over HTTP and the websocket every live game's page talks to (``rooms/wire/`` is the protocol).

Every message is untrusted: it is size- and rate-limited here and parsed into a typed message before the
room's owner task sees it. A refused message gets an ``error`` answer and a log line; the room goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ratscrew.errors import BadMessage, BadRequest, NotFound, RatscrewError, TooMany, Unavailable, by_branch
from ratscrew.names import clean_name
from ratscrew.rooms import wire
from ratscrew.rooms.delivery import WAKE
from ratscrew.rooms.runner import LinkSample, OpenRoom, PageLink, RoomRunner, Rooms
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS
from ratscrew.shapes import Shape
from ratscrew.table.clock import Alarm, AlarmClock
from ratscrew.web.bodies import parse_rules, read_body
from ratscrew.web.games import creating, rooms_of
from ratscrew.web.lookups import client_of, found, limits_of, looks_up
from ratscrew.web.tally import Tally
from ratscrew.web.wslink import timer_of

log = logging.getLogger(__name__)

MESSAGES_PER_SECOND = 40
IDLE_SOCKET_MS = 60_000  # a page answers a probe every two seconds; one silent this long is gone
HELLO_WITHIN_MS = 10_000
LINK_EVERY_S = 2.0  # how often the server times each socket's link itself (the bound of every slap's credit)
# A room that cannot be saved just now is not gone: the page is sent away, and comes back later.
_CLOSE_CODES = {
    NotFound: wire.CloseCode.NO_ROOM,
    TooMany: wire.CloseCode.TOO_MANY,
    Unavailable: wire.CloseCode.SENT_AWAY,
}
_REFUSAL_REASONS = {NotFound: "no_room", TooMany: "too_many", Unavailable: "not_saving"}  # the metrics' names


@dataclass(frozen=True, slots=True)
class CreatedRoom(Shape):
    """``POST /api/rooms``: a new room, and the host's token for seat 0."""

    code: str
    token: str
    seat: int


@dataclass(frozen=True, slots=True)
class RoomList(Shape):
    """``GET /api/rooms``: the public rooms still in their lobby."""

    rooms: tuple[OpenRoom, ...]


@dataclass(frozen=True, slots=True)
class RoomInfo(Shape):
    """``GET /api/rooms/{code}``: whether a room by that code is there, and where it stands."""

    code: str
    phase: wire.Phase
    public: bool


async def create_room(request: Request) -> Response:
    doc: dict[str, Any] = await read_body(request, '{"public": false, "seats": 4, "name": "Ana"}')
    seats = doc.get("seats", 4)
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise BadRequest(f"seats must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}")
    public = doc.get("public", False)
    if not isinstance(public, bool):
        raise BadRequest("public must be true or false")
    standins = doc.get("standins", True)
    if not isinstance(standins, bool):
        raise BadRequest("standins must be true or false (may a computer hold a dropped player's seat?)")
    name = clean_name(doc.get("name"), "Player 1", error=BadRequest)
    rules = parse_rules(doc.get("rules", "standard"), seats=seats)
    async with creating(request) as grant:
        runner, token = rooms_of(request).create_room(
            seats=seats, rules=rules, name=name, public=public, standins=standins
        )
        grant.use()
    await runner.kept()  # the code is told once the room is in the journal
    return JSONResponse(CreatedRoom(runner.code, token, 0).to_json())


async def list_rooms(request: Request) -> Response:
    lobbies = request.app.state.lobbies  # every worker's (hosting/shared.py), else this server's own
    listed = await lobbies.listed() if lobbies is not None else rooms_of(request).open_lobbies()
    return JSONResponse(RoomList(tuple(listed)).to_json())


async def find_room(conn: HTTPConnection) -> RoomRunner:
    """The room of the code in the path, if the address has lookups left (limits/grants.py)."""
    rooms: Rooms = conn.app.state.rooms

    async def room() -> RoomRunner:
        return rooms.find(conn.path_params["code"])

    return await found(conn, room)


@looks_up
async def room_info(request: Request) -> Response:
    runner = await find_room(request)
    core = runner.core
    return JSONResponse(RoomInfo(core.code, core.phase, core.options.public).to_json())


def origin_allowed(ws: WebSocket) -> bool:
    """A browser says which page opens a socket: one from another site must not play in its visitors' name.
    Checked where ``origins`` is set (``ratscrew serve``): the page's own host, or one of ``origins``."""
    allowed: tuple[str, ...] | None = ws.app.state.origins
    origin = ws.headers.get("origin")
    if allowed is None or origin is None:  # not checked, or not a browser
        return True
    return origin in allowed or urlsplit(origin).netloc == ws.headers.get("host")


@looks_up
async def room_socket(ws: WebSocket) -> None:
    rooms: Rooms = ws.app.state.rooms
    tally: Tally = ws.app.state.tally
    client = client_of(ws)
    if not origin_allowed(ws):
        log.info("room socket refused for %s: origin %s not allowed", client, ws.headers.get("origin", "")[:80])
        tally.refusals["origin"] += 1
        await ws.close(code=1008)  # before the handshake: the browser is answered 403
        return
    await ws.accept()
    try:
        runner = await find_room(ws)
        lease = await limits_of(ws).socket(client)
    except (NotFound, TooMany, Unavailable) as exc:
        log.info("room socket refused for %s: %s", client, exc)
        tally.refusals[by_branch(exc, _REFUSAL_REASONS, "unavailable")] += 1
        await _refuse(ws, str(exc), by_branch(exc, _CLOSE_CODES, wire.CloseCode.SENT_AWAY))
        return
    link = rooms.new_link()
    tally.sockets += 1
    runner.open(link)
    timer = timer_of(ws.scope)
    if timer is not None:
        timer.start(LINK_EVERY_S, lambda ping, tcp: runner.measured(link, LinkSample(ping, tcp)))
    loop = asyncio.get_running_loop()
    sender = loop.create_task(_pump(ws, link, tally))
    heard = Heard(rooms.clock.now())
    reader = loop.create_task(_read(ws, runner, link, client, heard, rooms.clock, tally))
    watchdog = Watchdog(reader, heard, rooms.clock)
    try:
        await asyncio.wait({reader})  # the watchdog cancelling the reader ends this socket, not the server
        if not reader.cancelled() and (failure := reader.exception()) is not None:
            raise failure
    finally:
        watchdog.stop()
        if timer is not None:
            timer.stop()
        runner.close_link(link)
        lease.close()
        tally.sockets -= 1
        for task in (reader, sender):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        with contextlib.suppress(Exception):
            await ws.close()


class Heard:
    """When a socket last sent anything (on the server's clock), and whether it has said hello."""

    __slots__ = ("greeted", "last")

    def __init__(self, last: int) -> None:
        self.last = last
        self.greeted = False

    def silent_for(self) -> int:
        return HELLO_WITHIN_MS if not self.greeted else IDLE_SOCKET_MS


class Watchdog:
    """Stops a socket's reader once the socket has been silent too long: one alarm per connection, moved
    along lazily, rather than a timeout (a task and a timer) around every message received."""

    def __init__(self, reader: asyncio.Task[None], heard: Heard, clock: AlarmClock) -> None:
        self._reader = reader
        self._heard = heard
        self._clock = clock
        self._alarm: Alarm = clock.call_at(heard.last + heard.silent_for(), self._check)

    def _check(self) -> None:
        due = self._heard.last + self._heard.silent_for()
        if due <= self._clock.now():
            self._reader.cancel()
        else:
            self._alarm = self._clock.call_at(due, self._check)

    def stop(self) -> None:
        self._alarm.cancel()


async def _read(
    ws: WebSocket, runner: RoomRunner, link: PageLink, client: str, heard: Heard, clock: AlarmClock, tally: Tally
) -> None:
    window_start, in_window = clock.now(), 0
    while True:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        now = heard.last = clock.now()
        if message["type"] == "websocket.disconnect":
            return
        tally.messages_in += 1
        text, data = message.get("text"), message.get("bytes")
        raw: str | bytes = text if isinstance(text, str) else data if isinstance(data, bytes) else b""
        if now - window_start >= 1000:
            window_start, in_window = now, 0
        in_window += 1
        if in_window > MESSAGES_PER_SECOND:
            tally.refusals["message_rate"] += 1
            if in_window == MESSAGES_PER_SECOND + 1:
                log.info("room %s: messages from %s over %d a second dropped", runner.code, client, MESSAGES_PER_SECOND)
                _tell(link, f"too many messages: at most {MESSAGES_PER_SECOND} a second; the rest were dropped")
            continue
        try:
            parsed = wire.parse_client(raw)
        except BadMessage as exc:
            tally.refusals["bad_message"] += 1
            log.info("room %s: bad message from %s: %s", runner.code, client, exc)
            _tell(link, str(exc))
            continue
        heard.greeted = heard.greeted or isinstance(parsed, wire.Hello)
        runner.submit(link, parsed)


def _tell(link: PageLink, message: str) -> None:
    if link.outbox.full():
        # A page this far behind is about to be sent the whole state or closed (runner.py); the log keeps it.
        log.info("page %d: error not sent, its outbox is full: %s", link.id, message)
        return
    link.outbox.put_nowait(json.dumps(wire.ErrorMsg(message).to_json()))


async def _refuse(ws: WebSocket, message: str, code: wire.CloseCode) -> None:
    with contextlib.suppress(Exception):
        await ws.send_json(wire.ErrorMsg(message).to_json())
        await ws.close(code=code)


async def _pump(ws: WebSocket, link: PageLink, tally: Tally) -> None:
    """Send a page's outbox in order; one slow page never holds up its room."""
    while True:
        message = await link.outbox.get()
        if message is None:
            with contextlib.suppress(Exception):
                await ws.close(code=wire.CloseCode.SENT_AWAY)
            return
        if message == WAKE:  # woken ahead of the journal's commit: what it releases follows (delivery.py)
            continue
        try:
            await ws.send_text(message)
            tally.messages_out += 1
        except (RuntimeError, WebSocketDisconnect, OSError, RatscrewError):
            return


routes: list[BaseRoute] = [
    Route("/api/rooms", create_room, methods=["POST"]),
    Route("/api/rooms", list_rooms, methods=["GET"]),
    Route("/api/rooms/{code:str}", room_info),
    WebSocketRoute("/ws/rooms/{code:str}", room_socket),
]
