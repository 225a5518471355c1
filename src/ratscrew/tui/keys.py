"""The table's keys, as the page's: F or Space turns your card and J slaps; two players at one keyboard use A
and S, and L and K; P pauses a game against the computer. Which seat a key plays, and the hints of the keys
that do something now.
"""

from __future__ import annotations

from dataclasses import dataclass

from ratscrew.rooms import wire
from ratscrew.tui.model import TableModel
from ratscrew.tui.words import Words

SOLO = (("f", "space"), ("j",))
SHARED = ((("a",), ("s",)), (("l",), ("k",)))  # two players at one keyboard: each their own pair of keys


@dataclass
class Keys:
    words: Words
    model: TableModel
    online: bool = False
    watching: bool = False

    def keys_for(self, index: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The flip keys and the slap keys of the ``index``-th seat this terminal plays."""
        if len(self.model.yours) == 1:
            return SOLO
        flip, slap = SHARED[index] if index < len(SHARED) else ((), ())
        return flip, slap

    def seat_flipped_by(self, key: str) -> int | None:
        return self._seat(key, 0)

    def seat_slapped_by(self, key: str) -> int | None:
        return self._seat(key, 1)

    def _seat(self, key: str, which: int) -> int | None:
        for index, seat in enumerate(self.model.yours):
            if key in self.keys_for(index)[which]:
                return seat
        return None

    def label(self, key: str) -> str:
        return self.words.t("game.key.space") if key == "space" else key.upper()

    def hints(self) -> list[str]:
        """The keys that do something now, in words."""
        model, t = self.model, self.words.t
        room = model.room
        hints: list[str] = []
        table = model.table
        if table is not None and not table.over and model.yours:
            names = model.names()
            for index, seat in enumerate(model.yours):
                flip, slap = self.keys_for(index)
                turn = t("tui.keys.turn", keys="/".join(self.label(k) for k in flip))
                hit = t("tui.keys.slap", keys="/".join(self.label(k) for k in slap))
                if len(model.yours) > 1:
                    hints.append(t("tui.keys.player", name=self.words.seat_name(names, seat), turn=turn, slap=hit))
                else:
                    hints += [turn, hit]
            if room is not None and room.pausable:
                hints.append(t("tui.keys.resume" if table.paused else "tui.keys.pause"))
        elif room is not None and room.phase is wire.Phase.LOBBY and self.online and not self.watching:
            if model.yours:
                mine = room.seats[min(model.yours)] if min(model.yours) < len(room.seats) else None
                hints.append(t("tui.keys.stand"))
                hints.append(t("tui.keys.not_ready" if mine is not None and mine.ready else "tui.keys.ready"))
                if model.host:
                    hints.append(t("tui.keys.start"))
            elif any(seat.kind is wire.SeatKind.EMPTY for seat in room.seats):
                hints.append(t("tui.keys.sit"))
        if model.summary is not None and model.yours and (room is None or room.phase is wire.Phase.OVER):
            hints.append(t("tui.keys.rematch" if self.online else "tui.keys.again"))
            hints.append(t("tui.keys.summary"))
        hints += [t("tui.keys.help"), t("tui.keys.quit")]
        return hints
