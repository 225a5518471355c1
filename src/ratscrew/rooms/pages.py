"""The pages watching a room and their links: which seats each holds, how far away each is, what each was sent.

A page is one websocket. The server times its link itself (``link``: websocket pings, the kernel's round
trip), and that is what bounds every slap's credit and sizes the table's decision window; the page's own
answers to probes (``echo``) only go into the record. :class:`Pages` is every page of one room, by id, with
the questions the room asks of them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ratscrew.engine.actions import Millis
from ratscrew.rooms.fairness import MIN_WINDOW_MS, LagEstimate, SeenLag, computer_sight, decision_window

SENT_CARDS_KEPT = 64  # the last cards each page was sent, with when: a slap names one of them
PROBES_KEPT_MS = 30_000  # a probe not answered by then is forgotten


@dataclass
class Page:
    """One websocket: the seats its token holds, its delays, when it was sent each card of this game."""

    id: int
    seats: frozenset[int] = frozenset()
    token: str | None = None
    greeted: bool = False
    link: LagEstimate = field(default_factory=LagEstimate)  # measured by the server's transport: the bound
    echo: LagEstimate = field(default_factory=LagEstimate)  # the page's answers to probes: recorded only
    tcp_ms: float | None = None  # the kernel's last round trip of the connection
    seen: SeenLag = field(default_factory=SeenLag)
    sent_cards: dict[int, Millis] = field(default_factory=dict)  # in the order sent: the oldest goes first
    probes: dict[int, Millis] = field(default_factory=dict)  # probe id -> when it was sent
    next_probe: Millis = 0
    _shown_before: int | None = field(default=None, init=False, repr=False)  # the delay shown before the last measure

    def measured(self, ping_ms: float | None, tcp_ms: float | None) -> bool:
        """The server timed this link: a websocket ping's round trip (None: no pong came in time) and the
        kernel's. False when there was nothing to go on."""
        if tcp_ms is not None:
            self.tcp_ms = tcp_ms
        sample = ping_ms if ping_ms is not None else tcp_ms  # no pong came: the kernel's figure alone
        if sample is None:
            return False
        self._shown_before = self.link.shown_ms
        self.link.observe(sample)
        return True

    def shown_moved(self) -> bool:
        """Whether the delay pages show for this link moved by 5 ms or more with its last measure."""
        before, after = self._shown_before, self.link.shown_ms
        return before is None or after is None or abs(after - before) >= 5

    def card_sent(self, number: int, at: Millis) -> None:
        """The page was sent card ``number`` at ``at``, unless it was sent it before (a whole state shows the
        top card again: the page could see it from the first time)."""
        if number in self.sent_cards:
            return
        # The oldest goes, never the smallest number (a rematch numbers its cards from 1 again).
        self.sent_cards[number] = at
        if len(self.sent_cards) > SENT_CARDS_KEPT:
            del self.sent_cards[next(iter(self.sent_cards))]

    def probe(self, probe_id: int, now: Millis) -> None:
        """A probe goes out now; the unanswered ones of long ago are forgotten."""
        self.probes = {k: v for k, v in self.probes.items() if now - v < PROBES_KEPT_MS}
        self.probes[probe_id] = now

    def echoed(self, probe_id: int, now: Millis) -> None:
        sent = self.probes.pop(probe_id, None)
        if sent is not None:
            self.echo.observe(now - sent)  # kept for the record: a page may answer as late as it likes


class Pages(dict[int, Page]):
    """Every page of one room by id, and what the room asks of them together."""

    def holding(self, seat: int) -> list[Page]:
        return [page for page in self.values() if seat in page.seats]

    def connected(self, seat: int) -> bool:
        return any(seat in page.seats for page in self.values())

    def present(self) -> set[int]:
        """Every seat held by a connected page."""
        return {seat for page in self.values() for seat in page.seats}

    def players(self) -> list[Page]:
        return [page for page in self.values() if page.seats]

    def latencies(self, seats: int) -> list[int | None]:
        """Each seat's measured one-way delay (its best connected page's), None where nothing is measured."""
        shown: list[int | None] = [None] * seats
        for page in self.values():
            ms = page.link.shown_ms
            if ms is None:
                continue
            for seat in page.seats:
                if seat < seats:
                    known = shown[seat]
                    shown[seat] = ms if known is None else min(known, ms)
        return shown

    def allowances(self, seats: int) -> list[int]:
        """What the server allows each seat's link (its best measured page's), 0 where nothing is measured."""
        allowed = [0] * seats
        for page in self.values():
            if page.link.samples:
                for seat in page.seats:
                    if seat < seats:
                        allowed[seat] = max(allowed[seat], page.link.allowance())
        return allowed

    def window(self) -> int:
        """The decision window: enough for the slowest connected player's measured lag, within the cap. Where
        one player's links alone count (a game against the computer, two on one screen, one person's tabs),
        nobody's slap races another link: the window stays at its least and the computers wait instead."""
        players = self.players()
        if len({p.token for p in players}) < 2:
            return MIN_WINDOW_MS
        return decision_window(p.link.allowance() for p in players if p.link.samples)

    def sight(self, window: int) -> int:
        """How long after a card lands the computers see it (``fairness.computer_sight``)."""
        return computer_sight(window, (p.seen.ms(p.link) for p in self.players() if p.link.samples))

    def heir(self) -> Page | None:
        """Who takes over a room whose host has gone: the page present holding the lowest seat (the same
        player may have it open in two tabs; every tab showing the token follows)."""
        heirs = [p for p in self.values() if p.seats and p.token is not None]
        return min(heirs, key=lambda p: min(p.seats), default=None)

    def slowest_seat(self) -> int | None:
        """The lowest seat of the player whose link the server allows most (None without players)."""
        slowest = max(self.players(), key=lambda p: p.link.allowance() if p.link.samples else -1, default=None)
        return None if slowest is None else min(slowest.seats)
