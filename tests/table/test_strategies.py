"""The computer-player registry, the lab's ideal levels and the risk-slapping strategies."""

from __future__ import annotations

import pytest

from ratscrew.bots import LAB_LEVELS, LEVEL_NAMES, LEVELS, STRATEGIES, Bot, Sight, resolve
from ratscrew.bots.registry import UnknownLevel
from ratscrew.bots.strategy import UnknownStrategy
from ratscrew.cards import Card, parse_cards
from ratscrew.engine import Game
from ratscrew.engine.actions import Flip, Slap
from ratscrew.engine.events import DismissReason, SlapDismissed, WrongSlap
from ratscrew.engine.view import view_for
from ratscrew.errors import MalformedInput
from ratscrew.rules import Rules
from ratscrew.shuffle import SeededRandom
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, run_virtual


def hands(*stacks: str) -> list[list[Card]]:
    return [parse_cards(s) for s in stacks]


def sight_after(game: Game, flips: int) -> Sight:
    for _ in range(flips):
        game.apply(Flip())
    return Sight.of(view_for(game), game.matches(), game.burned)


@pytest.mark.parametrize(
    ("preset", "penalty"),
    [
        ("standard", "burn"),
        ("bicycle", "burn"),
        ("everything", "burn"),
        ("standard", "lockout"),
        ("slapjack", "lockout-pile"),
    ],
)
def test_the_tables_sight_of_a_game_is_what_its_view_shows(preset: str, penalty: str) -> None:
    # The table builds a bot's Sight straight from the game; it must be what a View of the game shows.
    rules = Rules.build(preset, {"slaps.burned_count": True, "slapping.penalty": penalty})
    game = Game.from_seed(rules, 3, 12)
    rng = SeededRandom(4)
    for step in range(400):
        if game.over:
            break
        assert Sight.at(game) == Sight.of(view_for(game), game.matches(), game.burned), step
        slapper = rng.below(3)
        game.apply(Slap(slapper) if rng.below(4) == 0 and not game.out[slapper] else Flip())


@pytest.mark.parametrize("name", [*LEVELS, *LAB_LEVELS, "match"])
def test_every_level_resolves_by_name_in_any_case(name: str) -> None:
    assert resolve(name.upper()).name == name
    assert resolve(f" {name} ").strategy is None


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_a_strategy_goes_on_any_level(strategy: str) -> None:
    for level in LEVEL_NAMES:
        player = resolve(f"{level}:{strategy}")
        assert player.name == f"{level}:{strategy}"
        assert player.strategy is STRATEGIES[strategy]
        assert player.reaction == resolve(level).reaction


def test_strategies_are_exactly_the_ones_the_issue_names() -> None:
    assert set(STRATEGIES) == {"risk-faces", "risk-jqk", "risk-2", "risk-3", "risk-4", "risk-5", "risk-6"}


@pytest.mark.parametrize(
    ("name", "error", "says"),
    [
        ("godlike", UnknownLevel, "unknown bot level 'godlike': expected one of easy, medium"),
        ("godlike:risk-2", UnknownLevel, "unknown bot level 'godlike:risk-2'"),
        ("perfect:risk-9", UnknownStrategy, "unknown strategy 'risk-9': expected risk-faces, risk-jqk or risk-N"),
        ("perfect:risk-1", UnknownStrategy, "with N from 2 to 6"),
        ("instant:", UnknownStrategy, "unknown strategy ''"),
        ("medium:risk-faces:risk-2", UnknownStrategy, "unknown strategy 'risk-faces:risk-2'"),
    ],
)
def test_a_bad_name_is_one_clear_malformed_input_error(name: str, error: type[Exception], says: str) -> None:
    with pytest.raises(error) as caught:
        resolve(name)
    assert isinstance(caught.value, MalformedInput)
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)


def test_risk_faces_slaps_while_a_court_card_lies_under_the_top_card() -> None:
    # Seat 0 turns 3S, seat 1 KD, and seat 0 starts paying the King's debt with 2C.
    game = Game(Rules.build("standard"), hands("3S 2C 8S", "KD 4H 9C"))
    faces, jqk = STRATEGIES["risk-faces"], STRATEGIES["risk-jqk"]
    first = sight_after(game, 1)  # 3S alone
    assert not faces.wants(first.pile, first.burned)
    second = sight_after(game, 1)  # 3S KD: the King is the top card, nothing under it is a court card
    assert not faces.wants(second.pile, second.burned)
    third = sight_after(game, 1)  # 3S KD 2C: a King lies under the top card
    assert faces.wants(third.pile, third.burned)
    assert jqk.wants(third.pile, third.burned)


def test_risk_faces_counts_an_ace_and_burned_cards_but_risk_jqk_no_ace() -> None:
    pile = parse_cards("AS 7H")
    assert STRATEGIES["risk-faces"].wants(pile, ())
    assert not STRATEGIES["risk-jqk"].wants(pile, ())
    assert STRATEGIES["risk-jqk"].wants(parse_cards("7H"), parse_cards("QC"))  # a burned Queen under the pile
    assert not STRATEGIES["risk-faces"].wants((), parse_cards("QC"))  # no card to slap on


@pytest.mark.parametrize("n", range(2, 7))
def test_risk_n_slaps_once_the_pile_and_burned_cards_hold_n(n: int) -> None:
    chosen = STRATEGIES[f"risk-{n}"]
    cards = parse_cards("2S 3S 4S 5S 6S 7S 8S")
    for size in range(1, 8):
        assert chosen.wants(cards[:size], ()) == (size >= n)
    assert chosen.wants(cards[:1], cards[1:n])  # one face-up card and n - 1 burned under it
    assert not chosen.wants(cards[:1], cards[1 : n - 1])


def test_a_strategy_player_reacts_once_per_card_at_its_levels_speed_right_or_wrong() -> None:
    # Seat 0 turns QS; seat 1 owes two and pays 4H, then (after burning 9C for a wrong slap) 6H.
    game = Game(Rules.build("standard"), hands("QS 2C 8S", "4H 9C 6H"))
    bot = Bot(resolve("instant:risk-faces"), SeededRandom(1))
    assert bot.react(sight_after(game, 1), 0) is None  # QS alone: nothing under it
    sight = sight_after(game, 1)  # QS 4H: no pattern, but a Queen is under the top card
    plan = bot.react(sight, 0)
    assert plan is not None
    assert plan.delay == 0 and not sight.matches  # a risk slap: nothing legal shows
    assert bot.react(sight, 0) is None  # the same card again: it has already reacted
    game.apply(Slap(1))  # a wrong slap burns one card; the strategy still reacts once to this card
    assert bot.react(Sight.of(view_for(game), game.matches(), game.burned), 0) is None
    plan = bot.react(sight_after(game, 1), 0)  # the next card is a new chance
    assert plan is not None


def test_a_strategy_player_slaps_a_legal_pattern_as_intended() -> None:
    game = Game(Rules.build("standard"), hands("7S 5C", "7C 3D"))
    bot = Bot(resolve("perfect:risk-2"), SeededRandom(1))
    sight = sight_after(game, 2)  # 7S 7C: a double, and two cards on the pile
    plan = bot.react(sight, 1)
    assert plan is not None
    assert plan.delay == 150 and [m.pattern for m in sight.matches] == ["double"]


@pytest.mark.parametrize("seed", range(20))
def test_perfect_never_misses_a_pattern_and_never_slaps_wrong(seed: int) -> None:
    perfect = Bot(resolve("perfect"), SeededRandom(seed))
    game = Game(Rules.build("standard"), hands("7S 2D 8C", "7C 3D 9C"))
    assert perfect.react(sight_after(game, 1), 0) is None  # 7S: nothing to slap, and no wrong slap
    sight = sight_after(game, 1)  # 7S 7C: a double
    plan = perfect.react(sight, 0)
    assert plan is not None
    assert plan.delay == 150 and [m.pattern for m in sight.matches] == ["double"]


@pytest.mark.parametrize(
    ("changes", "deal", "pattern"),
    [
        ({"slaps.bigmac": True}, ("7S 3D", "2C 7C"), "bigmac"),
        ({"slaps.flush": 3}, ("2H 9H", "KH 4S"), "flush"),
        ({"slaps.wildcard": 10}, ("4D 5S", "TC 6C"), "wildcard"),
        ({"slaps.six_nine": True}, ("6D 5S", "9C 4C"), "six_nine"),
        ({"slaps.ten": "numbers", "slaps.top_bottom_ten": True}, ("3D 7S", "5C 4C"), "top_bottom_ten"),
    ],
)
def test_computers_slap_the_house_patterns(changes: dict[str, object], deal: tuple[str, str], pattern: str) -> None:
    game = Game(Rules.build("standard", changes), hands(*deal))
    flips = {"bigmac": 4, "flush": 3, "wildcard": 2, "six_nine": 2, "top_bottom_ten": 3}[pattern]
    sight = sight_after(game, flips)
    assert [m.pattern for m in sight.matches] == [pattern]
    assert Bot(resolve("perfect"), SeededRandom(3)).react(sight, 0) is not None


def test_a_locked_out_computer_does_not_slap_until_its_lockout_ends() -> None:
    rules = Rules.build("standard", {"slapping.penalty": "lockout", "slapping.lockout_cards": 4})
    game = Game(rules, hands("2S 7S 4S 9S", "3H 7H 5H 9H"))
    perfect = Bot(resolve("perfect"), SeededRandom(2))
    game.apply(Flip())
    game.apply(Slap(0))  # a wrong slap: seat 0 is locked out until four more cards are turned
    sight = sight_after(game, 3)  # 2S 3H 7S 7H: a double, but seat 0 is still locked out for one card
    assert sight.locked == (True, False) and [m.pattern for m in sight.matches] == ["double"]
    assert perfect.react(sight, 0) is None
    assert perfect.react(sight, 1) is not None
    game.apply(Slap(1))  # seat 1 takes the pile; then 4S is turned and the lockout is over
    sight = sight_after(game, 1)
    assert sight.locked == (False, False)


def test_computers_at_a_lockout_table_never_slap_while_locked_out() -> None:
    # Risk slappers slap wrong often and easy players now and then; locked out, they know better.
    rules = Rules.build("standard", {"slapping.penalty": "lockout", "slapping.lockout_cards": 8})
    for seed in range(6):
        table = _virtual_table(rules, ["easy:risk-3", "easy", "medium:risk-faces", "easy"], seed)
        reasons = [e.event.reason for e in table.log if isinstance(e.event, SlapDismissed)]
        wrong = [e for e in table.log if isinstance(e.event, WrongSlap)]
        assert wrong, "easy players slap wrong sometimes"
        assert DismissReason.LOCKED_OUT not in reasons


def _virtual_table(rules: Rules, levels: list[str], seed: int) -> Table:
    clock = VirtualClock()
    game = Game.from_seed(rules.with_changes({"end.max_cards": 3000}), len(levels), seed)
    table = Table(game, [SeatSpec(f"bot {i}", level) for i, level in enumerate(levels)], clock, seed=seed)
    run_virtual(table, clock)
    return table


def test_instant_reacts_with_no_delay_and_perfect_draws_nothing_from_its_stream() -> None:
    game = Game(Rules.build("standard"), hands("9S 4D", "9C 5D"))
    sight = sight_after(game, 2)
    rng = SeededRandom(5)
    plan = Bot(resolve("instant"), rng).react(sight, 1)
    assert plan is not None
    assert plan.delay == 0
    assert rng.random() == SeededRandom(5).random()
