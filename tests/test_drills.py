"""Drills: seeded questions whose answers are the engine's own, replayed here to prove it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from harness.browser import open_page
from ratscrew.cards import parse_cards
from ratscrew.engine import Flip, Game
from ratscrew.engine.events import ChallengeStopped, ChallengeWon
from ratscrew.errors import MalformedInput, NotFound, RulesError
from ratscrew.learn import DRILL_KINDS
from ratscrew.learn import make_drill as _make_drill
from ratscrew.learn.drills import slap_patterns
from ratscrew.learn.words import no_challenges
from ratscrew.patterns import find_matches
from ratscrew.rules import PRESETS, Rules


def make_drill(kind: str, seed: int, rules: Rules, lang: str) -> Any:
    """A question as the browser sees it: nested JSON values, read without type ceremony."""
    return _make_drill(kind, seed, rules, lang)


SLAPPING = [p for p in PRESETS if slap_patterns(Rules.build(p))]
CHALLENGING = [p for p in PRESETS if not no_challenges(Rules.build(p))]
# The house rules whose patterns the slap drills must draw, each set on top of the standard rules.
HOUSE: dict[str, dict[str, object]] = {
    "bigmac": {"slaps.bigmac": True},
    "flush3": {"slaps.flush": 3},
    "flush4": {"slaps.flush": 4, "slaps.double": False},
    "wildcard": {"slaps.wildcard": 10},
    "six_nine": {"slaps.six_nine": True},
    "top_bottom_ten": {"slaps.ten": "numbers", "slaps.top_bottom_ten": True},
    "all": {
        "slaps.bigmac": True,
        "slaps.flush": 3,
        "slaps.wildcard": "Q",
        "slaps.six_nine": True,
        "slaps.ten": "ace-one",
        "slaps.top_bottom_ten": True,
    },
}
SEEDS = range(40)


@pytest.mark.parametrize("kind", DRILL_KINDS)
def test_a_seed_names_one_question(kind: str) -> None:
    rules = Rules.build("everything")
    first = make_drill(kind, 1234, rules, "fr")
    assert make_drill(kind, 1234, rules, "fr") == first
    assert any(make_drill(kind, s, rules, "fr") != first for s in range(5))


@pytest.mark.parametrize("preset", SLAPPING)
def test_slap_answers_are_what_the_engine_finds(preset: str) -> None:
    rules = Rules.build(preset)
    patterns = slap_patterns(rules)
    near = slappable = 0
    for seed in SEEDS:
        q = make_drill("slap", seed, rules, "en")
        pile = parse_cards(q["pile"])
        assert 2 <= len(pile) <= 5
        assert len(set(pile)) == len(pile), "a pile never holds the same physical card twice"
        found = [m.pattern for m in find_matches(pile, rules)]
        assert q["answer"] == (found or ["none"])
        values = [c["value"] for c in q["choices"]]
        keys = [c["key"] for c in q["choices"]]
        assert values == [*patterns, "none"]
        assert len(set(keys)) == len(keys) and all(k in "0123456789" for k in keys)
        assert q["why"]
        near += bool(q["built_on"])
        slappable += bool(found)
    assert 0.25 < near / len(SEEDS) < 0.75, "about half the piles are built on or next to a pattern"
    assert slappable > 0


@pytest.mark.parametrize("preset", CHALLENGING)
def test_debt_answers_replay_in_the_engine(preset: str) -> None:
    rules = Rules.build(preset)
    asks = set()
    for seed in SEEDS:
        q = make_drill("debt", seed, rules, "de")
        asks.add(q["ask"])
        game = Game(rules, [parse_cards(h) for h in q["deal"]])
        events = []
        for _ in q["plays"]:
            events = list(game.apply(Flip()))
            assert not game.slappable(), "a debt drill never shows a pile someone should have slapped"
        choices = [c["value"] for c in q["choices"]]
        assert q["answer"] in choices
        assert [p["cards_left"] for p in q["players"]] == [len(s) for s in game.stacks]
        if q["ask"] == "owed":
            assert q["answer"] == str(game.owed) and game.owed > 0
        else:
            won = [e for e in events if isinstance(e, ChallengeWon)]
            if q["answer"] == "nobody":
                assert any(isinstance(e, ChallengeStopped) for e in events)
            else:
                assert won and q["answer"] == str(won[0].seat) == str(game.collect_pending)
        assert q["why"] and len(q["steps"]) == len(q["plays"])
    assert asks == {"owed", "winner"}


@pytest.mark.parametrize("preset", SLAPPING)
def test_stream_marks_exactly_the_slappable_cards(preset: str) -> None:
    rules = Rules.build(preset)
    for seed in range(8):
        q = make_drill("stream", seed, rules, "en")
        cards = q["cards"]
        assert isinstance(cards, list) and len(cards) == 30
        pile: list[str] = []
        slappable = 0
        for item in cards:
            pile.append(item["card"])
            found = [m.pattern for m in find_matches(parse_cards(pile), rules)]
            assert item["patterns"] == found
            assert item["reset"] == bool(found)
            if found:
                slappable += 1
                pile = []
        assert 4 <= slappable <= 20


@pytest.mark.parametrize("name", list(HOUSE))
def test_slap_drills_draw_the_house_patterns(name: str) -> None:
    rules = Rules.build("standard", HOUSE[name])
    patterns = slap_patterns(rules)
    built: set[str] = set()
    found_any: set[str] = set()
    for seed in range(120):
        q = make_drill("slap", seed, rules, "fr")
        pile = parse_cards(q["pile"])
        found = [m.pattern for m in find_matches(pile, rules)]
        assert q["answer"] == (found or ["none"])
        assert len(set(pile)) == len(pile)
        if q["built_on"]:
            built.add(q["built_on"])
        found_any.update(found)
    assert built == set(patterns), "every pattern in play is drawn"
    assert found_any == set(patterns), "and each one shows up in a pile"
    stream = make_drill("stream", 3, rules, "de")
    shown = {p["key"] for p in stream["patterns"]}
    assert shown == set(patterns)
    # The page shows as many top cards as the patterns in play look at.
    assert stream["shown"] == max(3, 4 if "bigmac" in shown else 0, rules.slaps.flush, rules.slaps.run)
    marked = {p for item in stream["cards"] for p in item["patterns"]}
    assert marked & set(patterns) - {"double", "sandwich"}


def test_drills_refuse_what_they_cannot_do() -> None:
    beggar = Rules.build("beggar")
    for kind in ("slap", "stream"):
        with pytest.raises(RulesError, match="no slap patterns"):
            make_drill(kind, 1, beggar, "en")
    assert make_drill("debt", 1, beggar, "en")["kind"] == "debt"
    with pytest.raises(RulesError, match="no challenges"):
        make_drill("debt", 1, Rules.build("slapjack"), "en")
    with pytest.raises(NotFound, match="unknown drill"):
        make_drill("juggle", 1, beggar, "en")
    with pytest.raises(MalformedInput, match="seed"):
        make_drill("debt", -1, beggar, "en")


def test_drill_api(live_server: Any) -> None:
    status, one = live_server.get("/api/drills/slap?seed=42&lang=de&preset=bicycle")
    assert status == 200
    assert one == live_server.get("/api/drills/slap?seed=42&lang=de&preset=bicycle")[1]
    assert one["seed"] == 42
    assert live_server.get("/api/drills/debt")[1]["kind"] == "debt"
    kinds = live_server.get("/api/drills?lang=fr")[1]["kinds"]
    assert [k["kind"] for k in kinds] == list(DRILL_KINDS) and kinds[0]["title"] == "Compter la dette"


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/api/drills/juggle", 404, "unknown drill"),
        ("/api/drills/slap?seed=abc", 400, "seed must be"),
        ("/api/drills/slap?seed=-3", 400, "seed must be"),
        ("/api/drills/slap?preset=beggar", 400, "no slap patterns"),
        ("/api/drills/slap?seed=%C2%B2", 400, "digits 0-9"),
        ("/api/drills/slap?seed=%E2%91%A0", 400, "digits 0-9"),
        ("/api/drills/slap?seed=" + "9" * 5000, 400, "seed must be"),
        ("/api/drills/slap?slaps.run=%C2%B2", 400, "slaps.run cannot be"),
        ("/api/drills/stream?slaps.double=maybe", 400, "slaps.double cannot be"),
    ],
)
def test_drill_api_errors(live_server: Any, url: str, status: int, message: str) -> None:
    got, body = live_server.get(url)
    assert got == status
    assert message in body["error"]


# ---------------------------------------------------------------------------------------------------- in a browser


def test_question_drills_answer_from_the_keyboard(browser: Any, live_server: Any) -> None:
    page, errors = open_page(browser, live_server.url + "#/drills/debt")
    page.wait_for_selector(".choice")
    page.keyboard.press("1")
    page.wait_for_selector(".feedback:not([hidden])")
    seed = page.text_content(".seed-note")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('.seed-note')?.textContent !== {seed!r}")
    page.goto(live_server.url + "#/drills/slap")
    page.wait_for_selector(".choice")
    page.keyboard.press("0")
    page.wait_for_selector(".feedback:not([hidden])")
    progress = json.loads(page.evaluate("localStorage.getItem('ratscrew.drills.v1')"))
    assert progress["debt"]["answered"] == 1 and progress["slap"]["answered"] == 1
    page.goto(live_server.url + "#/drills")
    page.wait_for_selector(".drill-tile")
    assert errors == []
    page.context.close()


def test_stream_drill_times_a_slap(browser: Any, live_server: Any) -> None:
    seed = 7
    cards = make_drill("stream", seed, Rules.build("standard"), "en")["cards"]
    first = next(i for i, c in enumerate(cards) if c["patterns"])
    page, errors = open_page(browser, live_server.url + "#/drills/stream")
    # Pin the round to a known seed, so the test knows when the pile is slappable.
    page.route(
        "**/api/drills/stream?*",
        lambda route: route.continue_(url=re.sub(r"seed=\d+", f"seed={seed}", route.request.url)),
    )
    page.evaluate("localStorage.setItem('ratscrew.drills.speed', 'relaxed')")
    page.click(".start")
    page.wait_for_selector(f".stream-progress[aria-valuenow='{first + 1}']", timeout=60_000)
    page.keyboard.press("Space")
    page.wait_for_selector(".stream-flash.hit")
    page.keyboard.press("Escape")
    page.wait_for_selector(".stream-results")
    best = json.loads(page.evaluate("localStorage.getItem('ratscrew.drills.v1')"))["stream"]["best"]
    assert set(best) == set(cards[first]["patterns"])
    assert errors == []
    page.context.close()
