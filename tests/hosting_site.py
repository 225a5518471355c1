"""A whole hosted site on loopback for the tests and the benchmark: a real redis-server and real proxies (nginx,
and HAProxy and Caddy for the letters routing), each on free ports with its own configuration in a temporary
folder, and ``ratscrew serve`` with its workers behind them all."""

from __future__ import annotations

import http.client
import json
import os
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

from ratscrew.hosting import caddy, haproxy, nginx
from ratscrew.hosting.settings import Hosting

NEEDED = ("nginx", "redis-server")
PACKAGES = {"nginx": "nginx-light", "redis-server": "redis-server", "haproxy": "haproxy", "caddy": "caddy"}


def missing_programs(needed: tuple[str, ...] = NEEDED) -> list[str]:
    return [name for name in needed if shutil.which(name) is None and not Path(f"/usr/sbin/{name}").exists()]


def require_programs(needed: tuple[str, ...] = NEEDED) -> None:
    """Fail (never skip) a test whose programs are missing, saying how to install them."""
    missing = missing_programs(needed)
    if missing:
        packages = " ".join(PACKAGES.get(name, name) for name in missing)
        raise RuntimeError(f"these tests need {' and '.join(missing)}: sudo apt-get install {packages}")


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
            return response.status, _lowered(response.headers), _decoded(raw, response.headers)
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, _lowered(exc.headers), _decoded(raw, exc.headers)


def _lowered(headers: Any) -> dict[str, str]:
    """Header names in lower case: proxies write them in their own case (Caddy: X-Ratscrew-Worker)."""
    return {name.lower(): value for name, value in headers.items()}


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
    urls: dict[str, str]  # through each proxy, by name
    redis_port: int
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """Through the first proxy (nginx, unless told otherwise)."""
        return next(iter(self.urls.values()))

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
        """Until every worker says it is ready, and every proxy answers."""
        deadline = time.monotonic() + timeout
        for url in [*(self.worker_url(i) for i in range(len(self.hosting.ports))), *self.urls.values()]:
            while True:
                try:
                    status, _, _ = call(url + "/readyz")
                except OSError:
                    status = 0
                if status == 200:
                    break
                for name, process in self.processes.items():
                    if process.poll() is not None:
                        raise RuntimeError(f"{name} ended with {process.returncode}; see its log in {self.folder}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{url} not ready after {timeout} s; see {self.folder}")
                time.sleep(0.1)

    def stop(self) -> None:
        for name in (*self.urls, "serve", "redis"):
            process = self.processes.pop(name, None)
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM if name != "nginx" else signal.SIGQUIT)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start_site(
    folder: Path,
    workers: int,
    *,
    rooms_per_hour: int = 60,
    extra: tuple[str, ...] = (),
    routing: str = "hash",
    proxies: tuple[str, ...] = ("nginx",),
) -> Site:
    """redis-server, ``ratscrew serve`` with ``workers`` workers, and ``proxies`` in front, all on free ports."""
    folder.mkdir(parents=True, exist_ok=True)
    redis_port, *ports = free_ports(1 + workers + len(proxies))
    ports, proxy_ports = ports[:workers], ports[workers:]
    hosting = Hosting(
        ports=tuple(ports), data_dir=folder / "data", redis_url=f"redis://127.0.0.1:{redis_port}/0", routing=routing
    )
    urls = {name: f"http://127.0.0.1:{port}" for name, port in zip(proxies, proxy_ports, strict=True)}
    site = Site(folder, hosting, urls, redis_port)
    try:
        site.processes["redis"] = start_redis(folder, redis_port)
        command = [sys.executable, "-m", "ratscrew", "serve", "--ports", ",".join(map(str, ports))]
        command += ["--data", str(hosting.data_dir), "--redis", str(hosting.redis_url), "--routing", routing]
        command += ["--rooms-per-hour", str(rooms_per_hour), *extra]
        log = (folder / "serve.log").open("wb")
        site.processes["serve"] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        for name, port in zip(proxies, proxy_ports, strict=True):
            site.processes[name] = START_PROXY[name](hosting, port, folder / name)
        site.wait_ready()
    except BaseException:
        site.stop()
        raise
    return site


def start_redis(folder: Path, port: int) -> subprocess.Popen[bytes]:
    command = [program("redis-server"), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    return subprocess.Popen(command, cwd=folder, stdout=(folder / "redis.log").open("wb"), stderr=subprocess.STDOUT)


def start_nginx(hosting: Hosting, port: int, folder: Path) -> subprocess.Popen[bytes]:
    folder.mkdir()
    config = folder / "nginx.conf"
    config.write_text(nginx.standalone(nginx.render(hosting, listen=f"127.0.0.1:{port}"), folder))
    return subprocess.Popen(
        [program("nginx"), "-c", str(config), "-p", str(folder), "-e", str(folder / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=(folder / "nginx.log").open("wb"),
    )


def start_haproxy(hosting: Hosting, port: int, folder: Path) -> subprocess.Popen[bytes]:
    folder.mkdir()
    config = folder / "haproxy.cfg"
    config.write_text(haproxy.standalone(haproxy.render(hosting, bind=f"127.0.0.1:{port}")))
    # -db: in the foreground, no daemon; -W would add a master process the tests need not.
    return subprocess.Popen(
        [program("haproxy"), "-db", "-f", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=(folder / "haproxy.log").open("wb"),
    )


def start_caddy(hosting: Hosting, port: int, folder: Path) -> subprocess.Popen[bytes]:
    folder.mkdir()
    config = folder / "Caddyfile"
    config.write_text(
        caddy.render(hosting, address=f"http://127.0.0.1:{port}", bind="127.0.0.1", globals_=caddy.standalone_globals())
    )
    # Caddy keeps its state under XDG_DATA_HOME and XDG_CONFIG_HOME (by default in the home folder).
    env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder)}
    return subprocess.Popen(
        [program("caddy"), "run", "--config", str(config), "--adapter", "caddyfile"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(folder / "caddy.log").open("wb"),
    )


START_PROXY = {"nginx": start_nginx, "haproxy": start_haproxy, "caddy": start_caddy}
