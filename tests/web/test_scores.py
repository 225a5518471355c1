"""The score keeper's API against a real SQLite file: matches, rounds, undo, the timer, and hostile bodies.

Every refused request must answer 400/404/405/409 with a readable ``error`` and leave the saved match exactly
as it was; nothing here may produce a traceback or a 500.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
import warnings
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette warns, once, that its test client will move to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ratscrew.web.app import create_app
from ratscrew.web.bodies import MAX_BODY_BYTES
from ratscrew.web.scores import KEY_HEADER, winner_by_cards
from ratscrew.web.store import Store

JSONDoc = dict[str, Any]
SLACK_S = 0.01  # a remaining time is a float computed from time.time(): room for its rounding, no more


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path), raise_server_exceptions=False) as test_client:
        yield test_client


def new_match(client: TestClient, **fields: Any) -> JSONDoc:
    """Create a match and keep its key, as the page does: the client sends every key it holds from then on."""
    body: JSONDoc = {"players": ["Ann", "Bob", "Cy"], **fields}
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    doc: JSONDoc = response.json()
    held = [k for k in client.headers.get(KEY_HEADER, "").split(",") if k]
    client.headers[KEY_HEADER] = ",".join([*held, doc["key"]])
    return doc


def refused(response: Any, status: int = 400, *words: str) -> str:
    """The response is a JSON error with the status, naming each of ``words``; returns the message."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert isinstance(message, str)
    assert message
    assert "Traceback" not in message
    for word in words:
        assert word.lower() in message.lower(), message
    return message


def saved(client: TestClient, match_id: str) -> JSONDoc:
    response = client.get(f"/api/matches/{match_id}")
    assert response.status_code == 200, response.text
    doc: JSONDoc = response.json()
    return doc


def stable(doc: JSONDoc) -> JSONDoc:
    """The saved fields of a match, without the ones that depend on the clock."""
    return {k: v for k, v in doc.items() if k not in ("remaining_s",)}


# ---------------------------------------------------------------------------------------- creating and listing


def test_new_match_is_saved_with_its_rules_and_timer(client: TestClient) -> None:
    match = new_match(client, name="  Friday\tnight ", rules={"preset": "bicycle", "slaps": {"run": 3}}, timer_s=600)
    assert re.fullmatch(r"[0-9a-f]{12}", match["id"])
    assert match["name"] == "Friday night"
    assert match["players"] == ["Ann", "Bob", "Cy"]
    assert match["rules"] == {"preset": "bicycle", "slaps": {"run": 3}}
    assert match["rules_values"]["slaps.run"] == 3
    assert match["rules_values"]["slaps.marriage"] is True
    assert match["timer_s"] == 600
    assert match["rounds"] == []
    assert match["wins"] == [0, 0, 0]
    assert match["leaders"] == []
    assert match["finished"] is False
    assert match["remaining_s"] is None
    assert match["decks"] == 1
    assert match["deck_size"] == 52
    assert re.fullmatch(r"[0-9a-f]{32}", match.pop("key"))  # given once, at creation
    assert saved(client, match["id"]) | {"remaining_s": None} == match | {"remaining_s": None}


def test_defaults_standard_rules_no_timer_and_preset_names(client: TestClient) -> None:
    plain = new_match(client)
    assert plain["rules"] == {"preset": "standard"}
    assert plain["timer_s"] == 0
    assert plain["name"] == ""
    by_name = new_match(client, rules="one-chance")
    assert by_name["rules"] == {"preset": "one-chance"}
    assert by_name["rules_values"]["challenge.A"] == 1


def test_a_time_limit_in_the_rules_becomes_the_match_timer(client: TestClient) -> None:
    match = new_match(client, rules={"preset": "standard", "end": {"time_limit_s": 900}})
    assert match["timer_s"] == 900
    assert match["rules"] == {"preset": "standard"}  # kept once, as the match's own setting


def test_big_tables_and_jokers_change_the_deck(client: TestClient) -> None:
    seven = new_match(client, players=[f"P{i}" for i in range(7)], rules={"preset": "standard", "deck": {"jokers": 2}})
    assert seven["decks"] == 2
    assert seven["deck_size"] == 108


def test_list_is_newest_first_with_wins_so_far(client: TestClient) -> None:
    first = new_match(client, name="first")
    time.sleep(0.01)
    second = new_match(client, name="second", players=["Zoe", "Yan"])
    client.post(f"/api/matches/{first['id']}/rounds", json={"winner": 2})  # playing an old match does not reorder
    listed = client.get("/api/matches").json()["matches"]
    assert [m["id"] for m in listed] == [second["id"], first["id"]]
    old = listed[1]
    assert old["wins"] == [0, 0, 1]
    assert old["leaders"] == [2]
    assert old["rounds"] == 1
    assert old["preset"] == "standard"
    assert old["finished"] is False
    assert "rules" not in old


def test_player_names_are_cleaned(client: TestClient) -> None:
    match = new_match(client, players=[" Ann\u202e ", "Bob\x00 \n Lee", "👩\u200d👩\u200d👧"])
    assert match["players"] == ["Ann", "Bob Lee", "👩\u200d👩\u200d👧"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ("players is missing",)),
        ({"players": "Ann, Bob"}, ("players", "list")),
        ({"players": ["Ann"]}, ("2 to 12",)),
        ({"players": [f"P{i}" for i in range(13)]}, ("2 to 12", "13")),
        ({"players": ["Ann", 7]}, ("player 2", "text")),
        ({"players": ["Ann", "  "]}, ("player 2", "empty")),
        ({"players": ["Ann", "ann"]}, ("different name",)),
        ({"players": ["Ann", "B" * 25]}, ("too long", "24")),
        ({"players": ["Ann", "Bob"], "name": 5}, ("name", "text")),
        ({"players": ["Ann", "Bob"], "name": False}, ("name", "text")),
        ({"players": ["Ann", "Bob"], "name": "n" * 61}, ("too long", "60")),
        ({"players": ["Ann", "Bob"], "rules": "poker"}, ("unknown preset", "standard")),
        ({"players": ["Ann", "Bob"], "rules": {"slaps": {"run": 5}}}, ("slaps.run", "allowed")),
        ({"players": ["Ann", "Bob"], "rules": {"slaps.sandwitch": True}}, ("unknown rules key", "slaps.sandwitch")),
        ({"players": ["Ann", "Bob"], "rules": 3}, ("rules", "preset")),
        ({"players": ["Ann", "Bob"], "timer_s": -1}, ("timer_s", "0 to 86400")),
        ({"players": ["Ann", "Bob"], "timer_s": True}, ("timer_s", "whole number")),
        ({"players": ["Ann", "Bob"], "timer_s": "600"}, ("timer_s", "whole number")),
        ({"players": ["Ann", "Bob"], "timer_s": 1.5}, ("timer_s", "whole number")),
        ({"players": ["Ann", "Bob"], "timer": 600}, ("unknown field", "timer_s")),
    ],
)
def test_bad_new_matches_are_refused_and_nothing_is_saved(client: TestClient, body: JSONDoc, words: tuple[str]) -> None:
    refused(client.post("/api/matches", json=body), 400, *words)
    assert client.get("/api/matches").json()["matches"] == []


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"{not json", ("not valid json",)),
        (b"[1, 2]", ("json object", "a list")),
        (b'"players"', ("json object", "text")),
        (b"\xff\xfe", ("not valid json",)),
        (b"[" * 5000 + b"]" * 5000, ("nested too deeply",)),
        (b'{"players": ' + b"[" * 50 + b"]" * 50 + b"}", ("players", "got 1")),
    ],
    ids=["broken", "list", "text", "binary", "deep", "nested-players"],
)
def test_unreadable_bodies_are_refused(client: TestClient, raw: bytes, words: tuple[str]) -> None:
    response = client.post("/api/matches", content=raw, headers={"content-type": "application/json"})
    refused(response, 400, *words)
    assert client.get("/api/matches").json()["matches"] == []


def test_huge_bodies_are_refused_before_reading_them(client: TestClient) -> None:
    names = ["x" * 20] * 2000
    raw = json.dumps({"players": names}).encode()
    assert len(raw) > MAX_BODY_BYTES
    refused(client.post("/api/matches", content=raw), 400, "too large", str(MAX_BODY_BYTES))

    def chunks() -> Iterator[bytes]:  # no content-length: the limit must hold while streaming
        for _ in range(40):
            yield b" " * 1024

    refused(client.post("/api/matches", content=chunks()), 400, "too large")


# ---------------------------------------------------------------------------------------- rounds and undo


def test_rounds_by_winner_update_wins_and_leaders(client: TestClient) -> None:
    match = new_match(client)
    url = f"/api/matches/{match['id']}/rounds"
    after = client.post(url, json={"winner": 1}).json()
    assert after["wins"] == [0, 1, 0]
    assert after["leaders"] == [1]
    after = client.post(url, json={"winner": 2, "rounds": 1}).json()
    assert after["leaders"] == [1, 2]
    assert [r["winner"] for r in after["rounds"]] == [1, 2]
    assert [r["number"] for r in after["rounds"]] == [1, 2]
    assert saved(client, match["id"])["wins"] == [0, 1, 1]


def test_rounds_by_card_count_pick_the_most_cards_or_a_draw(client: TestClient) -> None:
    match = new_match(client, timer_s=300)
    url = f"/api/matches/{match['id']}/rounds"
    won = client.post(url, json={"cards": [10, 30, 12]}).json()
    assert won["rounds"][-1] == {"number": 1, "winner": 1, "cards": [10, 30, 12]}
    drawn = client.post(url, json={"cards": [20, 20, 12]}).json()
    assert drawn["rounds"][-1] == {"number": 2, "winner": None, "cards": [20, 20, 12]}
    assert drawn["wins"] == [0, 1, 0]
    assert drawn["draws"] == 1
    assert winner_by_cards([0, 52]) == 1
    assert winner_by_cards([5, 5]) is None


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ("either winner", "neither")),
        ({"winner": 0, "cards": [1, 2, 3]}, ("either winner", "both")),
        ({"winner": 3}, ("winner", "0 to 2", "got 3")),
        ({"winner": -1}, ("winner", "0 to 2")),
        ({"winner": True}, ("winner", "whole number")),
        ({"winner": "1"}, ("winner", "whole number")),
        ({"winner": None}, ("winner", "whole number", "null")),
        ({"winner": 0.5}, ("winner", "whole number")),
        ({"cards": [10, 20]}, ("one count per player", "3 numbers")),
        ({"cards": "10 20 22"}, ("cards", "list")),
        ({"cards": [10, -1, 20]}, ("cards[1]", "0 to 52")),
        ({"cards": [10, "x", 20]}, ("cards[1]", "whole number")),
        ({"cards": [30, 20, 10]}, ("add up to 60", "52")),
        ({"cards": [0, 0, 0]}, ("every card count is 0",)),
        ({"winner": 0, "rounds": -2}, ("rounds", "0 to")),
        ({"winer": 0}, ("unknown field", "winer", "winner")),
    ],
)
def test_bad_rounds_are_refused_and_nothing_changes(client: TestClient, body: JSONDoc, words: tuple[str]) -> None:
    match = new_match(client)
    client.post(f"/api/matches/{match['id']}/rounds", json={"winner": 0})
    before = stable(saved(client, match["id"]))
    refused(client.post(f"/api/matches/{match['id']}/rounds", json=body), 400, *words)
    assert stable(saved(client, match["id"])) == before


def test_a_stale_round_count_is_a_conflict_not_a_second_round(client: TestClient) -> None:
    """A double tap, or a second phone that has not seen the last round, must not record it twice."""
    match = new_match(client)
    url = f"/api/matches/{match['id']}/rounds"
    assert client.post(url, json={"winner": 0, "rounds": 0}).status_code == 200
    response = client.post(url, json={"winner": 0, "rounds": 0})
    refused(response, 409, "changed meanwhile", "1 rounds")
    assert response.json()["match"]["wins"] == [1, 0, 0]
    assert saved(client, match["id"])["wins"] == [1, 0, 0]


def test_undo_removes_the_last_round_only(client: TestClient) -> None:
    match = new_match(client)
    for winner in (0, 1, 2):
        client.post(f"/api/matches/{match['id']}/rounds", json={"winner": winner})
    after = client.post(f"/api/matches/{match['id']}/undo", json={"rounds": 3}).json()
    assert [r["winner"] for r in after["rounds"]] == [0, 1]
    refused(client.post(f"/api/matches/{match['id']}/undo", json={"rounds": 3}), 409, "changed meanwhile")
    assert len(saved(client, match["id"])["rounds"]) == 2
    client.post(f"/api/matches/{match['id']}/undo")
    client.post(f"/api/matches/{match['id']}/undo")
    refused(client.post(f"/api/matches/{match['id']}/undo"), 409, "no round to undo")
    refused(client.post(f"/api/matches/{match['id']}/undo", json={"winner": 1}), 400, "unknown field")


def test_concurrent_rounds_are_all_kept_in_order(client: TestClient) -> None:
    match = new_match(client)
    url = f"/api/matches/{match['id']}/rounds"
    errors: list[int] = []

    def tap(winner: int) -> None:
        status = client.post(url, json={"winner": winner}).status_code
        if status != 200:
            errors.append(status)

    threads = [threading.Thread(target=tap, args=(i % 3,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    rounds = saved(client, match["id"])["rounds"]
    assert [r["number"] for r in rounds] == list(range(1, 13))
    assert saved(client, match["id"])["wins"] == [4, 4, 4]


# ---------------------------------------------------------------------------------------- timer, finish, delete


def set_round_started(tmp_path: Path, match_id: str, started: float) -> None:
    """Move the stored start of the round timer, as if the round had begun that long ago."""
    with sqlite3.connect(tmp_path / "ratscrew.sqlite3") as db:
        db.execute("UPDATE matches SET round_started = ? WHERE id = ?", (started, match_id))


def test_timer_start_is_stored_and_remaining_time_comes_from_it(client: TestClient, tmp_path: Path) -> None:
    # Each remaining time lies between its value when the test asked and its value when it was answered: the
    # test reads the clock the server reads, around each call, so the bounds hold however long the call took.
    match = new_match(client, timer_s=600)
    asked = time.time()
    started = client.post(f"/api/matches/{match['id']}/timer").json()
    assert started["timer_running"] is True
    assert 600 - (time.time() - asked) - SLACK_S <= started["remaining_s"] <= 600
    asked = time.time()
    set_round_started(tmp_path, match["id"], asked - 100)  # as if the round had begun 100 s before
    remaining = saved(client, match["id"])["remaining_s"]
    assert 500 - (time.time() - asked) - SLACK_S <= remaining <= 500 + SLACK_S
    set_round_started(tmp_path, match["id"], time.time() - 5000)
    assert saved(client, match["id"])["remaining_s"] == 0
    after = client.post(f"/api/matches/{match['id']}/rounds", json={"cards": [5, 40, 7]}).json()
    assert after["remaining_s"] is None  # the next round waits for its own start
    assert after["timer_running"] is False


def test_timer_needs_a_timed_match_and_no_body(client: TestClient) -> None:
    untimed = new_match(client)
    refused(client.post(f"/api/matches/{untimed['id']}/timer"), 409, "no timer")
    timed = new_match(client, timer_s=60)
    refused(client.post(f"/api/matches/{timed['id']}/timer", json={"seconds": 5}), 400, "unknown field")
    refused(client.post(f"/api/matches/{timed['id']}/timer", json={"action": "pause"}), 400, "start or stop")


def test_a_running_timer_can_be_stopped(client: TestClient) -> None:
    match = new_match(client, timer_s=60)
    started = client.post(f"/api/matches/{match['id']}/timer").json()
    assert started["round_started"] is not None
    assert started["remaining_s"] is not None
    stopped = client.post(f"/api/matches/{match['id']}/timer", json={"action": "stop"}).json()
    assert stopped["round_started"] is None
    assert stopped["remaining_s"] is None
    assert client.get(f"/api/matches/{match['id']}").json()["round_started"] is None


def test_a_finished_match_refuses_changes_until_reopened(client: TestClient) -> None:
    match = new_match(client, timer_s=60)
    client.post(f"/api/matches/{match['id']}/rounds", json={"winner": 0})
    done = client.post(f"/api/matches/{match['id']}/finish", json={"finished": True}).json()
    assert done["finished"] is True
    refused(client.post(f"/api/matches/{match['id']}/rounds", json={"winner": 1}), 409, "finished", "reopen")
    refused(client.post(f"/api/matches/{match['id']}/undo"), 409, "finished")
    refused(client.post(f"/api/matches/{match['id']}/timer"), 409, "finished")
    refused(client.post(f"/api/matches/{match['id']}/finish", json={"finished": "no"}), 400, "true or false")
    assert client.get("/api/matches").json()["matches"][0]["finished"] is True
    reopened = client.post(f"/api/matches/{match['id']}/finish", json={"finished": False}).json()
    assert reopened["finished"] is False
    assert client.post(f"/api/matches/{match['id']}/rounds", json={"winner": 1}).json()["wins"] == [1, 1, 0]


def test_delete_removes_the_match_and_its_rounds(client: TestClient, tmp_path: Path) -> None:
    keep = new_match(client, name="keep")
    gone = new_match(client, name="gone")
    client.post(f"/api/matches/{gone['id']}/rounds", json={"winner": 0})
    assert client.delete(f"/api/matches/{gone['id']}").json() == {"deleted": gone["id"]}
    refused(client.get(f"/api/matches/{gone['id']}"), 404, "no match")
    refused(client.delete(f"/api/matches/{gone['id']}"), 404)
    assert [m["id"] for m in client.get("/api/matches").json()["matches"]] == [keep["id"]]
    with sqlite3.connect(tmp_path / "ratscrew.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM rounds WHERE match_id = ?", (gone["id"],)).fetchone() == (0,)


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/0123456789ab",
        "/api/matches/not-an-id",
        "/api/matches/" + "f" * 200,
        "/api/matches/..%2F..%2Fetc",
        "/api/matches/0123456789ab/rounds",
        "/api/matches/0123456789ab/undo",
        "/api/matches/0123456789ab/timer",
        "/api/matches/0123456789ab/finish",
    ],
)
def test_unknown_matches_are_404(client: TestClient, path: str) -> None:
    response = (
        client.post(path, json={"winner": 0})
        if path.endswith(("rounds", "undo", "timer", "finish"))
        else client.get(path)
    )
    refused(response, 404)


def test_wrong_methods_are_json_405(client: TestClient) -> None:
    match = new_match(client)
    response = client.put("/api/matches", json={})
    refused(response, 405, "PUT", "GET or POST")
    assert "POST" in response.headers["allow"]
    refused(client.get(f"/api/matches/{match['id']}/rounds"), 405, "POST")
    refused(client.patch(f"/api/matches/{match['id']}", json={}), 405, "GET or DELETE")


def test_no_bad_request_loses_saved_data(client: TestClient) -> None:
    match = new_match(client, timer_s=120)
    for winner in (0, 2, 2):
        client.post(f"/api/matches/{match['id']}/rounds", json={"winner": winner})
    before = stable(saved(client, match["id"]))
    hostile: list[bytes] = [
        b"null",
        b"[]",
        b"{",
        b'{"finished": false, "x": 1}',
        b'{"winner": 1e400}',
        b'{"cards": [1e9, 0, 0]}',
        b'{"winner": {"$gt": 0}}',
        b'{"rounds": "3", "winner": 0}',
        b"\x00" * 100,
        b'{"cards": [' + b"1," * 4000 + b"1]}",
        b'{"rounds": 99}',
        b'{"winner": ' + b"1" * 5000 + b"}",
    ]
    for raw in hostile:
        for action in ("rounds", "undo", "timer", "finish"):
            response = client.post(
                f"/api/matches/{match['id']}/{action}", content=raw, headers={"content-type": "application/json"}
            )
            assert response.status_code in (400, 409), (action, raw[:40], response.text)
    after = stable(saved(client, match["id"]))
    assert after == before


def test_store_errors_become_a_json_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Store, *args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Store, "matches", broken)
    refused(client.get("/api/matches"), 503, "could not be used")


# ---------------------------------------------------------------------------------------- the match with other parts


def test_a_matchs_rules_go_straight_to_the_referee(client: TestClient) -> None:
    match = new_match(client, rules={"preset": "bicycle"})
    answer = client.post("/api/check", json={"cards": ["KH", "Q"], "rules": match["rules"]}).json()
    assert answer["slappable"] is True
    assert answer["patterns"] == ["marriage"]
    standard = new_match(client)
    assert (
        client.post("/api/check", json={"cards": ["KH", "Q"], "rules": standard["rules"]}).json()["slappable"] is False
    )


def test_matches_survive_a_new_app_on_the_same_folder(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as first:
        match = new_match(first, timer_s=300)
        first.post(f"/api/matches/{match['id']}/rounds", json={"winner": 2})
        asked = time.time()
        first.post(f"/api/matches/{match['id']}/timer")
        before = stable(saved(first, match["id"]))
    with TestClient(create_app(tmp_path)) as second:
        second.headers[KEY_HEADER] = match["key"]
        after = saved(second, match["id"])
    assert stable(after) == before
    assert after["remaining_s"] is not None
    assert 300 - (time.time() - asked) - SLACK_S <= after["remaining_s"] < 300  # counted from the first app's start


# ---------------------------------------------------------------------------------------- translations


def _catalog(lang: str) -> dict[str, str]:
    text = resources.files("ratscrew.i18n").joinpath(lang, "scores.json").read_text(encoding="utf-8")
    doc: dict[str, str] = json.loads(text)
    return doc


def test_every_language_has_every_score_keeper_message() -> None:
    english = _catalog("en")
    for lang in ("fr", "de"):
        other = _catalog(lang)
        assert set(other) == set(english), lang
        for key, message in other.items():
            assert set(re.findall(r"\{(\w+)\}", message)) == set(re.findall(r"\{(\w+)\}", english[key])), (lang, key)
    assert all(key.startswith("scores.") for key in english)


def test_the_page_uses_only_keys_that_exist() -> None:
    pages = resources.files("ratscrew.web").joinpath("static", "js", "pages")
    parts = [pages.joinpath("scores.js"), *sorted(pages.joinpath("scores").iterdir(), key=lambda part: part.name)]
    script = "\n".join(part.read_text(encoding="utf-8") for part in parts if part.name.endswith(".js"))
    assert '"scores.referee.title"' in script  # the page's modules were read, not only its entry
    english = _catalog("en")
    plural_bases = set(re.findall(r'\btn\("(scores\.[\w.]+)"', script)) | {
        "scores.rules.penalty_burn",
        "scores.rules.penalty_give",
    }
    for key in set(re.findall(r'"(scores\.[\w.]+)"', script)):
        if key in plural_bases:
            assert {f"{key}.one", f"{key}.other"} <= set(english), key
        else:
            assert key in english, key
