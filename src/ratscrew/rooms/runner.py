"""Rooms on the event loop: one owner task per room, and the directory of every room on this server.

Each room's task waits for the next thing in its inbox (a page opening, a message, a page closing) or the
room's next deadline, hands it to the room's core, and hands what the core wants sent to its delivery
(``delivery.py``), which puts it into each page's outbox once the journal holds what made it. A room whose
messages wait ``STALL_MS`` for a journal that fails stops: its pages are told why and closed, and it is not
loaded again until its writes are in the file. Nothing else touches a room.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ratscrew.errors import NotFound, TooMany, Unavailable
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.delivery import STALL_MS, Delivery, shut
from ratscrew.rooms.delivery import PageLink as PageLink  # where the socket handlers have always found it
from ratscrew.rooms.document import GAME_WAITS, NO_NEW_GAME
from ratscrew.rooms.fairness import Adjudication
from ratscrew.rooms.journal import SavedRoom, SqliteJournal
from ratscrew.rooms.matched import Match
from ratscrew.rooms.seating import RoomOptions, SeatInfo
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules.model import Rules
from ratscrew.shapes import Shape
from ratscrew.table.clock import Alarm, AlarmClock, Clock, LoopClock

log = logging.getLogger(__name__)

IDLE_UNLOAD_S = 120.0  # a room nobody watches is taken out of memory (its journal keeps it) after this
MAX_ROOMS = 2000
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud across a table
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True, slots=True)
class LinkSample:
    """What the server timed of a page's connection: a websocket ping's round trip (None: no pong came in
    time) and the kernel's smoothed round trip of the TCP connection (None where it cannot be read)."""

    ping_ms: float | None
    tcp_ms: float | None


# What a room's inbox holds: each thing its owner task is told, in the order it happened.


@dataclass(frozen=True, slots=True)
class Opened:
    """A page's socket opened."""

    link: PageLink


@dataclass(frozen=True, slots=True)
class Received:
    """A message from a page, already read and checked (``wire.parse_client``)."""

    link: PageLink
    message: wire.ClientMessage


@dataclass(frozen=True, slots=True)
class Measured:
    """The server timed a page's link."""

    link: PageLink
    sample: LinkSample


@dataclass(frozen=True, slots=True)
class Closed:
    """A page's socket closed."""

    link: PageLink


@dataclass(frozen=True, slots=True)
class Due:
    """The room's timer fired: its next deadline has come (or it may unload)."""


@dataclass(frozen=True, slots=True)
class Stop:
    """The server is stopping: the task ends once it has handled what came before."""


@dataclass(frozen=True, slots=True)
class RatedIn:
    """The room's rated game was recorded: what it did to each player's rating, for every page."""

    changes: tuple[wire.RatingChange, ...]


Item = Opened | Received | Measured | Closed | Due | Stop | RatedIn
VerdictSeen = Callable[[int, int], None]  # (ms from a slap's arrival to its verdict, the room's decision window)
GameOver = Callable[["RoomRunner"], None]  # a room's game is over (once per game and per time it is loaded)
_VERDICT_WAIT_MS = 10_000  # a slap with no verdict after this long is no longer watched for one


@dataclass(frozen=True, slots=True)
class _Awaited:
    """A slap waiting for its verdict, with the clock its arrival was read from: its game's, which starts with
    the game (or, for a game restored after a restart, at the time of its last action), never the worker's.
    A pause in between is not counted: the game's clock stands still, and so does its table."""

    slap: Adjudication
    clock: Clock
    window: int  # the decision window it was credited in


@dataclass(frozen=True, slots=True)
class OpenRoom(Shape):
    """A public room still in its lobby, as the open lobby lists it."""

    code: str
    seats: int
    free: int  # seats nobody holds yet
    host: str  # the host's name
    preset: str


class RoomRunner:
    """The owner task of one room. Its core runs on the server's clock, which also wakes the task at the
    core's next deadline (or to unload the room once nobody watches)."""

    def __init__(
        self,
        core: RoomCore,
        clock: AlarmClock,
        idle_unload_s: float = IDLE_UNLOAD_S,
        journal: SqliteJournal | None = None,
        on_verdict: VerdictSeen | None = None,
        on_over: GameOver | None = None,
    ) -> None:
        self.core = core
        self.clock = clock
        self.idle_unload_ms = round(idle_unload_s * 1000)
        self.journal = journal
        self.links: dict[int, PageLink] = {}
        self.delivery = Delivery(core, self.links, journal, clock)
        self.inbox: asyncio.Queue[Item] = asyncio.Queue()
        self.idle_since: int | None = clock.now()
        self._timer: Alarm | None = None
        self._timer_at: int | None = None
        self._tick_queued = False
        self._on_verdict = on_verdict
        self._on_over = on_over
        self._over_told = 0  # the last game whose end was told to ``on_over``
        self._slaps_seen: tuple[list[Adjudication], int] = ([], 0)  # the game's adjudications, how many were looked at
        self._awaiting: list[_Awaited] = []  # slaps taken, verdict not yet published
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"room {core.code}")

    @property
    def code(self) -> str:
        return self.core.code

    @property
    def closed(self) -> bool:
        return self._task.done()

    @property
    def ticket(self) -> int:
        """The journal's ticket of the room's last write."""
        return self.delivery.ticket

    # ------------------------------------------------------------------ called from socket handlers

    def open(self, link: PageLink) -> None:
        self.inbox.put_nowait(Opened(link))

    def submit(self, link: PageLink, msg: wire.ClientMessage) -> None:
        self.inbox.put_nowait(Received(link, msg))

    def measured(self, link: PageLink, sample: LinkSample) -> None:
        self.inbox.put_nowait(Measured(link, sample))

    def close_link(self, link: PageLink) -> None:
        self.inbox.put_nowait(Closed(link))

    def rated(self, changes: tuple[wire.RatingChange, ...]) -> None:
        self.inbox.put_nowait(RatedIn(changes))

    async def kept(self) -> None:
        """Wait until everything the room wrote so far is committed (before telling a page it exists), or
        raise Unavailable if that does not come within ``STALL_MS``."""
        journal = self.journal
        if journal is None or self.ticket <= journal.committed:
            return
        done = asyncio.Event()
        journal.after(self.ticket, done.set)
        try:
            await asyncio.wait_for(done.wait(), STALL_MS / 1000)
        except TimeoutError:
            raise Unavailable(NO_NEW_GAME) from None

    async def stop(self) -> None:
        self.inbox.put_nowait(Stop())
        await asyncio.gather(self._task, return_exceptions=True)
        for link in list(self.links.values()):
            shut(link)

    # ------------------------------------------------------------------ the owner task

    async def _run(self) -> None:
        core = self.core
        inbox = self.inbox
        self._guarded(self._tell_over)  # a room loaded over, or whose game ended as it was rebuilt
        while True:
            if not self._arm():
                self._disarm()
                return  # nobody watches: the journal keeps the room; it is loaded again when someone comes
            item = await inbox.get()
            # From here to the delivery is one synchronous step: every write queued meanwhile is this room's.
            mark = self.delivery.mark()
            # Take everything that arrived meanwhile before the room's clock moves on and before anything is
            # sent: under load one pass serves many messages (in the order they came) with one delivery.
            while True:
                if isinstance(item, Stop):
                    self._disarm()
                    return
                self._guarded(self._handle, item)
                if inbox.empty():
                    break
                item = inbox.get_nowait()
            self._guarded(core.tick)
            if self._on_verdict is not None:
                self._guarded(self._watch_verdicts)
            self._guarded(self.delivery.step_done, mark)
            self._guarded(self._tell_over)

    def _guarded(self, step: Callable[..., None], *args: object) -> None:
        """A bug met by one message must not end the room for everyone in it: it is logged, the room goes on."""
        try:
            step(*args)
        except Exception:
            log.exception("room %s: an error while handling %s", self.code, args[0] if args else step.__name__)

    def _handle(self, item: Item) -> None:
        core = self.core
        match item:
            case Due():
                self._tick_queued = False
            case Opened(link):
                self.links[link.id] = link
                core.open_page(link.id)
                self.idle_since = None
            case Measured(link, sample):
                core.link_measured(link.id, sample.ping_ms, sample.tcp_ms)
            case Received(link, message):
                core.receive(link.id, message)
            case Closed(link):
                self.links.pop(link.id, None)
                core.close_page(link.id)
                if not self.links:
                    self.idle_since = self.clock.now()
            case RatedIn(changes):
                core.set_rated(changes)
            case Stop():
                pass  # the owner task ends before it hands one on

    def _tell_over(self) -> None:
        """Tell ``on_over`` of a game that is over, once (after its messages went to the delivery)."""
        core = self.core
        if self._on_over is not None and core.phase is Phase.OVER and core.game_no != self._over_told:
            self._over_told = core.game_no
            self._on_over(self)

    def _watch_verdicts(self) -> None:
        """Report each slap's time from arrival to published verdict (for the operator's metrics), and the
        decision window it was judged in."""
        assert self._on_verdict is not None
        taken = self.core.adjudications
        seen, count = self._slaps_seen
        if seen is not taken:
            count = 0  # a new game: a new list
        table = self.core.table
        if len(taken) > count and table is not None:
            # Seen in the step that took them, so the table's clock and window are the ones that timed them.
            self._awaiting.extend(_Awaited(slap, table.clock, table.hold_ms) for slap in taken[count:])
        self._slaps_seen = (taken, len(taken))
        waiting = []
        for awaited in self._awaiting:
            waited = awaited.clock.now() - awaited.slap.credit.received
            if awaited.slap.verdict is not None:
                self._on_verdict(waited, awaited.window)
            elif waited < _VERDICT_WAIT_MS:
                waiting.append(awaited)
        self._awaiting = waiting

    def _arm(self) -> bool:
        """Set the one timer that wakes the room at its next deadline (or to unload it when idle); False
        when the room should unload now. One reusable timer, not a task and a timer for every wait."""
        # The core runs on this same clock, so its deadline is a time of the clock: the timer is set again only
        # when the deadline moved.
        at = self.core.next_deadline()
        if self.delivery.stalled():
            self.delivery.stop(GAME_WAITS)
            return False
        check_at = self.delivery.check_at()
        if check_at is not None:
            at = check_at if at is None else min(at, check_at)
        if self.idle_since is not None and not self.core.keep_loaded:
            idle_at = self.idle_since + self.idle_unload_ms
            if idle_at <= self.clock.now():
                return False
            at = idle_at if at is None else min(at, idle_at)
        if at != self._timer_at:
            self._disarm()
            if at is not None:
                self._timer = self.clock.call_at(at, self._wake)
                self._timer_at = at
        return True

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_at = None, None

    def _wake(self) -> None:
        self._timer, self._timer_at = None, None
        if not self._tick_queued:
            self._tick_queued = True
            self.inbox.put_nowait(Due())


class Rooms:
    """Every room on this server by code: creates, finds, reloads from the journal, and enforces the caps.

    Every room and socket runs on one clock (``clock``): the event loop's unless one is given. What each client
    address may do (rooms created, codes asked for, sockets open) is the web layer's to count (``limits``).
    """

    def __init__(
        self,
        journal: SqliteJournal | None,
        *,
        idle_unload_s: float = IDLE_UNLOAD_S,
        clock: AlarmClock | None = None,
        owns: Callable[[str], bool] | None = None,
        on_verdict: VerdictSeen | None = None,
    ) -> None:
        self.journal = journal
        self.idle_unload_s = idle_unload_s
        self.clock: AlarmClock = clock or LoopClock()
        self.rooms: dict[str, RoomRunner] = {}
        # Beside other workers sharing the journal's file (``ratscrew serve``): the codes this one holds, the
        # codes the proxy sends here. Alone, every code.
        self.owns: Callable[[str], bool] = owns or (lambda code: True)
        self.on_verdict = on_verdict
        # The web layer's, set before the rooms are restored: what a room's finished game hands on (a Play-now
        # table's ratings and its matchmaker's table, ``web/matched.py``).
        self.game_over: GameOver | None = None
        self._next_page = 0
        # Rooms that left memory with writes not yet committed (by ticket): not loaded again before they are.
        self._unsaved: dict[str, int] = {}

    def journal_healthy(self) -> bool:
        """A health check's question: are games being kept? (With no journal there is nothing to keep.)"""
        return self.journal is None or self.journal.healthy()

    def _check_saving(self, why: str) -> None:
        if not self.journal_healthy():
            raise Unavailable(why)

    # ------------------------------------------------------------------ creating

    def _check_create(self) -> None:
        self._forget_closed()
        self._check_saving(NO_NEW_GAME)
        if len(self.rooms) >= MAX_ROOMS:
            raise TooMany(f"this server is full ({MAX_ROOMS} live rooms): try again in a few minutes")

    def _unused_code(self) -> str:
        while True:
            code = new_code()
            if (
                self.owns(code)
                and code not in self.rooms
                and (self.journal is None or self.journal.load_room(code) is None)
            ):
                return code

    def create_room(
        self, *, seats: int, rules: Rules, name: str, public: bool, standins: bool = True
    ) -> tuple[RoomRunner, str]:
        """An online room in its lobby; the creator is the host, sitting at seat 0. Returns the room and token."""
        self._check_create()
        infos = [SeatInfo(SeatKind.HUMAN, name)] + [SeatInfo() for _ in range(seats - 1)]
        core = RoomCore(
            self._unused_code(),
            self.clock,
            seats=infos,
            rules=rules,
            options=RoomOptions(public=public, standins=standins),
            journal=self.journal,
        )
        core.tokens[core.host_token] = frozenset({0})
        core.journal.room(core.code, core.kept())
        return self._run(core), core.host_token

    def create_game(
        self,
        *,
        seats: Iterable[SeatInfo],
        rules: Rules,
        bot_pace: float,
        seed: int,
        reactions: dict[int, list[int]] | None = None,
        token: str | None = None,
    ) -> tuple[RoomRunner, str]:
        """A game against the computer (or two on one screen): it starts at once. Returns the room and token."""
        self._check_create()
        infos = list(seats)
        core = RoomCore(
            self._unused_code(),
            self.clock,
            seats=infos,
            rules=rules,
            options=RoomOptions(public=False, standins=False, bot_pace=bot_pace, pausable=True),
            journal=self.journal,
        )
        people = frozenset(i for i, s in enumerate(infos) if s.kind is SeatKind.HUMAN)
        if token is not None:
            core.host_token = token
        core.tokens = {core.host_token: people}
        core.reactions = dict(reactions or {})
        core.start_game(seed=seed)
        return self._run(core), core.host_token

    def create_matched(
        self, *, seats: list[SeatInfo], rules: Rules, match: Match
    ) -> tuple[RoomRunner, list[str | None]]:
        """A room for a table the matchmaker made: each person's seat held by a token of their own (None for a
        computer's seat), no host, stand-ins on; its game starts once everyone is there (``matched.py``)."""
        self._check_create()
        core = RoomCore(
            self._unused_code(),
            self.clock,
            seats=seats,
            rules=rules,
            options=RoomOptions(public=False, standins=True),
            journal=self.journal,
        )
        tokens = [core.issue_token({i}) if s.kind is SeatKind.HUMAN else None for i, s in enumerate(seats)]
        core.make_matched(match)
        core.journal.room(core.code, core.kept())
        return self._run(core), tokens

    def _run(self, core: RoomCore) -> RoomRunner:
        runner = RoomRunner(core, self.clock, self.idle_unload_s, self.journal, self.on_verdict, self.game_over)
        self.rooms[core.code] = runner
        return runner

    # ------------------------------------------------------------------ finding

    def get(self, code: str) -> RoomRunner | None:
        """A room by code, loaded from the journal if it is not in memory (after a restart, or idle)."""
        self._forget_closed()
        runner = self.rooms.get(code)
        if runner is not None or self.journal is None or len(code) != CODE_LENGTH or not self.owns(code):
            return runner
        # The same answer whether or not there is such a room: a failing journal tells no codes apart.
        self._check_saving(GAME_WAITS)
        unsaved = self._unsaved.get(code)
        if unsaved is not None and unsaved > self.journal.committed:
            raise Unavailable(GAME_WAITS)
        saved = self.journal.load_room(code)
        return None if saved is None else self._restore(saved)

    def find(self, code: str) -> RoomRunner:
        """A room a client asked for by code, in either case, or NotFound. (Inside the web layer's
        ``looking_up``: wrong codes count against the client, so codes cannot be enumerated.)"""
        code = code.strip().upper()
        runner = self.get(code) if code.isascii() and code.isalnum() else None
        if runner is None:
            raise NotFound(f"no room {code[:12]!r}: check the code (it has {CODE_LENGTH} letters and digits)")
        return runner

    def open_lobbies(self) -> list[OpenRoom]:
        self._forget_closed()
        listed = []
        for runner in self.rooms.values():
            core = runner.core
            if core.options.public and core.phase is Phase.LOBBY:
                free = sum(1 for s in core.seats if s.kind is SeatKind.EMPTY)
                host = next((s.name for s in core.seats if s.kind is SeatKind.HUMAN), "")
                listed.append(OpenRoom(core.code, len(core.seats), free, host, core.rules.preset))
        return listed[:100]

    def _restore(self, saved: SavedRoom) -> RoomRunner:
        core = RoomCore.restored(saved.room, self.clock, self.journal)
        core.seq = saved.seq  # its next event is numbered on from the last one any page could have seen
        phase = saved.room.phase
        if phase is not Phase.LOBBY and core.game_no:
            core.resume_game(core.game_no, core.seed, saved.actions)
            if phase is Phase.PLAYING and core.phase is Phase.OVER and self.journal is not None:
                # The game's last actions were kept but not its end (the server stopped in between): its
                # record is rebuilt from them, and the room kept as over.
                assert core.summary is not None
                self.journal.rebuilt(core.game_id, core.record(), core.summary)
                self.journal.room(core.code, core.kept())
        return self._run(core)

    def restore_all(self) -> int:
        """At start-up: every room that was playing when the server stopped is running again, and every Play-now
        room whose rated game had ended but was not yet rated is loaded, so that ``game_over`` rates it now
        rather than whenever a page next opens it (perhaps never)."""
        if self.journal is None:
            return 0
        self.journal.expire()
        count = 0
        for saved in self.journal.playing_rooms():
            code = saved.room.code
            if code not in self.rooms and self.owns(code):
                self._restore(saved)
                count += 1
        for code in self.journal.unrated_ends():
            ended = self.journal.load_room(code) if code not in self.rooms and self.owns(code) else None
            if ended is not None:
                self._restore(ended)
                count += 1
        return count

    # ------------------------------------------------------------------ pages

    def new_link(self) -> PageLink:
        self._next_page += 1
        return PageLink(self._next_page)

    def _forget_closed(self) -> None:
        journal = self.journal
        for code in [c for c, r in self.rooms.items() if r.closed]:
            runner = self.rooms.pop(code)
            if journal is not None and runner.ticket > journal.committed:
                self._unsaved[code] = runner.ticket
        if self._unsaved and journal is not None:
            self._unsaved = {c: t for c, t in self._unsaved.items() if t > journal.committed}

    async def close(self) -> None:
        for runner in list(self.rooms.values()):
            await runner.stop()
        self.rooms.clear()
        if self.journal is not None:
            self.journal.flush()
