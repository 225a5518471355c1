"""The house-rule settings in the browser: a number typed outside its range is kept and explained beside its
field (in German here) instead of being changed in silence, and the game does not start until it is fixed; a
setting that does nothing under the others is greyed out with the reason, on the setup page and in the score
keeper; and Learn explains the very rules a table set up, not only a preset."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.browser import open_page
from harness.server import Server
from ratscrew.i18n import LANGUAGES
from ratscrew.learn.words import Texts, option_label, value_label
from ratscrew.rules import OPTIONS_BY_KEY


def test_a_number_out_of_range_is_kept_and_explained_until_it_is_fixed(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url, lang="de")
    try:
        page.click("details.house-rules summary")
        jack = page.locator("#opt-challenge-J")
        problem = page.locator("#opt-challenge-J-problem")
        expect(problem).to_be_hidden()
        jack.fill("6")
        jack.press("Tab")  # the change lands when the field is left
        expect(problem).to_have_text("6 ist hier nicht erlaubt: Gib eine ganze Zahl von 0 bis 5 ein.")
        expect(jack).to_have_value("6")  # what the player typed stays, it is not turned into a 5
        expect(jack).to_have_attribute("aria-invalid", "true")
        assert "opt-challenge-J-problem" in (jack.get_attribute("aria-describedby") or "").split()

        page.click("#start-game")
        expect(page.locator("form.setup > .error-box")).to_contain_text("Eine Hausregel ist so nicht erlaubt")
        expect(jack).to_be_focused()
        assert page.locator(".seat").count() == 0  # no game was dealt

        jack.fill("")
        jack.press("Tab")
        expect(problem).to_have_text("Gib eine ganze Zahl von 0 bis 5 ein.")
        jack.fill("5")  # fixed: the complaint goes as soon as the value is right
        expect(problem).to_be_hidden()
        expect(jack).not_to_have_attribute("aria-invalid", "true")
        jack.press("Tab")
        expect(page.locator(".setup .rule-chips")).to_contain_text("B5")

        # Another number setting, with its own limits from the engine's definitions.
        page.select_option("#opt-slapping-penalty", "lockout")
        page.fill("#opt-slapping-lockout_cards", "21")
        page.press("#opt-slapping-lockout_cards", "Tab")
        expect(page.locator("#opt-slapping-lockout_cards-problem")).to_contain_text("von 1 bis 20")
        # The lockout's length stops counting under burn: the typed value goes, the field shows the rule's.
        page.select_option("#opt-slapping-penalty", "burn")
        expect(page.locator("#opt-slapping-lockout_cards-problem")).to_be_hidden()
        expect(page.locator("#opt-slapping-lockout_cards")).to_have_value("5")
    finally:
        page.context.close()
    assert not errors, errors


def reason_shown(page: Page, field: str, text: str) -> None:
    expect(page.locator(field)).to_be_disabled()
    why = page.locator(f"{field}-why")
    expect(why).to_be_visible()
    expect(why).to_contain_text(text)
    assert f"{field[1:]}-why" in (page.locator(field).get_attribute("aria-describedby") or "").split()


def test_a_setting_without_effect_is_greyed_with_the_reason(page: Page) -> None:
    page.click("details.house-rules summary")
    once = "#opt-slapping-once_per_card"
    expect(page.locator(once)).to_be_enabled()  # under the default burn a second wrong slap would cost a card
    expect(page.locator(f"{once}-why")).to_be_hidden()
    page.select_option("#opt-slapping-penalty", "give-pile")
    # The reason names the other setting by the label its field has on this page (reasons once said
    # "Wrong slap", "Jokers per deck": the score keeper's names, on no field of the setup page).
    penalty = page.locator("label[for=opt-slapping-penalty]").inner_text()
    jokers = page.locator("label[for=opt-deck-jokers]").inner_text()
    assert penalty.startswith("what a wrong slap costs") and jokers != "Jokers per deck"
    reason_shown(page, once, f"No effect unless “{penalty}” is burn cards, give one to each")
    reason_shown(page, "#opt-slaps-burned_count", f"No effect unless “{penalty}” is burn cards.")
    page.select_option("#opt-slapping-penalty", "lockout")  # with scope table another's slap is not locked out
    expect(page.locator(once)).to_be_enabled()
    expect(page.locator(f"{once}-why")).to_be_hidden()
    reason_shown(page, "#opt-slaps-joker", f"No effect unless “{jokers}” is 1 per deck or 2 per deck.")
    page.select_option("#opt-deck-jokers", "1")
    # Runs are off in Standard: "runs may go round the corner" is greyed and shows no tick until they are on.
    expect(page.locator("#opt-slaps-run_wrap")).to_be_disabled()
    expect(page.locator("#opt-slaps-run_wrap")).not_to_be_checked()
    page.select_option("#opt-slaps-run", "3")
    expect(page.locator("#opt-slaps-run_wrap")).to_be_checked()
    page.select_option("#opt-slaps-run", "0")
    expect(page.locator("#opt-slaps-run_wrap")).not_to_be_checked()
    expect(page.locator("#opt-slaps-joker")).to_be_enabled()
    expect(page.locator("#opt-challenge-joker")).to_be_enabled()

    page.goto(page.url.split("#")[0] + "#/scores")
    page.click(".sk-changes summary")
    page.select_option("#sk-opt-slapping-penalty", json.dumps("none"))
    reason_shown(page, "#sk-opt-slapping-once_per_card", "No effect unless “Wrong slap” is burn cards")
    page.select_option("#sk-opt-slapping-penalty", json.dumps("burn"))
    expect(page.locator("#sk-opt-slapping-once_per_card")).to_be_enabled()
    expect(page.locator("#sk-opt-slapping-once_per_card-why")).to_be_hidden()


def test_learn_marks_the_cards_each_pattern_takes(page: Page) -> None:
    """A top-bottom ten is made by the pile's bottom card and its top one: Learn marks those two (it once marked
    the top two, as for a pattern at the top, since it only knew top-bottom by name)."""
    page.click("details.house-rules summary")
    page.select_option("#opt-slaps-ten", "numbers")
    page.check("#opt-slaps-top_bottom_ten")
    page.click(".learn-these a")
    example = page.locator("#pattern-top_bottom_ten .example.is-slap").first
    expect(example).to_be_visible()
    cards = example.locator(".ex-card")
    classes = [cards.nth(i).get_attribute("class") or "" for i in range(cards.count())]
    assert len(classes) >= 3
    assert [i for i, c in enumerate(classes) if "in-match" in c.split()] == [0, len(classes) - 1]


def test_learn_explains_the_rules_a_table_set_up(page: Page) -> None:
    page.click("details.house-rules summary")
    page.check("#opt-slaps-bigmac")
    page.select_option("#opt-slaps-flush", "3")
    page.click(".learn-these a")
    page.wait_for_selector("#pattern-bigmac")
    picker = page.locator("#learn-preset")
    expect(picker).to_have_value("*table*")
    expect(page.locator("#learn-preset-summary")).to_have_text("Standard with 2 house rules changed")
    expect(page.locator("#pattern-flush")).to_contain_text("The top 3 cards are all of one suit")
    expect(page.locator("#pattern-double")).to_be_visible()  # the preset's own patterns are in force too

    page.select_option("#learn-preset", "standard")
    expect(page.locator("#pattern-bigmac")).to_have_count(0)
    page.reload()
    page.wait_for_selector("#pattern-double")
    expect(picker).to_have_value("standard")  # the choice is kept; the table's rules stay on offer
    page.select_option("#learn-preset", "*table*")
    expect(page.locator("#pattern-bigmac")).to_be_visible()

    # A room's lobby offers the same, beside the room (which the player must not leave to read them).
    page.goto(page.url.split("#")[0] + "#/")
    page.click("#create-room")
    link = page.locator(".room-rules-panel .learn-link")
    expect(link).to_have_attribute("target", "_blank")
    with page.context.expect_page() as opened:
        link.click()
    learn = opened.value
    learn.wait_for_selector("#pattern-bigmac")  # the room started with the setup page's rules
    expect(learn.locator("#learn-preset")).to_have_value("*table*")
    learn.close()


def test_the_rules_other_programs_play_are_offered_where_they_count(page: Page) -> None:
    """The suits of a marriage count only with marriages or divorces on: the setup page and the score keeper grey
    the setting out until one is, naming both; the table scope of one penalty per card counts only while one
    penalty per card does. The score keeper offers the new leader rule, and its card says it."""
    page.click("details.house-rules summary")
    suits = "#opt-slaps-marriage_suits"
    marriage = page.locator("label[for=opt-slaps-marriage]").inner_text()
    divorce = page.locator("label[for=opt-slaps-divorce]").inner_text()
    reason_shown(page, suits, f"No effect unless “{marriage}” or “{divorce}” is on.")
    page.check("#opt-slaps-divorce")
    expect(page.locator(suits)).to_be_enabled()
    page.select_option(suits, "same-suit")
    expect(page.locator(".setup .rule-chips")).to_contain_text("Divorce (one suit)")
    # The table scope of one penalty per card needs one penalty per card, which needs a penalty that costs.
    scope = "#opt-slapping-once_per_card_scope"
    once = page.locator("label[for=opt-slapping-once_per_card]").inner_text()
    reason_shown(page, scope, f"No effect unless “{once}” is on.")
    page.check("#opt-slapping-once_per_card")
    expect(page.locator(scope)).to_be_enabled()
    page.select_option(scope, "table")
    page.select_option("#opt-slapping-penalty", "none")
    expect(page.locator("#opt-slapping-once_per_card")).to_be_disabled()
    expect(page.locator(scope)).to_be_disabled()  # what it needs is on, but does nothing itself
    page.select_option("#opt-slapping-penalty", "burn")
    expect(page.locator(scope)).to_be_enabled()
    expect(page.locator(".setup")).to_contain_text("the whole table")

    page.goto(page.url.split("#")[0] + "#/scores")
    page.click(".sk-changes summary")
    reason_shown(page, "#sk-opt-slaps-marriage_suits", "No effect unless “Marriage (K Q)” or “Divorce (K 5 Q)” is on.")
    page.check("#sk-opt-slaps-marriage")
    expect(page.locator("#sk-opt-slaps-marriage_suits")).to_be_enabled()
    page.select_option("#sk-opt-slaps-marriage_suits", json.dumps("same-colour"))
    expect(page.locator(".sk-preview")).to_contain_text(
        "a King and a Queen together, either way round, both red or both black"
    )
    # Who leads after a pile: play may go on from the player after the last card, as some programs play.
    page.select_option("#sk-opt-players-leader", json.dumps("next"))
    expect(page.locator(".sk-preview")).to_contain_text(
        "play goes on from the player after whoever turned the last card"
    )


# For each box of the house rules' on/off settings shown: how far its middle is below the middle of its label's
# first line, in pixels, with the setting's key.
BOXES_BESIDE_LABELS = """() => [...document.querySelectorAll('.option-bool')]
  .filter((row) => row.getClientRects().length).map((row) => {
    const box = row.querySelector('input').getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(row.querySelector('label'));
    const line = range.getClientRects()[0];
    return [row.querySelector('input').id, Math.round((box.top + box.height / 2) - (line.top + line.height / 2))];
  })"""


def test_each_on_off_setting_has_its_box_beside_its_label(browser: Browser, live_server: Server) -> None:
    for width, height in ((390, 844), (1280, 800)):
        page, errors = open_page(browser, live_server.url, lang="fr", width=width, height=height)
        try:
            page.click("details.house-rules summary")
            offsets = page.evaluate(BOXES_BESIDE_LABELS)
            assert len(offsets) >= 10, offsets  # the slaps' patterns and the other switches
            assert [(key, off) for key, off in offsets if abs(off) > 3] == [], (width, offsets)
        finally:
            page.context.close()
        assert not errors, errors


# The contrast of each text `selector` matches against what is behind it, as the screen shows them: colours
# with their alpha, every background and every opacity on the way up (a greyed select is drawn at 0.7 by
# Chromium, a guest's read-only form at 0.9), composed as the browser composes them. [id, text, ratio].
CONTRASTS = """(selector) => {
  const parse = (c) => {
    const m = c.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const mix = (a, b, o) => [0, 1, 2].map((i) => a[i] * o + b[i] * (1 - o)).concat(1);
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const paint = (chain, i, under, text) => {
    if (i === chain.length) return text ? over(text, under) : under;
    const style = getComputedStyle(chain[i]);
    return mix(paint(chain, i + 1, over(parse(style.backgroundColor), under), text), under, Number(style.opacity));
  };
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) || el.matches("select, input");
    if (!el.getClientRects().length || !own) continue;
    const chain = [];
    for (let n = el; n; n = n.parentElement) chain.unshift(n);
    const white = [255, 255, 255, 1];
    const text = lum(paint(chain, 0, white, parse(getComputedStyle(el).color)));
    const back = lum(paint(chain, 0, white, null));
    const ratio = (Math.max(text, back) + 0.05) / (Math.min(text, back) + 0.05);
    const said = (el.value ?? el.textContent).trim().slice(0, 30);
    out.push([el.id || el.htmlFor || el.className, said, Math.round(ratio * 100) / 100]);
  }
  return out;
}"""


# Whether at least five of what `selector` matches are on the page, every fold opened (a room's is shut).
SHOWN = """(selector) => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  return [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length).length >= 5;
}"""


def readable_yet_greyed(page: Page, greyed: str, field: str) -> None:
    """The texts of the settings marked `greyed` all reach 4.5:1, and their names still read lighter than those
    of the settings in effect (the mark that they are not)."""
    # The form is drawn (and in a room drawn again as the room's state arrives): wait for its greyed names.
    page.wait_for_function(SHOWN, arg=f"{greyed} > label")
    texts = "label, select, input:not([type=checkbox]), small, span"
    dim = page.evaluate(CONTRASTS, ", ".join(f"{greyed} {t}" for t in texts.split(", ")))
    assert len(dim) >= 20, dim
    assert [row for row in dim if row[2] < 4.5] == [], dim
    names = [row[2] for row in page.evaluate(CONTRASTS, f"{greyed} > label")]
    live = [row[2] for row in page.evaluate(CONTRASTS, f"{field}:not({greyed}) > label")]
    assert len(names) >= 5 and len(live) >= 10 and max(names) < min(live), (names, live)


def test_greyed_settings_stay_readable_on_a_phone(browser: Browser, live_server: Server) -> None:
    """At 390x844, on the setup page, in a room's lobby as a guest sees it (read-only, so drawn fainter) and on the
    score keeper's form: each text of a setting that is not in effect (its name, its value, its reason) meets WCAG
    AA's 4.5:1, while its name stays lighter than that of a setting in effect."""
    page, errors = open_page(browser, live_server.url, lang="de", width=390, height=844, touch=True)
    guest, guest_errors = open_page(browser, live_server.url, lang="de", width=390, height=844, touch=True)
    try:
        page.click("details.house-rules summary")
        readable_yet_greyed(page, ".option-inactive", ".option")
        page.click("#create-room")
        code = page.locator("#room-code").inner_text()
        guest.fill("#join-code", code)
        guest.click("#join-room")
        guest.wait_for_selector("#room-opt-slaps-double", state="attached")
        readable_yet_greyed(guest, ".option-inactive", ".option")
        page.goto(live_server.url + "#/scores")
        page.click(".sk-changes summary")
        readable_yet_greyed(page, ".sk-opt-inactive", ".sk-opt")
    finally:
        page.context.close()
        guest.context.close()
    assert not errors and not guest_errors, (errors, guest_errors)


def test_a_settings_label_never_shows_its_rules_key(browser: Browser, live_server: Server) -> None:
    """Hovering a rule's name once showed its key ("slaps.double"), which says nothing to a player: no label of
    the setup form, a room's or the score keeper's has a tooltip naming a key; the keys stay for those who want
    them, folded away at each section's foot."""
    keys = set(OPTIONS_BY_KEY)
    page, errors = open_page(browser, live_server.url, lang="fr")
    try:
        page.click("details.house-rules summary")
        assert page.locator(".option label").count() > 30
        for where in ("setup", "room", "scores"):
            if where == "room":
                page.click("#create-room")
                page.wait_for_selector("#room-opt-slaps-double", state="attached")
            if where == "scores":
                page.goto(live_server.url + "#/scores")
                page.click(".sk-changes summary")
            titles = page.eval_on_selector_all("main [title]", "els => els.map((el) => el.getAttribute('title'))")
            shown = [t for t in titles if any(key in t for key in keys)]
            assert shown == [], (where, shown)
        page.goto(live_server.url + "#/")
        page.click("details.house-rules summary")
        folded = page.locator(".option-keys").first
        folded.locator("summary").click()
        expect(folded.locator(".option-key").first).to_have_text("challenge.J")
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_changed_setting_says_its_standard_value_in_words(browser: Browser, live_server: Server, lang: str) -> None:
    """Learn marks a setting the table changed; hovering the mark once said "changed from the standard value true".
    With a yes/no setting, a choice and a number changed on the setup page, each mark in the questions says the
    standard value as the page's language words it ("on", a choice's label, "1 card")."""
    tr = Texts(lang)
    page, errors = open_page(browser, live_server.url, lang=lang)
    try:
        page.click("details.house-rules summary")
        page.uncheck("#opt-players-slap_in")  # yes/no, on by default
        page.select_option("#opt-slapping-penalty", "lockout")  # a choice
        page.fill("#opt-challenge-J", "2")  # a number
        page.press("#opt-challenge-J", "Tab")
        page.click(".learn-these a")
        page.wait_for_selector(".learn-content:not([aria-busy])")
        page.evaluate("() => { location.hash = '#/learn/faq'; }")
        page.wait_for_selector(".faq-list .key-chip.changed")
        marks = page.eval_on_selector_all(
            ".faq-list .key-chip.changed",
            "els => els.map((el) => [el.querySelector('span').textContent, el.getAttribute('title')])",
        )
        expected = {}
        for key in ("players.slap_in", "slapping.penalty", "challenge.J"):
            opt = OPTIONS_BY_KEY[key]
            expected[option_label(tr, key)] = tr("learn.ui.changed_from", value=value_label(tr, opt, opt.default))
        assert {name: title for name, title in marks if name in expected} == expected
        assert all(not re.search(r"\b(true|false|True|False)\b|: \d+$", title) for _, title in marks), marks
    finally:
        page.context.close()
    assert not errors, errors
