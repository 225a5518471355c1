"""What the table says to one player against the computer, in each language (Chromium, a real server): the
player's own seat in the second person, a wrong slap that names its lockout, and a slap on the pile just taken
that says what it cost (a wrong slap on nothing), never "too late".

The deals are found with the engine: the player is dealt the first card, and the cards that follow do what each
test needs with nobody slapping (the computer never slaps without a pattern).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from harness.browser import open_page
from harness.server import Server
from ratscrew.engine import Game
from ratscrew.engine.actions import Flip
from ratscrew.i18n import LANGUAGES, catalog, text
from ratscrew.rules import Rules

LOCKOUT = {"slapping.penalty": "lockout", "slapping.lockout_cards": 3}
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "name": "Bot", "level": "easy"}]
FEED = "[...document.querySelectorAll('#feed li > [aria-hidden=true]')].map((line) => line.textContent)"


def court(card: object) -> bool:
    return str(card)[0] in "JQKA"


def find_seed(rules: Rules, fits: Callable[[Game], bool]) -> int:
    for seed in range(5000):
        if fits(Game.from_seed(rules, 2, seed)):
            return seed
    raise AssertionError("no deal in 5000 fits")


def computer_challenges_first(game: Game) -> bool:
    """The player turns a number card, the computer a court card: the player owes."""
    game.apply(Flip())
    if court(game.pile[-1]) or game.matches():
        return False
    game.apply(Flip())
    return court(game.pile[-1]) and not game.matches() and game.turn == 0 and game.owed > 1


def player_wins_the_first_pile(game: Game) -> bool:
    """The player turns a court card and the computer pays in number cards, with no pattern on the way."""
    game.apply(Flip())
    if not court(game.pile[-1]):
        return False
    while game.collect_pending is None and not game.over:
        game.apply(Flip())
        if game.matches() or court(game.pile[-1]):
            return False
    return game.collect_pending == 0


def rules_doc(changes: dict[str, Any]) -> dict[str, Any]:
    """Rule changes ("section.name": value) as the rules document the server takes."""
    doc: dict[str, Any] = {"preset": "standard"}
    for key, value in changes.items():
        section, name = key.split(".")
        doc.setdefault(section, {})[name] = value
    return doc


@pytest.fixture
def table(browser: Browser, live_server: Server) -> Iterator[Callable[[str, dict[str, Any], int], Page]]:
    """Opens a game against the computer in a language, with rule changes and a seed."""
    opened: list[tuple[Page, list[str]]] = []

    def open_game(lang: str, changes: dict[str, Any], seed: int) -> Page:
        body = {"seats": SEATS, "rules": rules_doc(changes), "seed": seed}
        status, created = live_server.post("/api/games", body)
        assert status == 200, created
        page, errors = open_page(browser, live_server.url, lang=lang)
        opened.append((page, errors))
        page.evaluate(
            "([id, token]) => localStorage.setItem(`ratscrew.seat.${id}`, token)", [created["id"], created["token"]]
        )
        page.goto(f"{live_server.url}#/game/{created['id']}")
        page.wait_for_selector(".flip-button.ready")
        return page

    yield open_game
    for page, errors in opened:
        page.context.close()
        assert not errors, errors


STATUS_IS = "(said) => document.getElementById('status-line').textContent === said"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_player_is_spoken_to_and_a_wrong_slap_names_its_lockout(
    table: Callable[[str, dict[str, Any], int], Page], lang: str
) -> None:
    rules = Rules.build("standard", LOCKOUT)
    seed = find_seed(rules, computer_challenges_first)
    page = table(lang, LOCKOUT, seed)
    # A slap on the empty table: a wrong slap, and its verdict says what it costs, the lockout, to "you".
    page.keyboard.press("j")
    page.wait_for_function(f"{FEED}.length > 0")
    verdict = page.evaluate(FEED)[0]
    locked = text(lang, "event.wrong_slap_lockout.you.other", n=3)
    assert verdict == text(lang, "verdict.empty_pile", penalty=locked), verdict
    # The computer answers the player's card with a court card: the status line tells the player what they
    # owe, in the second person ("You owe 2 cards to Bot", not "Ann owes 2 cards to Bot").
    game = Game.from_seed(rules, 2, seed)
    game.apply(Flip())
    game.apply(Flip())
    page.keyboard.press("f")
    owed = text(lang, f"game.status.owes_cards.you.{'one' if game.owed == 1 else 'other'}", n=game.owed, by="Bot")
    page.wait_for_function(STATUS_IS, arg=owed)
    assert catalog(lang)["game.status.owes_cards.you.other"] != catalog(lang)["game.status.owes_cards.other"]


def test_a_slap_on_the_pile_just_taken_is_a_wrong_slap_on_nothing(
    table: Callable[[str, dict[str, Any], int], Page],
) -> None:
    page = table("en", {}, find_seed(Rules.build("standard"), player_wins_the_first_pile))
    page.keyboard.press("f")  # the player's court card: the computer pays in number cards, and the pile comes back
    # While the won pile waits to be collected, its winner is told it is theirs, not to slap it.
    page.wait_for_function(STATUS_IS, arg=text("en", "game.status.waiting.you"))
    taken = text("en", "game.pile_taken")
    page.wait_for_function("(said) => document.getElementById('pile').textContent === said", arg=taken)
    page.wait_for_selector(".flip-button.ready")  # the player leads the next pile: nothing covers the empty one
    page.wait_for_timeout(800)  # the player looks at the empty pile a while, then slaps it
    page.evaluate("document.querySelectorAll('#feed li').forEach((li) => { li.dataset.old = '1'; })")
    page.keyboard.press("j")
    page.wait_for_function("document.querySelector('#feed li:not([data-old])') !== null")
    said = page.inner_text("#feed li:not([data-old]) > [aria-hidden=true]")
    assert said == text("en", "verdict.empty_pile", penalty=text("en", "event.wrong_slap_burned.you", n=1)), said
    assert "too late" not in page.inner_text(".toast")


# Key hints as the player sees them: the keys drawn on buttons, and the lines that list keys.
VISIBLE_KEYS = """(hint) => [...document.querySelectorAll('kbd, p, span')]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .filter((el) => el.tagName === 'KBD' || el.textContent.trim() === hint)
  .map((el) => el.textContent.trim())"""


@pytest.mark.parametrize("touch", [True, False])
def test_key_hints_show_only_where_there_is_a_keyboard(browser: Browser, live_server: Server, touch: bool) -> None:
    """A phone has no F, J or Enter to press: no page shows them there; with a mouse and keyboard, they show."""
    size = (390, 844) if touch else (1280, 800)
    page, errors = open_page(browser, live_server.url, lang="fr", width=size[0], height=size[1], touch=touch)
    status, created = live_server.post("/api/games", {"seats": SEATS})
    assert status == 200, created
    page.evaluate(
        "([id, token]) => localStorage.setItem(`ratscrew.seat.${id}`, token)", [created["id"], created["token"]]
    )
    hint = catalog("fr")["setup.keys_hint"]
    found: dict[str, list[str]] = {}
    try:
        for route, ready in [
            ("#/", "#start-game"),
            (f"#/game/{created['id']}", ".flip-button"),
            ("#/drills/slap", "kbd"),
        ]:
            page.evaluate("(hash) => { location.hash = hash; }", route)
            page.wait_for_selector(ready, state="attached")
            page.wait_for_load_state("networkidle")
            found[route] = page.evaluate(VISIBLE_KEYS, hint)
    finally:
        page.context.close()
    assert not errors, errors
    if touch:
        assert not any(found.values()), found
    else:
        assert all(found.values()), found
