"""Getting around and following the game without a mouse or without eyes, in Debian's Chromium: the skip link,
addresses that lead nowhere, the screen reader's live region, sounds and the pause."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.conftest import Server, open_page


@pytest.fixture
def page(browser: Browser, live_server: Server) -> Iterator[Page]:
    opened, errors = open_page(browser, live_server.url)
    try:
        yield opened
    finally:
        opened.context.close()
    assert not errors, errors


def deal_against_computer(page: Page) -> str:
    page.click("#start-game")
    page.wait_for_selector(".seat")
    page.wait_for_function("document.querySelector('#status-line').textContent.length > 0")
    return page.url.rsplit("#", 1)[-1]


def test_skip_link_moves_the_focus_to_the_content_and_keeps_the_game(page: Page) -> None:
    route = deal_against_computer(page)
    page.reload()  # a fresh page: the first Tab reaches the skip link
    page.wait_for_selector(".seat")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'view'")
    page.wait_for_timeout(200)  # a wrongly handled link would show another page by now
    assert page.url.endswith(route)
    assert page.locator(".seat").count() >= 2
    assert page.locator("#start-game").count() == 0


def test_an_unknown_address_says_so_and_leads_back_to_play(page: Page, live_server: Server) -> None:
    page.goto(live_server.url + "#/nonsense")
    page.wait_for_selector("#not-found")
    assert page.locator("#not-found h1").inner_text() == "There is no page here"
    assert "#/nonsense" in page.locator("#not-found").inner_text()
    assert page.locator("[data-nav][aria-current=page]").count() == 0
    page.select_option("#lang-select", "fr")
    page.wait_for_selector("body[data-lang=fr]")
    assert page.locator("#not-found h1").inner_text() == "Cette page n’existe pas"
    page.click("#not-found-play")
    page.wait_for_selector("#start-game")
    assert page.url.endswith("#/")
