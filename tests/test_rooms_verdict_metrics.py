"""The operator's slap-verdict and decision-window histograms (``ratscrew serve``'s /metrics) observe what
happened: each slap's time from its arrival to its published verdict, and the window it was judged in, on
virtual time. The worker's clock starts when the worker does and a game's clock when the game does (or,
restored after a restart, at the time of its last action): a worker up long before the game, a fresh one, and
one that restored the room from the journal must all count the same durations."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ratscrew.rooms import wire
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import PageLink, RoomRunner, Rooms
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import VERSION as WIRE_VERSION
from ratscrew.rooms.wire import FlipMsg, Hello, SeatKind, SlapMsg
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock
from ratscrew.web.tally import VERDICT_BOUNDS_MS, WINDOW_BOUNDS_MS, Histogram, Tally

VERDICTS = {"slap_correct", "wrong_slap", "slap_dismissed"}
REACTION_MS = 150  # what each slap's page reports
SEATS = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.HUMAN, "Bo")]  # one page holds both: no computer


def in_a_loop(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    # Its own thread: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, scenario()).result(timeout=120)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def step_until(clock: ManualClock, done: Callable[[], bool], what: str) -> None:
    """Move the worker's clock a millisecond at a time (running what falls due) until ``done()``."""
    for _ in range(10_000):
        if done():
            return
        clock.advance(1)
        await settle()
    raise AssertionError(f"{what}: not within 10 s of virtual time")


def verdicts(runner: RoomRunner) -> int:
    return sum(1 for item in runner.core.feed.history if item.event.get("kind") in VERDICTS)


def more_verdicts(runner: RoomRunner, than: int) -> Callable[[], bool]:
    return lambda: verdicts(runner) > than


def shown(runner: RoomRunner, key: str) -> int:
    """A number the room's state shows every page (``cards``: the number of the top card; ``turn``: a seat)."""
    state = runner.core.state()
    assert isinstance(state, wire.TableState)
    value = getattr(state, key)
    assert isinstance(value, int)
    return value


async def sit(runner: RoomRunner, token: str) -> PageLink:
    link = PageLink(1)
    runner.open(link)
    runner.submit(link, Hello(WIRE_VERSION, token, -1))
    await settle()
    return link


async def flip(clock: ManualClock, runner: RoomRunner, link: PageLink) -> None:
    """The player due turns a card, and it lands once the decision window has passed."""
    turned = shown(runner, "cards")
    runner.submit(link, FlipMsg(shown(runner, "turn")))
    await step_until(clock, lambda: shown(runner, "cards") != turned, "the card")


async def timed_slaps(clock: ManualClock, runner: RoomRunner, link: PageLink) -> tuple[list[int], list[int]]:
    """A slap on each of three fresh cards, each arriving a little later after the card than the reaction time
    its page reports: the lag it is credited with, so its verdict comes that much sooner than a window after it
    arrived (three durations, none the window). Returns the worker-clock time from each slap's arrival to its
    verdict in the room's feed, and the decision window each was judged in."""
    waited, windows = [], []
    for late in (5, 15, 25):  # within what the server allows any link (fairness.PAINT_MS)
        await flip(clock, runner, link)
        card = shown(runner, "cards")
        for _ in range(REACTION_MS + late):
            clock.advance(1)
            await settle()
        before = verdicts(runner)
        arrived = clock.now()
        table = runner.core.table
        assert table is not None
        windows.append(table.hold_ms)
        runner.submit(link, SlapMsg(0, card, REACTION_MS))
        await settle()  # the room takes it now, before the clock moves on
        await step_until(clock, more_verdicts(runner, before), "the slap's verdict")
        waited.append(clock.now() - arrived)
    return waited, windows


def assert_observed(tally: Tally, waited: list[int], windows: list[int]) -> None:
    verdict, window = Histogram(VERDICT_BOUNDS_MS), Histogram(WINDOW_BOUNDS_MS)
    for ms in waited:
        verdict.observe(ms)
    for ms in windows:
        window.observe(ms)
    assert len(set(waited)) == len(waited) and not set(waited) & set(windows), (waited, windows)
    assert (tally.verdict_ms.counts, tally.verdict_ms.total) == (verdict.counts, verdict.total), waited
    assert (tally.window_ms.counts, tally.window_ms.total) == (window.counts, window.total), windows


def test_a_worker_up_long_before_the_game_counts_every_verdict() -> None:
    async def scenario() -> None:
        clock, tally = ManualClock(), Tally()
        rooms = Rooms(None, clock=clock, on_verdict=tally.verdict)
        clock.advance(10 * 60_000)  # the worker has been up ten minutes when the game starts
        runner, token = rooms.create_game(seats=SEATS, rules=Rules.build("standard"), bot_pace=1.0, seed=5)
        link = await sit(runner, token)
        waited, windows = await timed_slaps(clock, runner, link)
        assert_observed(tally, waited, windows)
        await rooms.close()

    in_a_loop(scenario)


def test_a_fresh_worker_counts_each_verdict_in_its_own_bucket() -> None:
    async def scenario() -> None:
        clock, tally = ManualClock(), Tally()
        rooms = Rooms(None, clock=clock, on_verdict=tally.verdict)
        clock.advance(700)  # the game starts just after the worker
        runner, token = rooms.create_game(seats=SEATS, rules=Rules.build("standard"), bot_pace=1.0, seed=5)
        link = await sit(runner, token)
        clock.advance(2_000)
        waited, windows = await timed_slaps(clock, runner, link)
        assert_observed(tally, waited, windows)
        await rooms.close()

    in_a_loop(scenario)


def test_a_room_restored_after_a_restart_counts_its_verdicts_from_their_arrival(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    made: dict[str, str] = {}

    async def before_the_restart() -> None:
        journal = SqliteJournal(path)
        clock = ManualClock()
        rooms = Rooms(journal, clock=clock)
        runner, token = rooms.create_game(seats=SEATS, rules=Rules.build("standard"), bot_pace=1.0, seed=5)
        made.update(code=runner.code, token=token)
        link = await sit(runner, token)
        for _ in range(3):  # a game two minutes old when the worker stops
            clock.advance(40_000)
            await flip(clock, runner, link)
        await rooms.close()
        journal.close()

    async def after_the_restart() -> None:
        journal = SqliteJournal(path)
        clock, tally = ManualClock(), Tally()  # the new worker's clock starts again from zero
        rooms = Rooms(journal, clock=clock, on_verdict=tally.verdict)
        assert rooms.restore_all() == 1
        runner = rooms.rooms[made["code"]]
        link = await sit(runner, made["token"])
        waited, windows = await timed_slaps(clock, runner, link)
        assert_observed(tally, waited, windows)
        await rooms.close()
        journal.close()

    in_a_loop(before_the_restart)
    in_a_loop(after_the_restart)
