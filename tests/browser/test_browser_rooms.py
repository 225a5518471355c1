"""Online rooms in Debian's Chromium: two browsers join one room by its code, play, and one reloads mid-game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from harness.browser import SCREENSHOTS, open_page, until
from harness.server import Server

# Keeps every websocket the page opens, so a test can drop one as a flaky network would, and can hold what
# the page sends (while window.__hold is set) until it lets it go.
KEEP_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__held = [];
  window.__hold = false;
  window.__release = () => {
    window.__hold = false;
    for (const [socket, data] of window.__held.splice(0)) socket.send(data);
  };
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
    send(data) {
      if (window.__hold) window.__held.push([this, data]);
      else super.send(data);
    }
  };
})()"""


@dataclass
class Player:
    page: Page
    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def watch(page: Page, errors: list[str]) -> Player:
    """Record the page's websocket messages both ways, and its console errors with its script errors."""
    player = Player(page, errors=errors)

    def on_socket(ws: WebSocket) -> None:
        ws.on("framesent", lambda frame: player.sent.append(json.loads(frame)))
        ws.on("framereceived", lambda frame: player.received.append(json.loads(frame)))

    page.on("websocket", on_socket)
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return player


@pytest.fixture
def two_players(browser: Browser, live_server: Server) -> Iterator[tuple[Player, Player]]:
    """Two separate browsers (their own storage, so their own seat tokens) on the Play page; Bob's on a phone."""
    ann_page, ann_errors = open_page(browser, live_server.url)
    bob_page, bob_errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    bob_page.context.add_init_script(KEEP_SOCKETS)
    bob_page.reload()
    bob_page.wait_for_selector("body[data-ready=true]")
    ann, bob = watch(ann_page, ann_errors), watch(bob_page, bob_errors)
    try:
        yield ann, bob
    finally:
        ann_page.context.close()
        bob_page.context.close()
    assert not ann.errors, ann.errors
    assert not bob.errors, bob.errors


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")


def cards_turned(page: Page) -> int:
    """The number of the top card of the pile (how many cards this game has turned), or -1 for none."""
    numbers: list[str] = page.eval_on_selector_all("#pile .pile-card", "els => els.map(e => e.dataset.number)")
    return int(numbers[-1]) if numbers else -1


FLIP_IN_TURN = """([seat, target]) => {
  const top = [...document.querySelectorAll('#pile .pile-card')].pop();
  if (top && Number(top.dataset.number) >= target) return true;
  const button = document.querySelector(`#flip-${seat}.ready`);
  if (button) button.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
  return false;
}"""


def play_until(ann: Page, bob: Page, target: int) -> None:
    """Each flips in turn (Ann seat 0, Bob seat 1; the computer plays its own) until both pages show ``target``
    cards turned, under conftest.until's bound (a page that is slow to show the card on a busy machine is
    waited for as long as the other: a 10 s wait for the second page starved under three test processes)."""

    def both_there() -> bool:
        there = [page.evaluate(FLIP_IN_TURN, [seat, target]) for page, seat in ((ann, 0), (bob, 1))]
        return all(there)

    until(ann, both_there, f"both pages showing card {target}")


def shown_card(ann: Page, bob: Page) -> int:
    """The number of the card on top of Ann's pile, read once there is one: a pile just taken (by a slap, a
    won challenge or the computer) is empty until the next card, which each flips in turn meanwhile."""
    shown = [-1]

    def there() -> bool:
        shown[0] = cards_turned(ann)
        return shown[0] >= 0

    def flip() -> None:
        for page, seat in ((ann, 0), (bob, 1)):
            page.evaluate(FLIP_IN_TURN, [seat, 10**6])

    until(ann, there, "a card on the pile", act=flip)
    return shown[0]


def wait_for_turn(ann: Page, bob: Page) -> None:
    """Until Ann may flip (Bob flips whenever it is his turn)."""
    until(
        ann,
        lambda: ann.locator("#flip-0.ready").count() > 0,
        "Ann's turn",
        act=lambda: bob.evaluate(FLIP_IN_TURN, [1, 10**6]),
    )


def unapplied(page: Page) -> int:
    """Event numbers this page has seen minus the events it applied: the same on every page that joined before
    the game started, unless a page dropped (or doubled) some."""
    gap: int = page.evaluate(
        "(({seq, applied}) => Number(seq) + 1 - Number(applied))(document.querySelector('.game').dataset)"
    )
    return gap


def test_two_browsers_join_a_room_by_code_play_and_one_reloads_still_seated(
    two_players: tuple[Player, Player], browser: Browser, live_server: Server
) -> None:
    ann, bob = (p.page for p in two_players)
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
    # Everyone sees who hosts the room, in words a screen reader reads with the host's name.
    for page, who in ((ann, "You"), (bob, "Person")):
        expect(page.locator("#room-seat-1 .room-seat-name")).to_have_text("Bob <b>")
        assert f"Ann {who} Host" in page.locator("#room-seat-0").aria_snapshot()
        assert "Host" not in page.locator("#room-seat-1").aria_snapshot()
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing off a phone's screen

    # The host changes a house rule: everyone sees it. She fills the third seat with a computer; the start
    # waits for both people to be ready.
    ann.select_option("#bot-2", "easy")
    ann.wait_for_selector("#room-seat-2.kind-bot")
    bob.wait_for_selector("#room-seat-2.kind-bot")
    assert ann.locator("#start-button").is_disabled()
    # Each is asked to press ready themselves; Bob does, and his button now says what pressing it again does.
    for page in (ann, bob):
        expect(page.locator("#start-hint")).to_have_text("Press ready when you have read the rules.")
    bob.click("#ready-button")
    expect(bob.locator("#ready-button")).to_have_text("Take back ready")
    expect(ann.locator("#start-hint")).to_have_text("Press ready when you have read the rules.")
    ann.click("#room-house-rules summary")
    ann.check("#room-opt-slaps-marriage")
    bob.wait_for_function("document.querySelector('#room-rules').textContent.includes('Marriage')")
    # The host's change took Bob's ready back: he is told why, and what to do.
    expect(bob.locator("#start-hint")).to_have_text("The host changed the rules: read them and press ready again.")
    expect(bob.locator("#ready-button")).to_have_text("I'm ready")
    ann.click("#ready-button")
    expect(ann.locator("#start-hint")).to_have_text("Waiting for Bob <b> to press ready.")
    bob.click("#ready-button")
    ann.wait_for_selector("#start-button:not([disabled])")
    shot(ann, "room-lobby")
    shot(bob, "room-lobby-phone")
    ann.click("#start-button")

    # Both see the same table; each has the controls of their own seat only, and every seat its connection.
    for page, seat in ((ann, 0), (bob, 1)):
        page.wait_for_selector(f"#seat-{seat}.mine")
        page.wait_for_selector(f"#flip-{seat}")
        assert page.locator(".seat").count() == 3
    assert ann.locator("#flip-1").count() == 0 and bob.locator("#flip-0").count() == 0
    ann.wait_for_function("document.querySelector('#seat-1 .seat-name').textContent === 'Bob <b>'")
    assert "Marriage" in ann.locator("#table-rules").inner_text()
    play_until(ann, bob, 3)
    ann.wait_for_function("document.querySelector('#seat-1 .seat-net').textContent.endsWith('ms')")

    # A slap names the card Ann saw and her reaction time from its first paint.
    top = shown_card(ann, bob)
    ann.keyboard.press("j")
    until(ann, lambda: any(m["type"] == "slap" for m in two_players[0].sent), "Playwright reporting the slap frame")
    slaps = [m for m in two_players[0].sent if m["type"] == "slap"]
    assert slaps[-1]["seat"] == 0 and top <= slaps[-1]["card"] <= shown_card(ann, bob)
    assert isinstance(slaps[-1]["rt"], int) and 0 <= slaps[-1]["rt"] < 60_000
    assert any(m["type"] == "echo" for m in two_players[0].sent)  # every probe of its delay is answered

    # Bob's connection drops while Ann plays a card: he reconnects with the last event he saw and is sent
    # exactly what he missed.
    wait_for_turn(ann, bob)
    before = cards_turned(ann)
    bob.evaluate("window.__hold = true; window.__sockets.at(-1).close()")  # its hello waits until Ann has played
    ann.evaluate(FLIP_IN_TURN, [0, 10**6])
    ann.wait_for_function(f"[...document.querySelectorAll('#pile .pile-card')].pop()?.dataset.number > {before}")
    bob.wait_for_function("window.__held.length > 0")
    seen_by_ann = int(ann.evaluate("document.querySelector('.game').dataset.seq"))
    bob.evaluate("window.__release()")
    bob.wait_for_function(f"Number(document.querySelector('.game').dataset.seq) >= {seen_by_ann}")
    welcomes = [m for m in two_players[1].received if m["type"] == "welcome"]
    assert len(welcomes) >= 2 and isinstance(welcomes[-1]["missed"], int) and welcomes[-1]["missed"] >= 1
    assert unapplied(bob) == unapplied(ann) == 0  # every event once: none dropped, none twice
    play_until(ann, bob, shown_card(ann, bob) + 2)

    # Someone with the link but no seat watches, without controls.
    watcher, watcher_errors = open_page(browser, f"{live_server.url}#/room/{code}")
    try:
        watcher.wait_for_selector("#seat-1 .seat-name")
        assert watcher.locator(".flip-button, .slap-button").count() == 0
        assert watcher.locator("#controls .hint").is_visible()
        assert watcher_errors == []
    finally:
        watcher.context.close()

    # Bob reloads mid-game: his token brings back his seat and his controls, and the game goes on.
    bob.reload()
    bob.wait_for_selector("body[data-ready=true]")
    bob.wait_for_selector("#seat-1.mine")
    bob.wait_for_selector("#flip-1")
    assert bob.locator("#room-lobby").is_hidden()
    bob.wait_for_function("document.querySelector('#status-line').textContent.length > 0")  # the table is back
    ann.wait_for_function("!document.querySelector('#seat-1').classList.contains('away')")
    play_until(ann, bob, shown_card(ann, bob) + 3)  # both pages show three more cards
    shot(bob, "room-table-phone")


def test_an_open_room_is_listed_on_the_play_page_and_joined_from_there(browser: Browser, live_server: Server) -> None:
    status, created = live_server.post("/api/rooms", {"public": True, "seats": 2, "name": "Zoë"})
    assert status == 200
    page, errors = open_page(browser, live_server.url, lang="fr")
    try:
        page.fill("#join-code", "ZZZZZ9")  # no such room: said on the spot, nothing else happens
        page.click("#join-room")
        page.wait_for_selector("#join-error:not([hidden])")  # beside the code's field, in French
        assert "ZZZZZ9" in page.inner_text("#join-error") and "#/room/" not in page.url
        entry = page.locator("#open-rooms li", has_text="Zoë")
        entry.wait_for()
        entry.locator("a").click()
        page.wait_for_selector("#sit-1")
        assert page.locator("#room-code").inner_text() == created["code"]
        assert page.locator("#room-seat-0 .room-seat-name").inner_text() == "Zoë"
        page.fill("#room-name", "Yann")
        page.click("#sit-1")
        page.wait_for_selector("#room-seat-1.mine")
        # "seated" comes a moment before the lobby that names the seat: wait for the name, then check it.
        page.wait_for_function("document.querySelector('#room-seat-1 .room-seat-name')?.textContent === 'Yann'")
        assert page.locator("#room-seat-1 .room-seat-name").inner_text() == "Yann"
        assert page.locator("#ready-button").is_visible() and page.locator("#start-button").is_hidden()
        page.goto(f"{live_server.url}#/room/ZZZZZ9")  # a link to a room that is not there
        page.wait_for_selector(".missing h1")
        assert errors == []
    finally:
        page.context.close()


def test_a_game_against_the_computer_keeps_its_seat_over_a_reload(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url)
    try:
        page.click("#start-game")
        page.wait_for_selector("#flip-0")
        game_id = page.url.rsplit("/", 1)[-1]
        token = page.evaluate(f"localStorage.getItem('ratscrew.seat.{game_id}')")
        assert token
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#seat-0.mine")
        page.wait_for_selector("#flip-0")
        # A tab that started its game before seats were kept in localStorage still has it in sessionStorage.
        page.evaluate(
            f"localStorage.removeItem('ratscrew.seat.{game_id}');"
            f"sessionStorage.setItem('ratscrew.token.{game_id}', {token!r})"
        )
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#flip-0")
        assert page.evaluate(f"localStorage.getItem('ratscrew.seat.{game_id}')") == token
        assert page.evaluate(f"sessionStorage.getItem('ratscrew.token.{game_id}')") is None
        assert errors == []
    finally:
        page.context.close()


FLIP_UNTIL_OVER = """() => {
  const button = document.querySelector('.flip-button.ready');
  if (button) button.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
  return document.querySelector('#rematch') !== null;
}"""


def test_a_timed_room_game_ends_with_its_summary_and_a_rematch_keeps_the_table_together(
    two_players: tuple[Player, Player], live_server: Server
) -> None:
    ann, bob = (p.page for p in two_players)
    ann.fill("#online-name", "Ann")
    ann.click("details.house-rules summary")
    ann.fill("#opt-end-time_limit_s", "6")
    ann.dispatch_event("#opt-end-time_limit_s", "change")
    ann.select_option("#online-seats", "2")
    ann.click("#create-room")
    ann.wait_for_selector("#room-seat-0.mine")
    bob.fill("#online-name", "Bob")
    bob.fill("#join-code", ann.locator("#room-code").inner_text())
    bob.click("#join-room")
    bob.click("#sit-1")
    bob.wait_for_selector("#room-seat-1.mine")
    bob.click("#ready-button")
    ann.click("#ready-button")
    ann.wait_for_selector("#start-button:not([disabled])")
    ann.click("#start-button")
    until(ann, lambda: all([ann.evaluate(FLIP_UNTIL_OVER), bob.evaluate(FLIP_UNTIL_OVER)]), "the timed game's end")
    assert ann.locator(".overlay-card tbody tr").count() == 2
    assert ann.locator("#room-phase").inner_text() == "Game over"
    record = ann.request.get(live_server.url.rstrip("/") + (ann.get_attribute("#download-record", "href") or ""))
    assert record.ok and json.loads(record.body())["rules"]["end"]["time_limit_s"] == 6

    # Ann asks for the rematch: she is back in the lobby, in, and the lobby says she asked.
    ann.click("#rematch")
    ann.wait_for_selector("#room-lobby:not([hidden])")
    assert ann.locator(".overlay").is_hidden()
    assert ann.locator("#ready-button").get_attribute("aria-pressed") == "true"  # asking was agreeing
    # Bob's summary stays, with its races, until he closes it; it says who asked and what he presses to join.
    bob.wait_for_function("document.querySelector('#rematch-note')?.textContent.startsWith('Ann asks for a rematch')")
    assert bob.inner_text("#rematch-note") == "Ann asks for a rematch: press “I'm in” to play again."
    assert bob.locator(".overlay").is_visible() and bob.locator(".overlay-card tbody tr").count() == 2
    assert bob.locator("#room-lobby").is_hidden()
    # Every button Bob has says the same, and the host's line waits for him to press exactly that.
    assert bob.inner_text("#rematch") == bob.text_content("#ready-button") == "I'm in"
    expect(ann.locator("#start-hint")).to_have_text("You asked for a rematch. Waiting for Bob to press “I'm in”.")
    expect(ann.locator("#room-seat-1 .room-seat-ready")).to_have_text("Not in yet")
    expect(ann.locator("#room-seat-0 .room-seat-ready")).to_have_text("✓ In")
    bob.click("#rematch")
    bob.wait_for_selector("#room-lobby:not([hidden])")
    assert bob.locator("#room-seat-1.mine").count() == 1  # the same seat
    expect(bob.locator("#ready-button")).to_have_text("Take back “I'm in”")
    expect(bob.locator("#start-hint")).to_have_text(
        "Ann asks for a rematch. Everyone is in: the host starts the rematch."
    )
    expect(ann.locator("#start-hint")).to_have_text(
        "You asked for a rematch. Everyone is in: start the rematch when you like."
    )
    # Everyone agreed: one press from the host starts the same table again, from a clean one.
    ann.wait_for_selector("#start-button:not([disabled])")
    ann.click("#start-button")
    for page in (ann, bob):
        # The last game's feed (several lines) stays until the page has the new game's state, which may come a
        # moment after the room says it plays: the table must come clean, its feed at most the new game's first
        # line (nobody has turned a card), with a status line. A feed that never clears times out here.
        expect(page.locator("#room-phase")).to_have_text("Playing")
        page.wait_for_function(
            "document.querySelectorAll('#feed li').length <= 1"
            " && document.querySelector('#status-line').textContent.length > 0"
        )


def reaction_by(page: Page, seat_selector: str, reaction: str) -> str:
    """The words of ``reaction`` once it shows by the seat, checked to stand over that seat or just above it."""
    bubble = page.locator(f"{seat_selector} .reaction-bubble[data-reaction={reaction}]")
    bubble.wait_for()
    box, seat = bubble.bounding_box(), page.locator(seat_selector).bounding_box()
    assert box is not None and seat is not None
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # it may still be growing in
    assert seat["x"] <= middle[0] <= seat["x"] + seat["width"]
    assert seat["y"] - 48 <= middle[1] <= seat["y"] + seat["height"]
    return bubble.inner_text().strip()


def test_a_quick_reaction_shows_by_its_senders_seat_on_the_other_page_unless_hidden_there(
    two_players: tuple[Player, Player],
) -> None:
    ann, bob = (p.page for p in two_players)
    ann.fill("#online-name", "Ann")
    ann.select_option("#online-seats", "2")
    ann.click("#create-room")
    ann.wait_for_selector("#room-seat-0.mine")
    bob.fill("#online-name", "Bob")
    bob.fill("#join-code", ann.locator("#room-code").inner_text())
    bob.click("#join-room")
    bob.click("#sit-1")
    bob.wait_for_selector("#room-seat-1.mine")
    # In the lobby: Ann opens the reactions from the header and sends one; Bob sees it by her seat.
    ann.click("#react-open")
    expect(ann.locator("#react-panel")).to_be_visible()
    assert ann.locator("#react-panel .react-button").count() == 7
    ann.click("#react-nice")
    expect(ann.locator("#react-panel")).to_be_hidden()  # one press, one reaction
    assert reaction_by(bob, "#room-seat-0", "nice") == "Nice slap"
    shot(bob, "room-reaction-lobby-phone")
    bob.locator("#room-seat-0 .reaction-bubble").wait_for(state="detached")  # it shows for a moment only

    # At the table: Bob reacts, Ann sees it by his seat round the felt.
    bob.click("#ready-button")
    ann.click("#ready-button")
    ann.wait_for_selector("#start-button:not([disabled])")
    ann.click("#start-button")
    for page in (ann, bob):
        page.wait_for_selector("#seat-1 .seat-name")
    bob.click("#react-open")
    bob.click("#react-gg")
    assert reaction_by(ann, "#seat-1", "gg") == "Good game"
    shot(ann, "room-reaction-table")

    # Bob turns reactions off on his page: Ann's next one reaches his page, which shows nothing; his choice
    # is kept over a reload.
    bob.click("#react-open")
    bob.uncheck("#react-shown")
    bob.keyboard.press("Escape")
    ann.click("#react-open")
    ann.click("#react-wow")
    assert reaction_by(ann, "#seat-0", "wow") == "Wow"  # Ann's own page shows her reaction
    until(
        bob,
        lambda: any(m == {"type": "reaction", "seat": 0, "reaction": "wow"} for m in two_players[1].received),
        "Bob's page receiving Ann's reaction",
    )
    bob.wait_for_timeout(100)  # a frame for a bubble that should not be there
    assert bob.locator(".reaction-bubble").count() == 0
    bob.reload()
    bob.wait_for_selector("#seat-1.mine")
    assert not bob.locator("#react-shown").is_checked()
