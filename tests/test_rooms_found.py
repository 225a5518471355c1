"""Room bugs the fuzzing found, one test each, in-process on virtual time."""

from __future__ import annotations

import json
from typing import Any

from harness.rooms_sim import SimNet, SimPage
from ratscrew.rooms import wire
from ratscrew.rooms.core import LATENCY_EVERY_MS, RoomCore
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.rules.io import rules_to_mapping
from ratscrew.table.clock import VirtualClock


def lobby_room() -> RoomCore:
    room = RoomCore(
        "FOUND2",
        VirtualClock(),
        seats=[SeatInfo(SeatKind.HUMAN, "Host")] + [SeatInfo() for _ in range(3)],
        rules=Rules.build("standard"),
    )
    room.tokens[room.host_token] = frozenset({0})
    return room


def say(room: RoomCore, page: int, doc: dict[str, object]) -> list[dict[str, Any]]:
    """What ``page`` is sent back after it sends ``doc``."""
    room.receive(page, wire.parse_client(json.dumps(doc)))
    return [json.loads(json.dumps(m)) for p, m in room.take_outgoing() if p == page]


def page(room: RoomCore, page_id: int, token: str | None) -> None:
    room.open_page(page_id)
    say(room, page_id, {"type": "hello", "v": wire.VERSION, "token": token})


def test_pages_that_stand_up_or_hold_nothing_leave_no_tokens_behind() -> None:
    # Each "stand" from a page without a seat was issued a fresh token for no seat, kept (and journaled with
    # the room) for ever: a thousand visits left a thousand tokens.
    room = lobby_room()
    for page_id in range(1, 1001):
        page(room, page_id, None)
        answer = say(room, page_id, {"type": "stand"})
        assert [m["code"] for m in answer if m["type"] == "rejected"] == ["not_seated"]
        room.close_page(page_id)
    page(room, 2000, None)
    for _ in range(100):
        assert say(room, 2000, {"type": "sit", "seat": 2, "name": "Sam"})[0]["token"]
        seated = say(room, 2000, {"type": "stand"})[0]
        assert seated == {"type": "seated", "seats": [], "token": None}
    assert len(room.tokens) == 1  # the host's
    assert len(room.kept().tokens) == 1


def test_a_second_tab_does_not_keep_a_seat_its_player_left() -> None:
    # Two pages with one token; one moved (or stood up) and the other still held the old seat: once someone
    # else sat there, it could flip and slap for them.
    room = lobby_room()
    page(room, 1, None)
    token = say(room, 1, {"type": "sit", "seat": 1, "name": "Ann"})[0]["token"]
    page(room, 2, token)  # Ann's second tab
    say(room, 1, {"type": "sit", "seat": 2, "name": "Ann"})
    assert room.pages[2].seats == frozenset({2}) and room.pages[2].token == room.pages[1].token
    say(room, 1, {"type": "stand"})
    assert room.pages[2].seats == frozenset() and room.pages[2].token is None
    page(room, 3, None)
    bob = say(room, 3, {"type": "sit", "seat": 1, "name": "Bob"})[0]["token"]
    page(room, 4, None)
    say(room, 4, {"type": "sit", "seat": 2, "name": "Cy"})
    page(room, 5, None)
    say(room, 5, {"type": "sit", "seat": 3, "name": "Di"})
    for page_id in (3, 4, 5):
        say(room, page_id, {"type": "ready", "ready": True})
    room.start_game(seed=1)
    assert room.phase is Phase.PLAYING
    for page_id in (1, 2):
        refused = say(room, page_id, {"type": "slap", "seat": 1, "card": 0, "rt": 300})
        assert [m["code"] for m in refused if m["type"] == "rejected"] == ["not_yours"]
    assert room.seats_of(bob) == frozenset({1})


def test_the_lobby_always_shows_the_rules_the_host_set_last() -> None:
    # The rules in a lobby message are worked out once per set of rules (latency changes resend the lobby many
    # times a minute, and working them out was most of its cost under load): a change must still show at once.
    room = lobby_room()
    page(room, 1, room.host_token)
    shown = [say(room, 1, {"type": "visibility", "public": True})[-1]["room"]["rules"]]
    for rules in ({"preset": "bicycle"}, {"preset": "standard", "slapping": {"penalty_cards": 2}}):
        lobby = [m for m in say(room, 1, {"type": "rules", "rules": rules}) if m["type"] == "lobby"][-1]
        shown.append(lobby["room"]["rules"])
        assert lobby["room"]["rules"] == json.loads(json.dumps(rules_to_mapping(room.rules, full=True)))
    assert shown[1] != shown[0]
    assert shown[2]["slapping"]["penalty_cards"] == 2
    assert room.lobby()["rules"] is room.lobby()["rules"]  # worked out once while the rules stay


def test_latency_changes_reach_the_pages_at_most_every_few_seconds() -> None:
    # Every echo that moved a player's shown latency by 5 ms sent the whole lobby to every page at once; with
    # jittery links that was most echoes, and under load the lobby messages outnumbered the game's events
    # forty to one (bench/rooms_load.py), which made the load worse still.
    clock = VirtualClock()
    room = RoomCore(
        "FOUND3", clock, seats=[SeatInfo(SeatKind.HUMAN, f"P{i}") for i in range(4)], rules=Rules.build("standard")
    )
    tokens = [room.issue_token({seat}) for seat in range(4)]
    room.start_game(seed=5)
    net = SimNet(room, clock, seed=5)
    pages = [SimPage(seat + 1, 40 + 40 * seat, tokens[seat], jitter=0.9) for seat in range(4)]
    for seat, sim in enumerate(pages):  # each measured on its own beat, as pages that came at different times
        net.run_until(seat * 500)
        net.connect(sim)
    net.run_until(60_000)
    updates = [m for m in pages[0].received if m["type"] in ("lobby", "latency")]
    echoes = sum(1 for sim in pages for m in sim.received if m["type"] == "probe")
    assert echoes > 100
    lobbies = [m for m in updates if m["type"] == "lobby"]
    assert len(lobbies) <= 5  # the game as dealt, and each page coming in
    assert len(updates) - len(lobbies) <= 60_000 // LATENCY_EVERY_MS + 1
    # A change of delay alone is a small latency message, not the whole room with its rules...
    latency = [m for m in updates if m["type"] == "latency"]
    assert latency and all(set(m) == {"type", "seats", "window_ms", "waits_for"} for m in latency)
    assert len(json.dumps(latency[-1])) < 120
    # ...and every player's latency is still shown, the slowest link's the highest.
    shown = latency[-1]["seats"]
    assert all(isinstance(ms, int) for ms in shown) and shown[3] > shown[0]
    assert all(isinstance(m["window_ms"], int) for m in latency)  # the decision window they make, at the table
