"""What one seat may see: the face-up pile and everyone's stack sizes, never the cards in a stack.

Bots decide from a :class:`View` only, so they cannot peek; the browser is sent the same thing.
Burned cards lie face down, so only their number shows, unless ``slaps.burned_count`` makes them part
of the patterns (tables that play it turn them so everyone can see).
"""

from __future__ import annotations

from dataclasses import dataclass

from ratscrew.cards import Card
from ratscrew.engine.actions import Seat
from ratscrew.engine.game import Game, Lockout
from ratscrew.rules.model import Rules


@dataclass(frozen=True, slots=True)
class View:
    seat: Seat | None  # None: a spectator
    rules: Rules
    pile: tuple[Card, ...]
    burned_visible: tuple[Card, ...]
    burned_count: int
    stack_sizes: tuple[int, ...]
    out: tuple[bool, ...]
    locked: tuple[Lockout, ...]  # per seat: cards before its slaps count again, "pile", or None
    turn: Seat
    owed: int
    challenger: Seat | None
    collect_pending: Seat | None
    cards: int
    tricks: int
    over: bool

    @property
    def pattern_pile(self) -> tuple[Card, ...]:
        """The cards a player can check for patterns, bottom first."""
        return self.burned_visible[::-1] + self.pile

    def as_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "pile": [str(c) for c in self.pile],
            "burned_visible": [str(c) for c in self.burned_visible],
            "burned_count": self.burned_count,
            "stack_sizes": list(self.stack_sizes),
            "out": list(self.out),
            "locked": list(self.locked),
            "turn": self.turn,
            "owed": self.owed,
            "challenger": self.challenger,
            "collect_pending": self.collect_pending,
            "cards": self.cards,
            "tricks": self.tricks,
            "over": self.over,
        }


def view_for(game: Game, seat: Seat | None = None) -> View:
    visible = tuple(game.burned) if game.rules.slaps.burned_count else ()
    return View(
        seat=seat,
        rules=game.rules,
        pile=tuple(game.pile),
        burned_visible=visible,
        burned_count=len(game.burned),
        stack_sizes=tuple(len(s) for s in game.stacks),
        out=tuple(game.out),
        locked=tuple(game.lockout(s) for s in range(game.players)),
        turn=game.turn,
        owed=game.owed,
        challenger=game.challenger,
        collect_pending=game.collect_pending,
        cards=game.cards,
        tricks=game.tricks,
        over=game.over,
    )
