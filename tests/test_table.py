"""The real-time table on virtual time: races, the slap window, stale bot slaps, fair ordering, replays."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pytest

from ratscrew.bots.levels import LEVELS, PATTERN_DIFFICULTY
from ratscrew.bots.reaction import ExGaussian, probability_first
from ratscrew.cards import Card, parse_cards
from ratscrew.engine import Game
from ratscrew.engine.events import PileWon, SlapCorrect, SlapDismissed, WrongSlap
from ratscrew.record import Record, state_json
from ratscrew.rules import Rules
from ratscrew.table import RejectCode, Rejected, SeatSpec, Table, TableConfig, VirtualClock, replay, run_virtual


def hands(*stacks: str) -> list[list[Card]]:
    return [parse_cards(s) for s in stacks]


def people(n: int) -> list[SeatSpec]:
    return [SeatSpec(f"p{i}") for i in range(n)]


def pile_winners(table: Table) -> list[tuple[int, str]]:
    return [(e.event.seat, e.event.how) for e in table.log if isinstance(e.event, PileWon)]


def test_faster_level_wins_a_race_in_the_predicted_proportion() -> None:
    # Seats 0 and 1 are computers that turn 7S then 7C: a double. Seat 2 is a person who never flips,
    # so nothing covers the double and the two computers race for it undisturbed.
    rules = Rules.build("standard")
    fast, slow = LEVELS["hard"], LEVELS["medium"]
    trials = 2500
    fast_wins = 0
    for seed in range(trials):
        game = Game(rules, hands("7S 2D", "7C 3D", "9H 4D"))
        clock = VirtualClock()
        table = Table(
            game, [SeatSpec("fast", "hard"), SeatSpec("slow", "medium"), SeatSpec("person")], clock, seed=seed
        )
        while game.cards < 2 or (game.tricks == 0 and table.next_deadline() is not None):
            deadline = table.next_deadline()
            if deadline is None:
                break
            clock.advance_to(deadline)
            table.run_due()
        winners = [seat for seat, how in pile_winners(table) if how == "slap"]
        fast_wins += bool(winners) and winners[0] == 0
    assert isinstance(fast.reaction, ExGaussian)
    assert isinstance(slow.reaction, ExGaussian)
    miss_factor = PATTERN_DIFFICULTY["double"][0]
    m_fast, m_slow = fast.miss * miss_factor, slow.miss * miss_factor
    predicted = (1 - m_fast) * (m_slow + (1 - m_slow) * probability_first(fast.reaction, slow.reaction))
    observed = fast_wins / trials
    sigma = math.sqrt(predicted * (1 - predicted) / trials)
    assert abs(observed - predicted) < 4 * sigma, (observed, predicted)
    assert observed > 0.75  # and the faster level really is much likelier to win


def challenge_table(rules: Rules | None = None) -> tuple[Game, Table, VirtualClock]:
    # Seat 0 turns 5S, seat 1 turns JH, seat 0 pays 5C: a sandwich, and seat 1 wins the challenge.
    game = Game(rules or Rules.build("standard"), hands("5S 5C 8D 9D", "JH 2C 3C 4C"))
    clock = VirtualClock()
    return game, Table(game, people(2), clock), clock


def play_to_won_challenge(table: Table, clock: VirtualClock) -> int:
    for seat in (0, 1, 0):
        assert answer(table, Table.flip, seat) is None
        clock.advance(300)
    assert table.game.collect_pending == 1
    return clock.now() - 300  # when the challenge was won


def answer(table: Table, act: Callable[..., None], *args: object, **kwargs: object) -> Rejected | None:
    """What the table said to one input (``Table.flip`` or ``Table.slap``), through its one way of saying no:
    the refusal, or None if it took it."""
    said: list[Rejected] = []
    table.refusals.append(said.append)
    try:
        act(table, *args, **kwargs)
    finally:
        table.refusals.pop()
    assert len(said) <= 1
    return said[0] if said else None


def test_slap_inside_the_window_after_a_won_challenge_takes_the_pile() -> None:
    game, table, clock = challenge_table()
    won_at = play_to_won_challenge(table, clock)
    clock.advance_to(won_at + 700)  # inside the 1000 ms window
    table.run_due()
    assert answer(table, Table.slap, 0) is None
    assert pile_winners(table) == [(0, "slap")]
    assert [str(c) for c in game.stacks[0]] == ["8D", "9D", "5S", "JH", "5C"]


def test_pile_is_collected_when_the_window_closes_and_a_late_slap_is_dismissed() -> None:
    game, table, clock = challenge_table()
    won_at = play_to_won_challenge(table, clock)
    clock.advance_to(won_at + 1000)
    table.run_due()
    assert pile_winners(table) == [(1, "challenge")]
    # A slap that reacted to the sandwich (card 3) lands after the pile moved: no penalty.
    clock.advance(150)
    assert answer(table, Table.slap, 0, card=3) is None
    assert isinstance(table.log[-1].event, SlapDismissed)
    assert len(game.stacks[0]) == 2 and not game.burned
    # Once the winner leads a new card, a slap is judged against the new pile: 2C alone is a wrong slap.
    assert answer(table, Table.flip, 1) is None
    assert answer(table, Table.slap, 0) is None
    assert isinstance(table.log[-1].event, WrongSlap)
    assert [str(c) for c in game.burned] == ["8D"]


def test_a_slap_on_the_empty_pile_after_a_won_pile_is_a_wrong_slap_not_a_late_one() -> None:
    # The page sends no card when its pile is empty: the slap is on nothing, and costs what the rules say (a
    # burned card), as at the very start of the game; it is not set aside as too late for the pile won before.
    game, table, clock = challenge_table()
    won_at = play_to_won_challenge(table, clock)
    clock.advance_to(won_at + 1000)
    table.run_due()
    assert pile_winners(table) == [(1, "challenge")] and not game.pile
    assert answer(table, Table.slap, 0) is None
    wrong = table.log[-1]
    assert isinstance(wrong.event, WrongSlap) and [str(c) for c in wrong.event.burned] == ["8D"]
    assert wrong.seen is not None and wrong.seen.pile == ()


def test_flip_is_refused_while_the_won_pile_waits() -> None:
    _game, table, clock = challenge_table()
    play_to_won_challenge(table, clock)
    refused = answer(table, Table.flip, 1)
    assert refused is not None and "waiting" in refused.reason
    assert (refused.code, refused.seat, refused.by) == (RejectCode.WAITING, 1, 1)  # seat 1 collects, and asked
    not_yet = answer(table, Table.flip, 0)  # and not anyone's turn but the leader's, after collecting
    assert not_yet is not None and not_yet.code is RejectCode.WAITING


def test_stale_bot_slap_is_cancelled_when_the_pile_changes() -> None:
    # The computer (easy: about a second to react) sees the double 7S 7C, but the person turns the next
    # card 100 ms later; the computer's planned slap must never land on the new pile.
    rules = Rules.build("standard")
    planned_and_dropped = 0
    for seed in range(40):
        game = Game(rules, hands("7S 2D 4D", "7C 3D 5D"))
        clock = VirtualClock()
        table = Table(game, [SeatSpec("person"), SeatSpec("bot", "easy")], clock, seed=seed)
        assert answer(table, Table.flip, 0) is None
        deadline = table.next_deadline()
        assert deadline is not None
        clock.advance_to(deadline)
        table.run_due()  # the computer turns 7C: a double
        assert game.cards == 2
        planned = [timer.at for timer in table._bot_slaps]
        clock.advance(100)
        table.run_due()
        assert game.tricks == 0  # nobody reacts within 100 ms at easy (its floor is 180 ms)
        assert answer(table, Table.flip, 0) is None  # 2D covers the double
        clock.advance(3000)
        table.run_due()
        landed = [e.t for e in table.log if isinstance(e.event, SlapCorrect | WrongSlap) and e.event.seat == 1]
        assert not set(planned) & set(landed)
        planned_and_dropped += len(planned)
    assert planned_and_dropped > 20  # most of the time the computer had planned a slap, and every one was dropped


def test_held_inputs_are_applied_in_landing_order() -> None:
    # Online, inputs wait hold_ms; a slap from a slow connection that landed first still wins.
    game = Game(Rules.build("standard"), hands("7S 2D", "7C 3D", "9H 4D"))
    clock = VirtualClock()
    table = Table(game, people(3), clock, config=TableConfig(hold_ms=120))
    table.flip(0)
    clock.advance(130)
    table.run_due()
    table.flip(1)
    clock.advance(130)
    table.run_due()
    assert game.cards == 2
    clock.advance(100)
    table.slap(2)  # arrives first, landed now
    table.slap(0, landed=clock.now() - 60)  # arrives second but landed 60 ms earlier
    clock.advance(200)
    table.run_due()
    assert pile_winners(table) == [(0, "slap")]
    assert isinstance(table.log[-1].event, WrongSlap | SlapDismissed)


def test_split_rule_shares_a_pile_between_slaps_inside_the_tie_window() -> None:
    rules = Rules.build("standard", {"slapping.tie": "split", "slapping.tie_window_ms": 50})
    game = Game(rules, hands("7S 2D 5D", "7C 3D 6D", "9H 4D 8D"))
    clock = VirtualClock()
    table = Table(game, people(3), clock)
    table.flip(0)
    table.flip(1)
    clock.advance(400)
    table.slap(2)
    clock.advance(30)
    table.slap(1)  # 30 ms later: inside the window
    clock.advance(100)
    table.run_due()  # the window closes and the pile is shared, earliest first
    won = [e.event for e in table.log if isinstance(e.event, PileWon)]
    assert len(won) == 1 and won[0].shares == ((2, 1), (1, 1))
    assert [str(c) for c in game.stacks[2]] == ["9H", "4D", "8D", "7S"]
    assert [str(c) for c in game.stacks[1]] == ["3D", "6D", "7C"]


def test_match_level_plays_at_the_measured_speed() -> None:
    # A person's reaction times are recorded; a "match" computer then reacts at about that speed.
    rules = Rules.build("standard")
    game = Game.from_seed(rules, 2, 3)
    clock = VirtualClock()
    table = Table(game, [SeatSpec("person"), SeatSpec("copy", "match", match_seat=0)], clock, seed=1)
    table.reactions[0].extend([900, 950, 1000, 1100, 880, 1020, 940, 990])
    level = table._level_for(table.seats[1])
    assert level.name == "match"
    assert 900 <= level.reaction.mean <= 1050
    assert table._level_for(SeatSpec("copy", "match", match_seat=1)).name == "medium"  # no samples: medium


def test_bots_decide_from_what_a_seat_can_see_only() -> None:
    # Two games with the same visible state but different hidden stacks: every bot decision is the same.
    rules = Rules.build("standard")
    first = Game(rules, hands("7S 2D 3H 4S", "7C 9D 5H 6S"))
    second = Game(rules, hands("7S KD AH QS", "7C 8C TS JS"))
    decisions = []
    for game in (first, second):
        clock = VirtualClock()
        table = Table(game, [SeatSpec("a", "medium"), SeatSpec("b", "medium")], clock, seed=11)
        for _ in range(2):  # both computers flip: 7S then 7C
            deadline = table.next_deadline()
            assert deadline is not None
            clock.advance_to(deadline)
            table.run_due()
        decisions.append(sorted((t.at, t.seat) for t in table._bot_slaps))
    assert decisions[0] == decisions[1] and decisions[0]


def test_a_live_recorded_game_replays_to_the_same_final_state() -> None:
    rules = Rules.build("bicycle", {"end.max_cards": 3000})
    game = Game.from_seed(rules, 4, 21)
    clock = VirtualClock()
    levels = ["easy", "medium", "hard", "expert"]
    table = Table(game, [SeatSpec(level, level) for level in levels], clock, seed=5)
    run_virtual(table, clock)
    assert game.over
    record = Record(rules, 4, seed=21, players=tuple(levels), actions=tuple(game.actions))
    assert all(getattr(a, "t", None) is not None for a in game.actions)
    replayed = Record.from_json(record.to_json()).replay()
    assert state_json(replayed) == state_json(game)
    assert replayed.outcome == game.outcome


@pytest.mark.parametrize(
    "preset", ["standard", "bicycle", "one-chance", "everything", "bataille-corse", "out-is-out", "beggar"]
)
def test_every_preset_plays_to_an_end_between_computers(preset: str) -> None:
    from ratscrew.lab.simulate import simulate

    summary = simulate(Rules.build(preset), ["easy", "medium", "hard", "expert"], 40, seed=3, workers=1)
    doc = summary.as_dict()
    results = doc["results"]
    assert isinstance(results, dict)
    assert sum(results.values()) == 40
    assert set(results) == {"win", "draw", "limit", "loop"}
    assert summary.tally.games == 40 and min(summary.tally.cards) > 0


def test_simulation_is_the_same_for_the_same_seed_whatever_the_workers() -> None:
    from ratscrew.lab.simulate import simulate

    levels: Sequence[str] = ["medium", "hard", "medium"]
    one = simulate(Rules.build("standard"), levels, 12, seed=9, workers=1).as_dict()
    two = simulate(Rules.build("standard"), levels, 12, seed=9, workers=2).as_dict()
    other = simulate(Rules.build("standard"), levels, 12, seed=10, workers=1).as_dict()
    assert one == two
    assert one != other


def test_a_persons_speed_carries_over_to_the_next_game_at_the_table() -> None:
    earlier = {0: [300, 320, 310, 305, 330, 315]}
    game = Game.from_seed(Rules.build("standard"), 2, 4)
    table = Table(
        game, [SeatSpec("person"), SeatSpec("copy", "match", match_seat=0)], VirtualClock(), seed=2, reactions=earlier
    )
    level = table.bots[1].level
    assert level.name == "match"
    assert 290 <= level.reaction.mean <= 340
    assert table.reactions[0] == earlier[0]
    assert table.reactions[0] is not earlier[0]  # the table keeps its own list


def test_an_old_collect_timer_does_not_cut_a_later_window_short() -> None:
    # Seat 1 wins a challenge (5S JH 5C), seat 0 steals it with a slap, then quickly wins a challenge of its
    # own: the first pile's timer must not collect the second pile before its own full second has passed.
    game = Game(Rules.build("standard"), hands("5S 5C QD 9D", "JH 2C 3C 4C"))
    clock = VirtualClock()
    table = Table(game, people(2), clock)
    for seat in (0, 1, 0):
        assert answer(table, Table.flip, seat) is None
    won_at = clock.now()
    assert game.collect_pending == 1
    clock.advance(300)
    table.run_due()
    assert answer(table, Table.slap, 0) is None  # the sandwich: seat 0 takes the pile
    for seat in (0, 1, 1):  # QD, then seat 1 pays 2C 3C: seat 0 wins at won_at + 300
        assert answer(table, Table.flip, seat) is None
    assert game.collect_pending == 0
    clock.advance_to(won_at + 1000)  # when the first pile would have moved
    table.run_due()
    assert game.collect_pending == 0
    assert names(game.pile) == ["QD", "2C", "3C"]
    clock.advance_to(won_at + 300 + 1000)
    table.run_due()
    assert game.collect_pending is None
    assert game.pile == []


def names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _step_to(table: Table, clock: VirtualClock, t: int) -> None:
    """Advance virtual time to ``t``, firing every timer on the way in order."""
    while True:
        deadline = table.next_deadline()
        if deadline is None or deadline > t:
            break
        clock.advance_to(max(deadline, clock.now()))
        table.run_due()
    clock.advance_to(t)
    table.run_due()


def test_held_table_also_holds_the_collect_window() -> None:
    # 9S, then JC opens a challenge, 9H pays it and makes a sandwich: seat 1 wins the challenge at 3000 and
    # the pile would move at 4000. Seat 0's slap landed at 3990 and reaches the server at 4010, inside the
    # 50 ms hold: it must be judged before the pile moves, and take it.
    rules = Rules.build("standard", {"slapping.collect_delay_ms": 1000})
    game = Game(rules, hands("9S 2D", "JC 3D", "9H 4D"))
    clock = VirtualClock()
    table = Table(game, people(3), clock, config=TableConfig(hold_ms=50))
    for seat, at in ((0, 1000), (1, 2000), (2, 3000)):
        _step_to(table, clock, at)
        assert answer(table, Table.flip, seat) is None
    _step_to(table, clock, 4010)
    assert game.collect_pending == 1  # the table runs 50 ms behind: the window has not closed yet
    assert answer(table, Table.slap, 0, card=3, landed=3990) is None
    _step_to(table, clock, 4200)
    assert pile_winners(table) == [(0, "slap")]


def test_held_table_also_holds_a_split_tie_window() -> None:
    rules = Rules.build("standard", {"slapping.tie": "split", "slapping.tie_window_ms": 50})
    game = Game(rules, hands("7S 2D 5D", "7C 3D 6D", "9H 4D 8D"))
    clock = VirtualClock()
    table = Table(game, people(3), clock, config=TableConfig(hold_ms=50))
    _step_to(table, clock, 100)
    table.flip(0)
    _step_to(table, clock, 200)
    table.flip(1)
    _step_to(table, clock, 600)
    table.slap(2, card=2)  # lands at 600
    _step_to(table, clock, 670)
    table.slap(1, card=2, landed=630)  # landed 30 ms after the first, inside the window; arrives after it closed
    _step_to(table, clock, 1000)
    won = [e.event for e in table.log if isinstance(e.event, PileWon)]
    assert len(won) == 1 and won[0].shares == ((2, 1), (1, 1))


def test_a_slap_is_judged_against_the_pile_its_player_saw_not_the_card_that_covered_it() -> None:
    # 7S 7C is a double; a computer at seat 2 covers it. Seat 0 slapped 10 ms before the computer's card
    # landed, but the slap reaches the server 20 ms after: with a hold it is still judged against the double.
    for hold in (0, 60):
        rules = Rules.build("standard")
        game = Game(rules, hands("7S 2D", "7C 3D", "4H 8D"))
        clock = VirtualClock()
        table = Table(game, [SeatSpec("p0"), SeatSpec("p1"), SeatSpec("bot", "medium")], clock, seed=3)
        table.hold_ms = hold
        _step_to(table, clock, 100)
        table.flip(0)
        _step_to(table, clock, 200)
        table.flip(1)
        table.bots[2].level = LEVELS["expert"]  # no miss: it slaps or flips, whichever its timers say first
        table._cancel_bot_slaps()  # a person's race only: the computer just turns its card
        _step_to(table, clock, 200 + hold + 1)
        deadline = table.next_deadline()
        assert deadline is not None
        covered_at = deadline - hold  # when the computer's card lands
        _step_to(table, clock, covered_at + 20)
        table.slap(0, card=2, landed=covered_at - 10)
        _step_to(table, clock, covered_at + 500)
        if hold:
            assert pile_winners(table)[0] == (0, "slap")
        else:  # without a hold the card that covered the double was applied first: a wrong slap
            assert any(isinstance(e.event, WrongSlap) and e.event.seat == 0 for e in table.log)


def test_a_held_input_no_longer_possible_is_refused_the_same_way_when_its_time_comes() -> None:
    game = Game(Rules.build("standard"), hands("3H 4H", "5D 6D"))
    clock = VirtualClock()
    table = Table(game, people(2), clock, config=TableConfig(hold_ms=100))
    said: list[Rejected] = []
    table.refusals.append(said.append)
    table.flip(0)
    clock.advance(10)
    table.flip(0)  # still seat 0's turn when it arrives: held, like the first
    assert said == []
    _step_to(table, clock, 400)
    assert game.cards == 1
    assert [(no.code, no.by) for no in said] == [(RejectCode.NOT_YOUR_TURN, 0)]
    assert "turn passed" in said[0].reason


def test_a_game_resumed_from_its_actions_has_the_log_it_had_and_plays_on() -> None:
    rules = Rules.build("standard", {"end.max_cards": 400})
    seats = [SeatSpec("a", "medium"), SeatSpec("b", "hard")]
    clock = VirtualClock()
    played = Table(Game.from_seed(rules, 2, 9), seats, clock, seed=3)
    while played.game.cards < 120:
        _step_to(played, clock, clock.now() + 50)
    game = Game.from_seed(rules, 2, 9)
    history = replay(game, played.game.actions)
    assert [(e.seq, e.t, e.event) for e in history] == [(e.seq, e.t, e.event) for e in played.log]
    assert state_json(game) == state_json(played.game)
    resumed = Table(game, seats, VirtualClock(game.now), seed=3, history=history)
    assert resumed.log == played.log
    resumed.slap(0)  # and it plays on: the next events are numbered after the ones it was handed
    assert resumed.log[-1].seq == len(resumed.log) - 1 > len(history) - 1
