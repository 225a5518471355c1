"""The hosting files an operator installs, as docs/hosting.md has them installed: Debian's stock nginx.conf
changed by the doc's own command, with the site ``ratscrew serve --print-nginx-config`` prints, holds the
sockets of 300 rooms of four; the systemd unit ``--print-systemd-unit`` prints passes ``systemd-analyze
verify`` and its command line starts the very workers it was printed for; ``ratscrew serve`` raises its soft
limit on open files to the hard one and says what that holds.

Every process here starts with a soft limit of 1024 open files, as systemd starts a service that sets no
``LimitNOFILE`` (Debian's nginx.service sets none): what nginx and ``ratscrew serve`` hold beyond that, they
hold because of what the doc and the code do."""

from __future__ import annotations

import asyncio
import json
import re
import resource
import shlex
import signal
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect

from harness.site import (
    HOSTING_DOC,
    Site,
    call,
    doc_nginx_command,
    files_limit,
    free_ports,
    log_lines_of,
    program,
    require_programs,
    start_redis,
    start_site,
    wait_ready,
)
from ratscrew.cli import main
from ratscrew.hosting import files, nginx, systemd
from ratscrew.rooms import wire

ROOMS = 300
SOCKETS = 4  # a room's: one a seat
SYSTEMD_SOFT_LIMIT = 1024
ROOMS_PER_ADDRESS = 10  # the per-address caps (sockets, connections through nginx) hold 40 sockets easily


def client_address(room: int) -> str:
    return f"127.0.100.{room // ROOMS_PER_ADDRESS + 1}"


async def open_rooms(url: str, rooms: int) -> tuple[list[ClientConnection], Counter[str]]:
    """``rooms`` rooms made through ``url``, and ``SOCKETS`` sockets in each that said hello and were welcomed:
    the sockets, and why any of them could not be opened."""
    failures: Counter[str] = Counter()
    opened: list[ClientConnection] = []
    gate = asyncio.Semaphore(40)

    async def socket_in(code: str, address: str, token: str | None) -> None:
        async with gate:
            try:
                ws = await connect(
                    f"{url.replace('http', 'ws')}/ws/rooms/{code}",
                    local_addr=(address, 0),
                    open_timeout=120,
                    ping_interval=None,
                    proxy=None,
                )
            except Exception as exc:
                failures[f"open: {type(exc).__name__}: {str(exc)[:80]}"] += 1
                return
            opened.append(ws)
            try:
                await ws.send(json.dumps({"type": "hello", "v": wire.VERSION, "token": token, "since": -1}))
                while json.loads(await asyncio.wait_for(ws.recv(), 120))["type"] != "welcome":
                    pass
            except Exception as exc:
                failures[f"hello: {type(exc).__name__}: {str(exc)[:80]}"] += 1

    async def room(index: int) -> None:
        address = client_address(index)
        try:
            status, _, made = await asyncio.to_thread(call, url + "/api/rooms", {"seats": SOCKETS}, None, address)
        except OSError as exc:
            failures[f"POST /api/rooms: {type(exc).__name__}: {str(exc)[:80]}"] += 1
            return
        if status != 200:
            failures[f"POST /api/rooms: {status} {made}"] += 1
            return
        tokens = [made["token"]] + [None] * (SOCKETS - 1)
        await asyncio.gather(*(socket_in(made["code"], address, token) for token in tokens))

    await asyncio.gather(*(room(index) for index in range(rooms)))
    return opened, failures


def hold_rooms(site: Site, rooms: int) -> Counter[str]:
    """Open the rooms and their sockets through nginx and, with all of them open at once, check the worker
    holds every one and still answers and writes; why any failed."""

    async def run() -> Counter[str]:
        opened, failures = await open_rooms(site.url, rooms)
        try:
            held = await asyncio.to_thread(sockets_held, site)
            if held != rooms * SOCKETS:
                failures[f"the worker holds {held} sockets"] += 1
            status, _, made = await asyncio.to_thread(call, site.url + "/api/rooms", {"seats": 2}, None, "127.0.101.1")
            if status != 200:  # a room made now is written to the journal: the SQLite file opens
                failures[f"a room made with every socket open: {status} {made}"] += 1
            closed = sum(1 for ws in opened if ws.close_code is not None)
            if closed:
                failures[f"{closed} sockets closed"] += 1
        finally:
            await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
        return failures

    with ThreadPoolExecutor(1) as worker:  # a loop of its own, whatever else this test process runs
        return worker.submit(asyncio.run, run()).result(timeout=900)


def sockets_held(site: Site) -> int:
    status, _, text = call(site.worker_url(0) + "/metrics")
    assert status == 200
    found = re.search(r'^ratscrew_sockets\{worker="0"\} (\S+)$', text, re.MULTILINE)
    return int(float(found.group(1))) if found else -1


def test_stock_nginx_changed_as_the_doc_says_holds_300_rooms_of_four_sockets_on_one_worker(tmp_path: Path) -> None:
    require_programs()
    # This process opens the pages' side of every socket; nginx raises its processes' limit to the doc's.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = max(nginx.MAIN_CONTEXT["worker_rlimit_nofile"], 2 * ROOMS * SOCKETS)
    assert hard >= needed, f"this test needs a hard limit of {needed} open files or more (ulimit -Hn): {hard}"
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    site = start_site(tmp_path, workers=1, rooms_per_hour=1000, soft_files=SYSTEMD_SOFT_LIMIT)
    try:
        failures = hold_rooms(site, ROOMS)
        assert not failures, failures
        # The doc's command changed what the site's printed header says nginx.conf needs.
        config = (tmp_path / "nginx" / "nginx.conf").read_text()
        for name, value in {**nginx.MAIN_CONTEXT, **nginx.EVENTS}.items():
            assert re.search(rf"^\s*{name} {value};$", config, re.MULTILINE), name
            assert f"{name} {value};" in nginx.render(site.hosting)
        problems = ("worker_connections are not enough", "Too many open files", "setrlimit")
        errors = (tmp_path / "nginx" / "error.log").read_text()
        assert not [line for line in errors.splitlines() if any(problem in line for problem in problems)]
        lines = log_lines_of(tmp_path / "serve.log")
        assert not [line for line in lines if line["level"] in ("error", "critical")]
        said = [line["msg"] for line in lines if line["msg"].startswith("open files:")]
        assert said == [files.FileLimit(SYSTEMD_SOFT_LIMIT, hard, hard).describe()]
    finally:
        site.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_doc_tells_the_operator_the_command_the_tests_run() -> None:
    # The command is in the doc's walk from a fresh machine, between the site's install and nginx's reload.
    text = HOSTING_DOC.read_text(encoding="utf-8")
    command = " ".join(doc_nginx_command())
    assert text.index("--print-nginx-config") < text.index("sed -i") < text.index("systemctl reload nginx")
    for name, value in {**nginx.MAIN_CONTEXT, **nginx.EVENTS}.items():
        assert f"{name} {value};" in command


def print_unit(*options: str, capsys: pytest.CaptureFixture[str]) -> str:
    main(["serve", *options, "--print-systemd-unit"])  # an error would end it (SystemExit), failing the test
    return capsys.readouterr().out


def test_the_systemd_unit_verifies_and_its_command_starts_the_workers_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_programs(("redis-server",))
    redis_port, *ports = free_ports(3)
    options = ["--ports", ",".join(map(str, ports)), "--data", str(tmp_path / "my data"), "--rooms-per-hour", "7"]
    options += ["--redis", f"redis://127.0.0.1:{redis_port}/0", "--origin", "https://club.example"]
    unit = print_unit(*options, "--log-level", "info", capsys=capsys)
    assert f"LimitNOFILE={systemd.LIMIT_NOFILE}" in unit and "User=ratscrew" in unit
    path = tmp_path / "ratscrew.service"
    path.write_text(unit)
    verified = subprocess.run([program("systemd-analyze"), "verify", str(path)], capture_output=True, text=True)
    assert verified.returncode == 0 and not verified.stdout + verified.stderr, verified.stdout + verified.stderr
    # systemd splits ExecStart as a shell would here (no specifiers, no variables in it).
    (exec_start,) = re.findall(r"^ExecStart=(.*)$", unit, re.MULTILINE)
    command = shlex.split(exec_start)
    assert command[1:3] == ["serve", "--ports"] or command[3:5] == ["serve", "--ports"]
    # The same options printed again from the unit's own command line give the same unit.
    assert print_unit(*command[command.index("serve") + 1 :], capsys=capsys) == unit
    # Run as systemd would run it without LimitNOFILE: soft limit 1024; serve raises it and says so.
    redis = start_redis(tmp_path, redis_port)
    log = tmp_path / "serve.log"
    limited = files_limit(SYSTEMD_SOFT_LIMIT)
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT, preexec_fn=limited)
    try:
        for port in ports:
            wait_ready(f"http://127.0.0.1:{port}", process, log)
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        for port in ports:
            status, _, health = call(f"http://127.0.0.1:{port}/healthz")
            assert status == 200
            limits = Path(f"/proc/{health['pid']}/limits").read_text()
            assert re.search(rf"^Max open files\s+{hard}\s+{hard}\s", limits, re.MULTILINE), limits
        assert (tmp_path / "my data" / "ratscrew.sqlite3").exists()
        said = [line["msg"] for line in log_lines_of(log) if line["msg"].startswith("open files:")]
        assert said == [files.FileLimit(SYSTEMD_SOFT_LIMIT, hard, hard).describe()]
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        redis.kill()
        redis.wait()


def test_a_systemd_unit_needs_a_data_folder_and_run_as_needs_a_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for args, expected in (
        (["--workers", "1", "--print-systemd-unit"], "--print-systemd-unit needs --data"),
        (["--workers", "1", "--data", str(tmp_path), "--run-as", "club"], "--run-as goes with --print-systemd-unit"),
        (["--workers", "2", "--data", str(tmp_path), "--print-systemd-unit"], "give --redis URL"),
    ):
        with pytest.raises(SystemExit) as ended:
            main(["serve", *args])
        assert ended.value.code == 2 and expected in capsys.readouterr().err
    unit = print_unit("--workers", "1", "--data", str(tmp_path), "--run-as", "club", capsys=capsys)
    assert "\nUser=club\n" in unit and f" --data {tmp_path}\n" in unit and "redis" not in unit
