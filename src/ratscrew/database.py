"""The one SQLite file a server keeps: every table of it, made in one place, and how it is opened.

Four parts write to it: the store (``web/store.py``: score-keeper matches, and finished games as the
history page reads them), the rooms' journal (``rooms/journal.py``: every live room and the actions of its
game, and each game as it finishes), the accounts (``accounts/store.py``: names, password hashes, sessions)
and the ladder (``ladder/store.py``: players' ratings and how each rated game moved them; ``ladder/stats.py``:
each signed-in player's figures of each game, for their profile). Whichever opens the
file first makes what is missing and brings a file from an older version up to date (a file from before the
accounts or the ladder gets their tables); all then share the schema below, and the one way a finished game
is saved.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    players TEXT NOT NULL,
    rules TEXT NOT NULL,
    timer_s INTEGER NOT NULL DEFAULT 0,
    round_started REAL,
    finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    key_hash TEXT
);
CREATE TABLE IF NOT EXISTS rounds (
    match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    winner INTEGER,
    cards TEXT,
    created REAL NOT NULL,
    PRIMARY KEY (match_id, number)
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    summary TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL,
    seq INTEGER NOT NULL DEFAULT -1
);
CREATE TABLE IF NOT EXISTS room_actions (
    code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (code, game_no, idx)
);
CREATE TABLE IF NOT EXISTS ratings (
    account_id INTEGER NOT NULL,  -- accounts.id (no foreign key: an account's deletion removes these rows)
    size_class TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (account_id, size_class)
);
CREATE TABLE IF NOT EXISTS rated_games (
    game TEXT PRIMARY KEY,
    size_class TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_changes (
    game TEXT NOT NULL REFERENCES rated_games(game) ON DELETE CASCADE,
    account_id INTEGER NOT NULL,
    size_class TEXT NOT NULL,
    place INTEGER NOT NULL,
    players INTEGER NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game, account_id)
);
CREATE TABLE IF NOT EXISTS player_games (
    account_id INTEGER NOT NULL,  -- accounts.id: one row per signed-in player per finished game
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,  -- the table's size, computers included
    size_class TEXT NOT NULL,
    place INTEGER NOT NULL,  -- among every seat, 1 first (ties share a place)
    won INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    slaps_won INTEGER NOT NULL,  -- piles won by slapping
    wrong_slaps INTEGER NOT NULL,
    reactions TEXT NOT NULL,  -- a JSON list of reaction times (ms)
    chances INTEGER NOT NULL,  -- slappable piles open to the player
    missed INTEGER NOT NULL,  -- of those, the ones they did not win by slapping
    created REAL NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE TABLE IF NOT EXISTS player_patterns (
    account_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    pattern TEXT NOT NULL,  -- a key of patterns.PATTERNS
    chances INTEGER NOT NULL,
    missed INTEGER NOT NULL,
    PRIMARY KEY (account_id, game, pattern)
);
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never given again: what a deleted account left cannot pass to another
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,  -- names are ASCII (accounts/names.py): NOCASE is the whole rule
    password TEXT NOT NULL,  -- an Argon2id hash in PHC form, never the password
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,  -- SHA-256 of the cookie's token: a copied file signs nobody in
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL
);
"""
# Made after SCHEMA, once ``key_hash`` exists (a file from before keys gets the column first).
INDEXES = """
CREATE INDEX IF NOT EXISTS matches_by_key ON matches (key_hash, created, id);
CREATE INDEX IF NOT EXISTS matches_by_age ON matches (created, id);
CREATE INDEX IF NOT EXISTS ratings_by_class ON ratings (size_class, (mu - 3 * sigma));
CREATE INDEX IF NOT EXISTS rating_changes_by_account ON rating_changes (account_id, size_class);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account_id);
CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires);
"""
# Every table that holds an account's rows, by an ``account_id`` column: deleting the account deletes them
# (``accounts/store.py``). A table added with such a column is listed here (``tests/accounts/test_accounts.py`` fails
# on one that is not).
ACCOUNT_TABLES: tuple[str, ...] = ("sessions", "ratings", "rating_changes", "player_games", "player_patterns")
# A finished game: its record and summary, as the history page and the record download read them.
SAVE_GAME = "INSERT OR REPLACE INTO games (id, record, summary, created) VALUES (?, ?, ?, ?)"
# The same game rebuilt from the rooms' journal after a restart: the one saved as it finished is kept if there.
SAVE_GAME_IF_MISSING = "INSERT OR IGNORE INTO games (id, record, summary, created) VALUES (?, ?, ?, ?)"


# The write-ahead log is cut back to this size when it starts over (SQLite otherwise keeps it at the largest it
# ever was); the rooms' journal also empties it once it passes this (``rooms/journal.py``, ``Checkpoints``).
WAL_LIMIT_BYTES = 64 * 1024 * 1024


def connect(
    path: Path, *, synchronous: Literal["FULL", "NORMAL"], timeout: float, any_thread: bool = False
) -> sqlite3.Connection:
    """A connection to the file in write-ahead-log mode; ``synchronous`` is SQLite's setting: FULL syncs
    the log to the disk at every commit, NORMAL only at checkpoints (a commit survives the process being
    killed either way; after a power cut NORMAL may have lost the last ones, never the file's consistency)."""
    db = sqlite3.connect(path, timeout=timeout, check_same_thread=not any_thread)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    db.execute(f"PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}")
    return db


@contextmanager
def transaction(path: Path, *, write: bool = False) -> Iterator[sqlite3.Connection]:
    """One transaction on a synced connection, committed at the end or rolled back on any error; taken for
    writing from the start when ``write`` (``BEGIN IMMEDIATE``), so what it reads is what it writes over."""
    db = connect(path, synchronous="FULL", timeout=10)
    db.isolation_level = None  # transactions are begun here, as each call needs them
    try:
        db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    finally:
        db.close()


def prepare(path: Path) -> None:
    """Make the file, and every table and index it lacks."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = connect(path, synchronous="FULL", timeout=30)
    try:
        with db:
            db.executescript(SCHEMA)
            if "key_hash" not in _columns(db, "matches"):
                db.execute("ALTER TABLE matches ADD COLUMN key_hash TEXT")
            if "seq" not in _columns(db, "rooms"):  # the number of a room's last event, kept across restarts
                db.execute("ALTER TABLE rooms ADD COLUMN seq INTEGER NOT NULL DEFAULT -1")
            db.executescript(INDEXES)
    finally:
        db.close()


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


FILE_NAME = "ratscrew.sqlite3"  # in the data folder (``--data``)


@dataclass(frozen=True)
class Copied:
    """What a backup holds: the rooms still open, the finished games and the score keeper's matches."""

    rooms: int
    games: int
    matches: int
    size: int  # bytes


def backup(source: Path, target: Path) -> Copied:
    """Copy the live file ``source`` to ``target`` with SQLite's online backup, safe while servers write to it.

    The copy is one snapshot, taken in a single step: the servers' writes go on meanwhile (in write-ahead-log
    mode a reader holds no writer up), and a step-by-step copy would start again after each of them. It is
    written beside ``target`` under another name, checked, and only then put in its place, so ``target`` is
    never a half-written file. It needs no -wal or -shm file of its own (rollback journal).
    """
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    live = sqlite3.connect(source.resolve().as_uri() + "?mode=rw", uri=True, timeout=30)
    try:
        if missing := {"rooms", "games", "matches"} - _tables(live):
            raise ValueError(f"it has no table {', '.join(sorted(missing))}: not a ratscrew store")
        partial.unlink(missing_ok=True)
        copy = sqlite3.connect(partial)
        try:
            live.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
            checked = copy.execute("PRAGMA quick_check").fetchone()[0]
            if checked != "ok":
                raise ValueError(f"the copy fails SQLite's check: {checked}")
            copied = Copied(
                rooms=copy.execute("SELECT count(*) FROM rooms WHERE closed = 0").fetchone()[0],
                games=copy.execute("SELECT count(*) FROM games").fetchone()[0],
                matches=copy.execute("SELECT count(*) FROM matches").fetchone()[0],
                size=partial.stat().st_size,
            )
        finally:
            copy.close()
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        partial.replace(target)
        return copied
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        live.close()


def _tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
