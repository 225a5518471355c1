"""Keeping score at a real table, in Chromium: rounds survive stopping and restarting the server."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.conftest import SCREENSHOTS, Server, open_page, start_server


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
        assert errors == []
        page.context.close()
    finally:
        assert server.stop() == 0  # SIGTERM: a clean stop

    restarted = start_server(data)
    try:
        match_id = match_url.rsplit("/", 1)[-1]
        page, errors = open_page(browser, restarted.url + "#/scores", height=900)
        page.wait_for_selector(f"a[href$='{match_id}']")
        assert "Friday night" in page.locator("main").inner_text()
        page.goto(restarted.url + f"#/scores/{match_id}")
        page.wait_for_selector(".sk-tile")
        assert wins(page) == ["3", "1"]
        assert page.locator(".sk-history li").count() == 4
        page.keyboard.press("2")
        page.wait_for_function("document.querySelectorAll('.sk-history li').length === 5")
        assert wins(page) == ["3", "2"]
        page.context.close()
    finally:
        restarted.stop()
