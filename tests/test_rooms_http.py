"""Rooms over HTTP, in-process (Starlette's TestClient): creating, listing, finding by code, and the limits
that keep codes from being guessed and one client from filling the server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ratscrew.limits import Caps, Limits, LocalLimits
from ratscrew.rooms import wire
from ratscrew.rooms.runner import Rooms
from ratscrew.web import limits
from ratscrew.web.app import Setup, create_app

MISSES = Caps().misses_per_minute


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
    statuses = [client.get(f"/api/rooms/ZZZZZ{i % 10}").status_code for i in range(MISSES + 3)]
    assert statuses[:MISSES] == [404] * MISSES
    assert statuses[-1] == 429


def _socket(client: TestClient, code: str) -> int:
    """The room's websocket asked for by code, as a status: 200 when it opens, else its close code as 404/429."""
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_json(wire.Hello(wire.VERSION, None, -1).to_json())
        first = ws.receive_json()
        if first["type"] == "welcome":
            return 200
        closing = ws.receive()
    return {wire.CloseCode.NO_ROOM: 404, wire.CloseCode.TOO_MANY: 429}[closing["code"]]


# Every route that can tell a live room code from a wrong one, as the status it answers for a code.
ASK_BY_CODE: dict[str, Callable[[TestClient, str], int]] = {
    "room": lambda client, code: client.get(f"/api/rooms/{code}").status_code,
    "record": lambda client, code: client.get(f"/api/games/{code}/record").status_code,
    "again": lambda client, code: client.post(f"/api/games/{code}/again", json={"token": "a guess"}).status_code,
    "socket": _socket,
}


@pytest.mark.parametrize("route", ASK_BY_CODE)
def test_wrong_codes_count_against_the_same_limit_on_every_route_that_tells_a_live_code(
    client: TestClient, route: str
) -> None:
    ask = ASK_BY_CODE[route]
    live = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).json()["id"]
    told = ask(client, live)
    assert told in (200, 403, 409)  # a live code is told from a wrong one...
    wrong = [ask(client, f"ZZZZZ{i % 10}") for i in range(MISSES + 1)]
    assert wrong == [404] * MISSES + [429]
    assert ask(client, live) == 429  # ...until too many wrong ones: then every code gets the same answer


def test_wrong_codes_on_one_route_count_for_the_others(client: TestClient) -> None:
    half = MISSES // 2
    for i in range(half):
        assert ASK_BY_CODE["record"](client, f"ZZZZZ{i}") == 404
    for i in range(MISSES - half):
        assert ASK_BY_CODE["again"](client, f"YYYYY{i}") == 404
    assert ASK_BY_CODE["room"](client, "ZZZZZ0") == 429


class Capped(Setup):
    def __init__(self, caps: Caps) -> None:
        self.caps = caps

    def limits(self, rooms: Rooms) -> Limits:
        return LocalLimits(rooms.clock, self.caps)


def test_one_client_cannot_fill_the_server_and_live_games_are_never_evicted(tmp_path: Path) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    with TestClient(create_app(tmp_path, setup=Capped(Caps(rooms_per_hour=5)))) as client:
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
