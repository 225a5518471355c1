"""Rooms over HTTP, in-process (Starlette's TestClient): creating, listing, finding by code, and the limits
that keep codes from being guessed and one client from filling the server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from ratscrew.rooms import runner, wire
from ratscrew.web import limits
from ratscrew.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path)) as test_client:
        yield test_client


def test_a_public_room_is_listed_and_a_private_one_only_found_by_its_code(client: TestClient) -> None:
    public = client.post("/api/rooms", json={"seats": 3, "name": "Ana", "public": True}).json()
    private = client.post("/api/rooms", json={"seats": 2, "name": "Bo"}).json()
    listed = client.get("/api/rooms").json()["rooms"]
    assert [r["code"] for r in listed] == [public["code"]]
    assert listed[0] == {"code": public["code"], "seats": 3, "free": 2, "host": "Ana", "preset": "standard"}
    found = client.get(f"/api/rooms/{private['code'].lower()}")  # codes are read in either case
    assert found.status_code == 200 and found.json()["phase"] == "lobby"
    assert len(private["token"]) >= 20 and private["seat"] == 0


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"seats": 13}, "seats must be a whole number from 2 to 12"),
        ({"seats": "4"}, "seats must be a whole number"),
        ({"public": "yes"}, "public must be true or false"),
        ({"standins": 1}, "standins must be true or false"),
        ({"name": ["x"]}, "a name must be text"),
        ({"rules": {"slaps": {"run": 9}}}, "slaps.run"),
    ],
)
def test_bad_room_requests_say_what_was_wrong(client: TestClient, body: dict[str, object], says: str) -> None:
    answer = client.post("/api/rooms", json=body)
    assert answer.status_code == 400 and says in answer.json()["error"]


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    answer = client.post("/api/rooms", content=b'{"seats": 2}', headers={"Content-Type": "text/plain"})
    assert answer.status_code == 400 and "Content-Type" in answer.json()["error"]


def test_room_codes_cannot_be_guessed_by_trying(client: TestClient) -> None:
    statuses = [
        client.get(f"/api/rooms/ZZZZZ{i % 10}").status_code for i in range(runner.FAILED_LOOKUPS_PER_MINUTE + 3)
    ]
    assert statuses[: runner.FAILED_LOOKUPS_PER_MINUTE] == [404] * runner.FAILED_LOOKUPS_PER_MINUTE
    assert statuses[-1] == 429


def test_one_client_cannot_fill_the_server_and_live_games_are_never_evicted(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "ROOMS_PER_CLIENT_PER_HOUR", 5)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    made = [client.post("/api/games", json={"seats": seats}) for _ in range(7)]
    assert [m.status_code for m in made] == [200] * 5 + [429] * 2
    assert "at most 5" in made[-1].json()["error"]
    for answer in made[:5]:  # every game created is still there
        assert client.get(f"/api/rooms/{answer.json()['id']}").status_code == 200


def test_too_many_requests_from_one_address_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A slow refill, so the test does not depend on how fast this machine answers.
    monkeypatch.setattr(limits, "RATE", 0.5)
    monkeypatch.setattr(limits, "BURST", 8.0)
    with TestClient(create_app(tmp_path)) as client:
        answers = [client.get("/api/rooms") for _ in range(12)]
    statuses = [a.status_code for a in answers]
    assert statuses[:8] == [200] * 8 and statuses[-1] == 429
    assert "too many requests" in answers[-1].json()["error"]


def test_pages_and_scripts_are_sent_compressed(client: TestClient) -> None:
    for path in ("/", "/static/js/pages/game.js", "/api/i18n/fr", "/api/meta"):
        answer = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers.get("content-encoding") == "gzip", path


def test_silent_sockets_are_closed_and_talking_ones_kept(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.websockets import WebSocketDisconnect

    from ratscrew.web import online

    monkeypatch.setattr(online, "HELLO_WITHIN_S", 0.3)
    monkeypatch.setattr(online, "IDLE_SOCKET_S", 0.6)
    code = client.post("/api/rooms", json={"seats": 2, "name": "Ana"}).json()["code"]
    with client.websocket_connect(f"/ws/rooms/{code}") as mute, pytest.raises(WebSocketDisconnect):
        mute.receive_json()  # never said hello: closed, with nothing sent
    with client.websocket_connect(f"/ws/rooms/{code}") as page:
        page.send_json({"type": "hello", "v": wire.VERSION, "token": None, "since": -1})
        assert page.receive_json()["type"] == "welcome"
        for i in range(6):  # 1.2 s of pings, 0.2 s apart: longer than the idle limit, never silent that long
            time.sleep(0.2)
            page.send_json({"type": "ping", "id": i})
        while page.receive_json()["type"] != "pong":  # still open: the pings are answered
            pass
        with pytest.raises(WebSocketDisconnect):  # then silent past the limit: closed (probes are not answered)
            drain(page)


def drain(page: WebSocketTestSession) -> None:
    """Read until the server closes the socket."""
    while True:
        page.receive_json()
