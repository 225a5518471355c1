"""Told only once kept: a real server whose journal is slow, fails, or fills its disk, killed with -9 in the
middle of games; no page ever saw an event that the file (so the restarted room) does not hold.

Each server is ``harness/journal_faults.py``: ``ratscrew play`` with the fault put into its journal. A game is
two people on one screen, played by one page (it holds both seats and flips whenever it is due), so cards
go down as fast as the room lets them. After the kill, the test replays the room's game from the SQLite
file with the engine and numbers its events from the kept count: every event a page was shown must be
there, under the same number. Then the room restarts and the pages come back with the numbers they saw.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from harness.server import Server, serving, start_server
from ratscrew.engine.game import Game
from ratscrew.record import action_from_json
from ratscrew.rooms import wire
from ratscrew.rooms.document import GAME_WAITS, NO_NEW_GAME, KeptRoom
from ratscrew.rooms.summary import public

ROOT = Path(__file__).resolve().parent.parent
TWO_ON_ONE_SCREEN = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}], "seed": 11}


def start_faulty(data: Path, *faults: str) -> Server:
    """``ratscrew play`` on a free port, its journal given ``faults`` (``harness/journal_faults.py``)."""
    command = [sys.executable, "-m", "harness.journal_faults", *faults, "--", "play", "--no-browser", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--data", str(data)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return serving(process, data)


class Page:
    """One page of the game: every event it was shown (number, game, event), and the state it holds."""

    def __init__(self, server: Server, code: str, token: str, since: int = -1) -> None:
        self._stack = ExitStack()
        url = f"{server.url.replace('http', 'ws').rstrip('/')}/ws/rooms/{code}"
        self.ws: ClientConnection = self._stack.enter_context(connect(url, open_timeout=10))
        self.ws.send(json.dumps({"type": "hello", "v": wire.VERSION, "token": token, "since": since}))
        self.seen: list[tuple[int, int, dict[str, Any]]] = []
        self.last_seq = since
        self.state: dict[str, Any] = {}
        self.welcome: dict[str, Any] = {}
        self.errors: list[str] = []
        self.closed = False
        self._flipped_at: int | None = None

    def pump(self, timeout: float = 0.05) -> None:
        deadline = time.monotonic() + timeout
        while not self.closed:
            try:
                message = json.loads(self.ws.recv(timeout=max(0.0, deadline - time.monotonic())))
            except TimeoutError:
                return
            except ConnectionClosed:
                self.closed = True
                return
            kind = message["type"]
            if kind == "probe":
                self.ws.send(json.dumps({"type": "echo", "id": message["id"]}))
            elif kind == "welcome":
                self.welcome, self.state = message, message["state"]
                if message["missed"] is None:  # otherwise the events it missed follow
                    self.last_seq = message["seq"]
            elif kind == "state":
                self.state, self.last_seq = message["state"], message["seq"]
            elif kind == "events":
                for item in message["items"]:
                    assert item["seq"] == self.last_seq + 1, f"event {item['seq']} after {self.last_seq}"
                    self.seen.append((item["seq"], item["game"], item["event"]))
                    self.last_seq = item["seq"]
                self.state = message["state"]
            elif kind == "error":
                self.errors.append(message["message"])

    def play(self, cards: int, limit: float = 30.0) -> None:
        """Flip whenever a seat of ours is due, until ``cards`` more cards are down."""
        self.wait_for(lambda: bool(self.state), "the table")
        target = self.state["cards"] + cards
        deadline = time.monotonic() + limit
        while self.state["cards"] < target and not self.state.get("over"):
            assert time.monotonic() < deadline, f"only {self.state['cards']} of {target} cards in time"
            self.flip()
            self.pump(0.02)

    def flip(self) -> None:
        """Flip for the seat due, once for each state shown (a flip waits out the decision window)."""
        state = self.state
        if state.get("collect_pending") is None and self._flipped_at != state["cards"]:
            self._flipped_at = state["cards"]
            self.ws.send(json.dumps({"type": "flip", "seat": state["turn"]}))

    def wait_for(self, check: Any, what: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            self.pump()

    def close(self) -> None:
        self._stack.close()


def kept(data: Path, code: str) -> tuple[int, int, list[dict[str, Any]], int]:
    """From the SQLite file: the room's game number, the number of its last event, that game's events as the
    pages are shown them (replayed by the engine from the kept actions), and its cards down."""
    with sqlite3.connect(data / "ratscrew.sqlite3") as db:
        text, seq = db.execute("SELECT doc, seq FROM rooms WHERE code = ?", (code,)).fetchone()
        room = KeptRoom.from_doc(json.loads(text))
        rows = db.execute(
            "SELECT action FROM room_actions WHERE code = ? AND game_no = ? ORDER BY idx", (code, room.game_no)
        ).fetchall()
    game = Game.from_seed(room.rules, len(room.seats), room.seed)
    events: list[dict[str, Any]] = []
    for index, (raw,) in enumerate(rows):
        events.extend(
            json.loads(json.dumps(public(e, game))) for e in game.apply(action_from_json(json.loads(raw), index))
        )
    return room.game_no, seq, events, game.cards


def assert_nothing_seen_was_lost(data: Path, code: str, *pages: Page) -> int:
    """Every event any page was shown is in the file, with its number; the file's count of events."""
    game_no, last, events, _cards = kept(data, code)
    first = last - len(events) + 1
    for page in pages:
        for seq, game, event in page.seen:
            assert seq <= last, f"a page saw event {seq}; the file keeps events up to {last}"
            assert game == game_no
            assert events[seq - first] == event, f"event {seq} shown as {event}, kept as {events[seq - first]}"
    return last


def test_a_kill_while_commits_are_slow_loses_nothing_shown_and_old_numbers_get_the_whole_state(
    tmp_path: Path,
) -> None:
    server = start_faulty(tmp_path, "--delay-ms", "150")
    try:
        status, game = server.post("/api/games", TWO_ON_ONE_SCREEN)
        assert status == 200, game
        early = Page(server, game["id"], game["token"])
        early.play(3)
        early.pump(0.3)
        left_at = early.last_seq
        early.close()
        later = Page(server, game["id"], game["token"], since=left_at)
        later.play(4)
        # A last flip, and the kill while its write waits for the slow commit: held, so never shown.
        later.flip()
        later.pump(0.08)
        server.stop(signal.SIGKILL)
        last = assert_nothing_seen_was_lost(tmp_path, game["id"], early, later)
        assert later.seen and later.last_seq <= last and left_at < last
        _, _, _, cards = kept(tmp_path, game["id"])

        server = start_server(tmp_path)
        back = Page(server, game["id"], game["token"], since=left_at)  # an old number, below the count
        back.wait_for(lambda: bool(back.welcome), "the welcome")
        assert back.welcome["missed"] is None  # not "nothing missed": the whole state, with the count
        assert back.welcome["seq"] == last and back.state["cards"] == cards
        back.play(1)
        back.wait_for(lambda: back.last_seq > last, "a new event")
        assert back.seen[0][0] == last + 1  # the numbering goes on from the kept count
        back.close()
    finally:
        server.stop(signal.SIGKILL)


def test_failing_commits_are_logged_and_retried_and_nothing_shown_is_lost(tmp_path: Path) -> None:
    server = start_faulty(tmp_path, "--fail", "4")  # the first four transactions fail (retried after 50-400 ms)
    try:
        status, game = server.post("/api/games", TWO_ON_ONE_SCREEN)
        assert status == 200, game
        page = Page(server, game["id"], game["token"])
        page.play(6)
        page.pump(0.2)
        server.stop(signal.SIGKILL)
        assert_nothing_seen_was_lost(tmp_path, game["id"], page)
        assert server.process.stderr is not None
        log = server.process.stderr.read()
        assert "journal: a transaction of" in log and "disk I/O error (injected)" in log
        assert "journal: writes are kept again" in log
    finally:
        server.stop(signal.SIGKILL)


def test_a_full_disk_keeps_what_was_committed_and_says_so(tmp_path: Path) -> None:
    full = tmp_path / "full"
    server = start_faulty(tmp_path, "--full-when", str(full), "--stall-ms", "1000")
    try:
        status, game = server.post("/api/games", TWO_ON_ONE_SCREEN)
        assert status == 200, game
        page = Page(server, game["id"], game["token"])
        page.play(3)
        full.touch()  # from now on the file cannot grow by a single page
        # Play on until the file is full: then the room waits for a commit that does not come, and after a
        # second it says why and sends the page away.
        deadline = time.monotonic() + 30
        while not page.closed:
            assert time.monotonic() < deadline, "the room never stopped"
            page.flip()
            page.pump(0.05)
        assert page.errors[-1:] == [GAME_WAITS]
        status, body = server.post("/api/games", TWO_ON_ONE_SCREEN)
        assert status == 503 and body["error"] == NO_NEW_GAME  # no new game while writes cannot be kept
        status, body = server.get(f"/api/rooms/{game['id']}")
        assert status == 503 and body["error"] == GAME_WAITS
        server.stop(signal.SIGKILL)
        last = assert_nothing_seen_was_lost(tmp_path, game["id"], page)
        _, _, _, cards = kept(tmp_path, game["id"])

        full.unlink()
        server = start_server(tmp_path)
        back = Page(server, game["id"], game["token"], since=page.last_seq)
        back.wait_for(lambda: bool(back.welcome), "the welcome")
        assert back.welcome["seq"] == last and back.state["cards"] == cards  # what was committed, all of it
        back.close()
    finally:
        server.stop(signal.SIGKILL)
