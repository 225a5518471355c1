"""The rooms' journal keeps what a restart needs and forgets what nobody will come back for."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from ratscrew.rooms.journal import ROOM_KEPT_S, SqliteJournal


def count(path: Path, table: str, code: str) -> int:
    with sqlite3.connect(path) as db:
        (n,) = db.execute(f"SELECT COUNT(*) FROM {table} WHERE code = ?", (code,)).fetchone()
    return int(n)


def test_rooms_untouched_for_weeks_are_forgotten_and_recent_ones_kept(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    journal = SqliteJournal(path)
    for code, phase in (("OLDLOB", "lobby"), ("OLDPLY", "playing"), ("NEWPLY", "playing")):
        journal.room(code, {"code": code, "phase": phase, "game_no": 1})
        journal.actions(code, 1, 0, [{"type": "flip", "t": 0}], 0)
    journal.flush()
    journal.close()
    with sqlite3.connect(path) as db:  # two of them were last touched three weeks ago
        db.execute("UPDATE rooms SET updated = ? WHERE code LIKE 'OLD%'", (time.time() - 21 * 24 * 3600,))
    journal = SqliteJournal(path)
    assert journal.expire() == 2
    assert [saved.doc["code"] for saved in journal.playing_rooms()] == ["NEWPLY"]
    assert count(path, "room_actions", "OLDPLY") == 0 and count(path, "rooms", "OLDLOB") == 0
    assert journal.expire(now=time.time() + ROOM_KEPT_S + 60) == 1  # and the recent one, once it is old
    journal.close()


def test_a_new_game_drops_the_actions_of_the_rooms_earlier_games(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    journal = SqliteJournal(path)
    journal.room("REMATC", {"code": "REMATC", "phase": "playing", "game_no": 2})
    journal.actions("REMATC", 1, 0, [{"type": "flip", "t": 0}, {"type": "flip", "t": 500}], 1)
    journal.actions("REMATC", 2, 0, [{"type": "flip", "t": 0}], 2)
    journal.actions("REMATC", 2, 1, [{"type": "flip", "t": 400}], 3)
    journal.flush()
    assert count(path, "room_actions", "REMATC") == 2
    (saved,) = journal.playing_rooms()
    assert saved.actions == [{"type": "flip", "t": 0}, {"type": "flip", "t": 400}]
    journal.close()
