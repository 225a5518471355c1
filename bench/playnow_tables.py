#!/usr/bin/env python3
"""What Play now's tables cost on one process, in real time, in a temporary folder (a real SQLite journal and
rating store): nothing here is asserted, it prints figures beside a baseline measured in the same run.

- Opening tables: ``--tables`` pairs wait in an unrated pool and one tick opens a room for each (``open_tables``:
  the room made, kept in the journal, its people placed), beside the same number of plain rooms created and
  kept (``Rooms.create_room``): the ratio is what a matched room adds.
- The route that completes a table: a guest's ``POST /api/playnow/join`` answered ``placed`` (the tick, the
  room opened and kept, the ticket), beside a ``where`` answered ``waiting``, in-process (Starlette's client).
- Settling a rated game: ``rate_table`` (places, OpenSkill, one write transaction with a full sync), per game.

Usage: python bench/playnow_tables.py [--tables 200] [--joins 100] [--games 200]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from starlette.testclient import TestClient

from harness.accounts import ADDRESS_HEADER, Addressed, numbered_accounts
from ratscrew.ladder.matching import Entrant, Pool, TableSize
from ratscrew.ladder.matchmaker import LocalMatchmaking, Matchmaker
from ratscrew.ladder.results import TableEnd, rate_table
from ratscrew.ladder.store import RatingStore
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import Rooms
from ratscrew.rules import Rules
from ratscrew.web.app import create_app
from ratscrew.web.matched import Tables

DUEL = Pool(TableSize.TWO, rated=False, preset="standard")
ADDRESS = ADDRESS_HEADER.decode()


async def opening(folder: Path, tables: int) -> tuple[float, float]:
    """Seconds to open ``tables`` matched rooms in one tick, and to create and keep as many plain rooms."""
    journal = SqliteJournal(folder / "open.sqlite3")
    rooms = Rooms(journal)
    matchmaker = Matchmaker(rooms.clock)
    played = Tables(rooms, LocalMatchmaking(matchmaker), None)
    try:
        start = time.perf_counter()
        for i in range(tables):
            runner, _token = rooms.create_room(seats=2, rules=Rules.build("standard"), name=f"P{i}", public=False)
            await runner.kept()
        plain = time.perf_counter() - start
        for i in range(2 * tables):
            matchmaker.join(Entrant(f"guest:{i}", name=f"P{i}"), DUEL)
        start = time.perf_counter()
        opened = await played.tick()
        matched = time.perf_counter() - start
        assert len(opened) == tables
    finally:
        await rooms.close()
        journal.close()
    return matched, plain


def joins(folder: Path, count: int) -> tuple[list[float], list[float]]:
    """The time of each join that completed a table, and of each ``where`` that found its guest waiting."""
    placing, asking = [], []
    app = create_app(folder)
    with TestClient(Addressed(app, app.state)) as client:  # each pair from addresses of its own, as people are
        body = {"size": "2", "rated": False, "preset": "standard"}
        for i in range(count):
            ann, bob = {ADDRESS: f"10.0.{i // 250}.{i % 250}"}, {ADDRESS: f"10.1.{i // 250}.{i % 250}"}
            first = client.post("/api/playnow/join", json={**body, "name": f"A{i}"}, headers=ann)
            token = first.json()["token"]
            start = time.perf_counter()
            assert client.post("/api/playnow/where", json={"token": token}, headers=ann).json()["where"] == "waiting"
            asking.append(time.perf_counter() - start)
            start = time.perf_counter()
            second = client.post("/api/playnow/join", json={**body, "name": f"B{i}"}, headers=bob)
            placing.append(time.perf_counter() - start)
            assert second.json()["where"] == "placed", second.text
    return placing, asking


def settling(folder: Path, games: int) -> float:
    numbered_accounts(folder / "ratings.sqlite3", range(1, 41))  # rows are kept only for accounts that exist
    store = RatingStore(folder / "ratings.sqlite3")
    start = time.perf_counter()
    for game in range(games):
        end = TableEnd(f"G{game}", game, True, (1 + game % 20, 21 + game % 20), ("a", "b"), (), (30, 22), ())
        rate_table(end, store)
    return (time.perf_counter() - start) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--joins", type=int, default=100)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        matched, plain = asyncio.run(opening(folder, args.tables))
        print(
            f"opening {args.tables} tables in one tick: {matched * 1000 / args.tables:.2f} ms a table "
            f"({args.tables / matched:.0f} a second); plain rooms created and kept: "
            f"{plain * 1000 / args.tables:.2f} ms a room; ratio {matched / plain:.2f}"
        )
        placing, asking = joins(folder / "app", args.joins)
        placed, asked = statistics.median(placing), statistics.median(asking)
        print(
            f"the join that completes a table: median {placed * 1000:.1f} ms, "
            f"p90 {sorted(placing)[int(len(placing) * 0.9)] * 1000:.1f} ms; a waiting guest's where: median "
            f"{asked * 1000:.1f} ms (ratio {placed / asked:.1f})"
        )
        print(
            f"settling a rated game (places, OpenSkill, one synced write): {settling(folder, args.games) * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
