"""The lab's running totals give exactly the figures a list of every game would, in any order of adding."""

from __future__ import annotations

import math
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from ratscrew.lab.game import GameStats
from ratscrew.lab.simulate import Summary
from ratscrew.lab.stats import t975, wilson95
from ratscrew.lab.tally import Cross, Tally, contrast, deal_sums

PLAYERS = 3


def seat_counts(most: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.tuples(*(st.integers(0, most) for _ in range(PLAYERS)))


@st.composite
def game_stats(draw: st.DrawFn) -> GameStats:
    slaps, challenges, wrongs = draw(seat_counts(100)), draw(seat_counts(100)), draw(seat_counts(15))
    return GameStats(
        cards=draw(st.integers(1, 50_000)),
        ms=draw(st.integers(0, 10_000_000)),
        piles_by_slap=sum(slaps),
        piles_by_challenge=sum(challenges),
        wrong_slaps=sum(wrongs),
        out_by_wrong_slap=draw(st.integers(0, 3)),
        result=draw(st.sampled_from(["win", "draw", "limit", "loop"])),
        winner=draw(st.one_of(st.none(), st.integers(0, PLAYERS - 1))),
        tricks=draw(st.integers(0, 10_000)),
        seat_slap_piles=slaps,
        seat_challenge_piles=challenges,
        seat_wrong_slaps=wrongs,
    )


def game(cards: int, ms: int, winner: int = 0) -> GameStats:
    return GameStats(cards, ms, 1, 2, 0, 0, "win", winner, 3, (1, 0), (1, 1), (0, 0))


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
    t = t975(n - 1) if n > 1 else 0.0

    def mean_ci(values: list[int], scale: int = 1) -> list[float]:
        m, e = statistics.fmean(values) / scale, se(values) / scale
        return [round(m - t * e, 4), round(m + t * e, 4)]

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
        "mean_tricks": round(statistics.fmean(s.tricks for s in stats), 2),
        "piles_by_slap": round(statistics.fmean(s.piles_by_slap for s in stats), 2),
        "piles_by_challenge": round(statistics.fmean(s.piles_by_challenge for s in stats), 2),
        "wrong_slaps": round(statistics.fmean(s.wrong_slaps for s in stats), 3),
        "games_with_wrong_slap_knockout": round(sum(1 for s in stats if s.out_by_wrong_slap) / n, 4),
        "win_rate": [round(w / n, 4) for w in wins],
        "win_rate_se": [round(math.sqrt(w / n * (1 - w / n) / n), 4) for w in wins],
        "win_rate_ci95": [[round(x, 4) for x in wilson95(w / n, n)] for w in wins],
        "results": results,
        "mean_cards_se": round(se([s.cards for s in stats]), 4),
        "mean_minutes_se": round(se([s.ms for s in stats]) / 60_000, 4),
        "mean_tricks_se": round(se([s.tricks for s in stats]), 4),
        "piles_by_slap_se": round(se([s.piles_by_slap for s in stats]), 4),
        "piles_by_challenge_se": round(se([s.piles_by_challenge for s in stats]), 4),
        "wrong_slaps_se": round(se([s.wrong_slaps for s in stats]), 4),
        "mean_cards_ci95": mean_ci([s.cards for s in stats]),
        "mean_minutes_ci95": mean_ci([s.ms for s in stats], 60_000),
        "mean_tricks_ci95": mean_ci([s.tricks for s in stats]),
        "piles_by_slap_ci95": mean_ci([s.piles_by_slap for s in stats]),
        "piles_by_challenge_ci95": mean_ci([s.piles_by_challenge for s in stats]),
        "wrong_slaps_ci95": mean_ci([s.wrong_slaps for s in stats]),
        "seat_piles_by_slap": [round(sum(s.seat_slap_piles[k] for s in stats) / n, 2) for k in range(PLAYERS)],
        "seat_piles_by_challenge": [
            round(sum(s.seat_challenge_piles[k] for s in stats) / n, 2) for k in range(PLAYERS)
        ],
        "seat_wrong_slaps": [round(sum(s.seat_wrong_slaps[k] for s in stats) / n, 3) for k in range(PLAYERS)],
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
    """Equal, except that a standard error or an interval's end (from running sums here, from the list there,
    both printed to 4 places) may differ by one in its last place when the two sit either side of a rounding
    boundary."""
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if key.endswith("_se") and isinstance(value, float) and isinstance(got[key], float):
            assert abs(got[key] - value) <= 1.01e-4, (key, got[key], value)  # type: ignore[operator]
        elif key.endswith("_ci95") and key != "win_rate_ci95":
            assert isinstance(value, list) and isinstance(got[key], list)
            pairs = zip(got[key], value, strict=True)  # type: ignore[call-overload]
            assert all(abs(a - b) <= 1.01e-4 for a, b in pairs), (key, got[key], value)
        else:
            assert got[key] == value, (key, got[key], value)


def test_the_totals_keep_one_entry_per_distinct_length_not_per_game() -> None:
    tally = Tally(2)
    for i in range(10_000):
        tally.add(game(100 + i % 7, 60_000 + i * 37 % 11_000, i % 2))
    assert tally.games == 10_000
    assert len(tally.cards) == 7 and len(tally.seconds) == 11  # 11,000 distinct milliseconds in 11 seconds


def test_the_median_time_is_within_half_a_second_of_the_exact_one() -> None:
    tally = Tally(2)
    lengths = [61_234, 59_999, 250_050, 60_001, 120_987]
    for ms in lengths:
        tally.add(game(100, ms))
    shown = Summary(5, 2, ("medium", "medium"), tally).as_dict()["median_minutes"]
    assert shown == round(61_500 / 60_000, 2)  # the middle of 61 s to 62 s; exactly, 61_234 ms
    assert abs(61_500 - statistics.median(lengths)) <= 500


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(game_stats(), game_stats()), min_size=2, max_size=40), cut=st.integers(0, 40))
def test_paired_differences_match_the_whole_list_in_any_order(
    pairs: list[tuple[GameStats, GameStats]], cut: int
) -> None:
    def tallies(chosen: list[tuple[GameStats, GameStats]]) -> tuple[Tally, Tally, Cross]:
        first, other, cross = Tally(PLAYERS), Tally(PLAYERS), Cross(PLAYERS)
        for f, o in chosen:
            sums_f, sums_o = deal_sums((f,)), deal_sums((o,))
            first.add_deal((f,), sums_f)
            other.add_deal((o,), sums_o)
            cross.add(sums_o, sums_f)
        return first, other, cross

    first, other, cross = tallies(pairs)
    whole = contrast(other, first, cross).as_dict()
    a, b = tallies(pairs[:cut]), tallies(list(reversed(pairs[cut:])))
    b[0].merge(a[0])
    b[1].merge(a[1])
    b[2].merge(a[2])
    assert contrast(b[1], b[0], b[2]).as_dict() == whole
    cards = [o.cards - f.cards for f, o in pairs]
    doc = whole["mean_cards"]
    assert isinstance(doc, dict)
    assert doc["diff"] == round(statistics.fmean(cards), 4) and doc["se"] == round(se(cards), 4)
    wins = [(o.winner == 0) - (f.winner == 0) for f, o in pairs]
    seat = whole["win_rate"]
    assert isinstance(seat, list) and seat[0]["diff"] == round(statistics.fmean(wins), 4)
    assert seat[0]["se"] == round(se(wins), 4)
    # The other way round: the same difference, negated, with the same standard error.
    back = contrast(first, other, cross).as_dict()["mean_cards"]
    assert isinstance(back, dict) and back["diff"] == -doc["diff"] and back["se"] == doc["se"]


@settings(max_examples=100, deadline=None)
@given(deals=st.lists(st.tuples(*(game_stats() for _ in range(PLAYERS))), min_size=2, max_size=30))
def test_with_rotation_the_standard_error_is_taken_over_deals(deals: list[tuple[GameStats, ...]]) -> None:
    tally = Tally(PLAYERS, rotations=PLAYERS)
    for games in deals:
        tally.add_deal(games, deal_sums(games))
    per_deal = [statistics.fmean(g.cards for g in games) for games in deals]
    e = tally.mean("cards")
    assert tally.games == PLAYERS * len(deals) and tally.deals == len(deals)
    assert math.isclose(e.value, statistics.fmean(per_deal))
    assert math.isclose(e.se, statistics.stdev(per_deal) / math.sqrt(len(deals)), abs_tol=1e-9)
    # Player p sits at seat (p - k) mod n in rotation k: its share is each deal's share over the rotations.
    player = [sum(1 for k, g in enumerate(games) if g.winner == (1 - k) % PLAYERS) / PLAYERS for games in deals]
    share = tally.win_share(1, by_player=True)
    assert math.isclose(share.value, statistics.fmean(player))
    assert math.isclose(share.se, statistics.stdev(player) / math.sqrt(len(deals)), abs_tol=1e-9)
    low, high = share.ci95
    assert 0 <= low <= share.value <= high <= 1


def test_t_points_and_wilson_intervals_match_published_tables() -> None:
    # Student's t, 97.5% points (any statistics table).
    for df, point in [(1, 12.706), (2, 4.303), (5, 2.571), (9, 2.262), (20, 2.086), (60, 2.000), (120, 1.980)]:
        assert round(t975(df), 3) == point
    assert round(t975(10**6), 3) == 1.960
    # Wilson's score interval for 8 successes in 10: 0.490 to 0.943, as the textbooks work it.
    assert [round(x, 4) for x in wilson95(0.8, 10)] == [0.4902, 0.9433]
