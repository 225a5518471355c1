"""What a room says of a game: each event as everyone at the table may see it, and the end-of-game summary.

The summary goes to the pages (``over``), into the journal with the record, and from there to the history
page; it is counted from the table's log, so a game resumed after a restart is counted whole.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from ratscrew.engine.events import Event, GameOver, PileWon, PlayerOut, WonBy, WrongSlap
from ratscrew.engine.game import Game
from ratscrew.rooms.fairness import Adjudication, races
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import EventDoc, GameSummary, SeatKind, SummaryPlayer
from ratscrew.table.table import Table


def game_id(code: str, game_no: int) -> str:
    """The first game of a room is known by the room's code; rematches add their number."""
    return code if game_no == 1 else f"{code}-{game_no}"


def public(event: Event, game: Game) -> EventDoc:
    """An event as everyone at the table may see it: cards that lie face down are not named."""
    doc = event.to_dict()
    if isinstance(event, WrongSlap):
        if not game.rules.slaps.burned_count:
            doc["burned"] = [None] * len(event.burned)
        doc["given"] = [[seat, None] for seat, _card in event.given]
    elif isinstance(event, PileWon):
        doc["cards"] = [None] * len(event.cards)
    return EventDoc(doc)


def summarize(game_id: str, table: Table, seats: Sequence[SeatInfo], adjudications: list[Adjudication]) -> GameSummary:
    """The end-of-game summary: the outcome, each player's piles, wrong slaps and reactions, every close race."""
    game = table.game
    assert game.outcome is not None
    outcome = game.outcome
    n = game.players
    wrong = [0] * n
    by_slap = [0] * n
    by_challenge = [0] * n
    out_order: list[int] = []
    for item in table.log:
        event = item.event
        if isinstance(event, WrongSlap):
            wrong[event.seat] += 1
        elif isinstance(event, PileWon):
            for seat, _count in event.shares:
                (by_slap if event.how is WonBy.SLAP else by_challenge)[seat] += 1
        elif isinstance(event, PlayerOut):
            out_order.append(event.seat)
    end_t = next((e.t for e in reversed(table.log) if isinstance(e.event, GameOver)), game.now)
    players = []
    for seat in range(n):
        times = table.reactions[seat]
        info = seats[seat]
        players.append(
            SummaryPlayer(
                seat,
                info.name,
                info.level if info.kind is SeatKind.BOT else None,
                len(game.stacks[seat]),
                by_slap[seat],
                by_challenge[seat],
                wrong[seat],
                tuple(times),
                statistics.median(times) if times else None,
            )
        )
    return GameSummary(
        game_id,
        outcome.result,
        outcome.winner,
        outcome.reason,
        outcome.how,
        game.cards,
        game.tricks,
        end_t,
        tuple(players),
        tuple(out_order),
        races(adjudications),
    )
