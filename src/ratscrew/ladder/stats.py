"""What a player's profile counts: each signed-in player's figures of each finished game, kept in the server's
SQLite file (``player_games`` and ``player_patterns``, made by ``database.py``), and their sums.

The rooms call one function at the end of a game where signed-in people sat::

    note_game(path, game_id, accounts, summary, record, rated)

``accounts[i]`` is the account that held seat ``i`` (None for a computer or a guest), ``summary`` the rooms'
``GameSummary`` of the game and ``record`` its ``ratscrew-record/1`` record. Each signed-in player gets one
row of the game: the table's size, their place among every seat (``ladder.places``: still in above out,
by cards held), whether they won, whether the game was rated, the piles they won by slapping, their wrong
slaps and reaction times (as the summary counted them), and the slappable piles they let go, pattern by
pattern (``ladder.chances`` says exactly what counts: the engine replays the record and its own patterns
say what was slappable). A game is noted once per player, however many times it is handed over (a server
that restarts may finish the same game again), and never for an account that no longer exists.

A player who left and whose seat a stand-in took (``replaced``: for good, or until they came back) has the
game noted with its place (last) but none of the seat's slaps, reactions or chances: the record cannot tell
which of them were the stand-in's.

Players are the accounts' integer ids, as in ``ladder/store.py``: names belong to the accounts.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import time
from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ratscrew import database
from ratscrew.errors import MalformedInput
from ratscrew.ladder.chances import Chance, chances, missed_by
from ratscrew.ladder.places import places
from ratscrew.ladder.ratings import PlayerId, SizeClass
from ratscrew.patterns import PATTERN_KEYS
from ratscrew.record import Record


class SeatFigures(Protocol):
    """What the notes read of one seat of the rooms' summary (``rooms.wire.SummaryPlayer``)."""

    @property
    def cards(self) -> int: ...

    @property
    def piles_by_slap(self) -> int: ...

    @property
    def wrong_slaps(self) -> int: ...

    @property
    def reaction_ms(self) -> Sequence[int]: ...


class Summary(Protocol):
    """What the notes read of the rooms' summary of a game (``rooms.wire.GameSummary``)."""

    @property
    def winner(self) -> int | None: ...

    @property
    def out_order(self) -> Sequence[int]: ...

    @property
    def players(self) -> Sequence[SeatFigures]: ...


@dataclass(frozen=True, slots=True)
class SizeFigures:
    """The games a player finished at tables of one size class, the ones they won, and how many were rated."""

    size_class: SizeClass
    games: int
    wins: int
    rated: int


@dataclass(frozen=True, slots=True)
class PatternFigures:
    """The chances at one pattern a player had, and how many of them they let go."""

    pattern: str
    chances: int
    missed: int


@dataclass(frozen=True, slots=True)
class Figures:
    """What a profile shows of a player's games, all of them added up."""

    games: tuple[SizeFigures, ...]  # the size classes they played, two players first
    slaps_won: int
    wrong_slaps: int
    median_reaction_ms: float | None  # the median of every reaction time of every game
    reactions: int
    chances: int
    missed: int
    patterns: tuple[PatternFigures, ...]  # the most missed first

    @property
    def played(self) -> int:
        return sum(size.games for size in self.games)


def note_game(
    path: Path,
    game_id: str,
    accounts: Sequence[PlayerId | None],
    summary: Summary,
    record: Record,
    rated: bool,
    *,
    replaced: Collection[int] = (),
    when: float | None = None,
) -> None:
    """Note a finished game for each signed-in player of it (see the module's docstring); idempotent."""
    StatsStore(path).note(game_id, accounts, summary, record, rated, replaced=replaced, when=when)


class StatsStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        database.prepare(path)

    def _connect(self, *, write: bool = False) -> AbstractContextManager[sqlite3.Connection]:
        return database.transaction(self.path, write=write)

    def note(
        self,
        game_id: str,
        accounts: Sequence[PlayerId | None],
        summary: Summary,
        record: Record,
        rated: bool,
        *,
        replaced: Collection[int] = (),
        when: float | None = None,
    ) -> int:
        """Note the game for its signed-in players; the rows written (0 when it was noted before)."""
        seats = record.seats
        if len(accounts) != seats or len(summary.players) != seats:
            raise MalformedInput(
                f"a game of {seats} seats needs an account (or None) and a summary for each: "
                f"got {len(accounts)} accounts and {len(summary.players)} seats in the summary"
            )
        players = [(seat, player) for seat, player in enumerate(accounts) if player is not None]
        ids = [player for _, player in players]
        if len(set(ids)) != len(ids):
            raise MalformedInput(f"an account holds two seats in one game: {ids}")
        if not players:
            return 0
        found = chances(record)  # the replay, before the file is held
        place = places(summary.out_order, [p.cards for p in summary.players], replaced)
        size = SizeClass.of(seats)
        written = 0
        with self._connect(write=True) as db:
            when = time.time() if when is None else when
            marks = ", ".join("?" * len(ids))
            known = {row[0] for row in db.execute(f"SELECT id FROM accounts WHERE id IN ({marks})", ids)}
            for seat, player in players:
                if player not in known:
                    continue  # deleted since it sat down: nothing of it is kept again
                counted = seat not in replaced
                figures = summary.players[seat]
                mine = _seat_chances(found, seat) if counted else []
                missed = missed_by(mine, seat)
                row = (
                    player,
                    game_id,
                    seats,
                    size.value,
                    place[seat],
                    int(summary.winner == seat),
                    int(rated),
                    figures.piles_by_slap if counted else 0,
                    figures.wrong_slaps if counted else 0,
                    json.dumps(list(figures.reaction_ms) if counted else []),
                    len(mine),
                    sum(chance.missed_by(seat) for chance in mine),
                    when,
                )
                cursor = db.execute(
                    "INSERT OR IGNORE INTO player_games (account_id, game, seats, size_class, place, won, rated, "
                    "slaps_won, wrong_slaps, reactions, chances, missed, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
                if cursor.rowcount == 0:
                    continue  # noted before
                written += 1
                db.executemany(
                    "INSERT INTO player_patterns (account_id, game, pattern, chances, missed) VALUES (?, ?, ?, ?, ?)",
                    [(player, game_id, pattern, had, let_go) for pattern, (had, let_go) in missed.items()],
                )
        return written

    def figures(self, player: PlayerId) -> Figures:
        """Everything the player's games add up to (nothing yet: zeros and no median)."""
        with self._connect() as db:
            sizes = db.execute(
                "SELECT size_class, count(*), sum(won), sum(rated) FROM player_games WHERE account_id = ? "
                "GROUP BY size_class",
                (player,),
            ).fetchall()
            slaps_won, wrong, had, let_go = db.execute(
                "SELECT coalesce(sum(slaps_won), 0), coalesce(sum(wrong_slaps), 0), coalesce(sum(chances), 0), "
                "coalesce(sum(missed), 0) FROM player_games WHERE account_id = ?",
                (player,),
            ).fetchone()
            times = [t for (text,) in db.execute(_REACTIONS, (player,)) for t in json.loads(text)]
            patterns = db.execute(
                "SELECT pattern, sum(chances), sum(missed) FROM player_patterns WHERE account_id = ? GROUP BY pattern",
                (player,),
            ).fetchall()
        order = {key: i for i, key in enumerate(PATTERN_KEYS)}
        by_pattern = sorted(
            (PatternFigures(key, n, m) for key, n, m in patterns),
            key=lambda p: (-p.missed, -p.missed / p.chances if p.chances else 0, order.get(p.pattern, len(order))),
        )
        games = sorted(
            (SizeFigures(SizeClass(size), n, wins, rated) for size, n, wins, rated in sizes),
            key=lambda s: list(SizeClass).index(s.size_class),
        )
        median = float(statistics.median(times)) if times else None
        return Figures(tuple(games), slaps_won, wrong, median, len(times), had, let_go, tuple(by_pattern))


_REACTIONS = "SELECT reactions FROM player_games WHERE account_id = ? AND reactions != '[]'"


def _seat_chances(found: Sequence[Chance], seat: int) -> list[Chance]:
    return [chance for chance in found if seat in chance.open_to]
