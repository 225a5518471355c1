"""A rated ladder on virtual time: simulated players of hidden skill queue in the real matchmaker, play real
games, and the real rating code moves their ratings; for tests/ladder/test_ladder_sim.py and bench/ladder_sim.py.

Each simulated player's hidden skill is how fast they slap: their reaction times are Medium's distribution
stretched to their own mean (everything else, misses, wrong slaps and the pace of turning cards, is Medium's
for all), so the only thing that can order them is speed. Their games are real games of the rules engine
played by the computer players on the ``standard`` preset: two-player games in the lab's compiled kernel
(``lab/kernel.py``, which plays a made-up ``Level`` as the Python bot of that level would, fast enough for
thousands in a test), tables of three or four on the Python table, whose summary gives every place (the
kernel tells only the winner).

Time moves a second at a time. Players arrive over the first ten minutes; after each game a player rests
for a random while (a minute on average) and joins the pool again. Every second the matchmaker is ticked;
each table it makes plays its game at once, and the game's result moves the ratings when its virtual
length has passed (so a player waiting meanwhile is matched on the rating they had).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ratscrew.bots.bot import Bot
from ratscrew.bots.levels import LEVELS, Level
from ratscrew.bots.reaction import ExGaussian
from ratscrew.engine.game import Game
from ratscrew.lab.kernel import play_c
from ratscrew.ladder.matching import Entrant, Pool, TableSize
from ratscrew.ladder.matchmaker import Matchmaker, Seating
from ratscrew.ladder.places import RatedResult, places, rated_result
from ratscrew.ladder.ratings import Rating, SizeClass, rate
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.summary import summarize
from ratscrew.rooms.wire import SeatKind
from ratscrew.rules import Rules
from ratscrew.shuffle import SeededRandom
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, TableConfig, run_virtual

FASTEST_MS = 200.0  # the quickest simulated player's mean reaction
SLOWEST_MS = 800.0  # and the slowest's
ARRIVALS_MS = 600_000  # everyone first arrives within this
REST_MS = 60_000  # the mean rest between a player's games
TICK_MS = 1000


@dataclass(frozen=True, slots=True)
class SimPlayer:
    player: int  # the account id the ratings know them by
    reaction_ms: float  # the hidden skill: the mean of their reaction times (lower is better)
    level: Level


def sim_players(count: int, seed: int) -> list[SimPlayer]:
    """``count`` players whose mean reactions are spread at random between FASTEST_MS and SLOWEST_MS."""
    rng = random.Random(seed)
    medium = LEVELS["medium"]
    assert isinstance(medium.reaction, ExGaussian)
    base = medium.reaction
    base_mean = base.mu + base.tau
    players = []
    for i in range(count):
        mean = rng.uniform(FASTEST_MS, SLOWEST_MS)
        stretch = mean / base_mean
        reaction = ExGaussian(
            base.mu * stretch, base.sigma * stretch, base.tau * stretch, base.floor * min(1.0, stretch)
        )
        players.append(SimPlayer(i + 1, mean, replace(medium, name=f"sim-{i + 1}", reaction=reaction)))
    return players


def duel(rules: Rules, seats: Sequence[SimPlayer], seed: int) -> tuple[tuple[int, ...], int]:
    """A real two-player game between ``seats`` (seat order): each seat's place and the game's length in
    virtual ms. The kernel tells the winner; the other went out (a game with no winner is a tie)."""
    stats, _ = play_c(rules, [p.level for p in seats], seed)
    if stats.winner is None:
        return places(out_order=[], cards=[1, 1]), stats.ms
    loser = 1 - stats.winner
    cards = [0, 0]
    cards[stats.winner] = 52
    return places(out_order=[loser], cards=cards), stats.ms


def table_game(rules: Rules, seats: Sequence[SimPlayer], seed: int) -> tuple[tuple[int, ...], int]:
    """A real game of any size between ``seats`` on the Python table (slower than the kernel, which tells
    only the winner): each seat's place from the rooms' own summary of it, and its length in virtual ms."""
    game = Game.from_seed(rules, len(seats), seed)
    clock = VirtualClock()
    specs = [SeatSpec(p.level.name, "medium") for p in seats]
    table = Table(game, specs, clock, seed=seed, config=TableConfig())
    for i, p in enumerate(seats):  # the seat's own reaction times (every other draw is Medium's)
        table.bots[i] = Bot(p.level, SeededRandom(seed + i + 1))
    run_virtual(table, clock)
    summary = summarize("SIM", table, [SeatInfo(SeatKind.BOT, spec.name, spec.bot) for spec in specs], [])
    return places(summary.out_order, [player.cards for player in summary.players]), summary.ms


Play = Callable[[Rules, Sequence[SimPlayer], int], tuple[tuple[int, ...], int]]


@dataclass
class LadderRun:
    """What a run measured: each player's rating at the end, every wait, and how the run went."""

    players: list[SimPlayer]
    ratings: dict[int, Rating]
    games: dict[int, int]  # rated games played, by player
    waits_ms: list[int] = field(default_factory=list)  # every seated person's wait, and of those left waiting
    longest_pool: int = 0  # the most people waiting at once
    virtual_ms: int = 0
    provisional_after: list[int] = field(default_factory=list)  # games each player needed to stop being provisional


def run_ladder(
    players: Sequence[SimPlayer], games: int, rules: Rules, seed: int, size: TableSize = TableSize.TWO
) -> LadderRun:
    """Play rated games between ``players`` through the matchmaker on virtual time until ``games`` of them
    have finished (a few more have started by then: they count nowhere but in the waits). Two-player games
    are played by the kernel (:func:`duel`), tables of three or four by the Python table (:func:`table_game`)."""
    play: Play = duel if size is TableSize.TWO else table_game
    rng = random.Random(seed)
    clock = VirtualClock()
    matchmaker = Matchmaker(clock)
    pool = Pool(size, rated=True, preset="standard")
    by_id = {p.player: p for p in players}
    ratings = {p.player: Rating() for p in players}
    played = dict.fromkeys(by_id, 0)
    run = LadderRun(list(players), ratings, played)
    settled: dict[int, int] = {}
    # (time, order, what): a player arriving (their id) or a game ending (its table and result).
    due: list[tuple[int, int, int | tuple[Seating, RatedResult]]] = []
    order = 0
    for p in players:
        heapq.heappush(due, (rng.randrange(ARRIVALS_MS), order, p.player))
        order += 1
    finished = 0
    while finished < games:
        now = clock.now()
        while due and due[0][0] <= now:
            _, _, what = heapq.heappop(due)
            if isinstance(what, int):
                matchmaker.join(Entrant(str(what), what, ratings[what].points), pool)
                continue
            seating, result = what
            after = rate(ratings, result.places)
            ratings.update(after)
            for player in after:
                played[player] += 1
                if player not in settled and not after[player].provisional:
                    settled[player] = played[player]
            matchmaker.done(seating.table)
            finished += 1
            for entrant in seating.players:
                rest = int(rng.expovariate(1 / REST_MS))
                heapq.heappush(due, (now + rest, order, entrant.player or 0))
                order += 1
        run.longest_pool = max(run.longest_pool, len(matchmaker.waiting(pool)))
        for waiting in matchmaker.waiting(pool):
            matchmaker.seen(waiting.entrant.who)  # every waiting page asks where its person stands
        for seating in matchmaker.tick():
            run.waits_ms.extend(seating.waited)
            seats = [by_id[e.player or 0] for e in seating.players]
            rng.shuffle(seats)  # who turns the first card is chance, not the queue
            game_places, length = play(rules, seats, rng.randrange(2**32))
            counted = rated_result(f"g{seating.table}", [p.player for p in seats], game_places)
            assert counted is not None and counted.size_class is SizeClass.of(len(seats))
            heapq.heappush(due, (now + length, order, (seating, counted)))
            order += 1
        clock.advance(TICK_MS)
    run.virtual_ms = clock.now()
    run.waits_ms.extend(clock.now() - w.since for w in matchmaker.waiting(pool))  # those still waiting, so far
    run.provisional_after = sorted(settled.values())
    return run


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b between two equally long sequences: +1 when they order every pair alike, -1 when
    they order every pair oppositely; ties (in either) are allowed for, as tau-b does.

    >>> kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]), kendall_tau([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]), 3)
    0.667
    """
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} values against {len(ys)}")
    concordant = discordant = tied_x = tied_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tied_x += 1
            elif dy == 0:
                tied_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    pairs_x = concordant + discordant + tied_y  # pairs not tied in x
    pairs_y = concordant + discordant + tied_x
    if not pairs_x or not pairs_y:
        raise ValueError("one of the sequences is constant: its order says nothing")
    return float((concordant - discordant) / (pairs_x * pairs_y) ** 0.5)
