"""What a room has to send: typed messages for pages, queued in order, each encoded once as it leaves.

The room queues messages as it handles an input or a tick; its driver takes them all after each step. One
message often goes to every page of the room (a game's events, the lobby), and it is encoded once for all.
A message that shows cards says which (``Shows``): a slap on one is timed from when that message left for
its page, which its driver says (``RoomCore.sent``), since a journal may hold it a while after it is taken.
The room also keeps its numbered events here, the last ``HISTORY`` of them, for pages that reconnect.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from ratscrew.rooms import wire
from ratscrew.rooms.pages import Page
from ratscrew.table.seen import SlapSeen

log = logging.getLogger(__name__)

HISTORY = 500  # events kept for pages that reconnect

Message = dict[str, object]  # a message as it leaves the room: its JSON document, for the socket to send


@dataclass(frozen=True, slots=True)
class Shows:
    """The cards a message shows its page (those it turns, or the top one of a whole state), of which game."""

    game: int  # the room's game number: a rematch numbers its cards from 1 again
    cards: tuple[int, ...]


Outgoing = tuple[int, Message, Shows | None]  # to which page, what, and the cards it shows


class Outbox:
    def __init__(self, code: str) -> None:
        self.code = code  # the room's, for the log
        self.queued: list[tuple[int, wire.ServerMessage, Shows | None]] = []

    def send(self, page_id: int, message: wire.ServerMessage, shows: Shows | None = None) -> None:
        self.queued.append((page_id, message, shows))

    def refuse(self, page_id: int, no: wire.RejectedMsg) -> None:
        """Tell a page its input was refused, and why (and the log, too)."""
        log.info("room %s: page %d refused (%s): %s", self.code, page_id, no.code, no.reason)
        self.queued.append((page_id, no, None))

    def broadcast(self, pages: Iterable[Page], message: wire.ServerMessage, shows: Shows | None = None) -> None:
        """To every page that said hello."""
        self.queued.extend([(page.id, message, shows) for page in pages if page.greeted])

    def send_all(self, pages: Iterable[Page], message: wire.ServerMessage) -> None:
        self.queued.extend([(page.id, message, None) for page in pages])

    def take(self) -> list[Outgoing]:
        """What to send, to which page, in order; each message encoded once however many pages it goes to."""
        out = self.queued
        if not out:
            return []
        self.queued = []
        sent = []
        last: wire.ServerMessage | None = None
        doc: Message = {}
        for page_id, message, shows in out:
            if message is not last:  # a message for several pages is queued for them one after the other
                last, doc = message, message.to_json()
            sent.append((page_id, doc, shows))
        return sent


class Feed:
    """The room's game events, numbered across its games, the last ``HISTORY`` kept."""

    def __init__(self) -> None:
        self.seq = -1  # the number of the last event
        self.history: deque[wire.EventItem] = deque(maxlen=HISTORY)

    def add(self, game_no: int, t: int, event: wire.EventDoc, seen: SlapSeen | None = None) -> wire.EventItem:
        self.seq += 1
        item = wire.EventItem(self.seq, game_no, t, event, seen)
        self.history.append(item)
        return item

    def missed(self, since: int) -> list[wire.EventItem] | None:
        """The events after ``since``; None when they are no longer kept, or ``since`` is from before a
        restart (numbering starts again): the page needs the whole state instead."""
        oldest = self.history[0].seq if self.history else self.seq + 1
        if since + 1 < oldest or since > self.seq:
            return None
        return [item for item in self.history if item.seq > since]
