"""Online rooms against a real server over real websockets on loopback: four players, a drop and a catch-up,
and restarts (SIGTERM and kill -9) in the middle of games."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from ratscrew.rooms import wire
from tests.conftest import Server, start_server


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


def test_four_players_one_drops_mid_challenge_and_catches_up_event_by_event(live_server: Server) -> None:
    # No computer takes the dropped seat after its grace (a loaded machine can take that long to get here):
    # once the others stop, the room's events are only those they played and a won pile moving.
    players = open_room(live_server, 4, standins=False)
    first = players[0]
    play(players, lambda: first.state.get("owed", 0) > 0 and first.state["turn"] != 3)
    dropped = players[3]
    dropped.pump(0.2)
    seen = dropped.last_seq
    dropped.close()
    rest = players[:3]
    target = first.state["cards"] + 6
    play(rest, lambda: first.state["cards"] >= target or first.state["turn"] == 3)
    back = Player(live_server, dropped.code, dropped.token, since=seen)
    back.seqs = []
    back.wait_for(lambda: bool(back.room), "the welcome")
    assert back.yours == [3]
    # The welcome counts every event since the page's last one (a won pile may still move after it: a live
    # event then), and they follow it exactly, in order; the page then stays in step, nothing twice.
    welcome = next(m for m in back.messages if m["type"] == "welcome")
    missed, at_welcome = welcome["missed"], welcome["seq"]
    assert at_welcome >= first.last_seq and missed == at_welcome - seen > 0
    back.wait_for(lambda: back.last_seq >= at_welcome, "the missed events")
    assert back.seqs[:missed] == list(range(seen + 1, at_welcome + 1))  # exactly the missed events, in order
    deadline = time.monotonic() + 30
    while back.last_seq != first.last_seq:  # both have seen the room's last event: the same table
        assert time.monotonic() < deadline, (back.last_seq, first.last_seq)
        first.pump()
        back.pump()
    assert back.seqs == list(range(seen + 1, back.last_seq + 1))
    assert back.state["stack_sizes"] == first.state["stack_sizes"]
    # Everyone sees each player's measured delay (the server times each link every few seconds).
    first.wait_for(lambda: all(isinstance(s["latency_ms"], int) for s in first.room["seats"][:3]), "the delays")
    for player in [*rest, back]:
        player.close()


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


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "kill-9"])
def test_a_restart_mid_game_resumes_every_room(tmp_path: Path, sig: int) -> None:
    server = start_server(tmp_path)
    try:
        online = open_room(server, 2)
        # Stop where nothing is waiting to happen (no won pile about to move): the state must be the same after.
        play(online, lambda: online[0].state.get("cards", 0) >= 5 and online[0].state.get("collect_pending") is None)
        status, solo = server.post(
            "/api/games", {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}], "seed": 4}
        )
        assert status == 200
        lone = Player(server, solo["id"], solo["token"])
        lone.wait_for(lambda: bool(lone.state), "the game vs the computer")
        lone.send({"type": "flip", "seat": 0})
        lone.wait_for(lambda: lone.state.get("cards", 0) >= 1, "the first card")
        # play() stopped with no flip on its way and no won pile waiting to move: the room stands still.
        before_online = dict(online[0].state)
        assert before_online["collect_pending"] is None
        # The journal's writer commits on its own thread a few milliseconds after each action; on a loaded
        # machine that can take longer, so wait until the file holds every card the pages were shown.
        journaled(tmp_path, online[0].code, before_online["cards"])
        lone_cards = lone.state["cards"]
        journaled(tmp_path, lone.code, lone_cards)
        for player in [*online, lone]:
            player.close()
        server.stop(sig)
        server = start_server(tmp_path)
        again = [Player(server, p.code, p.token, since=p.last_seq) for p in online]
        for player in again:
            player.wait_for(lambda p=player: bool(p.state), "the resumed room")
        assert again[0].state["cards"] == before_online["cards"]
        assert again[0].state["stack_sizes"] == before_online["stack_sizes"]
        assert [p.yours for p in again] == [[0], [1]]  # the tokens still hold their seats
        assert again[0].room["phase"] == "playing"
        play(again, lambda: again[0].state.get("cards", 0) >= before_online["cards"] + 2)
        back = Player(server, lone.code, lone.token)
        back.wait_for(lambda: bool(back.state), "the resumed game vs the computer")
        assert back.yours == [0] and back.state["cards"] >= lone_cards
        for player in [*again, back]:
            player.close()
    finally:
        server.stop()
