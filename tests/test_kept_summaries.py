"""Summaries kept by older servers still read: a game's summary is a typed value now (``wire.GameSummary``), and
the journal and the store hold ones written before its races had their last figures. Those open with the
figures left null; one that cannot be read at all is left out of the history and logged, and the file
keeps it, never failing the page that asks."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from harness.games import played_record
from ratscrew.record import Record
from ratscrew.rooms import wire
from ratscrew.rooms.core import RoomCore
from ratscrew.rooms.document import KeptRoom
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock
from ratscrew.web.store import Store

# A race as servers before protocol 4 wrote it: no echo_rtt, no tcp_rtt.
OLD_SLAP = {
    "seat": 1,
    "card": 14,
    "verdict": "slap_correct",
    "received": 9000,
    "sent": 8600,
    "reaction": 310,
    "reported_lag": 90,
    "rtt": 80,
    "quota": 400,
    "compensation": 88,
    "landed": 8912,
}
PLAYER = {
    "seat": 0,
    "name": "Ana",
    "bot": None,
    "cards": 52,
    "piles_by_slap": 1,
    "piles_by_challenge": 2,
    "wrong_slaps": 0,
    "reaction_ms": [300, 320],
    "median_reaction_ms": 310.0,
}
OLD_SUMMARY = {
    "game": "OLDSUM",
    "result": "win",
    "winner": 0,
    "reason": "Ana holds every card",
    "how": "all_cards",
    "cards": 120,
    "tricks": 14,
    "ms": 90_000,
    "players": [PLAYER, {**PLAYER, "seat": 1, "name": "Bo", "cards": 0, "reaction_ms": []}],
    "out_order": [1],
    "races": [{"card": 14, "slaps": [OLD_SLAP, {**OLD_SLAP, "seat": 0, "verdict": None, "landed": 8950}]}],
}


def test_an_older_summary_reads_with_its_missing_figures_null() -> None:
    summary = wire.GameSummary.from_json(OLD_SUMMARY)
    slap = summary.races[0].slaps[0]
    assert (slap.landed, slap.echo_rtt, slap.tcp_rtt) == (8912, None, None)
    assert summary.races[0].slaps[0].to_json() == {**OLD_SLAP, "echo_rtt": None, "tcp_rtt": None}


def test_a_room_kept_with_an_older_summary_opens_with_it() -> None:
    room = RoomCore("OLDSUM", ManualClock(), seats=[SeatInfo(), SeatInfo()], rules=Rules.build("standard"))
    doc = {**room.kept().to_doc(), "phase": "over", "game_no": 1, "summary": OLD_SUMMARY}
    again = RoomCore.restored(KeptRoom.from_doc(json.loads(json.dumps(doc))), ManualClock())
    assert again.summary is not None and again.summary.races[0].slaps[0].rtt == 80


def test_a_summary_that_cannot_be_read_is_left_out_of_the_history_and_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store(tmp_path / "store.sqlite3")
    record = Record.from_json(played_record())
    store.save_game("OLDSUM", record, wire.GameSummary.from_json(OLD_SUMMARY))
    store.save_game("BROKEN", record, wire.GameSummary.from_json({**OLD_SUMMARY, "game": "BROKEN"}))
    with sqlite3.connect(store.path) as db:  # damaged on disk
        db.execute("UPDATE games SET summary = ? WHERE id = 'BROKEN'", (json.dumps({"result": "win"}),))
    found = store.game_summaries(["OLDSUM", "BROKEN"])
    assert [game_id for game_id, _, _ in found] == ["OLDSUM"]
    assert "game BROKEN: its saved summary cannot be read" in caplog.text
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT summary FROM games WHERE id = 'BROKEN'").fetchone() == ('{"result": "win"}',)
