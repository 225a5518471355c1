"""Running the web app for ``ratscrew play``: pick a port, announce the address, open the browser."""

from __future__ import annotations

import gc
import os
import signal
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from types import FrameType

import uvicorn

from ratscrew.errors import RatscrewError
from ratscrew.web.app import create_app
from ratscrew.web.wslink import TimedWebSocket

WS_MAX_BYTES = 64 * 1024  # the protocol itself refuses anything over 1 KiB with a readable error


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ratscrew"


def bind(host: str, port: int) -> socket.socket:
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
    sock.listen(128)
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
    # Everything loaded so far (modules, catalogues, rules) lives as long as the server: kept out of the
    # collector's full passes, which otherwise walk it all again and again while hundreds of rooms play.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{sock.getsockname()[1]}/"
    print(f"ratscrew: serving on {url}", flush=True)
    print(f"ratscrew: data in {data_dir}; stop with Ctrl-C", flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=WS_MAX_BYTES,
        # uvicorn's own websocket protocol, which also times each link for the fairness of slaps (wslink.py).
        ws=TimedWebSocket,
        # Messages are small and many: compressing each costs more CPU than it saves on a table's link.
        ws_per_message_deflate=False,
        # Limits are per client address: never take it from a header any local process could set.
        proxy_headers=False,
        lifespan="on",
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    if open_browser:
        threading.Timer(0.6, webbrowser.open, [url]).start()
    # uvicorn shuts down gracefully on Ctrl-C or SIGTERM, then raises the signal again with the handlers that
    # were there before; these make that last step a quiet, successful exit.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _stopped)
    server.run(sockets=[sock])


def _stopped(signum: int, frame: FrameType | None) -> None:
    print("ratscrew: stopped", flush=True)
    sys.exit(0)
