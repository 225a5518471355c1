"""Which worker owns a room code: the same consistent hash nginx's ``hash $room consistent`` uses.

nginx places 160 points per server on a ring of 32-bit CRC values (point ``j`` is the CRC32 of the server's
host, a zero byte, its port, and point ``j - 1`` as four little-endian bytes, starting from zero) and sends a
key to the server of the first point at or after the key's CRC32, wrapping round. A worker picks new room
codes it owns by the same rule, so the proxy sends every later request about a room to the worker holding it
without reading a body and without an internal hop. The tests check this against a real nginx.

For a proxy whose hash differs (HAProxy, Caddy: docs/hosting.md), ``Letters`` is a rule any proxy can write
as path patterns: a code belongs to the worker of its first letter's place in the code alphabet, modulo the
number of workers.
"""

from __future__ import annotations

import bisect
import struct
import zlib
from collections.abc import Sequence

from ratscrew.rooms.runner import CODE_ALPHABET

POINTS_PER_SERVER = 160  # nginx's, for a server of weight 1


class Ring:
    """The ring of ``servers`` ("host:port", exactly as written in the proxy's ``upstream``)."""

    def __init__(self, servers: Sequence[str]) -> None:
        if not servers:
            raise ValueError("a ring needs at least one server")
        self.servers = tuple(servers)
        points: dict[int, int] = {}
        for index, server in enumerate(self.servers):
            host, _, port = server.rpartition(":")
            if not port.isdigit():
                host, port = server, ""
            base = zlib.crc32(host.encode() + b"\0" + port.encode())
            previous = 0
            for _ in range(POINTS_PER_SERVER):
                point = zlib.crc32(struct.pack("<I", previous), base)
                points.setdefault(point, index)  # nginx keeps one server per point; collisions are rare
                previous = point
        self._hashes = sorted(points)
        self._owners = [points[h] for h in self._hashes]

    def owner(self, key: str) -> int:
        """The index in ``servers`` of the server nginx sends ``key`` to."""
        at = bisect.bisect_left(self._hashes, zlib.crc32(key.encode()))
        return self._owners[at % len(self._hashes)]


class Letters:
    """Codes by their first letter: ``CODE_ALPHABET.index(letter) % workers`` (upper or lower case alike)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def owner(self, key: str) -> int:
        place = CODE_ALPHABET.find(key[:1].upper())
        return max(0, place) % self.workers

    def letters(self, worker: int, alphabet: str = CODE_ALPHABET) -> str:
        """The first letters of the keys ``worker`` holds, for a proxy's path pattern: of room codes by
        default, or of keys written in another ``alphabet`` by the same rule."""
        return "".join(c for i, c in enumerate(alphabet) if i % self.workers == worker)
