"""Quick reactions in a room, in-process on virtual time: every page sees each by its sender's seat, a watcher
sees them but cannot send, and the server limits each player, refusing a flood while the game goes on."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from harness.rooms_sim import SimNet, SimPage
from ratscrew.errors import BadMessage
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.reactions import BURST, REFILL_MS
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import VirtualClock

RULES = Rules.build("standard")


def playing_room() -> tuple[SimNet, SimPage, SimPage, SimPage]:
    """Ann (seat 0, the host) and Bob (seat 1) at a table, and a watcher without a seat."""
    clock = VirtualClock()
    room = RoomCore(
        "REACT1", clock, seats=[SeatInfo(SeatKind.HUMAN, "Ann"), SeatInfo(SeatKind.HUMAN, "Bob")], rules=RULES
    )
    room.tokens[room.host_token] = frozenset({0})
    bob_token = room.issue_token({1})
    room.start_game(seed=7)
    net = SimNet(room, clock, 7)
    ann, bob, watcher = SimPage(1, 20, room.host_token), SimPage(2, 40, bob_token), SimPage(3, 30, None)
    for page in (ann, bob, watcher):
        net.connect(page)
    net.run_until(1_000)
    return net, ann, bob, watcher


def reactions(page: SimPage) -> list[tuple[int, str]]:
    return [(m["seat"], m["reaction"]) for m in page.received if m["type"] == "reaction"]


def refusals(page: SimPage, code: str) -> list[dict[str, Any]]:
    return [m for m in page.received if m["type"] == "rejected" and m["code"] == code]


def test_every_page_sees_a_reaction_by_its_senders_seat_and_a_watcher_cannot_send() -> None:
    net, ann, bob, watcher = playing_room()
    net.send(bob, {"type": "react", "reaction": "nice"})
    net.send(watcher, {"type": "react", "reaction": "wow"})
    net.run_until(2_000)
    for page in (ann, bob, watcher):
        assert reactions(page) == [(1, "nice")]  # by Bob's seat, on every page; the watcher's went nowhere
    assert [m["reason"] for m in refusals(watcher, "not_seated")] == [
        "only the players send reactions: take a seat first"
    ]


def test_a_flood_of_reactions_is_refused_on_virtual_time_and_the_game_goes_on() -> None:
    net, ann, bob, _watcher = playing_room()
    room, flooded = net.room, net.clock.now()
    for _ in range(40):  # a page sending as fast as its socket lets it
        net.send(ann, {"type": "react", "reaction": "wow"})
    net.run_until(flooded + 500)
    assert reactions(bob) == [(0, "wow")] * BURST
    assert len(refusals(ann, "too_fast")) == 40 - BURST
    assert refusals(ann, "too_fast")[0]["reason"] == "too many reactions: 3 at once, then one every 4 seconds"
    # Nobody was sent away and the game was not touched: the flooding player still plays, and Bob may react.
    assert room.phase is Phase.PLAYING and set(room.pages) == {1, 2, 3}
    game = room.game
    assert game is not None and game.cards == 0
    net.send(ann if game.turn == 0 else bob, {"type": "flip", "seat": game.turn})
    net.send(bob, {"type": "react", "reaction": "oops"})
    net.run_until(flooded + 1_000)
    assert game.cards == 1
    assert reactions(ann)[-1] == (1, "oops")
    # The limit refills on the room's clock: not one more before REFILL_MS has passed, one after.
    net.run_until(flooded + REFILL_MS - 500)
    net.send(ann, {"type": "react", "reaction": "gg"})
    net.run_until(flooded + REFILL_MS)
    assert (0, "gg") not in reactions(bob)
    net.send(ann, {"type": "react", "reaction": "gg"}, after=100)
    net.run_until(flooded + REFILL_MS + 1_000)
    assert reactions(bob).count((0, "gg")) == 1


@pytest.mark.parametrize("doc", [{"type": "react", "reaction": "free text!"}, {"type": "react"}])
def test_a_reaction_that_is_not_one_of_the_set_is_refused_by_name(doc: dict[str, object]) -> None:
    with pytest.raises(BadMessage, match="reaction must be one of hi, nice, wow, oops, close, wait, gg, got"):
        wire.parse_client(json.dumps(doc))


def test_the_page_offers_exactly_the_reactions_of_the_protocol() -> None:
    static = Path(__file__).resolve().parent.parent / "src" / "ratscrew" / "web" / "static" / "js"
    script = (static / "pages" / "room" / "reactions.js").read_text(encoding="utf-8")
    offered = re.search(r"export const REACTIONS = \{(.*?)\};", script)
    assert offered is not None
    assert re.findall(r"(\w+): \"", offered.group(1)) == [reaction.value for reaction in wire.Reaction]
    typed = re.search(r"export type ReactionCode = (.*?);", (static / "wire.d.ts").read_text(encoding="utf-8"))
    assert typed is not None
    assert re.findall(r"\"(\w+)\"", typed.group(1)) == [reaction.value for reaction in wire.Reaction]
