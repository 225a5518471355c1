"""The room's page in Debian's Chromium: it says so above the table when the room waits longer for a slow link,
and why, in plain words.

Which seat the room waits for is the server's to say (``waits_for``, test_rooms_fair.py); on loopback nobody's
link is slow, so the page is handed the ``latency`` message a slow seat would bring, on its own socket.
"""

from __future__ import annotations

import json

from playwright.sync_api import Browser, expect

from harness.browser import open_page
from harness.server import Server
from ratscrew.i18n import text as text_of

KEEP_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})()"""

ARRIVES = "message => window.__sockets.at(-1).dispatchEvent(new MessageEvent('message', {data: message}))"
# The message arrives and the note is read in one go, as the page draws it at once: a real latency message
# (every few seconds, more often on a busy machine) could otherwise come between and redraw it.
ARRIVES_AND_READ = """message => {
  window.__sockets.at(-1).dispatchEvent(new MessageEvent('message', {data: message}));
  const note = document.querySelector('#room-wait');
  return note.hidden ? null : note.textContent;
}"""


def test_the_table_says_when_it_waits_for_a_slow_link(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url)
    try:
        page.context.add_init_script(KEEP_SOCKETS)
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        page.fill("#online-name", "Ann")
        page.select_option("#online-seats", "2")
        page.click("#create-room")
        page.wait_for_selector("#room-seat-0.mine")
        page.select_option("#bot-1", "easy")
        page.wait_for_selector("#room-seat-1.kind-bot")
        page.click("#ready-button")
        page.wait_for_selector("#start-button:not([disabled])")
        page.click("#start-button")
        page.wait_for_selector("#flip-0")
        note = page.locator("#room-wait")
        assert note.is_hidden()  # one person on loopback: the room waits for nobody
        for waits_for, says in ((1, "Computer 2's connection to the server is slow"), (0, "Your connection to the")):
            latency = {"type": "latency", "seats": [12, None], "window_ms": 160, "waits_for": waits_for}
            text = page.evaluate(ARRIVES_AND_READ, json.dumps(latency))
            assert text is not None and "160 ms" in text and says in text and "race everyone else's fairly" in text, (
                text
            )
        # What the wait is for, in plain words, for a player who asks: not a bare number of milliseconds.
        why = page.locator("#room-wait-why")
        explained = why.locator("p")
        assert explained.is_hidden()
        why.locator("summary").click()
        expect(explained).to_be_visible()
        assert explained.inner_text() == text_of("en", "room.slow_link.explain")
        assert "far from the server" in explained.inner_text()
        page.evaluate(ARRIVES, json.dumps({"type": "latency", "seats": [12, None], "window_ms": 40, "waits_for": None}))
        page.wait_for_selector("#room-wait[hidden]", state="attached")
        assert errors == []
    finally:
        page.context.close()
