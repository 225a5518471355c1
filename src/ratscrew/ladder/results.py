"""What a Play-now table's finished game hands on: the ratings it moves, and its people free to queue again.

The web layer calls :func:`settle` once a matched room's game is over (``web/matched.py``), and again when
such a room is loaded over after a restart (its game may have ended as it was rebuilt from the journal). Each
step is harmless twice: the store records a game once, by its id, and answers what it did the first time; a
table done, or a person released, twice is no more done.

The places come from the room's summary (``places``): whoever left and whose seat a stand-in took finishes
last, for good or back before the end (``left``: the computer played part of that game for them).
Only a rated table's signed-in people count (``rated_result``); a table with computers is never rated.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ratscrew.ladder.matchmaker import Matchmaking
from ratscrew.ladder.places import places, rated_result
from ratscrew.ladder.ratings import PlayerId
from ratscrew.ladder.store import Change, RatingStore


@dataclass(frozen=True, slots=True)
class TableEnd:
    """A matched room's finished game, as the ladder needs it: every sequence is by seat."""

    game: str  # the game's id (the store records it once)
    table: int  # the matchmaker's table
    rated: bool
    players: Sequence[PlayerId | None]  # each seat's account (None: a guest, or a computer)
    people: Sequence[str | None]  # each seat's person as the matchmaker knows them (None: a computer)
    out_order: Sequence[int]  # from the summary: the seats in the order they went out
    cards: Sequence[int]  # from the summary: the cards each seat held at the end
    replaced: Collection[int]  # the seats a stand-in took and never gave back (their people are released)
    left: Collection[int] = ()  # the seats a stand-in took at some time, given back or not: ranked last


def rate_table(end: TableEnd, ratings: RatingStore) -> dict[int, Change]:
    """Record a rated table's result (once, whatever calls it again); what it did to each seat's rating."""
    if not end.rated:
        return {}
    last = {*end.replaced, *end.left}
    result = rated_result(end.game, end.players, places(end.out_order, end.cards, last))
    if result is None:
        return {}
    seat_of = {player: seat for seat, player in enumerate(end.players) if player is not None}
    return {seat_of[change.player]: change for change in ratings.record(result)}


async def settle(end: TableEnd, ratings: RatingStore | None, matchmaking: Matchmaking) -> dict[int, Change]:
    """Move the ratings (in a thread: the store waits for the file's write lock), then free the table's people
    in the matchmaker even if that failed: a person is never kept out of the pools by a game long over."""
    try:
        if ratings is None or not end.rated:
            return {}
        return await asyncio.to_thread(rate_table, end, ratings)
    finally:
        await matchmaking.done(end.table)
        for seat in sorted(end.replaced):
            who = end.people[seat]
            if who is not None:
                await matchmaking.release(who)
