"""A worker's port refuses connections until the worker has started (its rooms restored): the proxy then passes
requests without a room code to another worker at once, where a port that accepted early held them until the
worker was ready (4 to 9 s under load in an operator's run, up to 14 s for one request)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.worker import worker_socket
from ratscrew.web.serve import server_config


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except ConnectionRefusedError:
        return True
    return False


@pytest.fixture
def held_port(tmp_path: Path) -> Iterator[tuple[socket.socket, int]]:
    for _ in range(5):  # a free port looked up may be taken by another worker of the suite before we bind it
        port = free_port()
        with contextlib.suppress(Exception):
            sock = worker_socket(Hosting(ports=(port,), data_dir=tmp_path))
            break
    else:
        raise RuntimeError("no free port to bind")
    try:
        yield sock, port
    finally:
        sock.close()


def test_a_workers_port_is_held_but_refuses_connections_until_it_serves(held_port: tuple[socket.socket, int]) -> None:
    sock, port = held_port
    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 0
    assert refused(port)
    with (
        pytest.raises(OSError, match="in use"),
        socket.socket() as other,
    ):  # held: nobody else can take the port meanwhile
        other.bind(("127.0.0.1", port))


def test_the_port_answers_once_the_apps_start_up_has_finished(held_port: tuple[socket.socket, int]) -> None:
    sock, port = held_port
    release = threading.Event()
    starting = threading.Event()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        starting.set()
        while not release.is_set():  # the rooms being restored
            await asyncio.sleep(0.01)
        yield

    async def hello(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ready")

    app = Starlette(routes=[Route("/", hello)], lifespan=lifespan)
    server = uvicorn.Server(server_config(app, own_logs=True))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert starting.wait(60)
        assert refused(port)  # starting: the proxy would try another worker
        release.set()
        deadline = time.monotonic() + 60
        while refused(port):
            assert time.monotonic() < deadline, "the port never answered after start-up"
            time.sleep(0.01)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert client.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        release.set()
        server.should_exit = True
        thread.join(30)
