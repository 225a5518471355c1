"""The terminal table says every event and every verdict in the very words of the browser's table: the page's
own functions (format.js ``describe``, verdicts.js ``verdictWords``), run in Chromium over the events of real
games (and of a player slapping a card late), in English, French and German, give the same lines as
``ratscrew.tui.words``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page

from harness.browser import open_page
from harness.server import Server
from ratscrew.engine.events import DismissReason, SlapDismissed
from ratscrew.engine.game import Game
from ratscrew.i18n import LANGUAGES
from ratscrew.rooms.summary import public
from ratscrew.rules import load_rules, rules_to_mapping
from ratscrew.rules.io import RulesDoc
from ratscrew.shapes import to_json
from ratscrew.table.clock import VirtualClock
from ratscrew.table.seen import SlapSeen
from ratscrew.table.table import SeatSpec, Table, TableEvent, run_virtual
from ratscrew.tui.run import language, plain_wanted
from ratscrew.tui.words import Memory, Words

NAMES = ["Ann", "Élodie", "Computer 3"]
# Rule sets whose games hold every kind of event: burned and given cards, split piles, lockouts, a 10 that
# stops a challenge, debts passed on, players out, and the card limit.
RULES = [  # (preset, changes, seed)
    ("standard", ("end.max_cards=400",), 1),
    ("bataille-corse", ("end.max_cards=300", "slapping.tie=split", "slapping.tie_window_ms=200"), 0),
    ("out-is-out", ("slapping.penalty=lockout", "challenge.ten_stops=true", "challenge.empty_payer=next_pays"), 11),
    ("slapjack", ("end.max_cards=300",), 0),
]
SEATS = [SeatSpec("Ann", "easy:risk-faces"), SeatSpec("Élodie", "perfect"), SeatSpec("Computer 3", "instant:risk-3")]


Item = tuple[dict[str, object], SlapSeen | None, RulesDoc]  # an event, what a wrong slap saw, the rules


def keeper(items: list[Item], game: Game) -> Callable[[TableEvent], None]:
    """A table's listener that keeps each event as a room sends it, with what a wrong slap saw."""

    def keep(published: TableEvent) -> None:
        items.append((public(published.event, game), published.seen, rules_to_mapping(game.rules, full=True)))

    return keep


def game_events() -> list[Item]:
    """Every event of a few seeded games between computers, as a room sends it (public), with what a wrong
    slap saw."""
    items: list[Item] = []
    for name, sets, seed in RULES:
        game = Game.from_seed(load_rules(name, sets), len(SEATS), seed)
        clock = VirtualClock()
        table = Table(game, SEATS, clock, seed=seed)
        table.listeners.append(keeper(items, game))
        run_virtual(table, clock)
    items += late_slaps()
    # The computers never slap while locked out, nor twice on a card: slaps set aside, as a person's may be.
    rules = rules_to_mapping(game.rules, full=True)
    items += [(SlapDismissed(seat, reason).to_dict(), None, rules) for seat, reason in enumerate(DismissReason)]
    return items


def late_slaps() -> list[Item]:
    """Three people, one of whom slaps every card a card late: the slaps meet piles that covered what she saw."""
    items: list[Item] = []
    game = Game.from_seed(load_rules("bicycle", ("end.max_cards=300",)), len(SEATS), 5)
    clock = VirtualClock()
    table = Table(game, [SeatSpec(name) for name in NAMES], clock, seed=5)
    table.listeners.append(keeper(items, game))
    slapped: set[int] = set()
    turned: set[int] = set()
    for _ in range(10_000):
        if game.over:
            break
        if game.collect_pending is None and game.cards not in turned:
            turned.add(game.cards)
            table.flip(game.turn)
        elif game.cards >= 2 and len(game.pile) >= 2 and game.cards not in slapped:
            slapped.add(game.cards)
            table.slap(0, card=game.cards - 1)  # what Ann saw a card ago
        else:
            deadline = table.next_deadline()  # a won challenge's pile waiting to be collected
            clock.advance_to(max(deadline if deadline is not None else 0, clock.now() + 1))
            table.run_due()
    return items


EVENTS = game_events()

PAGE_LINES = """async ([lang, items, names, voices]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const { describe } = await import('/static/js/format.js');
  const { newMemory, remember, verdictWords } = await import('/static/js/table/verdicts.js');
  const seats = names.map((name) => ({ name }));
  return voices.map((you) => {
    const memory = newMemory();
    return items.map(([event, seen, rules]) => {
      const voice = { seats, you, rules };
      const line = verdictWords(event, seen, memory, voice)?.shown ?? describe(event, seats, voice);
      remember(memory, event);
      return line;
    });
  });
}"""


@pytest.fixture(scope="module")
def page(browser: Browser, live_server: Server) -> Iterator[Page]:
    opened, errors = open_page(browser, live_server.url)
    try:
        yield opened
    finally:
        opened.context.close()
    assert not errors, errors


def test_the_games_hold_every_kind_of_event_and_verdict() -> None:
    kinds = {str(event["kind"]) for event, _seen, _rules in EVENTS}
    assert kinds >= {
        "card_turned", "challenge_opened", "debt_passed", "challenge_won", "challenge_stopped", "slap_correct",
        "wrong_slap", "slap_dismissed", "pile_won", "player_out", "game_over",
    }  # fmt: skip
    assert any(seen is not None and seen.covered_by and seen.missed for _e, seen, _r in EVENTS)  # too late
    assert any(event["kind"] == "pile_won" and len(event["shares"]) > 1 for event, _s, _r in EVENTS)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_and_verdict_reads_as_the_page_says_it(page: Page, lang: str) -> None:
    """Said to a watcher (nobody is "you"), and to the player of the second seat, who wins most slaps."""
    # The page is given what a wrong slap saw as the room writes it in an ``events`` message.
    items = [[event, None if seen is None else to_json(seen), rules] for event, seen, rules in EVENTS]
    voices: list[int | None] = [None, 1]
    expected: list[list[str]] = page.evaluate(PAGE_LINES, [lang, items, NAMES, voices])
    words = Words(lang)
    for you, theirs in zip(voices, expected, strict=True):
        memory, lines = Memory(), []
        for event, seen, rules in EVENTS:
            lines.append(
                words.verdict(event, seen, memory, NAMES, you, rules) or words.describe(event, NAMES, you, rules)
            )
            memory.remember(event)
        assert len(lines) == len(theirs) > 1000
        mismatched = [(i, mine, said) for i, (mine, said) in enumerate(zip(lines, theirs, strict=True)) if mine != said]
        assert not mismatched, json.dumps([you, *mismatched[:5]], ensure_ascii=False)


def test_a_describe_of_an_unknown_event_is_its_kind_not_a_crash() -> None:
    words = Words("en")
    assert words.describe({"kind": "new_kind_of_event", "seat": "x"}, NAMES) == "new_kind_of_event"
    assert (
        words.describe({"kind": "wrong_slap", "seat": 99, "burned": 3, "given": None}, NAMES) == "Seat 100 slaps wrong"
    )
    assert words.card("not a card") == "?"


def test_the_language_and_the_colours_follow_the_terminal() -> None:
    assert language(None, {"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE"}) == "fr"
    assert language(None, {}) == "en"
    assert plain_wanted(False, {"NO_COLOR": ""}) and plain_wanted(False, {"TERM": "dumb"})
    assert plain_wanted(True, {}) and not plain_wanted(False, {"TERM": "xterm-256color"})


def test_the_terminal_keeps_its_games_where_ratscrew_play_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from ratscrew.cli.tui import default_data_dir
    from ratscrew.web.serve import default_data_dir as served

    monkeypatch.setenv("XDG_DATA_HOME", "/somewhere")
    assert default_data_dir() == served()
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == served()
