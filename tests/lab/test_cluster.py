"""The lab on a Dask cluster (--scheduler): the same figures as one process, and one clear line when it cannot be used.

A two-worker cluster is started on loopback for the module; the commands reach it by its address as they
would reach a cluster on other machines.
"""

from __future__ import annotations

import http.server
import json
import math
import os
import socket
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import dask
import pytest
from distributed import LocalCluster
from distributed.security import Security

from ratscrew import bmn, executor
from ratscrew.bmn import play_random
from ratscrew.executor import ClusterError, open_runner
from ratscrew.lab import api
from ratscrew.lab.bmn_search import HuntSettings, SearchState, search
from ratscrew.lab.simulate import simulate
from ratscrew.rules import Rules

T = TypeVar("T")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:  # type: ignore[no-untyped-call]
        yield cluster.scheduler_address


def off_main(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn`` on a thread of its own: Playwright's synchronous API (the browser tests of the same run) may
    already run an event loop on this one, and a Dask client made here would take that loop for its own and
    wait on it for ever. The time limit makes a hang a failure."""
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(fn, *args, **kwargs).result(timeout=180)


def ratscrew(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it; ``env``: variables set for it on top of this process's."""
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )


def ok_json(*args: str) -> list[dict[str, Any]]:
    done = ratscrew(*args, "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def closed_port() -> int:
    """A loopback port with nothing listening on it (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_simulate_on_the_cluster_gives_the_one_process_figures(scheduler: str) -> None:
    args = ("simulate", "--games", "16", "--bots", "hard,medium,easy", "--seed", "7")
    [alone] = ok_json(*args, "--workers", "1")
    [clustered] = ok_json(*args, "--scheduler", scheduler)
    assert clustered == alone
    rules = Rules.build("bicycle")
    here = simulate(rules, ["medium"] * 4, 12, seed=3, workers=1).as_dict()
    assert off_main(simulate, rules, ["medium"] * 4, 12, seed=3, scheduler=scheduler).as_dict() == here
    assert off_main(simulate, rules, ["medium"] * 4, 12, seed=4, scheduler=scheduler).as_dict() != here


def test_the_apis_rows_on_the_cluster_add_up_to_the_commands_totals(scheduler: str) -> None:
    args = ("simulate", "--games", "20", "--players", "3", "--seed", "4", "--vary", "slapping.penalty_cards=1,2")
    docs = ok_json(*args, "--rotate-seats", "--workers", "1")
    vary = {"slapping.penalty_cards": [1, 2]}
    study = off_main(api.sweep, vary, games=20, players=3, seed=4, rotate_seats=True, scheduler=scheduler)
    here = api.sweep(vary, games=20, players=3, seed=4, rotate_seats=True, workers=1)
    assert study.table() == here.table()
    games = study.table()
    for cell, doc in enumerate(docs):
        mine = [i for i, c in enumerate(games["cell"]) if c == cell]
        assert doc["set"] == {"slapping.penalty_cards": cell + 1} and len(mine) == doc["games"] == 60
        assert round(sum(games["cards"][i] for i in mine) / 60, 2) == doc["mean_cards"]
        assert round(sum(games["wrong_slaps"][i] for i in mine) / 60, 3) == doc["wrong_slaps"]
        wins = [sum(1 for i in mine if games["winner"][i] == seat) / 60 for seat in (1, 2, 3)]
        assert [round(w, 4) for w in wins] == doc["win_rate"]
    assert study.figures == [{k: v for k, v in d.items() if k != "histogram"} for d in docs]


def test_bmn_random_on_the_cluster_gives_the_one_process_figures(
    scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ("bmn", "--random", "250000", "--seed", "2")  # three blocks of deals
    [alone], [clustered] = ok_json(*args), ok_json(*args, "--scheduler", scheduler)
    for key in ("games", "mean_cards", "max_cards", "loops", "kernel", "winner_share", "percentiles", "longest_deal"):
        assert clustered[key] == alone[key]
    monkeypatch.setattr(bmn, "RANDOM_BLOCK", 60)  # the blocks are cut here, so small ones reach the Python path
    one = play_random(400, 5, accelerated=False)
    assert off_main(play_random, 400, 5, accelerated=False, scheduler=scheduler) == one
    assert off_main(play_random, 400, 5, scheduler=scheduler) == one
    assert off_main(play_random, 400, 6, scheduler=scheduler) != one


def test_bmn_search_on_the_cluster_finds_the_same_bests_in_the_same_order(scheduler: str) -> None:
    args = ("bmn", "--search", "--batches", "3", "--seed", "5")
    alone = ok_json(*args)
    assert alone
    assert ok_json(*args, "--scheduler", scheduler) == alone
    small = HuntSettings(block=4_000, keep=16, walk=8, cap=3_000)
    one = list(search(SearchState(seed=8), batches=5, settings=small))
    state = SearchState(seed=8)
    assert off_main(lambda: list(search(state, batches=5, settings=small, scheduler=scheduler))) == one
    assert state.next_batch == 5


def test_a_failing_task_on_the_cluster_is_one_clear_error(scheduler: str) -> None:
    def run() -> list[float]:
        with open_runner(scheduler=scheduler) as runner:
            return list(runner.unordered(math.sqrt, [(4.0,), (-1.0,)]))

    with pytest.raises(ClusterError, match="failed a task") as caught:
        off_main(run)
    assert "ValueError" in str(caught.value) and "\n" not in str(caught.value)


def test_an_unreachable_scheduler_is_one_line_and_exit_2_within_seconds() -> None:
    address = f"tcp://127.0.0.1:{closed_port()}"
    # The command gives up after CONNECT_SECONDS; a hang would end in ratscrew()'s timeout instead. No bound
    # on the time it took: on a busy machine starting Python alone can take longer than any bound worth having.
    done = ratscrew("simulate", "--games", "4", "--scheduler", address)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ratscrew: error: no Dask scheduler answered")
    assert address in done.stderr and "expected one running there" in done.stderr


def test_the_bmn_commands_report_an_unreachable_scheduler_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executor, "CONNECT_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{closed_port()}"
    with pytest.raises(ClusterError, match="no Dask scheduler answered"):
        off_main(play_random, 10, 1, scheduler=address)
    with pytest.raises(ClusterError, match="no Dask scheduler answered"):
        off_main(lambda: list(search(SearchState(seed=1), batches=1, scheduler=address)))


class _Silent(socketserver.BaseRequestHandler):
    """Takes the connection and says nothing (a stuck service)."""

    def handle(self) -> None:
        self.request.settimeout(30)
        try:
            self.request.recv(1 << 16)  # what the client sends, if anything; then nothing back
            time.sleep(30)
        except OSError:
            pass


class _Web(http.server.BaseHTTPRequestHandler):
    """An ordinary web server: it waits for a request, as HTTP servers do."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"hello")

    def log_message(self, *args: Any) -> None:
        pass


class _Junk(socketserver.BaseRequestHandler):
    """Greets every connection with bytes of its own."""

    def handle(self) -> None:
        try:
            self.request.sendall(b"SSH-2.0-OpenSSH_9.2\r\n" + bytes(range(256)) * 8)
            time.sleep(1)
        except OSError:
            pass


@pytest.fixture(params=[_Silent, _Web, _Junk], ids=["silent", "http", "junk"])
def not_a_scheduler(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """A loopback server that is not a Dask scheduler, and what the error line must say of it."""
    handler = request.param
    server_class = http.server.ThreadingHTTPServer if handler is _Web else socketserver.ThreadingTCPServer
    server = server_class(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    says = "answered, but not as a Dask scheduler does" if handler is _Junk else "sent nothing a Dask scheduler sends"
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}", says
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("command", [["simulate", "--games", "4"], ["bmn", "--random", "10"]])
def test_a_server_that_is_not_a_scheduler_is_one_line_and_exit_2_within_seconds(
    not_a_scheduler: tuple[str, str], command: list[str]
) -> None:
    address, says = not_a_scheduler
    done = ratscrew(*command, "--scheduler", address)  # it used to hang for ever: now ratscrew()'s timeout would fail
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ratscrew: error: ")
    assert says in done.stderr and address in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "--scheduler", "nonsense"], "is not an address"),
        (["simulate", "--scheduler", "http://127.0.0.1:8786"], "over tcp:// (or tls://), not http://"),
        (["simulate", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"], "give one or the other"),
        (["bmn", "--random", "10", "--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"], "give one or the other"),
        (["simulate", "--scheduler", "garbage://127.0.0.1:8786"], "over tcp:// (or tls://), not garbage://"),
        (["simulate", "--scheduler", "ws://127.0.0.1:8786"], "over tcp:// (or tls://), not ws://"),
        (["bmn", "--random", "10", "--scheduler", "ucx://127.0.0.1:8786"], "over tcp:// (or tls://), not ucx://"),
        (["bmn", "--search", "--scheduler"], "--scheduler needs a value"),
        (["bmn", "--scheduler", "tcp://127.0.0.1:8786", "-" * 26, "-" * 26], "only goes with --random N or --search"),
    ],
)
def test_bad_scheduler_options_are_one_clear_line(args: list[str], says: str) -> None:
    done = ratscrew(*args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and says in done.stderr and "Traceback" not in done.stderr


def test_without_a_scheduler_dask_is_never_imported() -> None:
    script = (
        "import sys\n"
        "from ratscrew.cli import main\n"
        "for args in (['simulate', '--games', '4', '--workers', '2'], ['bmn', '--random', '50', '--workers', '2'],\n"
        "             ['bmn', '--search', '--batches', '1']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as stop:\n"
        "        assert not stop.code, stop.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


# ------------------------------------------------------------------------------------------------ tls://


@dataclass(frozen=True)
class Tls:
    """A self-signed certificate that every side presents and trusts, as Dask's TLS settings name it."""

    cert: Path
    key: Path

    def security(self) -> Security:
        files = {"tls_ca_file": str(self.cert), "tls_client_cert": str(self.cert), "tls_client_key": str(self.key)}
        return Security(  # type: ignore[no-untyped-call]
            **files,
            tls_scheduler_cert=str(self.cert),
            tls_scheduler_key=str(self.key),
            tls_worker_cert=str(self.cert),
            tls_worker_key=str(self.key),
            require_encryption=True,
        )

    def env(self) -> dict[str, str]:
        """The client's settings as the variables a user would set for the command."""
        return {
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(self.cert),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(self.cert),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(self.key),
        }

    def config(self) -> dict[str, str]:
        """The same settings in this process's Dask configuration."""
        return {
            "distributed.comm.tls.ca-file": str(self.cert),
            "distributed.comm.tls.client.cert": str(self.cert),
            "distributed.comm.tls.client.key": str(self.key),
        }


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Tls:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    request = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    files = ["-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=ratscrew-test"]
    subprocess.run([*request, *files], check=True, capture_output=True)
    return Tls(cert, key)


def test_a_tls_address_without_tls_settings_is_one_line_and_exit_2() -> None:
    address = f"tls://127.0.0.1:{closed_port()}"
    done = ratscrew("simulate", "--games", "4", "--scheduler", address)  # it was an 84-line traceback
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"--scheduler {address} needs TLS, and Dask's configuration has none" in done.stderr
    assert "DASK_DISTRIBUTED__COMM__TLS__CA_FILE" in done.stderr  # what to set


def test_a_tls_address_with_nothing_listening_is_one_line_and_exit_2(tls: Tls) -> None:
    address = f"tls://127.0.0.1:{closed_port()}"
    done = ratscrew("bmn", "--random", "10", "--scheduler", address, env=tls.env())
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ratscrew: error: no Dask scheduler answered")
    assert address in done.stderr and "Traceback" not in done.stderr


def test_a_tls_address_where_something_else_listens_is_one_line_and_exit_2(tls: Tls) -> None:
    junk = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Junk)
    junk.daemon_threads = True
    threading.Thread(target=junk.serve_forever, daemon=True).start()
    try:
        address = f"tls://127.0.0.1:{junk.server_address[1]}"
        done = ratscrew("simulate", "--games", "4", "--scheduler", address, env=tls.env())
    finally:
        junk.shutdown()
        junk.server_close()
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"the server at {address} did not take a TLS connection with Dask's TLS settings" in done.stderr


def test_a_tls_address_where_a_server_says_nothing_or_waits_for_a_request_is_one_clear_error(
    tls: Tls, not_a_scheduler: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(executor, "CONNECT_SECONDS", 1.0)
    address = not_a_scheduler[0].replace("tcp://", "tls://")

    def enter() -> None:
        with open_runner(scheduler=address):
            raise AssertionError(f"{address} was taken for a scheduler")

    with dask.config.set(tls.config()), pytest.raises(ClusterError) as caught:
        off_main(enter)
    said = str(caught.value)
    assert "\n" not in said and address in said
    assert "did not take a TLS connection" in said or "sent nothing a Dask scheduler sends" in said, said


def test_simulate_on_a_tls_cluster_gives_the_one_process_figures(tls: Tls) -> None:
    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=True,
        protocol="tls://",
        security=tls.security(),
        dashboard_address=None,
        host="127.0.0.1",
    ) as cluster:  # type: ignore[no-untyped-call]
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        args = ("simulate", "--games", "8", "--bots", "hard,easy", "--seed", "3", "--json")
        alone = ratscrew(*args)
        clustered = ratscrew(*args, "--scheduler", address, env=tls.env())
    assert clustered.returncode == 0 and alone.returncode == 0, clustered.stderr
    assert json.loads(clustered.stdout) == json.loads(alone.stdout)
