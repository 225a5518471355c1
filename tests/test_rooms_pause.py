"""Pausing a game against the computer, in-process on virtual time: while paused the table's clock stands
still (no computer turns a card, no slap window closes, the time limit waits), resuming goes on at the very
millisecond it stopped, and the pause outlives a restart. Online rooms with other people cannot pause."""

from __future__ import annotations

import json

import pytest

from ratscrew.engine.events import CardTurned
from ratscrew.errors import BadMessage
from ratscrew.record import action_to_json
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.document import KeptRoom
from ratscrew.rooms.seating import RoomOptions, SeatInfo
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import VirtualClock

RULES = Rules.build("standard")


def against_computers(clock: VirtualClock, *, pausable: bool = True) -> tuple[RoomCore, int]:
    """A game of one person against two computers, with the person's page connected; returns the page id."""
    seats = [
        SeatInfo(SeatKind.HUMAN, "Ann"),
        SeatInfo(SeatKind.BOT, "Bo", "medium", ready=True),
        SeatInfo(SeatKind.BOT, "Cy", "medium", ready=True),
    ]
    room = RoomCore("PAUSE1", clock, seats=seats, rules=RULES, options=RoomOptions(pausable=pausable))
    token = room.issue_token({0})
    room.start_game(seed=7)
    room.open_page(1)
    room.receive(1, wire.Hello(wire.VERSION, token, -1))
    return room, 1


def run_until(room: RoomCore, clock: VirtualClock, t: int) -> None:
    """Time passes to ``t``: every deadline of the room on the way is met, as the runner would."""
    while True:
        deadline = room.next_deadline()
        if deadline is None or deadline > t:
            break
        clock.advance_to(max(deadline, clock.now()))
        room.tick()
    clock.advance_to(t)
    room.tick()


def cards_turned(room: RoomCore) -> list[tuple[int, int]]:
    assert room.table is not None
    return [(e.t, e.event.number) for e in room.table.log if isinstance(e.event, CardTurned)]


def pause_while_the_computers_play(room: RoomCore, clock: VirtualClock, page: int) -> None:
    """Ann turns her card; the computers are to play next, and the game is paused before they do."""
    game = room.game
    assert game is not None and room.table is not None
    while game.turn != 0 or game.collect_pending is not None:
        run_until(room, clock, clock.now() + 50)
    cards = game.cards
    room.receive(page, wire.FlipMsg(0))
    while game.cards == cards:  # the flip lands once the table's decision window has passed
        run_until(room, clock, clock.now() + 1)
    assert game.turn != 0 or game.collect_pending is not None  # a computer is due: its card has a timer
    room.receive(page, wire.Pause(True))
    room.take_outgoing()
    assert room.paused


def test_while_paused_no_card_is_turned_and_resuming_goes_on_exactly() -> None:
    clock = VirtualClock()
    room, page = against_computers(clock)
    pause_while_the_computers_play(room, clock, page)
    table = room.table
    assert table is not None
    stopped_at = table.clock.now()
    turned = cards_turned(room)
    due = table.next_deadline()
    assert due is not None and due > stopped_at  # the next computer card, in the table's time
    run_until(room, clock, clock.now() + 10 * 60_000)  # ten minutes away from the table
    assert cards_turned(room) == turned
    assert table.clock.now() == stopped_at
    state = room.state()
    assert isinstance(state, wire.TableState) and state.paused
    room.receive(page, wire.FlipMsg(0))  # nothing is played while paused
    refused = [m for _, m in room.take_outgoing() if m.get("type") == "rejected"]
    assert refused and refused[-1]["code"] == "paused"
    room.receive(page, wire.Pause(False))
    assert not room.paused and table.clock.now() == stopped_at
    run_until(room, clock, clock.now() + (due - stopped_at) - 1)
    assert cards_turned(room) == turned  # one millisecond early: not yet
    run_until(room, clock, clock.now() + 1)
    after = cards_turned(room)
    assert len(after) == len(turned) + 1 and after[-1][0] == due - table.hold_ms  # at the very moment it was due


def test_a_paused_game_stays_paused_after_a_restart_and_then_plays_on() -> None:
    clock = VirtualClock()
    room, page = against_computers(clock)
    pause_while_the_computers_play(room, clock, page)
    assert room.game is not None and room.table is not None
    kept = KeptRoom.from_doc(json.loads(json.dumps(room.kept().to_doc())))  # as the journal keeps it
    assert kept.paused and kept.options.pausable
    actions = [action_to_json(a) for a in room.game.actions]
    cards = room.game.cards
    later = VirtualClock(5_000_000)
    again = RoomCore.restored(kept, later)
    again.resume_game(room.game_no, room.seed, actions)
    assert again.phase is Phase.PLAYING and again.paused and again.options.pausable
    run_until(again, later, later.now() + 60_000)
    assert again.game is not None and again.game.cards == cards
    again.set_paused(False)
    run_until(again, later, later.now() + 60_000)
    assert again.game.cards > cards


def test_an_online_room_cannot_be_paused() -> None:
    clock = VirtualClock()
    room, page = against_computers(clock, pausable=False)
    room.take_outgoing()
    room.receive(page, wire.Pause(True))
    assert not room.paused
    refused = [m for _, m in room.take_outgoing() if m.get("type") == "rejected"]
    assert refused and refused[-1]["code"] == "no_pause"
    assert room.lobby()["pausable"] is False


def test_the_pause_message_is_read_and_checked() -> None:
    assert wire.parse_client('{"type": "pause", "paused": true}') == wire.Pause(True)
    with pytest.raises(BadMessage, match="paused must be true or false"):
        wire.parse_client('{"type": "pause", "paused": "yes"}')
