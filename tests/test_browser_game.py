"""The browser game in Debian's Chromium, driven by Playwright like a player at the keyboard."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.browser import HANG_S, SCREENSHOTS, open_page, until
from harness.server import Server
from ratscrew.record import Record


@pytest.fixture
def page(browser: Browser, live_server: Server) -> Iterator[Page]:
    opened, errors = open_page(browser, live_server.url, lang=None)  # the language switch test sets its own
    try:
        yield opened
    finally:
        opened.context.close()
    assert not errors, errors


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")


def top_cards(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#pile .pile-card", "els => els.map(e => e.dataset.card)")
    return cards


def slappable(cards: list[str]) -> bool:
    ranks = [c[:-1] if c != "X" else "X" for c in cards]
    double = len(ranks) >= 2 and ranks[-1] == ranks[-2] != "X"
    sandwich = len(ranks) >= 3 and ranks[-1] == ranks[-3] != "X"
    return double or sandwich


def flip(page: Page, key: str) -> None:
    """Turn a card and wait until the page shows it: a slap must not react to a pile already covered on the
    server (a reaction under 100 ms is not credited any delay, so it would be judged against the new pile)."""
    top = "document.querySelector('#pile .pile-card:last-of-type')?.dataset.number ?? ''"
    before = page.evaluate(top)
    page.keyboard.press(key)
    page.wait_for_function(f"before => ({top}) !== before", arg=before)


def deal(page: Page) -> str:
    page.click("#start-game")
    page.wait_for_selector(".seat")
    page.wait_for_function("document.querySelector('#status-line').textContent.length > 0")
    return page.url.rsplit("/", 1)[-1]


TIME_LIMIT_S = 8  # long enough for the player to turn and slap a few cards before the clock ends it


def test_a_game_against_three_computers_played_to_the_end_by_keys(page: Page, live_server: Server) -> None:
    page.click("details.house-rules summary")
    page.fill("#opt-end-time_limit_s", str(TIME_LIMIT_S))
    page.dispatch_event("#opt-end-time_limit_s", "change")
    page.select_option("#pace", "brisk")
    shot(page, "setup")
    game_id = deal(page)
    assert page.locator(".seat").count() == 4
    slapped_at: set[int] = set()
    flips = 0

    def play_a_turn() -> None:
        nonlocal flips
        if page.locator(".flip-button.ready").count():
            page.keyboard.press("f")
            flips += 1
            if flips == 2:
                shot(page, "game")  # once, mid-game
        cards = top_cards(page)
        count = len(cards)
        if slappable(cards) and count not in slapped_at:
            page.keyboard.press("j")
            slapped_at.add(count)

    until(page, lambda: page.locator(".overlay").is_visible(), "the timed game's end", act=play_a_turn, every_ms=90)
    assert flips > 0
    shot(page, "summary")
    summary = page.locator(".overlay-card")
    assert summary.locator("h2").inner_text()
    assert summary.locator("tbody tr").count() == 4
    response = page.request.get(f"{live_server.url}api/games/{game_id}/record")
    record = Record.from_json(json.loads(response.body()))
    game = record.replay()
    assert game.over
    assert record.rules.end.time_limit_s == TIME_LIMIT_S
    page.click("#play-again")
    page.wait_for_function(f"!location.hash.endsWith('{game_id}')")
    page.wait_for_selector(".seat")
    assert page.locator(".seat").count() == 4
    assert page.locator(".overlay").is_hidden()


def test_two_players_on_one_screen_each_slap_with_their_own_key(page: Page) -> None:
    page.check("input[name=mode][value=local]")
    page.fill("#seat-name-0", "Ann")
    page.fill("#seat-name-1", "Bob")
    while page.locator(".seat-row button.ghost").count():
        page.locator(".seat-row button.ghost").first.click()
    assert page.locator(".seat-row").count() == 2
    deal(page)
    flip_keys = {"0": "a", "1": "l"}
    slap_keys = [("s", "Ann"), ("k", "Bob")]
    won_by: list[str] = []
    deadline = time.monotonic() + HANG_S
    while slap_keys:
        assert time.monotonic() < deadline, f"no pile to slap within {HANG_S} s"
        cards = top_cards(page)
        if slappable(cards):
            key, name = slap_keys[0]
            page.keyboard.press(key)
            page.wait_for_function("document.querySelector('#pile .pile-card') === null")
            latest = page.locator("#feed li").first.inner_text()
            assert name in latest, latest
            won_by.append(name)
            slap_keys.pop(0)
            if len(won_by) == 1:
                shot(page, "two-players")
            continue
        due = page.locator(".seat.due")
        if due.count():
            flip(page, flip_keys[due.get_attribute("data-seat") or "0"])
        else:
            page.wait_for_timeout(60)
    assert won_by == ["Ann", "Bob"]
    # A slap on a pile that shows nothing costs Bob a card, burned under the pile.
    while not page.locator("#pile .pile-card").count() or slappable(top_cards(page)):
        flip(page, flip_keys[page.locator(".seat.due").get_attribute("data-seat") or "0"])
    page.keyboard.press("k")
    page.wait_for_function(
        "[...document.querySelectorAll('#feed li')].some(li => li.textContent.includes('Bob slaps wrong'))"
    )
    assert "1 burned" in page.locator(".burned").inner_text()


def test_a_changed_house_rule_is_shown_and_applied(page: Page, live_server: Server) -> None:
    page.click("details.house-rules summary")
    page.check("#opt-slaps-marriage")
    page.select_option("#opt-slapping-penalty_cards", "2")
    # The chips are the server's summary of the rules, drawn once the edits pause.
    chips = page.locator(".setup .rule-chips")
    expect(chips).to_contain_text("Marriage")
    expect(chips).to_contain_text("burn 2")
    game_id = deal(page)
    table_rules = page.locator("#table-rules")
    expect(table_rules).to_contain_text("Marriage")
    expect(table_rules).to_contain_text("burn 2")
    # The record of a live game holds its seed, so it is refused until the game is over; the table shows the
    # rules the server took (it sends them back in its welcome).
    response = page.request.get(f"{live_server.url}api/games/{game_id}/record")
    assert response.status == 409


def test_switching_language_translates_the_page(page: Page) -> None:
    assert page.locator("[data-nav=play]").inner_text() == "Play"
    page.select_option("#lang-select", "fr")
    page.wait_for_selector("body[data-lang=fr]")
    assert page.locator("[data-nav=play]").inner_text() != "Play"
    assert page.locator("#start-game").inner_text() != "Deal the cards"
    french = page.locator("#start-game").inner_text()
    shot(page, "setup-fr")
    page.select_option("#lang-select", "de")
    page.wait_for_selector("body[data-lang=de]")
    german = page.locator("#start-game").inner_text()
    assert german not in (french, "Deal the cards")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#start-game").inner_text() == german  # the choice is kept in this browser


def test_the_game_works_at_phone_size(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        deal(page)
        page.locator(".flip-button").tap()
        page.wait_for_selector("#pile .pile-card")
        box = page.locator(".felt").bounding_box()
        assert box is not None
        for seat in page.locator(".seat").all():
            seat_box = seat.bounding_box()
            assert seat_box is not None
            assert box["x"] - 4 <= seat_box["x"] and seat_box["x"] + seat_box["width"] <= box["x"] + box["width"] + 4
        shot(page, "game-phone")
        assert errors == []
    finally:
        page.context.close()


def test_two_players_on_a_touch_screen_each_have_their_own_edge(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        page.check("input[name=mode][value=local]")
        page.fill("#seat-name-0", "Ann")
        page.fill("#seat-name-1", "Bob")
        deal(page)
        bottom = page.locator(".pad-0").bounding_box()
        top = page.locator(".pad-1").bounding_box()
        assert bottom is not None and top is not None
        assert top["y"] < 10  # Bob's band at the top edge, turned to face him
        assert bottom["y"] + bottom["height"] > 844 - 10  # Ann's at the bottom
        page.locator(".pad-1 .slap-button").tap()  # Bob slaps an empty table: a wrong slap, his own
        page.wait_for_function(
            "[...document.querySelectorAll('#feed li')].some(li => li.textContent.includes('Bob slaps wrong'))"
        )
        page.locator(".pad-0 .flip-button").tap()
        page.wait_for_selector("#pile .pile-card")
        shot(page, "two-players-touch")
        assert errors == []
    finally:
        page.context.close()
