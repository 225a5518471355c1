"""The server's own timing of a socket (web/wslink.py), on a virtual clock: a ping timed to its pong, the
kernel's figure alone when no pong comes, and pongs that answer nothing of its own ignored."""

from __future__ import annotations

from typing import Any, cast

from ratscrew.web.wslink import PONG_WAIT_S, LinkTimer, TimedWebSocket


class FakeLoop:
    """Just the loop calls the timer makes, on time that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, Any]] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Any) -> Any:
        self.timers.append((self.now + delay, callback))
        return self

    def cancel(self) -> None:  # the handle call_later returned
        self.timers.clear()

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [t for t in self.timers if t[0] <= self.now]
        self.timers = [t for t in self.timers if t[0] > self.now]
        for _at, callback in due:
            callback()


class FakeSocket:
    def getsockopt(self, level: int, option: int, size: int) -> bytes:
        return bytes(8) + (0).to_bytes(4, "little") * 15 + (1500).to_bytes(4, "little")  # tcpi_rtt: 1500 us


class FakeProtocol:
    """What the timer reads and writes of uvicorn's protocol: its loop, its connection and its transport."""

    def __init__(self) -> None:
        self.loop = FakeLoop()
        self.close_sent = False
        self.pings: list[bytes] = []
        self.conn = self
        self.transport = self

    def send_ping(self, payload: bytes) -> None:
        self.pings.append(payload)

    def data_to_send(self) -> list[bytes]:
        return [b"frame"]

    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str) -> object:
        return FakeSocket() if name == "socket" else None


def test_the_link_timer_times_pings_and_falls_back_on_the_kernel() -> None:
    protocol = FakeProtocol()
    timer = LinkTimer(cast(TimedWebSocket, protocol))
    reports: list[tuple[float | None, float | None]] = []
    timer.start(2.0, lambda ping, tcp: reports.append((ping, tcp)))
    assert len(protocol.pings) == 1  # at once
    assert not timer.pong(b"not ours")  # uvicorn's own keepalive pongs go on to uvicorn
    protocol.loop.advance(0.12)
    assert timer.pong(protocol.pings[0])
    assert reports == [(120.0, 1.5)]
    assert not timer.pong(protocol.pings[0])  # an answered ping is not answered twice
    protocol.loop.advance(2.0)  # the next ping goes out; its pong never comes
    assert len(protocol.pings) == 2
    for _ in range(round(PONG_WAIT_S / 2.0) + 1):
        protocol.loop.advance(2.0)
    assert reports[1] == (None, 1.5)  # the kernel's figure alone
    assert len(protocol.pings) == 3  # and pings go on
    timer.stop()
    protocol.loop.advance(10.0)
    assert len(protocol.pings) == 3
