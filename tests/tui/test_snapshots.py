"""What the terminal table looks like, at 80x24 and at 120x40, compared with the SVGs committed under
``tests/__snapshots__/test_tui_snapshots/`` (pytest-textual-snapshot; ``--snapshot-update`` writes them again
after a change meant to show). Each is deterministic: a seeded deal, the computers' timing on virtual time, and
the room's code fixed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from harness.tui import advance, local_app, my_turn, on_a_thread, settle, table, until
from ratscrew.rules import load_rules
from ratscrew.tui.app import TableApp

SIZES = [(80, 24), (120, 40)]
Snap = Callable[..., bool]


@pytest.fixture(autouse=True)
def fixed_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ratscrew.rooms.runner.new_code", lambda: "TUI234")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"  # shown on the screen as "data" (``folder``), wherever the test runs


def play_cards(cards: int, *, slap_at: int | None = None) -> Callable[[Pilot[int]], Awaitable[None]]:
    """Play until ``cards`` cards are turned (and slap once when card ``slap_at`` is on top), then let it draw."""

    async def run(pilot: Pilot[int]) -> None:
        nonlocal slap_at
        app = pilot.app
        assert isinstance(app, TableApp)
        clock = app.venue.table.rooms.clock  # type: ignore[attr-defined]  # a LocalVenue's ManualClock
        await until(pilot, lambda: app.model.playing, "the deal")
        for _ in range(5000):
            turned = table(app).cards
            if turned == cards and table(app).collect_pending is None:
                break
            if turned == slap_at and app.model.top_card() == slap_at:
                await pilot.press("j")
                await advance(pilot, clock, 100)
                slap_at = None
            elif my_turn(app):
                await pilot.press("f")
                await advance(pilot, clock, 100)
            else:
                await advance(pilot, clock, 100)
        await settle(pilot, redraw=True)

    return run


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_the_table_mid_game_with_a_verdict(snap_compare: Snap, data: Path, size: tuple[int, int]) -> None:
    app, _clock = local_app(data, folder="data", levels=("medium", "hard", "easy"), seed=21, pace=0.5)
    assert on_a_thread(lambda: snap_compare(app, terminal_size=size, run_before=play_cards(9, slap_at=3)))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_twelve_seats_fit(snap_compare: Snap, data: Path, size: tuple[int, int]) -> None:
    levels = ("easy", "medium", "hard", "expert", "match") * 2 + ("medium",)
    app, _clock = local_app(data, folder="data", levels=levels, seed=4, pace=0.5, lang="fr")
    assert on_a_thread(lambda: snap_compare(app, terminal_size=size, run_before=play_cards(14)))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_the_summary(snap_compare: Snap, data: Path, size: tuple[int, int]) -> None:
    rules = load_rules(None, ("end.max_cards=24",))
    app, _clock = local_app(data, folder="data", levels=("hard",), rules=rules, seed=8, pace=0.5)

    async def to_the_end(pilot: Pilot[int]) -> None:
        assert isinstance(app, TableApp)
        clock = app.venue.table.rooms.clock  # type: ignore[attr-defined]
        await until(pilot, lambda: app.model.playing, "the deal")
        for _ in range(5000):
            if app.model.summary is not None:
                break
            if my_turn(app):
                await pilot.press("f")
            await advance(pilot, clock, 100)
        await settle(pilot, redraw=True)

    assert on_a_thread(lambda: snap_compare(app, terminal_size=size, run_before=to_the_end))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_the_help(snap_compare: Snap, data: Path, size: tuple[int, int]) -> None:
    app, _clock = local_app(data, folder="data", seed=2)

    async def help_over_the_paused_game(pilot: Pilot[int]) -> None:
        await play_cards(0)(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: table(app).paused, "the game paused under the help")  # the top line says so
        await settle(pilot, redraw=True)

    assert on_a_thread(lambda: snap_compare(app, terminal_size=size, run_before=help_over_the_paused_game))


def test_plain_without_colour(snap_compare: Snap, data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")  # what `ratscrew tui --plain` sets for Textual
    app, _clock = local_app(data, folder="data", levels=("medium", "easy"), seed=21, pace=0.5, plain=True)
    assert on_a_thread(lambda: snap_compare(app, terminal_size=(80, 24), run_before=play_cards(6)))


def test_the_slap_window_after_a_won_challenge(snap_compare: Snap, data: Path) -> None:
    """A challenge won: the pile waits to be collected, the window's bar drains (a third of it gone here)."""
    app, _clock = local_app(data, folder="data", levels=("medium", "easy"), seed=21, pace=0.5)

    async def to_a_won_challenge(pilot: Pilot[int]) -> None:
        assert isinstance(app, TableApp)
        clock = app.venue.table.rooms.clock  # type: ignore[attr-defined]
        await until(pilot, lambda: app.model.playing, "the deal")
        for _ in range(5000):
            if table(app).collect_pending is not None:
                break
            if my_turn(app):
                await pilot.press("f")
            await advance(pilot, clock, 50, step=50)
        assert table(app).collect_pending is not None, "no challenge was won"
        await advance(pilot, clock, 300, step=100)
        await settle(pilot, redraw=True)

    assert on_a_thread(lambda: snap_compare(app, terminal_size=(80, 24), run_before=to_a_won_challenge))


SIX = ("hard", "easy", "medium", "expert", "match")  # and the person: six seats


def until_a_long_verdict(pilot: Pilot[int]) -> Awaitable[None]:
    """Play (slapping now and then) until the banner holds a verdict that takes three lines at 80 columns."""

    async def run() -> None:
        app = pilot.app
        assert isinstance(app, TableApp)
        clock = app.venue.table.rooms.clock  # type: ignore[attr-defined]
        await until(pilot, lambda: app.model.playing, "the deal")
        for step in range(5000):
            banner = app.model.banner
            if banner is not None and len(banner.text) > 80:
                break
            if my_turn(app):
                await pilot.press("f")
            elif step % 7 == 0 and app.model.top_card() is not None:
                await pilot.press("j")
            await advance(pilot, clock, 100)
        await settle(pilot, redraw=True)

    return run()


def test_six_seats_in_german_with_a_long_verdict(snap_compare: Snap, data: Path) -> None:
    # The status box held four lines: a German verdict's third was cut, and so was the feed's last line.
    app, _clock = local_app(data, folder="data", levels=SIX, seed=8, pace=0.5, lang="de")
    assert on_a_thread(lambda: snap_compare(app, terminal_size=(80, 24), run_before=until_a_long_verdict))


def test_the_summary_of_six_seats_in_german(snap_compare: Snap, data: Path) -> None:
    # The summary ran past its box (its keys out of sight) and cut the German headings with "…".
    rules = load_rules(None, ("end.max_cards=60",))
    app, _clock = local_app(data, folder="data", levels=SIX, rules=rules, seed=8, pace=0.5, lang="de")

    async def to_the_end(pilot: Pilot[int]) -> None:
        assert isinstance(app, TableApp)
        clock = app.venue.table.rooms.clock  # type: ignore[attr-defined]
        await until(pilot, lambda: app.model.playing, "the deal")
        for _ in range(5000):
            if app.model.summary is not None:
                break
            if my_turn(app):
                await pilot.press("f")
            await advance(pilot, clock, 100)
        await settle(pilot, redraw=True)

    assert on_a_thread(lambda: snap_compare(app, terminal_size=(80, 24), run_before=to_the_end))
