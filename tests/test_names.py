"""One rule for every name people type (``ratscrew/names.py``): a seat taken in a room, a game's players, a
room's host and the score keeper's players and matches all keep a name as it was typed, words apart and
emoji whole, without the characters that hide or reverse text, and refuse one over the limit rather than
cut it."""

from __future__ import annotations

import json

import pytest

from ratscrew.errors import BadMessage, BadRequest, MalformedInput
from ratscrew.names import MAX_NAME, clean_name, clean_text
from ratscrew.rooms import wire
from ratscrew.web.games import parse_setup
from ratscrew.web.scores import parse_players

FAMILY = "👩\u200d👩\u200d👧"  # one emoji, three people bound by zero-width joiners


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("  Zoé  ", "Zoé"),
        ("Jean\u00a0Luc", "Jean Luc"),  # a non-breaking space keeps the words apart
        ("Ann\tLee \n", "Ann Lee"),
        ("Bo   Li", "Bo Li"),
        (f"{FAMILY} Mia", f"{FAMILY} Mia"),  # the family stays one emoji
        ("🇫🇷 Luc", "🇫🇷 Luc"),
        ("\u202eevil", "evil"),  # a right-to-left override would turn the rest of the line around
        ("A\u200bB\u0000C\u0007", "ABC"),  # zero-width space, controls
        ("\ue000Priv", "Priv"),  # private use
    ],
)
def test_a_name_is_kept_as_typed_without_what_hides_or_turns_text(typed: str, shown: str) -> None:
    assert clean_text(typed, "name", MAX_NAME) == shown
    # The same wherever it is typed: a seat in a room, a game against the computer, the score keeper.
    assert wire.parse_client(json.dumps({"type": "sit", "seat": 1, "name": typed})) == wire.Sit(1, shown)
    seats, *_ = parse_setup({"seats": [{"name": typed}, {"kind": "bot", "level": "easy"}]})
    assert seats[0].name == shown
    assert parse_players([typed, "Other"])[0] == shown


def test_no_name_at_all_is_the_fallback() -> None:
    assert clean_name(None, "Player 2") == clean_name(" \u202e ", "Player 2") == "Player 2"


def test_a_name_over_the_limit_is_refused_with_the_limit_never_cut() -> None:
    long = "B" * (MAX_NAME + 1)
    with pytest.raises(MalformedInput, match=f"too long \\(25 characters\\): at most {MAX_NAME}"):
        clean_text(long, "name", MAX_NAME)
    with pytest.raises(BadMessage, match="a name is too long"):
        wire.parse_client(json.dumps({"type": "sit", "seat": 1, "name": long}))
    with pytest.raises(BadRequest, match="a name is too long"):
        parse_setup({"seats": [{"name": long}, {"kind": "bot", "level": "easy"}]})
    assert clean_text("B" * MAX_NAME + "   ", "name", MAX_NAME) == "B" * MAX_NAME  # spaces around do not count


def test_a_name_that_is_not_text_says_what_it_got() -> None:
    with pytest.raises(BadMessage, match="a name must be text, got a list"):
        wire.parse_client(json.dumps({"type": "sit", "seat": 1, "name": ["x"]}))
