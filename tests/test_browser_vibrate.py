"""A vibration when the player's own slap is judged, on a phone (Chromium, a real server): where the device has a
touch screen and navigator.vibrate, and the table's settings leave it on; never on a desktop.

The page's navigator.vibrate is replaced by one that notes each pattern it is asked for.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from harness.browser import open_page
from harness.server import Server

STUB = """() => {
  window.__buzzed = [];
  Object.defineProperty(navigator, 'vibrate', { value: (pattern) => { window.__buzzed.push(pattern); return true; } });
}"""
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "name": "Bot", "level": "easy"}]


@pytest.mark.parametrize(("touch", "switched_off"), [(True, False), (True, True), (False, False)])
def test_the_players_own_slap_verdict_vibrates_on_a_phone_only(
    browser: Browser, live_server: Server, touch: bool, switched_off: bool
) -> None:
    size = (390, 844) if touch else (1280, 800)
    page, errors = open_page(browser, live_server.url, width=size[0], height=size[1], touch=touch)
    try:
        status, created = live_server.post("/api/games", {"seats": SEATS, "bot_pace": 4})
        assert status == 200, created
        page.evaluate(
            "([id, token]) => localStorage.setItem(`ratscrew.seat.${id}`, token)", [created["id"], created["token"]]
        )
        page.goto(f"{live_server.url}#/game/{created['id']}")
        page.wait_for_selector(".flip-button.ready")
        page.evaluate(STUB)
        switch = page.locator("#vibrate")
        # The switch is in the table's settings where it does something, and nowhere else.
        assert switch.count() == (1 if touch else 0)
        if switched_off:
            page.click("#table-settings summary")
            switch.uncheck()
        page.locator(".slap-button").dispatch_event("pointerdown")  # a slap on the empty pile: a wrong slap
        page.wait_for_function("document.querySelector('#feed li') !== null")
        page.wait_for_timeout(100)  # the vibration goes with the verdict's banner, in the same task
        buzzed = page.evaluate("window.__buzzed")
    finally:
        page.context.close()
    assert not errors, errors
    assert buzzed == ([[70, 60, 70]] if touch and not switched_off else []), buzzed
