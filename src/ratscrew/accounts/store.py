"""Accounts and their sessions, in the server's SQLite file (``database.py`` makes the tables).

A session is a random token: the browser keeps it in a cookie, the file keeps its SHA-256 (a copied file
signs nobody in), with the account, an expiry and the session's own CSRF token (``web/session.py``). Each
call opens its own connection and commits before it answers, as the rest of the store does.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ratscrew import database
from ratscrew.accounts.names import BadName

SESSION_S = 30 * 24 * 3600  # a session lasts 30 days from sign-in, then the player signs in again


@dataclass(frozen=True, slots=True)
class Account:
    """A signed-in player: the id other tables keep, and the name shown."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Session:
    """A session as the request finds it: whose, its CSRF token, and when it ends (seconds since 1970)."""

    account: Account
    csrf: str
    expires: float


@dataclass(frozen=True, slots=True)
class Opened:
    """A new session: the token for the cookie (known only here and to the browser) and the session."""

    token: str
    session: Session


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class NameTaken(BadName):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"the name {name!r} is taken (names are the same whatever their case): choose another", "name_taken"
        )


class AccountStore:
    def __init__(self, path: Path, now: Callable[[], float] = time.time) -> None:
        self.path = path
        self.now = now
        database.prepare(path)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = database.connect(self.path, synchronous="FULL", timeout=10)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            with db:
                yield db
        finally:
            db.close()

    # ------------------------------------------------------------------ accounts

    def create(self, name: str, password_hash: str) -> Account:
        """A new account; NameTaken if the name is someone's whatever its case."""
        try:
            with self._connect() as db:
                cursor = db.execute(
                    "INSERT INTO accounts (name, password, created) VALUES (?, ?, ?)", (name, password_hash, self.now())
                )
        except sqlite3.IntegrityError:
            raise NameTaken(name) from None
        assert cursor.lastrowid is not None
        return Account(cursor.lastrowid, name)

    def find(self, name: str) -> tuple[Account, str] | None:
        """The account of ``name`` (any case) and its password hash, or None."""
        with self._connect() as db:
            row = db.execute("SELECT id, name, password FROM accounts WHERE name = ?", (name,)).fetchone()
        return None if row is None else (Account(row[0], row[1]), row[2])

    def names(self, ids: Collection[int]) -> dict[int, str]:
        """The name of each account among ``ids`` that exists (a leaderboard shows names, never ids)."""
        wanted = list(dict.fromkeys(ids))
        found: dict[int, str] = {}
        with self._connect() as db:
            for start in range(0, len(wanted), 500):  # SQLite takes a bounded number of parameters at once
                part = wanted[start : start + 500]
                marks = ", ".join("?" * len(part))
                found.update(db.execute(f"SELECT id, name FROM accounts WHERE id IN ({marks})", part).fetchall())
        return found

    def password_of(self, account: Account) -> str | None:
        with self._connect() as db:
            row = db.execute("SELECT password FROM accounts WHERE id = ?", (account.id,)).fetchone()
        return None if row is None else str(row[0])

    def set_password(self, account: Account, password_hash: str, *, keep: str | None = None) -> None:
        """A new hash; every session of the account but ``keep`` (a cookie's token) ends."""
        kept = token_hash(keep) if keep is not None else ""
        with self._connect() as db:
            db.execute("UPDATE accounts SET password = ? WHERE id = ?", (password_hash, account.id))
            db.execute("DELETE FROM sessions WHERE account_id = ? AND token_hash != ?", (account.id, kept))

    def rehash(self, account: Account, password_hash: str) -> None:
        """The same password, hashed again with today's parameters: every session goes on."""
        with self._connect() as db:
            db.execute("UPDATE accounts SET password = ? WHERE id = ?", (password_hash, account.id))

    def delete(self, account: Account) -> None:
        """The account and every row any table keeps of it (``database.ACCOUNT_TABLES``), in one transaction."""
        with self._connect() as db:
            for table in database.ACCOUNT_TABLES:
                db.execute(f"DELETE FROM {table} WHERE account_id = ?", (account.id,))
            db.execute("DELETE FROM accounts WHERE id = ?", (account.id,))

    # ------------------------------------------------------------------ sessions

    def open_session(self, account: Account) -> Opened:
        now = self.now()
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self._connect() as db:
            db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))  # the file keeps no dead sessions
            db.execute(
                "INSERT INTO sessions (token_hash, account_id, csrf, created, expires) VALUES (?, ?, ?, ?, ?)",
                (token_hash(token), account.id, csrf, now, now + SESSION_S),
            )
        return Opened(token, Session(account, csrf, now + SESSION_S))

    def session(self, token: str) -> Session | None:
        """The live session of a cookie's token, or None (unknown, ended or expired)."""
        with self._connect() as db:
            row = db.execute(
                "SELECT a.id, a.name, s.csrf, s.expires FROM sessions s JOIN accounts a ON a.id = s.account_id "
                "WHERE s.token_hash = ? AND s.expires > ?",
                (token_hash(token), self.now()),
            ).fetchone()
        return None if row is None else Session(Account(row[0], row[1]), row[2], row[3])

    def close_session(self, token: str) -> None:
        with self._connect() as db:
            db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash(token),))
