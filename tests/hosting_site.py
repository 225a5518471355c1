"""A whole hosted site on loopback for the tests and the benchmark: a real redis-server and a real nginx, each
on free ports with its own configuration in a temporary folder, and ``ratscrew serve`` with its workers."""

from __future__ import annotations

import http.client
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ratscrew.hosting.nginx import render, standalone
from ratscrew.hosting.settings import Hosting

NEEDED = ("nginx", "redis-server")


def missing_programs() -> list[str]:
    return [name for name in NEEDED if shutil.which(name) is None and not Path(f"/usr/sbin/{name}").exists()]


def program(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


def free_ports(count: int) -> list[int]:
    """Ports free now on loopback (held open together, so that they differ)."""
    socks = [socket.socket() for _ in range(count)]
    try:
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in socks]
    finally:
        for sock in socks:
            sock.close()


def call(
    url: str, body: object | None = None, headers: dict[str, str] | None = None, source: str | None = None
) -> tuple[int, dict[str, str], Any]:
    """GET (or POST ``body`` as JSON) from ``source``'s address: the status, the headers and the decoded body."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    opener = urllib.request.build_opener()
    if source is not None:
        opener = urllib.request.build_opener(_SourceHandler(source))
    try:
        with opener.open(request, timeout=20) as response:
            raw = response.read()
            return response.status, dict(response.headers), _decoded(raw, response.headers)
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, dict(exc.headers), _decoded(raw, exc.headers)


def _decoded(raw: bytes, headers: Any) -> Any:
    return json.loads(raw) if "json" in str(headers.get("content-type", "")) else raw.decode()


class _SourceHandler(urllib.request.HTTPHandler):
    """Connects from a chosen loopback address (127.0.0.2 and so on), as another client would."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def http_open(self, req: urllib.request.Request) -> Any:
        source = self.source

        class Connection(http.client.HTTPConnection):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                kwargs["source_address"] = (source, 0)
                super().__init__(*args, **kwargs)

        return self.do_open(Connection, req)


@dataclass
class Site:
    folder: Path
    hosting: Hosting
    url: str  # through nginx
    redis_port: int
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def data(self) -> Path:
        return self.hosting.data_dir

    def worker_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.hosting.ports[index]}"

    def worker_pid(self, index: int) -> int:
        status, _, doc = call(self.worker_url(index) + "/healthz")
        assert status == 200, doc
        return int(doc["pid"])

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every worker says it is ready, and nginx answers."""
        deadline = time.monotonic() + timeout
        for url in [*(self.worker_url(i) for i in range(len(self.hosting.ports))), self.url]:
            while True:
                try:
                    status, _, _ = call(url + "/readyz")
                except OSError:
                    status = 0
                if status == 200:
                    break
                serve = self.processes.get("serve")
                if serve is not None and serve.poll() is not None:
                    raise RuntimeError(f"ratscrew serve ended with {serve.returncode}; see {self.folder}/serve.log")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{url} not ready after {timeout} s; see {self.folder}")
                time.sleep(0.1)

    def stop(self) -> None:
        for name in ("nginx", "serve", "redis"):
            process = self.processes.pop(name, None)
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM if name != "nginx" else signal.SIGQUIT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start_site(folder: Path, workers: int, *, rooms_per_hour: int = 60, extra: tuple[str, ...] = ()) -> Site:
    """redis-server, ``ratscrew serve`` with ``workers`` workers, and nginx in front, all on free ports."""
    folder.mkdir(parents=True, exist_ok=True)
    redis_port, nginx_port, *ports = free_ports(2 + workers)
    hosting = Hosting(ports=tuple(ports), data_dir=folder / "data", redis_url=f"redis://127.0.0.1:{redis_port}/0")
    site = Site(folder, hosting, f"http://127.0.0.1:{nginx_port}", redis_port)
    try:
        site.processes["redis"] = subprocess.Popen(
            [
                program("redis-server"),
                "--port",
                str(redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            cwd=folder,
            stdout=(folder / "redis.log").open("wb"),
            stderr=subprocess.STDOUT,
        )
        command = [sys.executable, "-m", "ratscrew", "serve", "--ports", ",".join(map(str, ports))]
        command += ["--data", str(hosting.data_dir), "--redis", str(hosting.redis_url)]
        command += ["--rooms-per-hour", str(rooms_per_hour), *extra]
        log = (folder / "serve.log").open("wb")
        site.processes["serve"] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        config = folder / "nginx.conf"
        config.write_text(standalone(render(hosting, listen=f"127.0.0.1:{nginx_port}"), folder))
        site.processes["nginx"] = subprocess.Popen(
            [program("nginx"), "-c", str(config), "-p", str(folder), "-e", str(folder / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=(folder / "nginx.log").open("wb"),
        )
        site.wait_ready()
    except BaseException:
        site.stop()
        raise
    return site
