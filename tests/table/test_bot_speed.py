"""The computers race like people: Hard and Expert draw reaction times with a person's median and spread, from
their seeded streams, so a quick person wins some races against them and loses some; Easy, Medium and
``match`` keep theirs."""

from __future__ import annotations

import math
import statistics

import pytest

from harness.deals import hands
from ratscrew.bots.bot import Bot
from ratscrew.bots.levels import LEVELS, PATTERN_DIFFICULTY, Level
from ratscrew.bots.reaction import ExGaussian, FixedTime
from ratscrew.engine.events import PileWon
from ratscrew.engine.game import Game
from ratscrew.rules import Rules
from ratscrew.shuffle import SeededRandom
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table

DRAWS = 20_000


def draws(level: str, seed: int, n: int = DRAWS) -> list[int]:
    rng = SeededRandom(seed)
    return [LEVELS[level].reaction.sample(rng) for _ in range(n)]


@pytest.mark.parametrize(("level", "low", "high"), [("hard", 235, 270), ("expert", 175, 205)])
def test_hard_and_expert_react_with_a_persons_median_and_spread(level: str, low: int, high: int) -> None:
    times = draws(level, 1)
    quartiles = statistics.quantiles(times, n=4)
    assert low <= statistics.median(times) <= high
    assert quartiles[2] - quartiles[0] >= 30  # a spread, not one fixed time
    assert min(times) >= 120  # never quicker than a person can see a card
    assert statistics.mean(times) > statistics.median(times)  # and a tail of slower slaps, as people have


def test_the_draws_are_seeded_and_reproduced_exactly() -> None:
    for level in ("hard", "expert"):
        assert draws(level, 7, 500) == draws(level, 7, 500)
        assert draws(level, 7, 500) != draws(level, 8, 500)


def test_easy_and_medium_keep_their_character() -> None:
    easy, medium = LEVELS["easy"].reaction, LEVELS["medium"].reaction
    assert isinstance(easy, ExGaussian) and isinstance(medium, ExGaussian)
    assert easy.mean == 1000 and medium.mean == 650
    assert LEVELS["easy"].miss == 0.30 and LEVELS["medium"].miss == 0.12


SLAPPER = 200  # ms: a quick person, scripted


def race_for_a_double(level: str, seed: int) -> int | None:
    """Seat 0 slaps every pattern 200 ms after it lands and never misses; seat 1 is the computer at ``level``.
    Seat 0 turns 7S, seat 1 7C: a double. Seat 2 never flips, so nothing covers the double. The seat that
    took the pile by slapping it."""
    scripted = Level("scripted", FixedTime(SLAPPER), miss=0.0, wrong=0.0, flip=LEVELS[level].flip)
    game = Game(Rules.build("standard"), hands("7S 2D", "7C 3D", "9H 4D"))
    clock = VirtualClock()
    table = Table(game, [SeatSpec("you", level), SeatSpec("computer", level), SeatSpec("person")], clock, seed=seed)
    table.bots[0] = Bot(scripted, SeededRandom(seed))
    while game.tricks == 0:
        deadline = table.next_deadline()
        if deadline is None:
            return None
        clock.advance_to(deadline)
        table.run_due()
    won = next(e.event for e in table.log if isinstance(e.event, PileWon))
    assert isinstance(won, PileWon)
    return won.seat if won.how == "slap" else None


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_quick_person_wins_some_races_and_loses_some_in_the_predicted_share(level: str) -> None:
    trials = 1500
    wins = sum(race_for_a_double(level, seed) == 0 for seed in range(trials))
    reaction = LEVELS[level].reaction
    assert isinstance(reaction, ExGaussian)
    miss = LEVELS[level].miss * PATTERN_DIFFICULTY["double"][0]
    # The person wins when the computer misses or is slower; a tie (a draw that rounds to 200 ms) goes to the
    # slap planned first, the person's.
    predicted = miss + (1 - miss) * (1 - reaction.cdf(SLAPPER - 0.5))
    observed = wins / trials
    assert abs(observed - predicted) < 4 * math.sqrt(predicted * (1 - predicted) / trials), (observed, predicted)
    assert 0.2 < observed < 0.95  # some won, some lost
