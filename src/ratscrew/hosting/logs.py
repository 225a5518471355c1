"""Log lines as JSON, one object a line, with the worker and (where a line is about one) the room code."""

from __future__ import annotations

import json
import logging
import re
import sys
import time

# The rooms' lines say "room CODE: ..." (runner.py, online.py): the code is taken from there.
ROOM_IN_TEXT = re.compile(r"\broom ([A-Z2-9]{6})\b")


class JsonLines(logging.Formatter):
    def __init__(self, worker: int) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        line: dict[str, object] = {
            "t": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "worker": self.worker,
            "msg": text,
        }
        room = getattr(record, "room", None)
        if room is None and (found := ROOM_IN_TEXT.search(text)) is not None:
            room = found.group(1)
        if room is not None:
            line["room"] = room
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def to_stderr(worker: int, level: str = "warning") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines(worker))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
