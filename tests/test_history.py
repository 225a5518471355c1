"""The history of finished games and the replay endpoint: summaries by id, and records replayed step by step."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from harness.games import played_record, summary_for
from ratscrew.i18n import LANGUAGES
from ratscrew.record import Record, state_json
from ratscrew.web.app import create_app
from ratscrew.web.history import MAX_ACTIONS, MAX_STEPS
from ratscrew.web.store import Store


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path), raise_server_exceptions=False) as test_client:
        yield test_client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


# ------------------------------------------------------------------ history


def test_history_answers_the_named_finished_games_newest_first(client: TestClient) -> None:
    store = store_of(client)
    store.save_game("AAAAAA", Record.from_json(played_record()), summary_for("AAAAAA", [380, 410, 520]))
    store.save_game("BBBBBB", Record.from_json(played_record()), summary_for("BBBBBB", []))
    store.save_game(
        "CCCCCC", Record.from_json(played_record()), summary_for("CCCCCC", [])
    )  # someone else's: not asked for
    response = client.get("/api/history?ids=AAAAAA,BBBBBB,ZZZZZZ,AAAAAA")
    assert response.status_code == 200
    doc = response.json()
    assert [g["id"] for g in doc["games"]] == ["BBBBBB", "AAAAAA"]
    assert doc["unknown"] == ["ZZZZZZ"]
    ann = doc["games"][1]
    assert (ann["result"], ann["winner"], ann["cards"], ann["tricks"], ann["ms"]) == ("win", 0, 312, 41, 185_000)
    assert ann["played"] > 0
    first = ann["players"][0]
    assert first["name"] == "<b>Ann</b>"  # as saved: the page shows it as text
    assert first["median_reaction_ms"] == 410
    assert first["reactions"] == 3
    assert "reaction_ms" not in first  # only the median goes to the list
    assert ann["players"][1]["bot"] == "expert"


def test_history_with_no_ids_is_empty(client: TestClient) -> None:
    assert client.get("/api/history").json() == {"games": [], "unknown": [], "unchecked": []}
    assert client.get("/api/history?ids=").json() == {"games": [], "unknown": [], "unchecked": []}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ids=AAAAAA,'; DROP TABLE games", "is not a game id"),
        ("ids=" + "A" * 40, "is not a game id"),
        ("ids=" + ",".join(f"A{i:05d}" for i in range(101)), "at most 100 games"),
    ],
)
def test_history_refuses_malformed_ids(client: TestClient, query: str, expected: str) -> None:
    response = client.get(f"/api/history?{query}")
    assert response.status_code == 400
    assert expected in response.json()["error"]


# ------------------------------------------------------------------ replay


def all_steps(client: TestClient, doc: dict[str, Any], count: int = MAX_STEPS) -> tuple[list[dict[str, Any]], Any]:
    steps: list[dict[str, Any]] = []
    last: Any = None
    start = 0
    while True:
        response = client.post(f"/api/replay?start={start}&count={count}", json=doc)
        assert response.status_code == 200, response.text
        last = response.json()
        steps += last["steps"]
        start += count
        if start >= last["total"]:
            return steps, last


def test_replay_steps_end_in_the_state_ratscrew_replay_prints(client: TestClient) -> None:
    doc = played_record()
    steps, answer = all_steps(client, doc)
    game = Record.from_json(doc).replay()
    final = state_json(game)
    assert answer["final"] == final
    assert answer["total"] == len(doc["actions"]) + 1 == len(steps)
    assert [s["index"] for s in steps] == list(range(len(steps)))
    assert steps[0]["action"] is None and steps[0]["events"] == []
    assert steps[0]["view"]["stack_sizes"] == [26, 26]
    last = steps[-1]["view"]
    assert last["stack_sizes"] == [len(h) for h in final["hands"]]
    assert last["pile"] == final["pile"]
    assert last["cards"] == final["cards"] == 60
    assert last["over"] is True
    assert steps[-1]["events"][-1]["kind"] == "game_over"
    assert answer["players"] == ["Ann", "Bob"]
    assert answer["rules"]["end"]["max_cards"] == 60
    # The one slap is marked, and its step holds the verdict.
    assert answer["slaps"] == [11]
    assert steps[11]["action"]["seat"] == 1
    assert steps[11]["events"][0]["kind"] in {"slap_correct", "wrong_slap"}
    # Every card turned appears exactly once, in order.
    turned = [e["number"] for s in steps for e in s["events"] if e["kind"] == "card_turned"]
    assert turned == list(range(1, 61))


def test_replay_pages_agree_with_one_whole_answer(client: TestClient) -> None:
    doc = played_record()
    whole, _ = all_steps(client, doc)
    paged, answer = all_steps(client, doc, count=7)
    assert paged == whole
    assert answer["start"] == (len(whole) - 1) // 7 * 7


def test_replay_of_a_record_with_explicit_hands(client: TestClient) -> None:
    doc = {
        "format": "ratscrew-record/1",
        "rules": "standard",
        "players": ["Ann", "Bob"],
        "hands": [["7S", "KD"], ["7H", "2C"]],
        "actions": ["flip", "flip", {"slap": 1}],
    }
    answer = client.post("/api/replay", json=doc).json()
    assert answer["final"] == state_json(Record.from_json(doc).replay())
    assert answer["steps"][2]["view"]["pile"] == ["7S", "7H"]
    assert answer["steps"][3]["events"][0]["kind"] == "slap_correct"
    assert answer["steps"][3]["landed"] == ["7S", "7H"] and answer["steps"][3]["view"]["pile"] == []
    assert answer["steps"][2]["landed"] is None
    assert answer["slaps"] == [3]


def test_a_wrong_slaps_step_says_what_it_reacted_to_as_the_table_does(client: TestClient) -> None:
    # Seat 1 slaps at once on 7S alone (no pattern: 4H burns); later it slaps the double 7S 7H after KD covered it.
    doc = {
        "format": "ratscrew-record/1",
        "rules": "standard",
        "players": ["Ann", "Bob"],
        "hands": [["7S", "KD", "3C"], ["4H", "7H", "2C", "5D"]],
        "actions": ["flip", {"slap": 1}, "flip", "flip", {"act": "slap", "seat": 1, "card": 2}],
    }
    steps = client.post("/api/replay", json=doc).json()["steps"]
    assert [s["events"][0]["kind"] for s in (steps[2], steps[5])] == ["wrong_slap", "wrong_slap"]
    assert steps[2]["seen"] == {"card": 1, "pile": ["7S"], "missed": [], "covered_by": None}
    late = steps[5]["seen"]
    assert late["card"] == 2 and late["covered_by"] == "KD" and late["pile"] == ["7S", "7H", "KD"]
    assert [m["pattern"] for m in late["missed"]] == ["double"]
    assert all(s["seen"] is None for i, s in enumerate(steps) if i not in (2, 5))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, 'format must be "ratscrew-record/1"'),
        ({"format": "ratscrew-record/2"}, 'format must be "ratscrew-record/1"'),
        ({"format": "ratscrew-record/1", "players": ["A", "B"]}, 'needs "hands"'),
        ({"format": "ratscrew-record/1", "rules": {"slaps": {"run": 9}}, "players": ["A", "B"], "seed": 1}, "run"),
        ({"format": "ratscrew-record/1", "players": ["A", "B"], "seed": 1, "actions": ["fly"]}, "action 0"),
        (
            {"format": "ratscrew-record/1", "players": ["A", "B"], "seed": 1, "actions": [{"slap": 5}]},
            "action 0 cannot be replayed: seat 5 does not exist",
        ),
        ([1, 2, 3], "must be a JSON object"),
    ],
)
def test_bad_records_get_one_clear_line(client: TestClient, body: object, expected: str) -> None:
    response = client.post("/api/replay", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert expected in error
    assert "\n" not in error


def test_a_record_played_past_its_end_is_refused_by_action(client: TestClient) -> None:
    doc = played_record()
    doc["actions"] = [*doc["actions"], "flip"]
    response = client.post("/api/replay", json=doc)
    assert response.status_code == 400
    assert f"action {len(doc['actions']) - 1} cannot be replayed: the game is over" in response.json()["error"]


def test_records_that_are_not_json_or_too_large_are_refused(client: TestClient) -> None:
    response = client.post("/api/replay", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["error"]
    huge = json.dumps({"format": "ratscrew-record/1", "padding": "x" * (2 * 1024 * 1024)})
    response = client.post("/api/replay", content=huge.encode(), headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert "at most 2 MB" in response.json()["error"]
    response = client.post("/api/replay", content=b'{"format": 1}', headers={"Content-Type": "text/plain"})
    assert response.status_code == 400
    assert "Content-Type" in response.json()["error"]


def test_a_record_of_too_many_actions_is_refused(client: TestClient) -> None:
    doc = {"format": "ratscrew-record/1", "players": ["A", "B"], "seed": 1, "actions": ["wait"] * (MAX_ACTIONS + 1)}
    response = client.post("/api/replay", json=doc)
    assert response.status_code == 400
    assert f"at most {MAX_ACTIONS}" in response.json()["error"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("start=-1", "start must be"),
        ("count=0", "count must be"),
        (f"count={MAX_STEPS + 1}", "count must be"),
        ("start=999", "start must be a step from 0 to"),
    ],
)
def test_replay_windows_outside_the_game_are_refused(client: TestClient, query: str, expected: str) -> None:
    doc = {"format": "ratscrew-record/1", "players": ["A", "B"], "seed": 1, "actions": ["flip"]}
    response = client.post(f"/api/replay?{query}", json=doc)
    assert response.status_code == 400
    assert expected in response.json()["error"]


# ------------------------------------------------------------------ texts


def history_catalog(lang: str) -> dict[str, str]:
    """The history page's and the replay viewer's texts (the viewer's playing controls have their own file)."""
    from importlib import resources

    catalog: dict[str, str] = {}
    for name in ("history.json", "replay.json"):
        catalog |= json.loads(resources.files("ratscrew.i18n").joinpath(lang, name).read_text(encoding="utf-8"))
    return catalog


def test_history_catalogs_have_the_same_keys_and_placeholders_in_every_language() -> None:
    import re

    placeholder = re.compile(r"\{(\w+)\}")
    english = history_catalog("en")
    assert all(k.startswith(("history.", "replay.", "nav.history")) for k in english)
    for lang in LANGUAGES:
        other = history_catalog(lang)
        assert set(other) == set(english), f"{lang}/history.json: {set(english) ^ set(other)}"
        for key, text in english.items():
            assert set(placeholder.findall(other[key])) == set(placeholder.findall(text)), (lang, key)
            assert other[key].strip(), (lang, key)


def test_every_history_key_the_pages_ask_for_is_there() -> None:
    import re
    from importlib import resources

    static = Path(str(resources.files("ratscrew.web").joinpath("static")))
    english = history_catalog("en")
    for name in ("js/pages/history.js", "js/pages/replay.js", "index.html"):
        source = (static / name).read_text(encoding="utf-8")
        for key in re.findall(r"[\"`]((?:history|replay)\.[a-z_.]+[a-z])[\"`]", source):
            assert key in english, f"{name} uses {key}, missing in history.json"
