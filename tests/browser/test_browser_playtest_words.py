"""Three small things first-time players met, in Debian's Chromium against a real server, in each language:
Learn speaks of settings by their names (the rules keys are the command line's), a file that is not a record is
explained in the page's language, and a name field says its limit when it is reached. A screenshot of each case
goes to test-artifacts/playtest/ for a person to see.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from harness.browser import open_page
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


def check_name_limit(page: Page, field: str, lang: str) -> None:
    """Type a name to the limit and past it, then paste one too long: the field keeps its 24 characters and the
    line tied to it says the limit, in a live region, each time something could not be added."""
    words = catalog(lang)
    full, cut = (words[f"app.name_{k}"].replace("{n}", "24") for k in ("full", "cut"))
    box, note = page.locator(field), page.locator(f"{field}-limit")
    assert note.get_attribute("aria-live") == "polite"
    assert f"{field[1:]}-limit" in (box.get_attribute("aria-describedby") or "").split()
    box.fill("")
    box.click()
    page.keyboard.type("A" * 23)
    expect(note).to_have_text("")
    page.keyboard.type("B")
    expect(note).to_have_text(full)
    page.keyboard.type("C")  # refused: the field is full
    expect(note).to_have_text(cut)
    assert box.input_value() == "A" * 23 + "B"
    page.keyboard.press("Backspace")
    expect(note).to_have_text("")
    box.fill("")
    page.keyboard.insert_text("Z" * 30)  # as a paste or a dictation arrives
    expect(note).to_have_text(cut)
    assert box.input_value() == "Z" * 24


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
