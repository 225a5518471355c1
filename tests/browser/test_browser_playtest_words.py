"""Three small things first-time players met, in Debian's Chromium against a real server, in each language:
Learn speaks of settings by their names (the rules keys are the command line's), a file that is not a record is
explained in the page's language, and a name field says its limit when it is reached. A screenshot of each case
goes to test-artifacts/playtest/ for a person to see.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FilePayload, Page, Route, expect

from harness.browser import open_page
from harness.records import EXAMPLE_RECORD
from harness.server import Server
from ratscrew.i18n import LANGUAGES, catalog
from ratscrew.learn.words import Texts, option_label
from ratscrew.rules import OPTIONS_BY_KEY

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "playtest"
A_KEY = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in OPTIONS_BY_KEY) + r")(?![\w])")


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled", full_page=full_page)


def learn_page(page: Page, hash_: str, ready: str) -> str:
    """Everything a player can read on a Learn page, folded answers and hover titles included, one text node
    a line (so a word never runs into the next element's)."""
    page.evaluate("hash => { location.hash = hash; }", hash_)
    page.wait_for_selector(f".learn-content {ready}")
    page.wait_for_selector(".learn-content:not([aria-busy])")
    return str(
        page.evaluate(
            """() => {
                const content = document.querySelector('.learn-content');
                const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
                const texts = [];
                while (walker.nextNode()) texts.push(walker.currentNode.textContent);
                const titles = [...content.querySelectorAll('[title]')].map((el) => el.getAttribute('title'));
                return [...texts, ...titles].join('\\n');
            }"""
        )
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_learn_names_settings_in_words_never_by_their_rules_keys(
    browser: Browser, live_server: Server, lang: str
) -> None:
    """Under rules that change some settings (so the cheat sheet lists them and the chips are marked), no Learn
    page shows a rules key such as "players.slap_in"; the questions name the setting as the setup page does."""
    page, errors = open_page(browser, live_server.url, lang=lang, width=390, height=844)
    tr = Texts(lang)
    try:
        page.evaluate("() => localStorage.setItem('ratscrew.learn.preset', 'out-is-out')")
        for hash_, ready in (
            ("#/learn", ".house-table"),
            ("#/learn/cheatsheet", ".cs-changed li"),
            ("#/learn/faq", ".faq-list"),
        ):
            text = learn_page(page, hash_, ready)
            assert A_KEY.findall(text) == [], hash_
            shot(page, f"learn-words-{hash_.strip('#/').replace('/', '-')}-{lang}")
        named = tr("learn.ui.setting_named", name=option_label(tr, "players.slap_in"))
        assert named in text
    finally:
        page.context.close()
    assert errors == []


def choose_file(page: Page, name: str, doc: object) -> str:
    """Choose a file on the history page as a player does; what the page then says is wrong with it."""
    page.evaluate("() => { location.hash = '#/history'; }")
    page.wait_for_selector("#record-file")
    payload: FilePayload = {"name": name, "mimeType": "application/json", "buffer": json.dumps(doc).encode()}
    page.set_input_files("#record-file", files=[payload])
    said = page.locator("#file-error:not([hidden]), #replay-status.error-box")
    said.wait_for()
    return said.inner_text()


@pytest.mark.parametrize(("lang", "width", "height"), [(lang, 390, 844) for lang in LANGUAGES] + [("fr", 1280, 800)])
def test_a_file_that_is_not_a_valid_record_is_explained_in_the_players_language(
    browser: Browser, live_server: Server, lang: str, width: int, height: int
) -> None:
    """JSON of another format is told as no game record, with the format a record has; a record the server's
    check refuses keeps the check's detail inside a sentence in the player's language saying what was expected."""
    page, errors = open_page(browser, live_server.url, lang=lang, width=width, height=height)
    words = catalog(lang)
    try:
        said = choose_file(page, "other.json", {"format": "something-else/1"})
        assert said == words["replay.not_record"].replace("{format}", "ratscrew-record/1")
        shot(page, f"record-not-a-record-{lang}-{width}")
        damaged = {"format": "ratscrew-record/1", "players": ["Ann", "Ben"], "seed": 7, "actions": ["jump"]}
        said = choose_file(page, "damaged.json", damaged)
        before, after = words["replay.bad_record"].split("{error}")
        assert said.startswith(before) and said.endswith(after), said
        assert '"jump"' in said  # the check's own detail, kept
        shot(page, f"record-damaged-{lang}-{width}")
    finally:
        page.context.close()
    assert errors == []


def check_name_limit(page: Page, field: str, lang: str, limit: int = 24) -> None:
    """Type a name to the limit and past it, then paste one too long: the field keeps its `limit` characters and
    the line tied to it says the limit, in a live region, each time something could not be added."""
    words = catalog(lang)
    full, cut = (words[f"app.name_{k}"].replace("{n}", str(limit)) for k in ("full", "cut"))
    box, note = page.locator(field), page.locator(f"{field}-limit")
    assert note.get_attribute("aria-live") == "polite"
    assert f"{field[1:]}-limit" in (box.get_attribute("aria-describedby") or "").split()
    box.fill("")
    box.click()
    page.keyboard.insert_text("A" * (limit - 1))
    expect(note).to_have_text("")
    page.keyboard.type("B")
    expect(note).to_have_text(full)
    page.keyboard.type("C")  # refused: the field is full
    expect(note).to_have_text(cut)
    assert box.input_value() == "A" * (limit - 1) + "B"
    page.keyboard.press("Backspace")
    expect(note).to_have_text("")
    box.fill("")
    page.keyboard.insert_text("Z" * (limit + 6))  # as a paste or a dictation arrives
    expect(note).to_have_text(cut)
    assert box.input_value() == "Z" * limit


@pytest.mark.parametrize(("lang", "width", "height"), [(lang, 390, 844) for lang in LANGUAGES] + [("de", 1280, 800)])
def test_a_name_field_says_its_limit_when_reached_and_when_text_is_cut(
    browser: Browser, live_server: Server, lang: str, width: int, height: int
) -> None:
    """The setup page's player names, Play now's guest name, the online name and a room's name field."""
    page, errors = open_page(browser, live_server.url, lang=lang, width=width, height=height)
    try:
        for field in ("#seat-name-0", "#online-name", "#playnow-name"):
            check_name_limit(page, field, lang)
            page.locator(field).evaluate("el => el.scrollIntoView({ block: 'center' })")
            shot(page, f"name-limit-{field[1:]}-{lang}-{width}", full_page=False)
        status, body = live_server.post("/api/rooms", {"seats": 2, "name": "Ann", "public": False})
        assert status == 200, body
        code, token = body["code"], body["token"]
        page.evaluate("([code, token]) => localStorage.setItem(`ratscrew.seat.${code}`, token)", [code, token])
        page.evaluate("code => { location.hash = `#/room/${code}`; }", code)
        page.wait_for_selector("#room-seat-0.mine")
        check_name_limit(page, "#room-name", lang)
        page.locator("#room-name").evaluate("el => el.scrollIntoView({ block: 'center' })")
        shot(page, f"name-limit-room-name-{lang}-{width}", full_page=False)
    finally:
        page.context.close()
    assert errors == []


# Each player row of the score keeper's form and what lies in it: [row, field, remove button, note] boxes.
ROW_BOXES = """() => [...document.querySelectorAll('.sk-player-row')]
  .map((row) => ['', 'input', '.sk-remove', '.limit-note'].map((sel) => {
    const el = sel ? row.querySelector(sel) : row;
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, shown: el.getClientRects().length > 0,
      clipped: el.scrollWidth > el.clientWidth + 1 }; }))"""


@pytest.mark.parametrize(("lang", "width", "height"), [("de", 390, 844), ("fr", 390, 844), ("en", 1280, 800)])
def test_the_score_keepers_name_fields_say_their_limit_inside_their_rows(
    browser: Browser, live_server: Server, lang: str, width: int, height: int
) -> None:
    """The score keeper's player names stopped at 24 characters without a word: they say it as the other name
    fields do, on a line under the field inside its row (clear of the next row, beside it at 1280 px), and so
    does the match's name at its 60."""
    page, errors = open_page(browser, f"{live_server.url}#/scores", lang=lang, width=width, height=height)
    try:
        page.wait_for_selector("#sk-player-1")
        page.click(".sk-add")  # a third row: the ids stay apart
        for field in ("#sk-player-0", "#sk-player-2"):
            check_name_limit(page, field, lang)
        check_name_limit(page, "#sk-match-name", lang, limit=60)
        rows = page.evaluate(ROW_BOXES)
        row, field, remove, note = rows[0]
        assert note["shown"] and not note["clipped"]
        assert note["top"] >= field["bottom"] - 1 and note["bottom"] <= row["bottom"] + 1
        assert row["left"] - 1 <= note["left"] and note["right"] <= row["right"] + 1
        assert remove["right"] <= row["right"] + 1 and field["right"] <= remove["left"]
        for a, b in itertools.pairwise(rows):  # no row runs into the next, in one column or in two
            assert a[0]["bottom"] <= b[0]["top"] + 1 or a[0]["right"] <= b[0]["left"] + 1, (a[0], b[0])
            if a[1]["right"] <= b[1]["left"]:  # side by side: the fields stay level, whatever the notes under them
                assert abs(a[1]["top"] - b[1]["top"]) <= 1, (a[1], b[1])
        page.locator("#sk-player-0").evaluate("el => el.scrollIntoView({ block: 'center' })")
        shot(page, f"name-limit-score-keeper-{lang}-{width}", full_page=False)
    finally:
        page.context.close()
    assert errors == []


def replay_said(page: Page, id_: str) -> str:
    """What the replay of game `id_` says once it has given up."""
    page.evaluate("id => { location.hash = `#/replay/${id}`; }", id_)
    said = page.locator(".replay .error-box:not([hidden]), #replay-status.error-box")
    said.first.wait_for()
    return said.first.inner_text()


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_answer_the_replay_of_a_game_can_get_is_said_in_the_players_language(
    browser: Browser, live_server: Server, lang: str
) -> None:
    """A replay opened by its game's code once showed the server's English (or "Internal Server Error") for all
    but an unknown code. Each answer the server or a proxy may give, forced with page.route, is said in the
    player's words with what to do: for the record, then for the steps, at the first page and at a later one."""
    page, errors = open_page(browser, live_server.url, lang=lang)
    words = catalog(lang)
    english = "the server's own English line"
    record = dict(EXAMPLE_RECORD, actions=["flip", "flip"] + ["wait"] * 1100)  # two pages of steps
    answer: dict[str, object] = {}

    def games(route: Route) -> None:
        if answer.get("on") == "record":
            route.fulfill(status=int(str(answer["status"])), content_type="application/json", body=str(answer["body"]))
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(record))

    def steps(route: Route) -> None:
        failing = answer.get("on") == "first" or (answer.get("on") == "later" and "start=0" not in route.request.url)
        if failing:
            route.fulfill(status=int(str(answer["status"])), content_type="application/json", body=str(answer["body"]))
        else:
            route.continue_()

    page.route("**/api/games/*/record", games)
    page.route("**/api/replay?*", steps)
    body = json.dumps({"error": english})
    cases = [
        ("record", 404, body, catalog_text(words, "replay.missing", id="K7Q2M4-1")),
        ("record", 409, body, catalog_text(words, "replay.error.live", id="K7Q2M4-1")),
        ("record", 429, body, catalog_text(words, "replay.error.too_many")),
        ("record", 503, body, catalog_text(words, "replay.error.busy")),
        ("record", 500, body, catalog_text(words, "replay.error.server", status=500)),
        ("record", 502, "<html>Bad Gateway</html>", catalog_text(words, "replay.error.server", status=502)),
        ("first", 400, body, catalog_text(words, "replay.error.refused", id="K7Q2M4-1")),
        ("first", 429, body, catalog_text(words, "replay.error.too_many")),
        ("first", 500, body, catalog_text(words, "replay.error.server", status=500)),
        ("first", 504, "", catalog_text(words, "replay.error.server", status=504)),
    ]
    try:
        for on, status, text, expected in cases:
            answer.update(on=on, status=status, body=text)
            page.goto(f"{live_server.url}#/")  # away and back: the replay starts over
            page.wait_for_selector("body[data-ready=true]")
            assert replay_said(page, "K7Q2M4-1") == expected, (on, status)
        answer.update(on="later", status=503, body=body)
        page.goto(f"{live_server.url}#/")
        page.wait_for_selector("body[data-ready=true]")
        page.evaluate("() => { location.hash = '#/replay/K7Q2M4-1'; }")
        page.wait_for_selector("#replay[data-ready=true]")
        page.click("#replay-slider")
        page.keyboard.press("End")  # the last steps are on the second page, which fails
        shown = page.locator("#replay-status")
        expect(shown).to_have_text(catalog_text(words, "replay.error.busy"))
        shot(page, f"replay-error-later-page-{lang}", full_page=False)
        answer.clear()  # the server answers again: the step comes, and the complaint goes
        page.keyboard.press("Home")
        expect(shown).to_be_hidden()
        page.context.set_offline(True)  # no network at all
        page.keyboard.press("End")
        expect(shown).to_have_text(words["app.offline"])
        page.context.set_offline(False)
    finally:
        page.context.close()
    assert errors == []


def catalog_text(words: dict[str, str], key: str, **values: object) -> str:
    """A catalog's text with its placeholders filled, as the page's t() fills them."""
    text = words[key]
    for name, value in values.items():
        text = text.replace(f"{{{name}}}", str(value))
    return text
