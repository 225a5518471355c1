"""One spelling per word: event kinds and reasons are enums, events round-trip through JSON, and the golden
corpus and docs/vocabulary.md list every member (a new kind or reason fails here until both say it)."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path

import pytest

from harness.vocabulary_games import random_games
from ratscrew.engine import events as ev
from ratscrew.engine.events import EVENT_TYPES, Event, EventKind, event_from_dict
from ratscrew.engine.outcome import Ending, Result
from ratscrew.errors import RecordError
from ratscrew.record import Record
from ratscrew.table.table import RejectCode, TimerKind

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((ROOT / "tests" / "golden" / "events.json").read_text(encoding="utf-8"))
REASONS: tuple[type[StrEnum], ...] = (ev.ChallengeWin, ev.StopReason, ev.DismissReason, ev.WonBy, ev.OutReason)
VOCABULARIES: tuple[type[StrEnum], ...] = (EventKind, *REASONS, Result, Ending, RejectCode, TimerKind)


def test_every_event_class_has_its_kind_and_the_kinds_cover_every_class() -> None:
    classes = {c for c in vars(ev).values() if isinstance(c, type) and issubclass(c, Event) and c is not Event}
    assert classes == set(EVENT_TYPES.values())
    assert set(EVENT_TYPES) == set(EventKind)
    assert all(cls.kind is kind for kind, cls in EVENT_TYPES.items())


@pytest.mark.parametrize("doc", GOLDEN, ids=lambda d: str(d["kind"]))
def test_golden_events_round_trip(doc: dict[str, object]) -> None:
    event = event_from_dict(doc)
    assert event.to_dict() == doc
    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_golden_corpus_shows_every_kind_and_every_reason() -> None:
    values = {json.dumps(v) for doc in GOLDEN for v in _leaves(doc)}
    assert {doc["kind"] for doc in GOLDEN} == set(EventKind)
    shown: tuple[type[StrEnum], ...] = (*REASONS, Result, Ending)
    for vocabulary in shown:
        for member in vocabulary:
            assert json.dumps(member.value) in values, f"no golden event shows {vocabulary.__name__}.{member.name}"


def test_docs_list_every_member_of_every_vocabulary() -> None:
    page = (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    for vocabulary in VOCABULARIES:
        assert f"`{vocabulary.__name__}`" in page
        for member in vocabulary:
            assert f"`{member.value}`" in page, f"docs/vocabulary.md does not list {vocabulary.__name__}.{member.name}"


def test_events_and_records_of_random_games_round_trip_and_reach_every_kind_and_reason() -> None:
    # 500 games reach every event kind and every reason (the endings by time, loop and draw are rare in games
    # this short; the golden corpus shows those from real games), so more games would prove nothing more.
    games = 0
    events = 0
    seen: set[str] = set()
    for record, played in random_games(500, max_actions=200):
        games += 1
        assert Record.loads(record.dumps()).to_json() == record.to_json()
        for event in played:
            events += 1
            doc = json.loads(json.dumps(event.to_dict()))
            assert event_from_dict(doc) == event
            seen.update(json.dumps(leaf) for leaf in _leaves(doc))
    assert games == 500 and events > 50_000
    reached: tuple[type[StrEnum], ...] = (EventKind, *REASONS)
    for vocabulary in reached:
        for member in vocabulary:
            assert json.dumps(member.value) in seen, f"no random game showed {vocabulary.__name__}.{member.name}"


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        ({"kind": "card_flipped"}, "unknown event kind 'card_flipped'"),
        ({"kind": 3}, "unknown event kind 3"),
        ({"kind": "card_turned", "seat": 0, "card": "QH"}, "card_turned event is malformed"),
        ({"kind": "card_turned", "seat": "0", "card": "QH", "number": 1}, "a seat must be a whole number"),
        ({"kind": "player_out", "seat": 1, "reason": "wrong-slap"}, "player_out event is malformed"),
        ({"kind": "card_turned", "seat": 0, "card": "QH", "number": 1, "extra": 1}, "has no field 'extra'"),
        ({"kind": "card_turned", "seat": 0, "card": "ZZ", "number": 1}, "card_turned event is malformed"),
    ],
)
def test_bad_event_documents_say_what_is_wrong(doc: dict[str, object], says: str) -> None:
    with pytest.raises(RecordError, match=says):
        event_from_dict(doc)


def _leaves(doc: object) -> list[object]:
    if isinstance(doc, dict):
        return [leaf for value in doc.values() for leaf in _leaves(value)]
    if isinstance(doc, list):
        return [leaf for value in doc for leaf in _leaves(value)]
    return [doc]
