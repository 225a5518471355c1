"""Keeping score at a real table, in Chromium: rounds survive stopping and restarting the server, a share
link lets another phone keep the same score while a phone without it can only watch, and a match's house
rules (a Big Mac, a lockout) reach its rules card and its referee."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from harness.browser import SCREENSHOTS, open_page
from harness.server import Server, start_server


def wins(page: Page) -> list[str]:
    tiles: list[str] = page.eval_on_selector_all(".sk-tile .sk-tile-wins", "els => els.map(e => e.textContent)")
    return tiles


def test_score_is_kept_across_rounds_and_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    data = tmp_path / "data"
    server: Server = start_server(data)
    try:
        page, errors = open_page(browser, server.url + "#/scores", height=900)
        names = page.locator(".sk-player-row input")
        names.nth(0).fill("Léa")
        names.nth(1).fill("Tom")
        page.fill("#sk-match-name", "Friday night")
        page.click(".sk-start")
        page.wait_for_selector(".sk-tile")
        match_url = page.url
        assert "/scores/" in match_url
        # Rounds by key: 1 for the first player, 2 for the second.
        for key in ["1", "2", "1", "1"]:
            before = sum(int(w) for w in wins(page))
            page.keyboard.press(key)
            page.wait_for_function(
                f"[...document.querySelectorAll('.sk-tile .sk-tile-wins')].reduce((a, e) => a + +e.textContent, 0) "
                f"> {before}"
            )
        assert wins(page) == ["3", "1"]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "score-keeper.png"), animations="disabled")
        # On a phone the round's message takes its own width and leaves the Undo and Referee buttons clear.
        page.set_viewport_size({"width": 390, "height": 844})
        page.keyboard.press("2")
        page.wait_for_selector(".sk-toast:not([hidden])")
        toast = page.locator(".sk-toast").bounding_box()
        actions = page.locator(".sk-actions").bounding_box()
        assert toast is not None and actions is not None
        assert toast["width"] > 0.6 * 390, toast
        assert toast["y"] + toast["height"] <= actions["y"] or actions["y"] + actions["height"] <= toast["y"]
        page.click(".sk-toast button")  # and its Undo takes the round back
        page.wait_for_function("document.querySelectorAll('.sk-tile .sk-tile-wins')[1].textContent === '1'")
        page.set_viewport_size({"width": 1280, "height": 900})
        share = page.input_value(".sk-share-link")
        match_id = match_url.rsplit("/", 1)[-1]
        assert share.startswith(server.url) and f"#/scores/{match_id}-" in share
        assert errors == []
        page.context.close()

        # Another phone with the bare address can follow the match but not change it, and does not list it.
        watcher, watcher_errors = open_page(browser, server.url + f"#/scores/{match_id}", height=900)
        watcher.wait_for_selector(".sk-watch-only:not([hidden])")
        assert watcher.locator(".sk-tile:not([disabled])").count() == 0
        assert watcher.locator(".sk-share").count() == 0
        assert watcher.locator(".sk-finish").is_hidden() and watcher.locator(".sk-head-row .sk-danger").is_hidden()
        watcher.goto(server.url + "#/scores")
        watcher.wait_for_selector(".sk-empty")
        assert watcher_errors == []
        watcher.context.close()
    finally:
        assert server.stop() == 0  # SIGTERM: a clean stop

    restarted = start_server(data)
    try:
        # A phone that opens the share link holds the key from then on: it lists the match and scores it.
        page, errors = open_page(browser, restarted.url + "#/scores/" + share.split("#/scores/")[1], height=900)
        page.wait_for_selector(".sk-tile")
        assert page.url.endswith(f"#/scores/{match_id}")  # the key is not left in the address
        assert page.locator(".sk-watch-only").is_hidden()
        page.goto(restarted.url + "#/scores")
        page.wait_for_selector(f"a[href$='{match_id}']")
        assert "Friday night" in page.locator("main").inner_text()
        page.goto(restarted.url + f"#/scores/{match_id}")
        page.wait_for_selector(".sk-tile")
        assert wins(page) == ["3", "1"]
        assert page.locator(".sk-history li").count() == 4
        page.keyboard.press("2")
        page.wait_for_function("document.querySelectorAll('.sk-history li').length === 5")
        assert wins(page) == ["3", "2"]
        assert errors == []
        page.context.close()
    finally:
        restarted.stop()


def test_the_list_shows_older_matches_on_demand(browser: Browser, live_server: Server) -> None:
    made = []
    for i in range(53):
        status, match = live_server.post("/api/matches", {"name": f"Evening {i}", "players": ["Ann", "Bob"]})
        assert status == 201, match
        made.append([match["id"], match["key"]])
    page, errors = open_page(browser, live_server.url + "#/scores", height=900)
    page.evaluate(f"localStorage.setItem('ratscrew.scores.keys.v1', JSON.stringify({json.dumps(made)}))")
    page.reload()
    page.wait_for_selector(".sk-list-more")
    assert page.locator(".sk-match-item").count() == 50
    assert page.locator(".sk-match-link").first.inner_text() == "Evening 52"  # newest first
    page.click(".sk-list-more")
    page.wait_for_function("document.querySelectorAll('.sk-match-item').length === 53")
    assert page.locator(".sk-list-more").count() == 0
    assert errors == []
    page.context.close()


def test_a_match_with_big_mac_and_a_lockout_is_created_and_its_rules_and_referee_know_them(
    browser: Browser, live_server: Server
) -> None:
    page, errors = open_page(browser, live_server.url + "#/scores", height=900)
    try:
        names = page.locator(".sk-player-row input")
        names.nth(0).fill("Léa")
        names.nth(1).fill("Tom")
        page.click(".sk-changes summary")
        lockout_cards = page.locator("#sk-opt-slapping-lockout_cards")
        expect(lockout_cards).to_be_disabled()  # its length means nothing under the preset's burn
        expect(page.locator("#sk-opt-slapping-penalty_cards")).to_be_enabled()
        page.check("#sk-opt-slaps-bigmac")
        page.select_option("#sk-opt-slapping-penalty", json.dumps("lockout"))
        expect(lockout_cards).to_be_enabled()
        expect(page.locator("#sk-opt-slapping-penalty_cards")).to_be_disabled()  # a lockout burns nothing
        expect(page.locator("#sk-opt-slapping-penalty_from")).to_be_disabled()
        page.select_option("#sk-opt-slapping-lockout_cards", "3")
        preview = page.locator(".sk-preview")
        expect(preview).to_contain_text("Big Mac")
        expect(preview).to_contain_text("until 3 more cards have been turned")
        page.click(".sk-start")
        page.wait_for_selector(".sk-tile")

        match_id = page.url.rsplit("/", 1)[-1]
        status, match = live_server.get(f"/api/matches/{match_id}")
        assert status == 200, match
        values = match["rules_values"]
        assert values["slaps.bigmac"] is True
        assert (values["slapping.penalty"], values["slapping.lockout_cards"]) == ("lockout", 3)
        card = page.locator(".sk-match-side .sk-rules")
        expect(card.locator(".sk-slaps")).to_contain_text("Big Mac")
        expect(card).to_contain_text("until 3 more cards have been turned")

        # The referee judges a pile by the match's rules: 7 2 K 7 is a Big Mac here.
        page.click(".sk-referee-open")
        for rank in ("7", "2", "K", "7"):
            page.locator(".sk-referee .sk-rank", has_text=re.compile(f"^{rank}$")).click()
        verdict = page.locator(".sk-referee .sk-verdict")
        expect(verdict.locator(".sk-verdict-word")).to_have_text("Slap!")
        expect(verdict.locator(".sk-verdict-list")).to_contain_text("Big Mac")
    finally:
        page.context.close()
    assert errors == []
