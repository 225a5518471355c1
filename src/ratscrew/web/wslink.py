"""The websocket protocol the server runs: uvicorn's own, plus a way for a room's socket to time its link.

A slap is credited with the lag of its player's link, so that lag must be measured where no page's script
can slow it down. ASGI gives an application no ping and no socket, so this protocol (the class uvicorn
picks by itself, subclassed) puts a :class:`LinkTimer` into the connection's scope under ``LINK_EXTENSION``.
Every few seconds the timer sends a websocket ping and times the pong on the server's clock (a browser's
network stack answers pings, not the page), and reads the kernel's smoothed round trip of the TCP
connection (``TCP_INFO``, Linux). Behind a proxy the kernel's figure is the proxy's link; the ping still
goes all the way to the player.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import struct
from collections.abc import Callable, Mapping
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame
from websockets.http11 import Request

LINK_EXTENSION = "ratscrew.link"
PONG_WAIT_S = 5.0  # a ping not answered by then is given up (the kernel's figure is reported alone)
_TCP_INFO = getattr(socket, "TCP_INFO", None)  # Linux only
_TCP_INFO_RTT = struct.Struct("=8B16I")  # struct tcp_info: 8 one-byte fields, then tcpi_rto ... tcpi_rtt (µs)

Report = Callable[[float | None, float | None], None]  # (ping round trip, kernel's round trip), in ms


class TimedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, which also lends its pings to the application (``LinkTimer``)."""

    link: LinkTimer | None = None

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:
            # The application's task was created just now and has not run yet: it finds the timer in its scope.
            self.link = LinkTimer(self)
            extensions = self.scope.setdefault("extensions", {})
            if extensions is not None:
                extensions[LINK_EXTENSION] = {"timer": self.link}

    def handle_pong(self, event: Frame) -> None:
        if self.link is None or not self.link.pong(bytes(event.data)):
            super().handle_pong(event)  # uvicorn's keepalive pings

    def connection_lost(self, exc: Exception | None) -> None:
        if self.link is not None:
            self.link.stop()
        super().connection_lost(exc)


class LinkTimer:
    """Times one connection every ``every_s`` seconds once started, and reports each figure."""

    def __init__(self, protocol: TimedWebSocket) -> None:
        self._protocol = protocol
        self._loop = protocol.loop
        self._report: Report | None = None
        self._every_s = 0.0
        self._handle: asyncio.TimerHandle | None = None
        self._waiting: tuple[bytes, float] | None = None  # the ping in flight and when it was sent

    def start(self, every_s: float, report: Report) -> None:
        """Time the link now and every ``every_s`` seconds, calling ``report`` on the event loop."""
        self._report, self._every_s = report, every_s
        self._tick()

    def stop(self) -> None:
        self._report = None
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self) -> None:
        self._handle = None
        if self._report is None:
            return
        waiting, now = self._waiting, self._loop.time()
        if waiting is not None and now - waiting[1] >= PONG_WAIT_S:
            self._waiting = None
            self._report(None, self.tcp_rtt_ms())
        if self._waiting is None:
            self._ping(now)
        self._handle = self._loop.call_later(self._every_s, self._tick)

    def _ping(self, now: float) -> None:
        protocol = self._protocol
        if protocol.close_sent or protocol.transport.is_closing():
            return
        payload = secrets.token_bytes(8)  # unguessable: a pong sent ahead of its ping cannot match it
        with contextlib.suppress(Exception):  # the connection is closing: nothing to time
            protocol.conn.send_ping(payload)
            protocol.transport.write(b"".join(protocol.conn.data_to_send()))
            self._waiting = (payload, now)

    def pong(self, payload: bytes) -> bool:
        """A pong came: True if it answers this timer's ping (and it was reported)."""
        waiting = self._waiting
        if waiting is None or payload != waiting[0]:
            return False
        self._waiting = None
        if self._report is not None:
            self._report((self._loop.time() - waiting[1]) * 1000.0, self.tcp_rtt_ms())
        return True

    def tcp_rtt_ms(self) -> float | None:
        """The kernel's smoothed round trip of this TCP connection, where the platform tells it."""
        sock: Any = self._protocol.transport.get_extra_info("socket")
        if _TCP_INFO is None or sock is None:
            return None
        try:
            raw = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, _TCP_INFO_RTT.size)
            return float(_TCP_INFO_RTT.unpack_from(raw)[-1]) / 1000.0
        except (OSError, struct.error, ValueError):
            return None


def timer_of(scope: Mapping[str, Any]) -> LinkTimer | None:
    """The link timer of a websocket's scope, if the server runs ``TimedWebSocket``."""
    extension = (scope.get("extensions") or {}).get(LINK_EXTENSION)
    timer = extension.get("timer") if isinstance(extension, dict) else None
    return timer if isinstance(timer, LinkTimer) else None
