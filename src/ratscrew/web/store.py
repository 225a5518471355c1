"""The embedded store: score-keeper matches and finished games, in the server's SQLite file (``database.py``).

Every write is its own transaction, committed before the request answers, so stopping the server at any
moment loses nothing that was saved. Each call opens its own connection, which keeps the store safe to use
from Starlette's worker threads.

A match stores the SHA-256 of its owner key, never the key: a copied database file gives no right to change
matches. Matches saved before keys existed have none (``key_hash`` NULL) and stay open to everyone.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ratscrew import database
from ratscrew.errors import MalformedInput, NotFound
from ratscrew.record import Record
from ratscrew.rooms.wire import GameSummary
from ratscrew.rules.io import RulesDoc
from ratscrew.shapes import Shape

log = logging.getLogger(__name__)

__all__ = ["NotFound", "Round", "ScoreMatch", "Store", "match_not_found"]

MATCH_COLUMNS = "id, name, players, rules, timer_s, round_started, finished, created, updated, key_hash"


def match_not_found(match_id: str) -> NotFound:
    return NotFound(f"no match with id {match_id[:40]!r}: it may have been deleted")


@dataclass(frozen=True, slots=True)
class Round(Shape):
    """One round of a score-keeper match."""

    number: int
    winner: int | None  # None: a draw
    cards: tuple[int, ...] | None  # each player's cards when a timed round ended


@dataclass(frozen=True, slots=True)
class ScoreMatch:
    id: str
    name: str
    players: tuple[str, ...]
    rules: RulesDoc  # as it was checked on the way in: the preset, and what differs from it
    timer_s: int
    round_started: float | None
    finished: bool
    created: float
    updated: float
    rounds: tuple[Round, ...]
    key_hash: str | None = None  # SHA-256 of the owner key; None: saved before keys, open to everyone

    def wins(self) -> list[int]:
        tally = [0] * len(self.players)
        for r in self.rounds:
            if r.winner is not None:
                tally[r.winner] += 1
        return tally

    def remaining_s(self, now: float | None = None) -> float | None:
        """What is left of the round's timer (None: no timer runs)."""
        if not self.timer_s or self.round_started is None:
            return None
        elapsed = (now if now is not None else time.time()) - self.round_started
        return max(0.0, self.timer_s - elapsed)


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        database.prepare(path)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = database.connect(self.path, synchronous="FULL", timeout=10)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            with db:  # commits on success, rolls back on error
                yield db
        finally:
            db.close()

    # ------------------------------------------------------------------ score-keeper matches

    def create_match(
        self,
        name: str,
        players: Sequence[str],
        rules: RulesDoc,
        timer_s: int = 0,
        key_hash: str | None = None,
    ) -> ScoreMatch:
        now = time.time()
        match_id = uuid.uuid4().hex[:12]
        with self._connect() as db:
            db.execute(
                "INSERT INTO matches (id, name, players, rules, timer_s, created, updated, key_hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, name, json.dumps(list(players)), json.dumps(rules), timer_s, now, now, key_hash),
            )
        return self.match(match_id)

    def match(self, match_id: str) -> ScoreMatch:
        with self._connect() as db:
            row = db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise match_not_found(match_id)
            rounds = db.execute(
                "SELECT number, winner, cards FROM rounds WHERE match_id = ? ORDER BY number", (match_id,)
            ).fetchall()
        return _match(row, [_round(*r) for r in rounds])

    def matches(
        self, key_hashes: Collection[str] = (), *, limit: int = 50, before: tuple[float, str] | None = None
    ) -> list[ScoreMatch]:
        """The newest ``limit`` matches created before ``before`` (created, id) that are open to everyone or
        owned by one of ``key_hashes``, newest first; read in two queries whatever their number."""
        owned = ", ".join("?" * len(key_hashes))
        where = f"(key_hash IS NULL OR key_hash IN ({owned}))" if key_hashes else "key_hash IS NULL"
        params: list[object] = list(key_hashes)
        if before is not None:
            where += " AND (created < ? OR (created = ? AND id < ?))"
            params += [before[0], before[0], before[1]]
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY created DESC, id DESC LIMIT ?",
                [*params, limit],
            ).fetchall()
            ids = [r[0] for r in rows]
            rounds: dict[str, list[Round]] = {}
            if ids:
                marks = ", ".join("?" * len(ids))
                for match_id, *rest in db.execute(
                    f"SELECT match_id, number, winner, cards FROM rounds WHERE match_id IN ({marks}) "
                    "ORDER BY match_id, number",
                    ids,
                ):
                    rounds.setdefault(match_id, []).append(_round(*rest))
        return [_match(r, rounds.get(r[0], [])) for r in rows]

    def add_round(self, match_id: str, winner: int | None, cards: Sequence[int] | None = None) -> ScoreMatch:
        match = self.match(match_id)
        if winner is not None and not 0 <= winner < len(match.players):
            raise MalformedInput(f"winner must be a player from 0 to {len(match.players) - 1}, got {winner}")
        now = time.time()
        with self._connect() as db:
            # The next number is taken inside the insert, so two writers can never give out the same one.
            db.execute(
                "INSERT INTO rounds (match_id, number, winner, cards, created) "
                "SELECT ?, COALESCE(MAX(number), 0) + 1, ?, ?, ? FROM rounds WHERE match_id = ?",
                (match_id, winner, json.dumps(list(cards)) if cards else None, now, match_id),
            )
            db.execute("UPDATE matches SET updated = ?, round_started = NULL WHERE id = ?", (now, match_id))
        return self.match(match_id)

    def undo_round(self, match_id: str) -> ScoreMatch:
        match = self.match(match_id)
        if match.rounds:
            with self._connect() as db:
                db.execute("DELETE FROM rounds WHERE match_id = ? AND number = ?", (match_id, len(match.rounds)))
                db.execute("UPDATE matches SET updated = ? WHERE id = ?", (time.time(), match_id))
        return self.match(match_id)

    def start_round_timer(self, match_id: str) -> ScoreMatch:
        self.match(match_id)
        now = time.time()
        with self._connect() as db:
            db.execute("UPDATE matches SET round_started = ?, updated = ? WHERE id = ?", (now, now, match_id))
        return self.match(match_id)

    def stop_round_timer(self, match_id: str) -> ScoreMatch:
        self.match(match_id)
        with self._connect() as db:
            db.execute("UPDATE matches SET round_started = NULL, updated = ? WHERE id = ?", (time.time(), match_id))
        return self.match(match_id)

    def finish(self, match_id: str, finished: bool = True) -> ScoreMatch:
        self.match(match_id)
        with self._connect() as db:
            db.execute(
                "UPDATE matches SET finished = ?, updated = ? WHERE id = ?", (int(finished), time.time(), match_id)
            )
        return self.match(match_id)

    def delete_match(self, match_id: str) -> None:
        self.match(match_id)
        with self._connect() as db:
            db.execute("DELETE FROM rounds WHERE match_id = ?", (match_id,))
            db.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    # ------------------------------------------------------------------ finished games

    def save_game(self, game_id: str, record: Record, summary: GameSummary) -> None:
        row = (game_id, json.dumps(record.to_json()), json.dumps(summary.to_json()), time.time())
        with self._connect() as db:
            db.execute(database.SAVE_GAME, row)

    def game_record(self, game_id: str) -> dict[str, object]:
        with self._connect() as db:
            row = db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise NotFound(f"no game with id {game_id[:40]!r}")
        record: dict[str, object] = json.loads(row[0])
        return record

    def game_summaries(self, game_ids: Collection[str]) -> list[tuple[str, float, GameSummary]]:
        """The saved summaries of these finished games as (id, when saved, summary), newest first; ids with no
        finished game are left out, and so are summaries that cannot be read (logged; the file keeps them).
        One query whatever the number of ids."""
        if not game_ids:
            return []
        marks = ", ".join("?" * len(game_ids))
        with self._connect() as db:
            rows = db.execute(
                f"SELECT id, created, summary FROM games WHERE id IN ({marks}) ORDER BY created DESC, id DESC",
                list(game_ids),
            ).fetchall()
        found = []
        for game_id, created, text in rows:
            try:
                found.append((game_id, created, GameSummary.from_json(json.loads(text))))
            except (ValueError, MalformedInput) as exc:
                log.warning("game %s: its saved summary cannot be read, left out of the history: %s", game_id, exc)
        return found


def _round(number: int, winner: int | None, cards: str | None) -> Round:
    return Round(number, winner, tuple(json.loads(cards)) if cards else None)


def _match(row: Sequence[Any], rounds: Sequence[Round]) -> ScoreMatch:
    """A ``matches`` row, read in MATCH_COLUMNS order, with its rounds."""
    match_id, name, players, rules, timer_s, round_started, finished, created, updated, key_hash = row
    return ScoreMatch(
        match_id,
        name,
        tuple(json.loads(players)),
        RulesDoc(json.loads(rules)),
        timer_s,
        round_started,
        bool(finished),
        created,
        updated,
        tuple(rounds),
        key_hash,
    )
