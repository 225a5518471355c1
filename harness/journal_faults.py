"""A ``ratscrew play`` server whose journal has a fault put in on purpose (``tests/test_journal_faults.py``).

    python -m harness.journal_faults [--delay-ms N] [--fail N] [--full-when FILE] [--stall-ms N] -- play ...

``--delay-ms``: every commit of the journal comes that much later (the window between queueing a write and
committing it, held open). ``--fail``: the first N transactions fail with an I/O error. ``--full-when``:
while that file exists, the SQLite file may not grow by one page (``max_page_count``) and every transaction
needs one more (it starts by writing a page-sized row), so each fails with SQLite's own SQLITE_FULL, as on
a full disk. ``--stall-ms``: how long a room waits for a commit before it stops (``delivery.STALL_MS``).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from ratscrew.cli import main
from ratscrew.rooms import delivery, journal
from ratscrew.web import app

MOST_PAGES = 1_073_741_823  # SQLite's own default for max_page_count


class FaultyJournal(journal.SqliteJournal):
    delay_s = 0.0
    failures = 0
    full_when: Path | None = None

    def _schedule(self, delay: float) -> bool:
        return super()._schedule(delay + self.delay_s)

    def _transaction(self, db: sqlite3.Connection, writes: list[journal.Write]) -> None:
        super()._transaction(db, [self._fault, *writes])

    def _fault(self, db: sqlite3.Connection) -> None:
        """The first write of every transaction: it fails, or sets the file's page limit."""
        if FaultyJournal.failures > 0:
            FaultyJournal.failures -= 1
            raise sqlite3.OperationalError("disk I/O error (injected)")
        if self.full_when is None:
            return
        if not self.full_when.exists():
            db.execute(f"PRAGMA max_page_count = {MOST_PAGES}")
            db.execute("CREATE TABLE IF NOT EXISTS fault_fill (b BLOB)")
            return
        (pages,) = db.execute("PRAGMA page_count").fetchone()
        db.execute(f"PRAGMA max_page_count = {pages}")
        db.execute("INSERT INTO fault_fill VALUES (zeroblob(8192))")  # no page left for it: SQLITE_FULL


def run() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay-ms", type=int, default=0)
    parser.add_argument("--fail", type=int, default=0)
    parser.add_argument("--full-when", type=Path)
    parser.add_argument("--stall-ms", type=int, default=delivery.STALL_MS)
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    FaultyJournal.delay_s = args.delay_ms / 1000
    FaultyJournal.failures = args.fail
    FaultyJournal.full_when = args.full_when
    delivery.STALL_MS = args.stall_ms
    app.SqliteJournal = FaultyJournal  # type: ignore[attr-defined]
    rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    sys.argv = ["ratscrew", *rest]
    main()


if __name__ == "__main__":
    run()
