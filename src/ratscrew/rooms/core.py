"""One room, without I/O: its lobby, its seats and their tokens, the game at its table, and every page watching.

The room is a state machine driven from outside: a page connects (``open_page``), sends messages
(``receive``), drops (``close_page``); time passes (``tick`` at ``next_deadline``). What it wants sent comes
back from ``take_outgoing`` as (page id, message) pairs, and what must be kept goes to a :class:`Journal`.
The asyncio owner task (``runner.py``) feeds it from sockets on the event loop's clock; the tests feed it
on virtual time, with simulated delays, and never sleep.
"""

from __future__ import annotations

import logging
import secrets
import statistics
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Protocol

from ratscrew.bots.registry import PLAYABLE
from ratscrew.engine.actions import Millis
from ratscrew.engine.events import (
    CardTurned,
    Event,
    GameOver,
    PileWon,
    PlayerOut,
    SlapCorrect,
    SlapDismissed,
    WonBy,
    WrongSlap,
)
from ratscrew.engine.game import Game
from ratscrew.engine.view import view_for
from ratscrew.errors import RatscrewError
from ratscrew.record import Record, action_to_json
from ratscrew.rooms import wire
from ratscrew.rooms.fairness import (
    MIN_WINDOW_MS,
    Adjudication,
    LagEstimate,
    Quota,
    SeenLag,
    computer_sight,
    credit,
    decision_window,
    races,
)
from ratscrew.rules.io import rules_from_mapping, rules_to_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.table.clock import Clock, OffsetClock, PausableClock
from ratscrew.table.table import MATCH, RejectCode, SeatSpec, Table, TableConfig, TableEvent

log = logging.getLogger(__name__)

HISTORY = 500  # events kept for pages that reconnect
GRACE_MS = 15_000  # a dropped player keeps their seat this long before a computer holds it (if allowed)
HOST_GRACE_MS = 30_000  # a host gone this long from the lobby hands the room to the next seated player
STANDIN_LEVEL = "medium"
PROBE_EVERY_MS = 2_000  # how often each page is probed (its answers keep the socket alive, and are recorded)
SENT_CARDS_KEPT = 64  # the last cards each page was sent, with when: a slap names one of them
LATENCY_EVERY_MS = 5_000  # a latency message for a change of measured latency alone goes out at most this often


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class Out(StrEnum):
    """Every type of message the server sends (the closed set of ``wire.py``)."""

    WELCOME = "welcome"
    SEATED = "seated"
    LOBBY = "lobby"
    EVENTS = "events"
    STATE = "state"
    REJECTED = "rejected"
    ERROR = "error"
    OVER = "over"
    PONG = "pong"
    PROBE = "probe"
    LATENCY = "latency"


class Refusal(StrEnum):
    """Why the room refused a message (the table's own reasons are ``RejectCode``)."""

    NOT_HOST = "not_host"
    NOT_SEATED = "not_seated"
    SEAT_TAKEN = "seat_taken"
    NOT_READY = "not_ready"
    WRONG_PHASE = "wrong_phase"
    BAD_VALUE = "bad_value"
    PAUSED = "paused"  # the game is paused: nothing is played until it resumes
    NO_PAUSE = "no_pause"  # only a game against the computer (or two on one screen) can be paused


Message = dict[str, object]


class Journal(Protocol):
    """Where a room keeps what must survive a restart (the SQLite journal, or nothing in some tests)."""

    def room(self, code: str, doc: dict[str, object]) -> None: ...

    def actions(self, code: str, game_no: int, start: int, actions: list[object]) -> None: ...

    def finished(self, code: str, game_id: str, record: dict[str, object], summary: dict[str, object]) -> None: ...


class NoJournal:
    def room(self, code: str, doc: dict[str, object]) -> None:
        pass

    def actions(self, code: str, game_no: int, start: int, actions: list[object]) -> None:
        pass

    def finished(self, code: str, game_id: str, record: dict[str, object], summary: dict[str, object]) -> None:
        pass


@dataclass
class SeatInfo:
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    level: str | None = None
    ready: bool = False
    away_since: Millis | None = None
    standin: bool = False
    quota: Quota = field(default_factory=Quota)

    def to_doc(self) -> dict[str, object]:
        return {"kind": self.kind.value, "name": self.name, "level": self.level}


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
    probes: dict[int, Millis] = field(default_factory=dict)
    next_probe: Millis = 0

    def card_sent(self, number: int, at: Millis) -> None:
        # The oldest goes, never the smallest number (a rematch numbers its cards from 1 again).
        self.sent_cards[number] = at
        if len(self.sent_cards) > SENT_CARDS_KEPT:
            del self.sent_cards[next(iter(self.sent_cards))]


@dataclass(frozen=True, slots=True)
class RoomOptions:
    public: bool = False
    standins: bool = True  # a computer may hold a dropped player's seat until they come back
    bot_pace: float = 1.0
    pausable: bool = False  # a game against the computer (or two on one screen): its players may pause it


def new_token() -> str:
    return secrets.token_urlsafe(18)


class RoomCore:
    def __init__(
        self,
        code: str,
        clock: Clock,
        *,
        seats: Iterable[SeatInfo],
        rules: Rules,
        options: RoomOptions = RoomOptions(),
        journal: Journal | None = None,
        seed_source: Callable[[], int] = lambda: secrets.randbits(48),
    ) -> None:
        self.code = code
        self.clock = clock
        self.seats = list(seats)
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            raise RatscrewError(f"a room has {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(self.seats)}")
        self.rules = rules
        self.options = options
        self.journal: Journal = journal or NoJournal()
        self.seed_source = seed_source
        self.phase = Phase.LOBBY
        self.tokens: dict[str, frozenset[int]] = {}
        self.host_token = new_token()
        self.tokens[self.host_token] = frozenset()
        self.pages: dict[int, Page] = {}
        self.outgoing: list[tuple[int, Message]] = []
        self.seq = -1
        self.history: deque[Message] = deque(maxlen=HISTORY)
        self.game_no = 0
        self.game: Game | None = None
        self.table: Table | None = None
        self.game_clock: PausableClock | None = None
        self.paused = False  # the game's clock stands still (kept in the journal: a restart keeps the pause)
        self.seed = 0
        self.game_id = ""
        self.summary: dict[str, object] | None = None
        self.adjudications: list[Adjudication] = []
        self.reactions: dict[int, list[int]] = {}
        self._pending: list[TableEvent] = []
        self._journaled = 0
        self._lobby_dirty = False
        self._state_dirty = False
        self._latency_moved = False  # a latency to show, due LATENCY_EVERY_MS after the last lobby or latency message
        self._lobby_sent: Millis = -LATENCY_EVERY_MS
        self._rules_doc: tuple[Rules, dict[str, object]] | None = None
        self._host_away_since: Millis | None = None

    # ------------------------------------------------------------------ seats and tokens

    def issue_token(self, seats: Iterable[int]) -> str:
        token = new_token()
        self.tokens[token] = frozenset(seats)
        return token

    def seats_of(self, token: str | None) -> frozenset[int] | None:
        """The seats a token holds (the host's token may hold none); None for an unknown token."""
        if token is None:
            return None
        found = None
        for known, seats in self.tokens.items():
            if secrets.compare_digest(known, token):
                found = seats
        return found

    def is_host(self, page: Page) -> bool:
        return page.token is not None and secrets.compare_digest(page.token, self.host_token)

    # ------------------------------------------------------------------ pages coming and going

    def open_page(self, page_id: int) -> None:
        self.pages[page_id] = Page(page_id, next_probe=self.now())

    def close_page(self, page_id: int) -> None:
        page = self.pages.pop(page_id, None)
        if page is None:
            return
        now = self.now()
        for seat in page.seats:
            if not self._connected(seat):
                self.seats[seat].away_since = now
        if self._host_away_since is None and not any(self.is_host(p) for p in self.pages.values()):
            self._host_away_since = now
        self._lobby_dirty = True
        self._retime()

    def _connected(self, seat: int) -> bool:
        return any(seat in p.seats for p in self.pages.values())

    def _present(self) -> set[int]:
        """Every seat held by a connected page."""
        return {seat for page in self.pages.values() for seat in page.seats}

    # ------------------------------------------------------------------ time

    def now(self) -> Millis:
        return self.clock.now()

    def next_deadline(self) -> Millis | None:
        """The room clock's time when ``tick`` next has something to do."""
        times: list[Millis] = [p.next_probe for p in self.pages.values() if p.greeted]
        if self._latency_moved:
            times.append(self._lobby_sent + LATENCY_EVERY_MS)
        if self._host_away_since is not None and self.phase is Phase.LOBBY:
            handover = self._host_away_since + HOST_GRACE_MS
            if handover > self.now():  # once due, whoever comes next is handed the room (tick runs per message)
                times.append(handover)
        if self.table is not None and self.phase is Phase.PLAYING and not self.paused:
            due = self.table.next_deadline()
            if due is not None:
                times.append(due - self.table.clock.now() + self.now())
            if self.options.standins:
                times.extend(s.away_since + GRACE_MS for s in self.seats if s.away_since is not None and not s.standin)
        return min(times, default=None)

    def tick(self) -> None:
        now = self.now()
        for page in self.pages.values():
            if page.greeted and page.next_probe <= now:
                probe_id = now
                page.probes = {k: v for k, v in page.probes.items() if now - v < 30_000}
                page.probes[probe_id] = now
                page.next_probe = now + PROBE_EVERY_MS
                self._send(page.id, {"type": Out.PROBE, "id": probe_id})
        if self.table is not None and self.phase is Phase.PLAYING and not self.paused:
            self._standins(now)
            self.table.run_due()
        self._pass_host(now)
        self._flush()

    def _pass_host(self, now: Millis) -> None:
        """A lobby whose host has gone for good would wait for ever: the next seated player present takes it."""
        if self._host_away_since is None:
            return
        if any(self.is_host(p) for p in self.pages.values()):
            self._host_away_since = None  # back in time
            return
        if self.phase is not Phase.LOBBY or now - self._host_away_since < HOST_GRACE_MS:
            return
        # The lowest seat held by a page present (the same player may have it open in two tabs).
        heirs = [p for p in self.pages.values() if p.seats and p.token is not None]
        if not heirs:
            return
        heir = min(heirs, key=lambda p: min(p.seats))
        assert heir.token is not None
        log.info("room %s: the host left; seat %d is the host now", self.code, min(heir.seats) + 1)
        self.host_token = heir.token  # the old host's token still holds their seat, as a player's
        self._host_away_since = None
        for page in self.pages.values():
            if page.token == heir.token:
                self._send(page.id, self._welcome(page, None))  # says "host": true, with the room as it is
        self._lobby_changed()

    def _standins(self, now: Millis) -> None:
        assert self.table is not None
        present = self._present()  # once per tick: this runs at every deadline of the table
        for index, seat in enumerate(self.seats):
            if seat.kind is not SeatKind.HUMAN:
                continue
            connected = index in present
            if connected and seat.standin:
                seat.standin = False
                seat.away_since = None
                self.table.set_standin(index, None)
                self._lobby_dirty = True
            elif connected:
                seat.away_since = None
            elif (
                self.options.standins
                and seat.away_since is not None
                and not seat.standin
                and now - seat.away_since >= GRACE_MS
            ):
                seat.standin = True
                self.table.set_standin(index, STANDIN_LEVEL)
                self._lobby_dirty = True

    # ------------------------------------------------------------------ messages from pages

    def receive(self, page_id: int, msg: wire.ClientMessage) -> None:
        page = self.pages.get(page_id)
        if page is None:
            return
        if not page.greeted:
            if not isinstance(msg, wire.Hello):
                log.info("room %s: page %d sent %s before hello", self.code, page_id, type(msg).__name__)
                self._send(page_id, {"type": Out.ERROR, "message": 'the first message must be "hello"'})
                return
            self._hello(page, msg)
        elif isinstance(msg, wire.Hello):
            self._send(page_id, {"type": Out.ERROR, "message": "hello was already said on this connection"})
        elif isinstance(msg, wire.Ping):
            self._send(page_id, {"type": Out.PONG, "id": msg.id})
        elif isinstance(msg, wire.Echo):
            sent = page.probes.pop(msg.id, None)
            if sent is not None:
                page.echo.observe(self.now() - sent)  # kept for the record: a page may answer as late as it likes
        elif isinstance(msg, wire.Resync):
            self._resync(page, msg.since)
        elif isinstance(msg, wire.FlipMsg | wire.SlapMsg):
            self._play(page, msg)
        elif isinstance(msg, wire.Pause):
            self._pause(page, msg.paused)
        else:
            self._lobby_message(page, msg)
        self._flush()

    def link_measured(self, page_id: int, ping_ms: float | None, tcp_ms: float | None = None) -> None:
        """The server timed a page's connection itself: a websocket ping's round trip, and the kernel's."""
        page = self.pages.get(page_id)
        if page is None:
            return
        if tcp_ms is not None:
            page.tcp_ms = tcp_ms
        sample = ping_ms if ping_ms is not None else tcp_ms  # no pong came: the kernel's figure alone
        if sample is None:
            return
        before = page.link.shown_ms
        page.link.observe(sample)
        self._retime()
        after = page.link.shown_ms
        if page.seats and (before is None or after is None or abs(after - before) >= 5):
            # Not at once: every page's latency moves every few seconds, more so under load, and a message
            # to every page each time outnumbered the game's own events many times over.
            self._latency_moved = True
        self._flush()

    def _players(self) -> list[Page]:
        return [p for p in self.pages.values() if p.seats]

    def window(self) -> int:
        """The decision window: enough for the slowest connected player's measured lag, within the cap. Where
        one player's links alone count (a game against the computer, two on one screen, one person's tabs),
        nobody's slap races another link: the window stays at its least and the computers wait instead."""
        players = self._players()
        if len({p.token for p in players}) < 2:
            return MIN_WINDOW_MS
        return decision_window(p.link.allowance() for p in players if p.link.samples)

    def sight(self, window: int) -> int:
        """How long after a card lands the computers see it (``fairness.computer_sight``)."""
        return computer_sight(window, (p.seen.ms(p.link) for p in self._players() if p.link.samples))

    def waits_for(self) -> int | None:
        """The seat whose slow link holds the table back beyond the least window, for pages to say so."""
        if self.table is None or self.phase is not Phase.PLAYING or self.table.hold_ms <= MIN_WINDOW_MS:
            return None
        slowest = max(self._players(), key=lambda p: p.link.allowance() if p.link.samples else -1, default=None)
        return None if slowest is None else min(slowest.seats)

    def _retime(self) -> None:
        """The table's hold and its computers' sight follow what was measured."""
        if self.table is not None and self.phase is Phase.PLAYING:
            self.table.hold_ms = self.window()
            self.table.sight_ms = self.sight(self.table.hold_ms)

    def _hello(self, page: Page, msg: wire.Hello) -> None:
        seats = self.seats_of(msg.token)
        if msg.token is not None and seats is None:
            self._send(page.id, {"type": Out.ERROR, "message": "that seat token is not valid here: watching only"})
        page.greeted = True
        if seats is not None:
            page.token = msg.token
            page.seats = seats
            for seat in seats:
                self.seats[seat].away_since = None
            self._lobby_dirty = True
            self._retime()
        missed = self._missed(msg.since) if msg.since >= 0 else []
        self._send(page.id, self._welcome(page, None if missed is None or msg.since < 0 else len(missed)))
        if missed:
            self._send(page.id, {"type": Out.EVENTS, "items": missed, "state": self.state()})
        if self.table is not None and self.game is not None and self.game.cards:
            # The welcome shows the top card: a slap on it is timed from now, like any card this page is sent.
            page.card_sent(self.game.cards, self.table.clock.now())

    def _resync(self, page: Page, since: int) -> None:
        missed = self._missed(since)
        if missed is None:
            self._send(page.id, self.snapshot())
        else:
            self._send(page.id, {"type": Out.EVENTS, "items": missed, "state": self.state()})

    def _missed(self, since: int) -> list[Message] | None:
        """The events after ``since``; None when they are no longer kept, or ``since`` is from before a
        restart (numbering starts again): the page needs the whole state instead."""
        oldest = int(str(self.history[0]["seq"])) if self.history else self.seq + 1
        if since + 1 < oldest or since > self.seq:
            return None
        return [item for item in self.history if int(str(item["seq"])) > since]

    def _refuse(self, page: Page, code: StrEnum, reason: str, seat: int | None = None) -> None:
        log.info("room %s: page %d refused (%s): %s", self.code, page.id, code, reason)
        self._send(page.id, _rejection(code, reason, seat))

    def _play(self, page: Page, msg: wire.FlipMsg | wire.SlapMsg) -> None:
        table = self.table
        if table is None or self.phase is not Phase.PLAYING:
            self._refuse(page, Refusal.WRONG_PHASE, "no game is being played in this room")
            return
        if msg.seat not in page.seats or msg.seat >= len(self.seats):
            self._refuse(page, RejectCode.NOT_YOURS, f"seat {msg.seat} is not yours", msg.seat)
            return
        if self.paused:
            self._refuse(page, Refusal.PAUSED, "the game is paused: resume it to play on", msg.seat)
            return
        if isinstance(msg, wire.FlipMsg):
            result = table.flip(msg.seat)
        else:
            received = table.clock.now()
            seat = self.seats[msg.seat]
            judged = credit(
                received=received,
                sent=page.sent_cards.get(msg.card) if msg.card is not None else None,
                reaction=msg.rt,
                lag=page.link,
                quota=seat.quota,
                window=table.hold_ms,
            )
            result = table.slap(msg.seat, card=msg.card, landed=judged.landed)
            if result is None:
                self.adjudications.append(
                    Adjudication(msg.seat, msg.card, judged, echo_rtt=page.echo.rounded, tcp_rtt=_rounded(page.tcp_ms))
                )
                page.seen.add(judged, page.link.allowance())
                table.sight_ms = self.sight(table.hold_ms)
        if result is not None:
            self._refuse(page, result.code, result.reason, result.seat)

    def _pause(self, page: Page, paused: bool) -> None:
        """Stop or restart the game's clock: the table then does nothing at all, and resumes exactly."""
        if not self.options.pausable:
            self._refuse(page, Refusal.NO_PAUSE, "only a game against the computer can be paused")
            return
        if self.phase is not Phase.PLAYING or self.game_clock is None:
            self._refuse(page, Refusal.WRONG_PHASE, "no game is being played in this room")
            return
        if not page.seats:
            self._refuse(page, Refusal.NOT_SEATED, "only the players can pause their game")
            return
        self.set_paused(paused)

    def set_paused(self, paused: bool) -> None:
        if self.game_clock is None or paused == self.paused:
            return
        self.paused = paused
        if paused:
            self.game_clock.pause()
        else:
            self.game_clock.resume()
        self._state_dirty = True  # every page shows the table stopped, or going again
        self.journal.room(self.code, self.to_doc())

    # ------------------------------------------------------------------ the lobby

    def _lobby_message(self, page: Page, msg: wire.ClientMessage) -> None:
        if isinstance(msg, wire.Rematch):
            self._rematch(page)
            return
        if self.phase is not Phase.LOBBY:
            self._refuse(page, Refusal.WRONG_PHASE, "the seats and rules can only change in the lobby")
            return
        if isinstance(msg, wire.Sit):
            self._sit(page, msg)
        elif isinstance(msg, wire.Stand):
            if not page.seats:
                self._refuse(page, Refusal.NOT_SEATED, "you hold no seat to leave")
                return
            for seat in page.seats:
                self.seats[seat] = SeatInfo()
            self._retoken(page, frozenset())
        elif isinstance(msg, wire.Ready):
            if not page.seats:
                self._refuse(page, Refusal.NOT_SEATED, "take a seat first")
                return
            for seat in page.seats:
                self.seats[seat].ready = msg.ready
        elif not self.is_host(page):
            self._refuse(page, Refusal.NOT_HOST, "only the host changes the seats and the rules")
            return
        elif isinstance(msg, wire.SetSeats):
            self._resize(page, msg.count)
        elif isinstance(msg, wire.SetBot):
            self._set_bot(page, msg)
        elif isinstance(msg, wire.SetRules):
            try:
                self.rules = rules_from_mapping(msg.rules, where="rules")
                self.rules.deck_for(len(self.seats))
            except RatscrewError as exc:
                self._refuse(page, Refusal.BAD_VALUE, str(exc))
                return
            for info in self.seats:
                info.ready = info.kind is SeatKind.BOT  # new rules need every person's agreement again
        elif isinstance(msg, wire.SetVisibility):
            self.options = replace(self.options, public=msg.public)
        elif isinstance(msg, wire.Start):
            self._start(page)
            return
        self._lobby_changed()

    def _sit(self, page: Page, msg: wire.Sit) -> None:
        if not 0 <= msg.seat < len(self.seats) or self.seats[msg.seat].kind is not SeatKind.EMPTY:
            self._refuse(page, Refusal.SEAT_TAKEN, f"seat {msg.seat + 1} is not free", msg.seat)
            return
        for seat in page.seats:  # one page, one seat in an online room: moving frees the old one
            self.seats[seat] = SeatInfo()
        self.seats[msg.seat] = SeatInfo(SeatKind.HUMAN, msg.name or f"Player {msg.seat + 1}")
        self._retoken(page, frozenset({msg.seat}))

    def _retoken(self, page: Page, seats: frozenset[int]) -> None:
        old = page.token
        token: str | None
        if old is not None and self.is_host(page):
            self.tokens[self.host_token] = seats
            token = self.host_token
        else:
            if old is not None:
                self.tokens.pop(old, None)
            # A page that stood up watches: it needs no token, and none is kept for it.
            token = self.issue_token(seats) if seats else None
        # Every page that showed the old token (the same player in another tab) follows: none keeps a seat
        # that was freed, and may since be someone else's.
        for other in self.pages.values():
            if other is page or (old is not None and other.token == old):
                other.token = token
                other.seats = seats
                self._send(other.id, {"type": Out.SEATED, "seats": sorted(seats), "token": token})

    def _resize(self, page: Page, count: int) -> None:
        try:
            self.rules.deck_for(count)
        except RatscrewError as exc:
            self._refuse(page, Refusal.BAD_VALUE, str(exc))
            return
        if count < len(self.seats):
            dropped = [s for s in range(count, len(self.seats)) if self.seats[s].kind is SeatKind.HUMAN]
            if dropped:
                self._refuse(page, Refusal.SEAT_TAKEN, f"seat {dropped[0] + 1} is taken: ask them to move first")
                return
            del self.seats[count:]
        else:
            self.seats.extend(SeatInfo() for _ in range(count - len(self.seats)))

    def _set_bot(self, page: Page, msg: wire.SetBot) -> None:
        if not 0 <= msg.seat < len(self.seats) or self.seats[msg.seat].kind is SeatKind.HUMAN:
            self._refuse(page, Refusal.SEAT_TAKEN, f"seat {msg.seat + 1} is not free", msg.seat)
            return
        if msg.level is None:
            self.seats[msg.seat] = SeatInfo()
            return
        if msg.level not in PLAYABLE:
            choices = ", ".join(PLAYABLE)
            self._refuse(page, Refusal.BAD_VALUE, f"unknown level {msg.level[:20]!r}: expected one of {choices}")
            return
        self.seats[msg.seat] = SeatInfo(SeatKind.BOT, msg.name or f"Computer {msg.seat + 1}", msg.level, ready=True)

    def _start(self, page: Page) -> None:
        empty = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.EMPTY]
        waiting = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN and not s.ready]
        if empty:
            self._refuse(
                page, Refusal.NOT_READY, f"seat {empty[0] + 1} is empty: someone must sit there, or a computer"
            )
        elif waiting:
            self._refuse(page, Refusal.NOT_READY, f"{self.seats[waiting[0]].name} has not pressed ready")
        else:
            self.start_game()

    def _rematch(self, page: Page) -> None:
        if self.phase is not Phase.OVER or not page.seats:
            self._refuse(page, Refusal.WRONG_PHASE, "a rematch can start once the game is over, by a player")
            return
        self.phase = Phase.LOBBY
        for seat in self.seats:
            seat.ready = seat.kind is SeatKind.BOT
            seat.standin = False
            seat.away_since = None
        self._lobby_changed()

    def _lobby_changed(self) -> None:
        self._lobby_dirty = True
        self.journal.room(self.code, self.to_doc())

    # ------------------------------------------------------------------ the game

    def seat_specs(self) -> list[SeatSpec]:
        people = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN]
        specs = []
        for seat in self.seats:
            if seat.kind is SeatKind.BOT:
                match_seat = people[0] if seat.level == MATCH and people else None
                specs.append(SeatSpec(seat.name, seat.level, match_seat))
            else:
                specs.append(SeatSpec(seat.name))
        return specs

    def start_game(self, *, seed: int | None = None) -> None:
        self.seed = self.seed_source() if seed is None else seed
        self.game_no += 1
        self.game_id = game_id(self.code, self.game_no)
        game = Game.from_seed(self.rules, len(self.seats), self.seed)
        self.summary = None
        self.paused = False
        self._attach(game)
        self.phase = Phase.PLAYING
        self._lobby_changed()
        self._state_dirty = True  # every page needs the table as dealt

    def _attach(self, game: Game) -> None:
        self.game = game
        clock = self.game_clock = PausableClock(OffsetClock(self.clock, game.now))
        if self.paused:
            clock.pause()  # a paused game resumed from the journal stays paused
        hold = self.window()
        self.table = Table(
            game,
            self.seat_specs(),
            clock,
            seed=self.seed ^ len(game.actions),
            config=TableConfig(hold_ms=hold, bot_pace=self.options.bot_pace, sight_ms=self.sight(hold)),
            reactions=self.reactions,
        )
        for page in self.pages.values():
            page.sent_cards.clear()  # this game numbers its cards from 1 again
        self.table.listeners.append(self._pending.append)
        self.adjudications = []
        self._journaled = len(game.actions)

    def resume_game(self, game_no: int, seed: int, actions: list[object]) -> None:
        """Rebuild the game from its journal after a restart: the deal again, then every applied action."""
        from ratscrew.record import action_from_json

        self.game_no = game_no
        self.seed = seed
        self.game_id = game_id(self.code, game_no)
        game = Game.from_seed(self.rules, len(self.seats), seed)
        replayed: list[tuple[int, Event]] = []
        for index, raw in enumerate(actions):
            action = action_from_json(raw, index)
            replayed.extend((game.now if action.t is None else action.t, e) for e in game.apply(action))
        self._attach(game)
        # The table's log is what summaries count from: give it the events of the replay.
        assert self.table is not None
        self.table.log.extend(TableEvent(i, t, e) for i, (t, e) in enumerate(replayed))
        self.phase = Phase.PLAYING if not game.over else Phase.OVER
        if game.over and self.summary is None:
            self.summary = self.build_summary()

    def _flush(self) -> None:
        if self.table is not None and self.table.dropped:
            for dropped in self.table.dropped:
                for page in self.pages.values():
                    if dropped.seat in page.seats:
                        self._send(page.id, _rejection(dropped.code, dropped.reason, dropped.seat))
            self.table.dropped.clear()
        if self._pending:
            assert self.table is not None and self.game is not None
            now = self.table.clock.now()
            items: list[Message] = []
            for published in self._pending:
                self.seq += 1
                event = published.event
                self._judge(published)
                item: Message = {
                    "seq": self.seq,
                    "game": self.game_no,
                    "t": published.t,
                    "event": public(event, self.game),
                }
                items.append(item)
                self.history.append(item)
                if isinstance(event, CardTurned):
                    for page in self.pages.values():
                        page.card_sent(event.number, now)
                    self._refill_quotas()
            self._pending.clear()
            message: Message = {"type": Out.EVENTS, "items": items, "state": self.state()}
            for page in self.pages.values():
                if page.greeted:
                    self.outgoing.append((page.id, message))
            self._journal_actions()
            if self.game.over and self.phase is Phase.PLAYING:
                self._finish()
        if self._state_dirty:
            self._state_dirty = False
            for page in self.pages.values():
                if page.greeted:
                    self.outgoing.append((page.id, self.snapshot()))
        update: Message | None = None
        if self._lobby_dirty:
            update = {"type": Out.LOBBY, "room": self.lobby()}
        elif self._latency_moved and self.now() >= self._lobby_sent + LATENCY_EVERY_MS:
            # Only the delays moved: a few bytes, not the whole room with its rules.
            update = {
                "type": Out.LATENCY,
                "seats": self.latencies(),
                "window_ms": self._window_shown(),
                "waits_for": self.waits_for(),
            }
        if update is not None:
            self._lobby_dirty = self._latency_moved = False
            self._lobby_sent = self.now()
            for page in self.pages.values():
                if page.greeted:
                    self.outgoing.append((page.id, update))

    def _refill_quotas(self) -> None:
        # By what the server allows each seat's link: a slow player who slaps every card never runs dry.
        allowed = [0] * len(self.seats)
        for page in self.pages.values():
            if page.link.samples:
                for seat in page.seats:
                    if seat < len(allowed):
                        allowed[seat] = max(allowed[seat], page.link.allowance())
        for info, ms in zip(self.seats, allowed, strict=True):
            info.quota.refill(ms)

    def _judge(self, published: TableEvent) -> None:
        """Attach each slap's verdict to the figures that timed it."""
        event = published.event
        if not isinstance(event, SlapCorrect | WrongSlap | SlapDismissed):
            return
        for adjudication in self.adjudications:
            fits = adjudication.seat == event.seat and adjudication.credit.landed <= published.t
            if adjudication.verdict is None and fits:
                adjudication.verdict = event.kind.value
                return

    def _journal_actions(self) -> None:
        assert self.game is not None
        actions = self.game.actions
        if len(actions) > self._journaled:
            docs = [action_to_json(a) for a in actions[self._journaled :]]
            self.journal.actions(self.code, self.game_no, self._journaled, docs)
            self._journaled = len(actions)

    def _finish(self) -> None:
        assert self.table is not None
        self.phase = Phase.OVER
        self.summary = self.build_summary()
        for seat, times in self.table.reactions.items():
            if self.seats[seat].kind is SeatKind.HUMAN:
                self.reactions[seat] = times[-50:]
        self.journal.finished(self.code, self.game_id, self.record().to_json(), self.summary)
        self.journal.room(self.code, self.to_doc())
        for page in self.pages.values():
            if page.greeted:
                self.outgoing.append((page.id, {"type": Out.OVER, "summary": self.summary}))
        self._lobby_dirty = True

    def record(self) -> Record:
        assert self.game is not None
        names = tuple(s.name for s in self.seats)
        extra: dict[str, object] = {"adjudications": [a.to_dict() for a in self.adjudications]}
        return Record(
            self.rules, len(names), seed=self.seed, players=names, actions=tuple(self.game.actions), extra=extra
        )

    def build_summary(self) -> dict[str, object]:
        game, table = self.game, self.table
        assert game is not None and table is not None and game.outcome is not None
        outcome = game.outcome
        n = game.players
        wrong = [0] * n
        by_slap = [0] * n
        by_challenge = [0] * n
        out_order: list[int] = []
        for item in table.log:
            event = item.event
            if isinstance(event, WrongSlap):
                wrong[event.seat] += 1
            elif isinstance(event, PileWon):
                for seat, _count in event.shares:
                    (by_slap if event.how is WonBy.SLAP else by_challenge)[seat] += 1
            elif isinstance(event, PlayerOut):
                out_order.append(event.seat)
        end_t = next((e.t for e in reversed(table.log) if isinstance(e.event, GameOver)), game.now)
        players = []
        for seat in range(n):
            times = table.reactions[seat]
            info = self.seats[seat]
            players.append(
                {
                    "seat": seat,
                    "name": info.name,
                    "bot": info.level if info.kind is SeatKind.BOT else None,
                    "cards": len(game.stacks[seat]),
                    "piles_by_slap": by_slap[seat],
                    "piles_by_challenge": by_challenge[seat],
                    "wrong_slaps": wrong[seat],
                    "reaction_ms": times,
                    "median_reaction_ms": statistics.median(times) if times else None,
                }
            )
        return {
            "game": self.game_id,
            "result": outcome.result.value,
            "winner": outcome.winner,
            "reason": outcome.reason,
            "how": outcome.how.value if outcome.how else None,
            "cards": game.cards,
            "tricks": game.tricks,
            "ms": end_t,
            "players": players,
            "out_order": out_order,
            "races": races(self.adjudications),
        }

    # ------------------------------------------------------------------ what pages see

    def state(self) -> Message:
        if self.game is None or self.table is None:
            return {}
        view = view_for(self.game).as_dict()
        view["now"] = self.table.clock.now()
        view["collect_delay_ms"] = self.rules.slapping.collect_delay_ms
        view["hold_ms"] = self.table.hold_ms
        view["paused"] = self.paused
        return view

    def latencies(self) -> list[int | None]:
        """Each seat's measured one-way delay (its best connected page's), None where nothing is measured."""
        shown: list[int | None] = [None] * len(self.seats)
        for page in self.pages.values():
            ms = page.link.shown_ms
            if ms is None:
                continue
            for seat in page.seats:
                if seat < len(shown):
                    known = shown[seat]
                    shown[seat] = ms if known is None else min(known, ms)
        return shown

    def _window_shown(self) -> int | None:
        return self.table.hold_ms if self.table is not None and self.phase is Phase.PLAYING else None

    def lobby(self) -> Message:
        seats = []
        latencies = self.latencies()
        for index, seat in enumerate(self.seats):
            seats.append(
                {
                    "kind": seat.kind.value,
                    "name": seat.name,
                    "level": seat.level,
                    "ready": seat.ready,
                    "connected": seat.kind is SeatKind.BOT or self._connected(index),
                    "latency_ms": latencies[index],
                    "standin": seat.standin,
                }
            )
        return {
            "code": self.code,
            "phase": self.phase.value,
            "public": self.options.public,
            "standins": self.options.standins,
            "pausable": self.options.pausable,
            "seats": seats,
            "rules": self.rules_doc(),
            "preset": self.rules.preset,
            "game": self.game_id or None,
            "window_ms": self._window_shown(),
            "waits_for": self.waits_for(),  # a seat whose slow link makes the table wait longer, or None
        }

    def rules_doc(self) -> dict[str, object]:
        """The rules as pages see them, worked out once for each set of rules (every lobby, welcome and whole
        state holds them)."""
        if self._rules_doc is None or self._rules_doc[0] is not self.rules:
            self._rules_doc = (self.rules, rules_to_mapping(self.rules, full=True))
        return self._rules_doc[1]

    def _welcome(self, page: Page, missed: int | None) -> Message:
        return {
            "type": Out.WELCOME,
            "v": wire.VERSION,
            "room": self.lobby(),
            "yours": sorted(page.seats),
            "host": self.is_host(page),
            "seq": self.seq,
            "missed": missed,
            "state": self.state(),
            "summary": self.summary,
        }

    def _send(self, page_id: int, message: Message) -> None:
        self.outgoing.append((page_id, message))

    def snapshot(self) -> Message:
        """The whole state, for a page that fell too far behind (or a table just dealt): it replaces everything."""
        return {"type": Out.STATE, "seq": self.seq, "state": self.state(), "room": self.lobby()}

    def take_outgoing(self) -> list[tuple[int, Message]]:
        out, self.outgoing = self.outgoing, []
        return out

    # ------------------------------------------------------------------ keeping

    def to_doc(self) -> dict[str, object]:
        """What the journal keeps of the room (the game itself is its seed plus its actions)."""
        return {
            "code": self.code,
            "phase": self.phase.value,
            "seats": [s.to_doc() for s in self.seats],
            "ready": [s.ready for s in self.seats],
            "rules": rules_to_mapping(self.rules, full=True),
            "public": self.options.public,
            "standins": self.options.standins,
            "bot_pace": self.options.bot_pace,
            "pausable": self.options.pausable,
            "paused": self.paused,
            "host_token": self.host_token,
            "tokens": {t: sorted(s) for t, s in self.tokens.items()},
            "game_no": self.game_no,
            "seed": self.seed,
            "reactions": {str(k): v for k, v in self.reactions.items()},
            "summary": self.summary,
        }

    @staticmethod
    def from_doc(doc: dict[str, object], clock: Clock, journal: Journal | None = None) -> RoomCore:
        seats_doc = doc["seats"]
        ready = doc.get("ready", [])
        assert isinstance(seats_doc, list) and isinstance(ready, list)
        seats = []
        for i, item in enumerate(seats_doc):
            seats.append(
                SeatInfo(
                    SeatKind(item["kind"]),
                    str(item["name"]),
                    item.get("level"),
                    bool(ready[i]) if i < len(ready) else False,
                )
            )
        options = RoomOptions(
            bool(doc.get("public")),
            bool(doc.get("standins", True)),
            float(str(doc.get("bot_pace", 1.0))),
            bool(doc.get("pausable", False)),
        )
        room = RoomCore(
            str(doc["code"]),
            clock,
            seats=seats,
            rules=rules_from_mapping(doc["rules"]),
            options=options,
            journal=journal,
        )
        room.host_token = str(doc["host_token"])
        tokens = doc["tokens"]
        assert isinstance(tokens, dict)
        room.tokens = {str(t): frozenset(int(s) for s in seats) for t, seats in tokens.items()}
        reactions = doc.get("reactions", {})
        assert isinstance(reactions, dict)
        room.reactions = {int(k): [int(x) for x in v] for k, v in reactions.items()}
        room.game_no = int(str(doc.get("game_no", 0)))
        room.seed = int(str(doc.get("seed", 0)))
        room.paused = bool(doc.get("paused", False))
        summary = doc.get("summary")
        room.summary = summary if isinstance(summary, dict) else None
        return room


def _rounded(ms: float | None) -> int | None:
    return None if ms is None else round(ms)


def _rejection(code: StrEnum, reason: str, seat: int | None) -> Message:
    return {"type": Out.REJECTED, "code": code.value, "reason": reason, "seat": seat}


def game_id(code: str, game_no: int) -> str:
    """The first game of a room is known by the room's code; rematches add their number."""
    return code if game_no == 1 else f"{code}-{game_no}"


def public(event: Event, game: Game) -> dict[str, object]:
    """An event as everyone at the table may see it: cards that lie face down are not named."""
    doc = event.to_dict()
    if isinstance(event, WrongSlap):
        if not game.rules.slaps.burned_count:
            doc["burned"] = [None] * len(event.burned)
        doc["given"] = [[seat, None] for seat, _card in event.given]
    elif isinstance(event, PileWon):
        doc["cards"] = [None] * len(event.cards)
    return doc
