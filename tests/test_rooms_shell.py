"""The server shell on virtual time: a room's socket handler, its owner task and the per-address limits, all on
one ``ManualClock`` the test moves. Sockets are in-process stand-ins for Starlette's; nothing here sleeps."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any, cast

import pytest
from starlette.websockets import WebSocket

from ratscrew.errors import TooMany
from ratscrew.limits import Caps, LocalLimits
from ratscrew.rooms import wire
from ratscrew.rooms.runner import Rooms
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock
from ratscrew.web import online
from ratscrew.web.tally import Tally


class FakeSocket:
    """What the room's socket handler uses of a Starlette websocket: messages in from a queue, out to a list."""

    def __init__(self, rooms: Rooms, code: str, limits: LocalLimits, client: str = "10.0.0.1") -> None:
        self.app = SimpleNamespace(state=SimpleNamespace(rooms=rooms, limits=limits, tally=Tally(), origins=None))
        self.headers: dict[str, str] = {}
        self.client = SimpleNamespace(host=client)
        self.path_params = {"code": code}
        self.scope: dict[str, Any] = {}
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None  # the close code, once closed

    def say(self, message: dict[str, object]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    def kinds(self) -> list[str]:
        return [str(m["type"]) for m in self.sent]

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def send_json(self, doc: dict[str, Any]) -> None:
        self.sent.append(doc)

    async def close(self, code: int = 1000) -> None:
        if self.closed is None:
            self.closed = code


async def settle() -> None:
    """Let every task run until none has anything left to do (no real I/O here: nothing waits on the world)."""
    for _ in range(50):
        await asyncio.sleep(0)


def on_virtual_time(scenario: Callable[[ManualClock, Rooms], Awaitable[None]]) -> None:
    async def main() -> None:
        clock = ManualClock()
        rooms = Rooms(None, clock=clock)
        try:
            await scenario(clock, rooms)
        finally:
            await rooms.close()

    # Its own thread: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, main()).result(timeout=60)


async def step(clock: ManualClock, ms: int, every: int = 500) -> None:
    """Time passes, in steps: what falls due on the way runs as it would (the room's probes, the watchdogs)."""
    end = clock.now() + ms
    while clock.now() < end:
        clock.advance_to(min(end, clock.now() + every))
        await settle()


def test_silent_sockets_are_closed_and_talking_ones_kept() -> None:
    async def scenario(clock: ManualClock, rooms: Rooms) -> None:
        runner, _token = rooms.create_room(seats=2, rules=Rules.build("standard"), name="Ana", public=False)
        limits = LocalLimits(clock)
        mute, talker = FakeSocket(rooms, runner.code, limits), FakeSocket(rooms, runner.code, limits)
        handlers = [asyncio.create_task(online.room_socket(cast(WebSocket, s))) for s in (mute, talker)]
        await settle()
        talker.say(wire.Hello(wire.VERSION, None, -1).to_json())
        await step(clock, online.HELLO_WITHIN_MS - 500)
        assert mute.closed is None and talker.kinds()[0] == "welcome"
        await step(clock, 500)
        assert mute.closed is not None and mute.sent == []  # never said hello: closed, with nothing sent
        assert handlers[0].done()
        for i in range(6):  # two minutes of pings, 20 s apart: twice the idle limit, never silent that long
            await step(clock, 20_000)
            talker.say(wire.Ping(i).to_json())
        await settle()
        assert talker.closed is None and talker.kinds().count("pong") == 6
        await step(clock, online.IDLE_SOCKET_MS - 500)
        assert talker.closed is None and "probe" in talker.kinds()  # probed all along; never answered
        await step(clock, 500)
        assert talker.closed is not None and handlers[1].done()  # silent past the limit: closed
        assert limits.sockets == {}  # and both sockets are counted off their address

    on_virtual_time(scenario)


def test_the_limits_per_address_count_on_the_servers_clock() -> None:
    clock = ManualClock()
    caps = Caps()
    limits = LocalLimits(clock, caps)
    for _ in range(caps.misses_per_minute):
        limits.take_misses("10.0.0.1", 1)  # a wrong code
    with pytest.raises(TooMany, match="too many wrong room codes"):
        limits.take_misses("10.0.0.1", 0)  # not even a known one is told
    assert limits.take_misses("10.0.0.2", 0) == caps.misses_per_minute  # another address is not held back
    clock.advance(60_000)
    assert limits.take_misses("10.0.0.1", 0) == caps.misses_per_minute  # a minute after the wrong codes
    for _ in range(caps.rooms_per_hour):
        limits.take_room("10.0.0.1").use()
    with pytest.raises(TooMany, match=f"at most {caps.rooms_per_hour}"):
        limits.take_room("10.0.0.1")
    clock.advance(3_600_000)
    limits.take_room("10.0.0.1")  # an hour later
