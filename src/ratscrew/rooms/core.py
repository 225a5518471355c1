"""One room, without I/O: its lobby, the game at its table, and every page watching.

The room is a state machine driven from outside: a page connects (``open_page``), sends messages
(``receive``), drops (``close_page``); time passes (``tick`` at ``next_deadline``). What it wants sent comes
back from ``take_outgoing`` as (page id, JSON document) pairs, and what must be kept goes to a
:class:`~ratscrew.rooms.document.Journal`. The asyncio owner task (``runner.py``) feeds it from sockets on the
server's clock; the tests feed it on virtual time, with simulated delays, and never sleep. A driver that
holds messages a while after taking them (``delivery.py``, until the journal has kept what made them) takes
them with ``take_held`` and says when each left (``sent``): a slap on a card is timed from then.

The room is in parts, a module each: its seats, rules and tokens (``seating.py``), the pages and their
links (``pages.py``), the game in play with its table (``play.py``), what a game leaves (``summary.py``),
what pages see (``views.py``), what is sent and the numbered events (``outbox.py``), how many quick
reactions each player may send (``reactions.py``), what is kept (``document.py``), and the messages
(``wire``). This class holds them together: it hands each message to its part, says when time must pass,
and turns what the table publishes into messages.
"""

from __future__ import annotations

import itertools
import logging
import secrets
from collections import deque
from collections.abc import Callable, Iterable, Sequence

from ratscrew.engine.actions import Millis
from ratscrew.engine.game import Game
from ratscrew.record import Record
from ratscrew.rooms import views, wire
from ratscrew.rooms.document import NO_NEW_GAME, Journal, KeptRoom, NoJournal
from ratscrew.rooms.fairness import SLOW_NOTE_MS, Adjudication
from ratscrew.rooms.matched import START_WAIT_MS, Match
from ratscrew.rooms.outbox import HISTORY, Feed, Message, Outbox, Outgoing, Shows
from ratscrew.rooms.pages import Page, Pages
from ratscrew.rooms.play import Play
from ratscrew.rooms.reactions import TOO_FAST, ReactionLimit
from ratscrew.rooms.seating import GRACE_MS, STANDIN_LEVEL, LobbyChange, RoomOptions, SeatInfo, Seating, refused
from ratscrew.rooms.wire import Phase, Refusal, SeatKind
from ratscrew.rules.model import Rules
from ratscrew.table.clock import Clock
from ratscrew.table.table import RejectCode, Table

__all__ = ["GRACE_MS", "HISTORY", "HOST_GRACE_MS", "LATENCY_EVERY_MS", "Message", "Phase", "Refusal", "RoomCore"]

log = logging.getLogger(__name__)

HOST_GRACE_MS = 30_000  # a host gone this long from the lobby hands the room to the next seated player
JOURNAL_RETRY_MS = 1_000  # a Play-now table due to start while the journal fails tries again this much later
PROBE_EVERY_MS = 2_000  # how often each page is probed (its answers keep the socket alive, and are recorded)
LATENCY_EVERY_MS = 5_000  # a latency message for a change of measured latency alone goes out at most this often


class RoomCore:
    def __init__(
        self,
        code: str,
        clock: Clock,
        *,
        seats: Iterable[SeatInfo],
        rules: Rules,
        options: RoomOptions | None = None,
        journal: Journal | None = None,
        seed_source: Callable[[], int] = lambda: secrets.randbits(48),
    ) -> None:
        self.code = code
        self.clock = clock
        self.seating = Seating(seats, rules, options or RoomOptions())
        self.journal: Journal = journal or NoJournal()
        self.seed_source = seed_source
        self.phase = Phase.LOBBY
        self.pages = Pages()
        self.outbox = Outbox(code)
        self.feed = Feed()
        self.game_no = 0
        self.seed = 0
        self.play: Play | None = None
        self.paused = False  # the game's clock stands still (kept in the journal: a restart keeps the pause)
        self.summary: wire.GameSummary | None = None
        self.reactions: dict[int, list[int]] = {}  # each person's, carried from game to game
        self.reaction_limit = ReactionLimit()  # the quick reactions each player may still send
        self._probe_ids = itertools.count(1)
        self._lobby_dirty = False
        self._state_dirty = False
        self._latency_moved = False  # a latency to show, due LATENCY_EVERY_MS after the last lobby or latency message
        self._lobby_sent: Millis = -LATENCY_EVERY_MS
        self._host_away_since: Millis | None = None
        self._rules_docs = views.RulesDocs()
        self.match: Match | None = None  # a Play-now table (``matched.py``)
        self.rated: tuple[wire.RatingChange, ...] | None = None  # its game's rating changes, once recorded
        self._start_by: Millis | None = None  # a Play-now table starts then, whoever has come

    # ------------------------------------------------------------------ the parts, by the names drivers use

    @property
    def seats(self) -> list[SeatInfo]:
        return self.seating.seats

    @property
    def rules(self) -> Rules:
        return self.seating.rules

    @property
    def options(self) -> RoomOptions:
        return self.seating.options

    @property
    def outgoing(self) -> list[tuple[int, wire.ServerMessage, Shows | None]]:
        """Messages queued and not yet taken, with the cards each shows."""
        return self.outbox.queued

    @property
    def history(self) -> deque[wire.EventItem]:
        """The last events, kept for pages that reconnect."""
        return self.feed.history

    @property
    def tokens(self) -> dict[str, frozenset[int]]:
        return self.seating.tokens

    @tokens.setter
    def tokens(self, tokens: dict[str, frozenset[int]]) -> None:
        self.seating.tokens = tokens

    @property
    def host_token(self) -> str:
        return self.seating.host_token

    @host_token.setter
    def host_token(self, token: str) -> None:
        self.seating.host_token = token

    @property
    def seq(self) -> int:
        return self.feed.seq

    @seq.setter
    def seq(self, seq: int) -> None:
        self.feed.seq = seq

    @property
    def game(self) -> Game | None:
        return self.play.game if self.play is not None else None

    @property
    def table(self) -> Table | None:
        return self.play.table if self.play is not None else None

    @property
    def game_id(self) -> str:
        return self.play.id if self.play is not None else ""

    @property
    def adjudications(self) -> list[Adjudication]:
        return self.play.adjudications if self.play is not None else []

    def issue_token(self, seats: Iterable[int]) -> str:
        return self.seating.issue_token(seats)

    def seats_of(self, token: str | None) -> frozenset[int] | None:
        return self.seating.seats_of(token)

    def is_host(self, page: Page) -> bool:
        return self.seating.is_host(page.token)

    def now(self) -> Millis:
        return self.clock.now()

    # ------------------------------------------------------------------ pages coming and going

    def open_page(self, page_id: int) -> None:
        self.pages[page_id] = Page(page_id, next_probe=self.now())

    def close_page(self, page_id: int) -> None:
        page = self.pages.pop(page_id, None)
        if page is None:
            return
        now = self.now()
        for seat in page.seats:
            if not self.pages.connected(seat):
                self.seats[seat].away_since = now
        if self._host_away_since is None and not any(self.is_host(p) for p in self.pages.values()):
            self._host_away_since = now
        self._lobby_dirty = True
        self._retime()

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> Millis | None:
        """The room clock's time when ``tick`` next has something to do."""
        times: list[Millis] = [p.next_probe for p in self.pages.values() if p.greeted]
        if self._latency_moved:
            times.append(self._lobby_sent + LATENCY_EVERY_MS)
        if self._start_by is not None and self.phase is Phase.LOBBY:
            times.append(self._start_by)
        if self._host_away_since is not None and self.phase is Phase.LOBBY:
            handover = self._host_away_since + HOST_GRACE_MS
            if handover > self.now():  # once due, whoever comes next is handed the room (tick runs per message)
                times.append(handover)
        play = self.play
        if play is not None and self.phase is Phase.PLAYING and not self.paused:
            due = play.table.next_deadline()
            if due is not None:
                times.append(due - play.clock.now() + self.now())
            seating = self.seating
            if seating.options.standins:
                times.extend(
                    s.away_since + GRACE_MS for s in seating.seats if s.away_since is not None and not s.standin
                )
        return min(times, default=None)

    def tick(self) -> None:
        now = self.now()
        for page in self.pages.values():
            if page.greeted and page.next_probe <= now:
                probe = wire.Probe(next(self._probe_ids))
                page.probe(probe.id, now)
                page.next_probe = now + PROBE_EVERY_MS
                self.outbox.send(page.id, probe)
        play = self.play
        if play is not None and self.phase is Phase.PLAYING and not self.paused:  # its clock runs
            changed = self.seating.standins(self.pages.present(), now)
            for seat, level in changed:
                play.table.set_standin(seat, level)
            if changed:  # kept: a restart goes on with the same seats held, and a game ended knows who left
                self._lobby_changed()
            play.table.run_due()
        self._start_if_all_here()
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
        heir = self.pages.heir()
        if heir is None or heir.token is None:
            return
        log.info("room %s: the host left; seat %d is the host now", self.code, min(heir.seats) + 1)
        self.host_token = heir.token  # the old host's token still holds their seat, as a player's
        self._host_away_since = None
        for page in self.pages.values():
            if page.token == heir.token:
                self.outbox.send(page.id, self._welcome(page, None))  # "host": true, with the room as it is
        self._lobby_changed()

    # ------------------------------------------------------------------ messages from pages

    def receive(self, page_id: int, msg: wire.ClientMessage) -> None:
        page = self.pages.get(page_id)
        if page is None:
            return
        if not page.greeted:
            if not isinstance(msg, wire.Hello):
                log.info("room %s: page %d sent %s before hello", self.code, page_id, type(msg).__name__)
                self.outbox.send(page_id, wire.ErrorMsg('the first message must be "hello"'))
                return
            self._hello(page, msg)
        elif isinstance(msg, wire.Hello):
            self.outbox.send(page_id, wire.ErrorMsg("hello was already said on this connection"))
        elif isinstance(msg, wire.Ping):
            self.outbox.send(page_id, wire.Pong(msg.id))
        elif isinstance(msg, wire.Echo):
            page.echoed(msg.id, self.now())
        elif isinstance(msg, wire.Resync):
            missed = self.feed.missed(msg.since)
            if missed is None:
                self.outbox.send(page_id, self.snapshot_message(), self.showing())
            else:
                self.outbox.send(page_id, self._events(missed))
        elif isinstance(msg, wire.FlipMsg | wire.SlapMsg):
            self._play(page, msg)
        elif isinstance(msg, wire.Pause):
            self._pause(page, msg.paused)
        elif isinstance(msg, wire.Rematch):
            self._rematch(page)
        elif isinstance(msg, wire.React):
            self._react(page, msg)
        else:
            self._lobby_message(page, msg)
        self._flush()

    def link_measured(self, page_id: int, ping_ms: float | None, tcp_ms: float | None = None) -> None:
        """The server timed a page's connection itself: a websocket ping's round trip, and the kernel's."""
        page = self.pages.get(page_id)
        if page is None or not page.measured(ping_ms, tcp_ms):
            return
        self._retime()
        if page.seats and page.shown_moved():
            # Not at once: every page's latency moves every few seconds, more so under load, and a message
            # to every page each time outnumbered the game's own events many times over.
            self._latency_moved = True
        self._flush()

    def waits_for(self) -> int | None:
        """The seat whose slow link holds the table back beyond the least window, for pages to say so."""
        table = self.table
        if table is None or self.phase is not Phase.PLAYING or table.hold_ms < SLOW_NOTE_MS:
            return None
        return self.pages.slowest_seat()

    def _retime(self) -> None:
        if self.play is not None and self.phase is Phase.PLAYING:
            self.play.retime()

    def _hello(self, page: Page, msg: wire.Hello) -> None:
        seats = self.seats_of(msg.token)
        if msg.token is not None and seats is None:
            self.outbox.send(page.id, wire.ErrorMsg("that seat token is not valid here: watching only"))
        page.greeted = True
        if seats is not None:
            page.token = msg.token
            page.seats = seats
            for seat in seats:
                self.seats[seat].away_since = None
            self._lobby_dirty = True
            self._retime()
            self._start_if_all_here()
        missed = self.feed.missed(msg.since) if msg.since >= 0 else []
        welcome = self._welcome(page, None if missed is None or msg.since < 0 else len(missed))
        self.outbox.send(page.id, welcome, self.showing())  # its state shows the top card
        if missed:
            self.outbox.send(page.id, self._events(missed))

    def _no(self, page: Page, code: Refusal, reason: str, seat: int | None = None) -> None:
        self.outbox.refuse(page.id, refused(code, reason, seat))

    def _react(self, page: Page, msg: wire.React) -> None:
        """A player's quick reaction goes to every page, unless they sent too many lately (reactions.py)."""
        if not page.seats:
            self._no(page, Refusal.NOT_SEATED, "only the players send reactions: take a seat first")
            return
        seat = min(page.seats)
        if self.reaction_limit.take(seat, self.now()):
            self._broadcast(wire.ReactionMsg(seat, msg.reaction))
        else:
            # Not logged as other refusals are: a page flooding the room would flood the log with it.
            self.outbox.send(page.id, refused(Refusal.TOO_FAST, TOO_FAST, seat))

    # ------------------------------------------------------------------ the game's inputs

    def _play(self, page: Page, msg: wire.FlipMsg | wire.SlapMsg) -> None:
        play = self.play
        if play is None or self.phase is not Phase.PLAYING:
            self._no(page, Refusal.WRONG_PHASE, "no game is being played in this room")
        elif msg.seat not in page.seats or msg.seat >= len(self.seats):
            self.outbox.refuse(
                page.id, wire.RejectedMsg(RejectCode.NOT_YOURS, f"seat {msg.seat} is not yours", msg.seat)
            )
        elif self.paused:
            self._no(page, Refusal.PAUSED, "the game is paused: resume it to play on", msg.seat)
        elif isinstance(msg, wire.FlipMsg):
            play.flip(page, msg.seat)
        else:
            play.slap(page, msg)

    def _pause(self, page: Page, paused: bool) -> None:
        """Stop or restart the game's clock: the table then does nothing at all, and resumes exactly."""
        if not self.options.pausable:
            self._no(page, Refusal.NO_PAUSE, "only a game against the computer can be paused")
        elif self.phase is not Phase.PLAYING or self.play is None:
            self._no(page, Refusal.WRONG_PHASE, "no game is being played in this room")
        elif not page.seats:
            self._no(page, Refusal.NOT_SEATED, "only the players can pause their game")
        else:
            self.set_paused(paused)

    def set_paused(self, paused: bool) -> None:
        if self.play is None or paused == self.paused:
            return
        self.paused = paused
        if paused:
            self.play.clock.pause()
        else:
            self.play.clock.resume()
        self._state_dirty = True  # every page shows the table stopped, or going again
        self.journal.room(self.code, self.kept())

    # ------------------------------------------------------------------ the lobby

    def _lobby_message(self, page: Page, msg: LobbyChange | wire.Start) -> None:
        if self.match is not None:
            self._no(page, Refusal.NOT_HOST, "a Play-now table keeps the seats and rules its pool chose")
            return
        if self.phase is not Phase.LOBBY:
            self._no(page, Refusal.WRONG_PHASE, "the seats and rules can only change in the lobby")
            return
        host = self.is_host(page)
        if isinstance(msg, wire.Start):
            no = (
                self.seating.not_ready()
                if host
                else refused(Refusal.NOT_HOST, "only the host changes the seats and the rules")
            )
            if no is None and not self.journal.healthy():
                no = refused(Refusal.NOT_SAVING, NO_NEW_GAME)
            if no is not None:
                self.outbox.refuse(page.id, no)
            else:
                self.start_game()
            return
        if self.seating.handle(page, msg, self.pages, self.outbox):
            self._lobby_changed()

    def _rematch(self, page: Page) -> None:
        if self.match is not None:
            self._no(page, Refusal.WRONG_PHASE, "a Play-now table plays one game: press Play now for the next")
            return
        if self.phase is not Phase.OVER or not page.seats:
            self._no(page, Refusal.WRONG_PHASE, "a rematch can start once the game is over, by a player")
            return
        self.phase = Phase.LOBBY
        self.seating.back_to_lobby(page.seats)
        self._lobby_changed()

    def _lobby_changed(self) -> None:
        self._lobby_dirty = True
        self.journal.room(self.code, self.kept())

    # ------------------------------------------------------------------ the game

    def start_game(self, *, seed: int | None = None) -> None:
        self.game_no += 1
        self.seed = self.seed_source() if seed is None else seed
        self.summary = None
        self.paused = False
        for seat in self.seats:  # a new game: only a stand-in holding a seat from its start has stood in
            seat.stood_in = seat.standin
        self._deal(())
        self.phase = Phase.PLAYING
        self._lobby_changed()
        self._state_dirty = True  # every page needs the table as dealt

    def resume_game(self, game_no: int, seed: int, actions: Sequence[object]) -> None:
        """Rebuild the game from its journal after a restart: the deal again, then every applied action."""
        self.game_no = game_no
        self.seed = seed
        play = self._deal(actions)
        self.phase = Phase.PLAYING if not play.game.over else Phase.OVER
        if play.game.over and self.summary is None:
            self.summary = play.summary()

    def _deal(self, actions: Sequence[object]) -> Play:
        play = self.play = Play(
            self.code,
            self.game_no,
            self.seed,
            clock=self.clock,
            seating=self.seating,
            pages=self.pages,
            outbox=self.outbox,
            feed=self.feed,
            journal=self.journal,
            paused=self.paused,
            reactions=self.reactions,
            actions=actions,
        )
        for seat, info in enumerate(self.seats):
            if info.standin:  # a stand-in held it when the server stopped (or the person never came)
                play.table.set_standin(seat, STANDIN_LEVEL)
        return play

    def _flush(self) -> None:
        play = self.play
        if play is not None and play.pending and play.publish() and self.phase is Phase.PLAYING:
            self._finish(play)
        if self._state_dirty:
            self._state_dirty = False
            self.outbox.broadcast(self.pages.values(), self.snapshot_message(), self.showing())
        update: wire.Lobby | wire.Latency | None = None
        if self._lobby_dirty:
            update = wire.Lobby(self.room_view())
        elif self._latency_moved and self.now() >= self._lobby_sent + LATENCY_EVERY_MS:
            # Only the delays moved: a few bytes, not the whole room with its rules.
            update = wire.Latency(tuple(self.pages.latencies(len(self.seats))), self._window_shown(), self.waits_for())
        if update is not None:
            self._lobby_dirty = self._latency_moved = False
            self._lobby_sent = self.now()
            self._broadcast(update)

    def _finish(self, play: Play) -> None:
        self.phase = Phase.OVER
        summary = self.summary = play.summary()
        for seat, times in play.table.reactions.items():
            if self.seats[seat].kind is SeatKind.HUMAN:
                self.reactions[seat] = times[-50:]
        self.journal.finished(self.code, play.id, play.record(), summary)
        self.journal.room(self.code, self.kept())
        self._broadcast(wire.Over(summary))
        self._lobby_dirty = True

    def record(self) -> Record:
        assert self.play is not None
        return self.play.record()

    # ------------------------------------------------------------------ what pages see

    def state(self) -> wire.RoomState:
        return self.play.state() if self.play is not None else wire.NO_TABLE

    def _window_shown(self) -> int | None:
        return self.play.table.hold_ms if self.play is not None and self.phase is Phase.PLAYING else None

    def room_view(self) -> wire.RoomView:
        rules, game = self._rules_docs.of(self.rules), self.game_id or None
        window, waits_for = self._window_shown(), self.waits_for()
        match = self.match
        return views.room_view(
            self.code,
            self.phase,
            self.seating,
            self.pages,
            rules,
            game=game,
            window_ms=window,
            waits_for=waits_for,
            matched=match is not None,
            rated=match is not None and match.rated,
        )

    def lobby(self) -> Message:
        """The room as pages see it, as its JSON document."""
        return self.room_view().to_json()

    def _welcome(self, page: Page, missed: int | None) -> wire.Welcome:
        seats, room, state = tuple(sorted(page.seats)), self.room_view(), self.state()
        host, summary = self.is_host(page), self.summary
        return wire.Welcome(wire.VERSION, room, seats, host, self.seq, missed, state, summary, self.rated)

    def _events(self, items: Sequence[wire.EventItem]) -> wire.Events:
        return self.play.events(items) if self.play is not None else wire.Events(tuple(items), wire.NO_TABLE)

    def snapshot_message(self) -> wire.StateMsg:
        """The whole state, for a page that fell too far behind (or a table just dealt): it replaces everything."""
        return wire.StateMsg(self.seq, self.state(), self.room_view())

    def snapshot(self) -> Message:
        return self.snapshot_message().to_json()

    def _broadcast(self, message: wire.ServerMessage) -> None:
        self.outbox.broadcast(self.pages.values(), message)

    def take_outgoing(self) -> list[tuple[int, Message]]:
        """What to send, to which page (``Outbox.take``), for a driver that sends it now: the cards it shows
        are timed from now."""
        out = self.take_held()
        for page_id, _message, shows in out:
            if shows is not None:
                self.sent(page_id, shows)
        return [(page_id, message) for page_id, message, _shows in out]

    def take_held(self) -> list[Outgoing]:
        """What to send, to which page, with the cards each message shows, for a driver that may hold it a
        while: it says ``sent`` as each leaves."""
        return self.outbox.take() if self.outbox.queued else []

    def sent(self, page_id: int, shows: Shows) -> None:
        """A message showing ``shows`` left for page ``page_id`` now: a slap on those cards is timed from now."""
        page = self.pages.get(page_id)
        if page is not None and self.play is not None:
            self.play.sent(page, shows)

    def showing(self) -> Shows | None:
        """The card a message carrying the table's state shows on top (None before the first card)."""
        return self.play.showing() if self.play is not None else None

    # ------------------------------------------------------------------ a Play-now table

    def make_matched(self, match: Match) -> None:
        """This room is the matchmaker's table ``match``: no host, no lobby to settle, and its game starts once
        every person has said hello, or ``START_WAIT_MS`` from now."""
        self.match = match
        if self.phase is Phase.LOBBY and self.game_no == 0:
            self._start_by = self.now() + START_WAIT_MS

    def _restored_match(self, phase: Phase) -> None:
        if phase is Phase.LOBBY and self.game_no == 0:
            self._start_by = self.now() + START_WAIT_MS  # the wait starts again: its pages find it again
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN and not seat.standin:
                seat.away_since = self.now()  # nobody is here yet: whoever does not come back is stood in for

    @property
    def keep_loaded(self) -> bool:
        """A Play-now table stays in memory until its game is over, watched or not: its stand-ins play it to
        the end, so that its result is recorded and its people may queue again."""
        return self.match is not None and self.phase is not Phase.OVER

    @property
    def replaced(self) -> frozenset[int]:
        """The seats a stand-in holds now (at the end of a game: the people it replaced for good)."""
        return frozenset(i for i, s in enumerate(self.seats) if s.standin and s.kind is SeatKind.HUMAN)

    @property
    def stood_in(self) -> frozenset[int]:
        """The people's seats a stand-in held at some time in this game, for good or until they came back."""
        return frozenset(i for i, s in enumerate(self.seats) if s.stood_in and s.kind is SeatKind.HUMAN)

    def _start_if_all_here(self) -> None:
        if self._start_by is None or self.phase is not Phase.LOBBY:
            return
        present, now = self.pages.present(), self.now()
        people = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN]
        if now < self._start_by and not all(i in present for i in people):
            return
        if not self.journal.healthy():
            self._start_by = now + JOURNAL_RETRY_MS
            return
        self._start_by = None
        for i in people:
            if i not in present:  # not come yet: a computer plays for them until they do
                self.seats[i].standin = self.seats[i].stood_in = True
                self.seats[i].away_since = now
        self.start_game()

    def set_rated(self, changes: tuple[wire.RatingChange, ...]) -> None:
        """The game's rated result is recorded: every page is told what it did to each player's rating."""
        if self.phase is not Phase.OVER:
            return
        self.rated = changes
        self._broadcast(wire.Rated(self.game_id, changes))
        self.journal.room(self.code, self.kept())

    # ------------------------------------------------------------------ keeping

    def kept(self) -> KeptRoom:
        """What the journal keeps of the room (the game itself is its seed plus its actions)."""
        s = self.seating
        return KeptRoom(
            self.code,
            self.phase,
            s.seats,
            s.rules,
            s.options,
            self.paused,
            s.host_token,
            s.tokens,
            self.game_no,
            self.seed,
            self.reactions,
            self.summary,
            s.rematch_by,
            self.match,
            self.rated,
        )

    @staticmethod
    def restored(kept: KeptRoom, clock: Clock, journal: Journal | None = None) -> RoomCore:
        """A room as its journal kept it, in its lobby; ``resume_game`` then rebuilds the game it was playing."""
        room = RoomCore(kept.code, clock, seats=kept.seats, rules=kept.rules, options=kept.options, journal=journal)
        room.host_token, room.tokens = kept.host_token, dict(kept.tokens)
        room.game_no, room.seed, room.paused = kept.game_no, kept.seed, kept.paused
        room.reactions, room.summary = kept.reactions, kept.summary
        room.seating.rematch_by = kept.rematch_by
        if kept.match is not None:
            room.match, room.rated = kept.match, kept.rated
            room._restored_match(kept.phase)
        return room
