"""``ratscrew serve``: starts one room worker per port, starts again any that dies (kill -9 included: its rooms
resume from the journal, as after a restart), and on SIGTERM or Ctrl-C stops them all gracefully. Should
``ratscrew serve`` itself die, even by kill -9, its workers notice (a pipe's end of file) and stop gracefully
too, rather than hold the ports with nobody to restart them."""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import subprocess
import sys
import time
from types import FrameType

from ratscrew import __version__, build, database
from ratscrew.errors import RatscrewError
from ratscrew.hosting import files, logs
from ratscrew.hosting.settings import ENV, Hosting
from ratscrew.web.serve import bind

log = logging.getLogger(logs.SERVE)

POLL_S = 0.2
QUICK_DEATH_S = 2.0  # a worker that dies this soon after starting is started again only after a pause
PAUSE_S = 2.0


class Supervisor:
    def __init__(self, hosting: Hosting) -> None:
        self.hosting = hosting
        self.workers: list[subprocess.Popen[bytes]] = []
        self.started: list[float] = []
        self.stopping = False
        # The workers hold the reading end; only this process holds the writing end (not inherited).
        self._alive_read, self._alive_write = os.pipe()

    def check(self) -> None:
        """Fail now, in one line, rather than in every worker again and again."""
        for port in self.hosting.ports:
            bind(self.hosting.host, port).close()
        try:
            self.hosting.data_dir.mkdir(parents=True, exist_ok=True)
            database.prepare(self.hosting.data_dir / "ratscrew.sqlite3")  # once, before the workers share it
        except OSError as exc:
            raise RatscrewError(
                f"cannot use the data folder {self.hosting.data_dir}: {exc.strerror}; choose another with --data"
            ) from None

    def spawn(self, index: int) -> subprocess.Popen[bytes]:
        hosting = dataclasses.replace(self.hosting, worker=index, supervisor_fd=self._alive_read)
        env = {**os.environ, ENV: hosting.to_env()}
        # In a session of its own: Ctrl-C in a terminal reaches this process only, which then stops each worker
        # with one SIGTERM (a second signal makes uvicorn skip the graceful part, the journal's last writes too).
        process = subprocess.Popen(
            [sys.executable, "-m", "ratscrew.hosting.worker"],
            env=env,
            start_new_session=True,
            pass_fds=(self._alive_read,),
        )
        log.info(
            "worker %d on http://%s/ (pid %d)", index, self.hosting.servers[index], process.pid, extra=about(index)
        )
        return process

    def run(self) -> None:
        """Every line from here on is JSON on stderr (``logs.py``), the workers' too."""
        logs.to_stderr(None, self.hosting.log_level)
        workers = len(self.hosting.ports)
        log.info(
            "ratscrew %s (commit %s): %d worker%s", __version__, build.commit(), workers, "s" if workers > 1 else ""
        )
        limit = files.raise_to_hard()  # the workers inherit it
        log.log(logging.INFO if limit.now >= files.FEW else logging.WARNING, "%s", limit.describe())
        try:
            self.check()
        except RatscrewError as exc:
            log.error("%s", exc)
            raise SystemExit(2) from None
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._stop)
        self.workers = [self.spawn(i) for i in range(len(self.hosting.ports))]
        self.started = [time.monotonic()] * len(self.workers)
        log.info("data in %s; Redis: %s; stop with Ctrl-C", self.hosting.data_dir, self.hosting.redis_url or "none")
        while not self.stopping:
            time.sleep(POLL_S)
            for index, process in enumerate(self.workers):
                if self.stopping or process.poll() is None:
                    continue
                said = "worker %d (pid %d) ended with %d: starting it again"
                log.warning(said, index, process.pid, process.returncode, extra=about(index))
                if time.monotonic() - self.started[index] < QUICK_DEATH_S:
                    time.sleep(PAUSE_S)
                if not self.stopping:
                    self.workers[index] = self.spawn(index)
                    self.started[index] = time.monotonic()
        self.shut_down()

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping = True

    def shut_down(self) -> None:
        """Each worker refuses new rooms, closes its pages' sockets (they reconnect), flushes its journal."""
        for process in self.workers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.hosting.drain_s + 10
        for process in self.workers:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.info("stopped")


def about(worker: int) -> dict[str, object]:
    """A line of ``serve`` about one worker carries its number, as the worker's own lines do."""
    return {"worker": worker}
