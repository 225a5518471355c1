"""The table once a game is over, in Chromium against a real server, in each language: the status line says how
the game ended (not the last moment's instruction), no seat still asks for a slap, the summary's reaction count
says what it counts, and a finished game opened again (a reload, another language chosen) shows what happened.

The games are short and need no luck: a player who slaps an empty pile under "give each" pays three cards a
slap and is soon left with none, so the computer holds every card and wins; and two people on one screen whose
first two cards are a double give one timed slap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.browser import open_page, until
from harness.server import Server
from ratscrew.engine import Game
from ratscrew.engine.actions import Flip
from ratscrew.i18n import catalog, text, text_count
from ratscrew.rules import Rules, rules_from_mapping

# The shown half of each line of What happened, newest first (the other half is for screen readers).
FEED = "() => [...document.querySelectorAll('#feed li > [aria-hidden=true]')].map((line) => line.textContent)"
FEED_LENGTH = 6  # the lines the feed keeps (table/show.js)
# The cells and headings of the summary's tables cut short, and the tables wider than their box.
CUT = """() => [...document.querySelectorAll('.overlay .table-scroll')].flatMap((box) =>
  [...box.querySelectorAll('th, td'), ...(box.scrollWidth > box.clientWidth + 1 ? [box] : [])]
    .filter((el) => el === box || el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent))"""
GIVE_EACH = {"preset": "standard", "slapping": {"penalty": "give-each", "penalty_cards": 3}}

OpenGame = Callable[[list[dict[str, Any]], dict[str, Any], int], Page]


@pytest.fixture
def open_game(browser: Browser, live_server: Server) -> Iterator[OpenGame]:
    """A game against the computer (or two on one screen) made through the API, opened in English."""
    opened: list[tuple[Page, list[str]]] = []

    def open_one(seats: list[dict[str, Any]], rules: dict[str, Any], seed: int) -> Page:
        status, created = live_server.post("/api/games", {"seats": seats, "rules": rules, "seed": seed})
        assert status == 200, created
        page, errors = open_page(browser, live_server.url, lang="en")
        opened.append((page, errors))
        page.evaluate(
            "([id, token]) => localStorage.setItem(`ratscrew.seat.${id}`, token)", [created["id"], created["token"]]
        )
        page.goto(f"{live_server.url}#/game/{created['id']}")
        page.wait_for_selector(".flip-button.ready")
        return page

    yield open_one
    for page, errors in opened:
        page.context.close()
        assert not errors, errors


def feed(page: Page) -> list[str]:
    lines: list[str] = page.evaluate(FEED)
    return lines


def choose_language(page: Page, lang: str) -> None:
    """The player picks another language in the page's bar: the finished game is drawn again in it."""
    page.select_option("#lang-select", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.wait_for_selector(".overlay:not([hidden])")


def test_a_won_game_says_who_won_and_keeps_what_happened_after_a_reload_and_in_each_language(
    open_game: OpenGame,
) -> None:
    page = open_game([{"kind": "human", "name": "Ann"}, {"kind": "bot", "name": "Bot", "level": "easy"}], GIVE_EACH, 1)
    # Ann never turns a card: each slap lands on an empty pile and gives Bot three of her cards.
    until(
        page,
        lambda: page.locator(".overlay").is_visible(),
        "Bot holding every card",
        act=lambda: page.keyboard.press("j"),
    )
    expect(page.locator("#over-title")).to_have_text(text("en", "game.summary.wins", name="Bot"))
    status = page.locator("#status-line")
    expect(status).to_have_text(text("en", "game.over.win", name="Bot"))
    # Ann has no cards left, but the game is over: her seat no longer asks her to slap back in.
    expect(page.locator("#seat-0 .seat-count")).to_have_text(text_count("en", "access.cards", 0))
    expect(page.locator("#seat-0 .seat-state")).to_have_text("")
    seen = feed(page)
    assert len(seen) == FEED_LENGTH and seen[0] == text("en", "event.game_over.win", name="Bot"), seen

    # Opened again, the page rebuilds What happened as it was, and says again how the game ended.
    page.reload()
    page.wait_for_selector(".overlay:not([hidden])")
    page.wait_for_function(f"() => ({FEED})().join('|') === {seen!r}.join('|')")
    expect(status).to_have_text(text("en", "game.over.win", name="Bot"))
    expect(page.locator("#seat-0 .seat-state")).to_have_text("")

    for lang in ("fr", "de"):
        choose_language(page, lang)
        expect(status).to_have_text(text(lang, "game.over.win", name="Bot"))
        expect(page.locator("#over-title")).to_have_text(text(lang, "game.summary.wins", name="Bot"))
        first = text(lang, "event.game_over.win", name="Bot")
        page.wait_for_function(f"() => ({FEED})().length === {FEED_LENGTH} && ({FEED})()[0] === {first!r}")
        lines = feed(page)
        assert not set(lines) & set(seen), lines  # every line in the language chosen, none left in English
        expect(page.locator("#seat-0 .seat-state")).to_have_text("")


def first_two_make_a_double(rules: Rules) -> int:
    """A seed whose first two cards are number cards of one rank: the second player's card makes a double."""
    for seed in range(5000):
        game = Game.from_seed(rules, 2, seed)
        game.apply(Flip())
        game.apply(Flip())
        top, under = str(game.pile[-1]), str(game.pile[-2])
        if top[0] == under[0] and top[0] not in "JQKA" and game.matches():
            return seed
    raise AssertionError("no deal in 5000 starts with a double")


def test_the_reaction_count_says_it_counts_slaps_in_each_language(open_game: OpenGame) -> None:
    changes = {"preset": "standard", "end": {"max_cards": 6}}
    seed = first_two_make_a_double(rules_from_mapping(changes))
    page = open_game([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], changes, seed)
    page.keyboard.press("a")  # Ann turns the first card, Bob the second: a double
    page.wait_for_selector("#pile[data-size='1']")
    page.keyboard.press("l")
    page.wait_for_selector("#pile[data-size='2']")
    page.keyboard.press("s")  # Ann slaps it: one correct slap, timed
    page.wait_for_selector("#pile[data-size='0']")

    def flip_both() -> None:
        page.keyboard.press("a")
        page.keyboard.press("l")

    until(page, lambda: page.locator(".overlay").is_visible(), "the card limit", act=flip_both)
    for lang in ("en", "fr", "de"):
        if lang != "en":
            choose_language(page, lang)
        words = catalog(lang)
        ann = page.locator(".players-table tbody tr").nth(0).locator("td").last
        # The figure and what it is taken from, as a player reads it: "240 ms (1 slap)".
        shown = re.escape(text(lang, "game.summary.ms", n=999)).replace("999", r"\d+")
        expect(ann).to_have_text(re.compile(f"^{shown} {re.escape(text_count(lang, 'game.summary.slaps_timed', 1))}$"))
        expect(page.locator(".players-table tbody tr").nth(1).locator("td").last).to_have_text("–")  # Bob: none
        note = page.locator("#reaction-note")
        expect(note).to_have_text(words["game.summary.reaction_note"])
        heading = page.locator(".players-table thead th").last
        expect(heading).to_have_text(words["game.summary.reaction"])
        assert heading.get_attribute("aria-describedby") == "reaction-note"
        # The status line under the summary says the game stopped and who was ahead, as the summary does.
        expect(page.locator("#status-line")).to_have_text(page.locator("#over-title").inner_text())
        # On a phone the count sits under the figure: no column of the results is cut or out of its box.
        for width, height in ((390, 844), (360, 640)):
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate(CUT) == [], f"cut at {width}x{height} in {lang}"
        page.set_viewport_size({"width": 1280, "height": 860})
