"""The rules engine: actions in, events out, no clocks, randomness or I/O."""

from ratscrew.engine.actions import Action, Flip, Millis, Seat, Slap, Wait
from ratscrew.engine.events import Event
from ratscrew.engine.game import Game
from ratscrew.engine.outcome import Loop, Outcome, Result

__all__ = ["Action", "Event", "Flip", "Game", "Loop", "Millis", "Outcome", "Result", "Seat", "Slap", "Wait"]
