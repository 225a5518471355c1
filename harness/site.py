"""A whole hosted site on loopback for the tests and the benchmark: a real redis-server and real proxies (nginx,
and HAProxy and Caddy for the letters routing), each on free ports with its own configuration in a temporary
folder, and ``ratscrew serve`` with its workers behind them all.

nginx runs from Debian's own ``/etc/nginx/nginx.conf``, changed as docs/hosting.md tells the operator (its
``sed`` command, run on a copy) and pointed at the temporary folder, with the printed site in its
``conf.d``: what an operator runs, not a configuration of the tests' own."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import pwd
import re
import resource
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ratscrew.hosting import caddy, haproxy, nginx
from ratscrew.hosting.settings import Hosting

NEEDED = ("nginx", "redis-server")
STOCK_NGINX_CONF = Path("/etc/nginx/nginx.conf")
HOSTING_DOC = Path(__file__).resolve().parent.parent / "docs" / "hosting.md"
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


# Requests without a room code: any worker may answer them.
CODELESS = (("GET", "/"), ("GET", "/api/rooms"), ("POST", "/api/rooms"), ("POST", "/api/matches"))
BODIES: dict[str, object] = {"/api/rooms": {"seats": 2}, "/api/matches": {"players": ["Ann", "Bo"]}}


@dataclass
class Stream:
    """What a stream of requests without a room code met while a worker restarted."""

    answers: list[tuple[str, str, int]] = field(default_factory=list)  # method, path, status
    rooms: list[str] = field(default_factory=list)  # the codes of the rooms it made
    matches: list[str] = field(default_factory=list)  # the ids of the matches it made
    while_away: int = 0  # requests sent while the worker was away or not yet ready

    def failed(self) -> list[tuple[str, str, int]]:
        return [answer for answer in self.answers if answer[2] not in (200, 201)]


def stream_across_a_restart(site: Site, urls: list[str], worker: int, clients: str) -> Stream:
    """Requests without a room code, one after another through ``urls`` in turn, from addresses
    ``clients``.1 to .250 in turn, while ``worker`` is killed with -9 and ``ratscrew serve`` starts it again:
    a few before, every one while it is away, a few once it is back."""
    stream = Stream()

    def one() -> None:
        index = len(stream.answers)
        method, path = CODELESS[index % len(CODELESS)]
        url = urls[index % len(urls)]
        status, _, doc = call(url + path, BODIES.get(path), source=f"{clients}.{index % 250 + 1}")
        stream.answers.append((method, path, status))
        if status in (200, 201) and path == "/api/rooms":
            stream.rooms.append(doc["code"])
        elif status in (200, 201) and path == "/api/matches":
            stream.matches.append(doc["id"])

    for _ in range(8):
        one()
    pid = site.worker_pid(worker)
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 120
    while Path(f"/proc/{pid}").exists() and not zombie(pid):
        assert time.monotonic() < deadline, f"worker {worker} did not die"
        time.sleep(0.01)
    while not back(site, worker, pid):
        assert time.monotonic() < deadline, f"worker {worker} did not come back"
        one()
        stream.while_away += 1
    for _ in range(8):
        one()
    return stream


def zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


def back(site: Site, worker: int, old_pid: int) -> bool:
    """Whether ``worker`` answers again, from another process than ``old_pid``, and is ready."""
    try:
        status, _, doc = call(site.worker_url(worker) + "/healthz")
        return status == 200 and doc["pid"] != old_pid and call(site.worker_url(worker) + "/readyz")[0] == 200
    except OSError:
        return False


def stored(site: Site) -> tuple[set[str], set[str]]:
    """The codes of every room and the ids of every match in the site's SQLite file."""
    with sqlite3.connect(site.data / "ratscrew.sqlite3", timeout=30) as db:
        rooms = {code for (code,) in db.execute("SELECT code FROM rooms")}
        matches = {match for (match,) in db.execute("SELECT id FROM matches")}
    return rooms, matches


def start_site(
    folder: Path,
    workers: int,
    *,
    rooms_per_hour: int = 60,
    extra: tuple[str, ...] = (),
    routing: str = "hash",
    proxies: tuple[str, ...] = ("nginx",),
    soft_files: int | None = None,
) -> Site:
    """redis-server, ``ratscrew serve`` with ``workers`` workers, and ``proxies`` in front, all on free ports;
    ``ratscrew serve`` and the proxies started with a soft limit of ``soft_files`` open files, if given."""
    preexec = None if soft_files is None else files_limit(soft_files)
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
        site.processes["serve"] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, preexec_fn=preexec)
        for name, port in zip(proxies, proxy_ports, strict=True):
            site.processes[name] = START_PROXY[name](hosting, port, folder / name, preexec)
        site.wait_ready()
    except BaseException:
        site.stop()
        raise
    return site


def files_limit(soft: int) -> Callable[[], None]:
    """For ``preexec_fn``: a soft limit of ``soft`` open files (the hard limit kept), as systemd gives a
    service by default (1024)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    return limit


Preexec = Callable[[], None] | None


def start_redis(folder: Path, port: int) -> subprocess.Popen[bytes]:
    command = [program("redis-server"), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    return subprocess.Popen(command, cwd=folder, stdout=(folder / "redis.log").open("wb"), stderr=subprocess.STDOUT)


def start_nginx(hosting: Hosting, port: int, folder: Path, preexec: Preexec = None) -> subprocess.Popen[bytes]:
    folder.mkdir()
    return run_nginx(nginx.render(hosting, listen=f"127.0.0.1:{port}"), folder, preexec)


def run_nginx(site: str, folder: Path, preexec: Preexec = None) -> subprocess.Popen[bytes]:
    """nginx in the foreground from Debian's stock nginx.conf changed as the doc says, serving ``site``."""
    config = stock_nginx_conf(folder)
    (folder / "conf.d" / "ratscrew.conf").write_text(site)
    return subprocess.Popen(
        [program("nginx"), "-c", str(config), "-e", str(folder / "error.log"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=(folder / "nginx.log").open("wb"),
        preexec_fn=preexec,
    )


def doc_nginx_command() -> list[str]:
    """The ``sed`` command docs/hosting.md gives for /etc/nginx/nginx.conf, as its arguments."""
    text = HOSTING_DOC.read_text(encoding="utf-8")
    found = re.search(r"^sed -i (?:.*\\\n)*.*/etc/nginx/nginx\.conf$", text, re.MULTILINE)
    if found is None:
        raise AssertionError(f"no `sed -i ... /etc/nginx/nginx.conf` command in {HOSTING_DOC}")
    return shlex.split(found.group(0).replace("\\\n", " "))


def stock_nginx_conf(folder: Path) -> Path:
    """A copy of Debian's nginx.conf, changed by the doc's command, its files and folders moved into ``folder``
    (and the user it runs as made this process's own, to write there). The site goes in ``folder/conf.d``."""
    stock = STOCK_NGINX_CONF.read_text()
    if not re.search(r"^\s*worker_connections 768;$", stock, re.MULTILINE):
        raise AssertionError(f"{STOCK_NGINX_CONF} is not Debian's stock file (worker_connections 768)")
    config = folder / "nginx.conf"
    config.write_text(stock)
    command = doc_nginx_command()
    subprocess.run([str(config) if arg == str(STOCK_NGINX_CONF) else arg for arg in command], check=True)
    for name in ("conf.d", "sites-enabled", "body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / name).mkdir(exist_ok=True)
    moved = {
        r"^user \S+;": f"user {pwd.getpwuid(os.geteuid()).pw_name};",
        r"^pid \S+;": f"pid {folder}/nginx.pid;",
        r"^error_log \S+;": f"error_log {folder}/error.log;",
        r"^(\s*)access_log \S+;": rf"\1access_log {folder}/access.log;",
        r"^(\s*)include /etc/nginx/conf\.d/\*\.conf;": rf"\1include {folder}/conf.d/*.conf;",
        r"^(\s*)include /etc/nginx/sites-enabled/\*;": rf"\1include {folder}/sites-enabled/*;",
    }
    text = config.read_text()
    for pattern, replacement in moved.items():
        text, count = re.subn(pattern, replacement, text, count=1, flags=re.MULTILINE)
        assert count == 1, f"{pattern!r} not in {STOCK_NGINX_CONF}"
    config.write_text(text)
    # Debian's nginx writes request bodies and buffered responses under /var/lib/nginx: here, in the folder.
    temp = "".join(f"{kind}_temp_path {folder}/{name};\n" for kind, name in TEMP_PATHS)
    (folder / "conf.d" / "temp-paths.conf").write_text(temp)
    return config


TEMP_PATHS = (
    ("client_body", "body"),
    ("proxy", "proxy"),
    ("fastcgi", "fastcgi"),
    ("uwsgi", "uwsgi"),
    ("scgi", "scgi"),
)


def start_haproxy(hosting: Hosting, port: int, folder: Path, preexec: Preexec = None) -> subprocess.Popen[bytes]:
    folder.mkdir()
    config = folder / "haproxy.cfg"
    config.write_text(haproxy.standalone(haproxy.render(hosting, bind=f"127.0.0.1:{port}")))
    # -db: in the foreground, no daemon; -W would add a master process the tests need not.
    return subprocess.Popen(
        [program("haproxy"), "-db", "-f", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=(folder / "haproxy.log").open("wb"),
        preexec_fn=preexec,
    )


def start_caddy(hosting: Hosting, port: int, folder: Path, preexec: Preexec = None) -> subprocess.Popen[bytes]:
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
        preexec_fn=preexec,
    )


START_PROXY = {"nginx": start_nginx, "haproxy": start_haproxy, "caddy": start_caddy}


def log_lines_of(log: Path) -> list[dict[str, Any]]:
    text = log.read_text(encoding="utf-8", errors="replace")
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            if call(url + "/readyz")[0] == 200:
                return
        except OSError:
            pass
        assert process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)


def eventually_answers(port: int) -> None:
    """Until a redis-server just started on ``port`` accepts connections."""
    for _ in range(300):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise AssertionError(f"redis-server did not listen on port {port}")
