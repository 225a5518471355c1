"""What one room sends, into each page's outbox, only once the journal holds what made it.

The room's task calls ``step_done`` after each step (the messages that arrived, the timers due). What the
step wants sent goes out at once if the journal has committed every write the room has queued; otherwise it
is held, in order, with the ticket of the room's last write, and goes out when the journal says that ticket
is committed (``SqliteJournal.after``). Messages that have waited ``STALL_MS`` while the journal says it is
failing stop the room (``stalled``, ``stop``); a journal only slow is waited for.

Outboxes are bounded: a page that cannot keep up is sent the whole state instead of its backlog (once the
room's state is all committed), and closed if it keeps falling behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from dataclasses import dataclass, field

from ratscrew.rooms import wire
from ratscrew.rooms.core import Message, RoomCore
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.table.clock import Clock

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 64  # messages waiting for one page before it is sent the whole state instead
OVERFLOWS_BEFORE_CLOSE = 3
STALL_MS = 10_000  # a room's messages held this long while the journal fails: the room stops


@dataclass(eq=False)
class PageLink:
    """One connected page as its room's task sees it: an id and a bounded outbox the socket drains."""

    id: int
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT + 1))  # JSON text
    overflows: int = 0


def encode(message: Message) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def shut(link: PageLink) -> None:
    """Close the page's socket once its outbox is sent."""
    with contextlib.suppress(asyncio.QueueFull):
        link.outbox.put_nowait(None)


class Delivery:
    def __init__(self, core: RoomCore, links: dict[int, PageLink], journal: SqliteJournal | None, clock: Clock):
        self.core = core
        self.links = links  # the room task's own: pages come and go there
        self.journal = journal
        self.clock = clock
        # The journal's ticket of the room's last write; the writes of its creation (or restoring) are queued.
        self.ticket = journal.queued if journal is not None else 0
        self._held: deque[tuple[int, list[tuple[int, Message]]]] = deque()  # (ticket, messages), in order
        self._stale: set[int] = set()  # pages whose backlog was dropped while messages were held
        self._check_at: int | None = None  # when to see whether the messages held wait for a failing journal

    def mark(self) -> int:
        """Where the journal's tickets stand as a step begins: what it queues after that is the step's."""
        return self.journal.queued if self.journal is not None else 0

    def step_done(self, mark: int) -> None:
        """Send what the step wants sent, or hold it until the journal has committed what the room wrote."""
        out = self.core.take_outgoing()
        journal = self.journal
        if journal is None:
            self._send(out)
            return
        if journal.queued != mark:
            self.ticket = journal.queued
        if not out:
            return
        if not self._held and self.ticket <= journal.committed:
            self._send(out)
            return
        if not self._held:
            self._check_at = self.clock.now() + STALL_MS
        if not self._held or self._held[-1][0] != self.ticket:
            journal.after(self.ticket, self._committed)
        self._held.append((self.ticket, out))

    def check_at(self) -> int | None:
        """When the room must next see whether it is ``stalled`` (None: nothing is held)."""
        return self._check_at

    def stalled(self) -> bool:
        """Whether messages held for ``STALL_MS`` wait for a journal that fails (if it is only slow, they
        wait on, and this is asked again ``STALL_MS`` later)."""
        now = self.clock.now()
        if self._check_at is None or now < self._check_at:
            return False
        if self.journal is not None and not self.journal.healthy():
            return True
        self._check_at = now + STALL_MS
        return False

    def stop(self, why: str) -> None:
        """The room stops for ``why``: nothing held goes out; each page is told why, then closed."""
        log.error("room %s: stopped, its writes were not committed for %d ms", self.core.code, STALL_MS)
        self._held.clear()
        self._stale.clear()
        self._check_at = None
        text = encode(wire.ErrorMsg(why).to_json())
        for link in self.links.values():
            while not link.outbox.empty():  # room for the last words
                link.outbox.get_nowait()
            link.outbox.put_nowait(text)
            shut(link)

    def _committed(self) -> None:
        """The journal committed more: send, in order, everything held that it now covers."""
        assert self.journal is not None
        committed = self.journal.committed
        while self._held and self._held[0][0] <= committed:
            out = self._held.popleft()[1]
            try:
                self._send(out)
            except Exception:
                log.exception("room %s: an error while sending what was committed", self.core.code)
        if not self._held:
            self._check_at = None

    def _send(self, out: list[tuple[int, Message]]) -> None:
        # The same message often goes to every page of the room: it is encoded once, not once per page.
        encoded: dict[int, tuple[Message, str]] = {}
        for page_id, message in out:
            link = self.links.get(page_id)
            if link is None or page_id in self._stale:
                continue
            if link.outbox.qsize() >= OUTBOX_LIMIT:
                # The page cannot keep up: drop its backlog and send the whole state once instead.
                while not link.outbox.empty():
                    link.outbox.get_nowait()
                link.overflows += 1
                if link.overflows >= OVERFLOWS_BEFORE_CLOSE:
                    shut(link)
                    continue
                if self._held:  # the room's state now is ahead of what is committed: the state waits for it
                    self._stale.add(page_id)
                    continue
                message = self.core.snapshot()
            known = encoded.get(id(message))
            if known is None or known[0] is not message:
                known = (message, encode(message))
                encoded[id(message)] = known
            link.outbox.put_nowait(known[1])
        if self._stale and not self._held:
            state = encode(self.core.snapshot())
            for page_id in self._stale:
                if (link := self.links.get(page_id)) is not None:
                    link.outbox.put_nowait(state)
            self._stale.clear()
