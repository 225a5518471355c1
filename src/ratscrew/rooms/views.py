"""What pages see of a room: the room with its seats, as every lobby, welcome and whole state carries it.

Everyone sees the same room: the seats with who sits there (and which is the host's) and whether they are
connected, the rules, and while a game is played the decision window and whose link widens it. The table's
own state comes from the game in play (``play.py``), the messages themselves from ``wire``.
"""

from __future__ import annotations

from ratscrew.rooms import wire
from ratscrew.rooms.pages import Pages
from ratscrew.rooms.seating import Seating
from ratscrew.rooms.wire import Phase, SeatKind
from ratscrew.rules.io import RulesDoc, rules_to_mapping
from ratscrew.rules.model import Rules


class RulesDocs:
    """The rules as pages see them, worked out once for each set of rules (every lobby, welcome and whole
    state holds them, and a room's rules change only in its lobby)."""

    def __init__(self) -> None:
        self._last: tuple[Rules, RulesDoc] | None = None

    def of(self, rules: Rules) -> RulesDoc:
        if self._last is None or self._last[0] is not rules:
            self._last = (rules, rules_to_mapping(rules, full=True))
        return self._last[1]


def seat_views(seating: Seating, pages: Pages) -> tuple[wire.SeatView, ...]:
    latencies = pages.latencies(len(seating.seats))
    return tuple(
        wire.SeatView(
            seat.kind,
            seat.name,
            seat.level,
            seat.ready,
            seat.kind is SeatKind.BOT or pages.connected(index),
            latencies[index],
            seat.standin,
        )
        for index, seat in enumerate(seating.seats)
    )


def room_view(
    code: str,
    phase: Phase,
    seating: Seating,
    pages: Pages,
    rules: RulesDoc,
    *,
    game: str | None,
    window_ms: int | None,
    waits_for: int | None,
    matched: bool = False,
    rated: bool = False,
) -> wire.RoomView:
    """The room: ``rules`` is its rules' document, ``game`` the id of its game, ``window_ms`` and
    ``waits_for`` the decision window and whose link widens it (None but while a game is played)."""
    options = seating.options
    return wire.RoomView(
        code,
        phase,
        options.public,
        options.standins,
        options.pausable,
        seat_views(seating, pages),
        rules,
        seating.rules.preset,
        game,
        window_ms,
        waits_for,
        seating.rematch_by if phase is Phase.LOBBY else None,
        min(seating.tokens.get(seating.host_token, frozenset()), default=None),
        matched,
        rated,
    )
