"""One worker of ``ratscrew serve`` in-process (Starlette's TestClient, no Redis): the websocket origin
allow-list, /readyz while stopping, no new rooms while stopping, the metrics, the JSON log lines, the
letters routing for proxies that cannot compute nginx's hash, and the shared limits without Redis."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ratscrew.errors import TooMany
from ratscrew.hosting.logs import JsonLines
from ratscrew.hosting.ring import Letters, Ring
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.shared import sync_client
from ratscrew.hosting.site import Hosted
from ratscrew.rooms import runner, wire
from ratscrew.rooms.runner import CODE_ALPHABET
from ratscrew.table.clock import ManualClock
from ratscrew.web.app import create_app
from ratscrew.web.limits import SharedLimits
from tests.hosting_site import free_ports


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
    assert client.get("/readyz").json() == {"ready": True, "worker": 0}
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


def test_the_shared_limits_count_in_the_worker_when_redis_is_away(caplog: pytest.LogCaptureFixture) -> None:
    (port,) = free_ports(1)  # nothing listens there
    away = sync_client(f"redis://127.0.0.1:{port}/0")
    limits = SharedLimits(ManualClock(), away, worker=0, workers=2)
    with caplog.at_level(logging.WARNING):
        for _ in range(runner.ROOMS_PER_CLIENT_PER_HOUR):
            limits.create("198.51.100.4")
        with pytest.raises(TooMany):  # the cap still holds, counted here
            limits.create("198.51.100.4")
        limits.connect("198.51.100.4")
        assert limits.connections == {"198.51.100.4": 1}
        limits.disconnect("198.51.100.4")
        assert limits.connections == {}
    said = [r.getMessage() for r in caplog.records if "shared limits" in r.getMessage()]
    assert len(said) == 1 and "counting in this worker for 5 s" in said[0]  # once, not once a call
