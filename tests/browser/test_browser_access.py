"""Getting around and following the game without a mouse or without eyes, in Debian's Chromium: the skip link,
addresses that lead nowhere, the screen reader's live region, sounds and the pause."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from harness.browser import open_page, until
from harness.server import Server


def deal_against_computer(page: Page) -> str:
    page.click("#start-game")
    page.wait_for_selector(".seat")
    page.wait_for_function("document.querySelector('#status-line').textContent.length > 0")
    return page.url.rsplit("#", 1)[-1]


def test_skip_link_moves_the_focus_to_the_content_and_keeps_the_game(page: Page) -> None:
    route = deal_against_computer(page)
    page.reload()  # a fresh page: the first Tab reaches the skip link
    page.wait_for_selector(".seat")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'view'")
    page.wait_for_timeout(200)  # a wrongly handled link would show another page by now
    assert page.url.endswith(route)
    assert page.locator(".seat").count() >= 2
    assert page.locator("#start-game").count() == 0


def test_an_unknown_address_says_so_and_leads_back_to_play(page: Page, live_server: Server) -> None:
    page.goto(live_server.url + "#/nonsense")
    page.wait_for_selector("#not-found")
    assert page.locator("#not-found h1").inner_text() == "There is no page here"
    assert "#/nonsense" in page.locator("#not-found").inner_text()
    assert page.locator("[data-nav][aria-current=page]").count() == 0
    page.select_option("#lang-select", "fr")
    page.wait_for_selector("body[data-lang=fr]")
    assert page.locator("#not-found h1").inner_text() == "Cette page n'existe pas"
    page.click("#not-found-play")
    page.wait_for_selector("#start-game")
    assert page.url.endswith("#/")


LISTEN = """() => {
  window.__said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => { if (region.textContent) window.__said.push(region.textContent); })
    .observe(region, { childList: true, characterData: true, subtree: true });
}"""


def said(page: Page) -> list[str]:
    texts: list[str] = page.evaluate("window.__said")
    return texts


def wait_said(page: Page, words: str) -> None:
    page.wait_for_function("words => window.__said.some(s => s.includes(words))", arg=words)


TURNED = "Number([...document.querySelectorAll('#pile .pile-card')].pop()?.dataset.number ?? -1)"


def flip_if_due(page: Page) -> None:
    if page.locator(".flip-button.ready").count():
        page.keyboard.press("f")


def test_the_live_region_says_your_turn_and_the_slap_verdict_but_not_every_card(page: Page) -> None:
    page.evaluate(LISTEN)
    deal_against_computer(page)
    wait_said(page, "Your turn.")
    page.keyboard.press("j")  # a slap now: right or wrong, the verdict is read out, to the player as "you"
    page.wait_for_function("window.__said.some(s => /You slap(:| wrong)|You slapped too late/.test(s))")
    # Cards are turned, the computers' among them (they wait for mine): none of them is read out.
    until(page, lambda: page.evaluate(TURNED) >= 5, "five cards turned", act=lambda: flip_if_due(page))
    assert not [s for s in said(page) if " turns " in s], said(page)
    seats = page.get_by_role("list", name="Players at the table").get_by_role("listitem")
    assert seats.count() == 4
    for name in seats.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
        assert "card" in name and "(" in name, name
    # Asked for, every card is read out, and the choice is kept.
    page.click("#table-settings summary")
    page.check("#announce-cards")
    until(page, lambda: any(" turns " in s for s in said(page)), "a card read out", act=lambda: flip_if_due(page))
    page.reload()
    page.wait_for_selector(".seat")
    assert page.locator("#announce-cards").is_checked()


# An element's text if it is shown, else '': read in one look (the slap window is open for only a second).
SHOWN_TEXT = """selector => {
  const el = document.querySelector(selector);
  return el?.getClientRects().length ? el.innerText : '';
}"""


def test_with_reduced_motion_the_slap_window_is_shown_and_said(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url)
    try:
        page.emulate_media(reduced_motion="reduce")
        page.evaluate(LISTEN)
        page.check("input[name=mode][value=local]")
        page.fill("#seat-name-0", "Ann")
        page.fill("#seat-name-1", "Bob")
        while page.locator(".seat-row button.ghost").count():
            page.locator(".seat-row button.ghost").first.click()
        deal_against_computer(page)
        wait_said(page, ", your turn.")
        keys = {"0": "a", "1": "l"}
        flag = page.locator("#slap-window")
        shown: list[str] = []  # the flag's text, from the look that found it shown

        def flip_for_the_due_seat() -> None:
            due = page.locator(".seat.due")
            if due.count():
                page.keyboard.press(keys[due.get_attribute("data-seat") or "0"])

        def flag_shown() -> bool:
            shown[:] = [page.evaluate(SHOWN_TEXT, "#slap-window")]
            return bool(shown[0])

        until(page, flag_shown, "a won challenge's slap window", act=flip_for_the_due_seat, every_ms=40)
        text = shown[0]
        assert "Slap window" in text and ("Ann" in text or "Bob" in text)
        assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
        wait_said(page, "Slap window open")
        assert [s for s in said(page) if "must play" in s], said(page)  # the challenge that was won
        flag.wait_for(state="hidden")
        assert errors == []
    finally:
        page.context.close()


# Counts every Web Audio source started on the page, whichever script starts it.
COUNT_STARTS = """
window.__starts = 0;
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) { window.__starts += 1; return start.apply(this, args); };
"""
PLAY = "name => import('/static/js/sound.js').then(m => m.playSound(name))"


def test_sounds_wait_for_a_gesture_follow_the_game_and_keep_mute_and_volume(page: Page) -> None:
    page.context.add_init_script(COUNT_STARTS)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate(PLAY, "turn") is False  # nobody has touched the page yet: silence
    assert page.evaluate("window.__starts") == 0
    deal_against_computer(page)  # a click: sounds are allowed from now on
    # The computers' cards land with a sound, and so does each turn of mine.
    until(page, lambda: page.evaluate("window.ratscrewSounds.count") >= 2, "two sounds", act=lambda: flip_if_due(page))
    assert page.evaluate("window.__starts") >= 2
    page.click("#table-settings summary")
    assert page.get_by_label("Volume").count() == 1
    page.get_by_label("Mute the sounds").check()
    page.locator("#sound-volume").focus()
    for _ in range(6):
        page.keyboard.press("ArrowLeft")  # 60 -> 30, by keyboard
    assert page.locator("#sound-volume").input_value() == "30"
    starts = page.evaluate("window.__starts")
    assert page.evaluate(PLAY, "won") is False  # muted
    assert page.evaluate("window.__starts") == starts
    page.reload()
    page.wait_for_selector(".seat")
    assert page.locator("#sound-mute").is_checked()
    assert page.locator("#sound-volume").input_value() == "30"
    page.click("#table-settings summary")
    page.locator("#sound-mute").uncheck()  # a click: allowed, and unmuted
    assert page.evaluate(PLAY, "won") is True
    assert page.evaluate("window.__starts") >= 3  # three notes of the won-pile sound
    page.reload()
    page.wait_for_selector(".seat")
    assert not page.locator("#sound-mute").is_checked()


SEQ = "Number(document.querySelector('.game').dataset.seq ?? -1)"


def test_pause_stops_the_computers_survives_a_reload_and_resumes(page: Page) -> None:
    page.evaluate(LISTEN)
    deal_against_computer(page)
    page.wait_for_selector(".flip-button.ready")
    page.keyboard.press("f")  # my card: the computers are due next
    page.click("#pause-button")
    page.wait_for_selector("#paused-flag", state="visible")
    assert page.locator("#pause-button").inner_text().startswith("Resume")
    assert page.locator("#status-line").inner_text() == "The game is paused."
    wait_say = "Game paused."
    wait_said(page, wait_say)
    page.wait_for_timeout(400)
    stopped = page.evaluate(SEQ)
    page.keyboard.press("f")  # nothing is played while paused
    page.keyboard.press("j")
    page.wait_for_timeout(2500)  # the computers would have turned several cards by now
    assert page.evaluate(SEQ) == stopped
    page.reload()
    page.wait_for_selector(".seat")
    page.wait_for_selector("#paused-flag", state="visible")
    page.wait_for_timeout(1000)
    assert page.evaluate(SEQ) <= stopped  # a fresh page shows the paused table as it stands
    page.evaluate(LISTEN)
    page.keyboard.press("p")  # the key resumes
    page.wait_for_selector("#paused-flag", state="hidden")
    wait_said(page, "Game resumed.")
    until(page, lambda: page.evaluate(SEQ) > stopped, "play going on", act=lambda: flip_if_due(page))
    assert page.locator("#pause-button").inner_text().startswith("Pause")


COUNT = "([key, n]) => import('/static/js/i18n.js').then(m => m.tn(key, n))"


def test_counts_agree_with_their_number_in_every_language(page: Page) -> None:
    assert page.evaluate(COUNT, ["access.cards", 1]) == "1 card"
    assert page.evaluate(COUNT, ["access.cards", 0]) == "0 cards"
    assert page.evaluate(COUNT, ["access.cards", 21]) == "21 cards"
    page.select_option("#lang-select", "fr")
    page.wait_for_selector("body[data-lang=fr]")
    assert page.evaluate(COUNT, ["access.cards", 0]) == "0 carte"  # French counts zero as one
    assert page.evaluate(COUNT, ["access.cards", 2]) == "2 cartes"
    page.select_option("#lang-select", "de")
    page.wait_for_selector("body[data-lang=de]")
    assert page.evaluate(COUNT, ["access.cards", 1]) == "1 Karte"


def test_two_on_one_keyboard_player_one_has_the_left_pad(page: Page) -> None:
    page.check("input[name=mode][value=local]")
    page.fill("#seat-name-0", "Ann")
    page.fill("#seat-name-1", "Bob")
    while page.locator(".seat-row button.ghost").count():
        page.locator(".seat-row button.ghost").first.click()
    deal_against_computer(page)
    first = page.locator(".pad-0").bounding_box()
    second = page.locator(".pad-1").bounding_box()
    assert first is not None and second is not None
    assert first["x"] + first["width"] <= second["x"]  # A and S on the left, L and K on the right
    assert page.locator(".pad-0 kbd").all_inner_texts() == ["A", "S"]
    assert page.locator(".pad-1 kbd").all_inner_texts() == ["L", "K"]
    assert page.locator("#pause-button").is_visible()  # two on one screen may pause too


def test_house_rules_show_words_and_keep_the_option_names_folded_away(page: Page) -> None:
    page.click("details.house-rules summary")
    assert page.locator(".option").count() > 10
    assert page.locator(".option .option-key").count() == 0  # not under every setting
    assert not page.locator(".option-keys .option-key").first.is_visible()
    # nor as a label's tooltip: a key means nothing to a player (test_browser_rules_form checks every label)
    assert page.locator("label[for=opt-slapping-collect_delay_ms]").get_attribute("title") is None
    keys = page.locator(".option-keys").first
    keys.locator("summary").click()
    assert keys.locator(".option-key").first.is_visible()
    assert page.locator("#keys-hint, .keys-hint").first.is_visible()  # a keyboard here: the keys are told


def test_a_touch_phone_shows_no_keyboard_hints(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url, width=390, height=844, touch=True)
    try:
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        assert page.locator(".keys-hint").count() == 1
        assert not page.locator(".keys-hint").is_visible()
        deal_against_computer(page)
        assert page.locator(".flip-button").is_visible()
        assert not page.locator(".flip-button kbd").is_visible()
        assert not page.locator(".slap-button kbd").is_visible()
        assert errors == []
    finally:
        page.context.close()


def test_the_end_of_a_game_is_played_by_keyboard_without_leaving_the_dialog(page: Page) -> None:
    page.click("details.house-rules summary")
    page.fill("#opt-end-time_limit_s", "6")
    page.dispatch_event("#opt-end-time_limit_s", "change")
    game = deal_against_computer(page)
    until(
        page, lambda: page.locator(".overlay").is_visible(), "the six-second game's end", act=lambda: flip_if_due(page)
    )
    page.wait_for_function("document.activeElement?.id === 'play-again'")
    inside = "document.querySelector('.overlay').contains(document.activeElement)"
    for _ in range(5):
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
    for _ in range(5):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(inside)
    page.focus("#play-again")
    page.keyboard.press("Enter")
    page.wait_for_function("route => !location.hash.endsWith(route)", arg=game)
    page.wait_for_selector(".seat")
    assert page.locator(".overlay").is_hidden()
