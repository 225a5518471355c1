"""Play now's tables on this server: the rooms opened for the tables the matchmaker makes, the ticker that asks
it to make them, and what a matched room's finished game hands on.

- :func:`open_tables` opens a room for each table one ``tick`` (or one ``take_computers``) made, and tells the
  matchmaker where each person sits (``place``). The worker whose tick made a table opens it, under a code it
  holds (``Rooms`` only deals codes this worker owns), so ``hosting/`` calls it unchanged over a shared pool.
- :class:`Tables` runs the ticker (``tick`` every ``TICK_MS`` on the rooms' clock, virtual time in tests,
  and once at every arrival) and settles each matched room's finished game (:func:`matched_game_over`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

from ratscrew.errors import RatscrewError
from ratscrew.ladder.matching import Pool
from ratscrew.ladder.matchmaker import TICK_MS, Matchmaking, Seating, Ticket
from ratscrew.ladder.results import TableEnd, settle
from ratscrew.ladder.stats import note_game
from ratscrew.ladder.store import RatingStore
from ratscrew.rooms import wire
from ratscrew.rooms.matched import Match
from ratscrew.rooms.runner import RoomRunner, Rooms
from ratscrew.rooms.seating import STANDIN_LEVEL, SeatInfo
from ratscrew.rooms.wire import SeatKind
from ratscrew.rules.model import Rules
from ratscrew.table.clock import AlarmClock

log = logging.getLogger(__name__)

RulesFor = Callable[[Pool], Rules]  # the rules a pool's tables play (``Setup.table_rules``)


def preset_rules(pool: Pool) -> Rules:
    return Rules.build(pool.preset)


def table_seats(seating: Seating) -> tuple[list[SeatInfo], Match]:
    """A table's seats in the matchmaker's order, each person's named as they asked (an account's name, or a
    guest's), computers after them; and what the room keeps of who they are."""
    people = seating.players
    seats = [SeatInfo(SeatKind.HUMAN, e.name or f"Player {i + 1}") for i, e in enumerate(people)]
    first = len(people)
    seats += [
        SeatInfo(SeatKind.BOT, f"Computer {first + i + 1}", STANDIN_LEVEL, ready=True) for i in range(seating.computers)
    ]
    match = Match(
        seating.table,
        seating.rated,
        tuple(e.player for e in people) + (None,) * seating.computers,
        tuple(e.who for e in people) + (None,) * seating.computers,
    )
    return seats, match


async def open_tables(
    rooms: Rooms, matchmaking: Matchmaking, seatings: Sequence[Seating], rules_for: RulesFor = preset_rules
) -> list[RoomRunner]:
    """A room for each table, kept in the journal before anyone is told of it; then each person's ticket to it.
    A table whose room cannot be opened (the server full, its journal failing) is given up: its people are
    free again, and their pages say so (they may press Play now again)."""
    opened = []
    for seating in seatings:
        try:
            seats, match = table_seats(seating)
            runner, tokens = rooms.create_matched(seats=seats, rules=rules_for(seating.pool), match=match)
            await runner.kept()
        except RatscrewError as exc:
            log.warning("play now: table %d could not be opened: %s", seating.table, exc)
            await matchmaking.done(seating.table)
            continue
        tickets = {
            e.who: Ticket(runner.code, seat, token)
            for seat, (e, token) in enumerate(zip(seating.players, tokens, strict=False))
            if token is not None
        }
        await matchmaking.place(seating.table, tickets)
        opened.append(runner)
    return opened


async def matched_game_over(runner: RoomRunner, ratings: RatingStore | None, matchmaking: Matchmaking) -> None:
    """The one place where a Play-now room's finished game is handed on: its places to the ratings (a rated
    table's), its people back to the matchmaker, and the rating changes to every page of the room. Called for
    each matched game that ends, and again when such a room is loaded over after a restart (every step is
    harmless twice), and then to each signed-in player's profile figures (``ladder/stats.py``: noted once by
    the game's id)."""
    core = runner.core
    match, summary = core.match, core.summary
    if match is None or summary is None:
        return
    end = TableEnd(
        game=core.game_id,
        table=match.table,
        rated=match.rated,
        players=match.players,
        people=match.people,
        out_order=summary.out_order,
        cards=tuple(p.cards for p in summary.players),
        replaced=core.replaced,
        left=core.stood_in,
    )
    changes = await settle(end, ratings, matchmaking)
    if match.rated:
        # Kept even when no rating moved (every account at the table deleted before the end): a rated end
        # without its mark is loaded and settled again at every start-up (``SqliteJournal.unrated_ends``).
        runner.rated(
            tuple(
                wire.RatingChange(
                    seat, change.before.shown, change.after.shown, change.after.provisional, seat in core.stood_in
                )
                for seat, change in sorted(changes.items())
            )
        )
    # After the pages have their changes: a failure here must not keep those from them.
    if ratings is not None and any(player is not None for player in match.players):
        # The profile's figures come from the same file; reading the record with the engine takes about a
        # millisecond and the write waits for the file's lock, so off the event loop.
        await asyncio.to_thread(
            note_game,
            ratings.path,
            core.game_id,
            match.players,
            summary,
            core.record(),
            match.rated,
            replaced=core.stood_in,
        )


class Tables:
    """Play now on this server: the ticker, and the finished matched games being settled."""

    def __init__(
        self,
        rooms: Rooms,
        matchmaking: Matchmaking,
        ratings: RatingStore | None,
        rules_for: RulesFor = preset_rules,
    ) -> None:
        self.rooms = rooms
        self.matchmaking = matchmaking
        self.ratings = ratings
        self.rules_for = rules_for
        self.clock: AlarmClock = rooms.clock
        self._lock = asyncio.Lock()  # one tick at a time: the ticker's and an arrival's
        self._settling: set[asyncio.Task[None]] = set()

    async def tick(self) -> list[RoomRunner]:
        """Make every table the pools allow now, and open their rooms."""
        async with self._lock:
            return await open_tables(self.rooms, self.matchmaking, await self.matchmaking.tick(), self.rules_for)

    async def take_computers(self, who: str) -> list[RoomRunner]:
        """A person who waited long enough sits at a table of their own, computers in the other seats."""
        async with self._lock:
            seating = await self.matchmaking.take_computers(who)
            return await open_tables(self.rooms, self.matchmaking, [seating], self.rules_for)

    @asynccontextmanager
    async def ticking(self) -> AsyncIterator[None]:
        """The ticker runs while the server serves."""
        task = asyncio.get_running_loop().create_task(self._run(self.clock.now()), name="play now ticker")
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self, due: int) -> None:
        while True:
            due += TICK_MS
            await self._until(due)
            due = max(due, self.clock.now() - TICK_MS)  # after a stall: on from now, not every tick missed
            try:
                await self.tick()
            except Exception:  # a failing pool (Redis away) must not stop the ticker for good
                log.exception("play now: a tick failed")

    async def _until(self, t: int) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        alarm = self.clock.call_at(t, wake)
        try:
            await woken
        finally:
            alarm.cancel()

    def game_over(self, runner: RoomRunner) -> None:
        """``Rooms.game_over``: a matched room's finished game is settled in the background."""
        if runner.core.match is None:
            return
        task = asyncio.get_running_loop().create_task(self._settle(runner), name=f"settle {runner.code}")
        self._settling.add(task)
        task.add_done_callback(self._settling.discard)

    async def _settle(self, runner: RoomRunner) -> None:
        try:
            await matched_game_over(runner, self.ratings, self.matchmaking)
        except Exception:
            log.exception("play now: the game of room %s could not be settled", runner.code)

    async def settled(self) -> None:
        """Wait for every finished game being settled (tests, and a server stopping)."""
        while self._settling:
            await asyncio.gather(*self._settling, return_exceptions=True)
