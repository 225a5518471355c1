"""The live table on a phone, as first-time players found it (Chromium, a real server): the seats keep off the
pile's cards and off each other upright and on its side, whatever the number of seats.

Each case plays a real game against the computer until cards lie on the pile, pauses it, and measures the boxes on
the screen: the cards as they lie (tilted and moved), the pile's count, and every seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from harness.browser import open_page, until
from harness.server import Server

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "phone-table"
# 2 to 12 seats (what the Play page and the rooms allow), sampled: both ends, the counts where the seats change
# form (4 to 5, 8 to 9) and one between.
SEATS = [2, 4, 5, 7, 9, 12]
PHONES = [(390, 844), (844, 390)]

# Every box that must stay clear of the seats: the cards on the pile where they rest (a card still landing is
# on its way from a seat), and the pile's count; and the seats themselves.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const resting = [...document.querySelectorAll('#pile > .pile-card')]
    .filter((el) => !el.getAnimations().some((a) => a.playState === 'running'));
  return {
    cards: resting.map(box),
    lines: [...document.querySelectorAll('.center > .pile-count')].filter((el) => el.getClientRects().length).map(box),
    seats: [...document.querySelectorAll('.seat')].map(box),
  };
}"""


def overlap(a: list[float], b: list[float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


@pytest.fixture(scope="module")
def phone(browser: Browser, live_server: Server) -> Iterator[Page]:
    """A touch phone showing the app in English, reused by the cases here; script errors fail the module."""
    page, errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        yield page
    finally:
        page.context.close()
    assert not errors, errors


def new_game(live_server: Server, seats: int, page: Page) -> None:
    """A game of one person against ``seats - 1`` computers playing briskly, opened on the page."""
    players: list[dict[str, Any]] = [{"kind": "human", "name": "Player 1"}]
    players += [{"kind": "bot", "name": f"Computer {n}", "level": "easy"} for n in range(2, seats + 1)]
    status, body = live_server.post("/api/games", {"seats": players, "rules": "standard", "bot_pace": 0.25})
    assert status == 200, body
    page.evaluate("([id, token]) => localStorage.setItem(`ratscrew.seat.${id}`, token)", [body["id"], body["token"]])
    page.evaluate("hash => { location.hash = hash; }", f"#/game/{body['id']}")
    page.wait_for_selector(".seat.mine")


def pause_with_cards(page: Page) -> None:
    """Play (the person's cards by the Flip key) until at least three cards lie on the pile, then pause there."""

    def paused_with_cards() -> bool:
        if page.evaluate("!document.querySelector('#paused-flag').hidden"):
            if page.locator("#pile > .pile-card").count() >= 3:
                return True
            page.keyboard.press("p")  # paused on too few: play on
        elif page.locator("#pile > .pile-card").count() >= 3:
            page.keyboard.press("p")
        return False

    until(page, paused_with_cards, "three cards on the pile, paused", act=lambda: page.keyboard.press("f"))
    page.wait_for_function(
        "[...document.querySelectorAll('#pile > .pile-card')].every((el) => !el.getAnimations().length)"
    )


def crowding(page: Page, case: str) -> list[str]:
    found: dict[str, Any] = page.evaluate(BOXES)
    problems = []
    seats = found["seats"]
    for i, seat in enumerate(seats):
        problems += [
            f"{case}: seat {i} covers a card on the pile" for card in found["cards"] if overlap(seat, card) > 0
        ]
        problems += [f"{case}: seat {i} covers the pile's count" for line in found["lines"] if overlap(seat, line) > 0]
        problems += [
            f"{case}: seats {i} and {j} overlap" for j in range(i + 1, len(seats)) if overlap(seat, seats[j]) > 0
        ]
    return problems


@pytest.mark.parametrize("seats", SEATS)
def test_seats_keep_off_the_pile_and_each_other_on_a_phone(phone: Page, live_server: Server, seats: int) -> None:
    """Upright (390x844) and on its side (844x390), with the cards a game put on the pile: no seat covers a card
    where it lies, nor the pile's count, nor another seat."""
    page = phone
    page.set_viewport_size({"width": 390, "height": 844})
    new_game(live_server, seats, page)
    pause_with_cards(page)
    problems: list[str] = []
    # The paused notice lies over the pile: out of the screenshots' way (it is no seat, and nothing measures it).
    page.evaluate("document.querySelector('#paused-flag').style.visibility = 'hidden'")
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # the seats are placed again as the felt's size changes
        case = f"{seats}-seats-{width}x{height}"
        shot(page, case)
        problems += crowding(page, case)
    page.evaluate("document.querySelector('#paused-flag').style.visibility = ''")
    page.keyboard.press("p")
    page.evaluate("location.hash = '#/'")
    assert not problems, "\n".join(problems)


# The top bar's parts as they show: the name, each link, the account and the language.
BAR = """() => [...document.querySelectorAll('.topbar .brand-mark, .mainnav a, .account-link, .lang select')]
  .filter((el) => el.getClientRects().length)
  .map((el) => {
    const r = el.getBoundingClientRect();
    return { what: el.getAttribute('aria-label') || el.textContent.trim(), box: [r.left, r.top, r.right, r.bottom],
      link: el.matches('.mainnav a'), cut: el.scrollWidth > el.clientWidth + 1 };
  })"""


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_top_bar_fits_a_phone_in_every_language(browser: Browser, live_server: Server, lang: str) -> None:
    """At 390 px (and 360), every part of the top bar is whole, inside the window, clear of every other part (the
    links at least 4 px apart, so the lit one does not touch the next) and each link on one line, as tall as the
    others: "Compteur de points" took two lines and left no room between the French links."""
    page, errors = open_page(browser, live_server.url, lang=lang, width=390, height=844, touch=True)
    problems: list[str] = []
    try:
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            page.wait_for_timeout(60)
            shot(page, f"topbar-{lang}-{width}")
            parts: list[dict[str, Any]] = page.evaluate(BAR)
            links = [part for part in parts if part["link"]]
            assert len(links) == 5, parts
            heights = [part["box"][3] - part["box"][1] for part in links]
            if max(heights) > min(heights) + 1:
                problems.append(f"{lang}-{width}: links of unequal heights (one wraps): {heights}")
            for i, part in enumerate(parts):
                box = part["box"]
                if part["cut"]:
                    problems.append(f"{lang}-{width}: {part['what']!r} is cut inside its box")
                if box[0] < 0 or box[2] > width:
                    problems.append(f"{lang}-{width}: {part['what']!r} is outside the window")
                for other in parts[i + 1 :]:
                    gap = 4 if part["link"] and other["link"] else 0
                    grown = [box[0] - gap, box[1], box[2] + gap, box[3]]
                    if overlap(grown, other["box"]) > 0:
                        problems.append(f"{lang}-{width}: {part['what']!r} crowds {other['what']!r}")
    finally:
        page.context.close()
    assert not errors, errors
    assert not problems, "\n".join(problems)
