"""The setup page and the table draw the rules as the server summarises them (POST /api/rules/summary):
chips, the deck line and the preset's summary follow the rules and the seats, and French pages write
cards with French letters everywhere, the feed included."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from harness.browser import open_page
from harness.server import Server
from ratscrew.i18n import LANGUAGES, plural


@pytest.fixture
def english(page: Page) -> Page:
    return page


@pytest.fixture
def french(browser: Browser, live_server: Server) -> Iterator[Page]:
    opened, errors = open_page(browser, live_server.url, lang="fr")
    try:
        yield opened
    finally:
        opened.context.close()
    assert not errors, errors


def summaries(page: Page) -> list[dict[str, Any]]:
    """The bodies of the summary requests the page sends from now on."""
    sent: list[dict[str, Any]] = []

    def seen(request: Request) -> None:
        if request.url.endswith("/api/rules/summary"):
            sent.append(request.post_data_json or {})

    page.on("request", seen)
    return sent


def test_the_deck_line_follows_deck_decks_and_the_seats(english: Page) -> None:
    page = english
    line = page.locator("#deck-line")
    expect(line).to_have_text("4 players, one deck.")
    page.click("details.house-rules summary")
    page.select_option("#opt-deck-decks", "2")
    expect(line).to_have_text("4 players, two decks.")
    page.select_option("#opt-deck-decks", "auto")
    expect(line).to_have_text("4 players, one deck.")
    for _ in range(3):
        page.click("#add-seat")
    expect(line).to_have_text("7 players, two decks.")
    page.select_option("#opt-deck-decks", "1")
    expect(line).to_have_text("7 players, one deck.")


def test_chips_and_preset_summary_come_from_the_server(english: Page) -> None:
    page = english
    chips = page.locator(".setup .rule-chips")
    expect(chips).to_contain_text("J1 Q2 K3 A4")
    # Standard turns joker slaps on, but its deck has no jokers: the chips do not offer one.
    expect(chips).not_to_contain_text("Joker")
    sent = summaries(page)
    page.click("details.house-rules summary")
    page.select_option("#opt-deck-jokers", "2")
    expect(chips).to_contain_text("Joker")
    expect(page.locator("#preset-summary")).to_contain_text("Standard with 1 house rule changed: ")
    assert sent and sent[-1]["players"] == 4 and sent[-1]["lang"] == "en"
    rules = sent[-1]["rules"]
    assert isinstance(rules, dict) and rules["deck"]["jokers"] == 2


def test_quick_edits_ask_the_server_once_and_a_seen_rule_set_is_not_asked_again(english: Page) -> None:
    page = english
    expect(page.locator(".setup .rule-chips")).to_contain_text("J1 Q2 K3 A4")
    sent = summaries(page)
    page.click("details.house-rules summary")
    # The four edits in one go inside the page, so they are quick however busy the machine is (one fill at a
    # time from the test could come slower than the page's 150 ms wait and rightly ask the server).
    page.evaluate(
        """() => { const input = document.querySelector('#opt-challenge-J');
        for (const v of ['2', '3', '4', '1']) { input.value = v; input.dispatchEvent(new Event('change')); } }"""
    )
    expect(page.locator(".setup .rule-chips")).to_contain_text("J1 Q2 K3 A4")
    page.wait_for_timeout(400)
    assert len(sent) <= 1  # the last value is the rules already shown: answered from the page's cache


def test_french_pages_write_french_card_letters_in_chips_and_feed(french: Page) -> None:
    page = french
    expect(page.locator(".setup .rule-chips")).to_contain_text("V1 D2 R3 A4")
    expect(page.locator("#deck-line")).to_have_text("4 joueurs, un jeu de cartes.")
    page.click("#start-game")
    page.wait_for_selector(".seat")
    expect(page.locator("#table-rules")).to_contain_text("V1 D2 R3 A4")
    # Turn cards until a court card shows in the feed, which must carry its French letter.
    page.wait_for_function("document.querySelector('#status-line').textContent.length > 0")
    feed = page.locator("#feed")
    deadline = 200
    while deadline and not re.search(r"[VDRA][♠♥♦♣]", feed.inner_text()):
        page.keyboard.press("f")
        page.wait_for_timeout(80)
        deadline -= 1
    text = feed.inner_text()
    assert re.search(r"[VDRA][♠♥♦♣]", text), text
    assert not re.search(r"\b[JQK][♠♥♦♣]", text), text


def test_a_room_lobby_shows_the_servers_chips_and_deck_for_its_seats(french: Page) -> None:
    page = french
    page.click("details.house-rules summary")
    page.select_option("#opt-deck-decks", "2")
    page.select_option("#online-seats", "3")
    page.click("#create-room")
    page.wait_for_selector("#room-seats")
    expect(page.locator("#room-rules")).to_contain_text("V1 D2 R3 A4")
    expect(page.locator("#room-deck-line")).to_have_text("3 joueurs, deux jeux mélangés.")
    expect(page.locator("#room-preset-summary")).to_contain_text("Standard avec 1 règle maison modifiée")
    # The host turns deck.decks back to auto: the lobby follows with one deck for three players.
    page.click("#room-house-rules summary")
    page.select_option("#room-opt-deck-decks", "auto")
    expect(page.locator("#room-deck-line")).to_have_text("3 joueurs, un jeu de cartes.")


def test_the_page_and_the_server_put_counts_in_the_same_plural_categories(english: Page) -> None:
    numbers = [0, 1, 2, 5, 21]
    browser_categories = english.evaluate(
        "numbers => Object.fromEntries(['en', 'fr', 'de'].map(lang =>"
        " [lang, numbers.map(n => new Intl.PluralRules(lang).select(n))]))",
        numbers,
    )
    assert browser_categories == {lang: [plural(lang, n) for n in numbers] for lang in LANGUAGES}
