"""``ratscrew serve``: starts one room worker per port, starts again any that dies (kill -9 included: its rooms
resume from the journal, as after a restart), and on SIGTERM or Ctrl-C stops them all gracefully. Should
``ratscrew serve`` itself die, even by kill -9, its workers notice (a pipe's end of file) and stop gracefully
too, rather than hold the ports with nobody to restart them."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from types import FrameType

from ratscrew import database
from ratscrew.errors import RatscrewError
from ratscrew.hosting.settings import ENV, Hosting
from ratscrew.web.serve import bind

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
        say(f"worker {index} on http://{self.hosting.servers[index]}/ (pid {process.pid})")
        return process

    def run(self) -> None:
        self.check()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._stop)
        self.workers = [self.spawn(i) for i in range(len(self.hosting.ports))]
        self.started = [time.monotonic()] * len(self.workers)
        say(f"data in {self.hosting.data_dir}; Redis: {self.hosting.redis_url or 'none'}; stop with Ctrl-C")
        while not self.stopping:
            time.sleep(POLL_S)
            for index, process in enumerate(self.workers):
                if self.stopping or process.poll() is None:
                    continue
                say(f"worker {index} (pid {process.pid}) ended with {process.returncode}: starting it again")
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
        say("stopped")


def say(text: str) -> None:
    print(f"ratscrew: {text}", flush=True)
