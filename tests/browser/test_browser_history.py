"""The history page and the replay viewer in Chromium: a game played to its end is found, stepped through to its
last card and ends with the counts ``ratscrew replay`` gives for its record; a record file shows the same."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.browser import SCREENSHOTS, open_page, until
from harness.server import Server
from ratscrew.i18n import LANGUAGES, catalog


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")


CARDS = 20  # a game this long has its wrong slap, challenges and a leader, and replays in a few hundred steps


def play_short_game(page: Page) -> str:
    """You against one Expert computer, to the card limit (CARDS); one wrong slap on the way. Returns the game id."""
    while page.locator(".seat-row button.ghost").count() > 1:
        page.locator(".seat-row button.ghost").last.click()
    if page.locator(".seat-row").count() > 2:
        page.locator(".seat-row button.ghost").first.click()
    assert page.locator(".seat-row").count() == 2
    page.select_option("#seat-level-1", "expert")
    page.click("details.house-rules summary")
    page.fill("#opt-end-max_cards", str(CARDS))
    page.dispatch_event("#opt-end-max_cards", "change")
    page.fill("#opt-slapping-collect_delay_ms", "200")  # a won challenge's pile moves sooner: a quicker game
    page.dispatch_event("#opt-slapping-collect_delay_ms", "change")
    page.select_option("#pace", "brisk")
    page.click("#start-game")
    page.wait_for_selector(".seat")
    game_id = page.url.rsplit("/", 1)[-1]
    page.wait_for_selector(".flip-button.ready")
    page.keyboard.press("j")  # a slap on a pile with nothing to slap: a wrong slap, so the game has a slap

    def flip_if_due() -> None:
        if page.locator(".flip-button.ready").count():
            page.keyboard.press("f")

    until(
        page,
        lambda: page.locator(".overlay").is_visible(),
        "the card limit's end of the game",
        act=flip_if_due,
        every_ms=60,
    )
    return game_id


def replay_json(record: Path) -> dict[str, object]:
    """What ``ratscrew replay --json`` prints for a record file."""
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", "replay", str(record), "--json"], capture_output=True, text=True, check=True
    )
    state: dict[str, object] = json.loads(done.stdout)
    return state


def final_counts(page: Page) -> list[int]:
    """Each seat's cards in the viewer at the step shown."""
    texts = page.eval_on_selector_all("#replay-seats .replay-count", "els => els.map(e => e.textContent)")
    return [int(text) for text in texts]


def summary_counts(page: Page) -> list[int]:
    values = page.eval_on_selector_all("#replay-final li[data-seat]", "els => els.map(e => e.dataset.cards)")
    return [int(v) for v in values]


def step_number(page: Page) -> int:
    return int(page.locator("#replay-slider").input_value())


def test_a_finished_game_is_found_in_the_history_and_replayed_to_its_last_card(
    page: Page, live_server: Server, tmp_path: Path
) -> None:
    game_id = play_short_game(page)
    headline = page.inner_text(".overlay-card h2")  # stopped at its card limit: who was ahead, or who were level
    assert "card limit" in headline and ("was ahead with" in headline or "level on" in headline), headline
    # Opened again once over (a reload, another language chosen), the page shows no clock rather than an empty one.
    page.reload()
    page.wait_for_selector(".overlay")
    clock = page.locator(".game-head .clock")
    assert clock.inner_text().strip() or not clock.is_visible(), "an empty clock at the top of a finished game"
    # On a phone every column of the results is whole: no heading cut, no column out of its box.
    size = page.viewport_size
    for width, height in ((390, 844), (360, 640)):
        page.set_viewport_size({"width": width, "height": height})
        cut = page.evaluate(
            """() => [...document.querySelectorAll('.overlay .table-scroll')].flatMap((box) =>
                 [...box.querySelectorAll('th'), ...(box.scrollWidth > box.clientWidth + 1 ? [box] : [])]
                   .filter((el) => el === box || el.scrollWidth > el.clientWidth + 1)
                   .map((el) => el.textContent))"""
        )
        assert cut == [], f"cut at {width}x{height}: {cut}"
    assert size is not None
    page.set_viewport_size(size)
    page.click(".overlay-actions a[href='#/']")  # the summary covers the page until the player leaves it
    page.click("[data-nav=history]")
    entry = page.locator(f'.history-game[data-game="{game_id}"]')
    entry.wait_for()
    assert f"{CARDS} cards" in entry.locator(".history-length").inner_text()
    assert entry.locator(".history-result").inner_text() == headline  # History says who was ahead too
    shot(page, "history")
    entry.locator("a[href^='#/replay/']").click()
    page.wait_for_selector("#replay[data-ready=true]")
    assert step_number(page) == 0
    assert page.locator("#replay-events").inner_text() == "The cards are dealt."
    assert final_counts(page) == [26, 26]

    # Step by keys: forward, back, and to the slap and back.
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#replay-slider').value === '1'")
    assert page.locator("#replay-events li").count() >= 1
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#replay-slider').value === '0'")
    page.keyboard.press("PageDown")
    page.wait_for_function("document.querySelector('#replay-slider').value !== '0'")
    assert "slap" in page.locator("#replay-events").inner_text().lower()
    slap_step = step_number(page)
    page.click("#replay-next")
    page.wait_for_function(f"document.querySelector('#replay-slider').value === '{slap_step + 1}'")
    page.click("#replay-prev-slap")
    page.wait_for_function(f"document.querySelector('#replay-slider').value === '{slap_step}'")

    # Card by card to the end: the last step's counts are the record's final state.
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#replay-next').disabled")
    last = step_number(page)
    assert page.locator("#replay-step").inner_text() == f"Step {last} of {last}"
    assert page.locator("#replay-events li[data-kind=game_over]").count() == 1
    shot(page, "replay-end")
    with page.expect_download() as download_info:
        page.click("#replay-download")
    record_file = tmp_path / "record.json"
    download_info.value.save_as(record_file)
    expected = replay_json(record_file)
    hands = expected["hands"]
    assert isinstance(hands, list)
    counts = [len(hand) for hand in hands]
    assert expected["status"] == "over"
    assert final_counts(page) == counts
    assert summary_counts(page) == counts
    assert json.loads(record_file.read_text())["actions"]  # the record as saved, not a copy made by the page

    # The slider goes anywhere; Home goes back to the deal.
    page.locator("#replay-slider").fill("3")
    page.wait_for_function("document.querySelector('#replay-slider').value === '3'")
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('#replay-first').disabled")
    assert final_counts(page) == [26, 26]

    # The same record chosen as a file on the history page, then dropped on it.
    page.click("[data-nav=history]")
    page.wait_for_selector(f'.history-game[data-game="{game_id}"]')
    page.set_input_files("#record-file", str(record_file))
    page.wait_for_selector("#replay[data-ready=true]")
    assert "record.json" in page.locator("#replay-title").inner_text()
    page.click("#replay-last")
    page.wait_for_function("document.querySelector('#replay-next').disabled")
    assert final_counts(page) == counts
    page.click("[data-nav=history]")
    page.wait_for_selector("#record-file")
    drop_file(page, "dropped.json", record_file.read_text())
    page.wait_for_function("document.querySelector('#replay-title')?.textContent.includes('dropped.json')")
    page.wait_for_selector("#replay[data-ready=true]")
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#replay-next').disabled")
    assert summary_counts(page) == counts
    assert final_counts(page) == counts


def drop_file(page: Page, name: str, text: str) -> None:
    """Drop a file on the page the way a browser does: a drop event carrying it in a DataTransfer."""
    page.evaluate(
        """([name, text]) => {
            const data = new DataTransfer();
            data.items.add(new File([text], name, { type: "application/json" }));
            const target = document.getElementById("view");
            target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
            target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
        }""",
        [name, text],
    )


def test_a_file_that_is_not_a_record_is_explained(page: Page) -> None:
    page.click("[data-nav=history]")
    page.wait_for_selector("#history-status")
    drop_file(page, "notes.txt", "shopping list")
    page.wait_for_selector("#file-error:not([hidden])")
    assert "not JSON" in page.locator("#file-error").inner_text()
    drop_file(page, "other.json", json.dumps({"format": "something-else/1"}))
    expect(page.locator("#file-error")).to_contain_text("not a game record")
    assert "“ratscrew-record/1”" in page.locator("#file-error").inner_text()


PHONES = [(lang, 390, 844) for lang in LANGUAGES] + [("de", 844, 390)]  # upright in each language, and sideways


@pytest.mark.parametrize(("lang", "width", "height"), PHONES)
def test_an_empty_history_says_so_and_the_viewer_fits_a_phone(
    browser: Browser, live_server: Server, lang: str, width: int, height: int
) -> None:
    texts = catalog(lang)
    page, errors = open_page(browser, live_server.url + "#/history", lang=lang, width=width, height=height, touch=True)
    try:
        page.wait_for_function(
            "text => document.querySelector('#history-status').textContent === text", arg=texts["history.empty"]
        )
        record = {
            "format": "ratscrew-record/1",
            "rules": "standard",
            "players": ["Ann with a rather long name", "Bob"],
            "hands": [["7S", "KD", "3C"], ["7H", "2C", "4D"]],
            "actions": ["flip", "flip", {"slap": 1}],
        }
        drop_file(page, "short.json", json.dumps(record))
        page.wait_for_selector("#replay[data-ready=true]")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.querySelectorAll('#replay-pile .replay-card').length === 2")
        cards = page.eval_on_selector_all("#replay-pile .replay-card", "els => els.map(e => e.dataset.card)")
        assert cards == ["7S", "7H"]
        assert page.locator("#replay-next").inner_text() == texts["replay.next"]
        shot(page, f"replay-phone-{lang}-{width}x{height}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for button in page.locator(".replay-buttons button").all():
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        # The pile, the seats and the step buttons are on the screen together; what happened is under the pile.
        for selector in ("#replay-pile", "#replay-next", "#replay-seats"):
            box = page.locator(selector).bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, selector
        felt, happened = page.locator(".replay-table").bounding_box(), page.locator("#replay-events").bounding_box()
        assert felt is not None and happened is not None and happened["y"] >= felt["y"] + felt["height"]

        page.keyboard.press("End")
        page.wait_for_function("document.querySelector('#replay-next').disabled")
        assert final_counts(page) == [2, 4]
        assert errors == []
    finally:
        page.context.close()


def test_a_long_record_is_fetched_page_by_page(page: Page) -> None:
    """A game of more steps than one answer holds: the viewer asks for the page it needs, forward and back."""
    record = {
        "format": "ratscrew-record/1",
        "rules": "standard",
        "players": ["Ann", "Bob"],
        "hands": [["7S", "KD", "3C"], ["7H", "2C", "4D"]],
        "actions": ["wait"] * 1500 + ["flip", "flip", {"slap": 0}],
    }
    page.click("[data-nav=history]")
    page.wait_for_selector("#record-file")
    drop_file(page, "long.json", json.dumps(record))
    page.wait_for_selector("#replay[data-ready=true]")
    assert page.locator("#replay-step").inner_text() == "Step 0 of 1503"
    page.keyboard.press("PageDown")  # the slap lies on the second page of steps
    page.wait_for_function("document.querySelector('#replay-slider').value === '1503'")
    assert page.locator("#replay-events li[data-kind=slap_correct]").count() == 1
    assert final_counts(page) == [4, 2]
    # Screen readers hear the step and what happened, cards in words.
    page.wait_for_function("document.querySelector('#announcer').textContent.startsWith('Step 1503 of 1503.')")
    assert "Ann slaps" in page.locator("#announcer").inner_text()
    assert page.locator("#replay-players").inner_text() == "Ann · Bob"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#replay-slider').value === '1502'")
    assert page.eval_on_selector_all("#replay-pile .replay-card", "els => els.map(e => e.dataset.card)") == [
        "7S",
        "7H",
    ]
    page.locator("#replay-slider").fill("999")
    page.wait_for_function("document.querySelector('#replay-slider').value === '999'")
    assert page.locator("#replay-events").inner_text() == "Nothing happens: the table waits."


def test_odd_entries_in_the_remembered_games_are_passed_over(page: Page) -> None:
    page.evaluate("localStorage.setItem('ratscrew.games', JSON.stringify(['bad id!', 5, 'ZZZZZZ', 'Q'.repeat(40)]))")
    page.click("[data-nav=history]")
    page.wait_for_function("document.querySelector('#history-status')?.textContent.includes('No finished game')")
    assert page.locator(".history-game").count() == 0
    # An id the server does not know is forgotten: asked for again, it would spend a lookup at every visit.
    assert "ZZZZZZ" not in page.evaluate("localStorage.getItem('ratscrew.games')")
    page.evaluate("localStorage.setItem('ratscrew.games', '{not json')")
    page.reload()
    page.wait_for_function("document.querySelector('#history-status')?.textContent.includes('No finished game')")


def test_games_the_server_did_not_look_up_are_said_so_not_taken_for_none(page: Page) -> None:
    page.evaluate("localStorage.setItem('ratscrew.games', JSON.stringify(['AAAAAA-1', 'BBBBBB-1']))")
    # As the server answers an address that asked for too many unknown ids lately (web/history.py).
    answer = {"games": [], "unknown": [], "unchecked": ["AAAAAA-1", "BBBBBB-1"]}
    page.route("**/api/history?*", lambda route: route.fulfill(json=answer))
    try:
        page.click("[data-nav=history]")
        page.wait_for_function("document.querySelector('#history-status')?.textContent.includes('just now')")
        assert page.locator("#history-status").inner_text().startswith("2 of your games could not be looked up")
        assert json.loads(page.evaluate("localStorage.getItem('ratscrew.games')")) == ["AAAAAA-1", "BBBBBB-1"]
    finally:
        page.unroute("**/api/history?*")


def test_a_slap_that_took_the_pile_is_replayed_on_its_pile_then_the_collection(page: Page) -> None:
    page.click("[data-nav=history]")
    page.wait_for_selector("#record-file")
    # A record with a won slap: at the slap the pile is shown as it was, the slap named; then its collection.
    record = {
        "format": "ratscrew-record/1",
        "rules": "standard",
        "players": ["Ann", "Bob"],
        "hands": [["7S", "KD"], ["7H", "2C"]],
        "actions": ["flip", "flip", {"slap": 1}],
    }
    drop_file(page, "slap.json", json.dumps(record))
    page.wait_for_selector("#replay[data-ready=true]")
    page.keyboard.press("PageDown")
    page.wait_for_function("document.querySelector('#replay').dataset.half === 'landed'")
    assert step_number(page) == 3
    assert page.eval_on_selector_all("#replay-pile .replay-card", "els => els.map(e => e.dataset.card)") == ["7S", "7H"]
    assert page.locator("#replay-events li[data-kind=slap_correct]").count() == 1
    assert page.locator("#replay-events li[data-kind=pile_won]").count() == 0
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay').dataset.half === 'after'")
    assert step_number(page) == 3 and page.locator("#replay-pile .replay-card").count() == 0
    assert page.locator("#replay-events li[data-kind=pile_won]").count() == 1
    page.click("#replay-prev")  # back to the slapped pile
    page.wait_for_function("document.querySelector('#replay').dataset.half === 'landed'")


# Ann turns 7S and Bob slaps it at once (no pattern); Bob turns 7H, Ann KD, and Bob slaps the 7H he saw, too
# late; then the challenge goes on to Ann's pile.
WRONG_SLAPS = {
    "format": "ratscrew-record/1",
    "rules": "standard",
    "players": ["Ann", "Bob"],
    "hands": [["7S", "KD", "3C", "9S", "4C"], ["4H", "7H", "2C", "5D", "6D", "8D", "TD"]],
    "actions": ["flip", {"slap": 1}, "flip", "flip", {"act": "slap", "seat": 1, "card": 2}, *["flip"] * 5],
}


def between(template: str, before: str, after: str) -> str:
    """The words of a catalogue template between two of its placeholders."""
    return template.split(before, 1)[1].split(after, 1)[0]


def test_a_replayed_wrong_slap_says_why_in_the_tables_words_and_the_replay_plays_at_a_chosen_speed(
    browser: Browser, live_server: Server
) -> None:
    texts = catalog("en")
    page, errors = open_page(browser, live_server.url + "#/history", height=800)
    try:
        page.wait_for_selector("#record-file")
        drop_file(page, "wrong.json", json.dumps(WRONG_SLAPS))
        page.wait_for_selector("#replay[data-ready=true]")
        # At 1280x800, what happened at the step is beside the pile, in view without scrolling.
        felt, happened = page.locator(".replay-table").bounding_box(), page.locator("#replay-events").bounding_box()
        assert felt is not None and happened is not None
        assert happened["x"] >= felt["x"] + felt["width"] and happened["y"] < felt["y"] + felt["height"]
        assert happened["y"] + happened["height"] <= 800 and page.evaluate("window.scrollY") == 0

        # A wrong slap says what it landed on, and a late one the card that covered its pattern, as the table does.
        page.keyboard.press("PageDown")
        page.wait_for_function("document.querySelector('#replay-slider').value === '2'")
        no_pattern = page.locator("#replay-events li[data-kind=wrong_slap]").inner_text()
        assert no_pattern.endswith(between(texts["verdict.no_pattern"], "{penalty}", "{cards}") + "7♠"), no_pattern
        page.keyboard.press("PageDown")
        page.wait_for_function("document.querySelector('#replay-slider').value === '5'")
        late = page.locator("#replay-events li[data-kind=wrong_slap]").inner_text()
        too_late = texts["verdict.too_late"]
        assert late.startswith(too_late.split("{card}")[0] + "K♦" + between(too_late, "{card}", "{why}")), late
        assert "7♠ 7♥" in late
        shot(page, "replay-wrong-slap-desktop")

        # Play at 4x from the keyboard: it goes through the game by itself and stops at its end.
        page.keyboard.press("Home")
        page.keyboard.press("+")
        page.keyboard.press("+")
        assert page.locator("#replay-speed").input_value() == "4"
        page.keyboard.press("p")
        page.wait_for_function("document.querySelector('#replay').dataset.playing === 'true'")
        page.wait_for_function("document.querySelector('#replay-next').disabled")
        page.wait_for_function("document.querySelector('#replay').dataset.playing === 'false'")
        assert step_number(page) == len(WRONG_SLAPS["actions"])
        expect(page.locator("#replay-play")).to_have_accessible_name("Play")
        # Played again from the end it starts over; P pauses it where it is, and it stays there.
        page.click("#replay-play")
        page.wait_for_function("Number(document.querySelector('#replay-slider').value) >= 2")
        page.keyboard.press("p")
        page.wait_for_function("document.querySelector('#replay').dataset.playing === 'false'")
        stopped = step_number(page)
        page.wait_for_timeout(600)  # more than two steps at 4x: none comes
        assert step_number(page) == stopped < len(WRONG_SLAPS["actions"])
        assert errors == []
    finally:
        page.context.close()
