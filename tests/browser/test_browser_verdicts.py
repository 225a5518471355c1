"""The table explains its verdicts where the eyes are (Chromium, a real server, two on one screen).

One page plays a dealt game whose first cards the engine knows (a seed found below): a double, a card that
covers it, a slap the page sends while it still shows the double (the server's covering card held back on
the socket, as a slow phone's would be), then a pattern slapped in time. Along the way the banner is
measured against the status line at the screen sizes the layout tests use.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute

from harness.browser import SCREENSHOTS, open_page, serious_violations
from harness.server import Server
from ratscrew.engine import Game
from ratscrew.engine.actions import Flip, Slap
from ratscrew.engine.events import WrongSlap
from ratscrew.rules import Rules

SIZES = [(360, 640), (390, 844), (844, 390), (1280, 800)]
# Notes the seat of every hand mark put on the pile from now on (by its colour's hue, as motion.js sets it).
COUNT_MARKS = """() => {
  window.__marks = [];
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (!(node instanceof HTMLElement) || !node.classList.contains('hand-mark')) continue;
      window.__marks.push(node.style.getPropertyValue('--hue') === '20' ? 0 : 1);
    }
  }).observe(document.querySelector('.hand-marks'), { childList: true });
}"""
# Notes every text the screen readers' region is given from now on.
COUNT_SAID = """() => {
  window.__said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => window.__said.push(region.textContent))
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


@dataclass(frozen=True)
class Plan:
    seed: int
    double_at: int  # the card that makes the double
    pattern_at: int  # the next card after it that makes a pattern


def find_plan() -> Plan:
    """A deal where the cards alone make a double early on (no challenge won before it), the next card covers
    it, and a pattern follows within a few cards more."""
    rules = Rules.build("standard")
    for seed in range(2000):
        game = Game.from_seed(rules, 2, seed)
        double_at = pattern_at = 0
        while game.cards < 24 and game.collect_pending is None and not game.over:
            game.apply(Flip())
            found = game.matches()
            if not double_at and found:
                if found[0].pattern != "double" or game.cards < 2:
                    break
                double_at = game.cards
                game.apply(Flip())
                if game.matches() or game.collect_pending is not None:
                    break
                if not any(isinstance(e, WrongSlap) for e in game.apply(Slap(1, card=double_at))):
                    break
                if not any(isinstance(e, WrongSlap) for e in game.apply(Slap(0, card=double_at + 1))):
                    break
            elif double_at and found:
                pattern_at = game.cards
                break
        if double_at and pattern_at:
            return Plan(seed, double_at, pattern_at)
    raise AssertionError("no deal in 2000 seeds shows a covered double then a pattern")


class Socket:
    """Stands between the page and the room: the server's messages can be held back, then let through."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.page_side: WebSocketRoute | None = None

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.page_side = ws
        ws.on_message(server.send)
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.holding:
            self.held.append(message)
        else:
            assert self.page_side is not None
            self.page_side.send(message)

    def release(self) -> None:
        self.holding = False
        assert self.page_side is not None
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


@pytest.fixture
def table_page(browser: Browser, live_server: Server) -> Iterator[tuple[Page, Socket, Plan]]:
    plan = find_plan()
    status, created = live_server.post(
        "/api/games", {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], "seed": plan.seed}
    )
    assert status == 200, created
    page, errors = open_page(browser, live_server.url, width=1280, height=800)
    socket = Socket()
    page.route_web_socket("**/ws/**", socket.route)
    page.evaluate(f"localStorage.setItem('ratscrew.seat.{created['id']}', {json.dumps(created['token'])})")
    page.goto(f"{live_server.url}#/game/{created['id']}")
    page.wait_for_selector(".flip-button.ready")
    try:
        yield page, socket, plan
    finally:
        page.context.close()
    assert not errors, errors


def glyph(card: str) -> str:
    """A card as the page writes it in words with glyphs: "10♦" for TD."""
    rank, suit = card[:-1], card[-1]
    return ("10" if rank == "T" else rank) + {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}[suit]


def top_number(page: Page) -> int:
    return int(page.evaluate("Number(document.querySelector('#pile .pile-card:last-of-type')?.dataset.number ?? 0)"))


def flip_to(page: Page, number: int) -> None:
    """Turn cards, each by the key of the seat whose Flip button glows, until card ``number`` shows."""
    while top_number(page) < number:
        seat = page.locator(".flip-button.ready").get_attribute("data-seat")
        before = top_number(page)
        page.keyboard.press("a" if seat == "0" else "l")
        page.wait_for_function(
            f"Number(document.querySelector('#pile .pile-card:last-of-type')?.dataset.number ?? 0) > {before}"
        )


def banner(page: Page) -> str:
    page.wait_for_selector(".toast:not([hidden])")
    return page.inner_text(".toast")


def boxes_apart(page: Page) -> bool:
    return bool(
        page.evaluate(
            """() => {
              const a = document.querySelector('.toast').getBoundingClientRect();
              const b = document.querySelector('#status-line').getBoundingClientRect();
              return a.width > 0 && b.width > 0 &&
                (a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left);
            }"""
        )
    )


def place(page: Page) -> str:
    return str(page.get_attribute(".toast", "data-place"))


def banner_clear(page: Page) -> list[str]:
    """What the banner covers of the pile (each card on it too), its count, the slap window, the seats, the status
    line and the controls (Flip, Slap, Pause), and "outside the window" if any of it is out of the window's sight."""
    return list(
        page.evaluate(
            """() => {
              const a = document.querySelector('.toast').getBoundingClientRect();
              const apart = (b) => a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left;
              const named = ['#pile', '#pile .pile-card', '.pile-count', '#slap-window', '.seat', '#status-line',
                '#controls > *'];
              const view = document.documentElement;
              const seen = a.left >= 0 && a.top >= 0 && a.right <= view.clientWidth && a.bottom <= view.clientHeight;
              return named.flatMap((sel) => [...document.querySelectorAll(sel)]
                .filter((el) => el.getClientRects().length && !apart(el.getBoundingClientRect())).map(() => sel))
                .concat(seen ? [] : ['outside the window']);
            }"""
        )
    )


# The banner's words each time they change, with the page's time: how long a verdict stayed before a lesser line.
WATCH_BANNER = """() => {
  window.__banners = [];
  const toast = document.querySelector('.toast');
  const note = () => window.__banners.push([performance.now(), toast.hidden ? '' : toast.textContent]);
  new MutationObserver(note).observe(toast, {childList: true, characterData: true, subtree: true, attributes: true});
}"""
HELD_MS = 1600  # table/status.js: the least a verdict on the player's own slap stays before a lesser line


def test_verdicts_explain_themselves_in_the_banner_and_keep_clear_of_the_status_line(
    table_page: tuple[Page, Socket, Plan],
) -> None:
    page, socket, plan = table_page
    assert page.eval_on_selector_all(".seat-net", "els => els.map(e => e.textContent)") == ["", ""]  # one screen
    flip_to(page, plan.double_at)
    double = page.eval_on_selector_all("#pile .pile-card", "els => els.slice(-2).map(e => e.dataset.card)")
    # The covering card reaches the server but not yet the page, which slaps the double it still shows.
    socket.holding = True
    seat = page.locator(".flip-button.ready").get_attribute("data-seat")
    page.keyboard.press("a" if seat == "0" else "l")
    page.wait_for_timeout(300)
    page.keyboard.press("k")  # Bob's slap
    page.wait_for_timeout(300)
    socket.release()
    page.wait_for_function("document.querySelector('#feed li.kind-wrong_slap') !== null")
    said = banner(page)
    covering = page.eval_on_selector("#pile .pile-card:last-of-type", "e => e.dataset.card")
    assert said.startswith("Too late"), said
    assert "Double" in said and "Bob" in said, said
    assert page.inner_text("#feed li.kind-wrong_slap").startswith("Too late")
    assert glyph(covering) in said and all(glyph(card) in said for card in double), (said, covering, double)
    assert boxes_apart(page), "the banner covers the status line at 1280x800"
    # Ann slaps the covering card her page shows: the double was there a moment before, so she too is late.
    page.evaluate("document.querySelectorAll('#feed li').forEach((li) => { li.dataset.old = 'yes'; })")
    page.keyboard.press("s")
    page.wait_for_function("document.querySelector('#feed li.kind-wrong_slap:not([data-old])') !== null")
    said = page.inner_text("#feed li.kind-wrong_slap:not([data-old])")
    assert said.startswith("Too late") and "Ann" in said and "Double" in said, said
    assert glyph(covering) in said and all(glyph(card) in said for card in double), (said, covering, double)

    # A pattern slapped in time: the banner names it, with its cards, as the pile is taken; Ann's hand lands
    # on the pile in her colour, and axe finds nothing serious while it moves.
    flip_to(page, plan.pattern_at)
    page.evaluate(COUNT_MARKS)
    page.evaluate(COUNT_SAID)
    page.keyboard.press("s")  # Ann's slap
    page.wait_for_function("document.querySelector('#feed li.kind-pile_won') !== null")
    said = banner(page)
    assert "Ann takes" in said and any(name in said for name in ("Double", "Sandwich")), said
    assert page.evaluate("window.__marks") == [0]  # one mark, seat 0's colour
    assert not serious_violations(page)
    # Screen readers hear the pattern once, with its cards by name: on the slap's line, not again as the pile goes.
    pattern = said.split(": ", 1)[1].split(" (", 1)[0]
    page.wait_for_function("window.__said.some((text) => text.includes('Ann takes'))")
    heard = " ".join(page.evaluate("window.__said"))
    assert heard.count(pattern) == 1 and f"Ann slaps: {pattern} (" in heard and " of " in heard, heard

    # Every banner keeps clear of the status line, at each size the layout tests check.
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        if (width, height) == (844, 390):  # a card on the pile, and a line of burned cards under it once slapped:
            flip_to(page, top_number(page) + 1)  # a tall middle column, whose banner under it fell off the window
        page.keyboard.press("s")  # a slap on nothing: a wrong slap, with its banner
        page.wait_for_timeout(150)
        banner(page)
        page.screenshot(path=SCREENSHOTS / f"verdicts-{width}x{height}.png")
        assert boxes_apart(page), f"the banner covers the status line at {width}x{height}"
        assert banner_clear(page) == [], f"the banner covers these at {width}x{height}"
        if width > height < 560:  # a phone on its side: near the pile (its seats sit at the felt's two ends, so
            # under it as well as beside it), not up in the rule chips' row
            assert place(page) in ("under", "over", "left", "right"), place(page)
        lines = page.evaluate(
            "(() => { const e = document.querySelector('.toast'); const s = getComputedStyle(e);"
            " const inner = e.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);"
            " return inner / parseFloat(s.lineHeight); })()"
        )
        most = 3.1 if place(page) in ("left", "right") else 2.1  # beside the pile, narrow: three lines
        assert lines <= most, f"the banner takes {lines:.1f} lines at {width}x{height}"
        nav = "document.querySelector('.mainnav')"
        assert page.evaluate(f"{nav}.scrollWidth <= {nav}.clientWidth"), f"the links scroll sideways at {width}px"
        assert page.evaluate("document.querySelector('[data-nav=history]').getBoundingClientRect().right") <= width

    # A banner showing is placed again when the screen changes under it (a window resized, a phone turned).
    page.keyboard.press("s")
    page.wait_for_timeout(150)
    banner(page)
    assert place(page) in ("under", "over"), place(page)  # over it when the pile has a card and burned ones
    # (On a phone on its side the seats sit at the felt's ends, leaving room over and under the pile as well.)
    for width, height, places in [(844, 390, ("under", "over", "left", "right")), (390, 844, ("under", "over"))]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(TWO_FRAMES)
        assert page.is_visible(".toast"), "the banner went before the screen was turned"
        assert boxes_apart(page) and banner_clear(page) == [], f"the banner stayed where it was, at {width}x{height}"
        assert place(page) in places, (width, height, place(page))
    page.set_viewport_size({"width": 1280, "height": 800})

    # Under reduced motion nothing moves (no hand, no shake, no sliding card), and the words stay.
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(COUNT_MARKS)
    flip_to(page, top_number(page) + 1)  # a new card: Ann's next slap on it is a wrong one, not set aside
    page.evaluate("document.querySelectorAll('#feed li').forEach((li) => { li.dataset.old = 'yes'; })")
    page.evaluate(WATCH_BANNER)
    page.keyboard.press("s")
    page.wait_for_function("document.querySelector('#feed li:not([data-old])') !== null")
    assert page.locator("#feed li:not([data-old])").get_attribute("class") == "feed-item kind-wrong_slap"
    assert "Ann slaps wrong" in banner(page)
    # A lesser line (a flip out of turn, refused) waits until the verdict on Ann's own slap has been read: the
    # page's own times of the banner's words say how long the verdict stayed (a loaded machine may be slow to
    # look, never to keep it).
    due = page.locator(".flip-button.ready").get_attribute("data-seat")
    page.keyboard.press("l" if due == "0" else "a")
    page.wait_for_function("!document.querySelector('.toast').textContent.includes('Ann slaps wrong')", timeout=5000)
    banners: list[tuple[float, str]] = [(float(at), str(text)) for at, text in page.evaluate("window.__banners")]
    shown = next(at for at, text in banners if "Ann slaps wrong" in text)
    replaced = next(at for at, text in banners if at > shown and "Ann slaps wrong" not in text)
    assert replaced - shown >= HELD_MS - 50, banners  # a frame's slack
    assert page.evaluate("window.__marks") == []
    moving = "document.getAnimations().filter(a => a.playState === 'running' && a.effect.getTiming().duration > 1)"
    assert page.evaluate(f"{moving}.length") == 0


# Holds every movement on the page where it is, the pile's shake at its furthest left (a quarter of its 320 ms),
# and the banner up past its time (a loaded machine may take that long to resize twice).
HOLD_MOVES = """() => {
  Object.defineProperty(document.querySelector('.toast'), 'hidden', { get: () => false, set: () => {} });
  const moves = document.getAnimations();
  moves.forEach((move) => move.pause());
  const pile = document.querySelector('#pile');
  const shake = moves.find((m) => m.effect && m.effect.target === pile && m.effect.getTiming().duration === 320);
  if (shake) shake.currentTime = 80;
  const burned = moves.some((m) => m.effect && m.effect.target.classList.contains('burn-slide'));
  return { shake: Boolean(shake), burned };
}"""
PLACED = "(() => { const t=document.querySelector('.toast'); return [t.dataset.place, t.style.left, t.style.top]; })()"


TWO_FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def settle(page: Page, width: int, height: int) -> None:
    """A resize the table sees (it places the banner again), and two frames for it to do so."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(TWO_FRAMES)


def test_the_banner_is_placed_from_the_pile_at_rest_not_from_its_wrong_slap_shake(
    table_page: tuple[Page, Socket, Plan],
) -> None:
    page, _socket, _plan = table_page
    page.set_viewport_size({"width": 844, "height": 390})  # a phone on its side: the banner beside the pile
    flip_to(page, 2)
    page.keyboard.press("s")  # no pattern: a wrong slap shakes the pile and slides a burned card under it
    banner(page)
    held = page.evaluate(HOLD_MOVES)
    assert held == {"shake": True, "burned": True}, held
    # Placed again while the pile is 7 px off and the burned card still on its way from Ann's seat...
    settle(page, 845, 390)
    settle(page, 844, 390)
    moving = page.evaluate(PLACED)
    # ...and once everything has come to rest.
    page.evaluate("document.getAnimations().forEach((move) => move.finish())")
    settle(page, 845, 390)
    settle(page, 844, 390)
    assert page.evaluate(PLACED) == moving
    assert boxes_apart(page) and banner_clear(page) == []
