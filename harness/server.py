"""A real ``ratscrew play`` server on loopback, started as a user starts it, on a port of its own."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Server:
    url: str
    data: Path
    process: subprocess.Popen[str]

    def get(self, path: str) -> tuple[int, Any]:
        """GET a JSON endpoint: the status and the decoded body (error bodies included)."""
        return self._call(urllib.request.Request(self.url.rstrip("/") + path))

    def post(self, path: str, body: object) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url.rstrip("/") + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        return self._call(request)

    @staticmethod
    def _call(request: urllib.request.Request) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout=20)


def start_server(data: Path) -> Server:
    """Start `ratscrew play` as a user would, on a free port, and wait for its address line."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ratscrew", "play", "--no-browser", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return serving(process, data)


def serving(process: subprocess.Popen[str], data: Path) -> Server:
    """The server ``process`` started, once it has printed its address line (killed, with its error, if not)."""
    assert process.stdout is not None
    first = process.stdout.readline().strip()
    prefix = "ratscrew: serving on "
    if not first.startswith(prefix):
        process.kill()
        raise RuntimeError(f"server did not start: {first!r} {process.stderr.read() if process.stderr else ''}")
    return Server(first[len(prefix) :], data, process)
