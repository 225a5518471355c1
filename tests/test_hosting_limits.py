"""The limits of ``ratscrew serve`` cannot leak or lock anyone out, with a real redis-server:

- a worker (``python -m ratscrew.hosting.worker``, as ``serve`` starts it) with 300 sockets from 10 addresses
  all dropped at once, while Redis is busy for a fifth of a second: no count is left behind, and the worker's
  table is written again at start (a count from before is gone);
- Redis stopped (SIGSTOP) four times while sockets close, then resumed: the address's count heals to its open
  sockets, and it opens as many more as its cap allows;
- a worker killed with -9 with sockets open: its counts expire on their own;
- Redis killed under two workers (in-process): each counts its share of each cap, says so once in its log
  and in its metrics, and is ready, degraded; once Redis is back, one line says so;
- Redis stopped: the open lobby answers from what the worker last saw, without asking Redis for each request;
- a cancel that redis-py lets go (it answered, or raised, instead) still ends the task that was cancelled.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from starlette.testclient import TestClient
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from harness.lookups import new_prefix
from harness.site import call, eventually_answers, free_ports, require_programs, start_redis
from ratscrew.errors import TooMany
from ratscrew.hosting.link import RedisLink
from ratscrew.hosting.settings import ENV, Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.limits import Caps, Lease
from ratscrew.rooms import wire
from ratscrew.web.app import create_app

T = TypeVar("T")
CAP = Caps().sockets


@pytest.fixture
def redis_port(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    require_programs(("redis-server",))
    (port,) = free_ports(1)
    server = start_redis(tmp_path, port)
    try:
        eventually_answers(port)
        yield port, server
    finally:
        server.send_signal(signal.SIGCONT)
        server.kill()
        server.wait()


def on_a_thread(work: Callable[[], Any]) -> Any:
    """``asyncio.run`` of ``work()`` on a thread of its own (Playwright's loop may hold this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(work())).result(timeout=300)


def until(test: Callable[[], T], what: str, seconds: float = 60.0) -> T:
    """``test()`` once it is true (a generous deadline: this is no timing, only a condition to wait for)."""
    deadline = time.monotonic() + seconds
    while True:
        found = test()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still {found!r} after {seconds:.0f} s")
        time.sleep(0.1)


class Worker:
    """One worker of ``ratscrew serve``, as the supervisor starts it, on a free port."""

    def __init__(self, folder: Path, redis_port: int, reconcile_s: float) -> None:
        (port,) = free_ports(1)
        self.hosting = Hosting(
            ports=(port,),
            data_dir=folder / "data",
            redis_url=f"redis://127.0.0.1:{redis_port}/0",
            reconcile_s=reconcile_s,
            prefix=new_prefix(),
            drain_s=1.0,
        )
        self.url = f"http://127.0.0.1:{port}"
        folder.mkdir(parents=True)
        self.log = folder / "worker.log"
        env = {**os.environ, ENV: self.hosting.to_env()}
        command = [sys.executable, "-m", "ratscrew.hosting.worker"]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=self.log.open("wb"))
        self.store = redis.Redis(port=redis_port, decode_responses=True)

    def ready(self) -> None:
        def answers() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"the worker ended: {self.log.read_text()[-2000:]}")
            try:
                return call(self.url + "/readyz")[0] == 200
            except OSError:
                return False

        until(answers, "the worker ready")

    def counts(self) -> dict[str, int]:
        """What Redis counts of this worker's sockets, by address."""
        table = self.store.hgetall(f"{self.hosting.prefix}sockets:0")
        return {str(client): int(count) for client, count in table.items()}

    def sockets(self) -> int:
        """The sockets the worker has open, from its metrics."""
        _, _, text = call(self.url + "/metrics")
        line = next(line for line in str(text).splitlines() if line.startswith("ratscrew_sockets{"))
        return int(float(line.split()[-1]))

    def room(self, source: str) -> str:
        status, _, doc = call(self.url + "/api/rooms", {"seats": 4}, source=source)
        assert status == 200, doc
        return str(doc["code"])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def worker_factory(tmp_path: Path) -> Iterator[Callable[[int, float], Worker]]:
    started: list[Worker] = []

    def start(redis_port: int, reconcile_s: float) -> Worker:
        worker = Worker(tmp_path / f"worker{len(started)}", redis_port, reconcile_s)
        started.append(worker)
        return worker

    try:
        yield start
    finally:
        for worker in started:
            worker.stop()


async def open_socket(worker: Worker, code: str, source: str) -> ClientConnection | int:
    """A page's socket to ``code`` from ``source``, welcomed; else the code it was closed with."""
    url = worker.url.replace("http", "ws") + f"/ws/rooms/{code}"
    ws = await connect(url, local_addr=(source, 0), open_timeout=60, ping_interval=None, proxy=None)
    try:
        await ws.send(json.dumps(wire.Hello(wire.VERSION, None, -1).to_json()))
        first = json.loads(await asyncio.wait_for(ws.recv(), 60))
    except ConnectionClosed:
        return ws.close_code or 0
    if first.get("type") == "welcome":
        return ws
    await ws.wait_closed()
    return ws.close_code or 0


def address(index: int) -> str:
    return f"127.0.0.{2 + index}"


def test_many_sockets_from_many_addresses_dropped_at_once_leave_no_count_behind(
    redis_port: tuple[int, subprocess.Popen[bytes]], worker_factory: Callable[[int, float], Worker]
) -> None:
    port, server = redis_port
    # Hours between reconciles: only the settling of each closed socket can take the counts back down.
    worker = worker_factory(port, 3600.0)
    stale = f"{worker.hosting.prefix}sockets:0"
    worker.store.hset(stale, "10.9.9.9", 5)  # left from this worker's life before it was killed
    worker.ready()
    assert worker.counts() == {}  # written again whole at start
    addresses, each = 10, 30
    codes = [worker.room(address(i)) for i in range(addresses)]

    async def scene() -> None:
        opened: list[ClientConnection | int] = []
        for i in range(addresses):  # each address's pages opening together, one address after the other
            opened += await asyncio.gather(*(open_socket(worker, codes[i], address(i)) for _ in range(each)))
        live = [ws for ws in opened if isinstance(ws, ClientConnection)]
        assert len(live) == addresses * each, [ws for ws in opened if not isinstance(ws, ClientConnection)][:5]
        counted = {address(i): each for i in range(addresses)}
        await asyncio.to_thread(until, lambda: worker.counts() == counted, "every socket counted")
        # Every socket dropped at once (no closing handshake: a network gone, a proxy restarted) while Redis is
        # busy for a fifth of a second (a fork to save, a busy machine): the releases pile up meanwhile.
        server.send_signal(signal.SIGSTOP)
        for ws in live:
            ws.transport.abort()
        await asyncio.sleep(0.2)
        server.send_signal(signal.SIGCONT)

    on_a_thread(scene)
    until(lambda: worker.sockets() == 0, "the worker's sockets closed")
    until(lambda: worker.counts() == {} or None, "no count left in Redis")


def test_redis_stalled_while_sockets_close_heals_and_the_address_is_not_locked_out(
    redis_port: tuple[int, subprocess.Popen[bytes]], worker_factory: Callable[[int, float], Worker]
) -> None:
    port, server = redis_port
    worker = worker_factory(port, 1.0)
    worker.ready()
    source = address(0)
    code = worker.room(source)

    async def scene() -> list[int | str]:
        live = [await open_socket(worker, code, source) for _ in range(CAP)]
        assert all(isinstance(ws, ClientConnection) for ws in live)
        for _ in range(4):  # four one-second stalls, three sockets closing in each
            server.send_signal(signal.SIGSTOP)
            for ws in live[:3]:
                assert isinstance(ws, ClientConnection)
                await ws.close()
            del live[:3]
            await asyncio.sleep(1)
            server.send_signal(signal.SIGCONT)
            await asyncio.sleep(0.3)
        await asyncio.to_thread(until, lambda: worker.counts().get(source) == CAP - 12, "the count healed")
        more = [await open_socket(worker, code, source) for _ in range(13)]
        return ["open" if isinstance(ws, ClientConnection) else ws for ws in more]

    more = on_a_thread(scene)
    assert more == ["open"] * 12 + [wire.CloseCode.TOO_MANY]  # as many as the cap allows, and the cap holds


def test_a_worker_killed_with_sockets_open_leaves_counts_that_expire(
    redis_port: tuple[int, subprocess.Popen[bytes]], worker_factory: Callable[[int, float], Worker]
) -> None:
    port, _server = redis_port
    worker = worker_factory(port, 1.0)  # its table lives three seconds after it was last written
    worker.ready()
    source = address(1)
    code = worker.room(source)

    async def scene() -> None:
        live = [await open_socket(worker, code, source) for _ in range(10)]
        assert worker.counts() == {source: 10}
        worker.process.kill()  # no supervisor here to start it again
        worker.process.wait()
        await asyncio.to_thread(until, lambda: worker.counts() == {} or None, "the dead worker's counts gone")
        for ws in live:
            if isinstance(ws, ClientConnection):
                ws.transport.abort()

    on_a_thread(scene)


class TwoWorkers:
    """Workers 0 and 1 of ``ratscrew serve``, in this process, sharing one Redis."""

    def __init__(self, folder: Path, redis_port: int, rooms_per_hour: int) -> None:
        prefix, url, ports = new_prefix(), f"redis://127.0.0.1:{redis_port}/0", (8001, 8002)
        self.setups = [
            Hosted(
                Hosting(
                    ports=ports,
                    data_dir=folder / f"w{worker}",
                    redis_url=url,
                    prefix=prefix,
                    worker=worker,
                    rooms_per_hour=rooms_per_hour,
                ),
                lambda: False,
            )
            for worker in (0, 1)
        ]
        self.clients = [TestClient(create_app(s.hosting.data_dir, setup=s)) for s in self.setups]

    def __enter__(self) -> TwoWorkers:
        for client in self.clients:
            client.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        for client in self.clients:
            client.__exit__(None, None, None)


def away_lines(caplog: pytest.LogCaptureFixture, words: str) -> int:
    return sum(1 for record in caplog.records if words in record.getMessage())


def test_with_redis_killed_each_worker_counts_its_share_says_so_once_and_stays_ready(
    tmp_path: Path, redis_port: tuple[int, subprocess.Popen[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    port, server = redis_port
    caplog.set_level(logging.WARNING)
    with TwoWorkers(tmp_path, port, rooms_per_hour=6) as site:
        for client in site.clients:
            assert client.get("/readyz").json()["degraded"] is False
            assert 'ratscrew_redis_away{worker="' in client.get("/metrics").text
        until(lambda: all(s.lobbies is not None and s.lobbies.alive == 2 for s in site.setups), "both workers seen")
        server.kill()
        server.wait()
        for worker, client in enumerate(site.clients):
            made = [client.post("/api/rooms", json={"seats": 2}).status_code for _ in range(4)]
            assert made == [200, 200, 200, 429], worker  # half the cap of 6 on each: 6 in all, not 12
            wrong = [client.get("/api/rooms/ZZZZZ8").status_code for _ in range(11)]
            assert wrong == [404] * 10 + [429], worker  # half of 20 a minute
            limits, portal = site.setups[worker].shared, client.portal
            assert limits is not None and portal is not None
            leases: list[Lease] = [portal.call(limits.socket, "198.51.100.7") for _ in range(CAP // 2)]
            with pytest.raises(TooMany, match=f"at most {CAP // 2}"):  # half of 48
                portal.call(limits.socket, "198.51.100.7")
            for lease in leases:
                lease.close()
            ready = client.get("/readyz")
            assert ready.status_code == 200 and ready.json()["ready"] is True and ready.json()["degraded"] is True
            assert f'ratscrew_redis_away{{worker="{worker}"}} 1.0' in client.get("/metrics").text
        assert away_lines(caplog, "Redis is away") == 2  # one line a worker, however many calls found it away
        back = start_redis(tmp_path, port)
        try:
            eventually_answers(port)
            until(lambda: all(c.get("/readyz").json()["degraded"] is False for c in site.clients), "Redis back")
            for worker, client in enumerate(site.clients):
                assert f'ratscrew_redis_away{{worker="{worker}"}} 0.0' in client.get("/metrics").text
            assert away_lines(caplog, "Redis is back") == 2 and away_lines(caplog, "Redis is away") == 2
        finally:
            back.kill()
            back.wait()


def test_with_redis_stalled_the_lobby_answers_from_what_it_last_saw_without_asking_redis(
    tmp_path: Path, redis_port: tuple[int, subprocess.Popen[bytes]]
) -> None:
    port, server = redis_port
    with TwoWorkers(tmp_path, port, rooms_per_hour=60) as site:
        one, other = site.clients
        public = other.post("/api/rooms", json={"seats": 2, "public": True, "name": "Ann"}).json()["code"]
        until(lambda: public in [r["code"] for r in one.get("/api/rooms").json()["rooms"]], "the other's lobby")
        link = site.setups[0].link
        assert link is not None
        asked: list[int] = []
        pool: Any = link.client.connection_pool
        taking = pool.get_connection

        async def counted(*args: Any, **kwargs: Any) -> Any:
            asked.append(1)
            return await taking(*args, **kwargs)

        pool.get_connection = counted
        server.send_signal(signal.SIGSTOP)
        first = one.get("/api/rooms").json()["rooms"]  # waits once for Redis, and finds it away
        until(lambda: not link.up, "Redis found away")
        asked.clear()
        lists = [one.get("/api/rooms").json()["rooms"] for _ in range(20)]
        assert asked == []  # twenty lists, not one call to Redis (nor a wait for it)
        assert all(public in [r["code"] for r in listed] for listed in [first, *lists])
        server.send_signal(signal.SIGCONT)


def test_a_cancel_that_redis_py_lets_go_still_ends_the_task() -> None:
    """redis-py can answer normally (or with an error) when a cancel lands inside one of its pipelines: the
    link must not lose the cancel, or a worker's background task never ends, nor the worker stop."""
    (port,) = free_ports(1)

    async def scene() -> list[str]:
        link = RedisLink(f"redis://127.0.0.1:{port}/0")
        ended = []
        for answering in (True, False):

            async def letting_go(answering: bool = answering) -> str:
                try:
                    await asyncio.sleep(60)
                except asyncio.CancelledError:
                    if answering:
                        return "an answer"
                    raise redis.ConnectionError("closed while reading") from None
                return "slept"

            task = asyncio.get_running_loop().create_task(link.run(letting_go))
            await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                ended.append("cancelled")
        assert link.up  # and a cancel is no sign that Redis is away
        await link.close()
        return ended

    assert on_a_thread(scene) == ["cancelled", "cancelled"]
