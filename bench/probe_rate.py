#!/usr/bin/env python3
"""How many room codes and game ids one address can try an hour, through each route that tells a live one.

``ratscrew play`` runs in a subprocess (this tree, then with ``--against REV`` a revision's ``src/`` exported
with ``git archive``). For ``--seconds`` (120 by default), one prober per route, each from its own loopback
address (127.0.0.x), asks for made-up codes and ids as fast as the server lets it, one request after the
other: ``GET /api/rooms/CODE``, ``GET /api/games/ID/record``, ``POST /api/games/ID/again``,
``GET /api/matches/ID``, ``GET /api/history?ids=`` (100 ids a request) and the room's websocket. An id is
counted as tried when the answer says whether it exists (a 404, or an id the history lists as unknown),
not when the request is refused (429, or the socket's close code 4429). Printed for each route: the ids
tried in the last minute of the run (the limits' windows are a minute long, so by then the rate is steady)
and that rate over an hour.

Usage: python bench/probe_rate.py [--seconds 120] [--against REV]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from ratscrew.rooms import wire

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from simulate_speed import export_src  # noqa: E402

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
HISTORY_IDS = 100


def made_up_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(6))


Probe = Callable[[httpx.AsyncClient, str, str], Awaitable[int]]  # (client, server url, address) -> ids tried


async def by_status(answer: Awaitable[httpx.Response]) -> int:
    return 1 if (await answer).status_code == 404 else 0


async def rooms(client: httpx.AsyncClient, url: str, source: str) -> int:
    return await by_status(client.get(f"{url}/api/rooms/{made_up_code()}"))


async def record(client: httpx.AsyncClient, url: str, source: str) -> int:
    return await by_status(client.get(f"{url}/api/games/{made_up_code()}-1/record"))


async def again(client: httpx.AsyncClient, url: str, source: str) -> int:
    return await by_status(client.post(f"{url}/api/games/{made_up_code()}-1/again", json={"token": "x"}))


async def matches(client: httpx.AsyncClient, url: str, source: str) -> int:
    return await by_status(client.get(f"{url}/api/matches/{secrets.token_hex(6)}"))


async def history(client: httpx.AsyncClient, url: str, source: str) -> int:
    ids = ",".join(f"{made_up_code()}-1" for _ in range(HISTORY_IDS))
    answer = await client.get(f"{url}/api/history", params={"ids": ids})
    if answer.status_code != 200:
        return 0
    doc = answer.json()
    return len(doc.get("games", [])) + len(doc.get("unknown", []))


async def socket(client: httpx.AsyncClient, url: str, source: str) -> int:
    ws_url = url.replace("http", "ws") + f"/ws/rooms/{made_up_code()}"
    async with connect(ws_url, local_addr=(source, 0), ping_interval=None, proxy=None) as ws:
        try:
            await ws.send(json.dumps(wire.Hello(wire.VERSION, None, -1).to_json()))
            while True:
                await ws.recv()
        except ConnectionClosed:
            pass
        code = ws.close_code
    return 1 if code == wire.CloseCode.NO_ROOM else 0


PROBES: dict[str, Probe] = {
    "GET /api/rooms/CODE": rooms,
    "GET /api/games/ID/record": record,
    "POST /api/games/ID/again": again,
    "GET /api/matches/ID": matches,
    "GET /api/history?ids= (100 a request)": history,
    "websocket /ws/rooms/CODE": socket,
}


async def prober(probe: Probe, url: str, source: str, seconds: float) -> tuple[int, int]:
    """Ids tried over the whole run, and in its last minute."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    total = last = 0
    start = time.monotonic()
    async with httpx.AsyncClient(transport=transport, timeout=30) as client:
        while (elapsed := time.monotonic() - start) < seconds:
            tried = await probe(client, url, source)
            total += tried
            if elapsed >= seconds - 60:
                last += tried
    return total, last


async def probe_all(url: str, seconds: float) -> dict[str, tuple[int, int]]:
    names = list(PROBES)
    found = await asyncio.gather(
        *(prober(PROBES[name], url, f"127.0.0.{10 + i}", seconds) for i, name in enumerate(names))
    )
    return dict(zip(names, found, strict=True))


def run(src: Path, seconds: float, name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "ratscrew", "play", "--no-browser", "--port", "0", "--data", tmp]
        env = {**os.environ, "PYTHONPATH": str(src)}
        server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert server.stdout is not None
            line = server.stdout.readline().strip()
            url = line.removeprefix("ratscrew: serving on ").rstrip("/")
            if not url.startswith("http"):
                raise RuntimeError(f"the server did not start: {line!r}")
            found = asyncio.run(probe_all(url, seconds))
        finally:
            server.terminate()
            server.wait(30)
    print(f"{name}: ids one address tried, over {seconds:.0f} s, one prober a route from its own address")
    print(f"  {'route':<40} {'in the run':>11} {'last minute':>12} {'an hour at that rate':>21}")
    for route, (total, last) in found.items():
        print(f"  {route:<40} {total:>11,} {last:>12,} {last * 60:>21,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--against", help="also run a revision's src/ (exported with git archive)")
    args = parser.parse_args()
    if args.seconds < 60:
        parser.error("--seconds: at least 60 (the rate is read from the run's last minute)")
    run(ROOT / "src", args.seconds, "this tree")
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            run(export_src(args.against, Path(tmp)), args.seconds, args.against)


if __name__ == "__main__":
    main()
