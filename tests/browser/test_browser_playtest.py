"""What a new player met at the table and around it (the play-test of issue #25), in Debian's Chromium against a
real server: pictures that draw without an emoji font, the network's absence said where the player looks, a card
limit told before it ends the game, the pause shown on the buttons and the clock. A screenshot of each case goes to
test-artifacts/playtest/ for a person to see.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page

from harness.browser import open_page
from harness.server import Server

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "playtest"
REACTIONS = ["hi", "nice", "wow", "oops", "close", "wait", "gg"]
# Characters only a colour-emoji font draws (pictographs, dingbats, the stopwatch): without one, an empty box.
EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2300-\u23FF\u2600-\u27BF\uFE0F]")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def room_at_table(page: Page, live_server: Server, seats: int = 2) -> str:
    """A room of this page's player and computers, its game started; its code."""
    status, body = live_server.post("/api/rooms", {"seats": seats, "name": "Ann", "public": False})
    assert status == 200, body
    code, token = body["code"], body["token"]
    page.evaluate("([code, token]) => localStorage.setItem(`ratscrew.seat.${code}`, token)", [code, token])
    page.evaluate("code => { location.hash = `#/room/${code}`; }", code)
    page.wait_for_selector("#room-seat-0.mine")
    for seat in range(1, seats):
        page.select_option(f"#bot-{seat}", "easy")
    page.click("#ready-button")
    page.click("#start-button")
    page.wait_for_selector(".room.at-table .seat.mine")
    return str(code)


def picture(locator: Locator) -> bytes:
    """The picture as drawn; it must differ from the same box with its strokes and letters made invisible."""
    locator.evaluate("el => el.scrollIntoView({ block: 'center' })")  # not under the site's sticky bar
    drawn = locator.screenshot(animations="disabled")
    locator.evaluate("el => { el.dataset.color = el.style.color; el.style.color = 'transparent'; }")
    blank = locator.screenshot(animations="disabled")
    locator.evaluate("el => { el.style.color = el.dataset.color; }")
    assert drawn != blank, "nothing is drawn"
    return drawn


def test_every_quick_reaction_draws_its_own_picture_without_an_emoji_font(browser: Browser, live_server: Server) -> None:
    """This Chromium has no colour-emoji font (many Linux desktops neither): an emoji there is an empty box, the
    same for each. Every reaction's picture, the button that opens them and the one shown by a seat each draw a
    picture of their own, beside their words."""
    page, errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        room_at_table(page, live_server)
        opener = page.locator("#react-open > [aria-hidden=true]").first
        pictures = {"opener": picture(opener)}
        page.click("#react-open")
        for code in REACTIONS:
            button = page.locator(f"#react-{code}")
            pictures[code] = picture(button.locator("> [aria-hidden=true]").first)
            assert button.inner_text().strip() != ""
        shot(page, "reactions-menu-phone")
        shown = page.locator("#react-panel").inner_text() + page.locator("#react-open").inner_text()
        assert not EMOJI.findall(shown), f"emoji shown: {EMOJI.findall(shown)}"
        alike = [(a, b) for i, a in enumerate(pictures) for b in list(pictures)[i + 1 :] if pictures[a] == pictures[b]]
        assert not alike, f"pictures drawn alike (an emoji the fonts lack shows as the same box): {alike}"
        page.click("#react-nice")
        bubble = page.locator("#seat-0 .reaction-bubble")
        bubble.wait_for()
        assert bubble.inner_text().strip() == "Nice slap"
        picture(bubble.locator("> :first-child"))
        shot(page, "reaction-by-seat-phone")
        assert errors == []
    finally:
        page.context.close()
