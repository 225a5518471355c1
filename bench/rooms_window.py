#!/usr/bin/env python3
"""The decision window of games against the computer, with many played at once on one server process.

One ``ratscrew play`` server runs in a subprocess; this process starts ``--games`` games against an Expert
computer (``POST /api/games``) and plays each from a scripted page on loopback: it answers every ``probe``,
turns its card 250 ms after it is due and slaps every slappable card 300 ms after it arrives. Every state
the page is sent carries the room's decision window (``hold_ms``: how long everything waits before it is
applied); the figures printed are over every state received while measuring. The games are also the load:
the more there are, the busier the loop, and the longer every round trip the server measures.

To measure another version of the server (as it was before a change, say), put its ``src`` first on
``PYTHONPATH``: the server and this script then speak that version's protocol.

Usage: python bench/rooms_window.py [--games 120] [--duration 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
from typing import Any

import uvloop
from websockets.asyncio.client import ClientConnection, connect

from ratscrew.cards import Card
from ratscrew.patterns import find_matches
from ratscrew.rooms import wire
from ratscrew.rules import Rules

RULES = Rules.build("standard")
GAMES_PER_ADDRESS = 20  # the server allows 60 new games an hour and 48 sockets from one address


def address_for(game: int) -> str:
    return f"127.0.1.{2 + game // GAMES_PER_ADDRESS}"


def start_server(data: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "ratscrew", "play", "--no-browser", "--port", "0", "--data", data],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline().strip()
    if not first.startswith("ratscrew: serving on "):
        process.kill()
        raise SystemExit(f"the server did not start: {first!r}")
    return process, first.removeprefix("ratscrew: serving on ").rstrip("/")


async def post_game(base: str, address: str, seed: int) -> dict[str, Any]:
    """POST /api/games from ``address``: a person at seat 0 against an Expert computer."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    body = {"seats": [{"kind": "human", "name": "P"}, {"kind": "bot", "level": "expert"}], "seed": seed}
    payload = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(address, 0))
    head = (
        f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + payload)
    await writer.drain()
    response = await reader.read()
    writer.close()
    doc: dict[str, Any] = json.loads(response.split(b"\r\n\r\n", 1)[1])
    if response.split(b" ", 2)[1] != b"200":
        raise RuntimeError(f"POST /api/games: {doc}")
    return doc


class Page:
    """One scripted page of a game against the computer; it keeps every window it is shown."""

    def __init__(self, ws: ClientConnection, windows: list[int], measuring: list[bool]) -> None:
        self.ws = ws
        self.windows = windows
        self.measuring = measuring
        self.slapped: set[int] = set()
        self.flip_due = -1

    def send_later(self, seconds: float, doc: dict[str, object]) -> None:
        asyncio.get_running_loop().call_later(seconds, lambda: asyncio.ensure_future(self._send(doc)))

    async def _send(self, doc: dict[str, object]) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send(json.dumps(doc))

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "probe":
                    await self._send({"type": "echo", "id": message["id"]})
                elif message.get("state"):
                    self.on_state(message["state"])

    def on_state(self, state: dict[str, Any]) -> None:
        if state.get("over"):
            return
        if self.measuring[0] and state.get("hold_ms") is not None:
            self.windows.append(int(state["hold_ms"]))
        pile = [Card.parse(c) for c in state["pile"]]
        card = state["cards"]
        if pile and find_matches(pile, RULES) and card not in self.slapped:
            self.slapped.add(card)
            self.send_later(0.3, {"type": "slap", "seat": 0, "card": card, "rt": 300})
        elif state["turn"] == 0 and state["collect_pending"] is None and self.flip_due != card:
            self.flip_due = card
            self.send_later(0.25, {"type": "flip", "seat": 0})


async def run(base: str, games: int, duration: float, seed: int) -> list[int]:
    windows: list[int] = []
    measuring = [False]
    sockets: list[ClientConnection] = []
    tasks = []
    for index in range(games):
        address = address_for(index)
        game = await post_game(base, address, seed + index)
        url = f"{base.replace('http', 'ws')}/ws/rooms/{game['id']}"
        ws = await connect(url, open_timeout=30, local_addr=(address, 0))  # the server's caps are per address
        sockets.append(ws)
        page = Page(ws, windows, measuring)
        tasks.append(asyncio.create_task(page.read()))
        await ws.send(json.dumps({"type": "hello", "v": wire.VERSION, "token": game["token"], "since": -1}))
    await asyncio.sleep(5)  # every link measured a few times before the figures count
    measuring[0] = True
    await asyncio.sleep(duration)
    measuring[0] = False
    for task in tasks:
        task.cancel()
    for ws in sockets:
        await ws.close()
    return windows


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server, base = start_server(data)
        try:
            windows = uvloop.run(run(base, args.games, args.duration, args.seed))
        finally:
            server.terminate()
            server.wait(timeout=30)
    if not windows:
        raise SystemExit("no state was received while measuring")
    print(
        f"protocol {wire.VERSION}: {args.games} games against the computer, "
        f"{len(windows)} states in {args.duration:.0f} s"
    )
    p90 = statistics.quantiles(windows, n=10)[-1]
    print(f"decision window: median {statistics.median(windows):.0f} ms, p90 {p90:.0f} ms, max {max(windows)} ms")


if __name__ == "__main__":
    main()
