"""The rules summary the pages draw (POST /api/rules/summary): one server-side source for every rule
explanation outside Learn, in each language, with the deck the engine really deals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ratscrew.cards import parse_cards
from ratscrew.i18n import LANGUAGES, plural, text
from ratscrew.patterns import find_matches
from ratscrew.rules import Rules
from ratscrew.web.app import create_app

URL = "/api/rules/summary"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("summary")), raise_server_exceptions=False) as test_client:
        yield test_client


def summary(client: TestClient, body: dict[str, object]) -> dict[str, Any]:
    response = client.post(URL, json=body)
    assert response.status_code == 200, response.text
    doc: dict[str, Any] = response.json()
    return doc


# CLDR plural rules for whole numbers, written out by hand from the CLDR charts (the same categories
# Intl.PluralRules gives in the browser): en and de "one" is i = 1 (v = 0); fr "one" is i = 0,1.
CLDR = {
    "en": {0: "other", 1: "one", 2: "other", 5: "other", 21: "other"},
    "de": {0: "other", 1: "one", 2: "other", 5: "other", 21: "other"},
    "fr": {0: "one", 1: "one", 2: "other", 5: "other", 21: "other"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_plural_categories_agree_with_cldr(lang: str) -> None:
    assert {n: plural(lang, n) for n in CLDR[lang]} == CLDR[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_gets_slaps_with_engine_judged_examples(client: TestClient, lang: str) -> None:
    doc = summary(client, {"rules": {"preset": "bicycle"}, "players": 3, "lang": lang})
    rules = Rules.build("bicycle")
    keys = [s["key"] for s in doc["slaps"]]
    # bicycle turns joker slaps on, but the deck has no jokers: nothing to slap there.
    assert keys == ["double", "sandwich", "top_bottom", "marriage", "run", "ten", "ten_gap"]
    for slap in doc["slaps"]:
        assert slap["name"] and slap["sentence"] and slap["rule"], slap
        pile = parse_cards(" ".join(slap["example"]))
        assert slap["key"] in [m.pattern for m in find_matches(pile, rules)], slap
    assert doc["lang"] == lang
    assert doc["preset"]["changed"] is False
    assert len(doc["chips"]) == 4
    assert doc["challenge"] and doc["penalty"] and doc["lines"]


def test_the_three_languages_use_their_own_words_and_card_letters(client: TestClient) -> None:
    docs = {lang: summary(client, {"rules": "standard", "players": 4, "lang": lang}) for lang in LANGUAGES}
    assert docs["en"]["chips"][1] == "J1 Q2 K3 A4"
    assert docs["fr"]["chips"][1] == "V1 D2 R3 A4"
    assert docs["de"]["chips"][1] == "B1 D2 K3 A4"
    assert len({d["challenge"] for d in docs.values()}) == 3
    assert len({d["penalty"] for d in docs.values()}) == 3
    sandwich = {lang: d["slaps"][1]["example_text"] for lang, d in docs.items()}
    assert sandwich == {"en": "3♦ 7♠ K♦ 7♣", "fr": "3♦ 7♠ R♦ 7♣", "de": "3♦ 7♠ K♦ 7♣"}


def test_the_deck_count_honours_deck_decks_and_the_player_count(client: TestClient) -> None:
    def deck(players: int, decks: object) -> dict[str, Any]:
        body = {"rules": {"preset": "standard", "deck": {"decks": decks}}, "players": players, "lang": "en"}
        found: dict[str, Any] = summary(client, body)["deck"]
        return found

    assert deck(4, "auto")["decks"] == 1
    assert deck(7, "auto")["decks"] == 2
    assert deck(4, 2)["decks"] == 2
    assert deck(4, 2)["cards"] == 104
    assert deck(9, 1)["decks"] == 1
    assert deck(4, 2)["line"] == "4 players, two decks."
    assert deck(9, 1)["text"] == "1 deck of 52 cards."
    french = summary(client, {"rules": {"deck": {"decks": 2}}, "players": 3, "lang": "fr"})["deck"]
    assert french["decks"] == 2 and "deux jeux" in french["line"]


def test_jokers_only_show_when_the_deck_has_them(client: TestClient) -> None:
    plain = summary(client, {"rules": {"challenge": {"joker": 2}}, "lang": "en"})
    assert "joker" not in [s["key"] for s in plain["slaps"]]
    assert "Joker" not in " ".join(plain["chips"])
    assert "joker" not in plain["challenge"].lower()
    assert plain["deck"]["jokers"] == 0 and "joker" not in plain["deck"]["text"].lower()
    jokers = summary(client, {"rules": {"challenge": {"joker": 2}, "deck": {"jokers": 2}}, "lang": "en"})
    assert "joker" in [s["key"] for s in jokers["slaps"]]
    assert jokers["chips"][1] == "J1 Q2 K3 A4 Joker 2"
    assert jokers["deck"]["jokers"] == 2 and jokers["deck"]["text"] == "1 deck of 52 cards. Plus 2 jokers per deck."
    assert jokers["slaps"][-1]["example"][-1] == "X"


def test_changes_from_the_preset_are_listed_as_chips(client: TestClient) -> None:
    doc = summary(client, {"rules": {"preset": "standard", "slaps": {"run": 3}}, "lang": "fr"})
    assert doc["preset"]["changed"] is True
    assert doc["preset"]["text"].startswith("Standard avec 1 règle maison modifiée")
    assert [c["key"] for c in doc["changes"]] == ["slaps.run"]
    assert "\u00a0: " in doc["changes"][0]["chip"]
    assert doc["preset"]["changes_text"] == "avec 1 modification"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_summary_line_describes_the_rules_in_force_not_the_preset(client: TestClient, lang: str) -> None:
    """The line above the chips once said the preset's "J1 ..." while the chip under it said "J2 ..."."""
    body: dict[str, object] = {
        "rules": {"preset": "standard", "challenge": {"J": 2}, "slapping": {"penalty": "lockout"}},
        "lang": lang,
    }
    doc = summary(client, body)
    demands, penalty = doc["chips"][1], doc["chips"][2]
    assert demands[:2] in ("J2", "V2", "B2") and demands in doc["preset"]["text"]
    assert penalty in doc["preset"]["text"]
    plain = summary(client, {"rules": "standard", "lang": lang})
    assert plain["chips"][1] not in doc["preset"]["text"]  # the preset's own demands (J1 ...) are gone
    assert plain["preset"]["text"] == plain["preset"]["summary"]


def test_slapjack_reads_as_slapjack_in_every_language(client: TestClient) -> None:
    docs = {lang: summary(client, {"rules": "slapjack", "players": 3, "lang": lang}) for lang in LANGUAGES}
    assert [s["key"] for s in docs["en"]["slaps"]] == ["wildcard"]
    assert docs["en"]["chips"][:2] == ["Slap: any Jack", "No challenges"]
    assert docs["fr"]["chips"][:2] == ["On tape sur\u00a0: Valet sur le dessus", "Aucun défi"]
    assert docs["de"]["chips"][:2] == ["Klatschen bei: Bube obenauf", "Keine Herausforderungen"]
    assert docs["en"]["challenge"].startswith("No card opens a challenge")
    assert docs["en"]["slaps"][0]["example"][-1][0] == "J"


def test_the_new_penalties_and_patterns_have_their_words(client: TestClient) -> None:
    rules = {
        "slapping": {"penalty": "lockout", "lockout_cards": 3, "once_per_card": True},
        "slaps": {"bigmac": True, "flush": 4, "six_nine": True, "ten": "numbers", "top_bottom_ten": True},
    }
    en = summary(client, {"rules": rules, "lang": "en"})
    assert "Wrong slap: locked out for 3 cards" in en["chips"]
    assert "Big Mac" in en["chips"][0] and "flush of 4" in en["chips"][0] and "Six-nine" in en["chips"][0]
    assert en["penalty"] == (
        "A wrong slap costs no card, but the slapper's slaps do not count until 3 more cards have been turned. "
        "Nobody pays twice for the same card."
    )
    assert {s["key"] for s in en["slaps"]} >= {"bigmac", "flush", "six_nine", "top_bottom_ten"}
    de = summary(client, {"rules": rules, "lang": "de"})
    assert "Falsch geklatscht: Sperre für 3 Karten" in de["chips"]
    given = summary(client, {"rules": {"slapping": {"penalty": "give-pile"}}, "lang": "fr"})
    assert "Tape à tort\u00a0: le tas part à gauche" in given["chips"]
    bottom = summary(client, {"rules": {"slapping": {"penalty_from": "bottom", "penalty_cards": 2}}, "lang": "en"})
    assert bottom["penalty"].endswith("The cards come from the bottom of the stack.")
    assert "Wrong slap: burn 2 (from the bottom)" in bottom["chips"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"rules": {"slaps": {"run": 5}}}, "slaps.run cannot be 5"),
        ({"rules": {"slapping": {"penalty": "spank"}}}, "lockout, lockout-pile, give-pile"),
        ({"rules": {"slaps": {"top_bottom_ten": True}}}, "slaps.top_bottom_ten needs slaps.ten"),
        ({"rules": {"slaps": {"nope": 1}}}, "unknown rules key"),
        ({"rules": "chaos"}, "unknown preset"),
        ({"players": 1}, "players must be a whole number from 2 to 12, got 1"),
        ({"players": "4"}, "players must be a whole number from 2 to 12, got text"),
        ({"players": True}, "got true/false"),
        ({"lang": "it"}, "lang must be one of en, fr, de, got 'it'"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_a_bad_body_is_a_400_that_says_what_is_wrong(client: TestClient, body: dict[str, object], words: str) -> None:
    response = client.post(URL, json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.post(URL, content=b"players=4", headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["error"]
    assert client.get(URL).status_code in (404, 405)


def test_no_body_is_the_standard_rules_for_four(client: TestClient) -> None:
    doc = summary(client, {})
    assert doc["players"] == 4 and doc["preset"]["name"] == "standard" and doc["deck"]["decks"] == 1


def test_summary_module_has_no_web_imports() -> None:
    source = (Path(__file__).resolve().parents[2] / "src/ratscrew/learn/summary.py").read_text(encoding="utf-8")
    assert "starlette" not in source


# What the table tells a player without cards, by players.slap_in and players.out_when: the end of their notice.
EMPTY_RULES: list[tuple[dict[str, object], str]] = [
    ({"preset": "standard"}, "table.empty.you.wrong_slap"),
    ({"preset": "standard", "players": {"out_when": "missed-slap"}}, "table.empty.you.missed_slap"),
    ({"preset": "standard", "players": {"out_when": "never"}}, "table.empty.you.never"),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_player_without_cards_is_told_what_the_rules_in_force_allow(client: TestClient, lang: str) -> None:
    """The table once said "slap to get back in" even where an empty player is out (players.slap_in off)."""
    for rules, then in EMPTY_RULES:
        empty = summary(client, {"rules": rules, "lang": lang})["empty"]
        assert empty["seat"] == empty["mine"] == text(lang, "table.empty.seat.slap_in")
        assert empty["you"] == text(lang, "table.empty.you.slap_in", slap="{slap}") + " " + text(lang, then)
        assert "{slap}" in empty["you"]  # the page names its own Slap button and key there
    out = summary(client, {"rules": "out-is-out", "lang": lang})["empty"]
    assert out["seat"] == text(lang, "table.empty.seat.out_is_out")
    assert out["mine"] == text(lang, "table.empty.mine.out_is_out")
    assert out["you"] == text(lang, "table.empty.you.out_is_out", slap="{slap}") and "{slap}" in out["you"]
    assert out["you_out"] == text(lang, "table.empty.you_out")
    assert text(lang, "table.empty.seat.slap_in") not in out.values()
