"""The score keeper's owner keys and its paginated list: a match is changed only with its key, the list shows
the matches whose keys the page holds, and a long list comes a page at a time."""

from __future__ import annotations

import json
import re
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette warns, once, that its test client will move to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ratscrew.web.app import create_app
from ratscrew.web.scores import KEY_HEADER, MAX_KEYS

JSONDoc = dict[str, Any]


@pytest.fixture
def app_dir(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def client(app_dir: Path) -> Iterator[TestClient]:
    with TestClient(create_app(app_dir), raise_server_exceptions=False) as test_client:
        yield test_client


def create(client: TestClient, name: str = "", players: tuple[str, ...] = ("Ann", "Bob")) -> JSONDoc:
    response = client.post("/api/matches", json={"name": name, "players": list(players)})
    assert response.status_code == 201, response.text
    doc: JSONDoc = response.json()
    return doc


def keys(*held: str) -> dict[str, str]:
    return {KEY_HEADER: ",".join(held)}


def listed(client: TestClient, *held: str, query: str = "") -> JSONDoc:
    response = client.get(f"/api/matches{query}", headers=keys(*held))
    assert response.status_code == 200, response.text
    doc: JSONDoc = response.json()
    return doc


def writes(match_id: str) -> list[tuple[str, str, JSONDoc | None]]:
    return [
        ("POST", f"/api/matches/{match_id}/rounds", {"winner": 0}),
        ("POST", f"/api/matches/{match_id}/undo", None),
        ("POST", f"/api/matches/{match_id}/timer", None),
        ("POST", f"/api/matches/{match_id}/finish", {"finished": True}),
        ("DELETE", f"/api/matches/{match_id}", None),
    ]


# ---------------------------------------------------------------------------------------- keys


def test_a_new_match_comes_with_a_key_the_store_keeps_only_hashed(client: TestClient, app_dir: Path) -> None:
    first, second = create(client), create(client)
    assert re.fullmatch(r"[0-9a-f]{32}", first["key"])
    assert first["key"] != second["key"]
    assert "key" not in client.get(f"/api/matches/{first['id']}").json()
    with sqlite3.connect(app_dir / "ratscrew.sqlite3") as db:
        dump = "\n".join(db.iterdump())
    assert first["key"] not in dump and second["key"] not in dump


@pytest.mark.parametrize("held", [(), ("0" * 32,)], ids=["no key", "another key"])
def test_changing_a_match_needs_its_key(client: TestClient, held: tuple[str, ...]) -> None:
    match = create(client)
    client.post(f"/api/matches/{match['id']}/rounds", json={"winner": 1}, headers=keys(match["key"]))
    before = client.get(f"/api/matches/{match['id']}").json()
    for method, path, body in writes(match["id"]):
        response = client.request(method, path, json=body, headers=keys(*held))
        assert response.status_code == 403, (method, path, response.text)
        assert "key" in response.json()["error"] and "share link" in response.json()["error"]
    after = client.get(f"/api/matches/{match['id']}").json()
    assert after["rounds"] == before["rounds"] and after["finished"] is False


def test_the_key_among_others_opens_every_write(client: TestClient) -> None:
    match, other = create(client), create(client)
    held = keys("f" * 32, other["key"], match["key"])
    for method, path, body in writes(match["id"]):
        response = client.request(method, path, json=body, headers=held)
        assert response.status_code in (200, 409), (method, path, response.text)  # 409: undo with no round yet
    assert client.get(f"/api/matches/{match['id']}").status_code == 404  # deleted at last


def test_anyone_with_the_id_may_watch_and_learns_whether_they_may_change(client: TestClient) -> None:
    match = create(client)
    watched = client.get(f"/api/matches/{match['id']}")
    assert watched.status_code == 200 and watched.json()["can_change"] is False
    assert client.get(f"/api/matches/{match['id']}", headers=keys(match["key"])).json()["can_change"] is True


@pytest.mark.parametrize(
    "header",
    ["not-a-key", "A" * 32, "0" * 31, "0" * 32 + ",x", "²" * 32, ",".join(["0" * 32] * (MAX_KEYS + 1))],
    ids=["word", "upper", "short", "one-bad", "non-ascii", "too-many"],
)
def test_malformed_keys_are_refused_with_one_line(client: TestClient, header: str) -> None:
    match = create(client)
    sent = {KEY_HEADER: header.encode("utf-8")}  # as bytes, so a non-ASCII key reaches the server
    for response in (
        client.get("/api/matches", headers=sent),
        client.post(f"/api/matches/{match['id']}/rounds", json={"winner": 0}, headers=sent),
    ):
        assert response.status_code == 400, response.text
        assert KEY_HEADER in response.json()["error"]


def test_the_list_shows_the_matches_whose_keys_are_held(client: TestClient) -> None:
    mine, theirs = create(client, "mine"), create(client, "theirs")
    assert listed(client)["matches"] == []
    assert [m["name"] for m in listed(client, mine["key"])["matches"]] == ["mine"]
    both = listed(client, mine["key"], theirs["key"])["matches"]
    assert [m["name"] for m in both] == ["theirs", "mine"]  # newest first
    assert all("key" not in m for m in both)


def test_matches_saved_before_keys_stay_listed_and_open(tmp_path: Path) -> None:
    """A database from before keys: its matches keep every round, are listed to every page and stay open."""
    path = tmp_path / "ratscrew.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE matches (id TEXT PRIMARY KEY, name TEXT NOT NULL, players TEXT NOT NULL,
                rules TEXT NOT NULL, timer_s INTEGER NOT NULL DEFAULT 0, round_started REAL,
                finished INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, updated REAL NOT NULL);
            CREATE TABLE rounds (match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
                number INTEGER NOT NULL, winner INTEGER, cards TEXT, created REAL NOT NULL,
                PRIMARY KEY (match_id, number));
            """
        )
        db.execute(
            "INSERT INTO matches VALUES ('0123456789ab', 'old', ?, ?, 0, NULL, 0, 1.5, 1.5)",
            (json.dumps(["Ann", "Bob"]), json.dumps({"preset": "standard"})),
        )
        db.execute("INSERT INTO rounds VALUES ('0123456789ab', 1, 1, NULL, 1.5)")
    db.close()
    with TestClient(create_app(tmp_path)) as client:
        old = listed(client)["matches"]
        assert [(m["id"], m["wins"]) for m in old] == [("0123456789ab", [0, 1])]
        assert client.get("/api/matches/0123456789ab").json()["can_change"] is True
        answer = client.post("/api/matches/0123456789ab/rounds", json={"winner": 0})
        assert answer.status_code == 200 and answer.json()["wins"] == [1, 1]
        new = create(client, "new")
        assert [m["name"] for m in listed(client, new["key"])["matches"]] == ["new", "old"]


# ---------------------------------------------------------------------------------------- pages


def test_the_list_comes_a_page_at_a_time_newest_first(client: TestClient) -> None:
    made = [create(client, f"m{i}") for i in range(7)]
    held = [m["key"] for m in made]
    first = listed(client, *held, query="?limit=3")
    assert [m["name"] for m in first["matches"]] == ["m6", "m5", "m4"]
    # A match deleted between two pages moves nothing: the cursor is a place in time, not a position.
    client.delete(f"/api/matches/{made[3]['id']}", headers=keys(made[3]["key"]))
    second = listed(client, *held, query=f"?limit=3&before={first['next']}")
    assert [m["name"] for m in second["matches"]] == ["m2", "m1", "m0"]
    assert second["next"] is None
    assert listed(client, *held, query="?limit=6")["next"] is None
    assert listed(client, *held, query="?limit=5")["next"] is not None
    assert [m["name"] for m in listed(client, *held)["matches"]] == ["m6", "m5", "m4", "m2", "m1", "m0"]
    assert listed(client, *held)["next"] is None


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("?limit=0", "limit must be"),
        ("?limit=201", "limit must be"),
        ("?limit=%C2%B2", "limit must be"),
        ("?limit=" + "9" * 5000, "limit must be"),
        ("?before=yesterday", "before must be"),
        ("?before=1e5_abc", "before must be"),
        ("?page=2", "unknown parameter"),
    ],
)
def test_bad_page_queries_are_refused(client: TestClient, query: str, words: str) -> None:
    response = client.get(f"/api/matches{query}")
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]
