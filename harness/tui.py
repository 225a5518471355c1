"""The terminal table in tests: a game against the computer on virtual time (the rooms' ManualClock, which also
times the player's reactions), and ways to move that time and wait for the table to show what it did."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import ParamSpec, TypeVar

from textual.pilot import Pilot

from ratscrew.rooms.wire import TableState
from ratscrew.rules import Rules, load_rules
from ratscrew.table.clock import ManualClock
from ratscrew.tui.app import TableApp
from ratscrew.tui.local import LocalTable, make_setup
from ratscrew.tui.venue import LocalVenue
from ratscrew.tui.words import Words

TURNS = 12  # turns of the event loop from a timer due, through the room and its journal, to the table's model
HANG_S = 120.0
T = TypeVar("T")
P = ParamSpec("P")  # only a hang waits this long: every wait is for something the table does at once


def on_a_thread(run: Callable[[], T]) -> T:
    """``run()`` on a thread of its own, its result or its error here: a worker whose browser tests started
    Playwright has an event loop running on this thread, and asyncio runs no second loop beside it."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def body() -> None:
        try:
            outcome.append(run())
        except BaseException as exc:  # handed to the test's thread, as it was raised
            failure.append(exc)

    thread = threading.Thread(target=body, name="textual test")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


def own_loop(test: Callable[P, Coroutine[object, object, None]]) -> Callable[P, None]:
    """An async test run on an event loop of its own, on a thread of its own (``on_a_thread``)."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        on_a_thread(lambda: asyncio.run(test(*args, **kwargs)))

    return run


def local_app(
    data: Path | None,
    *,
    levels: tuple[str, ...] = ("medium",),
    people: tuple[str, ...] = ("Ana",),
    rules: Rules | None = None,
    seed: int = 7,
    pace: float = 1.0,
    lang: str = "en",
    plain: bool = False,
    folder: str | None = None,
) -> tuple[TableApp, ManualClock]:
    """A table against the computer whose time moves only when the test says (``clock.advance``)."""
    clock = ManualClock()
    words = Words(lang)
    setup = make_setup(people, levels, rules or load_rules(None, ()), pace, seed)
    venue = LocalVenue(LocalTable(data, clock=clock), setup, words, folder)
    return TableApp(venue, words, plain=plain, clock=lambda: clock.now() / 1000), clock


async def settle(pilot: Pilot[int], redraw: bool = False) -> None:
    """Let the room and the table handle everything due now: the room's task, the journal's commit, the
    message to the table (a few turns of the event loop); and, with ``redraw``, the screen."""
    for _ in range(TURNS):
        await asyncio.sleep(0)
    if redraw:
        await pilot.pause()


async def until(pilot: Pilot[int], done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + HANG_S
    while not done():
        assert time.monotonic() < deadline, f"{what}: not within {HANG_S} s"
        await pilot.pause(0.01)


async def advance(pilot: Pilot[int], clock: ManualClock, ms: int, step: int = 100) -> None:
    """Move virtual time on by ``ms``, a step at a time, letting the table keep up at each step."""
    for _ in range(0, ms, step):
        clock.advance(step)
        await settle(pilot)


def table(app: TableApp) -> TableState:
    """The table's state as the terminal last had it, once a game is dealt."""
    state = app.model.table
    assert state is not None, "no game dealt"
    return state


def my_turn(app: TableApp, seat: int = 0) -> bool:
    table = app.model.table
    return table is not None and table.turn == seat and table.collect_pending is None and not table.over


def screen_text(app: TableApp) -> str:
    """Every line the screen shows, as text (what a player reads)."""
    # Textual keeps what it composed for the terminal in the screen's compositor; it has no public reader.
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


async def shown(pilot: Pilot[int], app: TableApp) -> str:
    """The screen once it has drawn what the table knows now."""
    await settle(pilot, redraw=True)
    return screen_text(app)
