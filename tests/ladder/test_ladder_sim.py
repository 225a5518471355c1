"""The ladder as a whole (issue #27): 200 simulated players of hidden skill play 3,000 rated games of the rules
engine through the real matchmaker and rating code on virtual time; the ratings come out in the order of the
hidden skill, and nobody waits long in the pool (``harness/ladder.py`` says how the players are made).

The wait bound: after 240 s a person accepts a gap of 2,500 points (``matching.accepted_gap``), wider than
the whole ladder is here (asserted), so from then on they are seated with the next person to come; with 200
players coming and going, no wait reaches it. Most are far shorter: the 99th percentile is asserted under 30 s.
"""

from __future__ import annotations

import statistics

import pytest

from harness.ladder import LadderRun, kendall_tau, run_ladder, sim_players
from ratscrew.bots.levels import LEVELS
from ratscrew.lab.kernel import play_c
from ratscrew.ladder.matching import accepted_gap
from ratscrew.rules import Rules

PLAYERS = 200
GAMES = 3000
WAIT_BOUND_MS = 240_000


@pytest.fixture(scope="module")
def run() -> LadderRun:
    return run_ladder(sim_players(PLAYERS, seed=7), GAMES, Rules.build("standard"), seed=11)


def test_the_ratings_order_agrees_with_the_hidden_skill(run: LadderRun) -> None:
    shown = [run.ratings[p.player].shown for p in run.players]
    quickness = [-p.reaction_ms for p in run.players]  # a lower reaction time is the better player
    tau = kendall_tau(quickness, shown)
    print(f"Kendall's tau between the shown ratings and the hidden skill: {tau:.3f}")
    assert tau >= 0.8
    assert sum(run.games.values()) == 2 * GAMES
    assert min(run.games.values()) >= 10  # arrivals spread out: nobody was left out of the ladder


def test_waits_in_the_pool_stay_bounded(run: LadderRun) -> None:
    waits = sorted(run.waits_ms)
    assert len(waits) >= 2 * GAMES
    p99 = waits[int(len(waits) * 0.99)]
    median = statistics.median(waits)
    print(f"waits: median {median / 1000:.0f} s, 99% {p99 / 1000:.0f} s, longest {waits[-1] / 1000:.0f} s")
    points = [r.points for r in run.ratings.values()]
    assert max(points) - min(points) < accepted_gap(WAIT_BOUND_MS)  # the bound spans the whole ladder
    assert waits[-1] <= WAIT_BOUND_MS
    assert p99 <= 30_000
    assert median <= 5_000
    assert run.longest_pool <= 20  # a handful wait at any time, out of 200


def test_a_newcomer_stops_being_provisional_after_about_twenty_games(run: LadderRun) -> None:
    assert len(run.provisional_after) == PLAYERS  # everyone got there within the run
    assert 15 <= statistics.median(run.provisional_after) <= 25


def test_the_kernel_plays_a_level_given_as_itself_as_it_plays_its_name() -> None:
    rules = Rules.build("standard")
    for seed in range(5):
        assert play_c(rules, [LEVELS["hard"], "medium"], seed, want_hash=True) == play_c(
            rules, ["hard", "medium"], seed, want_hash=True
        )


def test_kendalls_tau_counts_pairs_as_tau_b_does() -> None:
    assert kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)  # one pair of six swapped
    # Ties: one pair tied in x, one in y; four concordant pairs of the five each side orders: 4 / 5.
    assert kendall_tau([1, 2, 2, 3], [1, 3, 2, 3]) == pytest.approx(0.8)
    with pytest.raises(ValueError, match="constant"):
        kendall_tau([1, 1, 1], [1, 2, 3])
