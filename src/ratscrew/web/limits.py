"""Limits per client address: a request rate for every HTTP request (websockets have their own, per message),
and the rooms' limits (rooms created, wrong codes asked for, sockets open) kept in Redis when several workers
share them.

The request rate is a token bucket per address in this process: ``RATE`` requests a second on average,
bursts up to ``BURST``; past that the answer is 429 with a JSON error and a log line. Pages load a dozen files
at once, so the burst is generous. Behind ``ratscrew serve``'s proxy the proxy limits the rate as a whole.

The rooms' limits are ``runner.ClientLimits`` (in this process, on the server's clock) or, across workers,
``SharedLimits`` below: the same calls and the same caps, counted in Redis on Redis's clock. The rooms call
the limits without awaiting (``Rooms.create_room``, ``lookup``, ``connect``), so Redis is asked before the
request reaches them: ``AskFirst`` awaits one round trip for the request's client (while every room of the
worker plays on), and the limits' calls answer from it; what the request took and did not use, and the wrong
codes it asked for, are settled after it, before its answer goes out.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ratscrew.errors import NotFound, TooMany
from ratscrew.rooms import runner
from ratscrew.table.clock import Clock

if TYPE_CHECKING:
    import redis.asyncio

log = logging.getLogger(__name__)

RATE = 30.0
BURST = 120.0
MAX_CLIENTS = 10_000  # addresses remembered; the quietest are forgotten first


class RateLimit:
    def __init__(self, app: ASGIApp, rate: float | None = None, burst: float | None = None) -> None:
        self.app = app
        self.rate = RATE if rate is None else rate
        self.burst = BURST if burst is None else burst
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when last counted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if not self._take(address):
            log.info("rate limit: %s refused on %s", address, scope.get("path", "")[:80])
            body = json.dumps({"error": f"too many requests: at most {self.rate:.0f} a second; try again shortly"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 429,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
                }
            )
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await self.app(scope, receive, send)

    def _take(self, address: str) -> bool:
        now = time.monotonic()
        tokens, then = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if len(self.buckets) >= MAX_CLIENTS and address not in self.buckets:
            quietest = max(self.buckets, key=lambda a: self.buckets[a][0])
            del self.buckets[quietest]
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return False
        self.buckets[address] = (tokens - 1, now)
        return True


# Requests that make a room (or a game, which is one), and those that look a room up by its code: the ones the
# rooms' limits count.
CREATING = re.compile(r"^/api/(?:rooms|games|games/[^/]+/again)/?$")
LOOKING_UP = ("/api/rooms/", "/api/games/", "/ws/rooms/")

# One round trip before a request, on Redis's clock, atomic across workers. KEYS: the client's rooms created,
# its wrong codes, then every worker's table of sockets (this worker's first). ARGV: rooms per hour, 1 to take
# a room if under that, the room's unique member, sockets per client, 1 to take a socket if under that, the
# client. Answers the rooms made in the hour and the wrong codes in the minute (both before this request),
# and the client's sockets with this one (-1: at the cap, none taken; 0: none asked for).
_ASK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 3600000)
local made = redis.call('ZCARD', KEYS[1])
if ARGV[2] == '1' and made < tonumber(ARGV[1]) then
    redis.call('ZADD', KEYS[1], now, ARGV[3])
    redis.call('PEXPIRE', KEYS[1], 3600000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
local wrong = redis.call('ZCARD', KEYS[2])
local opened = 0
if ARGV[5] == '1' then
    local total = 0
    for i = 3, #KEYS do total = total + tonumber(redis.call('HGET', KEYS[i], ARGV[6]) or '0') end
    if total >= tonumber(ARGV[4]) then opened = -1 else opened = redis.call('HINCRBY', KEYS[3], ARGV[6], 1) end
end
return {made, wrong, opened}
"""

# After a request: one wrong code more (ARGV[1] unique), on Redis's clock.
_WRONG = """
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), ARGV[1])
redis.call('PEXPIRE', KEYS[1], 60000)
"""

# After a socket: the client's count in this worker's table (KEYS[1]) one lower, gone at zero.
_RELEASE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
"""

AWAY_S = 5.0  # after Redis failed once, how long the limits are counted in the worker before trying again


@dataclass
class Ticket:
    """What Redis answered for one request's client before the request reached the rooms, and what the
    request then did with it."""

    client: str
    made: int | None  # rooms made in the hour before (None: not a creation); one more was taken if under the cap
    member: str  # the taken room's entry, given back if the request makes none
    wrong: int  # wrong codes asked for in the minute before
    opened: int | None  # the client's sockets with this one (-1: refused; None: not a socket)
    created: bool = False
    wrong_codes: int = 0  # asked for by this request


CURRENT: ContextVar[Ticket | None] = ContextVar("ratscrew_limits_ticket", default=None)


class SharedLimits(runner.ClientLimits):
    """The rooms' limits counted in Redis, so that they hold across workers (and machines), from the ticket
    ``AskFirst`` left for the request. Without one (Redis failed, or a call outside a counted request) the
    worker counts them itself, with the same caps; after a failure, for a few seconds (``AWAY_S``), with one
    log line, before it asks Redis again: a Redis that is away costs one timeout every few seconds."""

    def __init__(
        self,
        clock: Clock,
        client: redis.asyncio.Redis,
        *,
        worker: int,
        workers: int,
        prefix: str = "ratscrew:",
        rooms_per_hour: int = runner.ROOMS_PER_CLIENT_PER_HOUR,
    ) -> None:
        super().__init__(clock, rooms_per_hour)  # the same cap when Redis is away and this worker counts alone
        self.redis = client
        self.prefix = prefix
        self._sockets = [f"{prefix}sockets:{i}" for i in range(workers)]
        self._sockets.insert(0, self._sockets.pop(worker))
        self._ask = client.register_script(_ASK)
        self._wrong = client.register_script(_WRONG)
        self._release = client.register_script(_RELEASE)
        self._away_until = 0.0  # time.monotonic() until which Redis is not asked

    async def reset(self) -> None:
        """This worker starts: sockets it counted before it stopped are gone."""
        await self.redis.delete(self._sockets[0])

    async def ask(self, client: str, *, creating: bool, connecting: bool) -> Ticket | None:
        """Redis's answer for ``client`` (a room taken if ``creating``, a socket if ``connecting``), or None
        if Redis failed or is known to be away: the worker then counts alone."""
        if time.monotonic() < self._away_until:
            return None
        member = secrets.token_hex(8)
        args: list[int | str] = [
            self.rooms_per_hour,
            int(creating),
            member,
            runner.CONNECTIONS_PER_CLIENT,
            int(connecting),
            client,
        ]
        try:
            made, wrong, opened = await self._ask(
                keys=[self._key("created", client), self._key("wrong", client), *self._sockets], args=args
            )
        except Exception as exc:  # redis.RedisError, a connection that went away, a timeout
            self._failed(exc, "counting in this worker")
            return None
        return Ticket(client, int(made) if creating else None, member, int(wrong), int(opened) if connecting else None)

    async def settle(self, ticket: Ticket) -> None:
        """After the request: the room it took and did not make given back, its wrong codes counted, its
        socket (once closed) given back."""
        try:
            if ticket.made is not None and ticket.made < self.rooms_per_hour and not ticket.created:
                await self.redis.zrem(self._key("created", ticket.client), ticket.member)
            for _ in range(ticket.wrong_codes):
                await self._wrong(keys=[self._key("wrong", ticket.client)], args=[secrets.token_hex(8)])
            if ticket.opened is not None and ticket.opened > 0:
                await self._release(keys=[self._sockets[0]], args=[ticket.client])
        except Exception as exc:
            self._failed(exc, "a request's counts not settled")

    def create(self, client: str) -> None:
        ticket = _ticket(client)
        if ticket is None or ticket.made is None:
            return super().create(client)
        if ticket.made >= self.rooms_per_hour:
            raise TooMany(f"you created {ticket.made} rooms in the last hour: at most {self.rooms_per_hour}")
        ticket.created = True

    @contextmanager
    def guessing(self, client: str) -> Iterator[None]:
        ticket = _ticket(client)
        if ticket is None:
            with super().guessing(client):
                yield
            return
        if ticket.wrong + ticket.wrong_codes >= runner.FAILED_LOOKUPS_PER_MINUTE:
            raise TooMany("too many wrong room codes: wait a minute and check the code")
        try:
            yield
        except NotFound:
            ticket.wrong_codes += 1
            raise

    def connect(self, client: str) -> None:
        ticket = _ticket(client)
        if ticket is None or ticket.opened is None:
            return super().connect(client)
        if ticket.opened < 0:
            raise TooMany(f"too many open connections from your address: at most {runner.CONNECTIONS_PER_CLIENT}")

    def disconnect(self, client: str) -> None:
        ticket = _ticket(client)
        if ticket is None or ticket.opened is None:
            super().disconnect(client)
        # else the socket taken in Redis is given back when its request ends (settle)

    def _key(self, book: str, client: str) -> str:
        return f"{self.prefix}{book}:{client}"

    def _failed(self, exc: Exception, doing: str) -> None:
        if time.monotonic() >= self._away_until:  # one line each time Redis is found away, not one a call
            log.warning("shared limits: %s; %s for %.0f s", exc, doing, AWAY_S)
            self._away_until = time.monotonic() + AWAY_S


def _ticket(client: str) -> Ticket | None:
    """The ticket of the request being answered, if it is ``client``'s."""
    ticket = CURRENT.get()
    return ticket if ticket is not None and ticket.client == client else None


class AskFirst:
    """Before a request the rooms' limits count, asks Redis for its client (awaited, so every room of the
    worker plays on meanwhile) and leaves the answer for the limits' calls (``CURRENT``); settles after it:
    an HTTP request before its answer starts (the client's next request sees the counts), a socket once
    it has ended."""

    def __init__(self, app: ASGIApp, limits: Callable[[], SharedLimits | None]) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limits, kind = self.limits(), scope["type"]
        if limits is None or kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        creating = kind == "http" and scope["method"] == "POST" and CREATING.match(scope["path"]) is not None
        if not creating and not scope["path"].startswith(LOOKING_UP):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        ticket = await limits.ask(client[0] if client else "unknown", creating=creating, connecting=kind == "websocket")
        if ticket is None:
            await self.app(scope, receive, send)
            return
        settled = False

        async def answer(message: Message) -> None:
            nonlocal settled
            if message["type"] == "http.response.start" and not settled:
                settled = True
                await limits.settle(ticket)
            await send(message)

        token = CURRENT.set(ticket)
        try:
            await self.app(scope, receive, answer)
        finally:
            CURRENT.reset(token)
            if not settled:
                await limits.settle(ticket)
