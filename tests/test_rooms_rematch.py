"""A rematch keeps the table as it was: the same seats, whoever asked ready, the others asked again."""

from __future__ import annotations

from ratscrew.rooms.pages import Pages
from ratscrew.rooms.seating import RoomOptions, SeatInfo, Seating
from ratscrew.rooms.views import room_view
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.rules.io import RulesDoc


def seating_after_a_game() -> Seating:
    seats = [SeatInfo(SeatKind.HUMAN, "Ann", ready=True), SeatInfo(SeatKind.HUMAN, "Bob", ready=True)]
    seats.append(SeatInfo(SeatKind.BOT, "Computer 3", "easy", ready=True))
    return Seating(seats, Rules.build("standard"), RoomOptions())


def view(seating: Seating, phase: Phase) -> tuple[int | None, list[tuple[str, bool]]]:
    room = room_view("R", phase, seating, Pages(), RulesDoc({}), game="R", window_ms=None, waits_for=None)
    return room.rematch_by, [(seat.name, seat.ready) for seat in room.seats]


def test_whoever_asked_is_ready_and_named_the_others_keep_their_seats_and_agree_again() -> None:
    seating = seating_after_a_game()
    seating.seats[1].standin = True
    seating.back_to_lobby(frozenset({1}))
    assert view(seating, Phase.LOBBY) == (1, [("Ann", False), ("Bob", True), ("Computer 3", True)])
    assert not seating.seats[1].standin
    assert seating.not_ready() is not None  # Ann has not agreed yet
    seating.seats[0].ready = True  # her "ready" (the summary's "I'm in")
    assert seating.not_ready() is None  # one press from the host starts it


def test_the_asker_is_named_only_in_the_lobby() -> None:
    seating = seating_after_a_game()
    seating.back_to_lobby(frozenset({0}))
    assert view(seating, Phase.PLAYING)[0] is None
    assert view(seating, Phase.LOBBY)[0] == 0
