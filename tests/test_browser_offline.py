"""The table with the network gone (Chromium, a real server): it says so over the pile, stops looking live,
refuses Flip with the reason, and comes back by itself when the network does.

The browser is taken offline (Playwright's ``set_offline``) and the room's socket is dropped with it: the page's
socket goes through a route that closes it and turns new ones away until the network is back. A screenshot of
each case goes to test-artifacts/offline/ for a person to see.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute

from harness.browser import open_page
from harness.server import Server
from ratscrew.i18n import catalog

SHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "offline"
GLOW = "(el) => getComputedStyle(el).boxShadow"


class Network:
    """The page's room socket, through a route the test can cut: the open socket closes and new ones are refused."""

    def __init__(self) -> None:
        self.up = True
        self.open: list[WebSocketRoute] = []

    def route(self, ws: WebSocketRoute) -> None:
        if not self.up:
            ws.close()
            return
        server = ws.connect_to_server()
        self.open.append(ws)
        ws.on_message(server.send)
        server.on_message(ws.send)

    def cut(self, page: Page) -> None:
        self.up = False
        page.context.set_offline(True)
        for ws in self.open:
            ws.close()
        self.open.clear()

    def mend(self, page: Page) -> None:
        self.up = True
        page.context.set_offline(False)


def notice(page: Page, title: str) -> dict[str, Any]:
    """Where the words ``title`` show on the felt, against the pile, the window and what lies over them."""
    found: dict[str, Any] = page.evaluate(
        """(title) => {
          const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
          const shown = [...document.querySelectorAll('.felt *')]
            .filter((el) => el.children.length === 0 && el.textContent === title && el.getClientRects().length);
          if (!shown.length) return { shown: false };
          const words = shown[0];
          const [l, t, r, b] = box(words);
          const top = document.elementFromPoint((l + r) / 2, (t + b) / 2);
          return { shown: true, words: box(words), pile: box(document.getElementById('pile')),
            window: [window.innerWidth, window.innerHeight], uncovered: top === words || words.contains(top) };
        }""",
        title,
    )
    return found


def top_number(page: Page) -> int:
    return int(page.evaluate("Number(document.querySelector('#pile [data-number]:last-of-type')?.dataset.number ?? 0)"))


def open_table(
    browser: Browser, live_server: Server, kind: str, lang: str, size: tuple[int, int]
) -> tuple[Page, Network, list[str]]:
    """A game against one computer, or an online room with one, at the table; the player's turn to flip."""
    touch = size[0] < 500
    page, errors = open_page(browser, live_server.url, lang=lang, width=size[0], height=size[1], touch=touch)
    if kind == "game":
        status, body = live_server.post(
            "/api/games", {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "name": "Bot", "level": "easy"}]}
        )
        code, token, address = body["id"], body["token"], f"#/game/{body['id']}"
    else:
        status, body = live_server.post("/api/rooms", {"seats": 2, "name": "Ann"})
        code, token, address = body["code"], body["token"], f"#/room/{body['code']}"
    assert status == 200, body
    page.evaluate("([code, token]) => localStorage.setItem(`ratscrew.seat.${code}`, token)", [code, token])
    network = Network()
    page.route_web_socket("**/ws/**", network.route)
    page.goto(f"{live_server.url}{address}")
    if kind == "room":
        page.select_option("#bot-1", "easy")
        page.click("#ready-button")
        page.click("#start-button")
    page.wait_for_selector(".flip-button.ready")
    return page, network, errors


@pytest.mark.parametrize(
    ("kind", "lang", "size"), [("game", "fr", (390, 844)), ("room", "en", (1280, 800)), ("game", "de", (1280, 800))]
)
def test_the_table_says_it_is_offline_refuses_plays_and_comes_back(
    browser: Browser, live_server: Server, kind: str, lang: str, size: tuple[int, int]
) -> None:
    words = catalog(lang)
    page, network, errors = open_table(browser, live_server, kind, lang, size)
    flip = page.locator(".flip-button")
    try:
        assert flip.evaluate(GLOW) != "none"  # live: Flip glows for the player's turn
        before = top_number(page)
        network.cut(page)
        page.wait_for_function(
            "(text) => document.getElementById('status-line').textContent === text", arg=words["table.offline.status"]
        )

        # Said over the pile, in sight, with nothing over it (not in a header under the sticky bar).
        seen = notice(page, words["table.offline.title"])
        assert seen["shown"], seen
        left, top, right, bottom = seen["words"]
        pile_left, pile_top, pile_right, pile_bottom = seen["pile"]
        width, height = seen["window"]
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, seen
        assert seen["uncovered"], seen
        assert abs((left + right - pile_left - pile_right) / 2) < width / 4, seen
        assert abs((top + bottom - pile_top - pile_bottom) / 2) < height / 6, seen

        # Nothing looks live: the status line said it reconnects (waited for above, in place of "your turn" or
        # "slap now"), and neither Flip nor the player's seat glows.
        assert flip.evaluate(GLOW) == "none"
        page.wait_for_function(f"({GLOW})(document.querySelector('#seat-0')) === 'none'")  # once its glow has faded

        # A tap on Flip is refused with the reason, where the eyes are, and nothing reaches the table.
        if size[0] < 500:  # (aria-disabled: Playwright waits for an enabled button unless forced; a finger does not)
            flip.tap(force=True)
        else:
            flip.click(force=True)
        refused = notice(page, words["table.offline.refused"])
        assert refused["shown"] and refused["uncovered"], refused
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{kind}-{lang}-{size[0]}x{size[1]}.png"), animations="disabled")

        # The network comes back: the table finds the room by itself, says so, and plays again.
        network.mend(page)
        page.wait_for_function(
            "(text) => document.getElementById('status-line').textContent !== text", arg=words["table.offline.status"]
        )
        assert not notice(page, words["table.offline.title"])["shown"]
        assert top_number(page) == before  # the refused flip never reached the table
        page.wait_for_selector(".flip-button.ready")
        assert flip.evaluate(GLOW) != "none"
        if size[0] < 500:
            flip.tap()
        else:
            page.keyboard.press("f")
        page.wait_for_function(
            f"Number(document.querySelector('#pile [data-number]:last-of-type')?.dataset.number ?? 0) > {before}"
        )
    finally:
        page.context.close()
    assert not [e for e in errors if "WebSocket" not in e], json.dumps(errors)
