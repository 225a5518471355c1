"""The rooms' protocol held together: every message round-trips through its class, the golden corpus shows every
type and code, docs/vocabulary.md lists each with its fields, and the page speaks the same version.

A message, field or code changed in ``rooms/wire`` fails here until ``tests/golden/messages.json`` holds an
example of it, ``docs/vocabulary.md`` lists it, and ``wire.VERSION`` and the page's ``PROTOCOL`` agree.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from enum import Enum
from pathlib import Path
from typing import Any, get_args

import pytest

from harness.rooms_sim import SimNet, SimPage, slapper
from ratscrew.errors import BadMessage
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.fairness import Credit
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import server
from ratscrew.rules import Rules
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import RejectCode

ROOT = Path(__file__).resolve().parent.parent
GOLDEN: dict[str, Any] = json.loads((ROOT / "tests" / "golden" / "messages.json").read_text(encoding="utf-8"))
VOCABULARY = " ".join((ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8").split())
CONNECTION_JS = ROOT / "src" / "ratscrew" / "web" / "static" / "js" / "connection.js"
CODES: tuple[type[Enum], ...] = (
    wire.In,
    wire.Out,
    wire.Phase,
    wire.SeatKind,
    wire.Refusal,
    wire.Reaction,
    wire.CloseCode,
)

# The closed sets: what ``parse_client`` may return, and what ``server_from_json`` reads.
PAGE_CLASSES: tuple[Any, ...] = get_args(wire.ClientMessage)
SERVER_CLASSES: tuple[Any, ...] = get_args(wire.ServerMessage)
PARTS = (wire.RoomView, wire.SeatView, wire.EventItem)


def field_names(cls: type) -> str:
    return ", ".join(f.name for f in fields(cls))


@pytest.mark.parametrize("doc", GOLDEN["server"], ids=lambda d: str(d["type"]))
def test_golden_server_messages_round_trip_through_their_classes(doc: dict[str, Any]) -> None:
    message = wire.server_from_json(doc)
    assert doc["type"] == type(message).TYPE
    assert message.to_json() == doc
    assert wire.server_from_json(json.loads(json.dumps(message.to_json()))) == message


@pytest.mark.parametrize("doc", GOLDEN["page"], ids=lambda d: str(d["type"]))
def test_golden_page_messages_round_trip_through_their_classes(doc: dict[str, Any]) -> None:
    message = wire.parse_client(json.dumps(doc))
    assert doc["type"] == type(message).TYPE
    assert message.to_json() == doc


def test_every_type_has_one_class_and_every_class_its_type() -> None:
    assert sorted(c.TYPE for c in PAGE_CLASSES) == sorted(wire.In) and tuple(t.value for t in wire.In) == wire.TYPES
    assert sorted(c.TYPE for c in SERVER_CLASSES) == sorted(wire.Out) == sorted(server.SERVER_MESSAGES)
    assert all(server.SERVER_MESSAGES[c.TYPE] is c for c in SERVER_CLASSES)


def test_the_golden_corpus_shows_every_type_and_every_code() -> None:
    assert GOLDEN["version"] == wire.VERSION
    assert {d["type"] for d in GOLDEN["page"]} == set(wire.In)
    assert {d["type"] for d in GOLDEN["server"]} == set(wire.Out)
    refused = {d["code"] for d in GOLDEN["server"] if d["type"] == wire.Out.REJECTED}
    assert refused == {*wire.Refusal, *RejectCode}
    rooms = [d["room"] for d in GOLDEN["server"] if "room" in d]
    assert {room["phase"] for room in rooms} == set(wire.Phase)
    assert {seat["kind"] for room in rooms for seat in room["seats"]} == set(wire.SeatKind)
    assert GOLDEN["close_codes"] == {code.name.lower(): code.value for code in wire.CloseCode}


def test_the_codes_of_a_rejection_are_told_apart() -> None:
    assert not {c.value for c in wire.Refusal} & {c.value for c in RejectCode}


def test_the_docs_list_every_message_with_its_fields_and_every_code() -> None:
    assert f"## Room messages (`ratscrew.rooms.wire`, protocol {wire.VERSION})" in VOCABULARY
    for cls in [*PAGE_CLASSES, *SERVER_CLASSES]:
        listed = f"`{cls.TYPE.value}` ({field_names(cls)}" if fields(cls) else f"`{cls.TYPE.value}`,"
        assert listed in VOCABULARY, f"docs/vocabulary.md does not list {listed})"
    for part in PARTS:
        assert f"`{part.__name__}` ({field_names(part)})" in VOCABULARY, part.__name__
    race = ", ".join(f.name for f in fields(Credit)[:-1])  # a summary's races: each slap's figures, in order
    assert f"({race}, landed, verdict, echo_rtt, tcp_rtt)" in VOCABULARY
    for code in CODES:
        assert f"`{code.__name__}`" in VOCABULARY
        for member in code:
            assert f"`{member.value}`" in VOCABULARY, f"docs/vocabulary.md does not list {code.__name__}.{member.name}"


def test_the_page_and_the_docs_speak_this_version() -> None:
    found = re.findall(r"export const PROTOCOL = (\d+);", CONNECTION_JS.read_text(encoding="utf-8"))
    assert found == [str(wire.VERSION)], "connection.js's PROTOCOL must be wire.VERSION"
    assert f"(`rooms/wire`, version {wire.VERSION})" in " ".join((ROOT / "docs" / "online.md").read_text().split())


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        ({"type": "hug"}, 'unknown server message "hug"'),
        ({"type": "pong"}, "pong: missing ['id']"),
        ({"type": "pong", "id": 1, "extra": 2}, "pong: missing nothing, unknown ['extra']"),
        ({"type": "pong", "id": "1"}, "pong.id: expected a whole number"),
        ({"type": "rejected", "code": "nope", "reason": "", "seat": None}, 'rejected.code: "nope" is not a RejectCode'),
        ({"type": "lobby", "room": []}, "room must be an object"),
        ({"type": "latency", "seats": [1, "x"], "window_ms": 40, "waits_for": None}, "seats[1]: expected a whole"),
    ],
)
def test_a_server_message_that_cannot_be_read_says_what_is_wrong(doc: dict[str, object], says: str) -> None:
    with pytest.raises(BadMessage, match=re.escape(says)):
        wire.server_from_json(doc)


def test_everything_real_rooms_send_reads_back_as_it_was_sent() -> None:
    # Two players race through a game (and the lobby after it) on virtual time: every message the room sends,
    # in every state it passes through, decodes into its class and encodes back to the same document.
    rules = Rules.build("standard", {"end.max_cards": 250})
    clock = VirtualClock()
    seats = [SeatInfo(wire.SeatKind.HUMAN, "Ana"), SeatInfo()]
    # One deal, not a random one: about one deal in forty ends before any latency message is due.
    room = RoomCore("WIRE01", clock, seats=seats, rules=rules, seed_source=lambda: 7)
    room.tokens[room.host_token] = frozenset({0})
    net = SimNet(room, clock, 4)
    host = SimPage(1, 15, room.host_token, script=slapper(0, rules, lambda card: 300 + card % 90))
    guest = SimPage(2, 60, None, jitter=0.4)
    net.connect(host)
    net.connect(guest)
    net.run_until(500)
    net.send(guest, {"type": "sit", "seat": 1, "name": "Bo"})
    net.run_until(1000)
    guest.script = slapper(1, rules, lambda card: 280 + card % 70)
    for page in (host, guest):
        net.send(page, {"type": "ready", "ready": True})
    net.run_until(1500)
    net.send(host, {"type": "start"})
    net.run_while(lambda: room.game is None or not room.game.over, 600_000)
    net.send(guest, {"type": "rematch"})
    net.run_until(clock.now() + 3000)
    sent = host.received + guest.received
    assert {m["type"] for m in sent} >= {"welcome", "seated", "lobby", "events", "state", "over", "probe", "latency"}
    for doc in sent:
        assert wire.server_from_json(doc).to_json() == doc
