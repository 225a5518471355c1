"""The write-ahead log stays bounded while the rooms write without a pause.

A passive checkpoint copies the log as it was when it began; the log starts over only once a writer finds all of
it copied, which never happens while writes go on without a break (both workers of a busy ``ratscrew serve``): an
operator saw the log reach 481 MB beside a 41 MB file. Here a writer commits without a pause, as the journal's
connection does (no automatic checkpoints), beside the journal's ``Checkpoints``.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from ratscrew import database
from ratscrew.rooms.journal import Checkpoints

LIMIT = 256 * 1024
COMMITS = 1500
ROW = "x" * 6000  # two pages a row: each commit writes several pages to the log


def write_without_pause(path: Path, done: threading.Event) -> None:
    db = database.connect(path, synchronous="NORMAL", timeout=5, any_thread=True)
    db.execute("PRAGMA wal_autocheckpoint = 0")  # as the journal's own connection
    try:
        for n in range(COMMITS):
            with db:
                db.execute(
                    "INSERT INTO rooms (code, doc, closed, updated) VALUES (?, ?, 0, ?) "
                    "ON CONFLICT(code) DO UPDATE SET doc = excluded.doc, updated = excluded.updated",
                    (f"R{n % 40}", f"{ROW}{n}", time.time()),
                )
            time.sleep(0.0005)
    finally:
        db.close()
        done.set()


def test_the_log_is_emptied_once_past_its_limit_while_writes_go_on(tmp_path: Path) -> None:
    path = tmp_path / database.FILE_NAME
    database.prepare(path)
    wal = path.with_name(path.name + "-wal")
    checkpoints = Checkpoints(path, every_s=0.05, limit_bytes=LIMIT)
    done = threading.Event()
    writer = threading.Thread(target=write_without_pause, args=(path, done))
    sizes: list[int] = []
    try:
        writer.start()
        while not done.wait(0.005):
            sizes.append(wal.stat().st_size if wal.exists() else 0)
    finally:
        writer.join()
        checkpoints.close()
    # Without the truncating checkpoint the log grows with every commit (1,500 commits of two pages and more:
    # over 12 MB); with it, it never holds much more than what a round's writes add past the limit.
    assert max(sizes) < 16 * LIMIT, f"the log reached {max(sizes)} bytes (limit {LIMIT})"
    db = database.connect(path, synchronous="NORMAL", timeout=5)
    try:
        assert db.execute("SELECT count(*) FROM rooms").fetchone() == (40,)
        last = max(n for n in range(COMMITS) if n % 40 == 19)  # every commit kept: R19 holds its last write
        assert db.execute("SELECT doc FROM rooms WHERE code = 'R19'").fetchone() == (f"{ROW}{last}",)
    finally:
        db.close()
