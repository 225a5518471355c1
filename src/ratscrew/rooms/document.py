"""What a room keeps, and where: the room document a journal holds, and the journal's interface.

A room is kept as its lobby (seats, rules, settings, tokens) and a few counters; its game is kept as the
seed here plus the actions the journal writes as they are applied. ``rooms/journal.py`` keeps all of it in
the SQLite file; tests may keep nothing. The document says which version of its shape it is (``version``):
one written by an older server lacks the newer fields, and opens with their defaults.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from ratscrew.errors import MalformedInput
from ratscrew.record import Record
from ratscrew.rooms.matched import Match
from ratscrew.rooms.seating import RoomOptions, SeatInfo
from ratscrew.rooms.wire import GameSummary, Phase, RatingChange, SeatKind
from ratscrew.rules.io import rules_from_mapping, rules_to_mapping
from ratscrew.rules.model import Rules
from ratscrew.shapes import from_json, to_json

log = logging.getLogger(__name__)

# What pages and answers say while the journal cannot keep what it is given (a full disk, a failing one).
NOT_SAVING = "the server cannot save games just now"
NO_NEW_GAME = f"{NOT_SAVING}: no new game can start until it can; try again later"
GAME_WAITS = f"{NOT_SAVING}: this game goes on from its last saved move once it can; come back later"

# The room document's shape: 1 (no "version" field) until it kept ``rematch_by``; 2 since; 3 since it keeps
# the seats a stand-in holds, and for a Play-now table its ``match`` and its game's rating changes.
DOC_VERSION = 3


class Journal(Protocol):
    """Where a room keeps what must survive a restart (the SQLite journal, or nothing in some tests)."""

    def room(self, code: str, room: KeptRoom) -> None: ...

    def actions(self, code: str, game_no: int, start: int, actions: list[object], seq: int) -> None: ...

    def finished(self, code: str, game_id: str, record: Record, summary: GameSummary) -> None: ...

    def healthy(self) -> bool:
        """Whether what the room is given to keep is being kept (a room starts no game while it is not)."""
        ...


class NoJournal:
    def room(self, code: str, room: KeptRoom) -> None:
        pass

    def actions(self, code: str, game_no: int, start: int, actions: list[object], seq: int) -> None:
        pass

    def finished(self, code: str, game_id: str, record: Record, summary: GameSummary) -> None:
        pass

    def healthy(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class KeptRoom:
    """A room as its journal keeps it (the game itself is its seed plus its actions, kept beside it)."""

    code: str
    phase: Phase
    seats: list[SeatInfo]
    rules: Rules
    options: RoomOptions
    paused: bool
    host_token: str
    tokens: dict[str, frozenset[int]]
    game_no: int
    seed: int
    reactions: dict[int, list[int]]  # each person's reaction times, carried over from game to game
    summary: GameSummary | None
    rematch_by: int | None = None  # in the lobby after a game, the seat that asked for the rematch
    match: Match | None = None  # a Play-now table's people (accounts too): kept here, never sent to a page
    rated: tuple[RatingChange, ...] | None = None  # its game's rating changes, once recorded

    def to_doc(self) -> dict[str, object]:
        return {
            "version": DOC_VERSION,
            "code": self.code,
            "phase": self.phase.value,
            "seats": [s.to_doc() for s in self.seats],
            "ready": [s.ready for s in self.seats],
            "rules": rules_to_mapping(self.rules, full=True),
            "public": self.options.public,
            "standins": self.options.standins,
            "bot_pace": self.options.bot_pace,
            "pausable": self.options.pausable,
            "paused": self.paused,
            "host_token": self.host_token,
            "tokens": {t: sorted(s) for t, s in self.tokens.items()},
            "game_no": self.game_no,
            "seed": self.seed,
            "reactions": {str(k): v for k, v in self.reactions.items()},
            "summary": None if self.summary is None else self.summary.to_json(),
            "rematch_by": self.rematch_by,
            "standin_seats": [i for i, s in enumerate(self.seats) if s.standin],
            "stood_in_seats": [i for i, s in enumerate(self.seats) if s.stood_in],
            "match": None if self.match is None else self.match.to_doc(),
            "rated": None if self.rated is None else to_json(self.rated),
        }

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> KeptRoom:
        """The document read back (the journal's own, so its shape is trusted; older ones lack newer fields)."""
        ready = doc.get("ready", [])
        standins = set(doc.get("standin_seats", ()))  # since version 3
        stood_in = set(doc.get("stood_in_seats", standins))  # since 2026-12: before, a held seat was all it knew
        seats = [
            SeatInfo(
                SeatKind(item["kind"]),
                str(item["name"]),
                item.get("level"),
                bool(i < len(ready) and ready[i]),
                standin=i in standins,
                stood_in=i in stood_in,
            )
            for i, item in enumerate(doc["seats"])
        ]
        options = RoomOptions(
            bool(doc.get("public")),
            bool(doc.get("standins", True)),
            float(doc.get("bot_pace", 1.0)),
            bool(doc.get("pausable", False)),
        )
        summary = _summary(doc.get("summary"), doc.get("code"))
        rematch_by = doc.get("rematch_by")  # since version 2
        match, rated = doc.get("match"), doc.get("rated")  # since version 3
        return cls(
            code=str(doc["code"]),
            phase=Phase(str(doc.get("phase", Phase.LOBBY.value))),
            seats=seats,
            rules=rules_from_mapping(doc["rules"]),
            options=options,
            paused=bool(doc.get("paused", False)),
            host_token=str(doc["host_token"]),
            tokens={str(t): frozenset(int(s) for s in held) for t, held in doc["tokens"].items()},
            game_no=int(doc.get("game_no", 0)),
            seed=int(doc.get("seed", 0)),
            reactions={int(k): [int(x) for x in v] for k, v in doc.get("reactions", {}).items()},
            summary=summary,
            rematch_by=rematch_by if isinstance(rematch_by, int) else None,
            match=None if match is None else Match.from_doc(match),
            rated=None if rated is None else from_json(tuple[RatingChange, ...], rated, where="rated"),
        )


def _summary(doc: object, code: object) -> GameSummary | None:
    """The last game's summary as the room kept it; one that cannot be read is left out (and logged): a room
    that was playing counts it again from its game, and the finished game's own is kept with its record."""
    if doc is None:
        return None
    try:
        return GameSummary.from_json(doc)
    except MalformedInput as exc:
        log.warning("room %s: its last game's summary cannot be read, left out: %s", code, exc)
        return None
