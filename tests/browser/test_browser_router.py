"""The shell's router in Chromium: one page on screen at a time, however its address is reached."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def test_a_navigate_beside_its_own_hashchange_shows_the_page_once(page: Page) -> None:
    """Play now's page could ask for the room's address twice (its poll and a press both answered): the second
    call saw the address already set and showed the page itself, beside the hashchange's own showing, and both
    filled the view: two tables on screen."""
    page.evaluate(
        """async () => {
          const app = await import('/static/js/app.js');  // the shell's own module: the same router
          location.hash = '#/scores';
          app.navigate('#/scores');
        }"""
    )
    expect(page.locator("#view .sk-layout")).to_have_count(1)
    page.wait_for_timeout(1000)  # both showings have had their time to finish
    expect(page.locator("#view .sk-layout")).to_have_count(1)
    expect(page.locator("#view > *")).not_to_have_count(0)
