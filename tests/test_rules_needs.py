"""The settings that depend on another (``needs`` in rules/options.py) are greyed out by the settings pages
exactly when they cannot change play, so ``needs`` must say just that: under rules that do not call for such a
setting, every value it takes plays the same game, action for action; under rules that do, some deal plays
differently for two of its values."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratscrew.engine import Action, Game
from ratscrew.rules import OPTIONS, Rules
from ratscrew.rules.options import Option, Value, option
from tests.test_properties import MAX_CARDS, OP_KINDS, Driver, Op, ops_strategy, rules_for, state_key

# Those with an off value are refused under unmet needs (Rules.build says so): nothing is left to compare.
DEPENDENT = [o for o in OPTIONS if o.needs is not None and o.needs.off is None]
PRESETS = ["standard", "bicycle", "everything", "bataille-corse", "slapjack"]


def values_of(opt: Option) -> list[Value]:
    if opt.kind == "bool":
        return [False, True]
    if opt.kind == "choice":
        return list(opt.choices)
    return sorted({opt.minimum, int(opt.default), opt.maximum})


def unmet(opt: Option, key: str | None = None) -> list[Value]:
    """The values of a key ``opt`` depends on (the first, unless named) that leave it without effect."""
    assert opt.needs is not None
    return [v for v in values_of(option(key or opt.needs.key)) if v not in opt.needs.values]


class Player(Driver):
    """The property tests' random play without their checks after every action (tests/test_properties.py
    makes them): here only the states are compared, and a search over many deals must stay quick."""

    def apply(self, action: Action) -> None:
        self.game.apply(action)


def play(rules: Rules, seats: int, seed: int, ops: list[Op], steps: int) -> list[str]:
    """The state after every action of one deal played with these actions: the cards, the lockouts, and
    whether the pile may be slapped (a setting that changes only that still changes play)."""
    game = Game.from_seed(rules, seats, seed)
    driver = Player(game)
    seen = []
    for i in range(steps):
        if game.over:
            break
        driver.step(ops[i % len(ops)])
        seen.append(state_key(game) + repr([game.lockout(s) for s in range(game.players)]) + str(game.slappable()))
    return seen


def test_the_dependent_settings_are_the_ones_the_pages_grey_out() -> None:
    keys = {o.key for o in DEPENDENT}
    assert {"slapping.once_per_card", "slaps.burned_count", "slaps.joker", "challenge.joker"} <= keys
    assert all(unmet(o) for o in DEPENDENT)


@pytest.mark.parametrize("opt", DEPENDENT, ids=lambda o: o.key)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(), seats=st.integers(2, 5), seed=st.integers(0, 2**32), ops=ops_strategy, steps=st.integers(40, 250)
)
def test_a_setting_whose_needs_are_not_met_changes_nothing(
    opt: Option, data: st.DataObject, seats: int, seed: int, ops: list[Op], steps: int
) -> None:
    assert opt.needs is not None
    preset = data.draw(st.sampled_from(PRESETS))
    # Every key it may depend on is set so that it does not apply (a marriage's suits need marriage or divorce).
    fixed: dict[str, object] = {key: data.draw(st.sampled_from(unmet(opt, key))) for key in opt.needs.keys}
    rules: Rules = data.draw(rules_for(preset, timed=False, fixed=fixed))
    games = [play(rules.with_changes({opt.key: v}), seats, seed, ops, steps) for v in values_of(opt)]
    assert all(g == games[0] for g in games[1:]), f"{opt.key} changed play under {fixed}"


def random_ops(rng: random.Random, count: int) -> list[Op]:
    return [
        Op(rng.choice(OP_KINDS), rng.randrange(12), rng.choice([None, rng.randrange(400)]), None) for _ in range(count)
    ]


MET = [
    pytest.param(opt, value, id=f"{opt.key}|{opt.needs.key}={value}")
    for opt in DEPENDENT
    if opt.needs is not None
    for value in opt.needs.values
]


def settings_of_dependents(opt: Option) -> list[dict[str, Value]]:
    """No change, and each value of every option that needs ``opt``: once_per_card matters under a lockout only
    with scope table, which needs it."""
    return [{}] + [
        {dep.key: v} for dep in OPTIONS if dep.needs is not None and opt.key in dep.needs.keys for v in values_of(dep)
    ]


@pytest.mark.parametrize(("opt", "value"), MET)
def test_a_setting_whose_needs_are_met_changes_some_game(opt: Option, value: Value) -> None:
    assert opt.needs is not None
    rules = Rules.build("standard", {opt.needs.key: value, "end.max_cards": MAX_CARDS})
    for held in settings_of_dependents(opt):
        base = rules.with_changes(held)
        for seed in range(300):
            rng = random.Random(seed)
            seats, ops = rng.randint(2, 3), random_ops(rng, 60)
            games = [play(base.with_changes({opt.key: v}), seats, seed, ops, 400) for v in values_of(opt)]
            if any(g != games[0] for g in games[1:]):
                return
    pytest.fail(f"{opt.key} changed no game in 300 deals under {opt.needs.key} = {value}")
