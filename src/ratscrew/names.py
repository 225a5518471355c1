"""What people type to be shown to others, cleaned one way everywhere: players' names at a table, in a room,
in the score keeper, and a match's name.

A name is shown as its person typed it, as far as that can be done safely: letters, marks, digits,
punctuation and emoji stay, a family or a flag built of several emoji stays whole (the zero-width joiner
that binds it is kept), and words stay apart (any space, a non-breaking one or a tab, becomes one space,
and runs of them one). Control, format and private characters are dropped: they could hide text, or turn
the rest of a line around (a right-to-left override). A name longer than its limit is refused, with the
limit, rather than cut: a cut could split a word or an emoji, and the page never sends more (its fields
stop at the limit). The pages escape whatever they show.

>>> clean_name("  Zoé\\u0007  ", "Player 1"), clean_name("", "Player 1")
('Zoé', 'Player 1')
>>> clean_text("Jean\\u00a0 Luc \\u202e👩\\u200d👩\\u200d👧", "name", MAX_NAME)
'Jean Luc 👩\\u200d👩\\u200d👧'
"""

from __future__ import annotations

import unicodedata

from ratscrew.errors import MalformedInput, json_type

MAX_NAME = 24  # a player's name, everywhere
ZERO_WIDTH_JOINER = "\u200d"


def clean_text(value: object, field: str, limit: int, *, error: type[MalformedInput] = MalformedInput) -> str:
    """``value`` as text to show (possibly empty); ``error`` says what was wrong when it is not text or is
    longer than ``limit`` characters once cleaned."""
    if not isinstance(value, str):
        raise error(f"{field} must be text, got {json_type(value)}")
    kept = "".join(" " if ch.isspace() else ch for ch in value if _shown(ch))
    text = " ".join(kept.split())
    if len(text) > limit:
        raise error(f"{field} is too long ({len(text)} characters): at most {limit}")
    return text


def clean_name(value: object, fallback: str, *, error: type[MalformedInput] = MalformedInput) -> str:
    """A player's name, or ``fallback`` for none at all (null, or nothing but spaces)."""
    if value is None:
        return fallback
    return clean_text(value, "a name", MAX_NAME, error=error) or fallback


def _shown(ch: str) -> bool:
    return ch.isspace() or ch == ZERO_WIDTH_JOINER or unicodedata.category(ch)[0] != "C"
