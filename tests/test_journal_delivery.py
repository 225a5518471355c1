"""What a room's delivery does while the journal holds its messages, in-process on virtual time: a card is
timed from when it left for the page, and a page that fell behind gets the whole state only once the file
holds it, after everything older, never before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ratscrew.engine.game import Game
from ratscrew.record import action_from_json
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.delivery import OUTBOX_LIMIT, Delivery, PageLink
from ratscrew.rooms.fairness import MIN_WINDOW_MS
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.seating import RoomOptions, SeatInfo
from ratscrew.rooms.summary import public
from ratscrew.rooms.wire import FlipMsg, Hello, Ping, SeatKind, SlapMsg
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock


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
            "HELD01", self.clock, seats=seats, rules=Rules.build("standard"), options=RoomOptions(standins=False)
        )
        core.journal = self.journal
        core.tokens[core.host_token] = frozenset({0, 1})
        self.journal.room(core.code, core.to_doc())
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
        outbox = self.links[page_id].outbox
        return [json.loads(str(outbox.get_nowait())) for _ in range(outbox.qsize())]

    def game_now(self) -> int:
        assert self.core.play is not None
        return self.core.play.clock.now()

    def kept_events(self) -> tuple[int, list[dict[str, Any]], int]:
        """From the file: the number of the room's last event, its game's events replayed from the actions
        kept, and the cards down."""
        saved = self.journal.load_room(self.core.code)
        assert saved is not None
        seed = saved.doc["seed"]
        assert isinstance(seed, int)
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
