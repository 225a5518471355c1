"""The rooms' journal: every room and every applied action, written to SQLite, and told back to the rooms
once it is in the file.

Rooms hand their writes to the journal, each with a ticket (its number in the order written). At the end
of each turn of the event loop, whatever every room queued in that turn goes into one transaction (a group
commit); then the journal says how far the file holds (``committed``) and calls whoever waits for it. A
room sends its pages nothing until the writes behind it are committed (``after``, ``delivery.py``): what a
page was shown is always in the file, so a server killed at any moment restarts every room where its pages
last saw it, or further. Finished games go to the ``games`` table the store reads (``database.py``).

The commit runs on the event loop's own thread: a commit in WAL mode without a sync is a write into the
log, well under a millisecond, while a writer thread had to win the interpreter's lock back from a busy
loop at every SQLite call (5 ms each time) before the pages could be told anything. Checkpoints, which
sync, run on a thread of their own (``Checkpoints``).

A transaction that fails (a full disk, an I/O error) is logged and tried again whole, with a growing
pause, for as long as it takes; meanwhile ``health`` says so, the rooms start no new game and show nothing
more, and everything committed before stays in the file.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ratscrew import database
from ratscrew.record import Record
from ratscrew.rooms.document import KeptRoom
from ratscrew.rooms.wire import GameSummary, Phase

log = logging.getLogger(__name__)

Write = Callable[[sqlite3.Connection], None]

# A room nobody has touched for this long is forgotten at start-up (its finished games stay in ``games``,
# where the history finds them): a lobby left open, or a game abandoned mid-play, does not live for ever.
ROOM_KEPT_S = 14 * 24 * 3600
RETRY_FIRST_S = 0.05  # the pause before a failed transaction is tried again, doubled each time...
RETRY_MOST_S = 2.0  # ...up to this
LOG_EVERY_S = 30.0  # a failure that goes on is logged again this often
# Writes waiting beyond this many: the journal is not keeping up (a disk that slow loses nothing, but the
# rooms start no new game until it catches up, so memory stays bounded).
MOST_WAITING = 50_000
CHECKPOINT_EVERY_S = 2.0  # the log is copied into the file, and synced, this often (what a power cut may lose)
LOCKED_WAIT_S = 0.25  # how long a commit waits for the store's own writes to the file, on the loop's thread
TRUNCATE_WAIT_S = 0.05  # how long that emptying may hold the writers up, at most, before it tries next time


@dataclass(frozen=True, slots=True)
class SavedRoom:
    room: KeptRoom
    actions: list[object]  # of the room's current game, in order
    seq: int  # the number of the room's last event (-1: none yet)


@dataclass(frozen=True, slots=True)
class Health:
    """Whether the journal keeps what it is given: for a health check, and for rooms deciding to start a game."""

    ok: bool
    error: str | None  # the last SQLite error, while writes fail
    failing_s: float | None  # for how long they have been failing
    waiting: int  # writes queued and not yet committed

    def to_json(self) -> dict[str, object]:
        failing = None if self.failing_s is None else round(self.failing_s, 1)
        return {"ok": self.ok, "error": self.error, "failing_s": failing, "waiting": self.waiting}


class SqliteJournal:
    """Implements ``document.Journal``; writes, commits and reads happen on the event loop's thread (or at
    once, on the caller's, when no loop runs: start-up and tests)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        database.prepare(path)
        self.queued = 0  # the ticket of the last write queued
        self.committed = 0  # every write up to this ticket is in the file
        self._pending: list[tuple[int, Write]] = []
        self._db: sqlite3.Connection | None = None
        self._due: asyncio.Handle | None = None  # the commit scheduled on the loop, if any
        self._pause = RETRY_FIRST_S
        self._logged = 0.0
        self._error: str | None = None
        self._failing_since: float | None = None
        self._closing = False
        # Callbacks waiting for a ticket to be committed.
        self._waiters: list[tuple[int, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._checkpoints = Checkpoints(path)

    def _connect(self) -> sqlite3.Connection:
        # NORMAL in WAL mode: a commit is in the operating system's hands when it returns, so a killed
        # process loses none of it; only a power cut can lose the last commits (docs/online.md, Durability).
        db = database.connect(self.path, synchronous="NORMAL", timeout=LOCKED_WAIT_S, any_thread=True)
        db.execute("PRAGMA wal_autocheckpoint = 0")  # not inside a commit on the loop: ``Checkpoints`` does it
        return db

    # ------------------------------------------------------------------ writes (the event loop's thread)

    def room(self, code: str, room: KeptRoom) -> None:
        text = json.dumps(room.to_doc())
        closed = 0

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO rooms (code, doc, closed, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(code) DO UPDATE SET doc = excluded.doc, updated = excluded.updated",
                (code, text, closed, time.time()),
            )

        self._put(write)

    def actions(self, code: str, game_no: int, start: int, actions: list[object], seq: int) -> None:
        """The game's actions from number ``start``, and the number of the room's last event after them
        (in the same transaction: a room restarted from these actions numbers its next event ``seq + 1``)."""

        def write(db: sqlite3.Connection) -> None:
            # Encoded when the transaction runs: nobody changes the documents once they are queued.
            rows = [(code, game_no, start + i, json.dumps(a)) for i, a in enumerate(actions)]
            if start == 0:  # a new game: the actions of the room's earlier ones are not needed to resume it
                db.execute("DELETE FROM room_actions WHERE code = ? AND game_no < ?", (code, game_no))
            db.executemany("INSERT OR REPLACE INTO room_actions (code, game_no, idx, action) VALUES (?, ?, ?, ?)", rows)
            db.execute("UPDATE rooms SET seq = ? WHERE code = ?", (seq, code))

        self._put(write)

    def finished(self, code: str, game_id: str, record: Record, summary: GameSummary) -> None:
        row = (game_id, json.dumps(record.to_json()), json.dumps(summary.to_json()), time.time())

        def write(db: sqlite3.Connection) -> None:
            db.execute(database.SAVE_GAME, row)

        self._put(write)

    def rebuilt(self, game_id: str, record: Record, summary: GameSummary) -> None:
        """A finished game's record rebuilt from its journal after a restart, kept unless the game's own is
        there already (that one also has the figures of every slap's credit)."""
        row = (game_id, json.dumps(record.to_json()), json.dumps(summary.to_json()), time.time())

        def write(db: sqlite3.Connection) -> None:
            db.execute(database.SAVE_GAME_IF_MISSING, row)

        self._put(write)

    def _put(self, write: Write) -> None:
        self.queued += 1
        self._pending.append((self.queued, write))
        if self._due is None and not self._schedule(0.0):
            self.commit()  # no event loop runs (start-up, tests): at once

    # ------------------------------------------------------------------ committing

    def _schedule(self, delay: float) -> bool:
        """Commit what is pending once this turn of the event loop is done (every room that ran in it, in
        one transaction), or ``delay`` seconds from now; False when no loop is running."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self._due = loop.call_later(delay, self._run_due) if delay else loop.call_soon(self._run_due)
        return True

    def _run_due(self) -> None:
        self._due = None
        self.commit()

    def commit(self) -> bool:
        """Write everything pending in one transaction, and call whoever waited for it; False if it could
        not be written (it is tried again after a pause, whole)."""
        batch = self._pending
        if not batch:
            return True
        try:
            if self._db is None:
                self._db = self._connect()
            self._transaction(self._db, [write for _ticket, write in batch])
        except sqlite3.Error as exc:
            self._failed(exc, len(batch))
            return False
        self._pending = []
        self.committed = batch[-1][0]
        if self._failing_since is not None:
            took = time.monotonic() - self._failing_since
            log.warning("journal: writes are kept again, after %.1f s of failures (%s)", took, self._error)
            self._failing_since, self._error, self._pause = None, None, RETRY_FIRST_S
        self._release()
        return True

    def _transaction(self, db: sqlite3.Connection, writes: list[Write]) -> None:
        with db:
            for write in writes:
                write(db)

    def _failed(self, exc: sqlite3.Error, count: int) -> None:
        if self._db is not None:
            self._db.close()  # a fresh connection for the next try: nothing half-done carries over
            self._db = None
        now = time.monotonic()
        if self._failing_since is None:
            self._failing_since = now
        self._error = f"{exc.__class__.__name__}: {exc}"
        if now - self._logged >= LOG_EVERY_S or self._closing:
            self._logged = now
            log.error("journal: a transaction of %d writes failed (%s); trying again", count, self._error)
        # Tried again after a pause; with no loop running, by the next write or flush.
        if self._due is None and not self._closing and self._schedule(self._pause):
            self._pause = min(self._pause * 2, RETRY_MOST_S)

    # ------------------------------------------------------------------ waiting for a commit

    def after(self, ticket: int, callback: Callable[[], None]) -> None:
        """Call ``callback`` once every write up to ``ticket`` is committed."""
        heapq.heappush(self._waiters, (ticket, next(self._order), callback))
        self._release()

    def _release(self) -> None:
        waiters, committed = self._waiters, self.committed
        while waiters and waiters[0][0] <= committed:
            heapq.heappop(waiters)[2]()

    # ------------------------------------------------------------------ health

    def health(self) -> Health:
        waiting = self.queued - self.committed
        since = self._failing_since
        failing = None if since is None else time.monotonic() - since
        return Health(since is None and waiting < MOST_WAITING, self._error, failing, waiting)

    def healthy(self) -> bool:
        return self.health().ok

    def flush(self) -> bool:
        """Commit what is pending now (tests, and a clean shutdown); True when nothing is left waiting."""
        if not self.commit():
            return False
        if self._due is not None:  # nothing left for it, and its loop may be ending
            self._due.cancel()
            self._due = None
        return True

    def close(self) -> None:
        self._closing = True
        if self._due is not None:
            self._due.cancel()
            self._due = None
        if not self.commit():
            log.error("journal: %d writes could not be kept at shutdown", len(self._pending))
        if self._db is not None:
            self._db.close()
            self._db = None
        self._checkpoints.close()

    # ------------------------------------------------------------------ reads

    def expire(self, kept_s: float = ROOM_KEPT_S, now: float | None = None) -> int:
        """Forget every room untouched for ``kept_s`` seconds, with its actions; how many were forgotten."""
        cutoff = (time.time() if now is None else now) - kept_s
        with self._connect() as db:
            codes = [code for (code,) in db.execute("SELECT code FROM rooms WHERE updated < ?", (cutoff,))]
            db.executemany("DELETE FROM room_actions WHERE code = ?", [(c,) for c in codes])
            db.executemany("DELETE FROM rooms WHERE code = ?", [(c,) for c in codes])
        return len(codes)

    def playing_rooms(self) -> list[SavedRoom]:
        """Every room whose game was being played, with the actions of that game."""
        with self._connect() as db:
            rows = db.execute("SELECT code, doc, seq FROM rooms WHERE closed = 0").fetchall()
            return [
                _saved(db, code, doc, seq)
                for code, text, seq in rows
                if (doc := json.loads(text)).get("phase") == Phase.PLAYING.value
            ]

    def unrated_ends(self) -> list[str]:
        """The rooms whose rated Play-now game ended with no rating changes kept: the server stopped between the
        game's end and its rating. Loaded at start-up, each is rated then (``web/matched.py``)."""
        with self._connect() as db:
            rows = db.execute("SELECT code, doc FROM rooms WHERE closed = 0").fetchall()
        return [code for code, text in rows if _unrated_end(json.loads(text))]

    def load_room(self, code: str) -> SavedRoom | None:
        with self._connect() as db:
            row = db.execute("SELECT doc, seq FROM rooms WHERE code = ? AND closed = 0", (code,)).fetchone()
            return None if row is None else _saved(db, code, json.loads(row[0]), row[1])


def _unrated_end(doc: dict[str, Any]) -> bool:
    match = doc.get("match")
    return (
        doc.get("phase") == Phase.OVER.value
        and isinstance(match, dict)
        and bool(match.get("rated"))
        and doc.get("rated") is None
    )


def _saved(db: sqlite3.Connection, code: str, doc: dict[str, Any], seq: int) -> SavedRoom:
    game_no = int(doc.get("game_no", 0))
    actions = [
        json.loads(a)
        for (a,) in db.execute(
            "SELECT action FROM room_actions WHERE code = ? AND game_no = ? ORDER BY idx", (code, game_no)
        )
    ]
    return SavedRoom(KeptRoom.from_doc(doc), actions, int(seq))


class Checkpoints:
    """Copies the log into the file every ``every_s``, on a thread of its own: a checkpoint syncs the disk,
    which no commit on the event loop should wait for. Passive: it never holds up a writer.

    A passive checkpoint copies the log as it was when it began, and the log only starts over from its first
    byte once a writer finds all of it copied: while the rooms write without a pause (hundreds of rooms, both
    workers), that never happens and the file grew by megabytes a second, for as long as the writes went on
    (425 MB in two minutes). So once the log passes ``limit_bytes``, a truncating checkpoint follows the
    passive one: it holds new writers back only to copy what came in since (a moment's writes), waits at
    most ``TRUNCATE_WAIT_S`` for the writer in progress, else gives up until the next round, and leaves the
    log empty."""

    def __init__(
        self, path: Path, *, every_s: float = CHECKPOINT_EVERY_S, limit_bytes: int = database.WAL_LIMIT_BYTES
    ) -> None:
        self.path = path
        self.every_s = every_s
        self.limit_bytes = limit_bytes
        self._log = path.with_name(path.name + "-wal")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ratscrew checkpoints", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db: sqlite3.Connection | None = None
        while not self._stop.wait(self.every_s):
            try:
                db = db or self._connect()
                db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                if self._log_size() > self.limit_bytes:
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            except sqlite3.Error as exc:  # the journal's own commits say when the file fails; this waits
                log.warning("journal: a checkpoint failed (%s: %s)", exc.__class__.__name__, exc)
                if db is not None:
                    db.close()
                db = None
        if db is not None:
            db.close()

    def _connect(self) -> sqlite3.Connection:
        return database.connect(self.path, synchronous="NORMAL", timeout=TRUNCATE_WAIT_S, any_thread=True)

    def _log_size(self) -> int:
        try:
            return self._log.stat().st_size
        except FileNotFoundError:
            return 0

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
