"""Play now's tables in-process on virtual time (``web/matched.py``): the ticker seats people every TICK_MS and
opens their room, a rated game's result reaches the ratings once (even when the room is rebuilt from its
journal after a kill -9 and ends its game again), a player a stand-in replaced finishes last, and a table
with computers is never rated. Real rooms with their SQLite journal, a real rating store; nothing sleeps on
the game's time (the loop only turns, for the journal's commits)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.accounts import numbered_accounts
from harness.browser import HANG_S
from ratscrew.accounts.store import Account, AccountStore
from ratscrew.ladder.matching import Entrant, Pool, TableSize, Waiting
from ratscrew.ladder.matchmaker import TICK_MS, LocalMatchmaking, Matchmaker, Placed, Ticket
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.store import RatingStore
from ratscrew.rooms import wire
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.matched import START_WAIT_MS
from ratscrew.rooms.runner import IDLE_UNLOAD_S, PageLink, RoomRunner, Rooms
from ratscrew.rooms.seating import GRACE_MS
from ratscrew.rooms.wire import Phase
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock
from ratscrew.web.matched import Tables

RATED = Pool(TableSize.TWO, rated=True, preset="standard")
UNRATED = Pool(TableSize.TWO, rated=False, preset="standard")
ANN = Entrant("account:1", 1, 1500.0, "ann")
BOB = Entrant("account:2", 2, 1500.0, "bob")


def short(pool: Pool) -> Rules:
    """The pool's preset, stopped after a few cards: a whole game in a few virtual seconds."""
    return Rules.build(pool.preset, {"end.max_cards": 8})


def in_a_loop(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    # Its own thread: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, scenario()).result(timeout=120)


async def until(done: Callable[[], bool], what: str) -> None:
    """Let the loop turn (the journal commits at the end of a turn) until ``done()``; only a hang reaches the
    bound, on real time however loaded the machine is."""
    deadline = time.monotonic() + HANG_S
    while not done():
        assert time.monotonic() < deadline, f"{what}: not within {HANG_S} s"
        await asyncio.sleep(0.002)


@dataclass
class Server:
    """One ``ratscrew play``'s Play now, on a clock the test moves."""

    path: Path
    clock: ManualClock
    matchmaker: Matchmaker
    rooms: Rooms
    tables: Tables
    ratings: RatingStore
    pages: dict[int, PageLink] = field(default_factory=dict)

    async def advance(self, ms: int) -> None:
        """Move the clock on in steps a player notices, letting the loop turn at each until the journal has
        committed what the rooms wrote (virtual time must not outrun the file: a room whose writes wait
        10 s of its clock stops, as it would on a failing disk)."""
        journal = self.rooms.journal
        assert journal is not None
        for _ in range(0, ms, 100):
            self.clock.advance(100)
            for _ in range(3):
                await asyncio.sleep(0)
            await until(lambda: journal.committed >= journal.queued, "the journal catching up")

    def ticket(self, who: str) -> Ticket:
        where = self.matchmaker.where(who)
        assert isinstance(where, Placed), where
        return where.ticket

    async def seat_both(self) -> RoomRunner:
        """Ann and Bob join the rated pool, are seated together and both come: their room, its game begun."""
        self.matchmaker.join(ANN, RATED)
        self.matchmaker.join(BOB, RATED)
        await self.tables.tick()
        runner = self.rooms.rooms[self.ticket(ANN.who).room]
        self.pages[0] = self.come(runner, self.ticket(ANN.who).token)
        self.pages[1] = self.come(runner, self.ticket(BOB.who).token)
        await self.advance(300)
        return runner

    def come(self, runner: RoomRunner, token: str) -> PageLink:
        link = self.rooms.new_link()
        runner.open(link)
        runner.submit(link, wire.Hello(wire.VERSION, token, -1))
        return link

    async def play_out(self, runner: RoomRunner, seat: int) -> None:
        """The person at ``seat`` turns a card whenever it is theirs to turn, until the game is over."""
        link = self.pages[seat]
        while runner.core.phase is not Phase.OVER:
            game = runner.core.game
            if game is not None and game.turn == seat:
                runner.submit(link, wire.FlipMsg(seat))
            await self.advance(300)


def phase(runner: RoomRunner) -> Phase:
    """The room's phase, read afresh (a property the type checker would take for unchanged)."""
    return runner.core.phase


def received(link: PageLink) -> list[dict[str, Any]]:
    out = []
    while not link.outbox.empty():
        text = link.outbox.get_nowait()
        if text is not None and text.startswith("{"):
            out.append(json.loads(text))
    return out


@asynccontextmanager
async def server(
    path: Path, clock: ManualClock, *, settle: bool = True, idle_unload_s: float = IDLE_UNLOAD_S
) -> AsyncIterator[Server]:
    journal = SqliteJournal(path)
    rooms = Rooms(journal, clock=clock, idle_unload_s=idle_unload_s)
    matchmaker = Matchmaker(clock)
    ratings = RatingStore(path)
    numbered_accounts(path, (1, 2))  # Ann's and Bob's (ratings are kept only for accounts that exist)
    tables = Tables(rooms, LocalMatchmaking(matchmaker), ratings, short)
    if settle:
        rooms.game_over = tables.game_over
    rooms.restore_all()
    try:
        async with tables.ticking():
            yield Server(path, clock, matchmaker, rooms, tables, ratings)
    finally:
        await rooms.close()
        await tables.settled()
        journal.close()


def test_the_ticker_seats_the_waiting_every_second_and_drops_a_closed_page(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        async with server(tmp_path / "store.sqlite3", clock) as site:
            mm = site.matchmaker
            mm.join(Entrant("guest:a", name="Ann"), UNRATED)
            mm.join(Entrant("guest:b", name="Bob"), UNRATED)
            mm.join(Entrant("guest:c", name="Cid"), Pool(TableSize.TWO, rated=False, preset="bicycle"))
            await site.advance(TICK_MS - 100)
            assert isinstance(mm.where("guest:a"), Waiting)  # nobody asked the pools yet
            await site.advance(100)
            await until(lambda: isinstance(mm.where("guest:a"), Placed), "the ticker seats Ann and Bob")
            ann, bob = site.ticket("guest:a"), site.ticket("guest:b")
            assert ann.room == bob.room and (ann.seat, bob.seat) == (0, 1) and ann.token != bob.token
            core = site.rooms.rooms[ann.room].core
            assert [s.name for s in core.seats] == ["Ann", "Bob"] and core.match is not None
            assert core.match.people == ("guest:a", "guest:b") and not core.match.rated
            # Cid's page never asks where he stands: ten seconds after he came, a tick takes him out of his pool.
            for _ in range(8):
                await site.advance(1000)
                assert isinstance(mm.where("guest:c"), Waiting)
            await site.advance(1000)
            assert mm.where("guest:c") is None

    in_a_loop(scenario)


def test_a_rated_game_moves_both_ratings_once_the_replaced_player_last_even_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    said: list[dict[str, Any]] = []
    code = [""]

    async def first_run() -> None:
        clock = ManualClock()
        async with server(path, clock) as site:
            mm = site.matchmaker
            mm.join(ANN, RATED)
            mm.join(BOB, RATED)
            await site.tables.tick()  # an arrival asks the pools at once
            ticket = site.ticket(ANN.who)
            runner = site.rooms.rooms[ticket.room]
            code[0] = ticket.room
            site.pages[0] = site.come(runner, ticket.token)  # Ann comes; Bob never does
            await site.advance(START_WAIT_MS)
            assert runner.core.phase is Phase.PLAYING and runner.core.replaced == frozenset({1})
            await site.play_out(runner, 0)
            await site.tables.settled()
            await until(lambda: runner.core.rated is not None, "the rating changes reach the room")
            journal = site.rooms.journal
            assert journal is not None
            await until(lambda: runner.ticket <= journal.committed, "the rating changes kept with the room")
            said.extend(received(site.pages[0]))
            assert mm.where(ANN.who) is None and mm.where(BOB.who) is None  # both may queue again

    in_a_loop(first_run)
    (rated,) = [m for m in said if m["type"] == "rated"]
    changes = {c["seat"]: c for c in rated["changes"]}
    assert changes[0]["before"] == changes[1]["before"] == 1100
    assert changes[0]["after"] > changes[1]["after"] and changes[0]["provisional"]
    # Bob was replaced: last, though the computer in his seat may have held more cards.
    assert [c.place for c in RatingStore(path).history(1, SizeClass.TWO)] == [1]
    assert [c.place for c in RatingStore(path).history(2, SizeClass.TWO)] == [2]
    for message in said:  # what Ann's page was told names seats and names, never an account
        assert "account:" not in json.dumps(message)

    # kill -9 after the game's last actions were kept, before its end was: the room is rebuilt playing, ends
    # its game again as it is restored, and settles it again. The ratings move once.
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT doc FROM rooms WHERE code = ?", (code[0],)).fetchone()
        doc = json.loads(text)
        assert doc["match"]["players"] == [1, 2] and doc["rated"] is not None
        db.execute(
            "UPDATE rooms SET doc = ? WHERE code = ?",
            (json.dumps({**doc, "phase": "playing", "rated": None}), code[0]),
        )

    async def after_a_restart() -> None:
        async with server(path, ManualClock()) as site:
            runner = site.rooms.rooms[code[0]]
            assert runner.core.phase is Phase.OVER
            await site.tables.settled()
            await until(lambda: runner.core.rated is not None, "the rating changes told again")
            assert [c.to_json() for c in runner.core.rated or ()] == rated["changes"]

    in_a_loop(after_a_restart)
    store = RatingStore(path)
    assert [len(store.history(p, SizeClass.TWO)) for p in (1, 2)] == [1, 1]
    assert store.standings(1)[SizeClass.TWO].games == 1


def test_a_game_whose_end_was_kept_but_not_its_ratings_is_rated_when_the_room_is_next_loaded(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    code = [""]

    async def killed_before_settling() -> None:
        async with server(path, ManualClock(), settle=False) as site:
            site.matchmaker.join(ANN, RATED)
            site.matchmaker.join(BOB, RATED)
            await site.tables.tick()
            ticket = site.ticket(ANN.who)
            code[0] = ticket.room
            runner = site.rooms.rooms[ticket.room]
            site.pages[0] = site.come(runner, ticket.token)
            site.pages[1] = site.come(runner, site.ticket(BOB.who).token)
            await site.advance(300)
            assert runner.core.phase is Phase.PLAYING  # both came: no waiting for the 15 s
            await both_play(site, runner)

    in_a_loop(killed_before_settling)
    assert RatingStore(path).standings(1) == {}

    async def loaded_again() -> None:
        async with server(path, ManualClock()) as site:
            runner = site.rooms.get(code[0])  # a page comes back to it: the room is loaded, over
            assert runner is not None and runner.core.phase is Phase.OVER
            await until(lambda: not site.tables._settling and runner.core.rated is not None, "rated on load")

    in_a_loop(loaded_again)
    store = RatingStore(path)
    assert [len(store.history(p, SizeClass.TWO)) for p in (1, 2)] == [1, 1]


def test_a_rated_game_whose_end_was_kept_but_not_its_ratings_is_rated_at_start_up_with_no_page_asking(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.sqlite3"

    async def killed_before_settling() -> None:
        async with server(path, ManualClock(), settle=False) as site:
            runner = await site.seat_both()
            await both_play(site, runner)

    in_a_loop(killed_before_settling)
    assert RatingStore(path).standings(1) == {}

    async def started_again() -> None:
        async with server(path, ManualClock()) as site:  # nobody comes back to the room
            await site.advance(300)
            await until(lambda: not site.tables._settling, "settled at start-up")

    in_a_loop(started_again)
    store = RatingStore(path)
    assert [len(store.history(p, SizeClass.TWO)) for p in (1, 2)] == [1, 1]

    async def and_again() -> None:  # rated now, and kept so: a later start-up loads nothing
        async with server(path, ManualClock()) as site:
            assert site.rooms.rooms == {}

    in_a_loop(and_again)


def test_a_player_who_left_and_came_back_after_a_stand_in_took_the_seat_finishes_last(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    said: list[dict[str, Any]] = []

    async def scenario() -> None:
        async with server(path, ManualClock()) as site:
            runner = await site.seat_both()
            assert runner.core.phase is Phase.PLAYING
            runner.close_link(site.pages[1])  # Bob's page closes; a computer takes his seat after the grace
            await site.advance(GRACE_MS + 1000)
            assert runner.core.replaced == frozenset({1})
            site.pages[1] = site.come(runner, site.ticket(BOB.who).token)  # and he is back before the end
            await site.advance(300)
            assert runner.core.replaced == frozenset()
            await both_play(site, runner)
            await until(lambda: not site.tables._settling and runner.core.rated is not None, "the end settled")
            said.extend(received(site.pages[1]))

    in_a_loop(scenario)
    (rated,) = [m for m in said if m["type"] == "rated"]
    assert {c["seat"]: c["left"] for c in rated["changes"]} == {0: False, 1: True}  # his page says why
    # Last, whatever his seat held at the end; none of its slaps counted on his profile.
    store = RatingStore(path)
    assert [c.place for c in store.history(1, SizeClass.TWO)] == [1]
    assert [c.place for c in store.history(2, SizeClass.TWO)] == [2]
    with sqlite3.connect(path) as db:
        rows = dict(db.execute("SELECT account_id, place FROM player_games").fetchall())
    assert rows == {1: 1, 2: 2}


def test_a_rated_game_whose_accounts_were_all_deleted_is_marked_rated_and_not_loaded_again(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"

    async def both_deleted_before_the_end() -> None:
        async with server(path, ManualClock()) as site:
            runner = await site.seat_both()
            accounts = AccountStore(path)
            for number in (1, 2):
                accounts.delete(Account(number, f"p{number}"))
            await both_play(site, runner)
            await until(lambda: not site.tables._settling and runner.core.rated is not None, "the end settled")
            assert runner.core.rated == ()  # nobody's rating moved, and the pages hear so
            assert [m["changes"] for m in received(site.pages[0]) if m["type"] == "rated"] == [[]]

    in_a_loop(both_deleted_before_the_end)
    assert RatingStore(path).standings(1) == {}

    async def started_again() -> None:  # the end is marked: nothing left to settle, nothing loaded
        async with server(path, ManualClock()) as site:
            assert site.rooms.rooms == {}

    in_a_loop(started_again)


async def both_play(site: Server, runner: RoomRunner) -> None:
    while runner.core.phase is not Phase.OVER:
        game = runner.core.game
        if game is not None:
            runner.submit(site.pages[game.turn], wire.FlipMsg(game.turn))
        await site.advance(300)


def test_a_table_taken_with_computers_is_never_rated(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"

    async def scenario() -> None:
        async with server(path, ManualClock()) as site:
            mm = site.matchmaker
            mm.join(ANN, RATED)
            for _ in range(20):  # Ann's page asks every second while she waits
                await site.advance(1000)
                mm.seen(ANN.who)
            (runner,) = await site.tables.take_computers(ANN.who)
            core = runner.core
            assert [s.kind for s in core.seats] == [wire.SeatKind.HUMAN, wire.SeatKind.BOT]
            assert core.match is not None and not core.match.rated and not core.room_view().rated
            site.pages[0] = site.come(runner, site.ticket(ANN.who).token)
            await site.advance(300)
            await site.play_out(runner, 0)
            await site.tables.settled()
            assert core.rated is None and mm.where(ANN.who) is None
            assert not [m for m in received(site.pages[0]) if m["type"] == "rated"]

    in_a_loop(scenario)
    assert RatingStore(path).standings(1) == {}


def test_a_table_everyone_left_is_played_to_its_end_by_stand_ins_unwatched_and_its_people_freed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.sqlite3"

    async def scenario() -> None:
        # Rooms nobody watches leave memory after 5 s here: a table's room must not, before its game is over.
        async with server(path, ManualClock(), idle_unload_s=5) as site:
            site.matchmaker.join(ANN, RATED)
            site.matchmaker.join(BOB, RATED)
            (runner,) = await site.tables.tick()
            await site.advance(10_000)  # nobody came, and nobody watches
            assert site.rooms.rooms.get(runner.code) is runner and not runner.closed
            await site.advance(START_WAIT_MS - 10_000)
            assert runner.core.phase is Phase.PLAYING and runner.core.replaced == frozenset({0, 1})
            for _ in range(600):  # the computers play it out
                if phase(runner) is Phase.OVER:
                    break
                await site.advance(1000)
            assert phase(runner) is Phase.OVER
            await site.tables.settled()
            assert site.matchmaker.where(ANN.who) is None and site.matchmaker.where(BOB.who) is None

    in_a_loop(scenario)
    store = RatingStore(path)  # both left: both last, a tie
    assert [[c.place for c in store.history(p, SizeClass.TWO)] for p in (1, 2)] == [[1], [1]]
