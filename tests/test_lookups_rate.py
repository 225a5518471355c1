"""How fast one address can try room codes and game ids, on virtual time (the limits' windows on a clock the
test moves): 20 unknown codes or ids a minute, whatever the routes it spreads them over, 100 ids a history
request included, in the app of ``ratscrew play`` and across two workers of ``ratscrew serve`` sharing a real
redis-server. And what a known id costs: nothing, so that a player's own history page always works."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from harness.games import played_record, summary_for
from harness.lookups import Redis, app_client, hosting_for, new_prefix, redis_server, spend
from ratscrew.limits import Caps
from ratscrew.record import Record
from ratscrew.rooms import wire
from ratscrew.table.clock import ManualClock
from ratscrew.web.store import Store

CAP = Caps().misses_per_minute
MINUTES = 5
EVERY_MS = 3000  # one probe every three seconds: more than the cap allows, so the cap is what bounds it


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


def code(n: int) -> str:
    """A made-up room code, a different one each time."""
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    return "Q" + "".join(alphabet[n // 31**i % 31] for i in range(5))


def socket_tells(client: TestClient, n: int) -> int:
    try:
        with client.websocket_connect(f"/ws/rooms/{code(n)}") as ws:
            ws.send_text(json.dumps(wire.Hello(wire.VERSION, None, -1).to_json()))
            ws.receive_json()
            closing = ws.receive()
    except WebSocketDisconnect as closed:
        return int(closed.code == wire.CloseCode.NO_ROOM)
    return int(closing.get("code") == wire.CloseCode.NO_ROOM)


def history_tells(client: TestClient, n: int) -> int:
    ids = ",".join(f"{code(n * 100 + i)}-1" for i in range(100))
    answer = client.get(f"/api/history?ids={ids}")
    if answer.status_code == 429:
        return 0
    doc = answer.json()
    return len(doc["unknown"]) + len(doc["games"])


Probe = Callable[[TestClient, int], int]  # how many ids the answer told known or unknown
PROBES: list[Probe] = [
    lambda client, n: int(client.get(f"/api/rooms/{code(n)}").status_code == 404),
    lambda client, n: int(client.get(f"/api/games/{code(n)}-1/record").status_code == 404),
    lambda client, n: int(client.post(f"/api/games/{code(n)}/again", json={"token": "x"}).status_code == 404),
    lambda client, n: int(client.get(f"/api/matches/{n:012x}").status_code == 404),
    history_tells,
    socket_tells,
]


def probe_for(clients: list[TestClient], clock: ManualClock) -> list[tuple[int, int]]:
    """Every route in turn, over every client in turn, every EVERY_MS for MINUTES: (when, ids told) each."""
    told = []
    for n in range(MINUTES * 60_000 // EVERY_MS):
        clock.advance_to(n * EVERY_MS)
        told.append((clock.now(), PROBES[n % len(PROBES)](clients[n % len(clients)], n)))
    return told


def assert_bounded(told: list[tuple[int, int]]) -> None:
    """At most CAP ids told in any minute; and the prober, asking more, got about that many."""
    for at, _ in told:
        in_minute = sum(count for when, count in told if at - 60_000 < when <= at)
        assert in_minute <= CAP, f"{in_minute} ids told in the minute to {at} ms"
    total = sum(count for _, count in told)
    assert MINUTES * CAP - CAP <= total <= MINUTES * CAP


@pytest.mark.parametrize("kind", ["play", "hosted"])
def test_one_address_is_told_at_most_20_ids_a_minute_whatever_routes_it_tries(
    tmp_path: Path, redis: Redis, kind: str
) -> None:
    clock = ManualClock()
    with app_client(kind, tmp_path, clock, redis) as client:
        assert_bounded(probe_for([client], clock))


def test_two_workers_sharing_redis_tell_one_address_20_ids_a_minute_between_them(tmp_path: Path, redis: Redis) -> None:
    clock, prefix, ports = ManualClock(), new_prefix(), (8001, 8002)
    first = hosting_for(tmp_path / "w0", redis, ports, 0, prefix)
    second = hosting_for(tmp_path / "w1", redis, ports, 1, prefix)
    with (
        app_client("hosted", first.data_dir, clock, redis, first) as one,
        app_client("hosted", second.data_dir, clock, redis, second) as other,
    ):
        assert_bounded(probe_for([one, other], clock))


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


@pytest.mark.parametrize("kind", ["play", "hosted"])
def test_a_players_own_history_costs_nothing_and_a_spent_address_is_told_nothing(
    tmp_path: Path, redis: Redis, kind: str
) -> None:
    clock = ManualClock()
    with app_client(kind, tmp_path, clock, redis) as client:
        mine = [f"{code(i)}-1" for i in range(100)]
        for game_id in mine:
            store_of(client).save_game(
                game_id, Record.from_json(played_record(max_cards=20)), summary_for(game_id, [400])
            )
        for _ in range(3):  # the page opened again and again: every game listed, nothing spent
            answer = client.get(f"/api/history?ids={','.join(mine)}").json()
            assert len(answer["games"]) == 100 and answer["unknown"] == answer["unchecked"] == []
        assert spend(client) == CAP  # the whole budget was still there
        refused = client.get(f"/api/history?ids={','.join(mine[:3])}")
        assert refused.status_code == 429 and "wrong room codes or game ids" in refused.json()["error"]
        clock.advance(60_000)
        # 25 unknown ids before 5 known ones: 20 told unknown, then nothing more is told, known or not.
        wrong = [f"{code(1000 + i)}-1" for i in range(25)]
        answer = client.get(f"/api/history?ids={','.join(wrong + mine[:5])}").json()
        assert answer["unknown"] == wrong[:CAP] and answer["games"] == []
        assert answer["unchecked"] == wrong[CAP:] + mine[:5]
