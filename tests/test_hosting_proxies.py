"""HAProxy, Caddy and nginx, each with the configuration ``ratscrew serve --print-*-config`` writes, in front of
one pair of workers started with ``--routing letters`` (and a real Redis): every first letter of a room code,
of a game's id and of a match's id reaches the worker the letters name, whatever its case; a room plays
through each proxy on each worker; the workers see the client's address, never one the client claims; while
a worker restarts, requests without a room code reach the other one through each proxy.

One site for the module (it takes seconds to start); each test uses client addresses of its own
(127.x.y.z on loopback), so that the per-address limits of one do not reach another."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.players import Player, open_room, play
from harness.server import Server
from harness.site import Site, call, require_programs, start_site, stored, stream_across_a_restart
from ratscrew.hosting.ring import Letters
from ratscrew.hosting.routes import MATCH_ALPHABET
from ratscrew.limits import Caps
from ratscrew.rooms.runner import CODE_ALPHABET

PROXIES = ("haproxy", "caddy", "nginx")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    require_programs(("redis-server", *PROXIES))
    folder = tmp_path_factory.mktemp("letters")
    started = start_site(folder, workers=2, routing="letters", proxies=PROXIES)
    try:
        yield started
    finally:
        started.stop()


def source(proxy: str, test: int, index: int) -> str:
    """A client address of its own for each proxy, test and request."""
    return f"127.{10 + PROXIES.index(proxy)}.{test}.{index + 1}"


def answered_by(url: str, client: str) -> int:
    status, headers, doc = call(url, source=client)
    assert status in (403, 404, 409), (url, status, doc)  # no such room, game or match: but who said so?
    return int(headers["x-ratscrew-worker"])


@pytest.mark.parametrize("proxy", PROXIES)
def test_every_first_letter_in_either_case_reaches_the_worker_the_letters_name(site: Site, proxy: str) -> None:
    url, letters = site.urls[proxy], Letters(2)
    for index, first in enumerate(CODE_ALPHABET):
        for case, code in enumerate((f"{first}2345A", f"{first}2345a".lower())):
            client = source(proxy, 1, 2 * index + case)
            assert answered_by(f"{url}/api/rooms/{code}", client) == letters.owner(first), code
            assert answered_by(f"{url}/api/games/{code}-1/record", client) == letters.owner(first), code
    for index, first in enumerate(MATCH_ALPHABET):
        owner = MATCH_ALPHABET.index(first) % 2
        assert answered_by(f"{url}/api/matches/{first}00000000000", source(proxy, 2, index)) == owner, first
    status, _, _ = call(url + "/metrics")
    assert status == 404  # scraped on each worker's own port only


@pytest.mark.parametrize("proxy", PROXIES)
def test_a_room_plays_through_the_proxy_on_each_worker(site: Site, proxy: str) -> None:
    server = Server(site.urls[proxy] + "/", site.data, site.processes["serve"])  # type: ignore[arg-type]
    held: dict[int, list[Player]] = {}
    for _ in range(16):
        players = open_room(server, 2)
        worker = Letters(2).owner(players[0].code)
        if worker in held:
            for player in players:
                player.close()
            continue
        held[worker] = players
        # The page's socket went through the proxy to the worker holding the room (any other has no such room).
        play(players, lambda p=players: p[0].state.get("cards", 0) >= 4)
        cards = players[0].state["cards"]
        for player in players[1:]:
            player.wait_for(lambda p=player, c=cards: p.state.get("cards") == c, "the same cards on every page")
        if len(held) == 2:
            break
    assert sorted(held) == [0, 1], f"16 rooms made through {proxy} all went to worker {list(held)}"
    for players in held.values():
        for player in players:
            player.close()


@pytest.mark.parametrize("proxy", PROXIES)
def test_the_workers_see_the_clients_address_never_the_one_it_claims(site: Site, proxy: str) -> None:
    forged = {"X-Forwarded-For": "203.0.113.50"}
    url = f"{site.urls[proxy]}/api/rooms/ZZZZZZ"
    first, second = source(proxy, 3, 0), source(proxy, 3, 1)
    for _ in range(Caps().misses_per_minute):
        status, _, _ = call(url, headers=forged, source=first)
        assert status == 404
    status, _, refused = call(url, headers=forged, source=first)
    assert status == 429 and "wrong room codes" in refused["error"]
    # Another client claiming the same address is counted as itself: it has asked for no wrong code yet.
    status, _, _ = call(url, headers=forged, source=second)
    assert status == 404


def test_requests_without_a_room_code_go_to_the_other_worker_while_one_restarts(site: Site) -> None:
    before = stored(site)
    urls = [site.urls[proxy] for proxy in PROXIES]  # one request through each in turn
    stream = stream_across_a_restart(site, urls, worker=1, clients="127.0.90")
    site.wait_ready()
    # Two or more through each proxy (they take turns): the test proves nothing with fewer.
    assert stream.while_away >= 2 * len(PROXIES), "too few requests while the worker was away"
    assert stream.failed() == []
    rooms, matches = stored(site)  # each made once
    assert rooms - before[0] == set(stream.rooms) and len(set(stream.rooms)) == len(stream.rooms)
    assert matches - before[1] == set(stream.matches) and len(set(stream.matches)) == len(stream.matches)
