"""The lab's running totals give exactly the figures a list of every game would, in any order of adding."""

from __future__ import annotations

import math
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from ratscrew.lab.game import GameStats
from ratscrew.lab.simulate import Paired, Summary, Tally

PLAYERS = 3


def game_stats() -> st.SearchStrategy[GameStats]:
    return st.builds(
        GameStats,
        cards=st.integers(1, 50_000),
        ms=st.integers(0, 10_000_000),
        piles_by_slap=st.integers(0, 300),
        piles_by_challenge=st.integers(0, 300),
        wrong_slaps=st.integers(0, 40),
        out_by_wrong_slap=st.integers(0, 3),
        result=st.sampled_from(["win", "draw", "limit", "loop"]),
        winner=st.one_of(st.none(), st.integers(0, PLAYERS - 1)),
    )


def from_the_list(stats: list[GameStats]) -> dict[str, object]:
    """The figures worked out from every game at once with the statistics module (how the lab used to)."""
    cards = sorted(s.cards for s in stats)
    minutes = [s.ms / 60_000 for s in stats]
    seconds = [(s.ms // 1000 * 1000 + 500) / 60_000 for s in stats]  # the middle of each game's second
    n = len(stats)
    wins = [sum(1 for s in stats if s.winner == seat) for seat in range(PLAYERS)]
    results = {"win": 0, "draw": 0, "limit": 0, "loop": 0}
    for s in stats:
        results[s.result] += 1
    rank = int(max(1, -(-n * 0.9 // 1)))
    return {
        "games": n,
        "players": PLAYERS,
        "levels": ["medium"] * PLAYERS,
        "mean_cards": round(statistics.fmean(cards), 2),
        "median_cards": statistics.median(cards),
        "p90_cards": cards[rank - 1],
        "max_cards": cards[-1],
        "mean_minutes": round(statistics.fmean(minutes), 2),
        "median_minutes": round(statistics.median(seconds), 2),
        "piles_by_slap": round(statistics.fmean(s.piles_by_slap for s in stats), 2),
        "piles_by_challenge": round(statistics.fmean(s.piles_by_challenge for s in stats), 2),
        "wrong_slaps": round(statistics.fmean(s.wrong_slaps for s in stats), 3),
        "games_with_wrong_slap_knockout": round(sum(1 for s in stats if s.out_by_wrong_slap) / n, 4),
        "win_rate": [round(w / n, 4) for w in wins],
        "win_rate_se": [round(math.sqrt(w / n * (1 - w / n) / n), 4) for w in wins],
        "results": results,
        "mean_cards_se": round(se([s.cards for s in stats]), 4),
        "mean_minutes_se": round(se([s.ms for s in stats]) / 60_000, 4),
        "piles_by_slap_se": round(se([s.piles_by_slap for s in stats]), 4),
        "piles_by_challenge_se": round(se([s.piles_by_challenge for s in stats]), 4),
        "wrong_slaps_se": round(se([s.wrong_slaps for s in stats]), 4),
    }


def se(values: list[int]) -> float:
    """The standard error of the mean, from the whole list."""
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


@settings(max_examples=300, deadline=None)
@given(stats=st.lists(game_stats(), min_size=1, max_size=60), cut=st.integers(0, 60))
def test_running_totals_match_the_whole_list_in_any_order(stats: list[GameStats], cut: int) -> None:
    levels = ("medium",) * PLAYERS
    in_order = Tally(PLAYERS)
    for s in stats:
        in_order.add(s)
    expected = from_the_list(stats)
    assert_same(Summary(len(stats), PLAYERS, levels, in_order).as_dict(), expected)
    # Two workers' tallies merged, the second finishing first.
    first, second = Tally(PLAYERS), Tally(PLAYERS)
    for s in stats[:cut]:
        first.add(s)
    for s in reversed(stats[cut:]):
        second.add(s)
    second.merge(first)
    assert_same(Summary(len(stats), PLAYERS, levels, second).as_dict(), expected)


def assert_same(got: dict[str, object], expected: dict[str, object]) -> None:
    """Equal, except that a standard error (from running sums here, from the list there, both printed to 4
    places) may differ by one in its last place when the two sit either side of a rounding boundary."""
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if key.endswith("_se") and isinstance(value, float) and isinstance(got[key], float):
            assert abs(got[key] - value) <= 1.01e-4, (key, got[key], value)  # type: ignore[operator]
        else:
            assert got[key] == value, (key, got[key], value)


def test_the_totals_keep_one_entry_per_distinct_length_not_per_game() -> None:
    tally = Tally(2)
    for i in range(10_000):
        tally.add(GameStats(100 + i % 7, 60_000 + i * 37 % 11_000, 1, 2, 0, 0, "win", i % 2))
    assert tally.games == 10_000
    assert len(tally.cards) == 7 and len(tally.seconds) == 11  # 11,000 distinct milliseconds in 11 seconds


def test_the_median_time_is_within_half_a_second_of_the_exact_one() -> None:
    tally = Tally(2)
    lengths = [61_234, 59_999, 250_050, 60_001, 120_987]
    for ms in lengths:
        tally.add(GameStats(100, ms, 0, 0, 0, 0, "win", 0))
    shown = Summary(5, 2, ("medium", "medium"), tally).as_dict()["median_minutes"]
    assert shown == round(61_500 / 60_000, 2)  # the middle of 61 s to 62 s; exactly, 61_234 ms
    assert abs(61_500 - statistics.median(lengths)) <= 500


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(game_stats(), game_stats()), min_size=2, max_size=40), cut=st.integers(0, 40))
def test_paired_differences_match_the_whole_list_in_any_order(
    pairs: list[tuple[GameStats, GameStats]], cut: int
) -> None:
    whole = Paired(PLAYERS)
    for first, other in pairs:
        whole.add(other, first)
    a, b = Paired(PLAYERS), Paired(PLAYERS)
    for first, other in pairs[:cut]:
        a.add(other, first)
    for first, other in reversed(pairs[cut:]):
        b.add(other, first)
    b.merge(a)
    assert b.as_dict() == whole.as_dict()
    cards = [o.cards - f.cards for f, o in pairs]
    doc = whole.as_dict()["mean_cards"]
    assert isinstance(doc, dict)
    assert doc == {"diff": round(statistics.fmean(cards), 4), "se": round(se(cards), 4)}
    wins = [(o.winner == 0) - (f.winner == 0) for f, o in pairs]
    seat = whole.as_dict()["win_rate"]
    assert isinstance(seat, list) and seat[0] == {"diff": round(statistics.fmean(wins), 4), "se": round(se(wins), 4)}
