"""A match survives the server being stopped mid-match: the real ``ratscrew play`` process, a real SQLite file.

The store commits every write before answering, so whatever the page was told is saved stays saved, whether
the server is asked to stop (SIGTERM) or killed outright (SIGKILL). The round timer's start is stored too,
so after a restart the remaining time is what it would have been without the restart.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

START_TIMEOUT_S = 20
CLOCK_SLACK_S = 0.05  # the server's time.time() and the test's are the same clock; this is for rounding
JSONDoc = dict[str, Any]


class Server:
    """One ``ratscrew play`` process and the address it announced on its first line."""

    def __init__(self, data: Path, keys: list[str] | None = None) -> None:
        self.keys = keys if keys is not None else []  # the match keys this "page" holds, sent with every call
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ratscrew", "play", "--no-browser", "--port", "0", "--data", str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        found = re.fullmatch(r"ratscrew: serving on (http://\S+?)/?\n", first)
        if not found:
            self.process.kill()
            _, err = self.process.communicate(timeout=10)
            pytest.fail(f"unexpected first line {first!r}; stderr: {err[-2000:]}")
        self.url = found.group(1)
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                self.call("GET", "/api/matches")
                return
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.05)

    def call(self, method: str, path: str, body: JSONDoc | None = None) -> JSONDoc:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json", "X-Match-Keys": ",".join(self.keys)},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            doc: JSONDoc = json.load(response)
        return doc

    def stop(self, sig: signal.Signals) -> int:
        self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=15)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@contextmanager
def serving(data: Path, keys: list[str] | None = None) -> Iterator[Server]:
    server = Server(data, keys)
    try:
        yield server
    finally:
        server.close()


def play_some_rounds(server: Server) -> JSONDoc:
    match = server.call(
        "POST",
        "/api/matches",
        {
            "name": "Friday night",
            "players": ["Léa", "Tom", "Sam"],
            "rules": {"preset": "bicycle", "slapping": {"penalty_cards": 2}},
            "timer_s": 900,
        },
    )
    server.keys.append(match["key"])
    for winner in (0, 2, 0):
        server.call("POST", f"/api/matches/{match['id']}/rounds", {"winner": winner})
    server.call("POST", f"/api/matches/{match['id']}/rounds", {"cards": [20, 20, 12]})
    server.call("POST", f"/api/matches/{match['id']}/undo", {"rounds": 4})
    server.call("POST", f"/api/matches/{match['id']}/rounds", {"cards": [9, 30, 13]})
    return server.call("POST", f"/api/matches/{match['id']}/timer", {})


def assert_intact(before: JSONDoc, after: JSONDoc, asked_at: float, answered_at: float) -> None:
    for key in ("id", "name", "players", "rules", "timer_s", "round_started", "finished", "rounds", "wins", "created"):
        assert after[key] == before[key], key
    assert after["wins"] == [2, 1, 1]
    assert [r["winner"] for r in after["rounds"]] == [0, 2, 0, 1]
    assert after["rounds"][-1]["cards"] == [9, 30, 13]
    # The countdown went on while the server was down: it is measured from the stored start, so it gives the
    # time the new server answered at, which lies between the test's asking and its answer (the same clock).
    answered_by_server = after["round_started"] + after["timer_s"] - after["remaining_s"]
    assert asked_at - CLOCK_SLACK_S <= answered_by_server <= answered_at + CLOCK_SLACK_S
    assert after["remaining_s"] < before["remaining_s"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_match_survives_the_server_stopping_mid_match(tmp_path: Path, sig: signal.Signals) -> None:
    data = tmp_path / "data"
    first = Server(data)
    try:
        before = play_some_rounds(first)
        code = first.stop(sig)
    finally:
        first.close()
    if sig is signal.SIGTERM:
        assert code in (0, -signal.SIGTERM), code
    with serving(data, first.keys) as second:
        asked_at = time.time()
        after = second.call("GET", f"/api/matches/{before['id']}")
        assert_intact(before, after, asked_at, time.time())
        listed = second.call("GET", "/api/matches")["matches"]
        assert [m["id"] for m in listed] == [before["id"]]
        assert listed[0]["wins"] == [2, 1, 1]
        # and the match goes on where it stopped
        more = second.call("POST", f"/api/matches/{before['id']}/rounds", {"winner": 2, "rounds": 4})
        assert more["wins"] == [2, 1, 2]


def test_restart_while_a_request_is_refused_keeps_the_old_state(tmp_path: Path) -> None:
    """A bad request just before the stop changes nothing, and the next server still has every round."""
    data = tmp_path / "data"
    with serving(data) as first:
        before = play_some_rounds(first)
        with pytest.raises(urllib.error.HTTPError) as refused:
            first.call("POST", f"/api/matches/{before['id']}/rounds", {"winner": 7})
        assert refused.value.code == 400
        assert "winner" in json.load(refused.value)["error"]
        refused.value.close()
        first.stop(signal.SIGTERM)
    with serving(data) as second:
        after = second.call("GET", f"/api/matches/{before['id']}")
        assert after["rounds"] == before["rounds"]
