"""The Play-now routes: join a pool, ask where you stand (the waiting page's heartbeat), leave, or take computers.

Who asks is a signed-in account (``account_of``: a request with the session's cookie passes its Origin and
CSRF guards), or a guest holding the queue token their join answer gave, which only their page knows: the
matchmaker knows a guest by a hash of it (``guest:...``), so a token is never kept anywhere, and a token
nobody waits with counts against the address's lookups like a wrong room code (``web/lookups.py``). Rated
pools are for accounts. Each join counts as a room the address asks for (``Limits.room``): a table costs a
room, and an address that made its hourly share waits like one that created rooms.

Every answer is where the person stands (:class:`PlayNowAnswer`); every refusal one line naming the field,
with a code the page says in the player's language.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.accounts import Account
from ratscrew.errors import BadRequest, Conflict, Forbidden, NotFound, RatscrewError, TooMany, json_type
from ratscrew.ladder.matching import Entrant, Pool, TableSize, Waiting, may_take_computers
from ratscrew.ladder.matchmaker import AlreadyPlaying, Matchmaking, Placed, Seating
from ratscrew.ladder.ratings import Rating, SizeClass
from ratscrew.ladder.store import RatingStore
from ratscrew.names import clean_name
from ratscrew.rules import PRESETS
from ratscrew.shapes import Shape
from ratscrew.web.bodies import read_body
from ratscrew.web.lookups import client_of, found, limits_of, looks_up
from ratscrew.web.matched import Tables
from ratscrew.web.session import account_of

JOIN_EXAMPLE = '{"size": "2", "rated": false, "preset": "standard", "name": "Ann"}'
TOKEN_EXAMPLE = '{"token": "the queue token your join answer gave"}'
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
GUEST_NAME = "Player"


class PlayNowRefusal(RatscrewError):
    """Mixed into a branch of the error tree: ``extra`` gives the page the field at fault and a code."""

    def __init__(self, message: str, code: str, field: str | None = None) -> None:
        super().__init__(message)
        self.extra = {"code": code, **({"field": field} if field else {})}


class BadField(PlayNowRefusal, BadRequest):
    pass


class NotAllowed(PlayNowRefusal, Forbidden):
    pass


class NotNow(PlayNowRefusal, Conflict):
    pass


class Nowhere(PlayNowRefusal, NotFound):
    pass


@dataclass(frozen=True, slots=True)
class PlayNowPool(Shape):
    """The pool a person waits in: the table size, rated or not, and the rules' preset."""

    size: TableSize
    rated: bool
    preset: str


@dataclass(frozen=True, slots=True)
class PlayNowTicket(Shape):
    """A seat at the table the matchmaker found: the room's code, the seat, and the token that holds it."""

    room: str
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class PlayNowAnswer(Shape):
    """Where a person stands in Play now: nowhere, waiting in a pool (for how long, and whether computers may
    take the empty seats now), at a table whose room is being opened, or placed at it with their ticket."""

    where: Literal["nowhere", "waiting", "seating", "placed"]
    pool: PlayNowPool | None
    waited_s: int
    computers: bool
    ticket: PlayNowTicket | None
    token: str | None  # a guest's queue token, in the join's answer: their page sends it with every request


@dataclass(frozen=True, slots=True)
class Person:
    """Who asks: ``who`` as the matchmaker knows them, and their account (None: a guest)."""

    who: str
    account: Account | None
    token: str | None  # a guest's queue token


def matchmaking_of(request: Request) -> Matchmaking:
    matchmaking: Matchmaking = request.app.state.matchmaking
    return matchmaking


def tables_of(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def guest_who(token: str) -> str:
    """The matchmaker's name for a guest: a hash of their token, so that nothing kept or logged holds it."""
    return "guest:" + hashlib.sha256(token.encode()).hexdigest()[:32]


def read_token(value: object) -> str:
    if not isinstance(value, str):
        raise BadField(f"token must be text, got {json_type(value)}: expected {TOKEN_EXAMPLE}", "bad_token", "token")
    if not TOKEN.fullmatch(value):
        raise BadField("token is not a queue token: send the one your join answer gave", "bad_token", "token")
    return value


def person_of(request: Request, doc: dict[str, Any], *, new_guest: bool = False) -> Person:
    """The account signed in on the request (its guards applied), else the guest whose token the body holds
    (on a join, a new guest gets one)."""
    account = account_of(request)
    token = doc.get("token")
    if account is not None:
        if token is not None:
            raise BadField(
                "token: you are signed in, and your account holds your place: send no queue token", "signed_in", "token"
            )
        return Person(f"account:{account.id}", account, None)
    if token is None:
        if not new_guest:
            raise BadField(f"token is missing: sign in, or send {TOKEN_EXAMPLE}", "bad_token", "token")
        token = secrets.token_urlsafe(24)
    token = read_token(token)
    return Person(guest_who(token), None, token)


def only(doc: dict[str, Any], fields: tuple[str, ...], example: str) -> None:
    extra = sorted(set(doc) - set(fields))
    if extra:
        raise BadField(f"unknown field {extra[0][:40]!r}: expected {example}", "unknown_field", extra[0][:40])


def read_pool(doc: dict[str, Any]) -> Pool:
    size = doc.get("size")
    if not isinstance(size, str) or size not in {s.value for s in TableSize}:
        shown = repr(size)[:20] if isinstance(size, str) else json_type(size)
        raise BadField(f'size must be "2" or "3-4" (players at the table), got {shown}', "bad_size", "size")
    rated = doc.get("rated", False)
    if not isinstance(rated, bool):
        raise BadField(f"rated must be true or false, got {json_type(rated)}", "bad_rated", "rated")
    preset = doc.get("preset", "standard")
    if not isinstance(preset, str) or preset not in PRESETS:
        shown = repr(preset)[:30] if isinstance(preset, str) else json_type(preset)
        raise BadField(f"preset must be one of {', '.join(PRESETS)}, got {shown}", "bad_preset", "preset")
    return Pool(TableSize(size), rated, preset)


async def points_of(ratings: RatingStore, account: Account, size: TableSize) -> float:
    """The centre of the account's rating in the pool's size class: what rated pairing compares."""
    standings = await asyncio.to_thread(ratings.standings, account.id)
    size_class = SizeClass.TWO if size is TableSize.TWO else SizeClass.MORE
    standing = standings.get(size_class)
    return (standing.rating if standing is not None else Rating()).points


def answer_of(request: Request, where: Waiting | Seating | Placed | None, token: str | None = None) -> JSONResponse:
    doc: PlayNowAnswer
    if isinstance(where, Waiting):
        now = tables_of(request).clock.now()
        pool = PlayNowPool(where.pool.size, where.pool.rated, where.pool.preset)
        waited = max(0, now - where.since) // 1000
        doc = PlayNowAnswer("waiting", pool, waited, may_take_computers(where, now), None, token)
    elif isinstance(where, Placed):
        seating, ticket = where.seating, where.ticket
        pool = PlayNowPool(seating.pool.size, seating.rated, seating.pool.preset)
        doc = PlayNowAnswer("placed", pool, 0, False, PlayNowTicket(ticket.room, ticket.seat, ticket.token), token)
    elif isinstance(where, Seating):
        pool = PlayNowPool(where.pool.size, where.rated, where.pool.preset)
        doc = PlayNowAnswer("seating", pool, 0, False, None, token)
    else:
        doc = PlayNowAnswer("nowhere", None, 0, False, None, token)
    return JSONResponse(doc.to_json(), headers={"Cache-Control": "no-store"})


async def standing(request: Request, person: Person) -> Waiting | Seating | Placed | None:
    """Where the person stands; for a guest, a token nobody holds is a wrong guess, counted as one."""
    matchmaking = matchmaking_of(request)

    async def look() -> Waiting | Seating | Placed | None:
        at = await matchmaking.where(person.who)
        if at is None and person.account is None:
            raise Nowhere("nobody waits with that queue token: press Play now again", "nowhere", "token")
        return at

    return await found(request, look)


async def join(request: Request) -> Response:
    doc = await read_body(request, JOIN_EXAMPLE)
    only(doc, ("size", "rated", "preset", "name", "token"), JOIN_EXAMPLE)
    pool = read_pool(doc)
    person = person_of(request, doc, new_guest=True)
    account = person.account
    if account is None:
        if pool.rated:
            raise NotAllowed(
                "rated games are for signed-in players: sign in, or ask for an unrated table", "sign_in", "rated"
            )
        name = clean_name(doc.get("name"), GUEST_NAME, error=BadRequest)
        entrant = Entrant(person.who, None, 0.0, name)
    else:  # the account's own name, whatever the body says
        ratings: RatingStore = request.app.state.ratings
        points = await points_of(ratings, account, pool.size) if pool.rated else 0.0
        entrant = Entrant(person.who, account.id, points, account.name)
    try:
        grant = await limits_of(request).room(client_of(request))
    except TooMany:
        raise TooMany(
            "too many tables asked for from your address in the last hour (Play now counts with the rooms made): "
            "try again later"
        ) from None
    try:
        try:
            await matchmaking_of(request).join(entrant, pool)
        except AlreadyPlaying as exc:
            raise NotNow(str(exc), "already_playing") from None
        grant.use()
    finally:
        grant.settle()
    await tables_of(request).tick()  # seated at once if the others are here
    return answer_of(request, await matchmaking_of(request).where(person.who), person.token)


@looks_up
async def ask_where(request: Request) -> Response:
    doc = await read_body(request, TOKEN_EXAMPLE)
    only(doc, ("token",), TOKEN_EXAMPLE)
    person = person_of(request, doc)
    await matchmaking_of(request).seen(person.who)  # the heartbeat: this page is still there
    return answer_of(request, await standing(request, person))


@looks_up
async def leave(request: Request) -> Response:
    doc = await read_body(request, TOKEN_EXAMPLE)
    only(doc, ("token",), TOKEN_EXAMPLE)
    person = person_of(request, doc)
    await standing(request, person)
    await matchmaking_of(request).leave(person.who)
    return answer_of(request, await matchmaking_of(request).where(person.who))


@looks_up
async def take_computers(request: Request) -> Response:
    doc = await read_body(request, TOKEN_EXAMPLE)
    only(doc, ("token",), TOKEN_EXAMPLE)
    person = person_of(request, doc)
    at = await standing(request, person)
    if not isinstance(at, Waiting):
        raise NotNow("you are not waiting for a table: press Play now first", "not_waiting")
    try:
        await tables_of(request).take_computers(person.who)
    except Conflict as exc:
        raise NotNow(str(exc), "too_early") from None
    except NotFound as exc:  # seated by a tick meanwhile: the answer says where
        if await matchmaking_of(request).where(person.who) is None:
            raise NotNow(str(exc), "not_waiting") from None
    return answer_of(request, await matchmaking_of(request).where(person.who))


SHAPES = (PlayNowPool, PlayNowTicket, PlayNowAnswer)

routes: list[BaseRoute] = [
    Route("/api/playnow/join", join, methods=["POST"]),
    Route("/api/playnow/where", ask_where, methods=["POST"]),
    Route("/api/playnow/leave", leave, methods=["POST"]),
    Route("/api/playnow/computers", take_computers, methods=["POST"]),
]
