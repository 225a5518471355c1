"""HTTP endpoints for games against the computer (or two on one screen): create one, play again, its record.

Such a game is a room that starts at once; its page talks to it over the rooms' websocket (``online.py``).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.bots.registry import PLAYABLE, resolve
from ratscrew.errors import BadRequest, Conflict, Forbidden, NotFound
from ratscrew.limits import Grant
from ratscrew.names import clean_name
from ratscrew.rooms.runner import RoomRunner, Rooms
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.shapes import Shape
from ratscrew.web.bodies import parse_rules, read_body
from ratscrew.web.lookups import client_of, found, limits_of, looks_up
from ratscrew.web.store import Store

MAX_PEOPLE = 2  # one page plays at most two seats (two people on one screen)


@dataclass(frozen=True, slots=True)
class CreatedGame(Shape):
    """``POST /api/games``: a game against the computer, and this browser's seat token."""

    id: str
    token: str
    seats: tuple[int, ...]  # the seats the token holds


@dataclass(frozen=True, slots=True)
class NextGame(Shape):
    """``POST /api/games/{id}/again``: the next game of the same table (the same token plays it)."""

    id: str
    token: str


def parse_level(value: object, where: str) -> str:
    """A computer level people play against: one of the four levels or ``match`` (the lab's are not offered)."""
    if not isinstance(value, str) or value.strip().lower() not in PLAYABLE:
        shown = repr(value)[:20] if isinstance(value, str) else type(value).__name__
        raise BadRequest(f"{where}: unknown level {shown}: expected one of {', '.join(PLAYABLE)}")
    return resolve(value).name


def parse_setup(doc: dict[str, Any]) -> tuple[list[SeatInfo], Rules, float, int]:
    """A new game's seats, rules, pace and seed from an untrusted request body."""
    seats_doc = doc.get("seats")
    if not isinstance(seats_doc, list) or not MIN_PLAYERS <= len(seats_doc) <= MAX_PLAYERS:
        raise BadRequest(f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    seats: list[SeatInfo] = []
    for i, item in enumerate(seats_doc):
        if not isinstance(item, dict):
            raise BadRequest(f"seat {i} must be an object with a name and a kind")
        kind = item.get("kind", "human")
        if kind == "human":
            seats.append(SeatInfo(SeatKind.HUMAN, clean_name(item.get("name"), f"Player {i + 1}", error=BadRequest)))
        elif kind == "bot":
            level = parse_level(item.get("level", "medium"), f"seat {i}")
            name = clean_name(item.get("name"), f"Computer {i + 1}", error=BadRequest)
            seats.append(SeatInfo(SeatKind.BOT, name, level, ready=True))
        else:
            raise BadRequest(f"seat {i}: kind must be human or bot")
    people = [s for s in seats if s.kind is SeatKind.HUMAN]
    if not 1 <= len(people) <= MAX_PEOPLE:
        raise BadRequest(f"a game here needs 1 or {MAX_PEOPLE} people at the table, got {len(people)}")
    rules = parse_rules(doc.get("rules", "standard"), seats=len(seats))
    pace = doc.get("bot_pace", 1.0)
    if isinstance(pace, bool) or not isinstance(pace, int | float) or not 0.25 <= pace <= 4:
        raise BadRequest("bot_pace must be a number from 0.25 (brisk) to 4 (leisurely)")
    seed = doc.get("seed")
    if seed is None:
        seed = secrets.randbits(48)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise BadRequest("seed must be a whole number from 0 to 2**64 - 1")
    return seats, rules, float(pace), seed


def rooms_of(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


@asynccontextmanager
async def creating(request: Request) -> AsyncIterator[Grant]:
    """One room the request's address may create (TooMany if it made its hourly share): use the grant once the
    room is made; if it is not, the room is given back."""
    grant = await limits_of(request).room(client_of(request))
    try:
        yield grant
    finally:
        grant.settle()


async def create_game(request: Request) -> Response:
    seats, rules, pace, seed = parse_setup(await read_body(request, '{"seats": [...], "rules": "standard"}'))
    async with creating(request) as grant:
        runner, token = rooms_of(request).create_game(seats=seats, rules=rules, bot_pace=pace, seed=seed)
        grant.use()
    await runner.kept()  # the game is told once it is in the journal
    people = tuple(i for i, s in enumerate(seats) if s.kind is SeatKind.HUMAN)
    return JSONResponse(CreatedGame(runner.code, token, people).to_json())


@looks_up
async def play_again(request: Request) -> Response:
    rooms = rooms_of(request)

    async def game() -> RoomRunner:  # a 403 or a 409 would tell a live code from a wrong one
        runner = rooms.get(request.path_params["game_id"])
        if runner is None:
            raise NotFound("no such game (it may have ended a long time ago)")
        return runner

    runner = await found(request, game)
    doc = await read_body(request, '{"token": "..."}')
    core = runner.core
    token = doc.get("token")
    if not isinstance(token, str) or not token.isascii() or not secrets.compare_digest(token, core.host_token):
        raise Forbidden("only the players of this game can start it again")
    if core.phase is not Phase.OVER:
        raise Conflict("this game is still being played: play again once it is over")
    seats = [SeatInfo(s.kind, s.name, s.level, ready=True) for s in core.seats]
    async with creating(request) as grant:
        fresh, token = rooms.create_game(
            seats=seats,
            rules=core.rules,
            bot_pace=core.options.bot_pace,
            seed=secrets.randbits(48),
            reactions=core.reactions,
            token=core.host_token,
        )
        grant.use()
    await fresh.kept()
    return JSONResponse(NextGame(fresh.code, token).to_json())


@looks_up
async def game_record(request: Request) -> Response:
    """A finished game's record. Never a live one: it holds the seed, which tells every card to come."""
    game_id: str = request.path_params["game_id"]
    rooms = rooms_of(request)
    store: Store = request.app.state.store

    async def record() -> dict[str, object]:  # the 409 of a live game, or a record, tells a code is right
        runner = rooms.get(game_id.split("-")[0])
        if runner is not None and runner.core.phase is Phase.PLAYING and runner.core.game_id == game_id:
            raise Conflict("the record of a game is available once the game is over")
        return await asyncio.to_thread(store.game_record, game_id)

    record_doc = await found(request, record)
    headers = {"Content-Disposition": f'attachment; filename="ratscrew-{game_id}.json"'}
    return JSONResponse(record_doc, headers=headers)


routes: list[BaseRoute] = [
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games/{game_id:str}/again", play_again, methods=["POST"]),
    Route("/api/games/{game_id:str}/record", game_record),
]
