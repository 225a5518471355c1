"""Live games. One room, one owner: each game is run by a single task that handles its messages in order.

The task waits for the next message or the table's next deadline, whichever comes first, applies it, and
sends every new event, numbered, to each page watching the game. The last events are kept so a page that
reconnects can catch up. When the game ends its record and summary go to the store.
"""

from __future__ import annotations

import asyncio
import secrets
import statistics
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ratscrew.engine.events import GameOver, PileWon, PlayerOut, WrongSlap
from ratscrew.engine.game import Game
from ratscrew.engine.view import view_for
from ratscrew.record import Record
from ratscrew.rules.io import rules_to_mapping
from ratscrew.rules.model import Rules
from ratscrew.table.clock import LoopClock
from ratscrew.table.table import RejectCode, Rejected, SeatSpec, Table, TableConfig, TableEvent
from ratscrew.web.protocol import ClientMessage, FlipMsg, PingMsg, ResyncMsg, SlapMsg
from ratscrew.web.store import Store

HISTORY = 500  # events kept for pages that reconnect
WAKE = "wake"
IDLE_LIMIT_S = 120.0  # a game nobody has watched for this long is closed (its computers stop playing)
Send = Callable[[dict[str, object]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything needed to start (or restart) a game: seats, rules, pace and the deal's seed."""

    seats: tuple[SeatSpec, ...]
    rules: Rules
    bot_pace: float = 1.0
    seed: int = 0
    reactions: dict[int, list[int]] = field(default_factory=dict)  # people's reaction times from earlier games

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.bot is None)


@dataclass(eq=False)
class Connection:
    send: Send
    seats: frozenset[int]
    outbox: asyncio.Queue[dict[str, object] | None] = field(default_factory=asyncio.Queue)


class Room:
    def __init__(self, room_id: str, setup: GameSetup, store: Store, idle_limit_s: float = IDLE_LIMIT_S) -> None:
        self.id = room_id
        self.token = secrets.token_urlsafe(16)
        self.setup = setup
        self.store = store
        self.game = Game.from_seed(setup.rules, len(setup.seats), setup.seed)
        self.clock = LoopClock()
        self.table = Table(
            self.game,
            setup.seats,
            self.clock,
            seed=setup.seed,
            config=TableConfig(bot_pace=setup.bot_pace),
            reactions=setup.reactions,
        )
        self.history: deque[tuple[int, dict[str, object]]] = deque(maxlen=HISTORY)
        self.pending: list[TableEvent] = []
        self.table.listeners.append(self.pending.append)
        self.connections: set[Connection] = set()
        # Messages in arrival order; None stops the room, WAKE only makes it look at the clock again.
        self.inbox: asyncio.Queue[tuple[Connection, ClientMessage] | str | None] = asyncio.Queue()
        self.summary: dict[str, object] | None = None
        self.next_room: str | None = None
        loop = asyncio.get_running_loop()
        self.idle_limit_s = idle_limit_s
        self.idle_since: float | None = loop.time()  # nobody is watching yet
        self._task = loop.create_task(self._run(), name=f"room {room_id}")

    @property
    def closed(self) -> bool:
        return self._task.done()

    # ------------------------------------------------------------------ the owner task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            deadline = self.table.next_deadline()
            timeout = None if deadline is None else max(0.0, (deadline - self.clock.now()) / 1000)
            if self.idle_since is not None:
                idle_left = max(0.0, self.idle_since + self.idle_limit_s - loop.time())
                if idle_left == 0:
                    return  # abandoned: stop here rather than let the computers play on for nobody
                timeout = idle_left if timeout is None else min(timeout, idle_left)
            try:
                item = await asyncio.wait_for(self.inbox.get(), timeout)
            except TimeoutError:
                item = None
            else:
                if item is None:
                    return
            if isinstance(item, tuple):
                self._handle(*item)
            self.table.run_due()
            self._flush()
            if self.game.over and self.summary is None:
                self._finish()

    def _handle(self, conn: Connection, msg: ClientMessage) -> None:
        result: Rejected | None = None
        if isinstance(msg, FlipMsg | SlapMsg) and msg.seat not in conn.seats:
            result = Rejected(RejectCode.NOT_YOURS, f"seat {msg.seat} is not yours", msg.seat)
        elif isinstance(msg, FlipMsg):
            result = self.table.flip(msg.seat)
        elif isinstance(msg, SlapMsg):
            result = self.table.slap(msg.seat, card=msg.card)
        elif isinstance(msg, ResyncMsg):
            missed = [item for seq, item in self.history if seq > msg.since]
            conn.outbox.put_nowait({"type": "events", "items": missed, "state": self.state()})
        elif isinstance(msg, PingMsg):
            conn.outbox.put_nowait({"type": "pong", "t": self.clock.now()})
        if result is not None:
            conn.outbox.put_nowait(
                {"type": "rejected", "code": result.code, "reason": result.reason, "seat": result.seat}
            )

    def _flush(self) -> None:
        if not self.pending:
            return
        items: list[dict[str, object]] = [{"seq": e.seq, "t": e.t, "event": e.event.to_dict()} for e in self.pending]
        self.history.extend((e.seq, item) for e, item in zip(self.pending, items, strict=True))
        self.pending.clear()
        message: dict[str, object] = {"type": "events", "items": items, "state": self.state()}
        for conn in self.connections:
            conn.outbox.put_nowait(message)

    def _finish(self) -> None:
        self.summary = self.build_summary()
        self.store.save_game(self.id, self.record().to_json(), self.summary)
        for conn in self.connections:
            conn.outbox.put_nowait({"type": "over", "summary": self.summary})

    # ------------------------------------------------------------------ what pages see

    def state(self) -> dict[str, object]:
        view = view_for(self.game).as_dict()
        view["now"] = self.clock.now()
        view["collect_delay_ms"] = self.game.rules.slapping.collect_delay_ms
        return view

    def welcome(self, conn: Connection) -> dict[str, object]:
        return {
            "type": "welcome",
            "game": self.id,
            "seats": [{"name": s.name, "bot": s.bot} for s in self.setup.seats],
            "yours": sorted(conn.seats),
            "rules": rules_to_mapping(self.setup.rules, full=True),
            "preset": self.setup.rules.preset,
            "state": self.state(),
            "seq": len(self.table.log) - 1,
            "summary": self.summary,
        }

    def record(self) -> Record:
        names = tuple(s.name for s in self.setup.seats)
        return Record(
            self.setup.rules, len(names), seed=self.setup.seed, players=names, actions=tuple(self.game.actions)
        )

    def build_summary(self) -> dict[str, object]:
        game, table = self.game, self.table
        outcome = game.outcome
        assert outcome is not None
        n = game.players
        wrong = [0] * n
        by_slap = [0] * n
        by_challenge = [0] * n
        out_order: list[int] = []
        for item in table.log:
            event = item.event
            if isinstance(event, WrongSlap):
                wrong[event.seat] += 1
            elif isinstance(event, PileWon):
                for seat, _count in event.shares:
                    (by_slap if event.how == "slap" else by_challenge)[seat] += 1
            elif isinstance(event, PlayerOut):
                out_order.append(event.seat)
        end_t = next((e.t for e in reversed(table.log) if isinstance(e.event, GameOver)), self.clock.now())
        players = []
        for seat in range(n):
            times = table.reactions[seat]
            players.append(
                {
                    "seat": seat,
                    "name": self.setup.seats[seat].name,
                    "bot": self.setup.seats[seat].bot,
                    "cards": len(game.stacks[seat]),
                    "piles_by_slap": by_slap[seat],
                    "piles_by_challenge": by_challenge[seat],
                    "wrong_slaps": wrong[seat],
                    "reaction_ms": times,
                    "median_reaction_ms": statistics.median(times) if times else None,
                }
            )
        return {
            "result": outcome.result.value,
            "winner": outcome.winner,
            "reason": outcome.reason,
            "how": outcome.how,
            "cards": game.cards,
            "tricks": game.tricks,
            "ms": end_t,
            "players": players,
            "out_order": out_order,
        }

    # ------------------------------------------------------------------ connections

    async def attach(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.idle_since = None
        await conn.send(self.welcome(conn))

    def detach(self, conn: Connection) -> None:
        self.connections.discard(conn)
        conn.outbox.put_nowait(None)
        if not self.connections:
            self.idle_since = asyncio.get_running_loop().time()
            self.inbox.put_nowait(WAKE)

    def submit(self, conn: Connection, msg: ClientMessage) -> None:
        self.inbox.put_nowait((conn, msg))

    async def close(self) -> None:
        self.inbox.put_nowait(None)
        await asyncio.gather(self._task, return_exceptions=True)
        for conn in list(self.connections):
            self.detach(conn)


class Rooms:
    """Every live game on this server, by id."""

    def __init__(self, store: Store, limit: int = 200, idle_limit_s: float = IDLE_LIMIT_S) -> None:
        self.store = store
        self.limit = limit
        self.idle_limit_s = idle_limit_s
        self.rooms: dict[str, Room] = {}

    def create(self, setup: GameSetup) -> Room:
        self._forget_closed()
        if len(self.rooms) >= self.limit:
            finished = [r for r in self.rooms.values() if r.game.over] or list(self.rooms.values())
            oldest = finished[0]
            asyncio.get_running_loop().create_task(oldest.close())
            del self.rooms[oldest.id]
        room_id = secrets.token_hex(6)
        room = Room(room_id, setup, self.store, self.idle_limit_s)
        self.rooms[room_id] = room
        return room

    def get(self, room_id: str) -> Room | None:
        self._forget_closed()
        return self.rooms.get(room_id)

    def _forget_closed(self) -> None:
        for room_id in [r.id for r in self.rooms.values() if r.closed]:
            del self.rooms[room_id]

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            await room.close()
        self.rooms.clear()
