"""A player left without cards, in Chromium against a real server: their seat and a notice under their buttons
say what the rules in force let them do (slap back in with the Slap button or J, or nothing: they are out and
watch to the end), in each language, readable on a phone and a laptop without covering the pile; someone
watching the game sees the same state on that seat in a few words.

The games need no luck: Ann never turns a card, so the pile stays empty and each of her slaps is a wrong one
that, under "give each, 3 cards", hands three of her cards to each computer. Three slaps take her 18 cards.
With players.slap_in on she is then empty but still in; with it off she is out as soon as play reaches her,
which is at once (it is her turn).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.browser import open_page, until
from harness.server import Server
from ratscrew.i18n import text, text_count

SLAP_IN = {"preset": "standard", "slapping": {"penalty": "give-each", "penalty_cards": 3}}
OUT_IS_OUT = {"preset": "out-is-out", "slapping": {"penalty": "give-each", "penalty_cards": 3}}
SEATS: list[dict[str, Any]] = [
    {"kind": "human", "name": "Ann"},
    {"kind": "bot", "name": "Bot 1", "level": "easy"},
    {"kind": "bot", "name": "Bot 2", "level": "easy"},
]
VIEWS = [(390, 844), (1280, 800)]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "empty-seat"
# The notice's box against the pile's cards, its count and every seat; and whether its words are cut or off screen.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const note = document.querySelector('#seat-note');
  return {
    note: box(note),
    cut: note.scrollWidth > note.clientWidth + 1 || note.scrollHeight > note.clientHeight + 1,
    view: [window.innerWidth, window.innerHeight],
    others: [...document.querySelectorAll('#pile, #pile > .pile-card, .center > .pile-count, .seat')].map(box),
  };
}"""


def overlap(a: list[float], b: list[float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


OpenPage = Callable[[str, "tuple[str, str] | None"], Page]


@pytest.fixture
def open_game_page(browser: Browser, live_server: Server) -> Iterator[OpenPage]:
    """Opens a game's page in English: as the player whose seat token it is given, or, without one, as someone
    watching. Each page is closed afterwards, and a script error on any fails the test."""
    opened: list[tuple[Page, list[str]]] = []

    def open_one(game: str, token: tuple[str, str] | None) -> Page:
        page, errors = open_page(browser, live_server.url, lang="en")
        opened.append((page, errors))
        if token is not None:
            page.evaluate("([id, token]) => localStorage.setItem(`ratscrew.seat.${id}`, token)", list(token))
        page.goto(f"{live_server.url}#/game/{game}")
        page.wait_for_selector(".seat")
        return page

    yield open_one
    for page, errors in opened:
        page.context.close()
        assert not errors, errors


def new_game(live_server: Server, rules: dict[str, Any]) -> tuple[str, str]:
    status, created = live_server.post("/api/games", {"seats": SEATS, "rules": rules, "seed": 1, "bot_pace": 4})
    assert status == 200, created
    return created["id"], created["token"]


def slap_until_empty(page: Page) -> None:
    """Ann slaps the empty pile (J) until she holds no card."""
    page.wait_for_selector(".flip-button.ready")
    zero = text_count("en", "access.cards", 0)
    until(
        page,
        lambda: page.locator("#seat-0 .seat-count").inner_text() == zero,
        "Ann without cards",
        act=lambda: page.keyboard.press("j"),
        every_ms=300,
    )


def choose_language(page: Page, lang: str) -> None:
    page.select_option("#lang-select", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def note_problems(page: Page, case: str) -> list[str]:
    """The notice at a phone's and a laptop's size: whole, on the screen, clear of the pile and the seats."""
    problems = []
    for width, height in VIEWS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # the seats and the pile are placed again for the new size
        found = page.evaluate(BOXES)
        where = f"{case} at {width}x{height}"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{case}-{width}x{height}.png"), animations="disabled")
        note = found["note"]
        if found["cut"]:
            problems.append(f"{where}: the notice is cut")
        if note[0] < 0 or note[1] < 0 or note[2] > found["view"][0] or note[3] > found["view"][1]:
            problems.append(f"{where}: the notice is off the screen: {note}")
        problems += [f"{where}: the notice covers {box}" for box in found["others"] if overlap(note, box) > 0]
    page.set_viewport_size({"width": 1280, "height": 860})
    return problems


def slap_pad(lang: str) -> str:
    """The Slap button and key as the table names them (a page that plays one seat slaps with J)."""
    return text(lang, "table.empty.pad", button=text(lang, "game.slap"), letter="J")


def test_an_empty_player_who_may_slap_back_in_is_told_so_and_how(live_server: Server, open_game_page: OpenPage) -> None:
    game, token = new_game(live_server, SLAP_IN)
    page = open_game_page(game, (game, token))
    note = page.locator("#seat-note")
    expect(note).to_be_hidden()  # with cards in hand there is nothing to say
    slap_until_empty(page)
    problems: list[str] = []
    for lang in ("en", "fr", "de"):
        if lang != "en":
            choose_language(page, lang)
        expect(page.locator("#seat-0 .seat-state")).to_have_text(text(lang, "table.empty.seat.slap_in"))
        told = (
            text(lang, "table.empty.you.slap_in", slap=slap_pad(lang)) + " " + text(lang, "table.empty.you.wrong_slap")
        )
        expect(note).to_have_text(told)
        expect(note).to_be_visible()
        problems += note_problems(page, f"slap-in-{lang}")
    assert not problems, "\n".join(problems)

    # Someone watching the game sees Ann's seat in a few words, and no notice of their own.
    watcher = open_game_page(game, None)
    expect(watcher.locator("#seat-0 .seat-state")).to_have_text(text("en", "table.empty.seat.slap_in"))
    expect(watcher.locator("#seat-note")).to_have_count(0)


def test_an_empty_player_under_out_is_out_is_out_and_watches(live_server: Server, open_game_page: OpenPage) -> None:
    game, token = new_game(live_server, OUT_IS_OUT)
    page = open_game_page(game, (game, token))
    slap_until_empty(page)
    note = page.locator("#seat-note")
    problems: list[str] = []
    for lang in ("en", "fr", "de"):
        if lang != "en":
            choose_language(page, lang)
        expect(page.locator("#seat-0 .seat-state")).to_have_text(text(lang, "game.out"))
        expect(note).to_have_text(text(lang, "table.empty.you_out"))
        # Nothing says she could still slap back in.
        assert text(lang, "table.empty.seat.slap_in") not in page.locator(".game").inner_text()
        problems += note_problems(page, f"out-{lang}")
    assert not problems, "\n".join(problems)

    watcher = open_game_page(game, None)
    expect(watcher.locator("#seat-0 .seat-state")).to_have_text(text("en", "game.out"))
