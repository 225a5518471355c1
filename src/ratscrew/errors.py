"""The project's one error tree: each error says what was expected and what arrived, in one line.

Callers handle errors by kind, so the kinds are the tree's branches:

- :class:`MalformedInput`: input that cannot be read at all (a card, a rules key, a record, a request body,
  a websocket message).
- :class:`IllegalAction`: a well-formed action the rules do not allow in the current state.
- :class:`NotFound`: no game, room, match or page by that name.
- :class:`Conflict`: the request clashes with what is already there (a finished match, a full room).
- :class:`Forbidden`: the caller may not do this (a seat or a match that is not theirs).
- :class:`TooMany`: a rate or size limit was reached; try again later.
- :class:`Unavailable`: the server cannot do this just now (it cannot save games); try again later.

An input that came too late or from a seat that was not due is not an error: the live table says no to it
with a ``table.Rejected`` value (a ``RejectCode`` and a reason), and play goes on.

HTTP statuses and exit codes are mapped from these branches in one place each: ``web/errors.py`` and
``cli/app.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")


class RatscrewError(Exception):
    """Base of every error the project raises on purpose; the command line turns it into exit code 2."""


class MalformedInput(RatscrewError, ValueError):
    """Input that cannot be read: the message says what was expected and what arrived."""


class NotationError(MalformedInput):
    """A card, hand or deal that cannot be read, or holds more copies of a card than the deck."""


class RulesError(MalformedInput):
    """An unknown rules key, a value of the wrong type, or a value outside the allowed set."""


class RecordError(MalformedInput):
    """A game record that is not valid JSON or not a ``ratscrew-record/1`` document."""


class BadRequest(MalformedInput):
    """An HTTP request body or query that is unreadable, or a field that is wrong."""


class BadMessage(MalformedInput):
    """A websocket message that is not JSON, too large, or not one of the protocol's messages."""


class IllegalAction(RatscrewError):
    """An action the rules do not allow now: a flip after the game is over, a slap by a seat that is out."""


class NotFound(RatscrewError, LookupError):
    """No game, room, match or page with that name."""


class Conflict(RatscrewError):
    """The request clashes with the current state, e.g. a round added to a finished match."""


class Forbidden(RatscrewError):
    """The caller may not do this: the seat, room or match belongs to someone else."""


class TooMany(RatscrewError):
    """A rate or size limit was reached: too many rooms, connections or messages."""


class Unavailable(RatscrewError):
    """The server cannot do this just now: its rooms' journal cannot keep what it is given (a full disk)."""


def by_branch(exc: RatscrewError, table: Mapping[type[RatscrewError], T], default: T) -> T:
    """What ``table`` says for the branch of the tree ``exc`` belongs to (``default`` for the bare root)."""
    for kind in type(exc).__mro__:
        if kind in table:
            return table[kind]
    return default


def json_type(value: object) -> str:
    """How a JSON value is named in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"
