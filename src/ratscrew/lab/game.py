"""One game of the lab on the Python modules, and the figures the lab takes from it.

Both ways of playing a lab game give a :class:`GameStats`: :func:`play_one` here (the reference: the engine,
the real-time table and the bots on virtual time) and the compiled kernel (lab/kernel.py). The table only
plays; what the lab reports (piles won by slap and by challenge, wrong slaps, players a wrong slap put out)
the lab counts itself, in the events the table published (:func:`count_events`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ratscrew.engine.events import OutReason, PileWon, PlayerOut, WonBy, WrongSlap
from ratscrew.engine.game import Game
from ratscrew.rules.model import Rules
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, TableConfig, TableEvent, run_virtual


@dataclass(frozen=True, slots=True)
class GameStats:
    """One game's figures. The per-seat tuples count, for each seat, the piles it won by slap and by
    challenge and its wrong slaps (a split pile counts for the seat the event names, the first to slap)."""

    cards: int
    ms: int
    piles_by_slap: int
    piles_by_challenge: int
    wrong_slaps: int
    out_by_wrong_slap: int
    result: str
    winner: int | None
    tricks: int
    seat_slap_piles: tuple[int, ...]
    seat_challenge_piles: tuple[int, ...]
    seat_wrong_slaps: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EventCounts:
    """What the lab counts in a game's events (the rest of GameStats is the game's own state), in total and
    per seat."""

    piles_by_slap: int = 0
    piles_by_challenge: int = 0
    wrong_slaps: int = 0
    out_by_wrong_slap: int = 0  # players a wrong slap put out (``players.out_when = wrong-slap``)
    seat_slap_piles: tuple[int, ...] = ()
    seat_challenge_piles: tuple[int, ...] = ()
    seat_wrong_slaps: tuple[int, ...] = ()


def count_events(log: Iterable[TableEvent], players: int) -> EventCounts:
    """The lab's counts over a game's published events (a table's ``log``): one pass once the game is over,
    rather than counters the table would keep for the lab on every event."""
    slaps, challenges, wrongs = [0] * players, [0] * players, [0] * players
    knocked = 0
    for published in log:
        event = published.event
        if isinstance(event, PileWon):
            if event.how is WonBy.SLAP:
                slaps[event.seat] += 1
            elif event.how is WonBy.CHALLENGE:
                challenges[event.seat] += 1
        elif isinstance(event, WrongSlap):
            wrongs[event.seat] += 1
        elif isinstance(event, PlayerOut) and event.reason is OutReason.WRONG_SLAP:
            knocked += 1
    return EventCounts(
        sum(slaps), sum(challenges), sum(wrongs), knocked, tuple(slaps), tuple(challenges), tuple(wrongs)
    )


def play_one(
    rules: Rules, levels: Sequence[str], seed: int, *, on_event: Callable[[TableEvent], None] | None = None
) -> GameStats:
    """One complete game between bots at ``levels`` (seat order), on virtual time; ``on_event`` hears
    every event the table publishes."""
    game = Game.from_seed(rules, len(levels), seed)
    clock = VirtualClock()
    table = Table(
        game,
        [SeatSpec(f"bot {i + 1}", level) for i, level in enumerate(levels)],
        clock,
        seed=seed,
        config=TableConfig(),
    )
    if on_event is not None:
        table.listeners.append(on_event)
    run_virtual(table, clock)
    assert game.outcome is not None
    counts = count_events(table.log, len(levels))
    return GameStats(
        game.cards,
        clock.now(),
        counts.piles_by_slap,
        counts.piles_by_challenge,
        counts.wrong_slaps,
        counts.out_by_wrong_slap,
        game.outcome.result.value,
        game.outcome.winner,
        game.tricks,
        counts.seat_slap_piles,
        counts.seat_challenge_piles,
        counts.seat_wrong_slaps,
    )
