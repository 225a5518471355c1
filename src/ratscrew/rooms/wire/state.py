"""What a page is shown of the game at a table: the seats' view of it, and the table's clocks around it.

:class:`GameView` is the engine's :class:`~ratscrew.engine.view.View` as it is sent (every field but the
rules, which the room sends once, with the lobby); :class:`TableState` adds the table's clock, its windows and
whether it is paused. A room with no game dealt yet sends :class:`NoTable`, an empty object.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ratscrew.cards import Card
from ratscrew.engine.game import Lockout
from ratscrew.engine.view import View
from ratscrew.shapes import Shape


@dataclass(frozen=True, slots=True)
class GameView(Shape):
    """What one seat (or a spectator) may see of the game: the face-up pile, the stacks' sizes, whose turn."""

    seat: int | None  # None: a spectator
    pile: tuple[Card, ...]  # bottom first
    burned_visible: tuple[Card, ...]  # burned cards, when the rules turn them face up (slaps.burned_count)
    burned_count: int
    stack_sizes: tuple[int, ...]
    out: tuple[bool, ...]
    # Per seat, how long its slaps are set aside after a wrong slap under a lockout: so many more cards
    # turned, until a pile is won ("pile"), or not at all (None).
    locked: tuple[Lockout, ...]
    turn: int
    owed: int
    challenger: int | None
    collect_pending: int | None
    cards: int
    tricks: int
    over: bool

    @classmethod
    def of(cls, view: View) -> GameView:
        return cls(*(getattr(view, name) for name in VIEW_FIELDS))


VIEW_FIELDS = tuple(f.name for f in fields(GameView))


@dataclass(frozen=True, slots=True)
class TableState(GameView):
    """The table as a room sends it: the view, and the table's clocks."""

    now: int  # the table's clock, in ms since the deal
    collect_delay_ms: int
    hold_ms: int  # the decision window: the table holds every input this long
    paused: bool

    @classmethod
    def at(cls, view: View, *, now: int, collect_delay_ms: int, hold_ms: int, paused: bool) -> TableState:
        v = view  # every field named, in order (a room builds one for every message it sends with the state)
        return cls(
            v.seat,
            v.pile,
            v.burned_visible,
            v.burned_count,
            v.stack_sizes,
            v.out,
            v.locked,
            v.turn,
            v.owed,
            v.challenger,
            v.collect_pending,
            v.cards,
            v.tricks,
            v.over,
            now,
            collect_delay_ms,
            hold_ms,
            paused,
        )


@dataclass(frozen=True, slots=True)
class NoTable(Shape):
    """A room with no game dealt yet: its state is an empty object."""


NO_TABLE = NoTable()
RoomState = TableState | NoTable
