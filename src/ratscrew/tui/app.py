"""The terminal table: a Textual app that is one page of a room, drawing what the room says and sending what the
player does, as the browser's table does (``web/static/js/table``).

It reads its room's messages in order from its link (``link.py``), answers probes at once, asks again for
events it missed, and after a drop reconnects with its seat token and the last event it saw. Every key
sends one message the moment it is pressed; the room decides what it was worth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import ClassVar

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from ratscrew.errors import NotFound, RatscrewError
from ratscrew.rooms import wire
from ratscrew.tui.keys import Keys
from ratscrew.tui.link import Link
from ratscrew.tui.model import Line, TableModel, Tone
from ratscrew.tui.screens import HelpScreen, SummaryScreen
from ratscrew.tui.venue import Opened, Venue
from ratscrew.tui.widgets import Feed, KeyBar, Part, Pile, Seats, Status, TopLine
from ratscrew.tui.words import Words

log = logging.getLogger(__name__)

RETRY_S = (0.5, 1.0, 2.0, 4.0)  # waits between reconnection attempts, as the page's
TICK_S = 0.25  # the clock and the slap window move this often
ROOMY_ROWS = 32  # from this height the cards are drawn larger
WIDE_COLUMNS = 110  # from this width the seats get more room
TABLE_KEYS = ("f", "space", "j", "a", "s", "l", "k", "p", "t", "r", "g", "n", "e")  # keys.py says what each does

CSS = """
TableScreen { layout: vertical; }
TopLine { height: 1; background: $boost; }
#main { height: 1fr; }
Seats { width: 36; height: 1fr; border: round $secondary; padding: 0 1; }
TableScreen.wide Seats { width: 50; }
#centre { width: 1fr; padding: 0 1; }
Pile { height: 7; }
TableScreen.roomy Pile { height: 9; }
Status { height: auto; min-height: 4; }
Feed { height: 1fr; border-top: solid $secondary; }
KeyBar { height: 1; }
HelpScreen, SummaryScreen { align: center middle; }
#help-box, #summary-box {
    width: 92%; height: auto; max-height: 92%; border: round $primary; background: $surface; padding: 0 1;
}
SummaryScreen.narrow #summary-box { width: 100%; }
#summary-keys { dock: bottom; height: auto; }
#help, #summary { height: auto; }
"""


class TableScreen(Screen[None]):
    """The table, with the keys that play it (not while the help or the summary is over it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"play('{key}')", show=False) for key in TABLE_KEYS),
        Binding("question_mark", "help", show=False),
        Binding("q", "quit_table", show=False),
        Binding("y", "confirm_quit", show=False),
        Binding("escape", "stay", show=False),
    ]

    def compose(self) -> ComposeResult:
        words = self.table.words
        yield TopLine()
        with Horizontal(id="main"):
            seats = Seats()
            seats.border_title = words.t("access.seats")
            yield seats
            with Vertical(id="centre"):
                yield Pile()
                yield Status()
                feed = Feed()
                feed.border_title = words.t("game.feed")
                yield feed
        yield KeyBar()

    @property
    def table(self) -> TableApp:
        app = self.app
        assert isinstance(app, TableApp)
        return app

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height >= ROOMY_ROWS, "roomy")
        self.set_class(event.size.width >= WIDE_COLUMNS, "wide")

    def action_play(self, key: str) -> None:
        self.table.pressed(key)

    def action_help(self) -> None:
        self.table.open_help()

    def action_quit_table(self) -> None:
        self.table.ask_quit()

    def action_confirm_quit(self) -> None:
        if self.table.quit_asked:
            self.app.exit(0)

    def action_stay(self) -> None:
        self.table.stay()


class TableApp(App[int]):
    """One page of a room, in the terminal."""

    CSS = CSS
    TITLE = "ratscrew"
    # Ctrl+C quits at once, as in any terminal program (the help says so), not only Ctrl+Q.
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", show=False, priority=True)]
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        venue: Venue,
        words: Words,
        *,
        plain: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.venue = venue
        self.words = words
        self.plain = plain
        self.clock = clock
        self.model = TableModel(words, clock)
        self.keys = Keys(words, self.model, online=venue.online, watching=venue.watching)
        self.link: Link | None = None
        self.closing = False
        self.failure: str | None = None  # why the table stopped, said once the terminal is back
        self._sat_down = False
        self._summary_shown: object = None
        self.quit_asked = False  # Q was pressed during a game: Q again or Y quits
        self._outgoing: asyncio.Queue[tuple[Link, wire.ClientMessage]] = asyncio.Queue()

    # ------------------------------------------------------------------ what the parts ask

    def now(self) -> float:
        return self.clock()

    def game_ms(self) -> int:
        model = self.model
        table = model.table
        if table is None:
            return 0
        if not model.live:
            return table.now
        return table.now + int((self.clock() - model.state_at) * 1000)

    # ------------------------------------------------------------------ running

    def on_mount(self) -> None:
        self.push_screen(TableScreen())
        self.set_interval(TICK_S, self._tick)
        self.run_worker(self._send_all(), group="sender", exit_on_error=False)
        self.start()

    @work(exclusive=True, group="link", exit_on_error=False)
    async def start(self, again: bool = False) -> None:
        """Open the room (or deal another game) and read it until the end."""
        try:
            opened = await (self.venue.again() if again else self.venue.open())
        except RatscrewError as exc:
            self.stop(str(exc))
            return
        if opened is None:
            return
        await self._take(opened)
        await self._read()

    async def _take(self, opened: Opened) -> None:
        old = self.link
        link, welcome, said = opened
        self.link = link
        if old is not None and old is not link:
            with contextlib.suppress(Exception):
                await old.close()
        hello = self.venue.hello()
        if hello is not None:
            await link.send(hello)
        if said:
            self.model.banner = Line(said, Tone.MUTED)
        if welcome is not None:
            self._handle(welcome)
            await self._after(welcome)

    async def _read(self) -> None:
        while not self.closing:
            link = self.link
            assert link is not None
            message = await link.receive()
            if message is None:
                if self.closing or not await self._reconnect():
                    return
                continue
            self._handle(message)
            if isinstance(message, wire.Probe):
                await link.send(wire.Echo(message.id))
            elif isinstance(message, wire.Events) and not self._events_ok:
                await link.send(wire.Resync(self.model.seq))
            await self._after(message)

    async def _reconnect(self) -> bool:
        """The link dropped: reconnect as the page does, with the seat token and the last event seen."""
        model = self.model
        model.connected = False
        self.refresh_table()
        if not self.venue.online:
            self.stop(self.words.t("tui.room_gone"))
            return False
        attempt = 0
        while not self.closing:
            await asyncio.sleep(RETRY_S[min(attempt, len(RETRY_S) - 1)])
            attempt += 1
            try:
                opened = await self.venue.reopen(model.token, model.seq)
            except NotFound:
                self.stop(self.words.t("tui.room_gone"))
                return False
            except RatscrewError as exc:
                log.info("reconnecting: %s", exc)
                continue
            await self._take(opened)
            return True
        return False

    def stop(self, why: str) -> None:
        """The room is gone or cannot be reached: say why, and keep the table on the screen until Q."""
        self.failure = why
        self.model.banner = Line(why, Tone.BAD)
        self.refresh_table()

    # ------------------------------------------------------------------ what the room says

    _events_ok = True

    def _handle(self, message: wire.ServerMessage) -> None:
        model = self.model
        self._events_ok = True
        if isinstance(message, wire.Welcome):
            model.welcome(message)
        elif isinstance(message, wire.Events):
            self._events_ok = model.events(message)
        elif isinstance(message, wire.StateMsg):
            model.whole_state(message)
        elif isinstance(message, wire.Lobby):
            model.lobby(message.room)
        elif isinstance(message, wire.Seated):
            model.seated(message)
            self.venue.keep_token(message.token)
        elif isinstance(message, wire.RejectedMsg):
            model.rejected(message)
        elif isinstance(message, wire.ErrorMsg):
            model.error(message)
        elif isinstance(message, wire.Over):
            model.over(message)
        elif isinstance(message, wire.Latency):
            model.latency(message)
        elif isinstance(message, wire.ReactionMsg):
            model.reaction(message)
        self.refresh_table()

    async def _after(self, message: wire.ServerMessage) -> None:
        """What the terminal does itself on a message: take a seat in a lobby, show the summary at the end."""
        model, link = self.model, self.link
        if isinstance(message, wire.Welcome | wire.Lobby) and link is not None:
            await self._sit_down(link)
        if isinstance(message, wire.Over) and model.summary is not None:
            self.show_summary()

    async def _sit_down(self, link: Link) -> None:
        """An online room's lobby: take the seat asked for, or the first empty one, once (not when watching)."""
        model, venue = self.model, self.venue
        room = model.room
        if not venue.online or venue.watching or self._sat_down or model.yours or room is None:
            return
        if room.phase is not wire.Phase.LOBBY:
            return
        seat = self._free_seat()
        if seat is not None:
            self._sat_down = True
            await link.send(wire.Sit(seat, venue.name()))

    def _free_seat(self) -> int | None:
        room = self.model.room
        if room is None:
            return None
        wanted = self.venue.seat_wanted()
        free = [i for i, seat in enumerate(room.seats) if seat.kind is wire.SeatKind.EMPTY]
        if wanted is not None:
            return wanted if wanted in free else None
        return free[0] if free else None

    def show_summary(self) -> None:
        summary = self.model.summary
        if summary is None or self._summary_shown is summary:
            return
        self._summary_shown = summary
        saved = self.venue.saved(summary.game)
        screen = SummaryScreen(self.words, summary, self.model.yours, saved, self.venue.online)
        self.push_screen(screen, self._summary_closed)

    def _summary_closed(self, choice: str | None) -> None:
        if choice == "again":
            self.pressed("n")
        elif choice == "quit":
            self.exit(0)

    def refresh_table(self) -> None:
        # The table's screen, whether or not the help or the summary is over it: the table shows through
        # around them, and a pause the help asked for must show there ("Paused", "P resume"), not only once
        # the help is closed. Before the table's screen is up there is nothing to draw.
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                for part in screen.query(Part):
                    # The status grows to hold a long verdict (German's take three lines at 80 columns), the
                    # feed giving it the room: its height is laid out again.
                    part.refresh(layout=isinstance(part, Status))

    def _tick(self) -> None:
        if self.model.live:
            self.refresh_table()

    # ------------------------------------------------------------------ what the player does

    def open_help(self) -> None:
        """The help over the table: a game that can be paused (against the computer) waits while it is read,
        and goes on when it is closed; one paused already stays paused."""
        model = self.model
        room = model.room
        pause = room is not None and room.pausable and bool(model.yours) and model.live
        if pause:
            self.send(wire.Pause(True))
        preset = self.words.t(f"preset.{room.preset}.name") if room is not None else ""
        house = self.words.house_rules(room.rules) if room is not None else ()
        self.push_screen(HelpScreen(self.words, preset, house), lambda _: self._help_closed(pause))

    def _help_closed(self, paused_for_help: bool) -> None:
        table = self.model.table
        if paused_for_help and table is not None and table.paused and not table.over:
            self.send(wire.Pause(False))

    def ask_quit(self) -> None:
        """Q: during a game this terminal plays, ask first (the seat, or the game, would be given up by one
        stray key); at once otherwise, or when asked already."""
        table = self.model.table
        playing = table is not None and not table.over and bool(self.model.yours) and self.failure is None
        if self.quit_asked or not playing:
            self.exit(0)
            return
        self.quit_asked = True
        self.model.banner = Line(self.words.t("tui.quit_ask"), Tone.MUTED)
        self.refresh_table()

    def stay(self) -> None:
        """Not quitting after all: the question goes."""
        if not self.quit_asked:
            return
        self.quit_asked = False
        if self.model.banner is not None and self.model.banner.text == self.words.t("tui.quit_ask"):
            self.model.banner = None
        self.refresh_table()

    def pressed(self, key: str) -> None:
        """A key of the table: each plays at once, as the page's do; the room judges."""
        self.stay()  # playing on answers the question to quit
        model, keys = self.model, self.keys
        if key == "p":
            self._send_pause()
        elif key in ("n", "e"):
            self._after_game(key)
        elif key in ("t", "r", "g") and self.venue.online:
            self._lobby_key(key)
        elif (seat := keys.seat_flipped_by(key)) is not None:
            if self._may_play(seat):
                self.send(wire.FlipMsg(seat))
        elif (seat := keys.seat_slapped_by(key)) is not None and self._may_play(seat):
            self.send(model.slap_for(seat))

    def _may_play(self, seat: int) -> bool:
        """The play is this page's to make and the table is not paused (which it says), as the page checks."""
        table = self.model.table
        if table is None or table.over or seat not in self.model.yours:
            return False
        if table.paused:
            self.model.banner = Line(self.words.t("tui.paused_hint"), Tone.MUTED)
            self.refresh_table()
            return False
        return True

    def _send_pause(self) -> None:
        model = self.model
        room, table = model.room, model.table
        if room is None or not room.pausable or table is None or table.over or not model.yours:
            return
        if table.paused and self.model.banner is not None and self.model.banner.text == self.words.t("tui.paused_hint"):
            self.model.banner = None  # resuming: the line that said how to resume has had its day
        self.send(wire.Pause(not table.paused))

    def _after_game(self, key: str) -> None:
        model = self.model
        if (
            model.summary is None
            or not model.yours
            or (model.room is not None and model.room.phase is not wire.Phase.OVER)
        ):
            return
        if key == "e":
            self._summary_shown = None
            self.show_summary()
        elif self.venue.online:
            self.send(wire.Rematch())
        else:
            model.feed.clear()
            model.banner = None
            self._summary_shown = None
            self.start(again=True)

    def _lobby_key(self, key: str) -> None:
        model = self.model
        room = model.room
        if room is None or room.phase is not wire.Phase.LOBBY or self.venue.watching:
            return
        if key == "t":
            if model.yours:
                self.send(wire.Stand())
            elif (seat := self._free_seat()) is not None:
                self.send(wire.Sit(seat, self.venue.name()))
        elif key == "r" and model.yours:
            mine = room.seats[min(model.yours)]
            self.send(wire.Ready(not mine.ready))
        elif key == "g":
            self.send(wire.Start())

    def send(self, message: wire.ClientMessage) -> None:
        """Send at once, in the order pressed (one sender per link keeps the order)."""
        link = self.link
        if link is not None:
            self._outgoing.put_nowait((link, message))

    async def _send_all(self) -> None:
        while True:
            link, message = await self._outgoing.get()
            await link.send(message)

    async def on_unmount(self) -> None:
        await self.close()

    async def close(self) -> None:
        """Leave the room: the link closes, and a game in this process is put away (its journal committed and
        closed). Once: the app does it as it stops, whoever stopped it."""
        if self.closing:
            return
        self.closing = True
        if self.link is not None:
            with contextlib.suppress(Exception):
                await self.link.close()
        await self.venue.close()
