"""What an account may be called: 3 to 20 letters, digits, ``.``, ``_`` or ``-``; one name whatever its case;
never what a computer player is called.

Letters are the Latin alphabet's only: names are told apart without regard to case, and two names that look
alike in another script (a Cyrillic ``а`` for a Latin ``a``) would otherwise be two accounts a player cannot
tell apart. A name looks like a computer's when, without its dots, dashes and underscores and without the
digits it ends with, it is a level's name or a strategy's (``hard``, ``risk-faces``), a level's label in any
language (``Schwer``), or the word a table calls its computers by (``Computer 2``, ``Ordinateur 2``): so a
person is never taken for a computer at a table, in a history or on a leaderboard.

>>> check_name("Zoé")
Traceback (most recent call last):
...
ratscrew.accounts.names.BadName: a name may hold only letters a-z, digits, '.', '_' and '-': 'é' is not one
>>> check_name("ann_42")
'ann_42'
"""

from __future__ import annotations

import re
from functools import cache

from ratscrew.bots.registry import LEVEL_NAMES, STRATEGY_NAMES
from ratscrew.errors import BadRequest
from ratscrew.i18n import LANGUAGES, catalog, text

MIN_NAME = 3
MAX_NAME = 20
ALLOWED = re.compile(r"[A-Za-z0-9._-]+")
_NOT_ALLOWED = re.compile(r"[^A-Za-z0-9._-]")
_SEPARATORS = re.compile(r"[._-]")


class BadName(BadRequest):
    """A name an account cannot have; ``extra`` tells the page the field and the rule (it says it in its language)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.extra = {"field": "name", "code": code}


def name_key(name: str) -> str:
    """The form two names are compared in: the same account whatever the case."""
    return name.lower()


def check_name(value: object) -> str:
    """``value`` if an account may be called so, else BadName saying what is wrong."""
    if not isinstance(value, str) or not value:
        raise BadName(f"a name is {MIN_NAME} to {MAX_NAME} letters, digits, '.', '_' or '-'", "name_missing")
    if len(value) < MIN_NAME or len(value) > MAX_NAME:
        raise BadName(f"a name is {MIN_NAME} to {MAX_NAME} characters long, got {min(len(value), 999)}", "name_length")
    wrong = _NOT_ALLOWED.search(value)
    if wrong is not None:
        raise BadName(
            f"a name may hold only letters a-z, digits, '.', '_' and '-': {wrong.group()!r} is not one", "name_chars"
        )
    if looks_like_a_computer(value):
        raise BadName(f"{value!r} is what a computer player is called: choose another name", "name_computer")
    return value


def looks_like_a_computer(name: str) -> bool:
    """Whether ``name`` reads as a computer player's (see the module's text).

    >>> [looks_like_a_computer(n) for n in ("Hard", "computer_2", "Risk-Faces", "Leicht7", "Hardy", "ann")]
    [True, True, True, True, False, False]
    """
    core = _SEPARATORS.sub("", name.lower()).rstrip("0123456789")
    return core in computer_words()


@cache
def computer_words() -> frozenset[str]:
    """Every word a computer player goes by, lower-case and without separators: the registry's level and
    strategy names, and in every language the levels' labels and the word of a computer's seat name."""
    words = {*LEVEL_NAMES, *STRATEGY_NAMES}
    for lang in LANGUAGES:
        words.update(catalog(lang).get(f"level.{level}", level) for level in LEVEL_NAMES)
        words.add(text(lang, "setup.computer_n", n=""))
    return frozenset(_SEPARATORS.sub("", w.lower()).replace(" ", "").rstrip("0123456789") for w in words)
