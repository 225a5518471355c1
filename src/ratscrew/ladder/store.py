"""Ratings kept in the server's SQLite file (``database.py`` makes the tables): each player's current rating
per size class, and every change a rated game made, so a profile can draw the history.

A game is recorded in one transaction that reads the ratings it moves and writes them back, taken for
writing from the start (``BEGIN IMMEDIATE``): two workers recording games of the same player one after the
other each see the other's result, never the same old rating, and a failure half-way leaves nothing
written. A game is recorded once: recording it again (a room rebuilt from its journal after a restart)
changes nothing and answers what it did the first time.

Players are the accounts' integer ids; names belong to the accounts, so nothing here can show one.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from ratscrew import database
from ratscrew.ladder.places import RatedResult
from ratscrew.ladder.ratings import PROVISIONAL_SIGMA, Place, PlayerId, Rating, SizeClass, rate

HISTORY_LIMIT = 500  # changes a history answers at most


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating in one size class now, and how many rated games made it."""

    player: PlayerId
    size_class: SizeClass
    rating: Rating
    games: int


@dataclass(frozen=True, slots=True)
class Change:
    """What one rated game did to one player's rating."""

    game: str
    player: PlayerId
    size_class: SizeClass
    place: Place  # among the signed-in players of the game
    players: int  # how many signed-in players the game counted
    before: Rating
    after: Rating
    when: float  # seconds since the epoch

    @property
    def shown_change(self) -> int:
        """The change of the number people see (a newcomer's can rise after a loss: their uncertainty fell)."""
        return self.after.shown - self.before.shown


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The best players of one size class, provisional ones apart; each list best first."""

    size_class: SizeClass
    established: tuple[Standing, ...]
    provisional: tuple[Standing, ...]


_CHANGE_COLUMNS = "game, account_id, size_class, place, players, mu_before, sigma_before, mu, sigma, created"


class RatingStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        database.prepare(path)

    def _connect(self, *, write: bool = False) -> AbstractContextManager[sqlite3.Connection]:
        return database.transaction(self.path, write=write)

    def record(self, result: RatedResult, when: float | None = None) -> tuple[Change, ...]:
        """Move the ratings of the game's players, all or none; what it did to each, in the result's order."""
        players = [player for player, _ in result.places]
        with self._connect(write=True) as db:
            when = time.time() if when is None else when  # read once the file is ours: in the order written
            if db.execute("SELECT 1 FROM rated_games WHERE game = ?", (result.game,)).fetchone():
                return _changes_of(db, result.game, players)
            before = _ratings(db, players, result.size_class)
            after = rate(before, result.places)
            db.execute(
                "INSERT INTO rated_games (game, size_class, created) VALUES (?, ?, ?)",
                (result.game, result.size_class.value, when),
            )
            marks = ", ".join("?" * len(players))
            known = {row[0] for row in db.execute(f"SELECT id FROM accounts WHERE id IN ({marks})", players)}
            changes = []
            for player, place in result.places:
                if player not in known:
                    continue  # deleted since it sat down: the others' ratings move as the game went, its own are gone
                old, new = before.get(player, Rating()), after[player]
                changes.append(Change(result.game, player, result.size_class, place, len(players), old, new, when))
                db.execute(
                    f"INSERT INTO rating_changes ({_CHANGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (result.game, player, result.size_class.value, place, len(players), *_pair(old), *_pair(new), when),
                )
                db.execute(
                    "INSERT INTO ratings (account_id, size_class, mu, sigma, games, updated) VALUES (?, ?, ?, ?, 1, ?) "
                    "ON CONFLICT (account_id, size_class) DO UPDATE SET "
                    "mu = excluded.mu, sigma = excluded.sigma, games = games + 1, updated = excluded.updated",
                    (player, result.size_class.value, new.mu, new.sigma, when),
                )
            return tuple(changes)

    def standings(self, player: PlayerId) -> dict[SizeClass, Standing]:
        """The player's rating in each size class they have played rated games of."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT size_class, mu, sigma, games FROM ratings WHERE account_id = ?", (player,)
            ).fetchall()
        return {
            SizeClass(size): Standing(player, SizeClass(size), Rating(mu, sigma), games)
            for size, mu, sigma, games in rows
        }

    def history(self, player: PlayerId, size_class: SizeClass, limit: int = HISTORY_LIMIT) -> tuple[Change, ...]:
        """The player's last ``limit`` changes in the size class, oldest first (as a chart reads them)."""
        limit = max(0, min(limit, HISTORY_LIMIT))
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE account_id = ? AND size_class = ? "
                "ORDER BY rowid DESC LIMIT ?",  # the order they were written: each starts from the one before
                (player, size_class.value, limit),
            ).fetchall()
        return tuple(_change(row) for row in reversed(rows))

    def leaderboard(self, size_class: SizeClass, limit: int = 50) -> Leaderboard:
        """The ``limit`` best established players of the class, and as many provisional ones, apart."""
        limit = max(0, limit)
        query = (
            "SELECT account_id, mu, sigma, games FROM ratings WHERE size_class = ? AND sigma {} ? "
            "ORDER BY mu - 3 * sigma DESC, account_id LIMIT ?"
        )
        with self._connect() as db:
            lists = [
                tuple(
                    Standing(player, size_class, Rating(mu, sigma), games)
                    for player, mu, sigma, games in db.execute(
                        query.format(compare), (size_class.value, PROVISIONAL_SIGMA, limit)
                    )
                )
                for compare in ("<", ">=")
            ]
        return Leaderboard(size_class, lists[0], lists[1])

    def forget(self, player: PlayerId) -> int:
        """Remove the player's ratings and changes (their account is deleted); the rows removed. The other
        players of their games keep what those games did to them."""
        with self._connect(write=True) as db:
            removed = db.execute("DELETE FROM rating_changes WHERE account_id = ?", (player,)).rowcount
            removed += db.execute("DELETE FROM ratings WHERE account_id = ?", (player,)).rowcount
        return int(removed)


def _pair(rating: Rating) -> tuple[float, float]:
    return rating.mu, rating.sigma


def _ratings(db: sqlite3.Connection, players: list[PlayerId], size_class: SizeClass) -> dict[PlayerId, Rating]:
    marks = ", ".join("?" * len(players))
    rows = db.execute(
        f"SELECT account_id, mu, sigma FROM ratings WHERE size_class = ? AND account_id IN ({marks})",
        (size_class.value, *players),
    )
    return {player: Rating(mu, sigma) for player, mu, sigma in rows}


def _changes_of(db: sqlite3.Connection, game: str, players: list[PlayerId]) -> tuple[Change, ...]:
    rows = db.execute(f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE game = ?", (game,)).fetchall()
    found = {change.player: change for change in map(_change, rows)}
    return tuple(found[player] for player in players if player in found)


def _change(row: tuple[str, int, str, int, int, float, float, float, float, float]) -> Change:
    game, player, size, place, players, mu_before, sigma_before, mu, sigma, when = row
    return Change(
        game, player, SizeClass(size), place, players, Rating(mu_before, sigma_before), Rating(mu, sigma), when
    )
