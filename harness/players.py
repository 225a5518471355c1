"""Players of online rooms over real websockets on loopback: each one page, with its token, the events it saw
and the state it was last sent; and the room's journal read from the SQLite file."""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from harness.server import Server
from ratscrew.rooms import wire


class Player:
    """One page: its socket, its token, the last event it saw and the state it was last sent."""

    def __init__(self, server: Server, code: str, token: str | None, since: int = -1) -> None:
        self.server = server
        self.code = code
        self.token = token
        self._stack = ExitStack()
        url = f"{server.url.replace('http', 'ws').rstrip('/')}/ws/rooms/{code}"
        self.ws: ClientConnection = self._stack.enter_context(connect(url, open_timeout=10))
        self.ws.send(json.dumps({"type": "hello", "v": wire.VERSION, "token": token, "since": since}))
        self.seqs: list[int] = []
        self.last_seq = since
        self.state: dict[str, Any] = {}
        self.room: dict[str, Any] = {}
        self.yours: list[int] = []
        self.messages: list[dict[str, Any]] = []
        self.refused = 0  # moves the room refused: a flip refused may be sent again
        self.asked: tuple[int, int] | None = None  # (cards shown, refusals) when this page last flipped

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def pump(self, timeout: float = 0.05) -> None:
        """Read whatever has arrived, keeping the state, the seats and the event numbers up to date."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                raw = self.ws.recv(timeout=max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return
            message = json.loads(raw)
            self.messages.append(message)
            kind = message["type"]
            if kind == "probe":
                self.send({"type": "echo", "id": message["id"]})
            elif kind == "welcome":
                self.room, self.yours = message["room"], message["yours"]
                self.state = message["state"] or self.state
                if message["missed"] is None:
                    self.last_seq = message["seq"]
            elif kind == "seated":
                self.token, self.yours = message["token"], message["seats"]
            elif kind == "lobby":
                self.room = message["room"]
            elif kind == "rejected":
                self.refused += 1
            elif kind == "latency":
                for seat, ms in zip(self.room["seats"], message["seats"], strict=True):
                    seat["latency_ms"] = ms
            elif kind == "state":
                self.room, self.state, self.last_seq = message["room"], message["state"], message["seq"]
            elif kind == "events":
                for item in message["items"]:
                    if item["seq"] > self.last_seq:
                        self.seqs.append(item["seq"])
                        self.last_seq = item["seq"]
                self.state = message["state"]

    def wait_for(self, check: Any, what: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; last messages: {self.messages[-3:]}")
            self.pump()

    def close(self) -> None:
        self._stack.close()


def open_room(server: Server, seats: int, **options: object) -> list[Player]:
    """A room with ``seats`` people: the host creates it, the others sit; everyone ready; the host starts."""
    status, created = server.post("/api/rooms", {"seats": seats, "name": "P1", "public": False, **options})
    assert status == 200, created
    players = [Player(server, created["code"], created["token"])]
    for seat in range(1, seats):
        guest = Player(server, created["code"], None)
        guest.wait_for(lambda g=guest: bool(g.room), "the welcome")
        guest.send({"type": "sit", "seat": seat, "name": f"P{seat + 1}"})
        guest.wait_for(lambda g=guest, s=seat: g.yours == [s], f"seat {seat}")
        players.append(guest)
    for player in players:
        player.send({"type": "ready", "ready": True})
    host = players[0]  # seen by the host, who may not have read even its welcome yet
    host.wait_for(lambda: bool(host.room) and all(s["ready"] for s in host.room["seats"]), "everyone ready")
    players[0].send({"type": "start"})
    for player in players:
        player.wait_for(lambda p=player: p.room.get("phase") == "playing" and bool(p.state), "the game to start")
    return players


def play(players: list[Player], until: Any, limit: float = 120.0) -> None:
    """Whoever is due turns a card, until ``until()`` holds. A page flips once for each card it was shown
    (again only if that flip was refused), and never once ``until()`` holds: when this returns, no flip is on
    its way, whatever the machine's load (a flip sent twice could play a second card of a challenge)."""
    deadline = time.monotonic() + limit
    while True:
        for player in players:
            player.pump(0.02)
        state = players[0].state
        if until() or state.get("over"):
            return
        assert time.monotonic() < deadline, "the game did not get there in time"
        if state.get("collect_pending") is None:
            for player in players:
                if state["turn"] in player.yours and player.state.get("cards") == state.get("cards"):
                    asked = (state["cards"], player.refused)
                    if player.asked != asked:
                        player.asked = asked
                        player.send({"type": "flip", "seat": state["turn"]})
                    break
        time.sleep(0.03)


def journaled(data: Path, code: str, cards: int, timeout: float = 20.0) -> None:
    """Wait until the room's journal in the SQLite file holds at least ``cards`` flips."""
    deadline = time.monotonic() + timeout
    while True:
        with sqlite3.connect(data / "ratscrew.sqlite3", timeout=10) as db:
            rows = db.execute("SELECT action FROM room_actions WHERE code = ?", (code,)).fetchall()
        docs = [json.loads(text) for (text,) in rows]
        flips = sum(1 for d in docs if d == "flip" or (isinstance(d, dict) and d.get("act") == "flip"))
        if flips >= cards:
            return
        assert time.monotonic() < deadline, f"the journal holds {flips} of {cards} flips"
        time.sleep(0.05)
