"""``ratscrew serve`` behind a real nginx with a real Redis on loopback: rooms on two workers, routed by their
codes; the open lobby, the limits and the metrics across workers; a worker killed with -9 and its room
resumed; a forged X-Forwarded-For ignored; ``ratscrew serve`` itself killed with -9 and its workers stopping.
One site is shared by the module's tests (it takes seconds to start); each test makes its own rooms and, for
the limits, its own client addresses."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from harness.players import Player, journaled, open_room, play
from harness.server import Server
from harness.site import (
    Site,
    call,
    free_ports,
    log_lines_of,
    missing_programs,
    start_site,
    stored,
    stream_across_a_restart,
    wait_ready,
)
from ratscrew.cli import main
from ratscrew.hosting.ring import Ring
from ratscrew.web.serve import bind

# Every test of this module creates its rooms from 127.0.0.1 through nginx on one site (8 + 12 + 2 or more, plus
# those a test opens): the cap leaves them room on a loaded machine, where Redis may be declared away for a moment
# and each worker then counts its own share of the cap (hosting/limits.py).
ROOMS_PER_HOUR = 40


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    missing = missing_programs()
    if missing:
        pytest.fail(f"these tests need {' and '.join(missing)}: sudo apt-get install nginx-light redis-server")
    folder = tmp_path_factory.mktemp("site")
    started = start_site(folder, workers=2, rooms_per_hour=ROOMS_PER_HOUR, extra=("--log-level", "info"))
    try:
        yield started
    finally:
        started.stop()


def through(site: Site) -> Server:
    """The site through nginx, as the live tests' players use a server."""
    process = site.processes["serve"]
    return Server(site.url + "/", site.data, process)  # type: ignore[arg-type]


def owner(site: Site, code: str) -> int:
    return Ring(site.hosting.servers).owner(code)


def rooms_on_both_workers(site: Site, seats: int) -> list[list[Player]]:
    """Rooms opened through nginx until one is held by each worker (the proxy spreads creations)."""
    held: dict[int, list[Player]] = {}
    for _ in range(12):
        players = open_room(through(site), seats)
        worker = owner(site, players[0].code)
        if worker in held:
            for player in players:
                player.close()
        else:
            held[worker] = players
        if len(held) == 2:
            return [held[0], held[1]]
    raise AssertionError(f"12 rooms all went to worker {list(held)}")


def scrape(site: Site, worker: int, name: str, **labels: str) -> float:
    """One figure from a worker's /metrics (the client library writes the labels in alphabetical order)."""
    status, _, text = call(site.worker_url(worker) + "/metrics")
    assert status == 200
    shown = ",".join(f'{key}="{value}"' for key, value in sorted({"worker": str(worker), **labels}.items()))
    found = re.search(rf"^{re.escape(name)}\{{{re.escape(shown)}\}} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name}{{{shown}}} not in the metrics of worker {worker}"
    return float(found.group(1))


def eventually(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def log_lines(site: Site) -> list[dict[str, Any]]:
    """The JSON log lines of ratscrew serve and its workers so far."""
    return log_lines_of(site.folder / "serve.log")


def test_nginx_sends_each_code_to_the_worker_the_ring_says(site: Site) -> None:
    for index in range(8):
        status, headers, created = call(site.url + "/api/rooms", {"seats": 2, "name": f"R{index}"})
        assert status == 200, created
        assert int(headers["x-ratscrew-worker"]) == owner(site, created["code"])  # created where it will be asked
        status, headers, info = call(f"{site.url}/api/rooms/{created['code']}")
        assert status == 200 and info["code"] == created["code"]
        assert int(headers["x-ratscrew-worker"]) == owner(site, created["code"])


def test_a_score_keeper_matchs_requests_all_go_to_one_worker(site: Site) -> None:
    status, _, match = call(site.url + "/api/matches", {"players": ["Ann", "Bo"]})
    assert status == 201, match
    keys = {"X-Match-Keys": match["key"]}
    answered = set()
    for _ in range(6):
        status, headers, doc = call(f"{site.url}/api/matches/{match['id']}/rounds", {"winner": 0}, keys)
        assert status == 200, doc
        answered.add(headers["x-ratscrew-worker"])
    status, _, doc = call(f"{site.url}/api/matches/{match['id']}", headers=keys)
    assert status == 200 and len(doc["rounds"]) == 6 and len(answered) == 1


def test_four_players_in_two_rooms_on_two_workers_play_and_race_a_slap(site: Site) -> None:
    rooms = rooms_on_both_workers(site, 2)
    before = [scrape(site, worker, "ratscrew_slap_verdict_seconds_count") for worker in (0, 1)]
    for players in rooms:
        play(players, lambda p=players: p[0].state.get("cards", 0) >= 4)
        assert all(p.state["cards"] == players[0].state["cards"] for p in players)
    # A race on worker 1's room: both players slap the same card at once; the room judges them as one
    # process does, and every page sees the same verdicts in the same order.
    racers = rooms[1]
    card = racers[0].state["cards"]
    for player in racers:
        player.send({"type": "slap", "seat": player.yours[0], "card": card, "rt": 250})

    def verdicts(player: Player) -> list[tuple[str, int]]:
        kinds = ("slap_correct", "wrong_slap", "slap_dismissed")
        return [
            (item["event"]["kind"], item["event"]["seat"])
            for message in player.messages
            if message["type"] == "events"
            for item in message["items"]
            if item["event"]["kind"] in kinds
        ]

    for player in racers:
        player.wait_for(lambda p=player: len(verdicts(p)) >= 2, "both slaps judged")
    assert verdicts(racers[0]) == verdicts(racers[1])
    assert sorted(seat for _, seat in verdicts(racers[0])) == [0, 1]
    assert [kind for kind, _ in verdicts(racers[0])].count("slap_correct") <= 1
    # The metrics of the worker holding the room counted both verdicts (the slaps of setting up may add more).
    after = scrape(site, 1, "ratscrew_slap_verdict_seconds_count")
    assert after >= before[1] + 2
    assert scrape(site, 1, "ratscrew_decision_window_seconds_count") == after
    # Each worker holds its room's two sockets (once those of rooms given up above have closed).
    eventually(lambda: [scrape(site, w, "ratscrew_sockets") for w in (0, 1)] == [2, 2], "two sockets a worker")
    # A message the server refuses is logged as a JSON line naming the room.
    # (the server's lag probes keep coming: the refusal is looked for among everything after the send)
    sent_at = len(racers[0].messages)
    racers[0].send({"type": "nonsense"})
    racers[0].wait_for(lambda: any(m["type"] == "error" for m in racers[0].messages[sent_at:]), "the refusal")
    code = racers[0].code
    eventually(
        lambda: any(line.get("room") == code and "bad message" in line["msg"] for line in log_lines(site)),
        "a JSON log line naming the room",
    )
    for players in rooms:
        for player in players:
            player.close()


def listed_codes(url: str) -> set[str]:
    status, _, listed = call(url + "/api/rooms")
    assert status == 200
    return {room["code"] for room in listed["rooms"]}


def test_the_open_lobby_lists_the_rooms_of_both_workers_on_either(site: Site) -> None:
    codes: dict[int, str] = {}
    for index in range(12):
        status, _, created = call(site.url + "/api/rooms", {"seats": 3, "public": True, "name": f"Host{index}"})
        assert status == 200, created
        codes.setdefault(owner(site, created["code"]), created["code"])
        if len(codes) == 2:
            break
    assert len(codes) == 2, "every public room went to one worker"
    # Each worker publishes its own open lobbies every second: any of them lists both rooms soon after.
    wanted = set(codes.values())
    for url in (site.url, site.worker_url(0), site.worker_url(1)):
        eventually(partial(lambda u: wanted <= listed_codes(u), url), f"{url} to list both of {wanted}")


def test_the_creation_limit_holds_across_workers_and_a_forged_forwarded_for_is_ignored(site: Site) -> None:
    claimed = "203.0.113.9"  # a client address, as a trusted proxy (127.0.0.1) reports it
    made = [0, 0]
    for index in range(ROOMS_PER_HOUR):
        worker = index % 2
        status, _, created = call(
            site.worker_url(worker) + "/api/rooms", {"seats": 2}, headers={"X-Forwarded-For": claimed}
        )
        assert status == 200, created
        made[worker] += 1
    for worker in (0, 1):  # either worker knows the address made its rooms on both
        status, _, refused = call(site.worker_url(worker) + "/api/rooms", {"seats": 2}, {"X-Forwarded-For": claimed})
        assert status == 429 and f"at most {ROOMS_PER_HOUR}" in refused["error"]
    # The same header from an address that is no trusted proxy is not believed: it is a client of its own.
    status, _, created = call(
        site.worker_url(0) + "/api/rooms", {"seats": 2}, headers={"X-Forwarded-For": claimed}, source="127.0.0.2"
    )
    assert status == 200, created
    # nginx replaces whatever the client claims with the address it sees.
    status, _, created = call(site.url + "/api/rooms", {"seats": 2}, headers={"X-Forwarded-For": claimed})
    assert status == 200, created
    for worker in (0, 1):
        assert scrape(site, worker, "ratscrew_refusals_total", reason="http_429") >= 1


def test_a_worker_killed_with_kill_9_comes_back_and_its_room_resumes(site: Site) -> None:
    players = open_room(through(site), 2)
    code = players[0].code
    worker = owner(site, code)
    play(players, lambda: players[0].state.get("cards", 0) >= 5 and players[0].state.get("collect_pending") is None)
    for player in players:
        player.pump(0.3)
    players[0].wait_for(lambda: players[0].state.get("collect_pending") is None, "the won pile to move")
    before = dict(players[0].state)
    journaled(site.data, code, before["cards"])
    pid = site.worker_pid(worker)
    subprocess.run(["kill", "-9", str(pid)], check=True)
    for player in players:
        player.close()
    deadline = time.monotonic() + 60
    while True:  # ratscrew serve starts the worker again on the same port
        try:
            if site.worker_pid(worker) != pid:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the killed worker did not come back"
        time.sleep(0.2)
    site.wait_ready()
    again = [Player(through(site), p.code, p.token, since=p.last_seq) for p in players]
    for player in again:
        player.wait_for(lambda p=player: bool(p.state), "the resumed room")
    assert again[0].state["cards"] == before["cards"]
    assert again[0].state["stack_sizes"] == before["stack_sizes"]
    assert [p.yours for p in again] == [[0], [1]]
    play(again, lambda: again[0].state.get("cards", 0) >= before["cards"] + 2)
    for player in again:
        player.close()


def test_requests_without_a_room_code_go_to_the_other_worker_while_one_restarts(site: Site) -> None:
    before = stored(site)
    stream = stream_across_a_restart(site, [site.url], worker=0, clients="127.0.80")
    site.wait_ready()
    assert stream.while_away >= 4, "too few requests while the worker was away: the test proves nothing"
    assert stream.failed() == []  # pages, the lobby, new rooms and matches: none met the worker away
    # Some of them did go to the worker away first: nginx passed them on.
    assert "(111: Connection refused) while connecting to upstream" in (site.folder / "nginx" / "error.log").read_text()
    # Every room and match was made once: none twice (a request sent again), none unanswered.
    rooms, matches = stored(site)
    assert rooms - before[0] == set(stream.rooms) and len(set(stream.rooms)) == len(stream.rooms)
    assert matches - before[1] == set(stream.matches) and len(set(stream.matches)) == len(stream.matches)


def test_serve_refuses_bad_options_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def serve(*args: str) -> tuple[int, str, str]:
        code = 0
        try:
            main(["serve", "--data", str(tmp_path), *args])
        except SystemExit as ended:
            code = int(ended.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    code, _, err = serve("--workers", "2")
    assert code == 2 and "give --redis URL" in err and "Traceback" not in err
    code, _, err = serve("--ports", "80,x")
    assert code == 2 and "not a list of port numbers" in err
    code, shown, _ = serve("--ports", "9001,9002", "--print-nginx-config", "--listen", "443 ssl")
    assert code == 0
    assert "hash $ratscrew_room consistent;" in shown and "listen 443 ssl;" in shown
    assert "server 127.0.0.1:9001 max_fails=0;" in shown and "proxy_set_header Upgrade" in shown
    # HAProxy and Caddy cannot compute nginx's hash: their configurations need the letters routing.
    code, _, err = serve("--ports", "9001,9002", "--print-haproxy-config")
    assert code == 2 and "--routing letters" in err and "Traceback" not in err
    code, shown, _ = serve(
        "--ports", "9001,9002", "--routing", "letters", "--print-caddy-config", "--server-name", "ratscrew.example.org"
    )
    assert code == 0 and "\nratscrew.example.org {" in shown and "reverse_proxy @worker1 127.0.0.1:9002" in shown
    code, _, err = serve("--print-caddy-config", "--print-nginx-config")
    assert code == 2 and "give one of" in err


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie nobody reaped has ended too)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"


def test_a_serve_killed_with_kill_9_takes_its_workers_with_it(site: Site, tmp_path: Path) -> None:
    ports = free_ports(2)
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "ratscrew", "serve", "--ports", ",".join(map(str, ports))]
    command += ["--data", str(tmp_path / "data"), "--redis", f"redis://127.0.0.1:{site.redis_port}/1"]  # not the site's
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    pids: list[int] = []
    try:
        for url in urls:
            wait_ready(url, process, log)
            pids.append(int(call(url + "/healthz")[2]["pid"]))
        players = open_room(Server(urls[0] + "/", tmp_path / "data", process), 2)  # type: ignore[arg-type]
        play(players, lambda: players[0].state.get("cards", 0) >= 3)
        process.kill()
        process.wait()
        eventually(lambda: all(gone(pid) for pid in pids), "both workers to stop", timeout=60)
        # Each stopped as on SIGTERM: its journal written, its port free again.
        journaled(tmp_path / "data", players[0].code, 3, timeout=0)
        for port in ports:
            bind("127.0.0.1", port).close()
        said = [line for line in log_lines_of(log) if "ratscrew serve is gone" in line["msg"]]
        assert sorted(line["worker"] for line in said) == [0, 1]
        for player in players:
            player.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in pids:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


def drain(player: Player) -> None:
    """Read a page's socket until it closes (ConnectionClosed)."""
    while True:
        player.ws.recv(timeout=30)


def test_one_worker_without_redis_plays_from_sqlite_alone_and_drains_on_sigterm(tmp_path: Path) -> None:
    (port,) = free_ports(1)
    log = (tmp_path / "serve.log").open("wb")
    command = [sys.executable, "-m", "ratscrew", "serve", "--workers", "1", "--port", str(port)]
    process = subprocess.Popen([*command, "--data", str(tmp_path / "data")], stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_ready(url, process, tmp_path / "serve.log")
        players = open_room(Server(url + "/", tmp_path / "data", process), 2)  # type: ignore[arg-type]
        play(players, lambda: players[0].state.get("cards", 0) >= 3)
        process.send_signal(signal.SIGTERM)
        # Pages are told the server restarts (1012, "service restart"): they reconnect, as after any restart.
        for player in players:
            with pytest.raises(ConnectionClosed) as closed:
                drain(player)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        assert process.wait(60) == 0
        journaled(tmp_path / "data", players[0].code, 3)  # written before the worker exited
        lines = log_lines_of(tmp_path / "serve.log")
        said = {(line["logger"], line.get("worker")) for line in lines if line["msg"] == "stopped"}
        assert said == {("ratscrew.serve", None), ("ratscrew.hosting.worker", 0)}
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
