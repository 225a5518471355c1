"""The project's errors: each says what was wrong and what was expected, in one line.

Three kinds, because callers handle them differently: input that cannot be read at all
(:class:`NotationError`, :class:`RulesError`, :class:`RecordError`), an action the rules do not allow
in the current state (:class:`IllegalAction`), and an input that arrived too late or from the wrong
seat, which is no error at all: the live table answers it with a ``table.Rejected`` value and goes on.
"""

from __future__ import annotations


class RatscrewError(Exception):
    """Base of every error the project raises on purpose; the command line turns it into exit code 2."""


class NotationError(RatscrewError, ValueError):
    """A card, hand or deal that cannot be read, or holds more copies of a card than the deck."""


class RulesError(RatscrewError, ValueError):
    """An unknown rules key, a value of the wrong type, or a value outside the allowed set."""


class RecordError(RatscrewError, ValueError):
    """A game record that is not valid JSON or not a ``ratscrew-record/1`` document."""


class IllegalAction(RatscrewError):
    """An action the rules do not allow now: a flip after the game is over, a slap by a seat that is out."""
