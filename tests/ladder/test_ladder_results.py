"""What a finished Play-now table hands on (``ladder/results.py``): its places to the ratings in the server's
SQLite file, once however often it is settled, a player a stand-in replaced last, computers' tables never
rated, and its people free to queue again even when the ratings could not be written."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from harness.accounts import numbered_accounts
from ratscrew.ladder.matching import Entrant, Pool, TableSize
from ratscrew.ladder.matchmaker import LocalMatchmaking, Matchmaker, Seating
from ratscrew.ladder.places import RatedResult
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.results import TableEnd, rate_table, settle
from ratscrew.ladder.store import Change, RatingStore
from ratscrew.table.clock import VirtualClock

RATED = Pool(TableSize.TWO, rated=True, preset="standard")


def run(scenario: Coroutine[Any, Any, None]) -> None:
    # Its own thread: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, scenario).result(timeout=60)


def seated(mm: Matchmaker, *people: Entrant) -> Seating:
    for entrant in people:
        mm.join(entrant, RATED)
    (table,) = mm.tick()
    return table


def end_of(
    table: Seating, *, cards: tuple[int, ...], replaced: frozenset[int] = frozenset(), game: str = "G1"
) -> TableEnd:
    return TableEnd(
        game=game,
        table=table.table,
        rated=table.rated,
        players=tuple(e.player for e in table.players) + (None,) * table.computers,
        people=tuple(e.who for e in table.players) + (None,) * table.computers,
        out_order=(),
        cards=cards,
        replaced=replaced,
    )


@pytest.fixture
def store(tmp_path: Path) -> RatingStore:
    path = tmp_path / "ratscrew.sqlite3"
    numbered_accounts(path, range(1, 10))  # the store keeps rows only for accounts that exist
    return RatingStore(path)


def test_a_rated_table_moves_both_ratings_once_however_often_it_is_settled(store: RatingStore) -> None:
    mm = Matchmaker(VirtualClock())
    table = seated(mm, Entrant("account:1", 1, 1500.0, "ann"), Entrant("account:2", 2, 1500.0, "bob"))
    end = end_of(table, cards=(52, 0))
    first = rate_table(end, store)
    assert first[0].player == 1 and first[0].place == 1 and first[0].shown_change > 0
    assert first[1].player == 2 and first[1].place == 2
    again = rate_table(end, store)  # the room resumed from its journal ends the same game again
    assert again == first
    assert [len(store.history(p, SizeClass.TWO)) for p in (1, 2)] == [1, 1]
    assert store.standings(1)[SizeClass.TWO].games == 1


def test_a_player_a_stand_in_replaced_for_good_finishes_last_whatever_the_stand_in_did(store: RatingStore) -> None:
    mm = Matchmaker(VirtualClock())
    table = seated(mm, Entrant("account:1", 1, 1500.0, "ann"), Entrant("account:2", 2, 1500.0, "bob"))
    # Ann left early; the computer in her seat won every card. She is last all the same.
    changes = rate_table(end_of(table, cards=(52, 0), replaced=frozenset({0})), store)
    assert changes[0].place == 2 and changes[1].place == 1
    assert changes[0].shown_change < changes[1].shown_change


def test_a_table_with_computers_or_an_unrated_one_moves_no_rating(store: RatingStore) -> None:
    clock = VirtualClock()
    mm = Matchmaker(clock)
    mm.join(Entrant("account:1", 1, 1500.0, "ann"), RATED)
    clock.advance(20_000)
    alone = mm.take_computers("account:1")
    assert alone.computers == 1 and not alone.rated
    assert rate_table(end_of(alone, cards=(52, 0)), store) == {}
    assert store.standings(1) == {}


def test_settling_frees_the_table_and_releases_whoever_was_replaced(store: RatingStore) -> None:
    mm = Matchmaker(VirtualClock())
    table = seated(mm, Entrant("account:1", 1, 1500.0, "ann"), Entrant("account:2", 2, 1500.0, "bob"))
    released: list[str] = []

    class Watched(LocalMatchmaking):
        async def release(self, who: str) -> None:
            released.append(who)
            await super().release(who)

    changes: dict[int, Change] = {}

    async def scenario() -> None:
        changes.update(await settle(end_of(table, cards=(30, 22), replaced=frozenset({1})), store, Watched(mm)))

    run(scenario())
    assert sorted(changes) == [0, 1] and changes[1].place == 2
    assert mm.where("account:1") is None and mm.where("account:2") is None  # both may queue again
    assert released == ["account:2"]
    mm.join(Entrant("account:1", 1, 1500.0, "ann"), RATED)


def test_a_store_that_cannot_be_written_still_frees_the_table(tmp_path: Path) -> None:
    mm = Matchmaker(VirtualClock())
    table = seated(mm, Entrant("account:1", 1, 1500.0, "ann"), Entrant("account:2", 2, 1500.0, "bob"))

    class Broken(RatingStore):
        def record(self, result: RatedResult, when: float | None = None) -> tuple[Change, ...]:
            raise sqlite3.OperationalError("database is locked")

    async def scenario() -> None:
        with pytest.raises(sqlite3.OperationalError):
            await settle(end_of(table, cards=(52, 0)), Broken(tmp_path / "r.sqlite3"), LocalMatchmaking(mm))

    run(scenario())
    assert mm.where("account:1") is None and mm.where("account:2") is None
