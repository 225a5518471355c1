"""The Play-now matchmaker of one process: pools of people waiting, the tables made from them, on a clock it
is given (virtual time in tests, the event loop's when live).

It keeps who is where, so a person is never in two pools or at two tables: joining while waiting or seated
is refused, leaving is one call, and a table's people are free again once the web layer says its game is
over (``done``) or one of them has left it (``release``). What to seat is decided by ``matching.groups``;
the web layer calls ``tick`` on every arrival and every second (the accepted gaps widen with time).

A waiting page says it is still there (``seen``) each time it asks where its person stands; one silent for
``GONE_AFTER_MS`` (a closed page) is taken out of its pool at the next ``tick``. Once the web layer has
opened a room for a table it says where each person sits (``place``), and ``where`` then answers with their
:class:`Placed` ticket, which the person's page (on whichever worker it asks) uses to join the room.

``Matchmaking`` is the interface the web layer uses: this process's pools (:class:`LocalMatchmaking`) and a
pool kept in Redis, shared by every worker, answer it alike, deciding with the same ``matching`` functions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Protocol

from ratscrew.engine.actions import Millis
from ratscrew.errors import Conflict, Forbidden, NotFound
from ratscrew.ladder.matching import (
    COMPUTERS_AFTER_MS,
    Entrant,
    Pool,
    Waiting,
    groups,
    may_take_computers,
)
from ratscrew.table.clock import Clock

TICK_MS = 1000  # how often the web layer should call tick(): the gaps widen 10 points a second
GONE_AFTER_MS = 10_000  # a waiting person whose page has not asked for this long has closed it


@dataclass(frozen=True, slots=True)
class Seating:
    """A table the matchmaker made: its people in seat order, and how many computers fill the other seats."""

    table: int
    pool: Pool
    players: tuple[Entrant, ...]
    computers: int
    waited: tuple[Millis, ...]  # how long each person waited, in seat order
    at: Millis

    @property
    def rated(self) -> bool:
        """A table with computers never counts for ratings, whatever pool it came from."""
        return self.pool.rated and self.computers == 0


@dataclass(frozen=True, slots=True)
class Ticket:
    """Where one person of a table sits: the room's code, their seat and the token that holds it."""

    room: str
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Placed:
    """A person's table once its room is open: the seating, and their own ticket to it."""

    seating: Seating
    ticket: Ticket


class AlreadyPlaying(Conflict):
    """The person already waits in a pool or sits at a table the matchmaker made."""


def check_may_join(entrant: Entrant, pool: Pool, where: Waiting | Seating | Placed | None) -> None:
    """Refuses a guest in a rated pool, and a person already waiting or seated (``where`` they stand)."""
    if pool.rated and entrant.player is None:
        raise Forbidden("rated games are for signed-in players: sign in, or ask for an unrated table")
    if isinstance(where, Waiting):
        raise AlreadyPlaying(f"{entrant.who!r} already waits for a table: leave that queue first")
    if isinstance(where, Placed):
        where = where.seating
    if isinstance(where, Seating):
        raise AlreadyPlaying(f"{entrant.who!r} already sits at table {where.table}: finish or leave it first")


def check_may_take_computers(who: str, where: Waiting | Seating | Placed | None, now: Millis) -> None:
    """Refuses computers to a person not waiting, or not for long enough yet."""
    if not isinstance(where, Waiting):
        raise NotFound(f"{who!r} is not waiting for a table")
    if not may_take_computers(where, now):
        raise Conflict(
            f"computers may take the empty seats after {COMPUTERS_AFTER_MS // 1000} s of waiting, "
            f"not after {(now - where.since) // 1000} s"
        )


class Matchmaker:
    """``first_table`` numbers its tables from there: a worker's own pool, kept beside a shared one while
    Redis is away, numbers its tables apart from the shared pool's (``hosting/matchpool.py``)."""

    def __init__(self, clock: Clock, first_table: int = 1) -> None:
        self.clock = clock
        self._pools: dict[Pool, dict[str, Waiting]] = {}  # each in the order people came
        self._where: dict[str, Waiting | Seating] = {}
        self._seen: dict[str, Millis] = {}  # when each waiting person's page last asked
        self._tickets: dict[str, Ticket] = {}  # the placed people's tickets
        self._tables: dict[int, Seating] = {}
        self._numbers = itertools.count(first_table)

    def join(self, entrant: Entrant, pool: Pool) -> Waiting:
        """Start waiting in ``pool``; the next ``tick`` may seat them."""
        check_may_join(entrant, pool, self.where(entrant.who))
        waiting = Waiting(entrant, pool, self.clock.now())
        self._pools.setdefault(pool, {})[entrant.who] = waiting
        self._where[entrant.who] = waiting
        self._seen[entrant.who] = waiting.since
        return waiting

    def seen(self, who: str) -> None:
        """The person's page is still there (it asked where they stand)."""
        if isinstance(self._where.get(who), Waiting):
            self._seen[who] = self.clock.now()

    def leave(self, who: str) -> bool:
        """Stop waiting (a press of the button, or a closed page); False if they were not waiting."""
        where = self._where.get(who)
        if not isinstance(where, Waiting):
            return False
        self._forget_waiting(where)
        return True

    def tick(self) -> list[Seating]:
        """Make every table the pools allow now."""
        now = self.clock.now()
        for who, last in list(self._seen.items()):
            if now - last >= GONE_AFTER_MS:
                self.leave(who)
        made = []
        for pool, waiting in list(self._pools.items()):
            for group in groups(pool, list(waiting.values()), now):
                made.append(self._seat(pool, group, computers=0, now=now))
        return made

    def take_computers(self, who: str) -> Seating:
        """Seat a person who has waited long enough at a table of their own, computers in the other seats
        (the fewest the pool's size allows); the game is unrated."""
        where = self._where.get(who)
        now = self.clock.now()
        check_may_take_computers(who, where, now)
        assert isinstance(where, Waiting)
        return self._seat(where.pool, (where,), computers=where.pool.size.fewest - 1, now=now)

    def place(self, table: int, tickets: dict[str, Ticket]) -> None:
        """The table's room is open: each of its people (by ``who``) sits where their ticket says."""
        seating = self._tables.get(table)
        if seating is None:
            raise NotFound(f"no table {table}")
        for entrant in seating.players:
            if self._where.get(entrant.who) is seating and entrant.who in tickets:
                self._tickets[entrant.who] = tickets[entrant.who]

    def done(self, table: int) -> None:
        """The table's game is over: its people may join a pool again."""
        seating = self._tables.pop(table, None)
        if seating is None:
            return
        for entrant in seating.players:
            if self._where.get(entrant.who) is seating:
                del self._where[entrant.who]
                self._tickets.pop(entrant.who, None)

    def release(self, who: str) -> None:
        """The person left their table for good (a stand-in holds the seat): they may join a pool again."""
        if isinstance(self._where.get(who), Seating):
            del self._where[who]
            self._tickets.pop(who, None)

    def where(self, who: str) -> Waiting | Seating | Placed | None:
        """Where the person stands: waiting, at a table whose room is not open yet, placed at it, or nowhere."""
        where = self._where.get(who)
        ticket = self._tickets.get(who)
        if isinstance(where, Seating) and ticket is not None:
            return Placed(where, ticket)
        return where

    def waiting(self, pool: Pool) -> tuple[Waiting, ...]:
        """The people waiting in ``pool``, in the order they came."""
        return tuple(self._pools.get(pool, {}).values())

    def pools(self) -> tuple[Pool, ...]:
        """The pools someone waits in."""
        return tuple(self._pools)

    def has_table(self, table: int) -> bool:
        return table in self._tables

    def _seat(self, pool: Pool, group: tuple[Waiting, ...], *, computers: int, now: Millis) -> Seating:
        for waiting in group:
            self._forget_waiting(waiting)
        seating = Seating(
            next(self._numbers),
            pool,
            tuple(w.entrant for w in group),
            computers,
            tuple(now - w.since for w in group),
            now,
        )
        self._tables[seating.table] = seating
        for waiting in group:
            self._where[waiting.entrant.who] = seating
        return seating

    def _forget_waiting(self, waiting: Waiting) -> None:
        pool = self._pools[waiting.pool]
        del pool[waiting.entrant.who]
        if not pool:
            del self._pools[waiting.pool]
        del self._where[waiting.entrant.who]
        self._seen.pop(waiting.entrant.who, None)


class Matchmaking(Protocol):
    """What the web layer asks of the matchmaker, wherever its pools are kept."""

    async def join(self, entrant: Entrant, pool: Pool) -> Waiting: ...

    async def leave(self, who: str) -> bool: ...

    async def seen(self, who: str) -> None: ...

    async def tick(self) -> list[Seating]: ...

    async def take_computers(self, who: str) -> Seating: ...

    async def place(self, table: int, tickets: dict[str, Ticket]) -> None: ...

    async def done(self, table: int) -> None: ...

    async def release(self, who: str) -> None: ...

    async def where(self, who: str) -> Waiting | Seating | Placed | None: ...


class LocalMatchmaking:
    """:class:`Matchmaking` for one process (``ratscrew play``): the pools are this process's own."""

    def __init__(self, matchmaker: Matchmaker) -> None:
        self.matchmaker = matchmaker

    async def join(self, entrant: Entrant, pool: Pool) -> Waiting:
        return self.matchmaker.join(entrant, pool)

    async def leave(self, who: str) -> bool:
        return self.matchmaker.leave(who)

    async def seen(self, who: str) -> None:
        self.matchmaker.seen(who)

    async def tick(self) -> list[Seating]:
        return self.matchmaker.tick()

    async def take_computers(self, who: str) -> Seating:
        return self.matchmaker.take_computers(who)

    async def place(self, table: int, tickets: dict[str, Ticket]) -> None:
        self.matchmaker.place(table, tickets)

    async def done(self, table: int) -> None:
        self.matchmaker.done(table)

    async def release(self, who: str) -> None:
        self.matchmaker.release(who)

    async def where(self, who: str) -> Waiting | Seating | Placed | None:
        return self.matchmaker.where(who)
