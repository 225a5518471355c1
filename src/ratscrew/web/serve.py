"""Running the web app for ``ratscrew play``: pick a port, announce the address, open the browser."""

from __future__ import annotations

import gc
import os
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import uvicorn
from starlette.types import ASGIApp
from uvicorn.config import LOGGING_CONFIG

from ratscrew.errors import RatscrewError
from ratscrew.web.app import create_app
from ratscrew.web.wslink import TimedWebSocket

LISTEN_BACKLOG = 2048
WS_MAX_BYTES = 64 * 1024  # the protocol itself refuses anything over 1 KiB with a readable error


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ratscrew"


def bind(host: str, port: int, *, listen: bool = True) -> socket.socket:
    """The server's socket on ``host:port``, listening unless ``listen`` is false: then the port is held but
    refuses connections until uvicorn serves on it, once the app has started (its rooms restored)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        what = f"port {port} is already in use" if exc.errno == 98 else exc.strerror
        raise RatscrewError(
            f"cannot listen on {host}:{port}: {what}; choose another --port, or leave it out for a free one"
        ) from None
    # Room set-ups come in bursts (a proxy opens a connection for each page's socket): a queue of 128 overflowed
    # on this machine's loaded runs. 2048 is uvicorn's own default; the kernel caps it at net.core.somaxconn.
    if listen:
        sock.listen(LISTEN_BACKLOG)
    return sock


def serve(host: str, port: int, data_dir: Path, open_browser: bool) -> None:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        app = create_app(data_dir)
    except OSError as exc:
        raise RatscrewError(
            f"cannot use the data folder {data_dir}: {exc.strerror}; choose another with --data"
        ) from None
    sock = bind(host, port)
    settle_collector()
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{sock.getsockname()[1]}/"
    print(f"ratscrew: serving on {url}", flush=True)
    print(f"ratscrew: data in {data_dir}; stop with Ctrl-C", flush=True)
    server = uvicorn.Server(server_config(app))
    if open_browser:
        threading.Timer(0.6, webbrowser.open, [url]).start()
    run_quietly(server, sock)


def settle_collector() -> None:
    # Everything loaded so far (modules, catalogues, rules) lives as long as the server: kept out of the
    # collector's full passes, which otherwise walk it all again and again while hundreds of rooms play.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def server_config(
    app: ASGIApp, trusted_proxies: tuple[str, ...] = (), graceful_s: int = 5, *, own_logs: bool = False
) -> uvicorn.Config:
    """uvicorn's settings for the rooms; behind a proxy (``ratscrew serve``), the addresses it trusts, and
    ``own_logs``: uvicorn's lines go to the process's own logging (JSON), not to uvicorn's plain text."""
    return uvicorn.Config(
        app,
        log_level="warning",
        log_config=None if own_logs else LOGGING_CONFIG,
        access_log=not own_logs,
        ws_max_size=WS_MAX_BYTES,
        # uvicorn's own websocket protocol, which also times each link for the fairness of slaps (wslink.py).
        ws=TimedWebSocket,
        # Messages are small and many: compressing each costs more CPU than it saves on a table's link.
        ws_per_message_deflate=False,
        backlog=LISTEN_BACKLOG,  # for a socket that listens only once uvicorn serves on it (``bind``)
        # Limits are per client address: take it from X-Forwarded-For only when the proxy sending it is trusted,
        # never from a header any local process could set.
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) or None,
        lifespan="on",
        timeout_graceful_shutdown=graceful_s,
    )


def run_quietly(server: uvicorn.Server, sock: socket.socket, say: Callable[[str], None] | None = None) -> None:
    """Serve until Ctrl-C or SIGTERM, then say "stopped" (printed, unless ``say`` is given) and exit."""
    tell = say or (lambda text: print(f"ratscrew: {text}", flush=True))

    # uvicorn shuts down gracefully on Ctrl-C or SIGTERM, then raises the signal again with the handlers that
    # were there before; this makes that last step a quiet, successful exit.
    def stopped(signum: int, frame: FrameType | None) -> None:
        tell("stopped")
        sys.exit(0)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stopped)
    server.run(sockets=[sock])
