"""What a room's delivery does while the journal holds its messages, in-process on virtual time: a card is
timed from when it left for the page; a page that fell behind gets the whole state only once the file holds
it, after everything older, never before; and holding costs the page's sender no turn of the event loop,
which the tests count, yet it sends nothing before the commit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ratscrew.engine.game import Game
from ratscrew.record import action_from_json
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.delivery import OUTBOX_LIMIT, WAKE, Delivery, PageLink
from ratscrew.rooms.fairness import MIN_WINDOW_MS
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import RoomRunner, Rooms
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.summary import public
from ratscrew.rooms.wire import FlipMsg, Hello, Ping, SeatKind, SlapMsg
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock
from ratscrew.web import online
from ratscrew.web.tally import Tally

T = TypeVar("T")


class HeldJournal(SqliteJournal):
    """A journal that commits only when the test says so (``flush``): a commit held as long as it likes."""

    def _schedule(self, delay: float) -> bool:
        return True


class HeldRoom:
    """Two people on one screen (one token holds both seats), driven the way its task drives it: a step, then
    the delivery; the journal commits only at ``commit``."""

    def __init__(self, tmp_path: Path) -> None:
        self.journal = HeldJournal(tmp_path / "store.sqlite3")
        self.clock = ManualClock()
        seats = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.HUMAN, "Bo")]
        self.core = core = RoomCore(
            "HELD01", self.clock, seats=seats, rules=Rules.build("standard"), journal=self.journal
        )
        core.tokens[core.host_token] = frozenset({0, 1})
        self.journal.room(core.code, core.kept())
        core.start_game(seed=5)
        self.links: dict[int, PageLink] = {}
        self.delivery = Delivery(core, self.links, self.journal, self.clock)
        self.commit()

    def commit(self) -> None:
        assert self.journal.flush()

    def step(self, *inputs: tuple[int, wire.ClientMessage]) -> None:
        mark = self.delivery.mark()
        for page_id, msg in inputs:
            self.core.receive(page_id, msg)
        self.core.tick()
        self.delivery.step_done(mark)

    def join(self, page_id: int) -> None:
        """A page opens and says hello with the token of both seats."""
        self.links[page_id] = PageLink(page_id)
        self.core.open_page(page_id)
        self.step((page_id, Hello(wire.VERSION, self.core.host_token, -1)))

    def turn_card(self, page_id: int) -> None:
        """The seat due flips, and its card lands once the decision window has passed (no step of its own:
        the caller's step publishes it)."""
        play = self.core.play
        assert play is not None
        self.core.receive(page_id, FlipMsg(play.game.turn))
        self.clock.advance(MIN_WINDOW_MS)
        self.core.tick()

    def told(self, page_id: int) -> list[dict[str, Any]]:
        """What the page's outbox holds, as the page reads it (a sender's wake-up says nothing)."""
        outbox = self.links[page_id].outbox
        texts = [str(outbox.get_nowait()) for _ in range(outbox.qsize())]
        return [json.loads(text) for text in texts if text != WAKE]

    def game_now(self) -> int:
        assert self.core.play is not None
        return self.core.play.clock.now()

    def kept_events(self) -> tuple[int, list[dict[str, Any]], int]:
        """From the file: the number of the room's last event, its game's events replayed from the actions
        kept, and the cards down."""
        saved = self.journal.load_room(self.core.code)
        assert saved is not None
        seed = saved.room.seed
        game = Game.from_seed(self.core.rules, len(self.core.seats), seed)
        events: list[dict[str, Any]] = []
        for index, raw in enumerate(saved.actions):
            events.extend(json.loads(json.dumps(public(e, game))) for e in game.apply(action_from_json(raw, index)))
        return saved.seq, events, game.cards


def test_a_card_held_for_the_journal_is_timed_from_when_it_left_not_from_when_it_was_turned(tmp_path: Path) -> None:
    room = HeldRoom(tmp_path)
    room.join(1)
    assert [m["type"] for m in room.told(1)][:1] == ["welcome"]
    mark = room.delivery.mark()
    room.turn_card(1)
    room.delivery.step_done(mark)
    turned = room.game_now()
    assert room.told(1) == []  # held: its action is not in the file yet
    room.join(2)  # a page comes while it is held: its welcome, which shows that card on top, waits too
    assert room.told(2) == []
    room.clock.advance(35)
    left = room.game_now()
    room.commit()
    assert [m["type"] for m in room.told(1)] == ["events", "lobby"]  # the card, then the page that came
    assert [m["type"] for m in room.told(2)][:1] == ["welcome"]
    assert room.core.pages[1].sent_cards == {1: left} and room.core.pages[2].sent_cards == {1: left}
    assert left == turned + 35

    room.clock.advance(300)
    room.step((1, SlapMsg(0, card=1, rt=150)))
    (slap,) = room.core.adjudications
    assert slap.credit.sent == left and slap.credit.received == left + 300
    assert slap.credit.reported_lag == 300 - 150  # the 35 ms the journal held the card are not the page's lag
    room.journal.close()


def test_a_page_that_falls_behind_while_messages_are_held_gets_the_whole_state_once_it_is_kept(
    tmp_path: Path,
) -> None:
    room = HeldRoom(tmp_path)
    room.join(1)  # keeps up
    room.join(2)  # falls behind: its socket sends nothing
    room.told(1)
    room.told(2)
    room.step(*[(2, Ping(i)) for i in range(OUTBOX_LIMIT - 1)])  # answered at once: nothing waits for the journal
    assert room.links[2].outbox.qsize() == OUTBOX_LIMIT - 1

    # Two steps while the journal holds their writes: the first fills the page's outbox, the second, which
    # publishes twice, finds it full.
    mark = room.delivery.mark()
    room.turn_card(1)
    room.delivery.step_done(mark)
    mark = room.delivery.mark()
    room.turn_card(1)
    room.turn_card(1)
    room.delivery.step_done(mark)
    assert room.told(1) == [] and room.links[2].outbox.qsize() == OUTBOX_LIMIT - 1  # nothing held got out
    room.clock.advance(20)
    left = room.game_now()
    room.commit()

    kept_seq, kept_events, kept_cards = room.kept_events()
    (state,) = room.told(2)  # the backlog went; the whole state instead, and nothing older after it
    assert state["type"] == "state" and state["seq"] == kept_seq == room.core.seq
    assert state["state"]["cards"] == kept_cards == 3
    assert room.core.pages[2].sent_cards == {1: left, 3: left}  # card 2 never left for it: the state shows 3
    seen = [item for m in room.told(1) if m["type"] == "events" for item in m["items"]]
    assert [item["seq"] for item in seen] == list(range(kept_seq + 1))  # in order, every one of them...
    assert [item["event"] for item in seen] == kept_events  # ...as the file keeps them

    mark = room.delivery.mark()
    room.turn_card(1)
    room.delivery.step_done(mark)
    room.commit()
    (after,) = room.told(2)  # it is sent what follows the state, as every page is
    assert [item["seq"] for item in after["items"]] == [kept_seq + 1]
    room.journal.close()


class CountingLoop(asyncio.SelectorEventLoop):
    """An event loop that counts its turns (each run of its ready callbacks: ``_run_once``, CPython's own)."""

    turns = 0

    def _run_once(self) -> None:
        self.turns += 1
        super()._run_once()  # type: ignore[misc]


class Socket:
    """The page's socket as the sender sees it: each text sent, with the loop's turn and the journal's count."""

    def __init__(self, loop: CountingLoop, journal: SqliteJournal | None) -> None:
        self.loop, self.journal = loop, journal
        self.sent: list[tuple[int, int, dict[str, Any]]] = []

    async def send_text(self, text: str) -> None:
        committed = self.journal.committed if self.journal is not None else 0
        self.sent.append((self.loop.turns, committed, json.loads(text)))


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@dataclass
class Table:
    """A game of two on one screen on a real loop and virtual time, and its one page, greeted, whose socket
    is fed by the server's own sender (``web/online.py``)."""

    rooms: Rooms
    runner: RoomRunner
    link: PageLink
    socket: Socket
    sender: asyncio.Task[None]
    clock: ManualClock

    @classmethod
    async def open(cls, journal: SqliteJournal | None) -> Table:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, CountingLoop)
        clock = ManualClock()
        rooms = Rooms(journal, clock=clock)
        seats = [SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.HUMAN, "Bo")]
        runner, token = rooms.create_game(seats=seats, rules=Rules.build("standard"), bot_pace=1.0, seed=5)
        if journal is not None:
            journal.flush()
        socket = Socket(loop, journal)
        link = rooms.new_link()
        runner.open(link)
        sender = loop.create_task(online._pump(socket, link, Tally()))  # type: ignore[arg-type]
        runner.submit(link, Hello(wire.VERSION, token, -1))
        await settle()
        return cls(rooms, runner, link, socket, sender, clock)

    async def turn_card(self) -> None:
        """The seat due flips; the room's step that lands it, a decision window later, turns the card."""
        play = self.runner.core.play
        assert play is not None
        self.runner.submit(self.link, FlipMsg(play.game.turn))
        await settle()
        self.clock.advance(MIN_WINDOW_MS)
        await settle()

    def events_sent(self) -> list[tuple[int, int, dict[str, Any]]]:
        return [sent for sent in self.socket.sent if sent[2]["type"] == "events"]

    async def close(self) -> None:
        self.sender.cancel()
        await self.rooms.close()


async def turns_to_the_page(journal: SqliteJournal | None) -> tuple[int, int, int]:
    """A card turned by a room's step, and the page's sender sending it: the turns of the loop between the
    two, the ticket of the step's write, and how far the journal had committed when it was sent."""
    table = await Table.open(journal)
    runner, loop = table.runner, table.socket.loop
    steps: list[tuple[int, int, int]] = []  # after each step: its turn, the room's ticket, its events
    step_done = runner.delivery.step_done

    def watched(mark: int) -> None:
        step_done(mark)
        steps.append((loop.turns, runner.ticket, runner.core.seq))

    runner.delivery.step_done = watched  # type: ignore[method-assign]
    await table.turn_card()
    turned_in, ticket = next((turn, ticket) for turn, ticket, seq in steps if seq >= 0)
    sent_in, committed, _doc = table.events_sent()[0]
    await table.close()
    return sent_in - turned_in, ticket, committed


def in_a_counting_loop(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    def run() -> T:
        loop = CountingLoop()
        try:
            return loop.run_until_complete(scenario())
        finally:
            loop.close()

    with ThreadPoolExecutor(1) as worker:
        return worker.submit(run).result(timeout=60)


def test_a_card_held_for_the_journal_reaches_the_socket_in_the_next_turn_as_it_would_without_one(
    tmp_path: Path,
) -> None:
    journal = SqliteJournal(tmp_path / "store.sqlite3")
    try:
        held, ticket, committed = in_a_counting_loop(lambda: turns_to_the_page(journal))
    finally:
        journal.close()
    unheld, _, _ = in_a_counting_loop(lambda: turns_to_the_page(None))
    assert committed >= ticket  # sent only once the write that turned it was in the file...
    assert held == unheld == 1  # ...and yet in the turn after the step, as with no journal at all


def test_a_sender_woken_ahead_of_a_commit_that_does_not_come_sends_nothing_until_it_comes(tmp_path: Path) -> None:
    journal = HeldJournal(tmp_path / "store.sqlite3")

    async def scenario() -> None:
        table = await Table.open(journal)
        await table.turn_card()
        assert table.runner.core.seq == 0 and table.link.outbox.empty()  # turned; its sender woke for nothing...
        assert table.events_sent() == []  # ...and sent nothing
        journal.flush()
        await settle()
        ((_turn, _committed, events),) = table.events_sent()
        assert [item["seq"] for item in events["items"]] == [0]
        await table.close()

    try:
        in_a_counting_loop(scenario)
    finally:
        journal.close()
