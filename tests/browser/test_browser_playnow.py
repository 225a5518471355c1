"""Play now in Debian's Chromium: two browsers signed in as two accounts press Play now (two players, rated)
and land at the same table, play its game through by their keys, and each sees both rating changes in the
summary; both ratings moved in the server's file. A wait is left by one press, and the waiting panel reads
well on a phone and a laptop. Its tables stop after a few cards (``harness/playnow.py``): the real flow, a
short game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from harness.browser import open_page, serious_violations, until
from harness.playnow import start_short_server
from harness.server import Server
from ratscrew.accounts import AccountStore
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.store import RatingStore

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "correct horse"
SIGN_UP = """async ([name, password]) => {
  const response = await fetch('/api/account/sign-up', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({name, password})});
  return response.status;
}"""
# How far the rated box's middle is below the middle of its label's first line, in pixels.
BOX_BESIDE_LABEL = """() => {
  const box = document.querySelector('#playnow-rated').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(document.querySelector('label[for=playnow-rated]'));
  const line = range.getClientRects()[0];
  return (box.top + box.height / 2) - (line.top + line.height / 2);
}"""
# Whether it is this page's seat's turn to turn a card.
MY_TURN = "(seat) => document.querySelector(`#flip-${seat}.ready`) !== null"


@pytest.fixture(scope="module")
def short_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_short_server(tmp_path_factory.mktemp("playnow"))
    try:
        yield server
    finally:
        server.stop()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), animations="disabled", full_page=False)


def signed_in(
    browser: Browser, server: Server, name: str, errors: list[str], *, width: int, height: int, touch: bool
) -> Page:
    """A browser of its own, signed up as ``name``; its script errors go to ``errors``."""
    page, seen = open_page(browser, server.url, width=width, height=height, touch=touch)
    assert page.evaluate(SIGN_UP, [name, PASSWORD]) == 200
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#account-text")).to_have_text(name)
    errors.extend(seen)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def choose_rated_duel(page: Page) -> None:
    page.locator("#playnow").scroll_into_view_if_needed()
    page.check("#playnow-size-2")
    expect(page.locator("#playnow-rated")).to_be_visible()
    expect(page.locator("#playnow-rated")).to_be_checked()  # signed in and never chose: rated by default
    # The box beside its label's first line, not below it (on a phone the label takes two lines).
    assert abs(page.evaluate(BOX_BESIDE_LABEL)) <= 3
    page.check("#playnow-rated")
    page.select_option("#playnow-preset", "standard")


def play_through(ann: Page, bob: Page) -> None:
    """Each turns a card with the F key when it is theirs, until both see the summary."""

    def both_over() -> bool:
        over = True
        for page, seat in ((ann, seat_of(ann)), (bob, seat_of(bob))):
            if page.locator(".overlay-card").count():
                continue
            over = False
            if page.evaluate(MY_TURN, seat):
                page.keyboard.press("f")
        return over

    until(ann, both_over, "the game played through to its summary on both pages")


def seat_of(page: Page) -> int:
    mine = page.locator(".seat.mine").first.get_attribute("id") or ""
    return int(mine.removeprefix("seat-"))


def test_two_accounts_press_play_now_play_the_table_through_and_see_their_ratings_move(
    browser: Browser, short_server: Server
) -> None:
    errors: list[str] = []
    ann = signed_in(browser, short_server, "ann_pn", errors, width=1280, height=800, touch=False)
    bob = signed_in(browser, short_server, "bob_pn", errors, width=390, height=844, touch=True)
    try:
        # Bob presses Play now first: he waits, the page counts the seconds and says so; he leaves at one press.
        choose_rated_duel(bob)
        bob.click("#play-now")
        expect(bob.locator("#playnow-status")).to_have_text("Looking for players: 2 players, rated, Standard.")
        expect(bob.locator("#playnow-leave")).to_be_focused()
        expect(bob.locator("#playnow-waited")).to_have_text(re.compile(r"Waiting for [1-9]\d* seconds?\."))
        assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        expect(bob.locator("#playnow-status")).to_be_in_viewport()  # the panel in sight as it folded
        shot(bob, "playnow-waiting-390x844")
        bob.keyboard.press("Enter")  # the focused Leave
        expect(bob.locator("#playnow-status")).to_have_text("You left the queue.")
        expect(bob.locator("#play-now")).to_be_focused()

        # Ann presses: she waits (nothing axe finds serious in the panel); then Bob again, and both are seated.
        choose_rated_duel(ann)
        ann.click("#play-now")
        expect(ann.locator("#playnow-waited")).to_be_visible()
        assert serious_violations(ann) == []
        expect(ann.locator("#playnow-status")).to_be_in_viewport()  # the panel in sight as it folded
        shot(ann, "playnow-waiting-1280x800")
        bob.click("#play-now")
        for page in (ann, bob):
            page.wait_for_url(re.compile(r"#/room/[A-Z0-9]{6}$"))
        assert ann.url.rsplit("/", 1)[-1] == bob.url.rsplit("/", 1)[-1]
        for page in (ann, bob):  # both came: the game starts without waiting out the 15 s
            page.wait_for_selector(".seat.mine")
            expect(page.locator(".seat")).to_have_count(2)
        assert {seat_of(ann), seat_of(bob)} == {0, 1}
        expect(ann.locator(f"#seat-{seat_of(bob)} .seat-name")).to_have_text("bob_pn")
        for page in (ann, bob):  # the table says it is rated, first of its chips (in sight on the phone too)
            expect(page.locator("#table-rules .chip").first).to_have_text("Rated")
            expect(page.locator("#table-rules .chip").first).to_be_visible()

        # Ann steps away to the Play page: on Bob's phone her seat says she is away, in words he can read (not
        # only the dot the delay gets there). Pressing Play now there, she is told she sits at a table already.
        ann_seat = seat_of(ann)
        ann.evaluate("location.hash = '#/'")
        away = bob.locator(f"#seat-{ann_seat} .seat-net")
        expect(away).to_have_text(re.compile(r"^away"))
        assert away.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)") >= 10  # its words drawn
        assert away.evaluate("(el) => el.getBoundingClientRect().height") >= 10
        shot(bob, "playnow-away-390x844")
        ann.click("#play-now")
        expect(ann.locator("#playnow-error")).to_contain_text("You already sit at a table")
        ann.click("#playnow-back")
        ann.wait_for_selector(".seat.mine")
        expect(away).not_to_have_text(re.compile(r"^away"))

        play_through(ann, bob)
        line = re.compile(r"^(ann|bob)_pn: 1100 → \d{3,4} \([+−]\d+\), provisional$")
        for page in (ann, bob):
            items = page.locator("#rating-changes li")
            expect(items).to_have_count(2)
            assert all(line.match(text) for text in items.all_inner_texts()), items.all_inner_texts()
            # Why a first game moves a rating so far is said under the lines.
            hint = page.locator("#rating-provisional-hint")
            expect(hint).to_contain_text("starts at 1100")  # the win's +138 against the loss's −73, too
            expect(hint).to_contain_text("a win lifts it more than a loss lowers it")
            expect(page.locator("#rematch")).to_have_count(0)  # a Play-now table plays one game
            expect(page.locator("#play-now-again")).to_be_visible()
        assert (
            ann.locator("#rating-changes li").all_inner_texts() == bob.locator("#rating-changes li").all_inner_texts()
        )
        shot(ann, "playnow-summary-1280x800")
        shot(bob, "playnow-summary-390x844")

        # "Play now again" on the phone queues at once with the same choices, the waiting panel in sight (on a
        # phone it sits two screens down the Play page).
        bob.click("#play-now-again")
        expect(bob.locator("#playnow-status")).to_have_text("Looking for players: 2 players, rated, Standard.")
        expect(bob.locator("#playnow-status")).to_be_in_viewport()
        expect(bob.locator("#playnow-leave")).to_be_in_viewport()
        bob.click("#playnow-leave")
        expect(bob.locator("#playnow-status")).to_have_text("You left the queue.")

        # Both profiles show the game: the rating it made, one game played; the loser's names what they missed.
        # The table was dealt a sandwich (3 6 3) and two doubles (K K, 7 7) in its ten cards, and both players
        # only turned cards (harness/playnow.py's deal).
        ratings = RatingStore(short_server.data / "ratscrew.sqlite3")
        loser = None
        for page, name in ((ann, "ann_pn"), (bob, "bob_pn")):
            found = AccountStore(short_server.data / "ratscrew.sqlite3").find(name)
            assert found is not None
            (change,) = ratings.history(found[0].id, SizeClass.TWO)
            if change.place == 2:
                loser = page
            page.goto(f"{short_server.url}#/players/{name}")
            expect(page.locator("#profile-name")).to_have_text(name)
            expect(page.locator("#rating-2 .rating-number")).to_have_text(str(change.after.shown))
            expect(page.locator("#profile-games tbody tr")).to_have_count(1)
        assert loser is not None, "one of the two finished second"
        missed = loser.locator("#profile-patterns .missed-name")
        expect(missed.first).to_have_text("Double")
        assert missed.all_inner_texts() == ["Double", "Sandwich"], missed.all_inner_texts()
        shot(loser, "playnow-loser-profile")
    finally:
        ann.context.close()
        bob.context.close()
    assert errors == []

    path = short_server.data / "ratscrew.sqlite3"
    accounts, ratings = AccountStore(path), RatingStore(path)
    for name in ("ann_pn", "bob_pn"):
        found = accounts.find(name)
        assert found is not None
        standing = ratings.standings(found[0].id)[SizeClass.TWO]
        assert standing.games == 1 and standing.rating.shown != 1100


def test_a_rated_table_whose_accounts_were_deleted_mid_game_says_no_rating_changed(
    browser: Browser, short_server: Server
) -> None:
    # Not "The ratings are being updated…" for ever: the end is settled, with nobody's rating to move.
    errors: list[str] = []
    cy = signed_in(browser, short_server, "cy_pn", errors, width=1280, height=800, touch=False)
    di = signed_in(browser, short_server, "di_pn", errors, width=390, height=844, touch=True)
    try:
        for page in (cy, di):
            choose_rated_duel(page)
            page.click("#play-now")
        for page in (cy, di):
            page.wait_for_selector(".seat.mine")
        accounts = AccountStore(short_server.data / "ratscrew.sqlite3")
        for name in ("cy_pn", "di_pn"):
            found = accounts.find(name)
            assert found is not None
            accounts.delete(found[0])
        play_through(cy, di)
        for page in (cy, di):
            expect(page.locator("#rating-changes")).to_contain_text("No rating changed")
            expect(page.locator("#rating-changes li")).to_have_count(0)
    finally:
        cy.context.close()
        di.context.close()
    assert errors == []


def test_the_summary_says_why_a_player_a_computer_stood_in_for_finished_last(
    browser: Browser, short_server: Server
) -> None:
    # The server marks such a seat ``left`` (tests/web/test_playnow_tables.py); here Ev's page is told so of the
    # second seat, as it would be after its player came back from 15 s away (too long for this test to wait).
    errors: list[str] = []
    ev = signed_in(browser, short_server, "ev_pn", errors, width=390, height=844, touch=True)
    fi = signed_in(browser, short_server, "fi_pn", errors, width=1280, height=800, touch=False)

    def mark_second_seat_left(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def from_server(message: str | bytes) -> None:
            doc = json.loads(message) if isinstance(message, str) and message.startswith("{") else None
            if doc is not None and doc.get("type") == "rated":
                for change in doc["changes"]:
                    change["left"] = change["seat"] == 1
                message = json.dumps(doc)
            ws.send(message)

        server.on_message(from_server)

    ev.route_web_socket("**/ws/**", mark_second_seat_left)
    try:
        for page in (ev, fi):
            choose_rated_duel(page)
            page.click("#play-now")
        for page in (ev, fi):
            page.wait_for_selector(".seat.mine")
        second = ev.locator("#seat-1 .seat-name").inner_text()
        play_through(ev, fi)
        expect(ev.locator("#rating-changes li")).to_have_count(2)
        expect(ev.locator("#rating-left-hint")).to_have_text(re.compile(rf"^{second}: left the table.*last place"))
        expect(fi.locator("#rating-changes li")).to_have_count(2)
        expect(fi.locator("#rating-left-hint")).to_have_count(0)  # nobody left: nothing said
    finally:
        ev.context.close()
        fi.context.close()
    assert errors == []


def test_a_guest_who_waited_twenty_seconds_plays_with_computers_instead(browser: Browser, short_server: Server) -> None:
    page, errors = open_page(browser, short_server.url, lang="de", width=390, height=844, touch=True)
    try:
        expect(page.locator("#playnow-rated")).to_be_hidden()  # a guest: rated games need an account
        expect(page.locator("#playnow-sign-in-link")).to_have_attribute("href", "#/sign-in")
        page.fill("#playnow-name", "Zoé")
        page.check("#playnow-size-3-4")  # nobody else waits for a table of three or four here
        page.click("#play-now")
        expect(page.locator("#playnow-status")).to_have_text(
            "Suche nach Mitspielern: 3 oder 4 Spieler, ungewertet, Standard."
        )
        computers = page.locator("#playnow-computers")
        expect(computers).to_be_visible(timeout=90_000)  # after 20 s of waiting
        offer = "Noch ist sonst niemand gekommen: Computerspieler können die freien Plätze besetzen"
        expect(page.locator("#playnow-status")).to_contain_text(offer)
        page.wait_for_timeout(2500)  # the page asks again twice: the offer is still said, not taken back
        expect(page.locator("#playnow-status")).to_contain_text(offer)
        computers.click()
        page.wait_for_url(re.compile(r"#/room/[A-Z0-9]{6}$"))
        page.wait_for_selector("#seat-0.mine")  # alone with the computers: the game starts at once
        expect(page.locator(".seat")).to_have_count(3)
        expect(page.locator("#seat-0 .seat-name")).to_have_text("Zoé")
        expect(page.locator("#table-rules .chip").first).to_have_text("Ungewertet")
        room = page.url

        # Back on the Play page while seated, she presses Play now: the panel says why nothing is looked for,
        # beside the way back to her table.
        page.evaluate("location.hash = '#/'")
        expect(page.locator("#playnow-back")).to_be_visible()
        page.click("#play-now")
        expect(page.locator("#playnow-error")).to_have_text(
            "Du sitzt schon an einem Tisch, daher wird kein anderer gesucht: "
            "spiel erst diese Partie zu Ende oder kehr zu ihr zurück."
        )
        expect(page.locator("#playnow-error")).to_be_in_viewport()
        page.click("#playnow-back")
        page.wait_for_url(room)
        page.wait_for_selector("#seat-0.mine")
        assert errors == []
    finally:
        page.context.close()


def test_a_waiting_page_says_when_the_sites_shared_queue_is_away_and_goes_on_once_it_is_back(
    browser: Browser, short_server: Server
) -> None:
    # Behind several workers the queue lives in Redis; while Redis is away the routes answer 503 with the code
    # "queue_away" (tests/hosting/test_hosting_playnow.py): here the page gets those answers as that site sends them.
    away = {"error": "the Play-now queue is out of reach for a moment", "code": "queue_away"}
    page, errors = open_page(browser, short_server.url, lang="fr", width=390, height=844, touch=True)
    status = page.locator("#playnow-status")
    try:
        page.fill("#playnow-name", "Inès")
        page.check("#playnow-size-3-4")
        page.click("#play-now")
        waiting = "Recherche de joueurs"
        expect(status).to_contain_text(waiting)
        page.route("**/api/playnow/where", lambda route: route.fulfill(status=503, json=away))
        expect(status).to_have_text(
            "La file d'attente est injoignable pour un moment. "
            "Votre place est gardée tant que cette page reste ouverte."
        )
        expect(page.locator("#playnow-leave")).to_be_visible()  # still waiting: the place is kept
        page.unroute("**/api/playnow/where")
        expect(status).to_contain_text(waiting)  # back: the wait goes on where it was
        page.click("#playnow-leave")
        # A press while it is away is refused in words, with a retry in a few seconds.
        page.route("**/api/playnow/join", lambda route: route.fulfill(status=503, json=away))
        page.click("#play-now")
        expect(page.locator("#playnow-error")).to_have_text(
            "La file d'attente est injoignable pour un moment\u00a0: réessayez dans quelques secondes."
        )
        assert errors == []
    finally:
        page.context.close()
