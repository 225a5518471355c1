"""A room the Play-now matchmaker made for one of its tables: who sits where, kept with the room, never shown.

The matchmaker seats people it knows by a key of its own (``who``: an account's, or a hash of a guest's
queue token) and rated tables by their accounts. The room keeps both, by seat, in its document, so that
whichever worker ends the game (after a restart too) can record the result and free the table; pages and
records only ever see the seats' names.

Such a room has no host and no lobby to settle: the pool chose the rules and the size. Its game starts once
every person has said hello, or ``START_WAIT_MS`` after the room opened, a stand-in holding the seat of
whoever has not come (who then counts as replaced, unless they come and take it back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Long enough for a page that polls the matchmaker every second to see its ticket and open the room's socket
# on a slow phone link (a second to see it, a few for the room's page and its socket), short enough that the
# one who came is not left looking at an empty lobby: the GRACE_MS a dropped player keeps their seat.
START_WAIT_MS = 15_000


@dataclass(frozen=True, slots=True)
class Match:
    """What the room keeps of the matchmaker's table, by seat."""

    table: int  # the matchmaker's number for it
    rated: bool
    players: tuple[int | None, ...]  # each seat's account id (None: a guest, or a computer)
    people: tuple[str | None, ...]  # each seat's person as the matchmaker knows them (None: a computer)

    def to_doc(self) -> dict[str, object]:
        return {"table": self.table, "rated": self.rated, "players": list(self.players), "people": list(self.people)}

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Match:
        return cls(
            int(doc["table"]),
            bool(doc["rated"]),
            tuple(None if p is None else int(p) for p in doc["players"]),
            tuple(None if p is None else str(p) for p in doc["people"]),
        )
