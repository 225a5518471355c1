"""What one room sends, into each page's outbox, only once the journal holds what made it.

The room's task calls ``step_done`` after each step (the messages that arrived, the timers due). What the
step wants sent goes out at once if the journal has committed every write the room has queued; otherwise it
is held, in order, with the ticket of the room's last write, and goes out when the journal says that ticket
is committed (``SqliteJournal.after``). Messages that have waited ``STALL_MS`` while the journal says it is
failing stop the room (``stalled``, ``stop``); a journal only slow is waited for.

Holding costs no turn of the event loop. The journal commits in the turn after the step (its commit is
scheduled by the step's first write, or earlier), and what it releases would wake each page's sender one
turn later still. So as it holds a step's messages, the delivery wakes at once the senders of the pages
they go to, with a message that says nothing (``WAKE``): each sender runs in the next turn, after the
commit (the loop runs its callbacks in the order they were scheduled), and finds what the commit released.
If the commit has not come, the sender finds nothing more and waits again: nothing leaves before it is kept.

A slap on a card is timed from when the message showing it is put into the page's outbox, here, not from
when the table turned it (``RoomCore.sent``): what is held left later.

Outboxes are bounded: a page that cannot keep up loses its backlog and the rest of what the step sends it,
and is sent the whole state after it instead, once the room's state is all committed and nothing older is
held; a page that keeps falling behind is closed.
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
from ratscrew.rooms.outbox import Outgoing
from ratscrew.table.clock import Clock

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 64  # messages waiting for one page before it is sent the whole state instead
WAKE = ""  # put into an idle page's outbox: its sender wakes for it and sends nothing (no message is empty)
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


def empty(link: PageLink) -> None:
    """Drop what waits in the page's outbox."""
    while not link.outbox.empty():
        link.outbox.get_nowait()


class Delivery:
    def __init__(self, core: RoomCore, links: dict[int, PageLink], journal: SqliteJournal | None, clock: Clock):
        self.core = core
        self.links = links  # the room task's own: pages come and go there
        self.journal = journal
        self.clock = clock
        # The journal's ticket of the room's last write; the writes of its creation (or restoring) are queued.
        self.ticket = journal.queued if journal is not None else 0
        self._held: deque[tuple[int, list[Outgoing]]] = deque()  # (ticket, messages), in order
        self._stale: set[int] = set()  # pages whose backlog was dropped: the whole state is due to them
        self._check_at: int | None = None  # when to see whether the messages held wait for a failing journal

    def mark(self) -> int:
        """Where the journal's tickets stand as a step begins: what it queues after that is the step's."""
        return self.journal.queued if self.journal is not None else 0

    def step_done(self, mark: int) -> None:
        """Send what the step wants sent, or hold it until the journal has committed what the room wrote."""
        out = self.core.take_held()
        journal = self.journal
        if journal is None:
            self._send(out)
            self._catch_up()
            return
        if journal.queued != mark:
            self.ticket = journal.queued
        if not out:
            return
        if not self._held and self.ticket <= journal.committed:
            self._send(out)
            self._catch_up()
            return
        if not self._held:
            self._check_at = self.clock.now() + STALL_MS
        if not self._held or self._held[-1][0] != self.ticket:
            journal.after(self.ticket, self._committed)
        self._held.append((self.ticket, out))
        self._wake(out)

    def _wake(self, out: list[Outgoing]) -> None:
        """Wake now the sender of each idle page these held messages go to (``WAKE``): it runs after the
        commit that releases them, in the same turn, rather than a turn after it."""
        for page_id in {page_id for page_id, _message, _shows in out}:
            link = self.links.get(page_id)
            if link is not None and link.outbox.empty():
                link.outbox.put_nowait(WAKE)

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
            empty(link)  # room for the last words
            link.outbox.put_nowait(text)
            shut(link)

    def _committed(self) -> None:
        """The journal committed more: send, in order, everything held that it now covers."""
        assert self.journal is not None
        committed = self.journal.committed
        try:
            while self._held and self._held[0][0] <= committed:
                self._send(self._held.popleft()[1])
            self._catch_up()
        except Exception:  # a bug here must not keep the journal from telling the other rooms
            log.exception("room %s: an error while sending what was committed", self.core.code)
        if not self._held:
            self._check_at = None

    def _send(self, out: list[Outgoing]) -> None:
        # The same message often goes to every page of the room: it is encoded once, not once per page.
        encoded: dict[int, tuple[Message, str]] = {}
        for page_id, message, shows in out:
            link = self.links.get(page_id)
            if link is None or page_id in self._stale or link.overflows >= OVERFLOWS_BEFORE_CLOSE:
                continue
            if link.outbox.qsize() >= OUTBOX_LIMIT:
                # The page cannot keep up: its backlog goes, and it gets the whole state instead (``_catch_up``),
                # after the rest of this step, which that state covers too.
                empty(link)
                link.overflows += 1
                if link.overflows >= OVERFLOWS_BEFORE_CLOSE:
                    shut(link)
                else:
                    self._stale.add(page_id)
                continue
            known = encoded.get(id(message))
            if known is None or known[0] is not message:
                known = (message, encode(message))
                encoded[id(message)] = known
            link.outbox.put_nowait(known[1])
            if shows is not None:
                self.core.sent(page_id, shows)

    def _catch_up(self) -> None:
        """Send the whole state to each page that fell behind, once the room's state is all committed and
        nothing older than it is held (it would come after the state, and go back in time)."""
        if not self._stale or self._held:
            return
        journal = self.journal
        if journal is not None and self.ticket > journal.committed:  # a step wrote, and sent nothing
            journal.after(self.ticket, self._committed)
            return
        state, shows = encode(self.core.snapshot()), self.core.showing()
        for page_id in self._stale:
            link = self.links.get(page_id)
            if link is None:
                continue
            if link.outbox.full():  # only what the socket told it meanwhile (``web/online.py``)
                empty(link)
            link.outbox.put_nowait(state)
            if shows is not None:
                self.core.sent(page_id, shows)
        self._stale.clear()
