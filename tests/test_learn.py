"""The Learn pages: every example agrees with the engine, every option is explained, every text is translated.

The rules document is generated from the rule definitions, so these tests check the generator against the
engine itself (``find_matches``, ``Rules.demand``, ``Game``) for every preset and a few odd house-rule mixes,
and check that English, French and German say something for every key the pages use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from harness.browser import open_page
from ratscrew.bots.levels import LEVELS
from ratscrew.cards import Card, parse_cards
from ratscrew.engine import Flip, Game
from ratscrew.engine.events import CardTurned
from ratscrew.i18n import LANGUAGES, catalog
from ratscrew.learn import learn_document as _learn_document
from ratscrew.learn.examples import iter_examples
from ratscrew.learn.words import missing_texts, slap_keys
from ratscrew.patterns import PATTERN_KEYS, enabled_patterns, find_matches
from ratscrew.rules import OPTIONS, PRESETS, Rules

# House-rule mixes the presets never produce, so the rarely used sentences are generated and checked too.
ODD_RULES: tuple[dict[str, object], ...] = (
    {
        "challenge.ten_stops": True,
        "challenge.empty_payer": "next_pays",
        "deck.jokers": 1,
        "challenge.joker": 2,
        "slaps.burned_count": True,
        "slaps.run": 3,
        "slaps.run_wrap": False,
        "slapping.tie": "split",
        "slapping.tie_window_ms": 40,
        "slapping.collect_delay_ms": 0,
        "players.leader": "left",
        "end.time_limit_s": 600,
        "end.max_cards": 5000,
        "slapping.penalty": "none",
        "slaps.divorce": True,
    },
    {
        "challenge.J": 3,
        "challenge.K": 1,
        "slapping.penalty_cards": 2,
        "players.out_when": "missed-slap",
        "slaps.ten": "numbers",
        "slaps.ten_gap": "any",
        "slaps.run": 4,
        "slapping.tie_window_ms": 25,
        "end.time_limit_s": 90,
        "deck.decks": 2,
    },
    {
        "slapping.penalty": "give-each",
        "slapping.penalty_cards": 2,
        "players.slap_in": False,
        "slaps.ten": "ace-one",
        "slaps.ten_gap": "court",
        "deck.jokers": 2,
        "slaps.top_bottom": True,
    },
    {
        "slapping.penalty": "lockout",
        "slapping.lockout_cards": 1,
        "slapping.once_per_card": True,
        "slaps.bigmac": True,
        "slaps.flush": 3,
        "slaps.wildcard": 10,
        "slaps.six_nine": True,
        "slaps.ten": "numbers",
        "slaps.top_bottom_ten": True,
        "challenge.J": 0,
        "challenge.A": 5,
    },
    {
        "slapping.penalty": "lockout-pile",
        "slaps.flush": 4,
        "slaps.wildcard": "Q",
        "slaps.burned_count": True,
        "slaps.ten": "ace-one",
        "slaps.top_bottom_ten": True,
    },
    {"slapping.penalty": "give-pile", "slaps.bigmac": True, "challenge.K": 0, "challenge.Q": 5},
    {"slapping.penalty_from": "bottom", "slapping.penalty_cards": 3, "slaps.six_nine": True},
)

ALL_RULES: list[Rules] = [Rules.build(p) for p in PRESETS] + [Rules.build("standard", c) for c in ODD_RULES]
RULE_IDS = [*PRESETS, *(f"odd{i}" for i in range(len(ODD_RULES)))]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def learn_document(lang: str, rules: Rules) -> Any:
    """The document as the browser sees it: nested JSON values, read without type ceremony."""
    return _learn_document(lang, rules)


def _json_file(lang: str, name: str) -> dict[str, str]:
    path = resources.files("ratscrew.i18n").joinpath(lang, name)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _strings(node: object) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


def _cards(texts: object) -> list[Card]:
    assert isinstance(texts, list)
    return parse_cards([str(t) for t in texts])


# ---------------------------------------------------------------------------------------------------- catalogs


def test_learn_catalogs_have_the_same_keys_in_every_language() -> None:
    english = set(_json_file("en", "learn.json"))
    for lang in ("fr", "de"):
        other = set(_json_file(lang, "learn.json"))
        assert other == english, f"{lang}/learn.json differs: missing {english - other}, extra {other - english}"
    assert all(k.startswith(("learn.", "drill.")) for k in english)


def test_rules_catalogs_have_the_same_keys_in_every_language() -> None:
    fr, de, en = (set(_json_file(lang, "rules.json")) for lang in ("fr", "de", "en"))
    assert fr == de
    # English option summaries and preset summaries live beside their definitions, so en/rules.json omits them.
    from_code = {f"option.{o.key}" for o in OPTIONS} | {f"preset.{p}" for p in PRESETS}
    assert en == fr - from_code
    assert not en & from_code


def test_placeholders_match_the_english_text() -> None:
    english = {**_json_file("en", "learn.json"), **_json_file("en", "rules.json")}
    for lang in ("fr", "de"):
        other = {**_json_file(lang, "learn.json"), **_json_file(lang, "rules.json")}
        for key, text in english.items():
            assert set(PLACEHOLDER.findall(other[key])) <= set(PLACEHOLDER.findall(text)) | {"n"}, (lang, key)
            if "{cards}" in text:
                assert "{cards}" in other[key], (lang, key)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_option_and_preset_summary_is_translated(lang: str) -> None:
    texts = _json_file(lang, "rules.json")
    for opt in OPTIONS:
        assert texts.get(f"option.{opt.key}", "").strip(), f"{lang}: option.{opt.key}"
    for name in PRESETS:
        assert texts.get(f"preset.{name}", "").strip(), f"{lang}: preset.{name}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_choice_preset_pattern_and_level_has_its_texts(lang: str) -> None:
    texts = catalog(lang)
    own = _json_file(lang, "rules.json")
    for opt in OPTIONS:
        if opt.kind == "choice":
            for choice in opt.choices:
                assert own.get(f"choice.{opt.key}.{choice}", "").strip(), f"{lang}: choice.{opt.key}.{choice}"
    for name in PRESETS:
        assert own.get(f"preset.{name}.name", "").strip(), f"{lang}: preset.{name}.name"
        assert texts.get(f"preset.{name}", "").strip()
    for key in PATTERN_KEYS:
        assert own.get(f"pattern.{key}", "").strip(), f"{lang}: pattern.{key}"
        assert "{cards}" in own.get(f"pattern.{key}.why", ""), f"{lang}: pattern.{key}.why"
    for level in (*LEVELS, "match"):
        assert own.get(f"level.{level}", "").strip(), f"{lang}: level.{level}"
        assert own.get(f"level.{level}.summary", "").strip(), f"{lang}: level.{level}.summary"
    assert missing_texts(lang) == []


def test_client_side_keys_exist() -> None:
    """Every learn./drill. key the page scripts ask for is in the English catalog (and so in all three)."""
    pages = Path(str(resources.files("ratscrew.web").joinpath("static", "js", "pages")))
    english = _json_file("en", "learn.json")
    names = ["learn.js", "drills.js", *(f"drills/{path.name}" for path in sorted((pages / "drills").glob("*.js")))]
    assert len(names) > 2  # the drills' parts were found
    for name in names:
        source = (pages / name).read_text(encoding="utf-8")
        for key in re.findall(r"[\"`]((?:learn|drill)\.[a-z_.]+[a-z])[\"`]", source):
            # A count's text (tn) is found by its plural forms: "key.one", "key.other".
            assert key in english or f"{key}.other" in english, f"{name} uses {key}"


# ---------------------------------------------------------------------------------------------------- document


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_every_example_claims_what_the_engine_finds(rules: Rules) -> None:
    doc = learn_document("en", rules)
    examples = list(iter_examples(doc))
    assert examples
    for found_example in examples:
        example: Any = found_example
        pile = _cards(example["cards"])
        found = [m.pattern for m in find_matches(pile, rules)]
        assert example["patterns"] == found, example
        assert example["slappable"] == bool(found)
        assert [m["pattern"] for m in example["matches"]] == found
        if example["shows"] is not None:
            assert example["shows"] in found, f"{example['cards']} is meant to show {example['shows']}"
        else:
            assert example["caption"] or example["slappable"] is not None


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_every_enabled_pattern_is_explained_with_a_slappable_example(rules: Rules) -> None:
    doc = learn_document("en", rules)
    slaps = next(s for s in doc["rules"]["sections"] if s["id"] == "slaps")
    shown = {b["key"]: b for b in slaps["blocks"] if b["type"] == "pattern"}
    # Every enabled pattern that can come up: the joker slap without jokers is listed as not played.
    assert list(shown) == slap_keys(rules)
    assert set(shown) == {p.key for p in enabled_patterns(rules)} - ({"joker"} if not rules.deck.jokers else set())
    for key, block in shown.items():
        assert any(e["slappable"] and e["shows"] == key for e in block["examples"]), key


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_every_option_appears_in_the_house_rules_with_its_value(rules: Rules) -> None:
    doc = learn_document("en", rules)
    groups = doc["rules"]["house"]["groups"]
    listed = [o["key"] for g in groups for o in g["options"]]
    assert listed == [o.key for o in OPTIONS]
    for group in groups:
        for item in group["options"]:
            assert item["value"] == rules.get(item["key"])
            assert item["summary"] and item["label"]
    explained = {k["key"] for s in doc["rules"]["sections"] for k in s["keys"]}
    assert explained == {o.key for o in OPTIONS}, "every option is shown beside the text it changes"


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_demands_and_card_reference_follow_the_rules(rules: Rules) -> None:
    doc = learn_document("en", rules)
    challenge = next(s for s in doc["rules"]["sections"] if s["id"] == "challenge")
    rows = next(b for b in challenge["blocks"] if b["type"] == "demands")["rows"]
    for row in rows:
        assert row["demand"] == rules.demand(Card.parse(row["card"]))
    for entry in doc["cards"]["cards"]:
        assert entry["demand"] == rules.demand(Card.parse(entry["card"]))
    ranks = [e["rank"] for e in doc["cards"]["cards"]]
    assert ranks == ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2", "X"]


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_worked_challenges_are_what_the_engine_plays(rules: Rules) -> None:
    doc = learn_document("en", rules)
    challenge = next(s for s in doc["rules"]["sections"] if s["id"] == "challenge")
    walks = [b for b in challenge["blocks"] if b["type"] == "walkthrough"]
    c = rules.challenge
    # A walkthrough is shown only where its story happens: a King demanding one card leaves no payer short,
    # and with no challenges at all there is nothing to walk through.
    short = {"ran_out"} if c.K > 1 and c.empty_payer == "loses" else set()  # a payer who really runs short
    expected = {"paid", "passed"} | short if all((c.J, c.Q, c.K, c.A)) else set()
    assert {w["id"] for w in walks} >= expected
    for walk in walks:
        game = Game(rules, [_cards(h) for h in walk["deal"]])
        for step in walk["steps"]:
            turned = [e for e in game.apply(Flip()) if isinstance(e, CardTurned)]
            assert [str(e.card) for e in turned] == [step["card"]]
            assert step["owed"] == game.owed
            assert step["text"]
        assert game.collect_pending == walk["winner"]


def test_the_rules_text_follows_the_preset() -> None:
    one = learn_document("en", Rules.build("one-chance"))
    rows = one["rules"]["sections"][3]["blocks"][1]["rows"]
    assert [r["demand"] for r in rows] == [1, 1, 1, 1]
    beggar = json.dumps(learn_document("en", Rules.build("beggar")))
    assert "pure Beggar-my-neighbour" in beggar
    bataille = json.dumps(learn_document("fr", Rules.build("bataille-corse")), ensure_ascii=False)
    assert "à chacun des autres joueurs" in bataille


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_documents_are_json_and_fully_translated(lang: str, rules: Rules) -> None:
    doc = learn_document(lang, rules)
    json.dumps(doc)
    keys = set(catalog("en"))
    for text in _strings(doc):
        assert text not in keys, f"untranslated key {text!r}"
        assert not re.search(r"\{\w+\}", text), f"unfilled placeholder in {text!r}"


def test_the_cheat_sheet_and_questions_are_generated_from_the_rules() -> None:
    rules = Rules.build("bicycle")
    doc = learn_document("de", rules)
    sheet = doc["cheatsheet"]
    patterns = [p["key"] for b in sheet["blocks"] for p in b.get("patterns", [])]
    assert patterns == ["double", "sandwich", "top_bottom", "marriage", "run", "ten", "ten_gap"]
    assert {c["key"] for c in sheet["changed"]} == {
        k for k, v in rules.values().items() if v != next(o.default for o in OPTIONS if o.key == k)
    }
    faq = doc["faq"]
    assert len(faq["questions"]) >= 6 and all(q["keys"] for q in faq["questions"])
    assert {v["preset"] for v in faq["variants"]} - {None} <= set(PRESETS)


# ---------------------------------------------------------------------------------------------------- the API


def test_api_serves_the_document(live_server: Any) -> None:
    status, body = live_server.get("/api/learn?lang=fr&preset=bicycle")
    assert status == 200
    assert body["lang"] == "fr" and body["preset"] == "bicycle"
    assert body["rules"]["title"] == "Les règles de l'Egyptian Ratscrew"
    status, changed = live_server.get("/api/learn?preset=standard&slaps.run=3")
    assert changed["changes"] == {"slaps.run": 3}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("slaps.run=%C2%B2", "slaps.run cannot be"),
        ("slaps.run=" + "4" * 5000, "slaps.run cannot be"),
        ("preset=nope", "unknown preset"),
        ("slaps.run=5", "slaps.run cannot be 5"),
        ("colour=red", "unknown parameter"),
        ("slaps.ten_gap=court", "needs slaps.ten on"),
    ],
)
def test_api_rejects_bad_queries_with_a_message(live_server: Any, query: str, message: str) -> None:
    status, body = live_server.get(f"/api/learn?{query}")
    assert status == 400
    assert message in body["error"]


# ---------------------------------------------------------------------------------------------------- in a browser


@pytest.mark.parametrize("lang", LANGUAGES)
def test_learn_pages_render_in_the_browser(browser: Any, live_server: Any, lang: str) -> None:
    for width in (1280, 360):
        page, errors = open_page(browser, live_server.url + "#/learn", lang=lang, width=width)
        for sub, selector in (
            ("", ".learn-section"),
            ("/cheatsheet", ".cheatsheet"),
            ("/cards", ".card-tile"),
            ("/faq", ".faq-item"),
        ):
            page.goto(f"{live_server.url}#/learn{sub}")
            page.wait_for_selector(selector)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{sub} overflows at {width}px"
        assert errors == []
        page.context.close()


def test_learn_preset_picker_and_card_filter(browser: Any, live_server: Any) -> None:
    page, errors = open_page(browser, live_server.url + "#/learn", lang="fr")
    page.wait_for_selector(".demand-number")
    assert page.eval_on_selector_all(".demand-number", "els => els.map(e => e.textContent)") == ["1", "2", "3", "4"]
    page.select_option("#learn-preset", "one-chance")
    page.wait_for_function("[...document.querySelectorAll('.demand-number')].every(e => e.textContent === '1')")
    page.goto(live_server.url + "#/learn/cards")
    page.wait_for_selector(".card-tile")
    for query, expected in (("roi", ["K"]), ("K", ["K"]), ("king", ["K"]), ("König", ["K"]), ("dame", ["Q"])):
        page.fill("#card-filter", query)
        shown = page.eval_on_selector_all(".card-tile:not([hidden]) .card-symbol", "els => els.map(e => e.textContent)")
        assert shown == expected, query
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(
    "changes", [{}, {"challenge.J": 2, "slapping.penalty": "lockout"}], ids=["standard", "standard-changed"]
)
def test_a_pattern_that_cannot_come_up_is_listed_as_not_played(changes: dict[str, object]) -> None:
    """Standard turns the joker slap on but deals no jokers: Learn once counted it among the patterns
    ("6 patterns can be slapped") and then said it never comes up. It belongs under "Not played"."""
    rules = Rules.build("standard").with_changes(changes)
    assert not rules.deck.jokers and rules.slaps.joker
    section = next(s for s in learn_document("en", rules)["rules"]["sections"] if s["id"] == "slaps")
    shown = [b["key"] for b in section["blocks"] if b["type"] == "pattern"]
    off = next(b for b in section["blocks"] if b["type"] == "off")
    assert "joker" not in shown and "joker" in [i["key"] for i in off["items"]]
    count = [b["text"] for b in section["blocks"] if b["type"] == "p" and b["text"].startswith("Under these")]
    assert count == [f"Under these rules, {len(shown)} patterns can be slapped:"]
    with_jokers = rules.with_changes({"deck.jokers": 2})
    section = next(s for s in learn_document("en", with_jokers)["rules"]["sections"] if s["id"] == "slaps")
    assert "joker" in [b["key"] for b in section["blocks"] if b["type"] == "pattern"]


def test_a_yes_no_rule_that_does_nothing_reads_no() -> None:
    """Runs round the corner, while runs are off, once read "on" in Learn."""
    off = Rules.build("standard").with_changes({"slaps.run": 0, "slaps.run_wrap": True})
    on = off.with_changes({"slaps.run": 3})
    labels = [
        [
            k["label"]
            for s in learn_document("en", r)["rules"]["sections"]
            for k in s["keys"]
            if k["key"] == "slaps.run_wrap"
        ]
        for r in (off, on)
    ]
    assert labels == [["off"], ["on"]]
