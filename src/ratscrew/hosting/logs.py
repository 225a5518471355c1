"""Log lines as JSON, one object a line, with the worker and (where a line is about one) the room code.

Everything ``ratscrew serve`` and its workers write to stderr is such a line, so that
``journalctl -u ratscrew -o cat | jq`` reads the whole journal: their own lines, uvicorn's, Python's warnings,
an exception nobody caught (one line, its traceback in ``error``), and any text a library writes to stderr
itself (each of its lines in ``msg``).
"""

from __future__ import annotations

import io
import json
import logging
import re
import sys
import threading
import time
from types import TracebackType
from typing import TextIO

# The rooms' lines say "room CODE: ..." (runner.py, online.py): the code is taken from there.
ROOM_IN_TEXT = re.compile(r"\broom ([A-Z2-9]{6})\b")
SERVE = "ratscrew.serve"  # the logger of ``ratscrew serve`` itself, which has no worker number


class JsonLines(logging.Formatter):
    """``worker`` is the process's own number (None for ``ratscrew serve``); a record's ``worker`` attribute,
    given as ``extra``, names the worker a line of ``serve`` is about."""

    def __init__(self, worker: int | None) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        line: dict[str, object] = {
            "t": stamp(record.created, record.msecs),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        worker = getattr(record, "worker", self.worker)
        if worker is not None:
            line["worker"] = worker
        line["msg"] = text
        room = getattr(record, "room", None)
        if room is None and (found := ROOM_IN_TEXT.search(text)) is not None:
            room = found.group(1)
        if room is not None:
            line["room"] = room
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def stamp(created: float, msecs: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) + f".{int(msecs):03d}Z"


class JsonStderr(io.TextIOBase):
    """Stands in for ``sys.stderr``: a line that is a JSON object passes as it is; any other line (a library
    printing, a warning written by hand) becomes one, its text in ``msg``."""

    def __init__(self, stream: TextIO, worker: int | None) -> None:
        super().__init__()
        self.stream = stream
        self.worker = worker
        self.pending = ""
        self.lock = threading.RLock()  # a signal handler that writes while a write is under way must not wait

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self.lock:
            self.pending += text
            *lines, self.pending = self.pending.split("\n")
            for line in lines:
                self.stream.write(self.wrapped(line) + "\n")
            self.stream.flush()
        return len(text)

    def flush(self) -> None:
        with self.lock:
            if self.pending:
                self.stream.write(self.wrapped(self.pending) + "\n")
                self.pending = ""
            self.stream.flush()

    def fileno(self) -> int:
        return self.stream.fileno()

    def wrapped(self, line: str) -> str:
        if line.startswith("{"):
            try:
                if isinstance(json.loads(line), dict):
                    return line
            except ValueError:
                pass
        now = time.time()
        doc: dict[str, object] = {"t": stamp(now, (now % 1) * 1000), "level": "error", "logger": "stderr"}
        if self.worker is not None:
            doc["worker"] = self.worker
        doc["msg"] = line
        return json.dumps(doc, ensure_ascii=False)


def to_stderr(worker: int | None, level: str = "warning") -> None:
    """Every line this process writes to stderr from now on is JSON (see the module's docstring)."""
    stream = sys.__stderr__ or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines(worker))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger(SERVE).setLevel(logging.INFO)  # its few lines (workers started, restarted) always show
    logging.captureWarnings(True)
    sys.stderr = JsonStderr(stream, worker)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread
    sys.unraisablehook = _unraisable


def _uncaught(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    logging.getLogger("ratscrew").critical("uncaught %s: %s", kind.__name__, value, exc_info=(kind, value, tb))


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    name = args.thread.name if args.thread is not None else "a thread"
    logging.getLogger("ratscrew").error(
        "uncaught in %s: %s", name, args.exc_value, exc_info=(args.exc_type, args.exc_value, args.exc_traceback)
    )


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    value = unraisable.exc_value
    where = unraisable.err_msg or "Exception ignored"
    exc_info = (unraisable.exc_type, value, unraisable.exc_traceback) if value is not None else None
    logging.getLogger("ratscrew").warning("%s in %r: %s", where, unraisable.object, value, exc_info=exc_info)
