"""The compiled game kernel (ratscrew._ers_fast) plays exactly the games the Python modules play.

Each check plays one game both ways, with the same rules, seats and seed, and asks for identical per-game
figures (GameStats) and an identical event-stream hash (ratscrew.lab.kernel.event_hash). Card limits are
kept low so the Python side stays quick; every other option is drawn freely where the kernel covers it.
No test skips when the kernel is missing: play_c raises, and test_kernels.py fails the build.
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

from ratscrew import kernels
from ratscrew.bots.registry import LEVEL_NAMES, STRATEGY_NAMES
from ratscrew.cards import Card
from ratscrew.engine.events import CardTurned, GameOver, PileWon, WonBy
from ratscrew.engine.outcome import Outcome, Result
from ratscrew.errors import MalformedInput
from ratscrew.lab import kernel
from ratscrew.lab.simulate import game_seed, guarded, simulate
from ratscrew.rules import Rules
from ratscrew.rules.options import OPTIONS
from ratscrew.rules.presets import PRESETS
from ratscrew.table.table import TableEvent

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


def test_the_python_path_pays_for_the_hash_only_when_asked() -> None:
    rules = short(Rules.build("standard"), 200)
    stats, digest = kernel.play_python(rules, ["medium"] * 3, 5)
    assert digest == 0
    assert kernel.play_python(rules, ["medium"] * 3, 5, want_hash=True)[0] == stats


# ---------------------------------------------------------------------- identical games


@pytest.mark.parametrize("preset", [name for name in PRESETS if name != "beggar"])
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
    if changes.get("slaps.ten_gap", "off") != "off" and changes.get("slaps.ten", "off") == "off":
        changes["slaps.ten"] = "numbers"
    try:
        return Rules.build(preset, changes)
    except Exception:  # a combination the rules refuse (ten_gap without ten, from the preset)
        return Rules.build(preset, {**changes, "slaps.ten_gap": "off"})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=option_mixes(),
    levels=st.lists(st.sampled_from(BOT_NAMES), min_size=2, max_size=12),
    seed=st.integers(0, 2**64 - 1),
)
def test_random_option_mixes_play_the_same_games(rules: Rules, levels: list[str], seed: int) -> None:
    reason = kernel.covers(rules, levels)
    if reason is None:
        same_game(rules, levels, seed)
    else:
        # The only rules the kernel leaves to Python: no pattern can ever be slapped (loop detection).
        assert not rules.any_slap_enabled(jokers_in_play=rules.deck.jokers > 0)
        assert "slap pattern" in reason


# ---------------------------------------------------------------------- what it covers


def test_covers_names_what_it_leaves_to_python() -> None:
    assert kernel.covers(Rules.build("standard"), ["medium"] * 4) is None
    assert kernel.covers(Rules.build("standard"), ["match:risk-faces", "instant", "easy"]) is None
    beggar = kernel.covers(Rules.build("beggar"), ["medium"] * 2)
    assert beggar is not None and "loop detection" in beggar
    jokers = Rules.build("beggar", {"deck.jokers": 1, "slaps.joker": True})  # a joker can be slapped
    assert kernel.covers(jokers, ["medium"] * 2) is None
    assert kernel.covers(Rules.build("standard"), ["medium"]) == "1 seats"
    with pytest.raises(MalformedInput):
        kernel.covers(Rules.build("standard"), ["medium", "grandmaster"])


def test_simulate_says_which_kernel_played() -> None:
    compiled = simulate(Rules.build("standard"), ["medium"] * 3, 6, seed=2, workers=1)
    assert (compiled.kernel, compiled.kernel_fallback) == ("c", None)
    beggar = simulate(Rules.build("beggar"), ["hard"] * 2, 2, seed=2, workers=1)
    assert beggar.kernel == "python" and beggar.kernel_fallback is not None


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


def test_json_gives_the_reason_when_python_plays() -> None:
    doc = simulate_json("--games", "2", "--rules", "beggar", "--bots", "hard", "--players", "2", "--workers", "1")
    assert doc["kernel"] == "python"
    assert "loop detection" in doc["kernel_fallback"]


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
