"""The rating chart of a profile in Debian's Chromium, for a player of one rated game: it starts from the
number before that game, so even one game draws the change it made; its table of numbers fits a phone in
every language, shows its disclosure marker, and stands each heading over its figures."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from harness.browser import open_page
from harness.profiles import finish, room_game
from harness.server import Server
from ratscrew.accounts import AccountStore
from ratscrew.i18n import text
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.store import RatingStore
from ratscrew.rules import Rules

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "profile"
PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def one_game(live_server: Server) -> tuple[int, int]:
    """Fay_6 and Gus_7 signed up and one rated duel between them: Fay's number before it and after."""
    for name in ("Fay_6", "Gus_7"):
        assert live_server.post("/api/account/sign-up", {"name": name, "password": PASSWORD})[0] == 200
    path = live_server.data / "ratscrew.sqlite3"
    store = AccountStore(path)
    seats = [found[0].id for name in ("Fay_6", "Gus_7") if (found := store.find(name)) is not None]
    finish(path, room_game(Rules.build("standard"), ("hard", "medium"), 5, code="ONE1"), seats, rated=True)
    (change,) = RatingStore(path).history(seats[0], SizeClass.TWO)
    before, after = change.before.shown, change.after.shown
    assert before != after
    return before, after


def test_after_one_game_the_chart_rises_or_falls_from_where_the_rating_started(
    browser: Browser, live_server: Server, one_game: tuple[int, int]
) -> None:
    """One rated game: the chart is a line from the number before it (a newcomer's) to the one after, and its
    scale says both, never the same number top and bottom."""
    before, after = one_game
    page, errors = open_page(browser, live_server.url, lang="en", width=390, height=844, touch=True)
    try:
        page.evaluate("location.hash = '#/players/Fay_6'")
        chart = page.locator("#rating-2-chart")
        heights = [float(p.split(",")[1]) for p in (chart.locator("polyline").get_attribute("points") or "").split()]
        assert len(heights) == 2 and heights[0] != heights[1]
        assert (heights[0] > heights[1]) == (after > before)  # the drawing's y grows downwards
        expect(chart.locator(".chart-high")).to_have_text(str(max(before, after)))
        expect(chart.locator(".chart-low")).to_have_text(str(min(before, after)))
        expect(chart.locator("figcaption")).to_contain_text(
            text("en", "profile.chart.summary.one", first=before, last=after, n=1)
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "en-390x844-one-game-chart.png"), full_page=True)
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_numbers_fit_a_phone_with_their_marker_and_headings_over_their_figures(
    browser: Browser, live_server: Server, one_game: tuple[int, int], lang: str
) -> None:
    page, errors = open_page(browser, live_server.url, lang=lang, width=390, height=844, touch=True)
    try:
        page.evaluate("location.hash = '#/players/Fay_6'")
        numbers = page.locator("#rating-2-chart details")
        summary = numbers.locator("summary")
        # The marker says it opens, then that it is open.
        marker = "el => getComputedStyle(el, '::before').content"
        assert summary.evaluate(marker).startswith('"\u25b6"')
        summary.focus()
        page.keyboard.press("Enter")
        expect(numbers).to_have_attribute("open", "")
        assert summary.evaluate(marker).startswith('"\u25bc"')
        # Every cell of the table lies inside the box it sits in, and the box inside the screen.
        edges = numbers.evaluate(
            """box => [box.getBoundingClientRect().right,
                       Math.max(...[...box.querySelectorAll('th, td')].map(c => c.getBoundingClientRect().right)),
                       box.querySelector('table').scrollWidth, box.clientWidth]"""
        )
        box, cells, table, inner = edges
        assert box <= 390 and cells <= box and table <= inner, f"{lang}: {edges}"
        games = page.locator("#profile-games").evaluate(
            "t => [t.scrollWidth, t.parentElement.clientWidth, t.getBoundingClientRect().right]"
        )
        assert games[0] <= games[1] and games[2] <= 390, f"{lang}: the games table {games}"
        expect(numbers.locator("thead th").last).to_have_text(text(lang, "profile.chart.rating"))
        expect(numbers.locator("tbody td").last).to_have_text(str(one_game[1]))
        # The day in words ("Dec 2", "2 déc.", "2. Dez."): 12/2 reads as two different days round the world.
        day = numbers.locator("tbody td:nth-child(2)").inner_text()
        assert "/" not in day and any(c.isalpha() for c in day), (lang, day)
        # Change and rating: each heading stands right, as its figures do.
        align = "el => getComputedStyle(el).textAlign"
        for column in (4, 5):
            heading = numbers.locator(f"thead th:nth-child({column})").evaluate(align)
            figure = numbers.locator(f"tbody td:nth-child({column})").evaluate(align)
            assert heading == figure == "right", (lang, column, heading, figure)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{lang}-390x844-numbers.png"), full_page=True)
    finally:
        page.context.close()
    assert not errors, errors
