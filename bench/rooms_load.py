#!/usr/bin/env python3
"""Load: many rooms of four scripted players on one server process, and a bare websocket echo to compare with.

One ``ratscrew play`` server runs in a subprocess. This process opens ``--rooms`` rooms over HTTP
(``POST /api/rooms``) and four websocket clients per room (asyncio, the ``websockets`` client): the host
and three players who sit, everyone presses ready, the host starts. Then they play: each flips a few
hundred ms after it becomes its turn, slaps a double a few hundred ms after seeing it (each player slaps
half the doubles, so races happen), answers every ``probe`` with ``echo``, and a finished game is followed
by a rematch. The slap-verdict latency is the time from sending a slap to receiving the ``events`` message
that holds that slap's verdict (``slap_correct``, ``wrong_slap`` or ``slap_dismissed`` for that seat).

Then, in the same run, a bare asyncio ``websockets`` echo server (another subprocess) gets as many clients,
each sending messages of the size the room clients received, as often as they received them; the round
trip of each is the echo latency. The server refuses more than 60 rooms an hour and 48 sockets from one
address, so clients spread over loopback addresses (127.0.x.y): ten rooms to an address.

Prints both latencies (p50, p99), the ratio of the p99s, the room's decision window (the hold before any
input is applied, part of every verdict's latency by design), the rooms and clients reached, and CPU use.

With ``--through-nginx`` the rooms run behind nginx instead (``ratscrew serve`` with Redis, as hosted; see
docs/hosting.md): first one worker, then two, then the echo through the same kind of nginx, all in one run;
it prints one line for each (rooms kept at the players' pace, verdicts, the window, what the server adds).
nginx runs from Debian's stock /etc/nginx/nginx.conf changed as docs/hosting.md says (harness/site.py),
not from a configuration of the benchmark's own.

Usage: python bench/rooms_load.py [--rooms 500] [--duration 30] [--quick] [--seed 1] [--through-nginx]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ratscrew.rooms import wire

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the hosted site the tests also start
from harness.site import free_ports, start_site

VERDICTS = ("slap_correct", "wrong_slap", "slap_dismissed")
SLAP_REFUSALS = ("game_over", "cannot_slap", "wrong_phase", "not_yours")
ROOMS_PER_ADDRESS = 10
SEATS = 4


def address_for(room: int) -> str:
    """The loopback address a room's clients connect from (the server's caps are per address)."""
    group = room // ROOMS_PER_ADDRESS
    return f"127.0.{1 + group // 250}.{2 + group % 250}"


@dataclass
class Stats:
    slap_ms: list[float] = field(default_factory=list)
    echo_ms: list[float] = field(default_factory=list)
    hold_ms: list[int] = field(default_factory=list)
    received: int = 0
    received_bytes: int = 0
    sent: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    by_type: Counter[str] = field(default_factory=Counter)
    by_verdict: dict[str, list[float]] = field(default_factory=dict)
    bytes_by_type: Counter[str] = field(default_factory=Counter)
    cards: int = 0
    games_over: int = 0
    closed: int = 0
    lost_slaps: int = 0
    measuring: bool = False


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cpu_seconds(pid: int | str = "self") -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# ---------------------------------------------------------------------- servers in subprocesses


def start_room_server(data: str, profile: str | None) -> tuple[subprocess.Popen[str], str]:
    under = ["-m", "cProfile", "-o", profile] if profile else []
    process = subprocess.Popen(
        [sys.executable, *under, "-m", "ratscrew", "play", "--no-browser", "--port", "0", "--data", data],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline().strip()
    prefix = "ratscrew: serving on "
    if not first.startswith(prefix):
        process.kill()
        raise SystemExit(f"the server did not start: {first!r}")
    return process, first[len(prefix) :].rstrip("/")


def start_echo_server() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, __file__, "--echo-server"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    first = process.stdout.readline().strip()
    if not first.startswith("echo: "):
        process.kill()
        raise SystemExit(f"the echo server did not start: {first!r}")
    return process, first[len("echo: ") :]


async def echo_server() -> None:
    async def handler(ws: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in ws:
                await ws.send(message)

    async with serve(handler, "127.0.0.1", 0, max_size=2**20) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"echo: ws://127.0.0.1:{port}/", flush=True)
        await asyncio.Future()


# ---------------------------------------------------------------------- the room clients


async def post_room(base: str, address: str, body: dict[str, object]) -> dict[str, Any]:
    """POST /api/rooms from ``address``, on a plain connection (no HTTP library needed for one request)."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(address, 0))
    payload = json.dumps(body).encode()
    head = (
        f"POST /api/rooms HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + payload)
    await writer.drain()
    response = await reader.read()
    writer.close()
    status = response.split(b" ", 2)[1]
    doc: dict[str, Any] = json.loads(response.split(b"\r\n\r\n", 1)[1])
    if status != b"200":
        raise RuntimeError(f"POST /api/rooms: {status.decode()} {doc}")
    return doc


class Player:
    def __init__(self, ws: ClientConnection, seat: int, stats: Stats, rng: random.Random) -> None:
        self.ws = ws
        self.seat = seat
        self.stats = stats
        self.rng = rng
        self.state: dict[str, Any] = {}
        self.room: dict[str, Any] = {}
        self.token: str | None = None
        self.waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.slaps: deque[float] = deque()
        self.flip_due: asyncio.TimerHandle | None = None
        self.last_seq = -1
        self.host = False
        self.started = False
        self.readied = False
        self.reader: asyncio.Task[None] | None = None

    async def send(self, doc: dict[str, object]) -> None:
        self.stats.sent[str(doc["type"])] += 1
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(json.dumps(doc))

    def send_soon(self, doc: dict[str, object]) -> None:
        asyncio.get_running_loop().create_task(self.send(doc))

    def expect(self, kind: str) -> asyncio.Future[dict[str, Any]]:
        """The next message of ``kind``, once it comes (ask before sending what it answers)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiters[kind] = future
        return future

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.on_message(raw)
        except ConnectionClosed:
            pass
        if self.stats.measuring:
            self.stats.closed += 1

    def on_message(self, raw: str | bytes) -> None:
        stats = self.stats
        now = time.perf_counter()
        doc: dict[str, Any] = json.loads(raw)
        kind = doc["type"]
        if stats.measuring:
            stats.received += 1
            stats.received_bytes += len(raw)
            stats.by_type[kind] += 1
            stats.bytes_by_type[kind] += len(raw)
        waiter = self.waiters.pop(kind, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(doc)
        if kind == "probe":
            self.send_soon({"type": "echo", "id": doc["id"]})
        elif kind == "events":
            for item in doc["items"]:
                self.last_seq = max(self.last_seq, item["seq"])
                event = item["event"]
                if event["kind"] in VERDICTS and event.get("seat") == self.seat and self.slaps:
                    sent = self.slaps.popleft()
                    if stats.measuring:
                        stats.slap_ms.append((now - sent) * 1000)
                        stats.by_verdict.setdefault(event["kind"], []).append((now - sent) * 1000)
                elif event["kind"] == "card_turned" and self.seat == 0 and stats.measuring:
                    stats.cards += 1
            self.on_state(doc["state"], doc["items"])
        elif kind == "state":  # the whole state: at a game's start, or instead of a backlog it could not take
            self.last_seq = doc["seq"]
            self.room = doc["room"]
            if doc["state"]:
                self.on_state(doc["state"], [])
        elif kind == "welcome":
            self.room = doc["room"]
            self.last_seq = doc["seq"]
        elif kind == "lobby":
            self.on_lobby(doc["room"])
        elif kind == "over":
            self.state = {**self.state, "over": True}
            if self.seat == 0:
                stats.games_over += 1
                self.send_soon({"type": "rematch"})
        elif kind == "rejected":
            stats.refused[doc["code"]] += 1
            if doc["code"] in SLAP_REFUSALS and self.slaps:
                self.slaps.pop()
            elif doc["code"] in ("not_your_turn", "waiting"):
                self.send_soon({"type": "resync", "since": self.last_seq})  # this page's view is behind
        elif kind == "error":
            stats.refused["error: " + str(doc["message"])[:40]] += 1

    def on_lobby(self, room: dict[str, Any]) -> None:
        before, self.room = self.room.get("phase"), room
        phase = room["phase"]
        if phase == "lobby" and not room["seats"][self.seat]["ready"] and not self.readied:
            self.readied = True  # once per lobby
            self.send_soon({"type": "ready", "ready": True})
        elif phase == "lobby" and self.host and all(s["ready"] for s in room["seats"]) and not self.started:
            self.started = True  # once per lobby
            self.send_soon({"type": "start"})
        elif phase == "playing" and before != "playing":
            self.started = self.readied = False
            self.state = {}
            self.send_soon({"type": "resync", "since": self.last_seq})  # the state before the first card

    def on_state(self, state: dict[str, Any], items: list[dict[str, Any]]) -> None:
        self.state = state
        if state.get("hold_ms") is not None and self.seat == 0 and self.stats.measuring:
            self.stats.hold_ms.append(state["hold_ms"])
        if state.get("over"):
            return
        turned = any(i["event"]["kind"] == "card_turned" for i in items)
        pile = state["pile"]
        if turned and len(pile) >= 2 and pile[-1][:-1] == pile[-2][:-1] and self.rng.random() < 0.5:
            delay = self.rng.uniform(0.2, 0.4)
            card = state["cards"]
            asyncio.get_running_loop().call_later(delay, self.slap, card, round(delay * 1000))
        if state["turn"] == self.seat and state["collect_pending"] is None and self.flip_due is None:
            self.flip_due = asyncio.get_running_loop().call_later(self.rng.uniform(0.3, 0.6), self.flip)

    def slap(self, card: int, rt: int) -> None:
        if self.state.get("over") or self.state.get("out", [False] * SEATS)[self.seat]:
            return
        self.slaps.append(time.perf_counter())
        self.send_soon({"type": "slap", "seat": self.seat, "card": card, "rt": rt})

    def flip(self) -> None:
        self.flip_due = None
        state = self.state
        if state and not state.get("over") and state["turn"] == self.seat and state["collect_pending"] is None:
            self.send_soon({"type": "flip", "seat": self.seat})

    def forget_old_slaps(self, now: float) -> None:
        while self.slaps and now - self.slaps[0] > 10:
            self.slaps.popleft()
            self.stats.lost_slaps += 1


async def open_player(url: str, address: str, seat: int, stats: Stats, rng: random.Random) -> Player:
    ws = await connect(url, open_timeout=60, proxy=None, local_addr=(address, 0), ping_interval=None)
    player = Player(ws, seat, stats, rng)
    player.reader = asyncio.get_running_loop().create_task(player.read())
    return player


async def set_up_room(base: str, index: int, stats: Stats, rng: random.Random) -> list[Player]:
    address = address_for(index)
    rules = {"preset": "standard"}
    created = await post_room(base, address, {"seats": SEATS, "name": "Host", "rules": rules})
    url = base.replace("http://", "ws://") + f"/ws/rooms/{created['code']}"
    host = await open_player(url, address, 0, stats, rng)
    host.host, host.token = True, created["token"]
    welcome = host.expect("welcome")
    await host.send({"type": "hello", "v": wire.VERSION, "token": created["token"], "since": -1})
    await asyncio.wait_for(welcome, 60)
    players = [host]
    for seat in range(1, SEATS):
        player = await open_player(url, address, seat, stats, rng)
        welcome = player.expect("welcome")
        await player.send({"type": "hello", "v": wire.VERSION, "token": None, "since": -1})
        await asyncio.wait_for(welcome, 60)
        seated = player.expect("seated")
        await player.send({"type": "sit", "seat": seat, "name": f"P{seat}"})
        player.token = (await asyncio.wait_for(seated, 60))["token"]
        players.append(player)
    playing = host.expect("events")
    for player in players:  # every ready; the host starts once it sees everyone ready (``on_lobby``)
        await player.send({"type": "ready", "ready": True})
    await asyncio.wait_for(playing, 120)
    return players


async def run_rooms(
    base: str, rooms: int, duration: float, seed: int, server_pid: int | list[int], setup_limit: float
) -> tuple[Stats, int, str]:
    stats = Stats()
    rng = random.Random(seed)
    gate = asyncio.Semaphore(25)
    set_up: list[list[Player]] = []
    failures: Counter[str] = Counter()

    async def one(index: int) -> None:
        async with gate:
            try:
                set_up.append(await set_up_room(base, index, stats, random.Random(rng.random())))
            except Exception as exc:
                failures[f"{type(exc).__name__}: {str(exc)[:100]}"] += 1

    start = time.perf_counter()
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(one(i)) for i in range(rooms)]
    _done, late = await asyncio.wait(tasks, timeout=setup_limit)
    for task in late:  # where it broke: rooms not playing within the limit are given up
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    if late:
        failures[f"not set up within {setup_limit:.0f} s"] += len(late)
    setup_s = time.perf_counter() - start
    clients = sum(len(p) for p in set_up)
    print(f"set up {len(set_up)} of {rooms} rooms ({clients} clients) in {setup_s:.1f} s", flush=True)
    for reason, count in failures.most_common(5):
        print(f"  {count} rooms failed: {reason}", flush=True)
    await asyncio.sleep(min(5.0, duration / 4))  # let the delay estimates and the decision windows settle
    pids = server_pid if isinstance(server_pid, list) else [server_pid]  # every worker of a hosted site
    server_cpu, own_cpu = sum(map(cpu_seconds, pids)), cpu_seconds()
    stats.measuring = True
    began = time.perf_counter()
    while time.perf_counter() - began < duration:
        await asyncio.sleep(1)
        now = time.perf_counter()
        for players in set_up:
            for player in players:
                player.forget_old_slaps(now)
    stats.measuring = False
    elapsed = time.perf_counter() - began
    server_cpu, own_cpu = sum(map(cpu_seconds, pids)) - server_cpu, cpu_seconds() - own_cpu
    note = (
        f"server CPU {server_cpu / elapsed:.0%} of a core, RSS {sum(map(rss_mib, pids)):.0f} MiB; "
        f"benchmark process CPU {own_cpu / elapsed:.0%} of a core"
    )
    stats.sent["_elapsed_ms"] = round(elapsed * 1000)
    await asyncio.gather(*(p.ws.close() for ps in set_up for p in ps), return_exceptions=True)
    await asyncio.gather(*(p.reader for ps in set_up for p in ps if p.reader is not None), return_exceptions=True)
    return stats, clients, note


# ---------------------------------------------------------------------- the echo clients


async def run_echo(
    url: str, clients: int, size: int, per_second: float, duration: float, server_pid: int
) -> tuple[list[float], str]:
    """``clients`` sockets, each sending a ``size``-byte message ``per_second`` times a second; round trips."""
    stats_ms: list[float] = []
    measuring = False
    pad = "x" * max(0, size - 40)

    async def client(index: int) -> ClientConnection:
        return await connect(url, open_timeout=60, proxy=None, ping_interval=None, max_size=2**20)

    gate = asyncio.Semaphore(100)

    async def opened(index: int) -> ClientConnection:
        async with gate:
            return await client(index)

    sockets = await asyncio.gather(*(opened(i) for i in range(clients)))
    stop = asyncio.Event()

    async def talk(ws: ClientConnection, rng: random.Random) -> None:
        pending: dict[int, float] = {}

        async def reader() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for raw in ws:
                    sent = pending.pop(json.loads(raw)["id"], None)
                    if sent is not None and measuring:
                        stats_ms.append((time.perf_counter() - sent) * 1000)

        task = asyncio.get_running_loop().create_task(reader())
        n = 0
        await asyncio.sleep(rng.uniform(0, 1 / per_second))
        while not stop.is_set():
            n += 1
            pending[n] = time.perf_counter()
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps({"id": n, "pad": pad}))
            await asyncio.sleep(rng.expovariate(per_second))
        await ws.close()
        await task

    rng = random.Random(7)
    tasks = [asyncio.get_running_loop().create_task(talk(ws, random.Random(rng.random()))) for ws in sockets]
    await asyncio.sleep(min(3.0, duration / 4))
    server_cpu, own_cpu = cpu_seconds(server_pid), cpu_seconds()
    measuring = True
    began = time.perf_counter()
    await asyncio.sleep(duration)
    measuring = False
    elapsed = time.perf_counter() - began
    server_cpu, own_cpu = cpu_seconds(server_pid) - server_cpu, cpu_seconds() - own_cpu
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats_ms, (
        f"echo server CPU {server_cpu / elapsed:.0%} of a core, RSS {rss_mib(server_pid):.0f} MiB; "
        f"benchmark process CPU {own_cpu / elapsed:.0%} of a core"
    )


# ---------------------------------------------------------------------- the run


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured, for rooms and for echo")
    parser.add_argument("--quick", action="store_true", help="40 rooms for 8 s: a smoke run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setup-limit", type=float, default=900.0, help="seconds to set every room up")
    parser.add_argument("--profile", metavar="PATH", help="run the server under cProfile, its stats to PATH")
    parser.add_argument("--through-nginx", action="store_true", help="behind nginx: 1 worker, then 2 (Redis too)")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        uvloop.run(echo_server())
        return
    if args.quick:
        args.rooms, args.duration = min(args.rooms, 40), min(args.duration, 8.0)
    if args.through_nginx:
        run_hosted(args)
        return
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{args.rooms} rooms of {SEATS} clients, {args.duration:.0f} s measured; {os.cpu_count()} cores, "
        f"load average {load} before the run",
        flush=True,
    )

    with tempfile.TemporaryDirectory() as data:
        server, base = start_room_server(data, args.profile)
        try:
            stats, clients, room_note = uvloop.run(
                run_rooms(base, args.rooms, args.duration, args.seed, server.pid, args.setup_limit)
            )
        finally:
            server.terminate()
            server.wait(timeout=60)
        errors = server.stderr.read() if server.stderr else ""
    elapsed = stats.sent.pop("_elapsed_ms") / 1000
    if not clients:
        raise SystemExit("no room could be set up")
    per_client = stats.received / clients / elapsed
    size = round(stats.received_bytes / max(1, stats.received))
    print(
        f"rooms: {stats.cards / elapsed:.0f} cards/s in all, {len(stats.slap_ms)} verdicts timed, "
        f"{stats.games_over} games finished; each client received {per_client:.1f} messages/s "
        f"(mean {size} bytes), sent " + ", ".join(f"{k} {v}" for k, v in stats.sent.most_common()),
        flush=True,
    )
    print(
        "  received: "
        + ", ".join(f"{k} {v} ({stats.bytes_by_type[k] // v} bytes)" for k, v in stats.by_type.most_common())
    )
    if stats.refused:
        print("  refused: " + ", ".join(f"{k} {v}" for k, v in stats.refused.most_common(6)))
    if stats.closed or stats.lost_slaps:
        print(f"  sockets closed during the run: {stats.closed}; slaps never answered: {stats.lost_slaps}")
    if "Traceback" in errors:
        print("  the server logged errors:\n" + errors[-2000:])
    print(f"  {room_note}", flush=True)

    echo, url = start_echo_server()
    try:
        echo_stats, echo_note = uvloop.run(run_echo(url, clients, size, per_client, args.duration, echo.pid))
    finally:
        echo.terminate()
        echo.wait(timeout=30)
    print(f"echo: {len(echo_stats)} round trips timed; {echo_note}")

    slap50, slap99 = pct(stats.slap_ms, 0.5), pct(stats.slap_ms, 0.99)
    echo50, echo99 = pct(echo_stats, 0.5), pct(echo_stats, 0.99)
    hold = statistics.median(stats.hold_ms) if stats.hold_ms else 0
    hold_max = max(stats.hold_ms, default=0)
    print()
    print(f"slap verdict  p50 {slap50:7.1f} ms   p99 {slap99:7.1f} ms   ({len(stats.slap_ms)} slaps)")
    print(f"bare echo     p50 {echo50:7.1f} ms   p99 {echo99:7.1f} ms   ({len(echo_stats)} round trips)")
    for kind, values in sorted(stats.by_verdict.items()):
        print(f"  {kind:14} p50 {pct(values, 0.5):7.1f} ms   p99 {pct(values, 0.99):7.1f} ms   ({len(values)})")
    print(f"ratio p99 / echo p99: {slap99 / echo99:.1f}")
    print(
        f"decision window (held before any input is applied): median {hold} ms, max {hold_max} ms; "
        f"verdict p99 less the median window: {slap99 - hold:.1f} ms, ratio {(slap99 - hold) / echo99:.1f}"
    )
    print(f"rooms reached: {clients // SEATS} of {args.rooms}, clients {clients}")
    print("load average after the run: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


# ---------------------------------------------------------------------- behind nginx: 1 worker, 2 workers

ECHO_SITE = """
map $http_upgrade $echo_connection {{ default upgrade; '' ''; }}
upstream echo {{ server 127.0.0.1:{port}; keepalive 32; }}
server {{
    listen 127.0.0.1:{listen};
    location / {{
        proxy_pass http://echo;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $echo_connection;
        proxy_read_timeout 120s;
    }}
}}
"""


def said_about_files(folder: Path) -> str:
    """What ``ratscrew serve`` logged about the open files its workers may hold (JSON lines in serve.log)."""
    for line in (folder / "serve.log").read_text().splitlines():
        if line.startswith("{") and (msg := json.loads(line).get("msg", "")).startswith("open files:"):
            return str(msg)
    return "nothing about open files"


def run_hosted(args: argparse.Namespace) -> None:
    from harness.site import run_nginx

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"behind nginx: {args.rooms} rooms of {SEATS}, {args.duration:.0f} s measured; load average {load}")
    lines, clients, size, rate = [], 0, 0, 0.0
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as folder:
            site = start_site(Path(folder), workers)
            try:
                print(f"{workers} worker{'s'[: workers > 1]}: serve says " + said_about_files(site.folder), flush=True)
                pids = [site.worker_pid(i) for i in range(workers)]
                stats, clients, note = uvloop.run(
                    run_rooms(site.url, args.rooms, args.duration, args.seed, pids, args.setup_limit)
                )
            finally:
                site.stop()
        elapsed = stats.sent.pop("_elapsed_ms") / 1000
        rooms = clients // SEATS
        hold = statistics.median(stats.hold_ms) if stats.hold_ms else 0
        slap50, slap99 = pct(stats.slap_ms, 0.5), pct(stats.slap_ms, 0.99)
        pace = stats.cards / elapsed / max(1, rooms)
        lines.append(
            f"{workers} worker{'s' if workers > 1 else ' '}: {rooms} rooms, {pace:.2f} cards/s a room; "
            f"verdict p50 {slap50:.1f} ms p99 {slap99:.1f} ms; window median {hold:.0f} ms; "
            f"p50 beyond the window {slap50 - hold:.1f} ms; closed {stats.closed}, "
            f"unanswered {stats.lost_slaps}; {note}"
        )
        print(lines[-1], flush=True)
        rate = stats.received / max(1, clients) / elapsed
        size = round(stats.received_bytes / max(1, stats.received))
    echo, url = start_echo_server()
    with tempfile.TemporaryDirectory() as folder:
        (listen,) = free_ports(1)
        port = int(url.rsplit(":", 1)[1].strip("/"))
        nginx = run_nginx(ECHO_SITE.format(port=port, listen=listen), Path(folder))
        try:
            time.sleep(1.0)  # nginx listens within milliseconds; the echo's clients retry nothing
            echo_ms, echo_note = uvloop.run(
                run_echo(f"ws://127.0.0.1:{listen}/", clients, size, rate, args.duration, echo.pid)
            )
        finally:
            nginx.terminate()
            nginx.wait(30)
            echo.terminate()
            echo.wait(30)
    print(f"echo through nginx: p50 {pct(echo_ms, 0.5):.1f} ms p99 {pct(echo_ms, 0.99):.1f} ms; {echo_note}")
    print("load average after the run: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
