#!/usr/bin/env python3
"""Socket counts in Redis after many sockets close together, and after Redis stalls while sockets close.

``ratscrew serve`` (one worker, a real redis-server, both on free ports, no proxy) in a subprocess, from this
tree or from a revision's ``src/`` (``--against REV``, exported with ``git archive``). Two scenes, each on a
fresh server and Redis:

- **burst**: ``--addresses`` loopback addresses (127.0.0.x) each make a room and open their share of
  ``--sockets`` sockets to it; then every socket is dropped at once (its TCP connection aborted, as when a
  client's network drops or a proxy restarts) while Redis is busy for a fifth of a second (a fork for a save,
  a busy machine: less than the workers' timeout). Printed: the counts Redis still holds one
  second after the worker saw the last socket go, and again after ``--settle`` seconds (a worker that
  reconciles its counts with its live sockets has healed by then; one that does not never will).
- **stalls**: one address opens 48 sockets (its cap); four times Redis is stopped (SIGSTOP) for a second while
  three of them close, then resumed. Printed: the address's count in Redis after ``--settle`` seconds (36
  sockets are open) and how many of 12 new sockets it may open then (all 12, unless it is locked out).

Usage: python bench/socket_counts.py [--sockets 300] [--addresses 10] [--settle 8] [--rounds 1] [--against REV]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from ratscrew.rooms import wire

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # harness/: free ports, a redis-server, calls from an address
sys.path.insert(0, str(ROOT / "bench"))
from simulate_speed import export_src  # noqa: E402

from harness.site import call, free_ports, start_redis  # noqa: E402

PREFIX = "ratscrew:"
CAP = 48
PAUSE_S = 0.2


class Served:
    """A redis-server and ``ratscrew serve`` with one worker, from the ``src`` folder given."""

    def __init__(self, src: Path, folder: Path) -> None:
        folder.mkdir(parents=True)
        self.folder = folder
        redis_port, self.port = free_ports(2)
        self.redis = start_redis(folder, redis_port)
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "ratscrew", "serve", "--ports", str(self.port), "--data", str(folder / "d")]
        command += ["--redis", f"redis://127.0.0.1:{redis_port}/0"]
        env = {**os.environ, "PYTHONPATH": str(src)}
        log = (folder / "serve.log").open("wb")
        self.serve = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.store = redis.Redis(port=redis_port, decode_responses=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                if call(self.url + "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or self.serve.poll() is not None:
                raise RuntimeError(f"the server did not start; see {folder / 'serve.log'}")
            time.sleep(0.2)

    def counts(self) -> dict[str, int]:
        """Every address's socket count as Redis holds it, summed over the workers' tables."""
        found: dict[str, int] = {}
        for key in self.store.scan_iter(f"{PREFIX}sockets:*"):
            for client, count in self.store.hgetall(key).items():
                found[str(client)] = found.get(str(client), 0) + int(count)
        return {client: count for client, count in found.items() if count}

    def open_sockets(self) -> int:
        _status, _, text = call(self.url + "/metrics")
        for line in str(text).splitlines():
            if line.startswith("ratscrew_sockets{"):
                return int(float(line.split()[-1]))
        raise RuntimeError("no ratscrew_sockets in /metrics")

    def stop(self) -> None:
        for process in (self.serve, self.redis):
            if process.poll() is None:
                process.send_signal(signal.SIGCONT if process is self.redis else signal.SIGTERM)
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def address(index: int) -> str:
    return f"127.0.0.{2 + index}"


def make_room(served: Served, source: str) -> str:
    status, _, doc = call(served.url + "/api/rooms", {"seats": 4}, source=source)
    assert status == 200, doc
    return str(doc["code"])


async def open_socket(served: Served, code: str, source: str) -> ClientConnection | None:
    """A page's socket to ``code`` from ``source``, welcomed; None if it was refused."""
    url = served.url.replace("http", "ws") + f"/ws/rooms/{code}"
    ws = await connect(url, local_addr=(source, 0), open_timeout=30, ping_interval=None, proxy=None)
    try:
        await ws.send(json.dumps({"type": "hello", "v": wire.VERSION, "token": None, "since": -1}))
        first = json.loads(await asyncio.wait_for(ws.recv(), 30))
    except ConnectionClosed:
        return None
    if first.get("type") != "welcome":
        await ws.close()
        return None
    return ws


def until(test: object, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not test() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.1)


async def burst(served: Served, sockets: int, addresses: int, settle: float) -> tuple[int, int]:
    codes = [make_room(served, address(i)) for i in range(addresses)]
    opened = await asyncio.gather(
        *(open_socket(served, codes[i % addresses], address(i % addresses)) for i in range(sockets))
    )
    live = [ws for ws in opened if ws is not None]
    assert len(live) == sockets, f"only {len(live)} of {sockets} sockets opened"
    # Redis busy for a fifth of a second (a fork for a save, a busy machine: less than the workers' timeout)
    # while every socket drops at once, as when a network drops or a proxy restarts: no closing handshake.
    served.redis.send_signal(signal.SIGSTOP)
    for ws in live:
        ws.transport.abort()
    await asyncio.sleep(PAUSE_S)
    served.redis.send_signal(signal.SIGCONT)
    until(lambda: served.open_sockets() == 0, 60)
    await asyncio.sleep(1)
    soon = sum(served.counts().values())
    await asyncio.sleep(settle)
    return soon, sum(served.counts().values())


async def stalls(served: Served, settle: float) -> tuple[int, int]:
    source = address(0)
    code = make_room(served, source)
    opened = [await open_socket(served, code, source) for _ in range(CAP)]
    live = [ws for ws in opened if ws is not None]
    assert len(live) == CAP, f"only {len(live)} of {CAP} sockets opened"
    for _ in range(4):
        served.redis.send_signal(signal.SIGSTOP)
        await asyncio.gather(*(ws.close() for ws in live[:3]))
        del live[:3]
        await asyncio.sleep(1)
        served.redis.send_signal(signal.SIGCONT)
        await asyncio.sleep(0.5)
    await asyncio.sleep(settle)
    counted = served.counts().get(source, 0)
    more = [await open_socket(served, code, source) for _ in range(12)]
    taken = sum(1 for ws in more if ws is not None)
    await asyncio.gather(*(ws.close() for ws in [*live, *more] if ws is not None))
    return counted, taken


def run(src: Path, args: argparse.Namespace, name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for round_no in range(args.rounds):
            served = Served(src, Path(tmp) / f"burst{round_no}")
            try:
                soon, later = asyncio.run(burst(served, args.sockets, args.addresses, args.settle))
            finally:
                served.stop()
            print(
                f"{name}: {args.sockets} sockets from {args.addresses} addresses closed at once: "
                f"{soon} counts left after 1 s, {later} after {args.settle:.0f} s more",
                flush=True,
            )
        served = Served(src, Path(tmp) / "stalls")
        try:
            counted, taken = asyncio.run(stalls(served, args.settle))
        finally:
            served.stop()
        print(
            f"{name}: 4 one-second Redis stalls while 12 of {CAP} sockets closed: the address counted at {counted} "
            f"(36 open) after {args.settle:.0f} s; {taken} of 12 new sockets opened",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--addresses", type=int, default=10)
    parser.add_argument("--settle", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=1, help="times the burst scene is run (its leak varies)")
    parser.add_argument("--against", help="also run a revision's src/ (exported with git archive)")
    args = parser.parse_args()
    run(ROOT / "src", args, "this tree")
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            run(export_src(args.against, Path(tmp)), args, args.against)


if __name__ == "__main__":
    main()
