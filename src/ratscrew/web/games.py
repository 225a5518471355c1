"""HTTP and websocket endpoints for live games: create one, play it, play again, download its record."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ratscrew.bots.levels import LEVELS
from ratscrew.errors import RatscrewError
from ratscrew.rules.io import rules_from_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS
from ratscrew.table.table import MATCH, SeatSpec
from ratscrew.web.bodies import BadRequest, read_body
from ratscrew.web.protocol import BadMessage, parse_message
from ratscrew.web.rooms import Connection, GameSetup, Room, Rooms
from ratscrew.web.store import NotFound, Store

MAX_NAME = 24
MAX_PEOPLE = 2  # one page plays at most two seats (two people on one screen)
MESSAGES_PER_SECOND = 40


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def parse_setup(doc: Any) -> GameSetup:
    """A new game's seats, rules and pace from an untrusted request body."""
    if not isinstance(doc, dict):
        raise BadRequest("expected a JSON object with seats and rules")
    seats_doc = doc.get("seats")
    if not isinstance(seats_doc, list) or not MIN_PLAYERS <= len(seats_doc) <= MAX_PLAYERS:
        raise BadRequest(f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    seats: list[SeatSpec] = []
    for i, item in enumerate(seats_doc):
        if not isinstance(item, dict):
            raise BadRequest(f"seat {i} must be an object with a name and a kind")
        name = str(item.get("name") or "").strip()[:MAX_NAME] or f"Player {i + 1}"
        kind = item.get("kind", "human")
        if kind == "human":
            seats.append(SeatSpec(name))
        elif kind == "bot":
            level = item.get("level", "medium")
            if level != MATCH and level not in LEVELS:
                raise BadRequest(
                    f"seat {i}: unknown level {str(level)[:20]!r}: expected one of {', '.join(LEVELS)} or match"
                )
            seats.append(SeatSpec(name, str(level)))
        else:
            raise BadRequest(f"seat {i}: kind must be human or bot")
    people = [i for i, s in enumerate(seats) if s.bot is None]
    if not 1 <= len(people) <= MAX_PEOPLE:
        raise BadRequest(f"a game here needs 1 or {MAX_PEOPLE} people at the table, got {len(people)}")
    seats = [SeatSpec(s.name, s.bot, people[0]) if s.bot == MATCH else s for s in seats]
    try:
        rules = rules_from_mapping(doc.get("rules", "standard"), where="rules")
    except RatscrewError as exc:
        raise BadRequest(str(exc)) from None
    deck = rules.deck_for(len(seats))
    if deck.size < len(seats):
        raise BadRequest(f"{len(seats)} players need more than {deck.size} cards")
    pace = doc.get("bot_pace", 1.0)
    if isinstance(pace, bool) or not isinstance(pace, int | float) or not 0.25 <= pace <= 4:
        raise BadRequest("bot_pace must be a number from 0.25 (brisk) to 4 (leisurely)")
    seed = doc.get("seed")
    if seed is None:
        seed = secrets.randbits(48)
    elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise BadRequest("seed must be a non-negative whole number")
    return GameSetup(tuple(seats), rules, float(pace), seed)


def _rooms(request: Request | WebSocket) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


async def create_game(request: Request) -> Response:
    try:
        setup = parse_setup(await read_body(request, '{"seats": [...], "rules": "standard"}'))
    except BadRequest as exc:
        return error(str(exc))
    room = _rooms(request).create(setup)
    return JSONResponse({"id": room.id, "token": room.token, "seats": list(setup.human_seats)})


async def play_again(request: Request) -> Response:
    room = _rooms(request).get(request.path_params["game_id"])
    if room is None:
        return error("no such game (it may have ended a long time ago)", 404)
    try:
        doc = await read_body(request, '{"token": "..."}')
    except BadRequest as exc:
        return error(str(exc))
    token = doc.get("token")
    if not isinstance(token, str) or not secrets.compare_digest(token, room.token):
        return error("only the players of this game can start it again", 403)
    if room.next_room is None:
        people = {seat: room.table.reactions[seat][-50:] for seat in room.setup.human_seats}
        setup = GameSetup(room.setup.seats, room.setup.rules, room.setup.bot_pace, secrets.randbits(48), people)
        fresh = _rooms(request).create(setup)
        fresh.token = room.token
        room.next_room = fresh.id
    return JSONResponse({"id": room.next_room, "token": room.token})


async def game_record(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    room = _rooms(request).get(game_id)
    if room is not None:
        record: dict[str, object] = room.record().to_json()
    else:
        store: Store = request.app.state.store
        try:
            record = await asyncio.to_thread(store.game_record, game_id)
        except NotFound:
            return error("no such game", 404)
    headers = {"Content-Disposition": f'attachment; filename="ratscrew-{game_id}.json"'}
    return JSONResponse(record, headers=headers)


async def game_socket(ws: WebSocket) -> None:
    room: Room | None = _rooms(ws).get(ws.path_params["game_id"])
    await ws.accept()
    if room is None:
        await ws.send_json({"type": "error", "message": "no such game"})
        await ws.close(code=4404)
        return
    token = ws.query_params.get("token", "")
    seats = frozenset(room.setup.human_seats) if secrets.compare_digest(token, room.token) else frozenset()
    conn = Connection(send=ws.send_json, seats=seats)
    await room.attach(conn)
    sender = asyncio.get_running_loop().create_task(_pump(ws, conn))
    window_start, in_window = time.monotonic(), 0
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text, data = message.get("text"), message.get("bytes")
            raw: str | bytes = text if isinstance(text, str) else data if isinstance(data, bytes) else b""
            now = time.monotonic()
            if now - window_start >= 1.0:
                window_start, in_window = now, 0
            in_window += 1
            if in_window > MESSAGES_PER_SECOND:
                continue  # flooding: drop quietly, the game goes on
            try:
                parsed = parse_message(raw)
            except BadMessage as exc:
                conn.outbox.put_nowait({"type": "error", "message": str(exc)})
                continue
            room.submit(conn, parsed)
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(conn)
        await asyncio.gather(sender, return_exceptions=True)


async def _pump(ws: WebSocket, conn: Connection) -> None:
    """Send a connection's outbox in order; one slow page never holds up the room."""
    while True:
        message = await conn.outbox.get()
        if message is None:
            return
        try:
            await ws.send_json(message)
        except (RuntimeError, WebSocketDisconnect, OSError):
            return


routes: list[BaseRoute] = [
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games/{game_id:str}/again", play_again, methods=["POST"]),
    Route("/api/games/{game_id:str}/record", game_record),
    WebSocketRoute("/ws/games/{game_id:str}", game_socket),
]
