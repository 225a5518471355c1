"""The rooms' journal: every room and every applied action, written to SQLite as it happens, off the event loop.

Rooms hand their writes to a queue; one thread writes them in order, batching what arrived together into
one transaction. A room is its lobby document plus, for the game in progress, its seed and the actions
applied so far, so a server stopped by SIGTERM or kill -9 reloads every room and replays every game to its
last written action. Finished games go to the ``games`` table the store reads (``database.py``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ratscrew import database
from ratscrew.rooms.wire import Phase

Write = Callable[[sqlite3.Connection], None]

# A room nobody has touched for this long is forgotten at start-up (its finished games stay in ``games``,
# where the history finds them): a lobby left open, or a game abandoned mid-play, does not live for ever.
ROOM_KEPT_S = 14 * 24 * 3600


@dataclass(frozen=True, slots=True)
class SavedRoom:
    doc: dict[str, object]
    actions: list[object]  # of the room's current game, in order


class SqliteJournal:
    """Implements ``core.Journal``; writes happen on its own thread, reads (at start-up) on the caller's."""

    def __init__(self, path: Path) -> None:
        self.path = path
        database.prepare(path)
        # Writes wait in a plain deque (appending is atomic) and the writer is woken only when it sleeps:
        # a queue.Queue took a lock and signalled a condition on every write, on the event loop's thread.
        self._queue: deque[Write | None] = deque()
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._write_loop, name="ratscrew journal", daemon=True)
        self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        return database.connect(self.path, synchronous="NORMAL", timeout=30, any_thread=True)

    # ------------------------------------------------------------------ writes (any thread)

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

    def actions(self, code: str, game_no: int, start: int, actions: list[object]) -> None:
        def write(db: sqlite3.Connection) -> None:
            # Encoded here, on the writer's thread: the documents are new and nobody changes them after.
            rows = [(code, game_no, start + i, json.dumps(a)) for i, a in enumerate(actions)]
            if start == 0:  # a new game: the actions of the room's earlier ones are not needed to resume it
                db.execute("DELETE FROM room_actions WHERE code = ? AND game_no < ?", (code, game_no))
            db.executemany("INSERT OR REPLACE INTO room_actions (code, game_no, idx, action) VALUES (?, ?, ?, ?)", rows)

        self._put(write)

    def finished(self, code: str, game_id: str, record: dict[str, object], summary: dict[str, object]) -> None:
        row = (game_id, json.dumps(record), json.dumps(summary), time.time())

        def write(db: sqlite3.Connection) -> None:
            db.execute(database.SAVE_GAME, row)

        self._put(write)

    def _put(self, write: Write | None) -> None:
        if self._idle.is_set():
            self._idle.clear()
        self._queue.append(write)
        if not self._wake.is_set():
            self._wake.set()

    # ------------------------------------------------------------------ the writer thread

    def _write_loop(self) -> None:
        db = self._connect()
        pending = self._queue
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                # Whatever is waiting goes into one transaction (a write put after the clear wakes us again).
                batch: list[Write] = []
                stop = False
                while pending:
                    item = pending.popleft()
                    if item is None:
                        stop = True
                        break
                    batch.append(item)
                if batch:
                    with db:
                        for write in batch:
                            write(db)
                if not pending:
                    self._idle.set()
                    if pending:  # a write slipped in between: not idle after all
                        self._idle.clear()
                if stop:
                    return
        finally:
            db.close()
            self._idle.set()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every write so far is committed (tests, and a clean shutdown)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self._put(None)
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
            rows = db.execute("SELECT code, doc FROM rooms WHERE closed = 0").fetchall()
            saved = []
            for code, text in rows:
                doc = json.loads(text)
                if doc.get("phase") != Phase.PLAYING.value:
                    continue
                game_no = int(doc.get("game_no", 0))
                actions = [
                    json.loads(a)
                    for (a,) in db.execute(
                        "SELECT action FROM room_actions WHERE code = ? AND game_no = ? ORDER BY idx", (code, game_no)
                    )
                ]
                saved.append(SavedRoom(doc, actions))
        return saved

    def load_room(self, code: str) -> SavedRoom | None:
        with self._connect() as db:
            row = db.execute("SELECT doc FROM rooms WHERE code = ? AND closed = 0", (code,)).fetchone()
            if row is None:
                return None
            doc = json.loads(row[0])
            game_no = int(doc.get("game_no", 0))
            actions = [
                json.loads(a)
                for (a,) in db.execute(
                    "SELECT action FROM room_actions WHERE code = ? AND game_no = ? ORDER BY idx", (code, game_no)
                )
            ]
        return SavedRoom(doc, actions)
