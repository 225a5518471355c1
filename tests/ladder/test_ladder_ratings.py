"""The ladder's ratings: a game's places as the rooms' summary gives them, who of them counts, and how the
Plackett-Luce update moves each rating (order, ties, stand-ins last, computers ignored, fewer than two)."""

from __future__ import annotations

import pytest

from ratscrew.engine.game import Game
from ratscrew.engine.outcome import Ending
from ratscrew.errors import MalformedInput
from ratscrew.ladder.places import places, rated_result
from ratscrew.ladder.ratings import PROVISIONAL_SIGMA, Rating, SizeClass, rate
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.summary import summarize
from ratscrew.rooms.wire import GameSummary, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, TableConfig, run_virtual


def finished(rules: Rules, levels: list[str], seed: int) -> GameSummary:
    """A real game between computers, summed up as a room sums it up."""
    game = Game.from_seed(rules, len(levels), seed)
    clock = VirtualClock()
    specs = [SeatSpec(f"seat {i}", level) for i, level in enumerate(levels)]
    table = Table(game, specs, clock, seed=seed, config=TableConfig())
    run_virtual(table, clock)
    seats = [SeatInfo(SeatKind.BOT, spec.name, spec.bot) for spec in specs]
    return summarize("GAME01", table, seats, [])


def places_of(summary: GameSummary, replaced: tuple[int, ...] = ()) -> tuple[int, ...]:
    return places(summary.out_order, [p.cards for p in summary.players], replaced)


# ---------------------------------------------------------------------------------------- places


def test_players_who_went_out_finish_in_the_reverse_order_they_went_out() -> None:
    rules = Rules.build("standard").with_changes({"players.slap_in": False})
    summary = finished(rules, ["medium", "medium", "medium", "medium"], seed=3)
    assert summary.how is Ending.LAST_IN and len(summary.out_order) == 3
    got = places_of(summary)
    first_out, second_out, third_out = summary.out_order
    assert got[summary.winner or 0] == 1
    assert (got[third_out], got[second_out], got[first_out]) == (2, 3, 4)


def test_a_game_stopped_by_its_time_limit_ranks_by_cards_held() -> None:
    rules = Rules.build("standard").with_changes({"end.time_limit_s": 30})
    summary = finished(rules, ["hard", "medium", "easy"], seed=1)
    assert summary.how is Ending.TIME and summary.out_order == ()
    held = [p.cards for p in summary.players]
    got = places_of(summary)
    assert got[summary.winner or 0] == 1
    for a in range(3):
        for b in range(3):
            if held[a] > held[b]:
                assert got[a] < got[b]


def test_with_slapping_back_in_those_left_with_nothing_tie_below_the_winner() -> None:
    # Under the standard rules an empty player stays in: nobody goes out, and the game ends with one seat
    # holding every card. The rest ended alike, so they share second place.
    summary = finished(Rules.build("standard"), ["hard", "medium", "easy"], seed=0)
    assert summary.how is Ending.ALL_CARDS
    winner = summary.winner or 0
    assert places_of(summary) == tuple(1 if seat == winner else 2 for seat in range(3))


def test_equal_cards_when_time_runs_out_tie() -> None:
    assert places(out_order=[], cards=[20, 20, 12]) == (1, 1, 3)
    assert places(out_order=[2], cards=[26, 26, 0]) == (1, 1, 3)


def test_a_player_replaced_by_a_stand_in_finishes_last_whatever_the_stand_in_did() -> None:
    assert places(out_order=[], cards=[0, 52, 0], replaced=[1]) == (1, 3, 1)
    assert places(out_order=[0], cards=[0, 30, 22], replaced=[1]) == (2, 3, 1)
    assert places(out_order=[], cards=[10, 30, 12], replaced=[1, 2]) == (1, 2, 2)


def test_places_refuse_seats_the_game_does_not_have() -> None:
    with pytest.raises(MalformedInput, match="seat 3"):
        places(out_order=[3], cards=[26, 26])
    with pytest.raises(MalformedInput, match="twice"):
        places(out_order=[1, 1], cards=[52, 0, 0])


# ---------------------------------------------------------------------------------------- who counts


def test_only_signed_in_people_count_and_keep_their_order_among_themselves() -> None:
    result = rated_result("G", players=[None, 7, None, 9], places=(1, 3, 2, 4))
    assert result is not None
    assert result.size_class is SizeClass.MORE  # the table's size, computers included
    assert result.places == ((7, 1), (9, 2))


def test_a_game_with_fewer_than_two_signed_in_people_changes_nothing() -> None:
    assert rated_result("G", players=[7, None], places=(1, 2)) is None
    assert rated_result("G", players=[None, None, None], places=(1, 2, 3)) is None
    assert rate({7: Rating()}, [(7, 1)]) == {}


def test_one_person_in_two_seats_is_refused() -> None:
    with pytest.raises(MalformedInput, match="two seats"):
        rated_result("G", players=[7, 7], places=(1, 2))
    with pytest.raises(MalformedInput, match="two seats"):
        rate({}, [(7, 1), (7, 2)])


# ---------------------------------------------------------------------------------------- the update


def test_the_winner_gains_the_loser_loses_and_both_are_surer() -> None:
    before = {1: Rating(), 2: Rating()}
    after = rate(before, [(1, 1), (2, 2)])
    assert after[1].mu > 25 > after[2].mu
    assert after[1].sigma < before[1].sigma and after[2].sigma < before[2].sigma
    assert after[1].shown > Rating().shown > after[2].shown


def test_the_update_follows_the_places_at_a_table_of_four() -> None:
    after = rate({}, [(10, 3), (11, 1), (12, 4), (13, 2)])
    assert after[11].mu > after[13].mu > after[10].mu > after[12].mu


def test_players_who_tie_move_alike() -> None:
    after = rate({}, [(1, 1), (2, 2), (3, 2)])
    assert after[2] == after[3]
    assert after[1].mu > after[2].mu
    level = rate({1: Rating(30, 3), 2: Rating(30, 3)}, [(1, 1), (2, 1)])
    assert level[1].mu == pytest.approx(30) and level[2].mu == pytest.approx(30)


def test_an_upset_moves_more_than_an_expected_result() -> None:
    strong, weak = Rating(32, 3), Rating(20, 3)
    expected = rate({1: strong, 2: weak}, [(1, 1), (2, 2)])
    upset = rate({1: strong, 2: weak}, [(1, 2), (2, 1)])
    assert upset[2].mu - weak.mu > expected[1].mu - strong.mu > 0


def test_a_computer_between_two_people_moves_neither_differently() -> None:
    with_computer = rated_result("G", players=[5, None, 6], places=(1, 2, 3))
    assert with_computer is not None
    assert rate({}, with_computer.places) == rate({}, [(5, 1), (6, 2)])


def test_the_shown_number_and_the_provisional_mark() -> None:
    assert (Rating().shown, Rating().provisional) == (1100, True)
    assert Rating(25, PROVISIONAL_SIGMA).shown == 1500
    assert Rating(25, PROVISIONAL_SIGMA).provisional
    assert not Rating(25, PROVISIONAL_SIGMA - 0.01).provisional
    assert Rating(30, 2).shown == 1500 + 40 * (30 - 6 - 10)
    assert Rating(27, 4).points - Rating(25, 1).points == pytest.approx(80)  # the centre: no uncertainty off


def test_a_newcomer_facing_settled_players_stops_being_provisional_after_about_a_dozen_games() -> None:
    # Games against settled players of their own level, won and lost in turn (in a ladder where everyone
    # starts together it takes about twenty: tests/ladder/test_ladder_sim.py).
    rating, games = Rating(), 0
    while rating.provisional:
        won = games % 2 == 0
        rating = rate({1: rating, 2: Rating(25, 2)}, [(1, 1 if won else 2), (2, 2 if won else 1)])[1]
        games += 1
    assert 8 <= games <= 16
