"""Play now on ``ratscrew serve``, its pools in Redis (``hosting/matchpool.py``):

- behind nginx with two workers (Redis and nginx from Debian's own configuration as docs/hosting.md changes
  it: ``harness/site.py``), two players whose presses reached different workers are seated at one table, the
  room opened on the worker that made it, and both take their seats over websockets through nginx and the
  game starts;
- with Redis stopped, a worker of several refuses a new press and tells a waiting page its place is kept (a
  code the page can say in its language), says so in ``/readyz``, and the page is still waiting once Redis
  is back; the site's only worker seats people in its own pools meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from websockets.asyncio.client import ClientConnection, connect

from harness.lookups import new_prefix
from harness.pool_cases import run
from harness.site import Site, call, eventually_answers, free_ports, require_programs, start_redis, start_site
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.rooms import wire
from ratscrew.web.app import create_app

POOL = {"size": "2", "rated": False, "preset": "standard"}
ATTEMPTS = 20  # nginx sends each press to a worker at random: two in a row reach the same one half the time


def press(site: Site, name: str) -> tuple[int, dict[str, Any]]:
    """A guest presses Play now through nginx: the worker that answered, and its answer."""
    status, headers, doc = call(site.url + "/api/playnow/join", {**POOL, "name": name})
    assert status == 200, doc
    return int(headers["x-ratscrew-worker"]), doc


def placed(site: Site, token: str) -> dict[str, Any]:
    """The guest's ticket, once their page's question (through nginx, to any worker) says they are placed."""
    deadline = time.monotonic() + 60
    while True:
        status, _, doc = call(site.url + "/api/playnow/where", {"token": token})
        assert status == 200, doc
        if doc["where"] == "placed":
            ticket: dict[str, Any] = doc["ticket"]
            return ticket
        assert doc["where"] in ("waiting", "seating") and time.monotonic() < deadline, doc
        time.sleep(0.2)


async def take_seat(site: Site, ticket: dict[str, Any]) -> ClientConnection:
    url = site.url.replace("http", "ws") + f"/ws/rooms/{ticket['room']}"
    ws = await connect(url, open_timeout=60, ping_interval=None, proxy=None)
    await ws.send(json.dumps(wire.Hello(wire.VERSION, ticket["token"], -1).to_json()))
    return ws


async def until_playing(ws: ClientConnection) -> dict[str, Any]:
    """Messages until one says the room's game is being played; that room."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        room = message.get("room")
        if isinstance(room, dict) and room.get("phase") == "playing":
            return room


def test_two_players_who_reached_different_workers_sit_at_one_table_and_their_game_starts(tmp_path: Path) -> None:
    require_programs()
    site = start_site(tmp_path / "site", 2, rooms_per_hour=1000)
    try:
        for attempt in range(ATTEMPTS):
            ann_worker, ann = press(site, f"Ann{attempt}")
            assert ann["where"] == "waiting", ann  # nobody else waits yet
            bob_worker, bob = press(site, f"Bob{attempt}")
            if bob_worker != ann_worker:
                break
            # Both presses reached one worker (that worker seated them): not what this test is about.
        else:
            raise AssertionError(f"{ATTEMPTS} pairs of presses all reached one worker: does nginx spread them?")
        # Bob's worker seated them as it took his press, and opened the room under a code nginx sends to it.
        assert bob["where"] == "placed", bob
        bob_ticket = bob["ticket"]
        assert site.hosting.ring().owner(bob_ticket["room"]) == bob_worker
        ann_ticket = placed(site, ann["token"])  # Ann's page asks whichever worker nginx picks
        assert ann_ticket["room"] == bob_ticket["room"] and {ann_ticket["seat"], bob_ticket["seat"]} == {0, 1}

        async def game() -> list[dict[str, Any]]:
            pages = [await take_seat(site, ticket) for ticket in (ann_ticket, bob_ticket)]
            try:
                return list(await asyncio.gather(*(until_playing(ws) for ws in pages)))
            finally:
                for ws in pages:
                    await ws.close()

        rooms = run(game)
        for room in rooms:
            assert room["matched"] is True and room["rated"] is False
            assert [seat["name"] for seat in room["seats"]] == [f"Ann{attempt}", f"Bob{attempt}"]
    finally:
        site.stop()


# ---------------------------------------------------------------------------------------- Redis away


@contextmanager
def hosted(folder: Path, redis_url: str, workers: int) -> Iterator[TestClient]:
    """Worker 0 of ``workers`` (in this process), its Play now in the Redis at ``redis_url``."""
    hosting = Hosting(
        ports=tuple(range(8001, 8001 + workers)), data_dir=folder, redis_url=redis_url, prefix=new_prefix()
    )
    with TestClient(create_app(folder, setup=Hosted(hosting, lambda: False))) as client:
        yield client


def ask(client: TestClient, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = client.post(f"/api/playnow/{path}", json=body)
    doc: dict[str, Any] = answer.json()
    return answer.status_code, doc


def test_with_redis_gone_a_worker_of_several_says_play_now_waits_and_a_waiting_page_keeps_its_place(
    tmp_path: Path,
) -> None:
    require_programs(("redis-server",))
    (port,) = free_ports(1)
    server = start_redis(tmp_path, port)
    try:
        eventually_answers(port)
        with hosted(tmp_path / "w0", f"redis://127.0.0.1:{port}/0", workers=2) as client:
            status, ann = ask(client, "join", {**POOL, "name": "Ann"})
            assert status == 200 and ann["where"] == "waiting", ann
            server.send_signal(signal.SIGSTOP)
            status, answer = ask(client, "where", {"token": ann["token"]})
            assert status == 503 and answer["code"] == "queue_away", answer
            assert "your place is kept while this page stays open" in answer["error"]
            status, answer = ask(client, "join", {**POOL, "name": "Bob"})
            assert status == 503 and answer["code"] == "queue_away", answer
            assert "try again in a few seconds" in answer["error"]
            ready = client.get("/readyz").json()
            assert ready["degraded"] is True and "Play now waits for it" in ready["redis"], ready
            server.send_signal(signal.SIGCONT)
            deadline = time.monotonic() + 60
            while client.get("/readyz").json()["degraded"]:  # the worker tries Redis every second
                assert time.monotonic() < deadline, "Redis never found back"
                time.sleep(0.1)
            status, answer = ask(client, "where", {"token": ann["token"]})
            assert status == 200 and answer["where"] == "waiting", answer
    finally:
        server.send_signal(signal.SIGCONT)
        server.kill()
        server.wait()


def test_with_redis_gone_the_sites_only_worker_seats_people_in_its_own_pools(tmp_path: Path) -> None:
    (port,) = free_ports(1)  # no Redis there at all
    with hosted(tmp_path / "w0", f"redis://127.0.0.1:{port}/0", workers=1) as client:
        status, ann = ask(client, "join", {**POOL, "name": "Ann"})
        assert status == 200 and ann["where"] == "waiting", ann
        status, bob = ask(client, "join", {**POOL, "name": "Bob"})
        assert status == 200 and bob["where"] == "placed", bob
        status, answer = ask(client, "where", {"token": ann["token"]})
        assert answer["where"] == "placed" and answer["ticket"]["room"] == bob["ticket"]["room"], answer
        assert "Play now seats people here" in client.get("/readyz").json()["redis"]
