"""Property tests: many random games under every preset and random mixes of house rules.

Each game is dealt by ``Game.from_seed`` and driven by a random sequence of actions (mostly flips, some
waits, slaps by random seats that are in, right and wrong, times that never go back, and sometimes a
``card`` a slap reacted to). After every action the invariants of docs/rules.md must hold; at the end the game
must survive a trip through a ``ratscrew-record/1`` document unchanged.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from harness.invariants import check_invariants
from harness.random_play import MAX_CARDS, Driver, Op, check_round_trip, ops_strategy, rules_for
from ratscrew.engine import Flip, Game, Result
from ratscrew.errors import RulesError
from ratscrew.rules import PRESETS, Rules

PRESET_NAMES = sorted(PRESETS)

seats_strategy = st.integers(2, 8)
seed_strategy = st.integers(0, 2**32)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("preset", PRESET_NAMES)
@SETTINGS
@given(data=st.data(), seats=seats_strategy, seed=seed_strategy, ops=ops_strategy)
def test_random_games_keep_every_invariant(
    preset: str, data: st.DataObject, seats: int, seed: int, ops: list[Op]
) -> None:
    rules = data.draw(rules_for(preset), label="rules")
    steps = data.draw(st.integers(1, 400), label="steps")
    game = Game.from_seed(rules, seats, seed)
    assert sum(len(h) for h in game.hands) == rules.deck_for(seats).size
    driver = Driver(game)
    for i in range(steps):
        if game.over:
            break
        driver.step(ops[i % len(ops)])
    check_round_trip(game, seed, driver.events)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seats=seats_strategy, seed=seed_strategy)
def test_flips_alone_always_end(preset: str, data: st.DataObject, seats: int, seed: int) -> None:
    rules = data.draw(rules_for(preset, timed=False), label="rules")
    game = Game.from_seed(rules, seats, seed)
    driver = Driver(game)
    for _ in range(2 * MAX_CARDS + 10):
        if game.over:
            break
        driver.apply(Flip())
    assert game.outcome is not None, f"still playing after {game.cards} cards with end.max_cards={MAX_CARDS}"
    assert game.outcome.result in (Result.WIN, Result.LOOP, Result.LIMIT)
    assert game.cards <= MAX_CARDS
    if game.outcome.result is Result.LOOP:
        assert not rules.any_slap_enabled(jokers_in_play=any(c.is_joker for h in game.hands for c in h))
    check_round_trip(game, seed, driver.events)


@settings(max_examples=60, deadline=None)
@given(
    seats=seats_strategy,
    seed=seed_strategy,
    decks=st.sampled_from([1, 2]),
    jokers=st.sampled_from([1, 2]),
    ops=ops_strategy,
)
def test_two_decks_and_jokers(seats: int, seed: int, decks: int, jokers: int, ops: list[Op]) -> None:
    rules = Rules.build(
        "bicycle", {"deck.decks": decks, "deck.jokers": jokers, "challenge.joker": seed % 5, "end.max_cards": MAX_CARDS}
    )
    game = Game.from_seed(rules, seats, seed)
    assert sum(len(h) for h in game.hands) == decks * (52 + jokers)
    assert sum(c.is_joker for h in game.hands for c in h) == decks * jokers
    driver = Driver(game)
    for i in range(300):
        if game.over:
            break
        driver.step(ops[i % len(ops)])
    check_round_trip(game, seed, driver.events)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    preset=st.sampled_from(PRESET_NAMES),
    seats=st.integers(3, 8),
    seed=seed_strategy,
    leader=st.sampled_from(["winner", "left"]),
    penalty=st.sampled_from(["burn", "give-each"]),
    penalty_cards=st.sampled_from([1, 2, 3]),
    slappers=st.lists(st.integers(0, 11), min_size=1, max_size=4),
)
def test_penalties_while_a_pile_waits(
    data: st.DataObject,
    preset: str,
    seats: int,
    seed: int,
    leader: str,
    penalty: str,
    penalty_cards: int,
    slappers: list[int],
) -> None:
    # Wrong slaps in the collect window change who can lead once the pile moves; the seat reported as due
    # must follow (docs/rules.md: while it waits, the seat due is the one that will lead after collecting).
    rules = data.draw(
        rules_for(
            preset,
            timed=False,
            fixed={
                "players.leader": leader,
                "slapping.penalty": penalty,
                "slapping.penalty_cards": penalty_cards,
                "slapping.tie": "first",
            },
        ),
        label="rules",
    )
    game = Game.from_seed(rules, seats, seed)
    driver = Driver(game)
    for _ in range(400):
        if game.over:
            break
        if game.collect_pending is not None:
            for seat in slappers:
                if not game.over and game.collect_pending is not None:
                    driver.step(Op("slap", seat, None, None))
        if not game.over:
            driver.step(Op("flip", 0, None, None))
    check_round_trip(game, seed, driver.events)


def test_deal_is_seeded_and_uneven_stacks_go_to_first_seats() -> None:
    rules = Rules.build("standard")
    game = Game.from_seed(rules, 3, 7)
    assert [len(h) for h in game.hands] == [18, 17, 17]
    assert game.hands == Game.from_seed(rules, 3, 7).hands
    assert game.hands != Game.from_seed(rules, 3, 8).hands
    assert game.turn == 0
    eight = Game.from_seed(rules, 8, 7)  # auto: two decks above 6 players
    assert sum(len(h) for h in eight.hands) == 104
    assert [len(h) for h in eight.hands] == [13] * 8


def test_ten_gap_needs_ten() -> None:
    with pytest.raises(RulesError):
        Rules.build("standard", {"slaps.ten_gap": "court"})
    with pytest.raises(RulesError):
        Rules.build("bicycle", {"slaps.ten": "off"})
    assert Rules.build("bicycle", {"slaps.ten": "off", "slaps.ten_gap": "off"}).slaps.ten == "off"


# ---------------------------------------------------------------------------------------------- stateful


class GameMachine(RuleBasedStateMachine):
    """Random play, one action at a time, with the invariants checked between every step."""

    driver: Driver
    seed: int

    @initialize(data=st.data(), preset=st.sampled_from(PRESET_NAMES), seats=seats_strategy, seed=seed_strategy)
    def deal(self, data: st.DataObject, preset: str, seats: int, seed: int) -> None:
        self.seed = seed
        self.driver = Driver(Game.from_seed(data.draw(rules_for(preset)), seats, seed))

    @rule(dt=st.one_of(st.none(), st.integers(0, 300)))
    def flip(self, dt: int | None) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("flip", 0, dt, None))

    @rule(dt=st.one_of(st.none(), st.integers(0, 2000)))
    def wait(self, dt: int | None) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("wait", 0, dt, None))

    @rule(
        seat=st.integers(0, 11),
        dt=st.one_of(st.none(), st.integers(0, 300)),
        card=st.one_of(st.none(), st.integers(0, 10_000)),
        aim=st.booleans(),
    )
    def slap(self, seat: int, dt: int | None, card: int | None, aim: bool) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("slap_hit" if aim else "slap", seat, dt, card))

    @rule(seat=st.integers(0, 11))
    def illegal(self, seat: int) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("illegal", seat, None, None))

    @invariant()
    def cards_are_all_there(self) -> None:
        if hasattr(self, "driver"):
            check_invariants(self.driver.game, self.driver.dealt)

    def teardown(self) -> None:
        if hasattr(self, "driver"):
            check_round_trip(self.driver.game, self.seed, self.driver.events)


GameMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestGameMachine = GameMachine.TestCase
