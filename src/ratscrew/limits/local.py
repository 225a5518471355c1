"""The limits counted in this process, on the clock it is given (the rooms' clock: virtual time in tests).

``Window`` is the one sliding window both counters use; ``hosting/limits.py`` keeps the same window in Redis
(its Lua), and ``tests/hosting/test_limits_windows.py`` runs the same steps against both on one virtual clock, so
the two cannot drift apart.
"""

from __future__ import annotations

import secrets
from collections import Counter

from ratscrew.limits.caps import (
    GUESS_MS,
    HOUR_MS,
    MINUTE_MS,
    Caps,
    too_many_guesses,
    too_many_misses,
    too_many_rooms,
    too_many_sockets,
)
from ratscrew.limits.grants import Grant, Lease
from ratscrew.table.clock import Clock


class Window:
    """For each client, the entries taken within the last ``span_ms``: an entry taken at ``t`` counts while
    the clock reads less than ``t + span_ms``. Each entry has a name (``ticket:i``), so that a request can
    give back what it took and did not use. A client with no entry left is forgotten."""

    def __init__(self, clock: Clock, span_ms: int) -> None:
        self.clock = clock
        self.span_ms = span_ms
        self._entries: dict[str, dict[str, int]] = {}  # client -> entry -> when, oldest first

    def held(self, client: str) -> int:
        entries = self._entries.get(client)
        if entries is None:
            return 0
        cutoff = self.clock.now() - self.span_ms
        for name in [n for n, t in entries.items() if t <= cutoff]:
            del entries[name]
        if not entries:
            del self._entries[client]
        return len(entries)

    def take(self, client: str, cap: int, wanted: int, ticket: str) -> tuple[int, int]:
        """Up to ``wanted`` entries under ``cap``: (how many were taken, how many were held before)."""
        held = self.held(client)
        granted = max(0, min(wanted, cap - held))
        if granted:
            entries = self._entries.setdefault(client, {})
            now = self.clock.now()
            for i in range(1, granted + 1):
                entries[f"{ticket}:{i}"] = now
        return granted, held

    def give_back(self, client: str, ticket: str, granted: int, count: int) -> None:
        """The last ``count`` of the ``granted`` entries taken under ``ticket``."""
        entries = self._entries.get(client)
        if entries is None:
            return
        for i in range(granted - count + 1, granted + 1):
            entries.pop(f"{ticket}:{i}", None)
        if not entries:
            del self._entries[client]

    def __len__(self) -> int:
        return len(self._entries)


class LocalLimits:
    """Every limit counted here alone. ``caps`` may be changed while it runs (a worker's share of the caps
    follows the number of workers alive)."""

    def __init__(self, clock: Clock, caps: Caps | None = None) -> None:
        self.clock = clock
        self.caps = caps or Caps()
        self.created = Window(clock, HOUR_MS)
        self.misses = Window(clock, MINUTE_MS)
        self.guesses = Window(clock, GUESS_MS)  # by address (``address:...``) and by account (``account:...``)
        self.sockets: Counter[str] = Counter()

    async def room(self, client: str) -> Grant:
        return self.take_room(client)

    async def missed(self, client: str, misses: int) -> int:
        return self.take_misses(client, misses)

    async def password(self, client: str, account: str) -> Grant:
        return self.take_password(client, account)

    async def socket(self, client: str) -> Lease:
        return self.take_socket(client)

    # The same, for callers that cannot await (the shared limits falling back on these).

    def take_room(self, client: str) -> Grant:
        cap, ticket = self.caps.rooms_per_hour, secrets.token_hex(8)
        granted, held = self.created.take(client, cap, 1, ticket)
        if not granted:
            raise too_many_rooms(held, cap)
        return Grant(1, lambda left: self.created.give_back(client, ticket, 1, left))

    def take_misses(self, client: str, misses: int) -> int:
        cap = self.caps.misses_per_minute
        _taken, held = self.misses.take(client, cap, misses, secrets.token_hex(8))
        if held >= cap:
            raise too_many_misses(cap)
        return cap - held

    def take_password(self, client: str, account: str) -> Grant:
        ticket = secrets.token_hex(8)
        by_address, by_account = guess_keys(client, account)
        if not self.guesses.take(by_address, self.caps.guesses_per_address, 1, ticket)[0]:
            raise too_many_guesses()
        if not self.guesses.take(by_account, self.caps.guesses_per_account, 1, ticket)[0]:
            self.guesses.give_back(by_address, ticket, 1, 1)
            raise too_many_guesses()

        def give_back(left: int) -> None:
            self.guesses.give_back(by_address, ticket, 1, left)
            self.guesses.give_back(by_account, ticket, 1, left)

        return Grant(1, give_back)

    def take_socket(self, client: str) -> Lease:
        cap = self.caps.sockets
        if self.sockets[client] >= cap:
            raise too_many_sockets(cap)
        self.sockets[client] += 1
        return Lease(lambda: self.release(client))

    def release(self, client: str) -> None:
        self.sockets[client] -= 1
        if self.sockets[client] <= 0:
            del self.sockets[client]


def guess_keys(client: str, account: str) -> tuple[str, str]:
    """The two windows a password check counts in: its address's, and its account name's."""
    return f"address:{client}", f"account:{account}"
