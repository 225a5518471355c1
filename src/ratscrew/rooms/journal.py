"""The rooms' journal: every room and every applied action, written to SQLite off the event loop, and told
back to the rooms once it is in the file.

Rooms hand their writes to a queue, each with a ticket (its number in the order written); one thread
writes them in order, whatever arrived together in one transaction (a group commit), and then says how far
the file holds (``committed``). A room sends its pages nothing until the writes behind it are committed
(``after``, ``runner.py``): what a page was shown is always in the file, so a server killed at any moment
restarts every room where its pages last saw it, or further. Finished games go to the ``games`` table the
store reads (``database.py``).

A write that fails (a full disk, an I/O error) is logged and tried again, the whole transaction, with a
growing pause, for as long as it takes; meanwhile ``health`` says so, the rooms start no new game and show
nothing more, and everything committed before stays in the file.
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
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ratscrew import database
from ratscrew.rooms.wire import Phase

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


@dataclass(frozen=True, slots=True)
class SavedRoom:
    doc: dict[str, object]
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
    """Implements ``document.Journal``; writes happen on its own thread, reads (at start-up) on the caller's."""

    def __init__(self, path: Path) -> None:
        self.path = path
        database.prepare(path)
        # Writes wait in a plain deque (appending is atomic) and the writer is woken only when it sleeps:
        # a queue.Queue took a lock and signalled a condition on every write, on the event loop's thread.
        self._queue: deque[tuple[int, Write] | None] = deque()
        self.queued = 0  # the ticket of the last write queued (the event loop's thread)
        self.committed = 0  # every write up to this ticket is in the file (set by the writer's thread)
        self._error: str | None = None
        self._failing_since: float | None = None
        self._closing = False
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        # Callbacks waiting for a ticket to be committed, run on the event loop's thread.
        self._waiters: list[tuple[int, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._told = False  # a release is already scheduled on the loop
        self._thread = threading.Thread(target=self._write_loop, name="ratscrew journal", daemon=True)
        self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        # NORMAL in WAL mode: a commit is in the operating system's hands when it returns, so a killed
        # process loses none of it; only a power cut can lose the last commits (docs/online.md, Durability).
        return database.connect(self.path, synchronous="NORMAL", timeout=30, any_thread=True)

    # ------------------------------------------------------------------ writes (the event loop's thread)

    def room(self, code: str, doc: dict[str, object]) -> None:
        text = json.dumps(doc)
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
            # Encoded here, on the writer's thread: the documents are new and nobody changes them after.
            rows = [(code, game_no, start + i, json.dumps(a)) for i, a in enumerate(actions)]
            if start == 0:  # a new game: the actions of the room's earlier ones are not needed to resume it
                db.execute("DELETE FROM room_actions WHERE code = ? AND game_no < ?", (code, game_no))
            db.executemany("INSERT OR REPLACE INTO room_actions (code, game_no, idx, action) VALUES (?, ?, ?, ?)", rows)
            db.execute("UPDATE rooms SET seq = ? WHERE code = ?", (seq, code))

        self._put(write)

    def finished(self, code: str, game_id: str, record: dict[str, object], summary: dict[str, object]) -> None:
        row = (game_id, json.dumps(record), json.dumps(summary), time.time())

        def write(db: sqlite3.Connection) -> None:
            db.execute(database.SAVE_GAME, row)

        self._put(write)

    def rebuilt(self, game_id: str, record: dict[str, object], summary: dict[str, object]) -> None:
        """A finished game's record rebuilt from its journal after a restart, kept unless the game's own is
        there already (that one also has the figures of every slap's credit)."""
        row = (game_id, json.dumps(record), json.dumps(summary), time.time())

        def write(db: sqlite3.Connection) -> None:
            db.execute(database.SAVE_GAME_IF_MISSING, row)

        self._put(write)

    def _put(self, write: Write) -> None:
        if self._idle.is_set():
            self._idle.clear()
        self.queued += 1
        self._queue.append((self.queued, write))
        if not self._wake.is_set():
            self._wake.set()

    # ------------------------------------------------------------------ waiting for a commit (the event loop)

    def after(self, ticket: int, callback: Callable[[], None]) -> None:
        """Call ``callback`` on this event loop once every write up to ``ticket`` is committed."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        heapq.heappush(self._waiters, (ticket, next(self._order), callback))
        if ticket <= self.committed:  # committed meanwhile, perhaps before the writer could see us waiting
            self._release()

    def _release(self) -> None:
        self._told = False
        waiters, committed = self._waiters, self.committed
        while waiters and waiters[0][0] <= committed:
            heapq.heappop(waiters)[2]()

    def _committed(self, ticket: int) -> None:
        """On the writer's thread: the file holds every write up to ``ticket``; wake whoever waits for it."""
        self.committed = ticket
        loop = self._loop
        if self._waiters and loop is not None and not self._told:
            self._told = True
            try:
                loop.call_soon_threadsafe(self._release)
            except RuntimeError:  # the loop is closed: the server is stopping, nobody waits any more
                self._told = False

    # ------------------------------------------------------------------ health

    def health(self) -> Health:
        waiting = self.queued - self.committed
        since = self._failing_since
        failing = None if since is None else time.monotonic() - since
        return Health(since is None and waiting < MOST_WAITING, self._error, failing, waiting)

    def healthy(self) -> bool:
        return self.health().ok

    # ------------------------------------------------------------------ the writer thread

    def _write_loop(self) -> None:
        db: sqlite3.Connection | None = None
        pending = self._queue
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                # Whatever is waiting goes into one transaction (a write put after the clear wakes us again).
                batch: list[Write] = []
                last = 0
                stop = False
                while pending:
                    item = pending.popleft()
                    if item is None:
                        stop = True
                        break
                    last, write = item
                    batch.append(write)
                if batch:
                    db = self._commit(db, batch)
                    if db is None:  # given up, at shutdown
                        return
                    self._committed(last)
                if not pending:
                    self._idle.set()
                    if pending:  # a write slipped in between: not idle after all
                        self._idle.clear()
                if stop:
                    return
        finally:
            if db is not None:
                db.close()
            self._idle.set()

    def _commit(self, db: sqlite3.Connection | None, batch: list[Write]) -> sqlite3.Connection | None:
        """Write ``batch`` in one transaction, trying again until it is in the file; the connection to go on
        with (None: it could not be kept, and the journal is closing)."""
        pause = RETRY_FIRST_S
        logged = 0.0
        while True:
            try:
                if db is None:
                    db = self._connect()
                with db:
                    for write in batch:
                        write(db)
            except sqlite3.Error as exc:
                if db is not None:
                    db.close()  # a fresh connection for the next try: nothing half-done carries over
                db = None
                now = time.monotonic()
                if self._failing_since is None:
                    self._failing_since = now
                self._error = f"{exc.__class__.__name__}: {exc}"
                if self._closing:
                    log.error("journal: %d writes could not be kept at shutdown: %s", len(batch), self._error)
                    return None
                if now - logged >= LOG_EVERY_S:
                    logged = now
                    log.error("journal: a transaction of %d writes failed (%s); trying again", len(batch), self._error)
                time.sleep(pause)
                pause = min(pause * 2, RETRY_MOST_S)
                continue
            if self._failing_since is not None:
                took = time.monotonic() - self._failing_since
                log.warning("journal: writes are kept again, after %.1f s of failures (%s)", took, self._error)
                self._failing_since, self._error = None, None
            return db

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every write so far is committed (tests, and a clean shutdown)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self._closing = True  # a transaction that still fails is given up, and said so in the log
        self._queue.append(None)
        self._wake.set()
        self._thread.join(timeout=30)

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

    def load_room(self, code: str) -> SavedRoom | None:
        with self._connect() as db:
            row = db.execute("SELECT doc, seq FROM rooms WHERE code = ? AND closed = 0", (code,)).fetchone()
            return None if row is None else _saved(db, code, json.loads(row[0]), row[1])


def _saved(db: sqlite3.Connection, code: str, doc: dict[str, Any], seq: int) -> SavedRoom:
    game_no = int(doc.get("game_no", 0))
    actions = [
        json.loads(a)
        for (a,) in db.execute(
            "SELECT action FROM room_actions WHERE code = ? AND game_no = ? ORDER BY idx", (code, game_no)
        )
    ]
    return SavedRoom(doc, actions, int(seq))
