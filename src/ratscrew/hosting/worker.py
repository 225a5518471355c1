"""One room worker, as ``ratscrew serve`` starts it: ``python -m ratscrew.hosting.worker`` with its settings
in the environment (``settings.ENV``)."""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading

import uvicorn

from ratscrew.errors import RatscrewError
from ratscrew.hosting import logs
from ratscrew.hosting.settings import ENV, Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.web.app import create_app
from ratscrew.web.serve import bind, run_quietly, server_config, settle_collector

log = logging.getLogger("ratscrew.hosting.worker")  # not __main__, as it runs with -m


def run(hosting: Hosting) -> None:
    sock = worker_socket(hosting)
    holder: list[uvicorn.Server] = []
    setup = Hosted(hosting, stopping=lambda: bool(holder) and holder[0].should_exit)
    app = create_app(hosting.data_dir, setup=setup)
    config = server_config(app, hosting.trusted_proxies, graceful_s=round(hosting.drain_s), own_logs=True)
    server = uvicorn.Server(config)
    holder.append(server)
    if hosting.supervisor_fd >= 0:
        threading.Thread(target=watch_supervisor, args=(hosting.supervisor_fd, server), daemon=True).start()
    settle_collector()
    run_quietly(server, sock, say=log.info)


def worker_socket(hosting: Hosting) -> socket.socket:
    """The worker's port, held from the start but refusing connections until its rooms are restored and it
    answers: a worker that restarts is then passed over by the proxy for requests without a room code (a
    refused connection is safe to send elsewhere), where a port that accepted early held them until it was
    ready (4 to 9 s seen under load, up to 14 s for one request)."""
    return bind(hosting.host, hosting.ports[hosting.worker], listen=False)


def watch_supervisor(fd: int, server: uvicorn.Server) -> None:
    """Blocks until ``ratscrew serve`` is gone (end of file: it held the pipe's only writing end), then stops
    the worker as SIGTERM does: no new room, pages told, journal written."""
    while os.read(fd, 64):
        pass
    log.warning("ratscrew serve is gone: this worker stops")
    server.should_exit = True


def main() -> None:
    if ENV not in os.environ:
        print(f"ratscrew: worker: error: started without {ENV}; start workers with `ratscrew serve`", file=sys.stderr)
        sys.exit(2)
    hosting = Hosting.from_env(os.environ[ENV])
    logs.to_stderr(hosting.worker, hosting.log_level)
    log.setLevel(logging.INFO)  # its few lines (stopped) show at any level, as those of serve do
    try:
        run(hosting)
    except RatscrewError as exc:
        log.error("%s", exc)
        sys.exit(2)


if __name__ == "__main__":
    main()
