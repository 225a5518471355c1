"""What each proxy does, with the configuration ``ratscrew serve`` prints, when a worker is away: a request
without a room code (a page, the lobby, creating a room or a match) goes to another worker, whether the first
refuses the connection (restarting) or takes the request and dies before answering (killed mid-request);
but a POST already sent is never sent again, since the worker may have made the room before it died; and a
request about a room never goes to a worker that does not hold it.

The workers here are stand-ins on loopback that record every request they read: one answers, the other
reads each request and drops the connection unanswered (then, its port closed, refuses them). Real workers,
one killed under a stream of requests, are in test_hosting.py and test_hosting_proxies.py."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.site import CODELESS, START_PROXY, Site, call, free_ports, require_programs
from ratscrew.hosting.ring import Letters, Ring
from ratscrew.hosting.settings import Hosting
from ratscrew.rooms.runner import CODE_ALPHABET

SETUPS = ("nginx", "nginx-letters", "haproxy", "caddy")


class StandIn:
    """A worker's stand-in: reads each request whole and answers it (``answers``), or drops the connection
    without a word (an RST, as when a worker is killed with the request read)."""

    def __init__(self, name: str, answers: bool) -> None:
        self.name = name
        self.answers = answers
        self.seen: list[tuple[str, str]] = []
        self.loop = asyncio.new_event_loop()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.server: asyncio.Server | None = None
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(30)

    async def _start(self) -> None:
        self.server = await asyncio.start_server(self._serve, sock=self.listener)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                method, path = head.split(b" ", 2)[:2]
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                await reader.readexactly(length)
                self.seen.append((method.decode(), path.decode()))
                if not self.answers:
                    sock = writer.get_extra_info("socket")
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    writer.transport.abort()
                    return
                body = json.dumps({"worker": self.name}).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    + f"Content-Length: {len(body)}\r\nX-Ratscrew-Worker: {self.name}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    def refuse(self) -> None:
        """Stop listening: connections are refused from now on, as while a worker restarts."""

        async def close() -> None:
            assert self.server is not None
            self.server.close()
            await self.server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(30)

    def stop(self) -> None:
        if self.server is not None and self.server.is_serving():
            self.refuse()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


@pytest.fixture(params=SETUPS)
def proxied(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Site, StandIn, StandIn]]:
    setup: str = request.param
    proxy = setup.split("-")[0]
    require_programs((proxy,))
    dropping, answering = StandIn("0", answers=False), StandIn("1", answers=True)
    routing = "hash" if setup == "nginx" else "letters"
    hosting = Hosting(ports=(dropping.port, answering.port), data_dir=tmp_path / "data", routing=routing)
    (port,) = free_ports(1)
    site = Site(tmp_path, hosting, {proxy: f"http://127.0.0.1:{port}"}, redis_port=0)
    try:
        site.processes[proxy] = START_PROXY[proxy](hosting, port, tmp_path / proxy)
        wait_listening(port, site)
        yield setup, site, dropping, answering
    finally:
        site.stop()
        dropping.stop()
        answering.stop()


def wait_listening(port: int, site: Site) -> None:
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            return
        except OSError:
            for name, process in site.processes.items():
                assert process.poll() is None, f"{name} ended; see {site.folder}"
            threading.Event().wait(0.05)
    raise AssertionError(f"nothing listens on port {port}; see {site.folder}")


def a_code_of_worker_0(hosting: Hosting) -> str:
    ring = Letters(2) if hosting.routing == "letters" else Ring(hosting.servers)
    return next(code for first in CODE_ALPHABET if ring.owner(code := first + "2345A") == 0)


def ask(site: Site, method: str, path: str, index: int) -> int:
    body = {"seats": 2} if method == "POST" else None
    status, _, _ = call(site.url + path, body, source=f"127.0.70.{index % 200 + 1}")
    return status


def test_a_codeless_request_goes_to_another_worker_and_a_post_sent_is_never_sent_again(
    proxied: tuple[str, Site, StandIn, StandIn],
) -> None:
    setup, site, dropping, answering = proxied
    # Worker 0 reads each request and dies before answering.
    asked = [(method, path) for _ in range(6) for method, path in CODELESS]
    answers = [ask(site, method, path, index) for index, (method, path) in enumerate(asked)]
    posts_dropped = [seen for seen in dropping.seen if seen[0] == "POST"]
    assert posts_dropped, f"no POST reached worker 0 through {setup}: the test proves nothing"
    for method, path in posts_dropped:  # the proxy did not send them to worker 1 as well
        assert answering.seen.count((method, path)) == asked.count((method, path)) - posts_dropped.count(
            (method, path)
        ), (setup, method, path)
    assert answers.count(502) >= len(posts_dropped)  # those POSTs were answered with an error, not made twice
    if setup.startswith("nginx"):  # nginx also tries the next worker for a GET it had sent
        gets = [index for index, (method, _) in enumerate(asked) if method == "GET"]
        assert all(answers[index] == 200 for index in gets)

    # Worker 0 restarting: its port refuses connections. Every codeless request is answered by worker 1.
    dropping.refuse()
    before = len(answering.seen)
    answers = [ask(site, method, path, 100 + index) for index, (method, path) in enumerate(asked)]
    assert answers == [200] * len(asked), (setup, answers)
    assert len(answering.seen) - before == len(asked)

    # A request about a room of worker 0 is never sent to worker 1, which does not hold it.
    code = a_code_of_worker_0(site.hosting)
    for path in (f"/api/rooms/{code}", f"/api/games/{code}-1/record"):
        assert ask(site, "GET", path, 199) >= 500
        assert all(seen[1] != path for seen in answering.seen), (setup, path)
