"""Which requests must reach one particular worker: the one description the proxies' configurations are
written from (``nginx.py``, ``haproxy.py``, ``caddy.py``), so that they cannot drift apart.

A request is *keyed* when its path carries a key: a room code (``/ws/rooms/{code}``, ``/api/rooms/{code}``,
``/api/games/{code}-...``: a game's id starts with its room's code) or a score-keeper match's id
(``/api/matches/{id}``). Every request with one key goes to one worker. For room codes that worker is the
one the workers themselves compute (``ring.py``), since the worker creating a room picks a code it holds;
for a match any fixed worker will do (its lock keeps two phones' taps on one match in order). Requests
without a key (pages, the open lobby, creating a room) may go to any worker, and to another one when the first
refuses the connection (it is restarting); a keyed request may not, since no other worker holds its room.

With ``--routing hash`` the proxy (nginx) hashes the key; with ``--routing letters`` it matches the key's
first character against each worker's letters, which any proxy can write as a path pattern.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from ratscrew.errors import BadRequest
from ratscrew.hosting.ring import Letters
from ratscrew.hosting.settings import Hosting
from ratscrew.rooms.runner import CODE_ALPHABET

MATCH_ALPHABET = string.digits + "abcdef"  # a match's id is hexadecimal (web/store.py)


@dataclass(frozen=True)
class Keyed:
    """Paths of the form ``before`` + key + (anything else): regular expressions, PCRE and RE2 alike."""

    name: str
    before: str
    key: str  # the key's characters
    alphabet: str  # the characters a key may start with

    def with_first(self, letters: str) -> str:
        """A pattern for the paths whose key starts with one of ``letters``."""
        return f"{self.before}[{letters}]"


KEYED = (
    Keyed("room", "/(?:ws|api)/rooms/", "[^/]+", CODE_ALPHABET),
    Keyed("game", "/api/games/", "[^/-]+", CODE_ALPHABET),
    Keyed("match", "/api/matches/", "[^/]+", MATCH_ALPHABET),
)


def keyed_pattern() -> str:
    """One regular expression for every keyed path, whichever worker holds its key."""
    return "^(?:" + "|".join(f"{keyed.before}{keyed.key}" for keyed in KEYED) + ")"


def worker_pattern(hosting: Hosting, worker: int) -> str:
    """With the letters routing: one regular expression for every keyed path ``worker`` answers (to be
    matched without regard to case, as ``Letters`` reads codes)."""
    letters = Letters(len(hosting.ports))
    return "^(?:" + "|".join(keyed.with_first(letters.letters(worker, keyed.alphabet)) for keyed in KEYED) + ")"


def check_letters(hosting: Hosting, proxy: str) -> None:
    """HAProxy and Caddy cannot compute nginx's hash: the workers must route by letters for them."""
    if hosting.routing != "letters":
        raise BadRequest(
            f"{proxy} cannot compute nginx's hash: start the workers with --routing letters "
            f"and print the {proxy} configuration with it too"
        )
