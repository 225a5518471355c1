"""The rating chart of a profile in Debian's Chromium, for a player of one rated game: it starts from the
number before that game, so even one game draws the change it made."""

from __future__ import annotations

from pathlib import Path

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


def test_after_one_game_the_chart_rises_or_falls_from_where_the_rating_started(
    browser: Browser, live_server: Server
) -> None:
    """One rated game: the chart is a line from the number before it (a newcomer's) to the one after, and its
    scale says both, never the same number top and bottom."""
    for name in ("Fay_6", "Gus_7"):
        assert live_server.post("/api/account/sign-up", {"name": name, "password": PASSWORD})[0] == 200
    path = live_server.data / "ratscrew.sqlite3"
    store = AccountStore(path)
    seats = [found[0].id for name in ("Fay_6", "Gus_7") if (found := store.find(name)) is not None]
    finish(path, room_game(Rules.build("standard"), ("hard", "medium"), 5, code="ONE1"), seats, rated=True)
    (change,) = RatingStore(path).history(seats[0], SizeClass.TWO)
    before, after = change.before.shown, change.after.shown
    assert before != after
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
