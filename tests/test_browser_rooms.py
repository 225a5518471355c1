"""Online rooms in Debian's Chromium: two browsers join one room by its code, play, and one reloads mid-game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.conftest import SCREENSHOTS, Server, open_page


@pytest.fixture
def two_pages(browser: Browser, live_server: Server) -> Iterator[tuple[Page, Page]]:
    """Two separate browsers (their own storage, so their own seat tokens) on the Play page."""
    ann, ann_errors = open_page(browser, live_server.url)
    bob, bob_errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        yield ann, bob
    finally:
        ann.context.close()
        bob.context.close()
    assert not ann_errors, ann_errors
    assert not bob_errors, bob_errors


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")


def cards_turned(page: Page) -> int:
    """The number of the top card of the pile (how many cards this game has turned), or -1 for none."""
    numbers: list[str] = page.eval_on_selector_all("#pile .pile-card", "els => els.map(e => e.dataset.number)")
    return int(numbers[-1]) if numbers else -1


def test_two_browsers_join_a_room_by_code_play_and_one_reloads_still_seated(
    two_pages: tuple[Page, Page], live_server: Server
) -> None:
    ann, bob = two_pages
    # Ann opens a private room of three seats; she is its host, in seat 1.
    ann.fill("#online-name", "Ann")
    ann.select_option("#online-seats", "3")
    ann.click("#create-room")
    ann.wait_for_selector("#room-seat-0.mine")
    code = ann.locator("#room-code").inner_text()
    assert len(code) == 6
    assert ann.locator("#room-link").input_value().endswith(f"#/room/{code}")
    status, info = live_server.get(f"/api/rooms/{code}")
    assert status == 200 and info["phase"] == "lobby" and info["public"] is False

    # Bob, on a phone, types the code and sits in the second seat.
    bob.fill("#online-name", "Bob <b>")
    bob.fill("#join-code", code.lower())
    bob.click("#join-room")
    bob.wait_for_selector("#room-seats .room-seat")
    assert bob.locator("#start-button").is_hidden()  # only the host starts
    assert bob.locator("#room-opt-slaps-double").is_disabled()  # and only the host changes the rules
    bob.click("#sit-1")
    bob.wait_for_selector("#room-seat-1.mine")
    ann.wait_for_function("document.querySelector('#room-seat-1 .room-seat-name').textContent === 'Bob <b>'")
    assert ann.locator("#room-seat-1 b").count() == 0  # names are text, never markup

    # The host fills the third seat with a computer; Ann's start waits for both people to be ready.
    ann.select_option("#bot-2", "easy")
    ann.wait_for_selector("#room-seat-2.kind-bot")
    bob.wait_for_selector("#room-seat-2.kind-bot")
    assert ann.locator("#start-button").is_disabled()
    ann.click("#ready-button")
    bob.click("#ready-button")
    ann.wait_for_selector("#start-button:not([disabled])")
    shot(ann, "room-lobby")
    shot(bob, "room-lobby-phone")
    ann.click("#start-button")

    # Both see the same table; each has the controls of their own seat only.
    for page, seat in ((ann, 0), (bob, 1)):
        page.wait_for_selector(f"#seat-{seat}.mine")
        page.wait_for_selector(f"#flip-{seat}")
        assert page.locator(".seat").count() == 3
    assert ann.locator("#flip-1").count() == 0 and bob.locator("#flip-0").count() == 0
    ann.wait_for_function("document.querySelector('#seat-1 .seat-name').textContent === 'Bob <b>'")

    # They play some cards (the computer plays its own).
    play_until_both(ann, bob, 4)
    shot(bob, "room-table-phone")

    # Bob reloads mid-game: his token brings back his seat and his controls, and the game goes on.
    before = cards_turned(ann)
    bob.reload()
    bob.wait_for_selector("body[data-ready=true]")
    bob.wait_for_selector("#seat-1.mine")
    bob.wait_for_selector("#flip-1")
    bob.wait_for_function("document.querySelector('#room-net').textContent !== ''")
    assert bob.locator("#room-lobby").is_hidden()
    bob.wait_for_function(f"[...document.querySelectorAll('#pile .pile-card')].length > 0 || {before} < 0")
    ann.wait_for_function(
        "document.querySelector('#seat-1 .seat-net') && !document.querySelector('#seat-1').classList.contains('away')"
    )
    play_until_both(ann, bob, max(before, 0) + 4)
    assert cards_turned(bob) == cards_turned(ann) or abs(cards_turned(bob) - cards_turned(ann)) <= 1


def play_until_both(ann: Page, bob: Page, target: int) -> None:
    """Each flips in turn (Ann seat 0, Bob seat 1) until the game has turned ``target`` cards."""
    script = """([seat, target]) => {
      const top = [...document.querySelectorAll('#pile .pile-card')].pop();
      if (top && Number(top.dataset.number) >= target) return true;
      const button = document.querySelector(`#flip-${seat}.ready`);
      if (button) button.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
      return false;
    }"""
    for _ in range(200):
        done = ann.evaluate(script, [0, target])
        done = bob.evaluate(script, [1, target]) or done
        if done:
            ann.wait_for_function(f"{script}", arg=[0, target], polling=100, timeout=10_000)
            bob.wait_for_function(f"{script}", arg=[1, target], polling=100, timeout=10_000)
            return
        ann.wait_for_timeout(100)
    raise AssertionError(f"the game did not reach {target} cards")
