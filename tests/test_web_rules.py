"""The house rules over HTTP: the referee names every pattern in the reader's language, and /api/meta gives
the settings forms every option with its labels and what it depends on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from ratscrew.rules import OPTIONS
from ratscrew.web.app import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("web-rules")), raise_server_exceptions=False) as test_client:
        yield test_client


def check(client: TestClient, cards: list[str], rules: object, lang: str = "en") -> dict[str, Any]:
    response = client.post("/api/check", json={"cards": cards, "rules": rules}, headers={"Accept-Language": lang})
    assert response.status_code == 200, response.text
    doc: dict[str, Any] = response.json()
    return doc


def test_the_referee_knows_every_house_pattern(client: TestClient) -> None:
    rules = {"slaps": {"bigmac": True, "flush": 3, "six_nine": True, "wildcard": 10}}
    assert check(client, ["7S", "2H", "KD", "7C"], rules)["patterns"] == ["bigmac"]
    assert check(client, ["2H", "9H", "6H"], rules)["patterns"] == ["flush", "six_nine"]
    assert check(client, ["4", "T"], rules)["patterns"] == ["wildcard"]
    assert check(client, ["3", "5", "K", "7"], {"slaps": {"ten": "numbers", "top_bottom_ten": True}})["patterns"] == [
        "top_bottom_ten"
    ]
    assert check(client, ["5", "J"], "slapjack")["slappable"] is True
    assert check(client, ["7", "7"], "slapjack")["slappable"] is False


def test_the_referee_says_why_in_the_readers_language(client: TestClient) -> None:
    rules = {"slaps": {"bigmac": True}}
    english = check(client, ["7S", "2H", "KD", "7C"], rules)["matches"][0]
    french = check(client, ["7S", "2H", "KD", "7C"], rules, "fr")["matches"][0]
    assert english["name"] == "Big Mac" and english["cards"] == ["7S", "2H", "KD", "7C"]
    assert english["why"] == "7♠ 2♥ K♦ 7♣: the top card matches the fourth from the top"
    assert french["why"] == "7♠ 2♥ R♦ 7♣\u00a0: la carte du dessus est de même valeur que la quatrième"


def test_bad_house_values_are_a_400_naming_the_allowed_ones(client: TestClient) -> None:
    response = client.post("/api/check", json={"cards": ["7"], "rules": {"slaps": {"wildcard": "X"}}})
    assert response.status_code == 400
    assert "off, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A" in response.json()["error"]


def test_meta_gives_every_option_its_labels_and_needs(client: TestClient) -> None:
    meta = client.get("/api/meta", headers={"Accept-Language": "de"}).json()
    options = {o["key"]: o for o in meta["options"]}
    assert list(options) == [o.key for o in OPTIONS]
    for opt in OPTIONS:
        doc = options[opt.key]
        if opt.kind == "choice":
            assert [c["value"] for c in doc["choices"]] == list(opt.choices)
            assert all(c["label"] and not c["label"].startswith("choice.") for c in doc["choices"])
        assert doc["summary"] and not doc["summary"].startswith("option.")
    assert options["slapping.lockout_cards"]["needs"] == {
        "key": "slapping.penalty",
        "keys": ["slapping.penalty"],
        "values": ["lockout"],
        "off": None,
    }
    assert options["slaps.top_bottom_ten"]["needs"] == {
        "key": "slaps.ten",
        "keys": ["slaps.ten"],
        "values": ["numbers", "ace-one"],
        "off": False,
    }
    # The score keeper offers what people agree on at a real table, section by section: never the timings.
    assert meta["table_sections"] == ["slaps", "challenge", "slapping", "players", "deck"]
    assert [k for k, o in options.items() if not o["table"]] == [
        "slapping.collect_delay_ms",
        "slapping.tie_window_ms",
        "end.time_limit_s",
        "end.max_cards",
    ]
    assert not options["challenge.K"]["hint"] and options["slapping.penalty"]["hint"]
    assert (options["slapping.lockout_cards"]["minimum"], options["slapping.lockout_cards"]["maximum"]) == (1, 20)
    assert {"key": "bigmac", "label": "Big Mac"} in meta["patterns"]
    assert "slapjack" in [p["name"] for p in meta["presets"]]


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        ({"challenge": {"J": 6}}, "challenge.J cannot be 6: allowed values are an integer from 0 to 5"),
        (
            {"slapping": {"lockout_cards": 21}},
            "slapping.lockout_cards cannot be 21: allowed values are an integer from 1",
        ),
        ({"slapping": {"collect_delay_ms": -1}}, "an integer from 0 to 10000"),
    ],
)
def test_a_number_out_of_range_is_refused_by_the_server_as_clearly_as_by_the_form(
    client: TestClient, rules: dict[str, object], error: str
) -> None:
    # The pages keep a bad number from being sent; a client that sends one anyway is told what and why.
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    response = client.post("/api/games", json={"seats": seats, "rules": rules})
    assert response.status_code == 400
    assert error in response.json()["error"]


@pytest.mark.parametrize(
    ("rules", "says"),
    [
        ({"preset": "standard", "slaps": {"run": 5}}, "slaps.run cannot be 5: allowed values are 0, 3, 4"),
        ("nonsense", "nonsense"),
        ({"slaps": 3}, "[slaps] must be a table of keys"),
    ],
)
def test_every_route_that_takes_rules_refuses_the_same_wrong_rules_the_same_way(
    client: TestClient, rules: object, says: str
) -> None:
    # A game, a room and a score-keeper match read their rules through one reader (web/bodies.py).
    bodies = {
        "/api/games": {"seats": [{"name": "Ann"}, {"kind": "bot", "level": "easy"}], "rules": rules},
        "/api/rooms": {"seats": 2, "name": "Ann", "rules": rules},
        "/api/matches": {"players": ["Ann", "Bo"], "rules": rules},
    }
    answers = {path: client.post(path, json=body) for path, body in bodies.items()}
    assert {r.status_code for r in answers.values()} == {400}
    messages = {r.json()["error"] for r in answers.values()}
    assert len(messages) == 1 and says in messages.pop()
