"""The compiled game kernel (ratscrew._ers_fast) plays exactly the games the Python modules play.

Each check plays one game both ways, with the same rules, seats and seed, and asks for identical per-game
figures (GameStats) and an identical event-stream hash (ratscrew.lab.kernel.event_hash). Card limits are
kept low so the Python side stays quick; every other option is drawn freely where the kernel covers it.
No test skips when the kernel is missing: play_c raises ImportError, and test_kernels.py fails the build.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.rules_md import settled
from ratscrew import kernels
from ratscrew.bmn import parse_bmn_hands
from ratscrew.bots.registry import LEVEL_NAMES, STRATEGY_NAMES
from ratscrew.cards import FULL_DECK, Card, Rank, deal
from ratscrew.engine.events import CardTurned, GameOver, PileWon, WonBy
from ratscrew.engine.game import Game
from ratscrew.engine.outcome import Outcome, Result
from ratscrew.errors import MalformedInput
from ratscrew.lab import kernel
from ratscrew.lab.simulate import game_seed, guarded, simulate
from ratscrew.rules import Rules
from ratscrew.rules.options import OPTIONS
from ratscrew.rules.presets import PRESETS
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, TableConfig, TableEvent, run_virtual


@pytest.fixture(autouse=True)
def kernel_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests say themselves when Python is forced, whatever the environment the suite runs in."""
    monkeypatch.delenv(kernels.PURE_PYTHON_ENV, raising=False)


BOT_NAMES = [*LEVEL_NAMES, *(f"{level}:{s}" for level in LEVEL_NAMES for s in STRATEGY_NAMES)]


def same_game(rules: Rules, levels: list[str], seed: int) -> None:
    assert kernel.covers(rules, levels) is None
    python = kernel.play_python(rules, levels, seed, want_hash=True)
    compiled = kernel.play_c(rules, levels, seed, want_hash=True)
    assert compiled == python, (rules.changes_from_preset(), levels, seed)


def short(rules: Rules, max_cards: int = 700) -> Rules:
    return rules.with_changes({"end.max_cards": max_cards})


# ---------------------------------------------------------------------- the hash itself


def test_the_hash_is_fnv1a_over_six_words_per_event() -> None:
    events = [
        TableEvent(0, 510, CardTurned(2, Card.parse("QH"), 1)),
        TableEvent(1, 900, PileWon(1, WonBy.SLAP, (Card.parse("7S"), Card.parse("7D")), ((1, 2),))),
        TableEvent(2, 900, GameOver(Outcome(Result.LIMIT))),
    ]
    words = [kernel.event_words(e.t, e.event) for e in events]
    assert words[0] == (0, 2, 12 * 4 + 1, 1, 0, 510)
    assert words[1] == (8, 1, -1, 0, 2 * 16 + 1, 900)
    assert words[2] == (10, -1, -1, 3, -1, 900)
    expected = kernel.FNV_OFFSET
    for word in (w for row in words for w in row):
        for byte in (word % 2**64).to_bytes(8, "little"):
            expected = (expected ^ byte) * kernel.FNV_PRIME % 2**64
    assert kernel.event_hash(events) == expected
    assert kernel.event_hash(events[:2]) != expected


def test_the_kernel_refuses_a_malformed_configuration() -> None:
    from ratscrew import _ers_fast

    packed = kernel.config(Rules.build("standard"), ["medium"] * 3)
    assert _ers_fast.play(packed, 1, False)[0] > 0
    for broken in (packed[:-8], packed + bytes(8), b"", packed[:-3]):
        with pytest.raises(ValueError, match="configuration"):
            _ers_fast.play(broken, 1, False)


def test_the_python_path_pays_for_the_hash_only_when_asked() -> None:
    rules = short(Rules.build("standard"), 200)
    stats, digest = kernel.play_python(rules, ["medium"] * 3, 5)
    assert digest == 0
    assert kernel.play_python(rules, ["medium"] * 3, 5, want_hash=True)[0] == stats


# ---------------------------------------------------------------------- identical games


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_covered_preset_plays_the_same_games(preset: str) -> None:
    rules = guarded(Rules.build(preset))
    seats = [["medium"] * 4, ["easy", "hard", "expert", "perfect", "instant"], ["easy", "medium"]]
    for i, levels in enumerate(seats):
        same_game(short(rules, 900) if len(levels) > 2 else rules, levels, game_seed(7, i))


def test_standard_with_four_medium_computers_many_seeds() -> None:
    rules = guarded(Rules.build("standard"))
    for i in range(12):
        same_game(rules, ["medium"] * 4, game_seed(1, i))


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_level_and_strategy(name: str) -> None:
    rules = short(Rules.build("standard"), 400)
    same_game(rules, [name, "medium", name], game_seed(3, len(name)))


@pytest.mark.parametrize("seats", range(2, 13))
def test_every_table_size(seats: int) -> None:
    levels = [LEVEL_NAMES[i % len(LEVEL_NAMES)] for i in range(seats)]
    same_game(short(Rules.build("bicycle"), 500), levels, game_seed(11, seats))


def option_value(key: str) -> st.SearchStrategy[object]:
    """Values for one rules key; limits stay small so that the Python side of a game ends quickly."""
    if key == "end.max_cards":
        return st.integers(20, 600)
    if key == "end.time_limit_s":
        return st.sampled_from([0, 0, 5, 20, 60])
    if key == "slapping.collect_delay_ms":
        return st.sampled_from([0, 1, 150, 1000, 2500])
    if key == "slapping.tie_window_ms":
        return st.sampled_from([0, 1, 80, 300, 1000])
    opt = next(o for o in OPTIONS if o.key == key)
    if opt.kind == "bool":
        return st.booleans()
    if opt.kind == "choice":
        return st.sampled_from(opt.choices)
    return st.integers(opt.minimum, opt.maximum)


@st.composite
def option_mixes(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(list(PRESETS)))
    keys = draw(st.lists(st.sampled_from([o.key for o in OPTIONS]), max_size=12, unique=True))
    changes = {key: draw(option_value(key)) for key in keys}
    changes.setdefault("end.max_cards", draw(option_value("end.max_cards")))
    return Rules.build(preset, settled(preset, changes))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=option_mixes(),
    levels=st.lists(st.sampled_from(BOT_NAMES), min_size=2, max_size=12),
    seed=st.integers(0, 2**64 - 1),
)
def test_random_option_mixes_play_the_same_games(rules: Rules, levels: list[str], seed: int) -> None:
    same_game(rules, levels, seed)  # which asserts that the kernel covers every option mix


# An endless Beggar-my-neighbour deal (Casella et al. 2024): "-" a number card, J Q K A court cards.
CASELLA_LOOP = ("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA")


def deck_for_bmn_hands(hands: list[str]) -> list[Card]:
    """A full deck in dealing order whose two hands have the court cards where the notation puts them."""
    by_demand: dict[int, list[Card]] = {0: [], 1: [], 2: [], 3: [], 4: []}
    courts = {Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3, Rank.ACE: 4}
    for card in FULL_DECK:
        by_demand[courts.get(card.rank, 0)].append(card)
    stacks = [[by_demand[int(d)].pop() for d in hand] for hand in hands]
    return [stacks[i % 2][i // 2] for i in range(52)]


def python_game_with_deck(rules: Rules, levels: list[str], seed: int, deck: list[Card]) -> tuple[object, ...]:
    """play_one, with a given deck instead of the seeded shuffle."""
    game = Game(rules, deal(deck, len(levels)))
    clock = VirtualClock()
    seats = [SeatSpec(f"bot {i + 1}", level) for i, level in enumerate(levels)]
    table = Table(game, seats, clock, seed=seed, config=TableConfig())
    digest = kernel.EventHash()
    table.listeners.append(digest.add)
    run_virtual(table, clock)
    assert game.outcome is not None
    return game.outcome.result.value, game.cards, clock.now(), digest.value


@pytest.mark.parametrize("levels", [["perfect", "perfect"], ["instant", "expert"], ["medium", "easy"]])
def test_an_endless_deal_is_found_as_the_engine_finds_it(levels: list[str]) -> None:
    rules = guarded(Rules.build("beggar"))
    deck = deck_for_bmn_hands(parse_bmn_hands(CASELLA_LOOP))
    expected = python_game_with_deck(rules, levels, 8, deck)
    stats, digest = kernel.play_c(rules, levels, 8, want_hash=True, deck=deck)
    assert (stats.result, stats.cards, stats.ms, digest) == expected
    if "easy" not in levels:  # nobody slaps wrong, so the deal plays as Beggar-my-neighbour: a loop
        assert stats.result == "loop" and stats.cards == 34 + 440


# ---------------------------------------------------------------------- what it covers


@pytest.mark.parametrize("preset", list(PRESETS))
def test_covers_every_preset_with_every_level_and_strategy(preset: str) -> None:
    rules = Rules.build(preset)
    for name in BOT_NAMES:
        assert kernel.covers(rules, [name, "medium"]) is None


def test_covers_names_what_it_leaves_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    assert kernel.covers(Rules.build("standard"), ["medium"]) == "1 seats"
    assert kernel.covers(Rules.build("standard"), ["medium"] * 13) == "13 seats"
    with pytest.raises(MalformedInput):
        kernel.covers(Rules.build("standard"), ["medium", "grandmaster"])
    # A level the kernel did not know would be named, and its games played by Python.
    monkeypatch.setattr(kernel, "COVERED_LEVELS", kernel.COVERED_LEVELS - {"easy"})
    assert kernel.covers(Rules.build("standard"), ["medium", "easy:risk-2"]) == "level easy"
    summary = simulate(Rules.build("standard"), ["medium", "easy"], 3, seed=2, workers=1)
    assert (summary.kernel, summary.kernel_fallback) == ("python", "level easy")


def test_simulate_says_which_kernel_played() -> None:
    for preset in ("standard", "beggar"):
        compiled = simulate(Rules.build(preset), ["hard"] * 3, 6, seed=2, workers=1)
        assert (compiled.kernel, compiled.kernel_fallback) == ("c", None)


def test_forcing_python_in_process_gives_the_same_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.build("everything")
    levels = ["easy", "medium:risk-4", "expert"]
    compiled = simulate(rules, levels, 8, seed=4, workers=1)
    monkeypatch.setenv(kernels.PURE_PYTHON_ENV, "1")
    pure = simulate(rules, levels, 8, seed=4, workers=1)
    assert (compiled.kernel, pure.kernel) == ("c", "python")
    assert compiled.as_dict() == pure.as_dict()


# ---------------------------------------------------------------------- the command


def simulate_json(*args: str, pure: bool = False) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != kernels.PURE_PYTHON_ENV}
    if pure:
        env[kernels.PURE_PYTHON_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", "simulate", *args, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc: dict[str, Any] = json.loads(done.stdout)
    return doc


def test_json_names_the_kernel_and_python_gives_the_same_figures() -> None:
    args = ("--games", "16", "--bots", "medium", "--players", "4", "--seed", "3", "--workers", "2")
    compiled = simulate_json(*args)
    pure = simulate_json(*args, pure=True)
    assert compiled.pop("kernel") == "c" and "kernel_fallback" not in compiled
    assert pure.pop("kernel") == "python"
    assert pure.pop("kernel_fallback") == f"{kernels.PURE_PYTHON_ENV} is set"
    assert compiled == pure


def test_json_from_beggar_to_twelve_seats_is_the_kernel_s() -> None:
    args = ("--games", "4", "--rules", "beggar", "--bots", "hard,easy:risk-faces", "--workers", "1")
    compiled = simulate_json(*args)
    pure = simulate_json(*args, pure=True)
    assert compiled.pop("kernel") == "c" and pure.pop("kernel") == "python"
    pure.pop("kernel_fallback")
    assert compiled == pure
    assert simulate_json("--games", "2", "--players", "12", "--workers", "1")["kernel"] == "c"


@pytest.mark.parametrize("bots", ["grandmaster", "medium:risk-9"])
def test_bad_names_are_one_clear_line_and_exit_2(bots: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", "simulate", "--games", "2", "--bots", bots],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
