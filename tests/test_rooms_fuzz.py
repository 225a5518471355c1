"""Fuzzing rooms (``harness/rooms_fuzzing.py``; ``bench/rooms_fuzz.py`` runs the long version): malformed,
oversized, out-of-order, replayed and other-seat messages, floods and drops. No crash, no stuck room, no
corrupted room, nothing kept growing."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from harness.rooms_fuzzing import RoomFuzzer, Tally, check_alive, check_room
from harness.rooms_fuzzing_ws import ws_fuzz
from harness.server import Server, start_server
from ratscrew.rooms.core import HISTORY


def assert_clean(tally: Tally, what: str) -> None:
    assert tally.crashes == [], f"{what}: {len(tally.crashes)} crashes, first:\n{tally.crashes[0]}"
    assert tally.unanswered == [], f"{what}: {len(tally.unanswered)} unanswered, first: {tally.unanswered[:3]}"
    assert tally.corrupted == [], f"{what}: corrupted: {tally.corrupted[:3]}"
    assert tally.stuck == [], f"{what}: stuck: {tally.stuck[:3]}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_room_survives_thousands_of_hostile_messages(seed: int) -> None:
    fuzzer = RoomFuzzer(seed)
    tally = fuzzer.run(4_000)
    assert_clean(tally, f"seed {seed}")
    assert check_room(fuzzer) == []
    assert check_alive(fuzzer) == []
    assert check_room(fuzzer) == []  # the proper moves after the noise leave it whole too
    # Every kind of nonsense was sent, the game went on under it, and the pages came and went.
    for category in ("malformed", "wrong_type", "huge_number", "token", "oversized", "unknown_type", "replayed"):
        assert tally.sent[category] > 5, (category, tally.sent)
    for category in ("other_seat", "out_of_order", "before_hello"):
        assert tally.sent[category] > 5, (category, tally.sent)
    assert tally.answers["error"] > 500 and tally.answers["rejected"] > 100
    assert tally.games >= 1 and tally.reconnects > 10


def test_what_a_room_keeps_stays_bounded_over_a_long_run() -> None:
    fuzzer = RoomFuzzer(9)
    fuzzer.run(8_000)
    room = fuzzer.room
    assert len(room.history) <= HISTORY
    assert len(room.tokens) <= len(room.seats) + 1
    assert len(room.pages) == len(fuzzer.pages) <= 12
    assert room.outgoing == []
    assert check_room(fuzzer) == []


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own, whose error output is read once it has stopped: nothing may have crashed."""
    server = start_server(tmp_path_factory.mktemp("fuzz"))
    try:
        yield server
    finally:
        code = server.stop(signal.SIGTERM)
        errors = server.process.stderr.read() if server.process.stderr else ""
        assert "Traceback" not in errors, errors[-3000:]
        assert code == 0, errors[-3000:]


def test_a_live_room_over_real_sockets_answers_every_bad_message(fuzz_server: Server) -> None:
    # Its own thread and loop: Playwright's synchronous API may already run an event loop in this one.
    with ThreadPoolExecutor(1) as worker:
        tally = worker.submit(asyncio.run, ws_fuzz(fuzz_server.url, 160, seed=4, max_cards=40)).result(timeout=300)
    assert_clean(tally, "websockets")
    assert fuzz_server.process.poll() is None
    for category in ("malformed", "oversized", "other_seat", "out_of_order", "flood", "abrupt_disconnect"):
        assert tally.sent[category] > 0, (category, tally.sent)
