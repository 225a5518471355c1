"""A simulated network on virtual time for room tests: pages with their own delays, and a room that never sleeps.

Every message between a page and the room is delivered after the page's one-way delay (plus jitter), in
time order; the room's timers fire at their deadlines. Pages are scripted by a callback that sees each
message as it arrives and answers with messages to send back after a pause. As the real server does, the
network times each connection every two seconds with a ping its page's script never sees (a browser answers
pings itself), and tells the room the round trip.
"""

from __future__ import annotations

import heapq
import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ratscrew.cards import Card
from ratscrew.patterns import find_matches
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rules import Rules
from ratscrew.table.clock import VirtualClock

Script = Callable[["SimPage", dict[str, Any]], list[tuple[int, dict[str, Any]]]]
PING_EVERY_MS = 2_000


@dataclass
class SimPage:
    id: int
    delay: int  # one-way, ms
    token: str | None = None
    jitter: float = 0.0
    script: Script | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    last_seq: int = -1
    connected: bool = False
    state: dict[str, Any] = field(default_factory=dict)
    echo_delay: int = 0  # the page answers probes this much late (pings are answered below its script)
    connection: int = 0  # counts the page's connections: the pings of an old one stop


class SimNet:
    def __init__(self, room: RoomCore, clock: VirtualClock, seed: int = 0) -> None:
        self.room = room
        self.clock = clock
        self.rng = random.Random(seed)
        self.pages: dict[int, SimPage] = {}
        self._queue: list[tuple[int, int, str, int, Any]] = []
        self._order = itertools.count()

    def _lag(self, page: SimPage) -> int:
        return max(0, round(page.delay * (1 + self.rng.uniform(-page.jitter, page.jitter))))

    def connect(self, page: SimPage, since: int = -1) -> None:
        """The page opens its socket and says hello (with its token and the last event it saw)."""
        self.pages[page.id] = page
        page.connected = True
        page.connection += 1
        self._push(self.clock.now(), "open", page.id, None)  # the socket opens before its first message lands
        self.send(page, {"type": "hello", "v": wire.VERSION, "token": page.token, "since": since})
        self._push(self.clock.now() + 1, "ping", page.id, page.connection)

    def disconnect(self, page: SimPage) -> None:
        page.connected = False
        self._push(self.clock.now() + self._lag(page), "close", page.id, None)

    def send(self, page: SimPage, message: dict[str, Any], after: int = 0) -> None:
        self._push(self.clock.now() + after + self._lag(page), "to_room", page.id, json.dumps(message))

    def _push(self, at: int, kind: str, page_id: int, payload: Any) -> None:
        heapq.heappush(self._queue, (at, next(self._order), kind, page_id, payload))

    def run_while(self, busy: Callable[[], bool], limit: int, step: int = 5_000) -> None:
        """Run in steps until ``busy`` says otherwise or virtual time reaches ``limit``."""
        while busy() and self.clock.now() < limit:
            self.run_until(self.clock.now() + step)

    def run_until(self, t: int) -> None:
        room = self.room
        while True:
            deadline = room.next_deadline()
            nxt = self._queue[0][0] if self._queue else None
            candidates = [x for x in (deadline, nxt) if x is not None]
            at = min(candidates, default=None)
            if at is None or at > t:
                break
            self.clock.advance_to(max(at, self.clock.now()))
            if nxt is not None and nxt <= self.clock.now():
                _, _, kind, page_id, payload = heapq.heappop(self._queue)
                if kind == "open":
                    room.open_page(page_id)
                elif kind == "close":
                    room.close_page(page_id)
                elif kind == "to_room":
                    room.receive(page_id, wire.parse_client(payload))
                elif kind == "to_page":
                    self._deliver(self.pages[page_id], payload)
                elif kind in ("ping", "pong"):
                    self._ping(self.pages[page_id], kind, payload)
            room.tick()
            for page_id, message in room.take_outgoing():
                page = self.pages.get(page_id)
                if page is not None and page.connected:
                    self._push(self.clock.now() + self._lag(page), "to_page", page_id, json.loads(json.dumps(message)))
        self.clock.advance_to(max(t, self.clock.now()))

    def _ping(self, page: SimPage, kind: str, payload: tuple[int, int] | int) -> None:
        """The server's ping of one connection, and its pong a round trip later."""
        now = self.clock.now()
        if kind == "ping" and isinstance(payload, int) and page.connected and payload == page.connection:
            self._push(now + self._lag(page) + self._lag(page), "pong", page.id, (payload, now))
            self._push(now + PING_EVERY_MS, "ping", page.id, payload)
        elif kind == "pong" and isinstance(payload, tuple) and page.connected and payload[0] == page.connection:
            self.room.link_measured(page.id, now - payload[1])

    def _deliver(self, page: SimPage, message: dict[str, Any]) -> None:
        if not page.connected:
            return
        page.received.append(message)
        kind = message["type"]
        if kind == "probe":
            self.send(page, {"type": "echo", "id": message["id"]}, page.echo_delay)
        if kind in ("events", "welcome", "state") and message.get("state"):
            page.state = message["state"]
        if kind == "events":
            for item in message["items"]:
                if item["seq"] > page.last_seq:
                    page.last_seq = item["seq"]
        elif kind in ("welcome", "state") and (kind == "state" or message.get("missed") is None):
            page.last_seq = message["seq"]
        if page.script is not None:
            for after, reply in page.script(page, message):
                self.send(page, reply, after)


def slappable(state: dict[str, Any], rules: Rules) -> bool:
    pile = [Card.parse(c) for c in state.get("pile", [])]
    return bool(pile) and bool(find_matches(pile, rules))


def slapper(
    seat: int,
    rules: Rules,
    reaction: Callable[[int], int],
    *,
    told: Callable[[int], int] = lambda rt: rt,
    flip_after: int = 300,
) -> Script:
    """A page that slaps every slappable card ``reaction(card)`` ms after it arrives and tells the server it
    reacted in ``told(rt)`` ms (the truth, unless it lies), and otherwise turns its card when it is due (once
    it is sent events, or the whole state of a table just dealt)."""

    def script(page: SimPage, message: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
        state = page.state
        if message["type"] not in ("events", "state") or not state or state.get("over"):
            return []
        card = state["cards"]
        turned = any(i["event"]["kind"] == "card_turned" for i in message.get("items", []))
        if turned and slappable(state, rules):
            rt = reaction(card)
            return [(rt, {"type": "slap", "seat": seat, "card": card, "rt": told(rt)})]
        if state["turn"] == seat and state["collect_pending"] is None and not slappable(state, rules):
            return [(flip_after, {"type": "flip", "seat": seat})]
        return []

    return script
