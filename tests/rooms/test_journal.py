"""The rooms' journal keeps what a restart needs and forgets what nobody will come back for; it tells a room
when its writes are in the file, tries a failing one again until it is, and a room tells nothing before."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ratscrew.errors import Unavailable
from ratscrew.rooms import delivery, wire
from ratscrew.rooms import journal as journal_module
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.document import GAME_WAITS, KeptRoom
from ratscrew.rooms.fairness import MIN_WINDOW_MS
from ratscrew.rooms.journal import ROOM_KEPT_S, Health, SqliteJournal, Write
from ratscrew.rooms.runner import PageLink, Rooms
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import FlipMsg, Hello, Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock


def kept(code: str, phase: Phase, game_no: int) -> KeptRoom:
    """A room as the journal keeps it, in ``phase``, at its game ``game_no``."""
    room = RoomCore(code, ManualClock(), seats=[SeatInfo(), SeatInfo()], rules=Rules.build("standard")).kept()
    return dataclasses.replace(room, phase=phase, game_no=game_no)


def count(path: Path, table: str, code: str) -> int:
    with sqlite3.connect(path) as db:
        (n,) = db.execute(f"SELECT COUNT(*) FROM {table} WHERE code = ?", (code,)).fetchone()
    return int(n)


def test_rooms_untouched_for_weeks_are_forgotten_and_recent_ones_kept(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    journal = SqliteJournal(path)
    for code, phase in (("OLDLOB", "lobby"), ("OLDPLY", "playing"), ("NEWPLY", "playing")):
        journal.room(code, kept(code, Phase(phase), 1))
        journal.actions(code, 1, 0, [{"type": "flip", "t": 0}], 0)
    journal.flush()
    journal.close()
    with sqlite3.connect(path) as db:  # two of them were last touched three weeks ago
        db.execute("UPDATE rooms SET updated = ? WHERE code LIKE 'OLD%'", (time.time() - 21 * 24 * 3600,))
    journal = SqliteJournal(path)
    assert journal.expire() == 2
    assert [saved.room.code for saved in journal.playing_rooms()] == ["NEWPLY"]
    assert count(path, "room_actions", "OLDPLY") == 0 and count(path, "rooms", "OLDLOB") == 0
    assert journal.expire(now=time.time() + ROOM_KEPT_S + 60) == 1  # and the recent one, once it is old
    journal.close()


def test_a_new_game_drops_the_actions_of_the_rooms_earlier_games(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    journal = SqliteJournal(path)
    journal.room("REMATC", kept("REMATC", Phase.PLAYING, 2))
    journal.actions("REMATC", 1, 0, [{"type": "flip", "t": 0}, {"type": "flip", "t": 500}], 1)
    journal.actions("REMATC", 2, 0, [{"type": "flip", "t": 0}], 2)
    journal.actions("REMATC", 2, 1, [{"type": "flip", "t": 400}], 3)
    journal.flush()
    assert count(path, "room_actions", "REMATC") == 2
    (saved,) = journal.playing_rooms()
    assert saved.actions == [{"type": "flip", "t": 0}, {"type": "flip", "t": 400}]
    journal.close()


class GatedJournal(SqliteJournal):
    """A journal whose commits wait while ``gate`` is shut (a disk slow to answer), and fail while
    ``failing`` is set."""

    def __init__(self, path: Path) -> None:
        self.gate = threading.Event()
        self.failing = threading.Event()
        super().__init__(path)

    def commit(self) -> bool:
        if not self.gate.is_set():
            if self._due is None:
                self._schedule(0.005)  # not yet: asked again in a moment
            return False
        return super().commit()

    def _transaction(self, db: sqlite3.Connection, writes: list[Write]) -> None:
        if self.failing.is_set():
            raise sqlite3.OperationalError("disk I/O error (injected)")
        super()._transaction(db, writes)


async def until(check: Callable[[], bool], what: str) -> None:
    """Let the writer's thread and the loop run until ``check`` holds (real threads: no virtual time here)."""
    for _ in range(2000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


def told(link: PageLink) -> list[dict[str, Any]]:
    """What a page's outbox holds, as the page would read it (its sender's wake-ups say nothing)."""
    texts = [str(link.outbox.get_nowait()) for _ in range(link.outbox.qsize())]
    return [json.loads(text) for text in texts if text != delivery.WAKE]


def in_a_loop(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    # Its own thread: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, scenario()).result(timeout=60)


def test_a_write_is_told_only_once_committed_and_a_failing_one_is_retried_until_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_module, "RETRY_FIRST_S", 0.001)
    monkeypatch.setattr(journal_module, "RETRY_MOST_S", 0.01)
    journal = GatedJournal(tmp_path / "store.sqlite3")

    async def scenario() -> None:
        told = asyncio.Event()
        journal.room("KEPT01", kept("KEPT01", Phase.LOBBY, 0))
        journal.after(journal.queued, told.set)
        await asyncio.sleep(0.05)
        assert not told.is_set() and journal.committed == 0  # the transaction waits at the gate
        journal.failing.set()
        journal.gate.set()
        await until(lambda: not journal.health().ok, "the failure to show")
        health = journal.health()
        assert health.error is not None and "disk I/O error (injected)" in health.error and health.waiting == 1
        assert not told.is_set() and journal.load_room("KEPT01") is None
        journal.failing.clear()
        await asyncio.wait_for(told.wait(), 10)  # the same transaction, tried again, went in
        assert journal.health() == Health(True, None, None, 0)
        saved = journal.load_room("KEPT01")
        assert saved is not None and saved.room.code == "KEPT01"

    try:
        in_a_loop(scenario)
    finally:
        journal.gate.set()
        journal.close()


def test_a_room_sends_only_what_is_committed_and_stops_when_its_journal_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_module, "RETRY_FIRST_S", 0.001)
    monkeypatch.setattr(journal_module, "RETRY_MOST_S", 0.01)
    journal = GatedJournal(tmp_path / "store.sqlite3")
    seats = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.HUMAN, "Bo")]

    async def scenario() -> None:
        clock = ManualClock()
        rooms = Rooms(journal, clock=clock)
        runner, token = rooms.create_game(seats=seats, rules=Rules.build("standard"), bot_pace=1.0, seed=5)
        link = PageLink(1)
        runner.open(link)
        runner.submit(link, Hello(wire.VERSION, token, -1))
        await until(lambda: (page := runner.core.pages.get(1)) is not None and page.greeted, "the hello")
        assert told(link) == []  # the game is not in the file yet: nothing about it is told
        journal.gate.set()
        await until(lambda: link.outbox.qsize() > 1, "the welcome")  # behind the wake-up that waited there
        await asyncio.sleep(0.05)
        welcome = told(link)[0]
        assert welcome["type"] == "welcome" and welcome["seq"] == -1
        journal.gate.clear()  # the next commit waits
        written = journal.queued
        runner.submit(link, FlipMsg(welcome["state"]["turn"]))
        await asyncio.sleep(0.01)
        clock.advance(MIN_WINDOW_MS)  # the flip lands once the decision window has passed
        await until(lambda: journal.queued > written, "the flip's write")
        assert told(link) == []  # its card is turned, not told
        clock.advance(delivery.STALL_MS)
        await asyncio.sleep(0.05)
        assert not runner.closed  # a journal only slow is waited for...
        journal.failing.set()
        journal.gate.set()
        await until(lambda: not journal.healthy(), "the failure")
        clock.advance(delivery.STALL_MS)  # ...one that fails is not
        await until(lambda: runner.closed, "the room to stop")
        said = [link.outbox.get_nowait() for _ in range(link.outbox.qsize())]
        assert [json.loads(t) if t else t for t in said] == [wire.ErrorMsg(GAME_WAITS).to_json(), None]  # why; closed
        with pytest.raises(Unavailable, match="cannot save games"):
            rooms.get(runner.code)  # not loaded again before its writes are in the file
        journal.failing.clear()
        await until(lambda: journal.committed == journal.queued, "the writes to go in")
        again = rooms.get(runner.code)
        assert again is not None and again.core.seq == 0
        state = again.core.state()
        assert isinstance(state, wire.TableState) and state.cards == 1  # as it was kept
        await rooms.close()

    try:
        in_a_loop(scenario)
    finally:
        journal.gate.set()
        journal.close()


def test_a_room_that_left_memory_is_not_loaded_again_before_its_writes_are_in(tmp_path: Path) -> None:
    journal = GatedJournal(tmp_path / "store.sqlite3")
    seats = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.BOT, "Bot", "easy", ready=True)]

    async def scenario() -> None:
        rooms = Rooms(journal, clock=ManualClock())
        runner, _ = rooms.create_game(seats=seats, rules=Rules.build("standard"), bot_pace=1.0, seed=5)
        await runner.stop()
        with pytest.raises(Unavailable):  # loaded now, it would be read from a file that lacks it
            rooms.get(runner.code)
        journal.gate.set()
        await until(lambda: journal.committed == journal.queued, "the writes to go in")
        again = rooms.get(runner.code)
        assert again is not None and again is not runner
        await rooms.close()

    try:
        in_a_loop(scenario)
    finally:
        journal.gate.set()
        journal.close()


def test_a_finished_game_whose_end_was_lost_gets_its_record_rebuilt_from_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    journal = SqliteJournal(path)
    clock = ManualClock()
    seats = [SeatInfo(SeatKind.BOT, "Ace", "expert", ready=True), SeatInfo(SeatKind.BOT, "Bee", "expert", ready=True)]
    core = RoomCore("ENDED1", clock, seats=seats, rules=Rules.build("standard"), journal=journal)
    journal.room(core.code, core.kept())
    core.start_game(seed=8)
    while core.phase is Phase.PLAYING:
        due = core.next_deadline()
        assert due is not None
        clock.advance_to(max(due, clock.now()))
        core.tick()
    assert journal.flush()
    with sqlite3.connect(path) as db:  # the server stopped after the last actions, before the game's end
        (text,) = db.execute("SELECT doc FROM rooms WHERE code = 'ENDED1'").fetchone()
        db.execute(
            "UPDATE rooms SET doc = ? WHERE code = 'ENDED1'", (json.dumps({**json.loads(text), "phase": "playing"}),)
        )
        db.execute("DELETE FROM games")

    async def scenario() -> None:
        rooms = Rooms(journal, clock=ManualClock())
        assert rooms.restore_all() == 1
        assert rooms.rooms["ENDED1"].core.phase is Phase.OVER
        await rooms.close()

    in_a_loop(scenario)
    journal.close()
    with sqlite3.connect(path) as db:
        (record,) = db.execute("SELECT record FROM games WHERE id = 'ENDED1'").fetchone()
        (text,) = db.execute("SELECT doc FROM rooms WHERE code = 'ENDED1'").fetchone()
    assert len(json.loads(record)["actions"]) == len(core.record().actions)
    assert json.loads(text)["phase"] == "over"


def test_a_restart_in_the_lobby_after_a_rematch_still_says_who_asked_and_older_rooms_still_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.sqlite3"
    journal = SqliteJournal(path)
    clock = ManualClock()
    seats = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.HUMAN, "Bo")]
    rules = Rules.build("standard", {"end.time_limit_s": 1})
    core = RoomCore("AGAIN1", clock, seats=seats, rules=rules, journal=journal)
    core.tokens[core.host_token] = frozenset({0})
    bo = core.issue_token({1})
    journal.room(core.code, core.kept())
    core.start_game(seed=3)
    clock.advance(1_100)  # the game's time runs out
    core.tick()
    assert core.phase is Phase.OVER
    core.open_page(1)
    core.receive(1, Hello(wire.VERSION, bo, -1))
    core.receive(1, wire.Rematch())  # Bo asks: the room is back in its lobby, and says so
    assert core.room_view().rematch_by == 1
    journal.close()

    async def scenario() -> None:
        rooms = Rooms(SqliteJournal(path), clock=ManualClock())
        runner = rooms.get("AGAIN1")
        assert runner is not None
        view = runner.core.room_view()
        assert view.phase is Phase.LOBBY and view.rematch_by == 1
        assert [seat.ready for seat in view.seats] == [False, True]
        await rooms.close()
        assert rooms.journal is not None
        rooms.journal.close()

    in_a_loop(scenario)
    with sqlite3.connect(path) as db:  # a room kept by a server from before the document had a version
        (text,) = db.execute("SELECT doc FROM rooms WHERE code = 'AGAIN1'").fetchone()
    doc = json.loads(text)
    assert doc["version"] == 3
    newer = ("version", "rematch_by", "standin_seats", "match", "rated")
    older = {key: value for key, value in doc.items() if key not in newer}
    again = RoomCore.restored(KeptRoom.from_doc(older), ManualClock())
    assert again.phase is Phase.LOBBY and again.room_view().rematch_by is None and again.seats[1].ready
