"""Live games over HTTP and real websockets on loopback: untrusted input is refused and the game goes on."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from harness.server import Server
from ratscrew.record import Record, state_json
from ratscrew.rooms import wire
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import PageLink, Rooms
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import Hello, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock


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


@contextmanager
def socket_for(
    server: Server, game: dict[str, Any], token: str | None = None, since: int = -1
) -> Iterator[ClientConnection]:
    """A page's socket to a game, greeted with its seat token (the game's own unless another is given)."""
    ws_url = server.url.replace("http://", "ws://").rstrip("/")
    with connect(f"{ws_url}/ws/rooms/{game['id']}", open_timeout=10) as ws:
        hello = {
            "type": "hello",
            "v": wire.VERSION,
            "token": token if token is not None else game["token"],
            "since": since,
        }
        ws.send(json.dumps(hello))
        yield ws


def receive(ws: ClientConnection, kind: str, timeout: float = 30.0) -> dict[str, Any]:
    """The next message of ``kind`` (others are passed over); the bound is for a hang, not for a busy machine."""
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
    assert [s["name"] for s in welcome["room"]["seats"]] == ["Ann", "Bob"]
    assert welcome["room"]["rules"]["slaps"]["sandwich"] is True
    assert welcome["v"] == wire.VERSION
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


def test_a_played_game_downloads_as_a_record_once_it_is_over(live_server: Server) -> None:
    game = new_game(live_server, rules={"preset": "standard", "end": {"max_cards": 30}})
    with socket_for(live_server, game) as ws:
        receive(ws, "welcome")
        state: dict[str, Any] = {}
        slapped = False
        while not state.get("over"):
            if state.get("cards", 0) >= 20 and not slapped:
                ws.send(json.dumps({"type": "slap", "seat": 1, "card": state["cards"], "rt": 400}))
                slapped = True
                state = receive(ws, "events")["state"]
                continue
            # The live record would tell every card to come: it is refused until the game is over.
            assert live_server.get(f"/api/games/{game['id']}/record")[0] == 409
            ws.send(json.dumps({"type": "flip", "seat": state.get("turn", 0)}))
            state = receive(ws, "events")["state"]
            while state["collect_pending"] is not None:  # a won challenge: its pile moves a second later
                state = receive(ws, "events")["state"]
        final = state
    status, doc = live_server.get(f"/api/games/{game['id']}/record")
    assert status == 200, doc
    assert doc["format"] == "ratscrew-record/1"
    assert doc["players"] == ["Ann", "Bob"]
    assert doc["seed"] == 7
    replayed = state_json(Record.from_json(doc).replay())
    assert replayed["cards"] == final["cards"] == 30
    assert [len(h) for h in replayed["hands"]] == final["stack_sizes"]
    assert any(isinstance(a, dict) and a.get("act") == "slap" for a in doc["actions"])
    assert [a["seat"] for a in doc["adjudications"]] == [1]  # with the figures that timed it


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
    with connect(f"{ws_url}/ws/rooms/nope", open_timeout=10) as ws:
        assert receive(ws, "error")["message"].startswith("no room 'NOPE'")


def test_play_again_keeps_seats_and_rules(live_server: Server) -> None:
    game = new_game(live_server, rules={"preset": "bicycle", "slapping": {"penalty_cards": 2}, "end": {"max_cards": 3}})
    with socket_for(live_server, game) as ws:
        receive(ws, "welcome")
        assert live_server.post(f"/api/games/{game['id']}/again", {"token": game["token"]})[0] == 409
        for seat in (0, 1, 0):
            ws.send(json.dumps({"type": "flip", "seat": seat}))
            receive(ws, "events")
        receive(ws, "over")
    status, again = live_server.post(f"/api/games/{game['id']}/again", {"token": game["token"]})
    assert status == 200
    assert again["id"] != game["id"]
    with socket_for(live_server, {"id": again["id"], "token": again["token"]}) as ws:
        welcome = receive(ws, "welcome")
    assert [s["name"] for s in welcome["room"]["seats"]] == ["Ann", "Bob"]
    assert welcome["room"]["rules"]["slapping"]["penalty_cards"] == 2
    assert welcome["room"]["preset"] == "bicycle"
    assert live_server.post(f"/api/games/{game['id']}/again", {"token": "wrong"})[0] == 403


async def settle() -> None:
    """Let every task run until none has anything left to do (the rooms' clock moves only when told)."""
    for _ in range(50):
        await asyncio.sleep(0)


def test_a_game_nobody_watches_leaves_memory_but_not_the_journal(tmp_path: Path) -> None:
    async def scenario() -> None:
        journal = SqliteJournal(tmp_path / "store.sqlite3")
        clock = ManualClock()
        rooms = Rooms(journal, idle_unload_s=120, clock=clock)
        seats = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.BOT, "Bot", "expert", ready=True)]
        rules = Rules.build("standard")
        watched, _ = rooms.create_game(seats=seats, rules=rules, bot_pace=1.0, seed=3)
        abandoned, token = rooms.create_game(seats=seats, rules=rules, bot_pace=1.0, seed=3)
        link = PageLink(1)
        watched.open(link)
        watched.submit(link, Hello(wire.VERSION, None, -1))
        for _ in range(119):
            clock.advance(1000)
            await settle()
        assert not abandoned.closed  # two minutes, less a second: still in memory
        clock.advance(1000)
        await settle()
        assert abandoned.closed  # its computer stopped playing...
        journal.flush()
        assert rooms.get(watched.code) is watched
        assert abandoned.code not in rooms.rooms
        reloaded = rooms.get(abandoned.code)  # ...and it is loaded again, where it stood, when someone comes back
        assert reloaded is not None and reloaded is not abandoned
        before, after = abandoned.core.game, reloaded.core.game
        assert before is not None and after is not None and after.actions == before.actions
        assert reloaded.core.seats_of(token) == frozenset({0})
        await rooms.close()
        journal.close()

    # Its own thread: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, scenario()).result(timeout=30)


def test_a_bug_met_by_one_message_is_logged_and_the_room_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> list[str]:
        rooms = Rooms(None)
        seats = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.BOT, "Bot", "expert", ready=True)]
        runner, _ = rooms.create_game(seats=seats, rules=Rules.build("standard"), bot_pace=1.0, seed=3)
        core = runner.core
        real = core.receive

        def broken(page_id: int, msg: wire.ClientMessage) -> None:
            if isinstance(msg, wire.Ping):
                raise RuntimeError("a bug in the room")
            real(page_id, msg)

        core.receive = broken  # type: ignore[method-assign]
        link = PageLink(1)
        runner.open(link)
        runner.submit(link, Hello(wire.VERSION, None, -1))
        runner.submit(link, wire.Ping(7))
        runner.submit(link, wire.Resync(-1))
        await settle()
        kinds = []
        while not link.outbox.empty():
            text = link.outbox.get_nowait()
            if text is not None:
                kinds.append(json.loads(text)["type"])
        alive = not runner.closed
        await rooms.close()
        return [*kinds, f"alive={alive}"]

    with ThreadPoolExecutor(1) as worker:
        kinds = worker.submit(asyncio.run, scenario()).result(timeout=30)
    assert "welcome" in kinds and "state" in kinds  # the resync after the broken ping was still answered
    assert kinds[-1] == "alive=True"
    assert "a bug in the room" in caplog.text
