"""One worker of ``ratscrew serve`` in-process (Starlette's TestClient): the websocket origin allow-list,
/readyz while stopping, no new rooms while stopping, the metrics, the JSON log lines, the letters routing
for proxies that cannot compute nginx's hash; the shared limits with Redis away (counted in the worker, at its
share of the configured caps), and with a Redis that stops answering (a real redis-server, stopped with
SIGSTOP): the request waiting on it waits, the worker's rooms play on."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from harness.site import eventually_answers, free_ports, require_programs, start_redis
from ratscrew.errors import TooMany
from ratscrew.hosting import link
from ratscrew.hosting.limits import SharedLimits
from ratscrew.hosting.link import RedisLink
from ratscrew.hosting.logs import JsonLines
from ratscrew.hosting.ring import Letters, Ring
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.limits import Caps, Grant
from ratscrew.rooms import wire
from ratscrew.rooms.runner import CODE_ALPHABET
from ratscrew.table.clock import ManualClock
from ratscrew.web.app import create_app


class Switch:
    def __init__(self) -> None:
        self.on = False

    def __call__(self) -> bool:
        return self.on


@pytest.fixture
def stopping() -> Switch:
    return Switch()


@pytest.fixture
def client(tmp_path: Path, stopping: Switch) -> Iterator[TestClient]:
    hosting = Hosting(ports=(8001,), data_dir=tmp_path, origins=("https://club.example",))
    with TestClient(create_app(tmp_path, setup=Hosted(hosting, stopping))) as test_client:
        yield test_client


def hello(client: TestClient, code: str, origin: str | None) -> dict[str, object]:
    headers = {"origin": origin} if origin else {}
    with client.websocket_connect(f"/ws/rooms/{code}", headers=headers) as ws:
        ws.send_text(json.dumps({"type": "hello", "v": wire.VERSION, "token": None, "since": -1}))
        welcome: dict[str, object] = ws.receive_json()
        return welcome


def test_a_rooms_socket_opens_only_from_its_own_host_a_listed_origin_or_no_browser(client: TestClient) -> None:
    code = client.post("/api/rooms", json={"seats": 2}).json()["code"]
    for allowed in ("http://testserver", "https://club.example", None):
        assert hello(client, code, allowed)["type"] == "welcome", allowed
    with pytest.raises(WebSocketDisconnect) as refused:
        hello(client, code, "https://elsewhere.example")
    assert refused.value.code == 1008
    text = client.get("/metrics").text
    assert 'ratscrew_refusals_total{reason="origin",worker="0"} 1.0' in text
    assert 'ratscrew_rooms{worker="0"} 1.0' in text
    assert re.search(r'^ratscrew_messages_received_total\{worker="0"\} [1-9]', text, re.MULTILINE)


def test_a_stopping_worker_is_not_ready_and_makes_no_room(client: TestClient, stopping: Switch) -> None:
    assert client.get("/readyz").json() == {"ready": True, "worker": 0, "degraded": False}
    stopping.on = True
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.json()["error"] == "not ready: stopping"
    refused = client.post("/api/rooms", json={"seats": 2})
    assert refused.status_code == 503 and "restarting" in refused.json()["error"]
    assert client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot"}]}).status_code == 503
    assert client.get("/healthz").json()["ok"] is True  # alive all the same
    assert refused.headers["x-ratscrew-worker"] == "0"


def test_log_lines_are_json_with_the_room_code() -> None:
    record = logging.LogRecord(
        "ratscrew.rooms", logging.INFO, __file__, 1, "room %s: page %d left", ("K7PQ2M", 3), None
    )
    line = json.loads(JsonLines(worker=1).format(record))
    assert line["room"] == "K7PQ2M" and line["worker"] == 1 and line["msg"] == "room K7PQ2M: page 3 left"
    plain = logging.LogRecord("ratscrew.web", logging.WARNING, __file__, 1, "Redis is away", (), None)
    assert "room" not in json.loads(JsonLines(worker=0).format(plain))


def test_letters_routing_shares_the_alphabet_out_and_the_ring_uses_every_worker() -> None:
    letters = Letters(3)
    groups = [letters.letters(worker) for worker in range(3)]
    assert sorted("".join(groups)) == sorted(CODE_ALPHABET)
    for worker, group in enumerate(groups):
        assert all(letters.owner(first + "AAAAA") == worker for first in group)
    ring = Ring(["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"])
    owners = [ring.owner(a + b + "2345") for a in CODE_ALPHABET for b in CODE_ALPHABET]
    assert {owners.count(worker) for worker in range(3)} and min(owners.count(w) for w in range(3)) > len(owners) / 6


def test_the_shared_limits_count_in_the_worker_at_its_share_of_the_caps_when_redis_is_away(
    caplog: pytest.LogCaptureFixture,
) -> None:
    (port,) = free_ports(1)  # nothing listens there
    client = "198.51.100.4"

    async def away() -> tuple[list[Grant], SharedLimits]:
        limits = SharedLimits(
            RedisLink(f"redis://127.0.0.1:{port}/0"), ManualClock(), Caps(rooms_per_hour=6), worker=0, workers=2
        )
        try:
            made = [await limits.room(client) for _ in range(3)]  # the first finds Redis away; none asks it again
            with pytest.raises(TooMany, match="at most 3"):  # half the configured cap: there are two workers
                await limits.room(client)
            return made, limits
        finally:
            await limits.link.close()

    # On a thread of its own: in a process whose browser tests ran, Playwright's loop holds this thread.
    with caplog.at_level(logging.WARNING), ThreadPoolExecutor(1) as worker:
        made, limits = worker.submit(asyncio.run, away()).result(timeout=60)
    for grant in made:
        grant.use()
    lease = limits.local.take_socket(client)
    assert limits.local.sockets == {client: 1}
    lease.close()
    assert limits.local.sockets == {}
    said = [r.getMessage() for r in caplog.records if "Redis is away" in r.getMessage()]
    assert len(said) == 1 and "share of the cap" in said[0]  # once, not once a call


def turn_cards(ws: WebSocketTestSession, state: dict[str, Any], cards: int) -> dict[str, Any]:
    """A hot-seat game's page turns cards for whoever is due until ``cards`` are down; its latest state."""
    while state.get("cards", 0) < cards:
        if state.get("collect_pending") is None:
            ws.send_text(json.dumps({"type": "flip", "seat": state.get("turn", 0)}))
        message = ws.receive_json()  # the won pile, if any, moves by itself
        if message["type"] == "events":
            state = message["state"]
    return state


def test_a_redis_that_does_not_answer_holds_up_its_request_not_the_rooms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    require_programs(("redis-server",))
    (port,) = free_ports(1)
    server = start_redis(tmp_path, port)
    # Long enough that the request stays held while the room plays (it is no timing: it ends with Redis).
    monkeypatch.setattr(link, "TIMEOUT_S", 60.0)
    asked = threading.Event()
    room = SharedLimits.room

    async def telling(self: SharedLimits, client: str) -> Grant:
        asked.set()
        return await room(self, client)

    monkeypatch.setattr(SharedLimits, "room", telling)
    hosting = Hosting(
        ports=(8001,), data_dir=tmp_path / "data", redis_url=f"redis://127.0.0.1:{port}/0", rooms_per_hour=3
    )
    try:
        eventually_answers(port)
        with TestClient(create_app(hosting.data_dir, setup=Hosted(hosting, lambda: False))) as client:
            seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
            game = client.post("/api/games", json={"seats": seats, "seed": 7}).json()  # counted in Redis
            with client.websocket_connect(f"/ws/rooms/{game['id']}") as ws:
                ws.send_text(json.dumps({"type": "hello", "v": wire.VERSION, "token": game["token"], "since": -1}))
                state = turn_cards(ws, {}, 2)
                server.send_signal(signal.SIGSTOP)  # Redis stops answering, its connections open
                asked.clear()
                with ThreadPoolExecutor(1) as pool:
                    held = pool.submit(client.post, "/api/rooms", json={"seats": 2})
                    assert asked.wait(30), "the room's creation never asked Redis"
                    state = turn_cards(ws, state, state["cards"] + 4)  # the worker's rooms play on meanwhile
                    assert not held.done()  # still waiting on Redis all along
                    with caplog.at_level(logging.WARNING):
                        server.kill()  # the connection breaks: the limits fall back to this worker
                        assert held.result(30).status_code == 200
                # Counted here now, with the configured cap: one room made while Redis was away, two more, no fourth.
                assert [client.post("/api/rooms", json={"seats": 2}).status_code for _ in range(3)] == [200, 200, 429]
        assert any("Redis is away" in r.getMessage() for r in caplog.records)
    finally:
        server.kill()
        server.wait()
