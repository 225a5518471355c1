"""The Play-now matchmaker on virtual time: who is seated with whom and when, the gap that widens with the
wait, computers after 20 s, leaving, and never being in two places at once."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from ratscrew.errors import Conflict, Forbidden, NotFound
from ratscrew.ladder.matching import Entrant, Pool, TableSize, Waiting, accepted_gap, groups
from ratscrew.ladder.matchmaker import (
    GONE_AFTER_MS,
    AlreadyPlaying,
    LocalMatchmaking,
    Matchmaker,
    Placed,
    Seating,
    Ticket,
)
from ratscrew.table.clock import VirtualClock

DUEL = Pool(TableSize.TWO, rated=False, preset="standard")
RATED = Pool(TableSize.TWO, rated=True, preset="standard")
FEW = Pool(TableSize.THREE_OR_FOUR, rated=False, preset="standard")
RATED_FEW = Pool(TableSize.THREE_OR_FOUR, rated=True, preset="standard")


def person(who: str, points: float = 1500.0, player: int | None = None) -> Entrant:
    return Entrant(who, player if player is not None else sum(map(ord, who)), points)


def names(seatings: list[Seating]) -> list[list[str]]:
    return [[e.who for e in s.players] for s in seatings]


def wait(mm: Matchmaker, clock: VirtualClock, ms: int) -> None:
    """Let ``ms`` pass while every waiting page keeps asking where its person stands, once a second."""
    while ms > 0:
        step = min(ms, 1000)
        clock.advance(step)
        ms -= step
        for pool in (DUEL, RATED, FEW, RATED_FEW):
            for waiting in mm.waiting(pool):
                mm.seen(waiting.entrant.who)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def mm(clock: VirtualClock) -> Matchmaker:
    return Matchmaker(clock)


# ---------------------------------------------------------------------------------------- unrated


def test_two_people_in_an_unrated_pool_are_seated_at_once_first_come_first_seated(
    mm: Matchmaker, clock: VirtualClock
) -> None:
    mm.join(Entrant("ann"), DUEL)
    assert mm.tick() == []
    wait(mm, clock, 3000)
    mm.join(Entrant("bob"), DUEL)
    mm.join(Entrant("cid"), DUEL)
    (table,) = mm.tick()
    assert [e.who for e in table.players] == ["ann", "bob"]
    assert table.waited == (3000, 0) and table.computers == 0 and not table.rated
    assert [w.entrant.who for w in mm.waiting(DUEL)] == ["cid"]


def test_pools_of_other_presets_or_sizes_never_mix(mm: Matchmaker) -> None:
    mm.join(Entrant("ann"), DUEL)
    mm.join(Entrant("bob"), Pool(TableSize.TWO, rated=False, preset="bicycle"))
    mm.join(Entrant("cid"), FEW)
    assert mm.tick() == []


def test_three_to_four_seats_four_at_once_and_three_after_five_seconds(mm: Matchmaker, clock: VirtualClock) -> None:
    for who in ("a", "b", "c"):
        mm.join(Entrant(who), FEW)
    wait(mm, clock, 4999)
    assert mm.tick() == []
    mm.join(Entrant("d"), FEW)
    mm.join(Entrant("e"), FEW)
    assert names(mm.tick()) == [["a", "b", "c", "d"]]
    wait(mm, clock, 5000)
    mm.join(Entrant("f"), FEW)
    assert mm.tick() == []  # two are not a table of three
    mm.join(Entrant("g"), FEW)
    assert names(mm.tick()) == [["e", "f", "g"]]  # e has waited long enough for the three of them


# ---------------------------------------------------------------------------------------- rated


def test_a_rated_pool_is_for_signed_in_people(mm: Matchmaker) -> None:
    with pytest.raises(Forbidden, match="sign in"):
        mm.join(Entrant("guest"), RATED)
    assert mm.where("guest") is None


def test_the_accepted_gap_widens_with_the_wait() -> None:
    assert accepted_gap(0) == 100
    assert accepted_gap(10_000) == 200
    assert accepted_gap(20_000) == 300
    assert accepted_gap(60_000) == 700


def test_rated_players_far_apart_are_seated_once_the_gap_has_grown_to_them(mm: Matchmaker, clock: VirtualClock) -> None:
    mm.join(person("ann", 1500), RATED)
    mm.join(person("bob", 1700), RATED)
    wait(mm, clock, 9999)
    assert mm.tick() == []
    wait(mm, clock, 1)  # 10 s: 100 + 10 * 10 = 200 points
    (table,) = mm.tick()
    assert table.rated and table.waited == (10_000, 10_000)


def test_rated_pairing_prefers_the_closest_rating(mm: Matchmaker, clock: VirtualClock) -> None:
    mm.join(person("ann", 1500), RATED)
    wait(mm, clock, 1000)
    mm.join(person("far", 1590), RATED)
    mm.join(person("near", 1480), RATED)
    mm.join(person("other", 1560), RATED)
    assert names(mm.tick()) == [["ann", "near"], ["far", "other"]]


def test_someone_who_waited_long_accepts_a_newcomer_further_away(mm: Matchmaker, clock: VirtualClock) -> None:
    mm.join(person("ann", 1500), RATED)
    wait(mm, clock, 30_000)  # 400 points by now
    assert mm.tick() == []
    mm.join(person("new", 1850), RATED)  # the newcomer alone would accept 100
    assert names(mm.tick()) == [["ann", "new"]]


def test_a_rated_table_of_three_keeps_everyone_within_the_gap_of_each_other(
    mm: Matchmaker, clock: VirtualClock
) -> None:
    mm.join(person("ann", 1500), RATED_FEW)
    mm.join(person("low", 1410), RATED_FEW)
    mm.join(person("high", 1590), RATED_FEW)  # each within 100 of ann, 180 from each other
    wait(mm, clock, 5000)  # ann accepts 150: not both
    assert mm.tick() == []
    mm.join(person("mid", 1520), RATED_FEW)
    assert names(mm.tick()) == [["ann", "mid", "low"]]


# ---------------------------------------------------------------------------------------- computers


def test_after_twenty_seconds_a_waiting_person_may_take_computers_and_the_game_is_unrated(
    mm: Matchmaker, clock: VirtualClock
) -> None:
    mm.join(person("ann", 1500), RATED)
    mm.join(person("bob", 2500), RATED)
    wait(mm, clock, 19_999)
    with pytest.raises(Conflict, match="after 20 s"):
        mm.take_computers("ann")
    wait(mm, clock, 1)
    table = mm.take_computers("ann")
    assert [e.who for e in table.players] == ["ann"] and table.computers == 1
    assert not table.rated
    assert [w.entrant.who for w in mm.waiting(RATED)] == ["bob"]
    with pytest.raises(NotFound):
        mm.take_computers("nobody")


def test_a_table_of_three_to_four_with_computers_has_three_seats(mm: Matchmaker, clock: VirtualClock) -> None:
    mm.join(Entrant("ann"), FEW)
    wait(mm, clock, 20_000)
    assert mm.take_computers("ann").computers == 2


# ---------------------------------------------------------------------------------------- leaving, never twice


def test_leaving_is_one_call_and_the_pool_forgets_them(mm: Matchmaker) -> None:
    mm.join(Entrant("ann"), DUEL)
    assert mm.leave("ann") is True
    assert mm.where("ann") is None and mm.waiting(DUEL) == ()
    mm.join(Entrant("bob"), DUEL)
    assert mm.tick() == []
    assert mm.leave("ann") is False


def test_a_person_never_waits_in_two_pools_nor_sits_at_two_tables(mm: Matchmaker, clock: VirtualClock) -> None:
    mm.join(Entrant("ann"), DUEL)
    with pytest.raises(AlreadyPlaying, match="already waits"):
        mm.join(Entrant("ann"), FEW)
    with pytest.raises(AlreadyPlaying, match="already waits"):
        mm.join(Entrant("ann"), DUEL)
    mm.join(Entrant("bob"), DUEL)
    (table,) = mm.tick()
    assert mm.where("ann") == table
    assert mm.leave("ann") is False  # seated: leaving the queue is over
    with pytest.raises(AlreadyPlaying, match="already sits"):
        mm.join(Entrant("ann"), DUEL)
    mm.release("ann")  # left the table for good
    mm.join(Entrant("ann"), DUEL)
    with pytest.raises(AlreadyPlaying, match="already sits"):
        mm.join(Entrant("bob"), DUEL)
    mm.done(table.table)
    assert mm.where("bob") is None
    assert isinstance(mm.where("ann"), Waiting)  # the old table's end does not unseat her new wait
    mm.join(Entrant("bob"), DUEL)


def test_random_comings_and_goings_keep_everyone_in_one_place_and_leave_nobody_who_could_be_seated(
    mm: Matchmaker, clock: VirtualClock
) -> None:
    rng = random.Random(4)
    pools = [DUEL, RATED, FEW, RATED_FEW]
    people = [person(f"p{i}", rng.uniform(1000, 2000), i) for i in range(40)]
    tables: dict[int, Seating] = {}
    for _ in range(4000):
        who = rng.choice(people)
        action = rng.random()
        try:
            if action < 0.45:
                mm.join(who, rng.choice(pools))
            elif action < 0.55:
                mm.leave(who.who)
            elif action < 0.6:
                alone = mm.take_computers(who.who)
                tables[alone.table] = alone
            elif action < 0.8 and tables:
                mm.done(tables.pop(rng.choice(list(tables))).table)
            elif action < 0.85:
                mm.release(who.who)
        except (Conflict, NotFound):
            pass
        clock.advance(rng.randrange(0, 3000))
        for table in mm.tick():
            tables[table.table] = table
        # Each person is in one place at most, and it is where the pools and the tables say.
        waiting = [w.entrant.who for pool in pools for w in mm.waiting(pool)]
        assert len(waiting) == len(set(waiting))
        for pool in pools:
            for w in mm.waiting(pool):
                assert mm.where(w.entrant.who) == w
            # Nobody is left waiting whom the rules would seat now.
            assert groups(pool, mm.waiting(pool), clock.now()) == []
        seated = [e.who for t in tables.values() for e in t.players if mm.where(e.who) == t]
        assert len(seated) == len(set(seated))
        assert not set(seated) & set(waiting)


def test_the_web_layer_sees_the_same_pools_through_the_async_interface(clock: VirtualClock) -> None:
    async def play() -> list[Seating]:
        pools = LocalMatchmaking(Matchmaker(clock))
        await pools.join(Entrant("ann"), DUEL)
        await pools.join(Entrant("bob"), DUEL)
        assert await pools.leave("nobody") is False
        made = await pools.tick()
        assert await pools.where("ann") == made[0]
        await pools.done(made[0].table)
        assert await pools.where("ann") is None
        return made

    with ThreadPoolExecutor(1) as thread:  # its own thread: a browser test's loop may hold this one
        made = thread.submit(lambda: asyncio.run(play())).result(timeout=60)
    assert names(made) == [["ann", "bob"]]


def test_a_page_that_stops_asking_is_taken_out_of_its_pool(mm: Matchmaker, clock: VirtualClock) -> None:
    mm.join(Entrant("ann"), DUEL)
    mm.join(Entrant("bob"), FEW)
    for _ in range(3):
        clock.advance(GONE_AFTER_MS // 2)
        mm.seen("ann")  # ann's page asks; bob's was closed
        mm.tick()
    assert [w.entrant.who for w in mm.waiting(DUEL)] == ["ann"]
    assert mm.waiting(FEW) == () and mm.where("bob") is None
    mm.join(Entrant("cid"), DUEL)
    (table,) = mm.tick()
    assert [e.who for e in table.players] == ["ann", "cid"]


def test_a_table_placed_in_its_room_gives_each_person_their_own_ticket(mm: Matchmaker) -> None:
    mm.join(Entrant("ann"), DUEL)
    mm.join(Entrant("bob"), DUEL)
    (table,) = mm.tick()
    assert mm.where("ann") == table  # seated, its room not open yet
    mm.place(table.table, {"ann": Ticket("ROOM01", 0, "t-ann"), "bob": Ticket("ROOM01", 1, "t-bob")})
    assert mm.where("bob") == Placed(table, Ticket("ROOM01", 1, "t-bob"))
    with pytest.raises(NotFound):
        mm.place(999, {})
    mm.release("bob")
    assert mm.where("bob") is None
    assert isinstance(mm.where("ann"), Placed)
    mm.done(table.table)
    assert mm.where("ann") is None
