"""A room the Play-now matchmaker made, in-process on virtual time: its game starts once every person has said
hello or after START_WAIT_MS with a stand-in for whoever has not come, nobody can change its seats or rules,
its people's accounts are kept with it and never shown, and its document opens on older servers' terms."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.document import KeptRoom
from ratscrew.rooms.matched import START_WAIT_MS, Match
from ratscrew.rooms.seating import GRACE_MS, SeatInfo
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import VirtualClock

MATCH = Match(table=7, rated=True, players=(9041, 9042), people=("account:9041", "guest:5e1f"))


def matched_room(clock: VirtualClock, match: Match = MATCH) -> tuple[RoomCore, list[str]]:
    seats = [SeatInfo(SeatKind.HUMAN, "ann"), SeatInfo(SeatKind.HUMAN, "bob")]
    room = RoomCore("PLAY01", clock, seats=seats, rules=Rules.build("standard"))
    tokens = [room.issue_token({0}), room.issue_token({1})]
    room.make_matched(match)
    return room, tokens


def hello(room: RoomCore, page: int, token: str | None) -> None:
    room.open_page(page)
    room.receive(page, wire.Hello(wire.VERSION, token, -1))


def phase(room: RoomCore) -> Phase:
    """The room's phase, read afresh (a property the type checker would take for unchanged)."""
    return room.phase


def sent(room: RoomCore) -> list[dict[str, Any]]:
    return [message for _page, message in room.take_outgoing()]


def test_the_game_starts_as_soon_as_every_person_has_said_hello(clock: VirtualClock) -> None:
    room, (ann, bob) = matched_room(clock)
    assert room.next_deadline() == START_WAIT_MS
    hello(room, 1, ann)
    clock.advance(4_000)
    room.tick()
    assert phase(room) is Phase.LOBBY
    hello(room, 2, None)  # someone watching with the link: nobody the table waits for
    assert phase(room) is Phase.LOBBY
    hello(room, 3, bob)
    assert phase(room) is Phase.PLAYING
    assert room.replaced == frozenset() and not any(seat.standin for seat in room.seats)


def test_after_the_wait_a_stand_in_holds_the_seat_of_whoever_has_not_come_until_they_do(clock: VirtualClock) -> None:
    room, (ann, bob) = matched_room(clock)
    hello(room, 1, ann)
    clock.advance_to(START_WAIT_MS - 1)
    room.tick()
    assert phase(room) is Phase.LOBBY
    clock.advance_to(START_WAIT_MS)
    room.tick()
    assert phase(room) is Phase.PLAYING
    assert room.replaced == frozenset({1})  # Bob never came: a computer plays for him, and he counts as replaced
    table = room.table
    assert table is not None and 1 in table.bots and 0 not in table.bots
    assert room.kept().to_doc()["standin_seats"] == [1]  # kept: a restart goes on with the seat held
    hello(room, 2, bob)  # he comes after all and takes his seat back
    room.tick()
    assert room.replaced == frozenset() and 1 not in table.bots
    room.close_page(2)  # and leaves again: after the grace a stand-in plays for him once more
    clock.advance(GRACE_MS)
    room.tick()
    assert room.replaced == frozenset({1})


def test_a_table_nobody_came_to_starts_with_stand_ins_everywhere_and_stays_loaded_until_it_ends(
    clock: VirtualClock,
) -> None:
    room, _tokens = matched_room(clock)
    assert room.keep_loaded
    clock.advance_to(START_WAIT_MS)
    room.tick()
    assert room.replaced == frozenset({0, 1}) and room.keep_loaded
    while room.phase is Phase.PLAYING:  # the computers play it to the end, on virtual time
        due = room.next_deadline()
        assert due is not None
        clock.advance_to(max(due, clock.now()))
        room.tick()
    assert phase(room) is Phase.OVER and not room.keep_loaded
    assert room.replaced == frozenset({0, 1})


def test_nobody_changes_a_play_now_table_and_it_plays_one_game(clock: VirtualClock) -> None:
    room, (ann, bob) = matched_room(clock)
    hello(room, 1, ann)
    sent(room)
    for message in (wire.Stand(), wire.SetSeats(3), wire.SetRules({"preset": "bicycle"}), wire.Start()):
        room.receive(1, message)
        (refusal,) = [m for m in sent(room) if m["type"] == "rejected"]
        assert refusal["code"] == "not_host" and "Play-now" in refusal["reason"]
    assert room.seats[0].kind is SeatKind.HUMAN and room.rules.preset == "standard"
    hello(room, 2, bob)
    assert phase(room) is Phase.PLAYING
    room.receive(1, wire.Rematch())
    (refusal,) = [m for m in sent(room) if m["type"] == "rejected"]
    assert refusal["code"] == "wrong_phase" and "one game" in refusal["reason"]


def test_pages_see_names_and_whether_it_is_rated_never_an_account(clock: VirtualClock) -> None:
    room, (ann, bob) = matched_room(clock)
    hello(room, 1, ann)
    hello(room, 2, bob)
    view = room.room_view()
    assert view.matched and view.rated and view.host_seat is None
    assert [seat.name for seat in view.seats] == ["ann", "bob"]
    text = json.dumps(sent(room))
    for secret in ("9041", "9042", "guest:", "5e1f", '"people"'):
        assert secret not in text
    doc = room.kept().to_doc()
    assert doc["match"] == {
        "table": 7,
        "rated": True,
        "players": [9041, 9042],
        "people": ["account:9041", "guest:5e1f"],
    }


def test_the_rating_changes_go_to_every_page_and_a_page_that_comes_later_is_welcomed_with_them(
    clock: VirtualClock,
) -> None:
    room, (ann, bob) = matched_room(clock, Match(3, True, (41, 42), ("a", "b")))
    hello(room, 1, ann)
    hello(room, 2, bob)
    hello(room, 3, None)  # someone watching
    changes = (wire.RatingChange(0, 1100, 1137, True), wire.RatingChange(1, 1100, 1075, True))
    room.set_rated(changes)  # before the game is over: nothing to say yet
    assert room.rated is None
    room.close_page(1)
    room.close_page(2)
    while room.phase is Phase.PLAYING:  # both left: the stand-ins finish it
        due = room.next_deadline()
        assert due is not None
        clock.advance_to(max(due, clock.now()))
        room.tick()
    sent(room)
    room.set_rated(changes)
    assert [m for m in sent(room) if m["type"] == "rated"] == [wire.Rated(room.game_id, changes).to_json()]
    hello(room, 4, None)
    (welcome,) = [m for m in sent(room) if m["type"] == "welcome"]
    assert welcome["rated"] == [change.to_json() for change in changes]
    assert room.kept().to_doc()["rated"] == welcome["rated"]


def test_a_play_now_room_survives_its_document_and_older_documents_still_open(clock: VirtualClock) -> None:
    room, (ann, _bob) = matched_room(clock)
    hello(room, 1, ann)
    clock.advance_to(START_WAIT_MS)
    room.tick()
    doc = json.loads(json.dumps(room.kept().to_doc()))
    assert doc["version"] == 3
    again = RoomCore.restored(KeptRoom.from_doc(doc), clock)
    assert again.match == MATCH and again.replaced == frozenset({1})
    assert again.room_view().matched and again.room_view().rated
    # A room kept by a server from before Play now (version 2): no match, no stand-ins kept, no ratings.
    older = {key: value for key, value in doc.items() if key not in ("standin_seats", "match", "rated")}
    older["version"] = 2
    plain = RoomCore.restored(KeptRoom.from_doc(older), clock)
    assert plain.match is None and plain.rated is None and plain.replaced == frozenset()
    assert not plain.room_view().matched and not plain.keep_loaded


def test_a_restored_table_stands_in_for_whoever_does_not_come_back(clock: VirtualClock) -> None:
    room, (ann, bob) = matched_room(clock)
    hello(room, 1, ann)
    hello(room, 2, bob)
    assert phase(room) is Phase.PLAYING
    kept = KeptRoom.from_doc(json.loads(json.dumps(room.kept().to_doc())))
    later = VirtualClock(clock.now())
    again = RoomCore.restored(kept, later)
    again.resume_game(room.game_no, room.seed, [])
    hello(again, 1, ann)  # Ann's page reconnects; Bob's never does
    later.advance(GRACE_MS)
    again.tick()
    assert again.replaced == frozenset({1})


def test_a_person_a_stand_in_played_for_stays_marked_after_coming_back_and_across_a_restart(
    clock: VirtualClock,
) -> None:
    # A rated table ranks them last (``ladder/results.py``): the computer played part of their game.
    room, (ann, bob) = matched_room(clock)
    hello(room, 1, ann)
    hello(room, 2, bob)
    assert room.stood_in == frozenset()
    room.close_page(2)
    clock.advance(GRACE_MS - 1)
    room.tick()
    assert room.stood_in == frozenset()  # away within the grace: nobody stood in
    clock.advance(1)
    room.tick()
    assert room.replaced == room.stood_in == frozenset({1})
    hello(room, 3, bob)  # back: his seat again, and the mark kept
    room.tick()
    assert room.replaced == frozenset() and room.stood_in == frozenset({1})
    kept = KeptRoom.from_doc(json.loads(json.dumps(room.kept().to_doc())))
    again = RoomCore.restored(kept, VirtualClock(clock.now()))
    assert again.stood_in == frozenset({1}) and again.replaced == frozenset()
    # Older documents knew only the seats held at the time.
    older = {key: value for key, value in room.kept().to_doc().items() if key != "stood_in_seats"}
    assert RoomCore.restored(KeptRoom.from_doc(older), clock).stood_in == frozenset()


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()
