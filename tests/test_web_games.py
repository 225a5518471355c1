"""Live games over HTTP and real websockets on loopback: untrusted input is refused and the game goes on."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from ratscrew.record import Record, state_json
from ratscrew.rules import Rules
from ratscrew.table import SeatSpec
from ratscrew.web.rooms import Connection, GameSetup, Rooms
from ratscrew.web.store import Store
from tests.conftest import Server


def new_game(server: Server, **extra: object) -> dict[str, Any]:
    body: dict[str, object] = {
        "seats": [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}],
        "rules": {"preset": "standard"},
        "seed": 7,
    }
    body.update(extra)
    status, doc = server.post("/api/games", body)
    assert status == 200, doc
    return dict(doc)


def socket_for(server: Server, game: dict[str, Any], token: str | None = None) -> ClientConnection:
    ws_url = server.url.replace("http://", "ws://").rstrip("/")
    return connect(
        f"{ws_url}/ws/games/{game['id']}?token={token if token is not None else game['token']}", open_timeout=10
    )


def receive(ws: ClientConnection, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message within {timeout} s")


def test_welcome_tells_the_page_its_seats_and_the_rules(live_server: Server) -> None:
    game = new_game(live_server)
    with socket_for(live_server, game) as ws:
        welcome = receive(ws, "welcome")
    assert welcome["yours"] == [0, 1]
    assert [s["name"] for s in welcome["seats"]] == ["Ann", "Bob"]
    assert welcome["rules"]["slaps"]["sandwich"] is True
    assert welcome["state"]["stack_sizes"] == [26, 26]
    assert "hands" not in welcome["state"]  # a page never sees the cards in a stack


@pytest.mark.parametrize(
    "bad",
    [
        "not json at all",
        json.dumps({"type": "flip"}),
        json.dumps({"type": "slap", "seat": "zero"}),
        json.dumps({"type": "teleport", "seat": 0}),
        json.dumps([1, 2, 3]),
        json.dumps({"type": "flip", "seat": 0, "padding": "x" * 5000}),
    ],
)
def test_malformed_and_oversized_messages_are_refused_and_the_game_goes_on(live_server: Server, bad: str) -> None:
    game = new_game(live_server)
    with socket_for(live_server, game) as ws:
        receive(ws, "welcome")
        ws.send(bad)
        error = receive(ws, "error")
        assert error["message"]
        ws.send(json.dumps({"type": "flip", "seat": 0}))
        events = receive(ws, "events")
    assert events["items"][0]["event"]["kind"] == "card_turned"
    assert events["state"]["cards"] == 1


def test_a_seat_that_is_not_yours_is_refused(live_server: Server) -> None:
    game = new_game(
        live_server, seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    )
    with socket_for(live_server, game) as ws:
        receive(ws, "welcome")
        ws.send(json.dumps({"type": "slap", "seat": 1, "card": 0}))
        rejected = receive(ws, "rejected")
        assert rejected["code"] == "not_yours"
        ws.send(json.dumps({"type": "flip", "seat": 0}))
        assert receive(ws, "events")["state"]["cards"] >= 1
    # A page without the game's token may watch, but every move it sends is refused.
    with socket_for(live_server, game, token="guess") as spectator:
        welcome = receive(spectator, "welcome")
        assert welcome["yours"] == []
        spectator.send(json.dumps({"type": "flip", "seat": 0}))
        assert receive(spectator, "rejected")["code"] == "not_yours"


def test_moves_out_of_turn_are_rejected_with_a_reason(live_server: Server) -> None:
    game = new_game(live_server)
    with socket_for(live_server, game) as ws:
        receive(ws, "welcome")
        ws.send(json.dumps({"type": "flip", "seat": 1}))
        rejected = receive(ws, "rejected")
    assert rejected["code"] == "not_your_turn"
    assert rejected["seat"] == 0


def test_a_played_game_downloads_as_a_record_that_replays_to_the_same_state(live_server: Server) -> None:
    game = new_game(live_server)
    with socket_for(live_server, game) as ws:
        receive(ws, "welcome")
        state: dict[str, Any] = {}
        for _ in range(30):
            ws.send(json.dumps({"type": "flip", "seat": state.get("turn", 0)}))
            message = receive(ws, "events")
            state = message["state"]
            if state["collect_pending"] is not None:
                time.sleep(1.1)  # let the won pile move
                ws.send(json.dumps({"type": "ping"}))
                receive(ws, "pong")
        ws.send(json.dumps({"type": "slap", "seat": 1, "card": state["cards"]}))
        final = receive(ws, "events")["state"]
    status, doc = live_server.get(f"/api/games/{game['id']}/record")
    assert status == 200
    assert doc["format"] == "ratscrew-record/1"
    assert doc["players"] == ["Ann", "Bob"]
    assert doc["seed"] == 7
    replayed = state_json(Record.from_json(doc).replay())
    assert replayed["cards"] == final["cards"] >= 30
    assert [len(h) for h in replayed["hands"]] == final["stack_sizes"]
    assert replayed["pile"] == final["pile"]
    assert len(replayed["burned"]) == final["burned_count"]
    assert any(isinstance(a, dict) and a.get("act") == "slap" for a in doc["actions"])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"seats": [{"name": "Ann", "kind": "human"}]}, "seats must be a list of 2 to 12"),
        ({"seats": [{"kind": "bot"}, {"kind": "bot"}]}, "needs 1 or 2 people"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}]}, "unknown level"),
        ({"seats": [{"kind": "human"}, {"kind": "bot"}], "rules": {"slaps": {"run": 5}}}, "slaps.run cannot be 5"),
        ({"seats": [{"kind": "human"}, {"kind": "bot"}], "bot_pace": 100}, "bot_pace"),
        ({"seats": "everyone"}, "seats must be a list"),
    ],
)
def test_bad_new_game_requests_get_a_clear_error(live_server: Server, body: object, expected: str) -> None:
    status, doc = live_server.post("/api/games", body)
    assert status == 400
    assert expected in doc["error"]


def test_unknown_game_and_unknown_api_paths(live_server: Server) -> None:
    assert live_server.get("/api/games/nope/record")[0] == 404
    assert live_server.get("/api/does-not-exist")[0] == 404
    ws_url = live_server.url.replace("http://", "ws://").rstrip("/")
    with connect(f"{ws_url}/ws/games/nope", open_timeout=10) as ws:
        assert receive(ws, "error")["message"] == "no such game"


def test_play_again_keeps_seats_and_rules(live_server: Server) -> None:
    game = new_game(live_server, rules={"preset": "bicycle", "slapping": {"penalty_cards": 2}})
    status, again = live_server.post(f"/api/games/{game['id']}/again", {"token": game["token"]})
    assert status == 200
    assert again["id"] != game["id"]
    with socket_for(live_server, {"id": again["id"], "token": again["token"]}) as ws:
        welcome = receive(ws, "welcome")
    assert [s["name"] for s in welcome["seats"]] == ["Ann", "Bob"]
    assert welcome["rules"]["slapping"]["penalty_cards"] == 2
    assert welcome["preset"] == "bicycle"
    assert live_server.post(f"/api/games/{game['id']}/again", {"token": "wrong"})[0] == 403


def test_a_game_nobody_watches_is_closed_after_the_idle_limit(tmp_path: Path) -> None:
    async def scenario() -> None:
        rooms = Rooms(Store(tmp_path / "store.sqlite3"), idle_limit_s=0.3)
        setup = GameSetup((SeatSpec("Ann"), SeatSpec("Bot", "expert")), Rules.build("standard"), seed=3)
        watched, abandoned = rooms.create(setup), rooms.create(setup)
        conn = Connection(send=_ignore, seats=frozenset({0}))
        await watched.attach(conn)
        await asyncio.sleep(0.8)
        assert rooms.get(abandoned.id) is None  # closed and forgotten: its computer stopped playing
        assert rooms.get(watched.id) is watched
        watched.detach(conn)
        await asyncio.sleep(0.8)
        assert rooms.get(watched.id) is None
        await rooms.close()

    # Its own thread: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, scenario()).result(timeout=30)


async def _ignore(message: dict[str, object]) -> None:
    return None
