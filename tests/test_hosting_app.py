"""One worker of ``ratscrew serve`` in-process (Starlette's TestClient, no Redis): the websocket origin
allow-list, /readyz while stopping, no new rooms while stopping, the metrics, the JSON log lines, and the
letters routing for proxies that cannot compute nginx's hash."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ratscrew.hosting.logs import JsonLines
from ratscrew.hosting.ring import Letters, Ring
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.rooms import wire
from ratscrew.rooms.runner import CODE_ALPHABET
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
