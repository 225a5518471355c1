"""Property tests for the house rules beyond the classic ones, each alone and all of them mixed.

The same random play and the same invariants as tests/test_properties.py (its Driver checks every action,
its penalty model follows every lockout), with the rule sets chosen so that each new option is really on.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.rules_md import settled
from ratscrew.engine import Game
from ratscrew.rules import OPTIONS_BY_KEY, Rules
from ratscrew.rules.options import Value
from tests.test_properties import MAX_CARDS, Driver, Op, check_round_trip, ops_strategy, rules_for

# Each house rule with the values that turn it on, and what it needs beside it to mean anything.
HOUSE_RULES: dict[str, tuple[list[Value], dict[str, Value]]] = {
    "slaps.bigmac": ([True], {}),
    "slaps.flush": ([3, 4], {}),
    "slaps.wildcard": ([10, "J", 2, "A"], {}),
    "slaps.six_nine": ([True], {}),
    "slaps.top_bottom_ten": ([True], {"slaps.ten": "numbers"}),
    "slapping.penalty": (["lockout", "lockout-pile", "give-pile"], {}),
    "slapping.lockout_cards": ([1, 2, 20], {"slapping.penalty": "lockout"}),
    "slapping.penalty_from": (["bottom"], {"slapping.penalty_cards": 2}),
    "slapping.once_per_card": ([True], {}),
    "challenge.J": ([0, 5], {}),
    "challenge.A": ([0, 5], {}),
    "challenge.joker": ([5], {"deck.jokers": 2}),
}
ALONE = [
    pytest.param(key, value, needs, id=f"{key}={value}")
    for key, (values, needs) in HOUSE_RULES.items()
    for value in values
]
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(driver: Driver, ops: list[Op], steps: int) -> None:
    game = driver.game
    for i in range(steps):
        if game.over:
            break
        driver.step(ops[i % len(ops)])


def test_every_house_rule_is_drawn_here() -> None:
    assert set(HOUSE_RULES) <= set(OPTIONS_BY_KEY)
    for key, (values, needs) in HOUSE_RULES.items():
        for value in values:
            assert Rules.build("standard", {**needs, key: value}).get(key) == value


@pytest.mark.parametrize(("key", "value", "needs"), ALONE)
@SETTINGS
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32), ops=ops_strategy, steps=st.integers(50, 400))
def test_each_house_rule_alone(
    key: str, value: Value, needs: dict[str, Value], seats: int, seed: int, ops: list[Op], steps: int
) -> None:
    rules = Rules.build("standard", {**needs, key: value, "end.max_cards": MAX_CARDS})
    game = Game.from_seed(rules, seats, seed)
    driver = Driver(game)
    play(driver, ops, steps)
    check_round_trip(game, seed, driver.events)


@st.composite
def house_mixes(draw: st.DrawFn) -> Rules:
    """A preset, then several house rules at once on top of random other changes."""
    preset = draw(st.sampled_from(["standard", "bicycle", "slapjack", "bataille-corse", "everything"]))
    chosen = draw(st.lists(st.sampled_from(sorted(HOUSE_RULES)), min_size=2, max_size=6, unique=True))
    fixed: dict[str, object] = {}
    for key in chosen:
        values, needs = HOUSE_RULES[key]
        fixed |= needs
        fixed[key] = draw(st.sampled_from(values))
    rules: Rules = draw(rules_for(preset, fixed=settled(preset, fixed)))
    return rules


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=house_mixes(), seats=st.integers(2, 8), seed=st.integers(0, 2**32), ops=ops_strategy)
def test_house_rules_in_mixes(rules: Rules, seats: int, seed: int, ops: list[Op]) -> None:
    game = Game.from_seed(rules, seats, seed)
    driver = Driver(game)
    play(driver, ops, 300)
    check_round_trip(game, seed, driver.events)
