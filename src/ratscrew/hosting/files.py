"""Open files: every page's socket is one in the worker holding its room. ``ratscrew serve`` raises its soft
limit to the hard one as it starts (its workers inherit it): under systemd without ``LimitNOFILE`` the soft
limit is 1024, and a worker that reaches it can neither take another socket nor open its SQLite file."""

from __future__ import annotations

import contextlib
import resource
from dataclasses import dataclass
from pathlib import Path

# What a worker holds open besides its pages' sockets: its listening socket, the SQLite file with its log and
# shared memory for each connection, Redis connections, the event loop's own, pipes, imported files.
RESERVED = 256
SEATS = 4  # the sockets of a room where every seat is taken
FEW = 4096  # below this, the log line is a warning that says how to raise the limit


@dataclass(frozen=True)
class FileLimit:
    before: int  # the soft limit this process started with
    now: int  # the soft limit after raising it
    hard: int

    @property
    def sockets(self) -> int:
        """Sockets a worker can hold before it runs out of files."""
        return max(0, self.now - RESERVED)

    def describe(self) -> str:
        """What the limit allows, for the log: the sockets and the rooms of four on each worker.

        >>> FileLimit(before=1024, now=8192, hard=8192).describe()
        'open files: 8192 (raised from 1024, the hard limit): room for 7936 sockets a worker, 1984 rooms of four'
        """
        if self.now == self.before:
            how = "the hard limit" if self.now >= self.hard else f"not raised to the hard limit {self.hard}"
        else:
            how = f"raised from {self.before}, the hard limit"
        text = f"open files: {self.now} ({how}): room for {self.sockets} sockets a worker"
        text += f", {self.sockets // SEATS} rooms of four"
        if self.now < FEW:
            text += "; raise LimitNOFILE in the systemd unit (docs/hosting.md)"
        return text


def raise_to_hard() -> FileLimit:
    """Raise this process's soft limit on open files as far as the hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = _finite(hard)
    if _finite(soft) < ceiling:
        # The kernel may allow less than the hard limit says: then keep what there is.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
    return FileLimit(before=_finite(soft), now=_finite(resource.getrlimit(resource.RLIMIT_NOFILE)[0]), hard=ceiling)


def _finite(limit: int) -> int:
    """An unlimited number of files is bounded by the kernel's own ceiling for a process."""
    if limit != resource.RLIM_INFINITY:
        return limit
    try:
        return int(Path("/proc/sys/fs/nr_open").read_text())
    except (OSError, ValueError):
        return 1024 * 1024
