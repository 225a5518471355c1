"""``ratscrew tui`` put together: the table's language and colours, the room it plays (this process's, or an
online one reached first), the app run until the player quits, and everything put away after."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ratscrew.i18n import LANGUAGES
from ratscrew.tui.app import TableApp
from ratscrew.tui.local import LocalTable, Setup
from ratscrew.tui.online import Address, open_room
from ratscrew.tui.venue import LocalVenue, OnlineVenue, Venue, tokens_in
from ratscrew.tui.words import Words

NO_COLOUR_TERMS = ("dumb", "unknown")


def language(given: str | None, environ: Mapping[str, str]) -> str:
    """``--lang``, else the terminal's own language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

    >>> language(None, {"LANG": "de_CH.UTF-8"}), language("fr", {"LANG": "de_DE"}), language(None, {"LANG": "C"})
    ('de', 'fr', 'en')
    """
    if given:
        return given
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = environ.get(name, "")[:2].lower()
        if code in LANGUAGES:
            return code
    return "en"


def plain_wanted(flag: bool, environ: Mapping[str, str]) -> bool:
    """No colour: asked for, or NO_COLOR set (https://no-color.org), or a terminal that has none."""
    return flag or "NO_COLOR" in environ or environ.get("TERM", "") in NO_COLOUR_TERMS


@dataclass(frozen=True, slots=True)
class Local:
    setup: Setup
    data_dir: Path
    folder: str  # the data folder as the player would type it


@dataclass(frozen=True, slots=True)
class Online:
    address: Address
    data_dir: Path
    watching: bool
    name: str
    seat: int | None


def run(where: Local | Online, words: Words, plain: bool) -> int:
    if plain:
        os.environ["NO_COLOR"] = "1"  # Textual then draws its own parts without colour too
    return asyncio.run(_run(where, words, plain))


async def _run(where: Local | Online, words: Words, plain: bool) -> int:
    venue: Venue
    if isinstance(where, Online):
        tokens = tokens_in(where.data_dir)
        token = None if where.watching else tokens.get(where.address)
        # Reached before the terminal is taken over: what goes wrong here is one line (exit code 2).
        first = await open_room(where.address, token)
        venue = OnlineVenue(where.address, first, tokens, watching=where.watching, name=where.name, seat=where.seat)
    else:
        venue = LocalVenue(LocalTable(where.data_dir), where.setup, words, where.folder)
    app = TableApp(venue, words, plain=plain)
    try:
        await app.run_async()
    finally:
        await app.close()
    if app.failure is not None:
        # The table said it on the screen; the terminal is back, so it is said once more where it stays.
        print(f"ratscrew: {app.failure}", file=sys.stderr)
        return 1
    return app.return_code or 0
