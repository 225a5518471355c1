"""Every page and the live table fit the screen: phone, phone on its side, tablet, laptop and desktop, in each
language. One browser page per language walks through the pages and only changes its viewport between sizes,
so the whole module stays quick. A screenshot of each case goes to test-artifacts/layout/ for a person to see.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute

from harness.browser import open_page, serious_violations, until
from harness.server import Server
from ratscrew.i18n import catalog

SIZES = [(360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800), (1920, 1080)]
LANGS = ["en", "fr", "de"]
# Learn's and Drills' own pages: each is laid out in one language at every size (a language each, in turn).
SUBPAGES = ["#/learn/cheatsheet", "#/learn/cards", "#/learn/faq", "#/drills/debt", "#/drills/slap", "#/drills/stream"]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "layout"
# On an upright phone the pile takes the room the felt leaves: at least one and a half times the 66 px it had.
PHONE_PILE_PX = 99
# Elements that show a person's or a thing's name: each shows it whole, or shortens it and says it in a title.
NAMES = ".seat-name, .pad-name, .room-seat-name, .replay-name, .dr-seat-name, .sk-tile-name, .sk-preset-name"
# Long names in three scripts' worth of width: the table must still show them (or shorten them with a title).
PEOPLE = [
    "Maximiliane-Josephine",
    "Bo",
    "Computer 3",
    "Jean-Baptiste Lefèvre",
    "Ümit",
    "Anastasia Romanova",
    "Li",
    "Friedrich-Wilhelm",
    "Zoë",
    "Christophe",
    "Konstantin",
    "Wilhelmina van Dijk",
]

MEASURE = """names => {
  const doc = document.documentElement;
  const clipped = [...document.querySelectorAll(names)]
    .filter(el => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1)
    .filter(el => (el.getAttribute('title') || '').trim() !== el.textContent.trim())
    .map(el => el.textContent);
  return { scrollWidth: doc.scrollWidth, width: doc.clientWidth, clipped };
}"""

# Nav links and rule chips as the eye finds them: each whole (its text not cut inside it: scrollWidth against
# clientWidth), and wholly inside the row that shows it and across the window (not scrolled or pushed out of
# sight, nor under the clock beside the chips). A chip row that shows fewer chips than it has says so in a button.
CLIPPED = """() => {
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1
    && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const view = { left: 0, right: document.documentElement.clientWidth };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const problems = [];
  const rows = [...document.querySelectorAll('.mainnav, .rule-chips')].filter(shown);
  for (const row of rows) {
    const box = row.getBoundingClientRect();
    const clock = row.parentElement.querySelector(':scope > .clock');
    for (const item of row.querySelectorAll(':scope > a, :scope > .chip')) {
      if (!shown(item)) continue;
      const r = item.getBoundingClientRect();
      const what = `${item.tagName === 'A' ? 'link' : 'chip'} "${item.textContent.trim()}"`;
      const underClock = clock && shown(clock) && r.right > clock.getBoundingClientRect().left;
      const cut = item.scrollWidth > item.clientWidth + 1;
      if (cut) problems.push(`${what} cut inside (${item.scrollWidth} in ${item.clientWidth} px)`);
      else if (!inside(r, box)) problems.push(`${what} out of its row`);
      else if (r.left < view.left - 1 || r.right > view.right + 1) problems.push(`${what} out of the window`);
      else if (underClock) problems.push(`${what} under the clock`);
    }
  }
  return problems;
}"""

BOX = """selector => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}"""
BOXES = """() => {
  const box = el => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return {
    viewport: [window.innerWidth, window.innerHeight],
    felt: document.querySelector('.felt').clientWidth,
    pile: box(document.querySelector('#pile')),
    // Where the pile's cards reach, tilted and moved as far as pile.js ever lays them (14°, 9 px).
    reach: (() => {
      const [l, t, r, b] = box(document.querySelector('#pile'));
      const w = r - l, side = 0.155 * w + 9, up = 0.1 * w + 5;
      return [l - side, t - up, r + side, b + up];
    })(),
    mine: box(document.querySelector('.seat.mine')),
    buttons: [...document.querySelectorAll('.flip-button, .slap-button')].map(box),
    seats: [...document.querySelectorAll('.seat')].map(box),
  };
}"""


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def settle(page: Page) -> None:
    """Wait until the page has drawn what it fetched (and the fonts and style sheets it loaded)."""
    page.wait_for_load_state("networkidle")
    page.wait_for_function("document.querySelector('#view').children.length > 0 && document.fonts.status === 'loaded'")
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(60)


def go(page: Page, hash_: str) -> None:
    page.evaluate("hash => { location.hash = hash; }", hash_)
    page.wait_for_function("hash => location.hash === hash", arg=hash_)
    settle(page)


def check_fits(page: Page, case: str) -> list[str]:
    """What does not fit: the page wider than the screen, names cut short with no title."""
    found: dict[str, Any] = page.evaluate(MEASURE, NAMES)
    problems = []
    if found["scrollWidth"] > found["width"]:
        problems.append(f"{case}: {found['scrollWidth']} px wide in {found['width']} px")
    if found["clipped"]:
        problems.append(f"{case}: names cut with no title: {found['clipped']}")
    off = page.evaluate(
        "[...document.querySelectorAll('.mainnav a')].filter((a) => a.getClientRects().length"
        " && a.getBoundingClientRect().right > window.innerWidth + 1).map((a) => a.textContent)"
    )
    if off:
        problems.append(f"{case}: links off the screen: {off}")
    problems += [f"{case}: {problem}" for problem in page.evaluate(CLIPPED)]
    return problems


def inside(box: list[float] | None, width: float, height: float, slack: float = 1) -> bool:
    return (
        box is not None
        and box[0] >= -slack
        and box[1] >= -slack
        and box[2] <= width + slack
        and box[3] <= height + slack
    )


def overlap(a: list[float], b: list[float]) -> float:
    """The area two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def check_table(page: Page, case: str) -> list[str]:
    """The page fits, and the pile, your seat and your two buttons are all on the screen at once; no seat
    covers another or the pile."""
    problems = check_fits(page, case)
    found: dict[str, Any] = page.evaluate(BOXES)
    width, height = found["viewport"]
    if len(found["buttons"]) != 2:
        problems.append(f"{case}: {len(found['buttons'])} buttons")
    for what, box in [("the pile", found["pile"]), ("your seat", found["mine"])] + [
        ("a button", b) for b in found["buttons"]
    ]:
        if not inside(box, width, height):
            problems.append(f"{case}: {what} is off the screen: {box}")
    seats = found["seats"]
    for i, a in enumerate(seats):
        if overlap(a, found["pile"]) > 0:
            problems.append(f"{case}: seat {i} covers the pile")
        elif overlap(a, found["reach"]) > 0 and found["pile"][2] - found["pile"][0] > 0.18 * found["felt"] + 1:
            # (Where the pile took the room the seats leave it, its cards' reach is clear of them too; a pile
            # no bigger than the 18% of the felt's width it always had is kept clear of its own box only.)
            problems.append(f"{case}: seat {i} covers where the pile's cards reach")
        problems += [f"{case}: seats {i} and {j} overlap" for j in range(i + 1, len(seats)) if overlap(a, seats[j]) > 4]
    return problems


@pytest.fixture(scope="module")
def pages(browser: Browser, live_server: Server) -> Iterator[dict[str, Page]]:
    """One page per language, reused by every test here; script errors fail the module at the end."""
    opened: dict[str, Page] = {}
    errors: dict[str, list[str]] = {}
    for lang in LANGS:
        opened[lang], errors[lang] = open_page(
            browser, live_server.url, lang=lang, width=SIZES[0][0], height=SIZES[0][1]
        )
    try:
        yield opened
    finally:
        for page in opened.values():
            page.context.close()
    assert not any(errors.values()), errors


def new_room(live_server: Server) -> tuple[str, str]:
    status, body = live_server.post("/api/rooms", {"seats": 4, "name": PEOPLE[0], "public": False})
    assert status == 200, body
    return body["code"], body["token"]


def new_game(live_server: Server, players: int) -> tuple[str, str]:
    """A game of one person against ``players - 1`` computers playing at a leisurely pace, with long names."""
    seats: list[dict[str, Any]] = [{"kind": "human", "name": PEOPLE[0]}]
    seats += [{"kind": "bot", "name": PEOPLE[i], "level": "easy"} for i in range(1, players)]
    status, body = live_server.post("/api/games", {"seats": seats, "rules": "standard", "bot_pace": 4})
    assert status == 200, body
    return body["id"], body["token"]


def sit(page: Page, code: str, token: str) -> None:
    page.evaluate("([code, token]) => localStorage.setItem(`ratscrew.seat.${code}`, token)", [code, token])


def start_match(page: Page) -> str:
    """A score keeper's match with long names and one round played; the address of its page."""
    go(page, "#/scores")
    names = page.locator(".sk-player-row input")
    names.nth(0).fill(PEOPLE[0])
    names.nth(1).fill(PEOPLE[3])
    page.click(".sk-start")
    page.wait_for_selector(".sk-tile")
    page.keyboard.press("1")
    page.wait_for_function("[...document.querySelectorAll('.sk-tile .sk-tile-wins')].some(e => e.textContent === '1')")
    return str(page.evaluate("location.hash"))


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_fits_every_size(pages: dict[str, Page], live_server: Server, lang: str) -> None:
    page = pages[lang]
    code, token = new_room(live_server)
    sit(page, code, token)
    routes = {
        "play": "#/",
        "room": f"#/room/{code}",
        "learn": "#/learn",
        "drills": "#/drills",
        "scores": "#/scores",
        "history": "#/history",
        "leaderboard": "#/leaderboard",
    }
    for i, hash_ in enumerate(SUBPAGES):
        if LANGS[i % len(LANGS)] == lang:
            routes[hash_.removeprefix("#/").replace("/", "-")] = hash_
    problems: list[str] = []
    routes["match"] = ""  # a score keeper's match, started when its turn comes
    for name, hash_ in routes.items():
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        go(page, hash_ or start_match(page))
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            case = f"{lang}-{name}-{width}x{height}"
            shot(page, case)
            problems += check_fits(page, case)
            if name == "play" and not inside(page.evaluate(BOX, "#start-game"), width, height):
                problems.append(f"{case}: the start button is below the fold")
    go(page, "#/")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("players", [2, 4, 12])
@pytest.mark.parametrize("lang", LANGS)
def test_the_table_fits_every_size(pages: dict[str, Page], live_server: Server, lang: str, players: int) -> None:
    page = pages[lang]
    game_id, token = new_game(live_server, players)
    sit(page, game_id, token)
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    go(page, f"#/game/{game_id}")
    page.wait_for_selector(".seat.mine")
    page.wait_for_function("document.querySelector('#status-line').textContent.length > 0")
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        case = f"{lang}-game{players}-{width}x{height}"
        shot(page, case)
        problems += check_table(page, case)
        pile = page.evaluate(BOX, "#pile")
        if (width, height) == (390, 844) and players <= 4 and pile[2] - pile[0] < PHONE_PILE_PX:
            problems.append(f"{case}: the pile is {pile[2] - pile[0]:.0f} px wide, under {PHONE_PILE_PX}")
    go(page, "#/")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_an_online_room_at_the_table_fits_every_size(pages: dict[str, Page], live_server: Server, lang: str) -> None:
    """The room's own header sits above the table: the pile, your seat and your buttons still fit."""
    page = pages[lang]
    seats = 3 + LANGS.index(lang) * 3  # 3, 6 and 9 seats
    status, body = live_server.post("/api/rooms", {"seats": seats, "name": PEOPLE[0]})
    assert status == 200, body
    sit(page, body["code"], body["token"])
    page.set_viewport_size({"width": 1280, "height": 800})
    go(page, f"#/room/{body['code']}")
    for seat in range(1, seats):
        page.select_option(f"#bot-{seat}", "easy")
    page.click("#ready-button")
    page.click("#start-button")
    page.wait_for_selector(".room.at-table .seat.mine")
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        case = f"{lang}-room{seats}-table-{width}x{height}"
        shot(page, case)
        problems += check_table(page, case)
    go(page, "#/")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("touch", [True, False])
def test_phones_and_two_on_one_screen_fit(browser: Browser, live_server: Server, touch: bool) -> None:
    """A touch screen gets bigger buttons (and, for two on one screen, a band at each end); a narrow window
    with a mouse does not. Both fit a game against eleven computers and a game of two on one screen."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=touch, is_mobile=touch)
    context.add_init_script("localStorage.setItem('ratscrew.lang', 'fr')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems: list[str] = []
    try:
        page.goto(live_server.url)
        page.wait_for_selector("body[data-ready=true]")
        game_id, token = new_game(live_server, 12)
        status, body = live_server.post(
            "/api/games", {"seats": [{"kind": "human", "name": PEOPLE[0]}, {"kind": "human", "name": PEOPLE[3]}]}
        )
        assert status == 200, body
        for kind, (code, key) in [("game12", (game_id, token)), ("local", (body["id"], body["token"]))]:
            sit(page, code, key)
            go(page, f"#/game/{code}")
            page.wait_for_selector(".seat.mine")
            for width, height in [(360, 640), (844, 390), (390, 844)]:
                page.set_viewport_size({"width": width, "height": height})
                settle(page)
                case = f"{'touch' if touch else 'mouse'}-{kind}-{width}x{height}"
                shot(page, case)
                found = check_table(page, case)
                if kind == "local":  # two pads of two buttons; the seats are both "mine"
                    found = [p for p in found if "buttons" not in p]
                problems += found
    finally:
        context.close()
    assert not errors, errors
    assert not problems, "\n".join(problems)


def test_seat_names_keep_the_whole_name_in_a_title(pages: dict[str, Page], live_server: Server) -> None:
    page = pages["en"]
    game_id, token = new_game(live_server, 12)
    sit(page, game_id, token)
    page.set_viewport_size({"width": 360, "height": 640})
    go(page, f"#/game/{game_id}")
    page.wait_for_selector(".seat.mine")
    titles = page.eval_on_selector_all(".seat-name", "els => els.map(e => e.getAttribute('title'))")
    assert titles == PEOPLE
    labels = json.dumps(
        page.eval_on_selector_all(".seat", "els => els.map(e => e.getAttribute('aria-label'))"), ensure_ascii=False
    )
    for person in PEOPLE:
        assert person in labels
    go(page, "#/")


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 800), ("de", 390, 844)])
def test_axe_finds_nothing_serious(
    pages: dict[str, Page], live_server: Server, lang: str, width: int, height: int
) -> None:
    page = pages[lang]
    page.set_viewport_size({"width": width, "height": height})
    code, token = new_room(live_server)
    sit(page, code, token)
    game_id, game_token = new_game(live_server, 4)
    sit(page, game_id, game_token)
    routes = ["#/", f"#/room/{code}", f"#/game/{game_id}"]
    if width > 1000:  # every page on a laptop; on a phone, the pages whose layout changes most
        routes += ["#/learn", *SUBPAGES, "#/drills", "#/scores", "#/history", ""]  # "": a score keeper's match
    problems: dict[str, list[str]] = {}
    for hash_ in routes:
        go(page, hash_ or start_match(page))
        if hash_.startswith("#/game/"):
            page.wait_for_selector(".seat.mine")
            page.wait_for_function("document.querySelector('#status-line').textContent.length > 0")
        found = serious_violations(page)
        if found:
            problems[hash_ or "match"] = found
    go(page, "#/")
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("lang", ["fr", "de"])  # the widest headings (English fits with room to spare)
def test_the_drill_results_fit_a_phone(pages: dict[str, Page], lang: str) -> None:
    """The timed drill's results, pattern by pattern, on an upright phone: no column cut off at the edge."""
    page = pages[lang]
    page.set_viewport_size({"width": 390, "height": 844})
    go(page, "#/drills/stream")
    page.check("input[name=speed][value=quick]")
    results = "document.querySelector('.results-table')"

    def run_once() -> None:
        page.locator(".drill-stage button.big").first.click()  # Start, or a new run
        for _ in range(60):  # slap every moment: each slappable card is caught (and the rest are wrong slaps)
            if page.evaluate(f"!!{results} || !!document.getElementById('results-h')"):
                break
            page.keyboard.press("j")
            page.wait_for_timeout(200)
        page.keyboard.press("Escape")
        page.wait_for_selector("#results-h")

    until(page, lambda: bool(page.evaluate(f"!!{results}")), "a run with a slappable card", act=run_once, every_ms=100)
    page.evaluate(f"{results}.scrollIntoView()")
    shot(page, f"{lang}-drill-results-390x844")
    found = page.evaluate(
        f"(() => {{ const t = {results}, wrap = t.parentElement;"
        " return [t.scrollWidth, wrap.clientWidth, t.getBoundingClientRect().right, window.innerWidth]; })()"
    )
    assert found[0] <= found[1] and found[2] <= found[3], f"the results table is {found[0]} px wide in {found[1]} px"
    go(page, "#/")


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_summary_fits_a_phone(pages: dict[str, Page], live_server: Server, lang: str) -> None:
    """The end-of-game summary on an upright phone: each player's name whole on one line with the computer's level
    beside it ("Computer 2 MEDIUM", not "Computer / 2 / MEDIUM"), and the figures no wider than the screen."""
    page = pages[lang]
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Player 1"}]
    seats += [{"kind": "bot", "name": f"Computer {n}", "level": "medium"} for n in range(2, 5)]
    rules = {"preset": "standard", "end": {"time_limit_s": 5}}  # the clock ends it, whoever plays
    status, body = live_server.post("/api/games", {"seats": seats, "rules": rules})
    assert status == 200, body
    sit(page, body["id"], body["token"])
    page.set_viewport_size({"width": 390, "height": 844})
    go(page, f"#/game/{body['id']}")
    page.wait_for_selector(".overlay-card .summary-table")
    shot(page, f"{lang}-summary-390x844")
    found: dict[str, Any] = page.evaluate(
        """() => {
          const table = document.querySelector('.overlay-card .summary-table');
          const rows = [...table.querySelectorAll('tbody tr')].map((tr) => {
            const name = tr.querySelector('th').firstElementChild;
            const badge = tr.querySelector('th .seat-badge');
            const lines = name.getClientRects().length;
            const level = badge ? badge.getBoundingClientRect().top - name.getBoundingClientRect().top : 0;
            return { name: name.textContent, lines, cut: name.scrollWidth > name.clientWidth, level };
          });
          return { rows, wide: table.parentElement.scrollWidth > table.parentElement.clientWidth };
        }"""
    )
    for row in found["rows"]:
        assert row["lines"] == 1 and not row["cut"], row
        assert abs(row["level"]) < 12, row  # the level on the name's line
    assert not found["wide"], found
    go(page, "#/")


UNCOVERED = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.top >= 0 && r.bottom <= window.innerHeight && (top === el || el.contains(top));
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_start_bar_never_hides_add_a_computer_player(pages: dict[str, Page], lang: str) -> None:
    """On a laptop (1280x800) the Deal bar stays at the foot of the screen: "Add a computer player" shows above it
    at first, and again after each seat it adds (the button moves down a row each time)."""
    page = pages[lang]
    page.set_viewport_size({"width": 1280, "height": 800})
    go(page, "#/")
    try:
        seats = 4
        while page.locator("#add-seat").count():
            assert page.evaluate(UNCOVERED, "#add-seat"), f"{lang}: the start bar covers the button with {seats} seats"
            page.click("#add-seat")
            seats += 1
        assert seats == 12
    finally:
        page.evaluate("localStorage.removeItem('ratscrew.setup')")  # the other tests see the usual four seats
        go(page, "#/history")
        go(page, "#/")


def slow_link(ws: WebSocketRoute) -> None:
    """The room's socket as a player on a slow link has it: every message that says whose link the table waits
    for names the first seat (this page's), with a 43 ms wait; the rest passes as the server sent it."""
    server = ws.connect_to_server()

    def waits(value: Any) -> Any:
        if isinstance(value, dict):
            value = {key: waits(item) for key, item in value.items()}
            if "waits_for" in value:
                value.update(waits_for=0, window_ms=43)
        return value

    def to_page(message: str | bytes) -> None:
        ws.send(json.dumps(waits(json.loads(message))) if isinstance(message, str) else message)

    ws.on_message(server.send)
    server.on_message(to_page)


# The room's header at the table: its title, chips and the reactions' button, each whole, in the window, none over
# another.
HEAD = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const head = document.querySelector('.room-head');
  const parts = [...head.querySelectorAll('h1, .chip, .react-opener')].filter((el) => el.getClientRects().length);
  const part = (el) => [el.textContent.trim() || el.id, box(el), el.scrollWidth > el.clientWidth + 1];
  return { head: box(head), parts: parts.map(part) };
}"""
# Where the last letter of each seat's name is drawn, against the box its name shows in: a name cut short must
# keep what tells it from its neighbours ("Computer 3", "Computer 4": the number).
NAME_ENDS = """() => [...document.querySelectorAll('.seat .seat-name')].map((el) => {
  const text = [...el.querySelectorAll('*')].length ? el.lastElementChild.firstChild : el.firstChild;
  const range = document.createRange();
  range.setStart(text, text.length - 1);
  range.setEnd(text, text.length);
  const last = range.getBoundingClientRect(), shown = el.getBoundingClientRect();
  // Inside the name's box both ways: a name wrapped onto lines cut by the seat (line-clamp) hides its end below.
  const inside = last.right <= shown.right + 1 && last.left >= shown.left - 1
    && last.bottom <= shown.bottom + 1 && last.top >= shown.top - 1;
  return [el.textContent, inside];
}).filter(([name]) => /[0-9]$/.test(name))"""


def check_room_head(page: Page, case: str) -> list[str]:
    found: dict[str, Any] = page.evaluate(HEAD)
    problems = []
    width = page.viewport_size["width"] if page.viewport_size else 0
    parts = found["parts"]
    for i, (what, box, cut) in enumerate(parts):
        if cut:
            problems.append(f"{case}: {what!r} cut inside its box")
        if box[0] < -1 or box[2] > width + 1 or box[2] > found["head"][2] + 1:
            problems.append(f"{case}: {what!r} out of the header or the window: {box}")
        problems += [
            f"{case}: {what!r} and {other!r} overlap" for other, box2, _ in parts[i + 1 :] if overlap(box, box2) > 1
        ]
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_a_room_after_a_reload_keeps_flip_and_slap_in_sight_on_a_phone(
    browser: Browser, live_server: Server, lang: str
) -> None:
    """A phone at a room's table, on a slow link (the table then says it waits for it, above the table): after a
    reload and after coming back by the room's link, the pile, the seat and Flip and Slap are all on the screen at
    once, the header's parts lie side by side, and each computer's name keeps its number."""
    page, errors = open_page(browser, live_server.url, lang=lang, width=390, height=844, touch=True)
    problems: list[str] = []
    try:
        page.route_web_socket("**/ws/**", slow_link)
        code, token = new_room(live_server)
        sit(page, code, token)
        go(page, f"#/room/{code}")
        for seat in range(1, 4):
            page.select_option(f"#bot-{seat}", "easy")
        page.click("#ready-button")
        page.click("#start-button")
        page.wait_for_selector(".room.at-table .seat.mine")
        for way in ("reload", "link"):
            if way == "reload":
                page.reload()
                page.wait_for_selector("body[data-ready=true]")
            else:
                go(page, "#/")
                go(page, f"#/room/{code}")
            page.wait_for_selector(".room.at-table .seat.mine")
            page.wait_for_selector("#room-wait:not([hidden])")
            for width, height in [(390, 844), (360, 640)]:
                page.set_viewport_size({"width": width, "height": height})
                settle(page)
                case = f"{lang}-room-{way}-{width}x{height}"
                shot(page, case)
                problems += check_table(page, case)
                problems += check_room_head(page, case)
                problems += [
                    f"{case}: {name!r} is cut before its end" for name, whole in page.evaluate(NAME_ENDS) if not whole
                ]
    finally:
        page.context.close()
    assert not errors, errors
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_computers_names_keep_their_numbers_on_a_phone(pages: dict[str, Page], live_server: Server, lang: str) -> None:
    """Five seats at 390 px (a crowd: narrow seats whose names may wrap), named as the Play page names them
    ("Computer 3", "Ordinateur 3", "Computer 4"),
    squeezed as the play-test saw them (a computer out of cards says so in two lines on its seat, and the seats
    narrow to about 60 px once cards are on the pile): a name cut short keeps its number, so no two look alike."""
    page = pages[lang]
    words = catalog(lang)
    seats: list[dict[str, Any]] = [{"kind": "human", "name": words["setup.player_n"].replace("{n}", "1")}]
    seats += [
        {"kind": "bot", "name": words["setup.computer_n"].replace("{n}", str(i)), "level": "medium"}
        for i in range(2, 6)
    ]
    status, body = live_server.post("/api/games", {"seats": seats, "rules": "standard", "bot_pace": 4})
    assert status == 200, body
    sit(page, body["id"], body["token"])
    page.set_viewport_size({"width": 390, "height": 844})
    go(page, f"#/game/{body['id']}")
    page.wait_for_selector(".seat.mine")
    page.evaluate(
        """words => {
          document.querySelector('#seat-2 .seat-state').textContent = words;
          const squeeze = Object.assign(document.createElement('style'), { id: 'squeeze' });
          squeeze.textContent = '.seat { max-width: 60px !important; }';
          document.head.append(squeeze);
        }""",
        words["table.empty.seat.slap_in"],
    )
    page.wait_for_timeout(60)
    shot(page, f"{lang}-names-squeezed-390x844")
    cut = [name for name, whole in page.evaluate(NAME_ENDS) if not whole]
    page.evaluate("document.querySelector('#squeeze').remove()")
    go(page, "#/")
    assert not cut, f"names cut before their number: {cut}"
