"""What a new player met at the table and around it (the play-test of issue #25), in Debian's Chromium against a
real server: pictures that draw without an emoji font, the network's absence said where the player looks, a card
limit told before it ends the game, the pause shown on the buttons and the clock. A screenshot of each case goes to
test-artifacts/playtest/ for a person to see.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page

from harness.browser import open_page
from harness.server import Server
from ratscrew.i18n import catalog

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "playtest"
REACTIONS = ["hi", "nice", "wow", "oops", "close", "wait", "gg"]
# Characters only a colour-emoji font draws (pictographs, dingbats, the stopwatch): without one, an empty box.
EMOJI = re.compile("[\U0001f000-\U0001faff\u2300-\u23ff\u2600-\u27bf\ufe0f]")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def room_at_table(page: Page, live_server: Server, seats: int = 2) -> str:
    """A room of this page's player and computers, its game started; its code."""
    status, body = live_server.post("/api/rooms", {"seats": seats, "name": "Ann", "public": False})
    assert status == 200, body
    code, token = body["code"], body["token"]
    page.evaluate("([code, token]) => localStorage.setItem(`ratscrew.seat.${code}`, token)", [code, token])
    page.evaluate("code => { location.hash = `#/room/${code}`; }", code)
    page.wait_for_selector("#room-seat-0.mine")
    for seat in range(1, seats):
        page.select_option(f"#bot-{seat}", "easy")
    page.click("#ready-button")
    page.click("#start-button")
    page.wait_for_selector(".room.at-table .seat.mine")
    return str(code)


def picture(locator: Locator) -> bytes:
    """The picture as drawn; it must differ from the same box with its strokes and letters made invisible."""
    locator.evaluate("el => el.scrollIntoView({ block: 'center' })")  # not under the site's sticky bar
    drawn = locator.screenshot(animations="disabled")
    locator.evaluate("el => { el.dataset.color = el.style.color; el.style.color = 'transparent'; }")
    blank = locator.screenshot(animations="disabled")
    locator.evaluate("el => { el.style.color = el.dataset.color; }")
    assert drawn != blank, "nothing is drawn"
    return drawn


def test_every_quick_reaction_draws_its_own_picture_without_an_emoji_font(
    browser: Browser, live_server: Server
) -> None:
    """This Chromium has no colour-emoji font (many Linux desktops neither): an emoji there is an empty box, the
    same for each. Every reaction's picture, the button that opens them and the one shown by a seat each draw a
    picture of their own, beside their words."""
    page, errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        room_at_table(page, live_server)
        opener = page.locator("#react-open > [aria-hidden=true]").first
        pictures = {"opener": picture(opener)}
        page.click("#react-open")
        for code in REACTIONS:
            button = page.locator(f"#react-{code}")
            pictures[code] = picture(button.locator("> [aria-hidden=true]").first)
            assert button.inner_text().strip() != ""
        shot(page, "reactions-menu-phone")
        shown = page.locator("#react-panel").inner_text() + page.locator("#react-open").inner_text()
        assert not EMOJI.findall(shown), f"emoji shown: {EMOJI.findall(shown)}"
        alike = [(a, b) for i, a in enumerate(pictures) for b in list(pictures)[i + 1 :] if pictures[a] == pictures[b]]
        assert not alike, f"pictures drawn alike (an emoji the fonts lack shows as the same box): {alike}"
        page.click("#react-nice")
        bubble = page.locator("#seat-0 .reaction-bubble")
        bubble.wait_for()
        assert bubble.inner_text().strip() == "Nice slap"
        picture(bubble.locator("> :first-child"))
        shot(page, "reaction-by-seat-phone")
        assert errors == []
    finally:
        page.context.close()


# Whether an element is wholly on the screen and is what the eye meets there (the sticky bars not over it), and
# whether anything in the page runs past the right edge of its box or of the window.
IN_SIGHT = """el => {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth || !r.height) return false;
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return top !== null && (el === top || el.contains(top));
}"""
OVERFLOWING = """() => [...document.querySelectorAll('#view *')]
  .filter((el) => el.getClientRects().length
    && (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible'
      || el.getBoundingClientRect().right > document.documentElement.clientWidth + 1))
  .map((el) => el.tagName + ': ' + el.textContent.slice(0, 60))"""


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_dealing_offline_says_the_network_is_away_in_sight_in_the_players_language(
    browser: Browser, live_server: Server, lang: str
) -> None:
    page, errors = open_page(browser, live_server.url, lang=lang, width=390, height=844, touch=True)
    try:
        page.context.set_offline(True)
        page.click("#start-game")
        box = page.locator(".setup .error-box")
        box.wait_for()
        assert box.inner_text() == catalog(lang)["app.offline"]
        page.wait_for_function(IN_SIGHT, arg=box.element_handle())  # scrolled to, not left 400 px below the screen
        shot(page, f"offline-deal-{lang}-phone")
        page.context.set_offline(False)
        page.click("#start-game")
        page.wait_for_selector(".seat.mine")  # the same button deals once the network is back
    finally:
        page.context.close()
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_page_opened_offline_says_it_needs_the_network_and_tries_again(
    browser: Browser, live_server: Server, lang: str
) -> None:
    page, errors = open_page(browser, live_server.url, lang=lang, width=390, height=844, touch=True)
    words = catalog(lang)
    try:
        page.context.set_offline(True)
        for hash_ in ("#/learn", "#/drills"):
            page.evaluate("hash => { location.hash = hash; }", hash_)
            said = page.locator("#offline-page")
            said.wait_for()
            assert said.locator("h1").inner_text() == words["app.offline_page"]
            assert words["app.offline"] in said.inner_text()
            assert "http" not in said.inner_text() and "Failed" not in said.inner_text()
            assert page.evaluate(OVERFLOWING) == []
            shot(page, f"offline-{hash_[2:]}-{lang}-phone")
        page.context.set_offline(False)
        page.click("#retry-page")
        page.wait_for_selector("#offline-page", state="detached")
        page.wait_for_function("document.querySelector('#view').children.length > 0")
        assert page.locator("#view .error-box").count() == 0
    finally:
        page.context.close()
    assert not [e for e in errors if "dynamically imported module" not in e], errors


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_card_limit_is_told_before_the_game_among_the_chips_and_at_the_table(
    browser: Browser, live_server: Server, lang: str
) -> None:
    """A house rule that stops the game after so many cards is shown as a chip and in the rules' line before the
    deal, and among the table's chips (the same words, from the rule's declaration, as the others)."""
    page, errors = open_page(browser, live_server.url, lang=lang, width=390, height=844, touch=True)
    words = catalog(lang)
    chip = words["rules.chip.max_cards"].replace("{n}", "40")
    try:
        page.click("details.house-rules summary")
        page.fill("#opt-end-max_cards", "40")
        page.dispatch_event("#opt-end-max_cards", "change")
        page.wait_for_function(
            "chip => [...document.querySelectorAll('.setup .rule-chips .chip')].some((el) => el.textContent === chip)",
            arg=chip,
        )
        assert chip in page.locator("#preset-summary").inner_text()
        page.click("#start-game")
        page.wait_for_selector(".seat.mine")
        shown = page.locator(".table-chips .chip", has_text=chip)
        if shown.is_hidden():  # more chips than fit on the line: the button shows the rest
            page.click(".chips-more")
        shown.wait_for()
        shot(page, f"card-limit-chips-{lang}-phone")
    finally:
        page.context.close()
    assert errors == []


def test_a_paused_game_shows_its_time_dims_flip_and_slap_and_stays_under_the_sites_bar(
    browser: Browser, live_server: Server
) -> None:
    page, errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        page.click("#start-game")
        page.wait_for_selector(".seat.mine")
        page.wait_for_function("/^\\d+:\\d\\d$/.test(document.querySelector('.clock').innerText.trim())")
        looks = "el => { const s = getComputedStyle(el); return [s.opacity, s.filter]; }"
        live = page.eval_on_selector(".flip-button", looks)
        page.click("#pause-button")
        page.wait_for_selector("#paused-flag:not([hidden])")
        # A phone has no P key: the notice names only the button.
        assert page.locator("#paused-flag span").inner_text() == catalog("en")["access.paused_hint_touch"]
        for button in (".flip-button", ".slap-button"):
            opacity, filter_ = page.eval_on_selector(button, looks)
            assert float(opacity) <= 0.6 and "grayscale" in filter_, (button, opacity, filter_, live)
        # Scrolled so that the notice would run under the site's bar (the page made as long as a long game's
        # story below the table makes it): the bar is what shows there.
        under = page.evaluate(
            """() => {
              document.body.style.paddingBottom = '1500px';
              const bar = document.querySelector('.topbar').getBoundingClientRect();
              const flag = document.querySelector('#paused-flag').getBoundingClientRect();
              window.scrollBy(0, flag.top - bar.bottom + 12);
              const moved = document.querySelector('#paused-flag').getBoundingClientRect();
              const y = document.querySelector('.topbar').getBoundingClientRect().bottom - 4;
              if (moved.top > y) return 'not scrolled under the bar';
              const top = document.elementFromPoint((moved.left + moved.right) / 2, y);
              return top.closest('.topbar') ? '' : top.className || top.tagName;
            }"""
        )
        assert under == "", f"the paused notice lies over the site's bar: {under}"
        shot(page, "paused-scrolled-phone")
        clock = page.locator(".clock").inner_text().strip()
        page.reload()
        page.wait_for_selector("#paused-flag:not([hidden])")
        page.wait_for_function("/^\\d+:\\d\\d$/.test(document.querySelector('.clock').innerText.trim())")
        assert page.locator(".clock").inner_text().strip() == clock  # the time it stopped at, not blank
        shot(page, "paused-reloaded-phone")
        page.keyboard.press("f")  # the keys still do nothing while paused
        assert page.locator("#paused-flag").is_visible()
    finally:
        page.context.close()
    assert errors == []


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_unknown_games_and_matches_and_timing_fields_speak_the_players_language(
    browser: Browser, live_server: Server, lang: str
) -> None:
    """A made-up replay id and a deleted match are said in the player's words, once (not the server's English),
    and the house rules' times say their unit."""
    page, errors = open_page(browser, live_server.url, lang=lang)
    words = catalog(lang)
    try:
        page.evaluate("() => { location.hash = '#/replay/ZZZZZZ'; }")
        said = page.locator(".replay .error-box")
        said.wait_for()
        assert said.inner_text() == words["replay.missing"].replace("{id}", "ZZZZZZ")
        page.evaluate("() => { location.hash = '#/scores/doesnotexist'; }")
        missing = page.locator(".sk-missing p")
        missing.wait_for()
        assert missing.inner_text() == words["scores.missing.text"]
        page.evaluate("() => { location.hash = '#/'; }")
        page.click("details.house-rules summary")
        for key, unit in (
            ("slapping-collect_delay_ms", "ms"),
            ("slapping-tie_window_ms", "ms"),
            ("end-time_limit_s", "s"),
        ):
            field = page.locator(f"#opt-{key}")
            beside = field.locator("xpath=following-sibling::*[1]")
            assert beside.inner_text() == words[f"rules.form.unit.{unit}"], key
            field.scroll_into_view_if_needed()
            box, after = field.bounding_box(), beside.bounding_box()
            assert (
                box and after and after["x"] >= box["x"] + box["width"] and abs(after["y"] - box["y"]) < box["height"]
            )
        shot(page, f"house-rule-units-{lang}")
    finally:
        page.context.close()
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_slapjack_cheat_sheet_speaks_of_no_challenge(browser: Browser, live_server: Server, lang: str) -> None:
    """Slapjack has no challenges (every court card demands nothing, as its declaration says): its cheat sheet
    says so once, and no sentence about paying a debt or winning a challenge is left on it."""
    page, errors = open_page(browser, live_server.url, lang=lang)
    words = catalog(lang)
    try:
        page.evaluate(
            "() => { localStorage.setItem('ratscrew.learn.preset', 'slapjack'); location.hash = '#/learn/cheatsheet'; }"
        )
        block = page.locator(".cs-challenge")
        block.wait_for()
        text = block.inner_text()
        assert words["learn.challenge.none"] in text
        for key in ("learn.cs.challenge.pass", "learn.cs.challenge.win"):
            assert words[key] not in text, key
        assert words["learn.value.zero.demand"] not in text
        assert words["learn.collect.delay"].split("{")[0] not in page.locator(".cheatsheet, #view").first.inner_text()
        shot(page, f"cheatsheet-slapjack-{lang}")
    finally:
        page.context.close()
    assert errors == []
