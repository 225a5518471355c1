"""Strategy players and the lab's ideal levels at a real table, and on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from ratscrew.bots.registry import UnknownLevel
from ratscrew.bots.strategy import UnknownStrategy
from ratscrew.engine import Game
from ratscrew.lab.simulate import simulate
from ratscrew.rules import Rules
from ratscrew.table import SeatSpec, Table, VirtualClock


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", "simulate", *args], capture_output=True, text=True, timeout=300
    )


def simulate_json(*args: str) -> dict[str, Any]:
    done = run(*args, "--json", "--workers", "1")
    assert done.returncode == 0, done.stderr
    doc: dict[str, Any] = json.loads(done.stdout)
    return doc


def test_the_table_looks_players_up_in_the_registry() -> None:
    game = Game.from_seed(Rules.build("standard"), 3, 1)
    seats = [SeatSpec("a", "instant:risk-faces"), SeatSpec("b", "Perfect"), SeatSpec("c", "match:risk-3", 0)]
    table = Table(game, seats, VirtualClock(), seed=2)
    assert [bot.level.name for bot in table.bots.values()] == ["instant:risk-faces", "perfect", "medium"]
    assert table.bots[2].level.strategy is not None and table.bots[2].level.strategy.name == "risk-3"
    for bad, error in (("godlike", UnknownLevel), ("hard:risk-9", UnknownStrategy)):
        with pytest.raises(error):
            Table(Game.from_seed(Rules.build("standard"), 2, 1), [SeatSpec("a", bad), SeatSpec("b")], VirtualClock())


def test_perfect_players_never_slap_wrong_and_a_risk_player_does() -> None:
    rules = Rules.build("standard")
    perfect = simulate(rules, ["perfect"] * 3, 20, seed=5, workers=1).as_dict()
    assert perfect["wrong_slaps"] == 0
    assert isinstance(perfect["piles_by_slap"], float) and perfect["piles_by_slap"] > 0
    risky = simulate(rules, ["perfect:risk-2", "perfect", "perfect"], 20, seed=5, workers=1).as_dict()
    assert isinstance(risky["wrong_slaps"], float) and risky["wrong_slaps"] > 0
    assert isinstance(risky["mean_cards"], float) and risky["wrong_slaps"] < risky["mean_cards"]  # once per card


def test_simulate_reports_each_seats_share_with_a_standard_error() -> None:
    doc = simulate_json("--bots", "instant:risk-faces,perfect", "--games", "30", "--seed", "3")
    assert doc["levels"] == ["instant:risk-faces", "perfect"]
    assert len(doc["win_rate"]) == len(doc["win_rate_se"]) == 2
    assert sum(doc["win_rate"]) == pytest.approx(doc["results"]["win"] / 30, abs=1e-3)
    for rate, se in zip(doc["win_rate"], doc["win_rate_se"], strict=True):
        assert se == pytest.approx((rate * (1 - rate) / 30) ** 0.5, abs=1e-4)
    # Burning three cards is a rule the lab can be asked for.
    assert simulate_json("--bots", "perfect", "--players", "2", "--games", "4", "--set", "slapping.penalty_cards=3")


def test_instant_wins_the_races_against_perfect() -> None:
    doc = simulate_json("--bots", "perfect,instant", "--games", "30", "--seed", "2")
    assert doc["win_rate"][1] > doc["win_rate"][0]


@pytest.mark.parametrize(
    ("bots", "expected"),
    [
        ("instant:risk-9", "unknown strategy 'risk-9': expected risk-faces, risk-jqk or risk-N with N from 2 to 6"),
        ("perfect:sometimes,perfect", "unknown strategy 'sometimes'"),
        ("godlike:risk-2", "unknown bot level 'godlike:risk-2'"),
    ],
)
def test_an_unknown_level_or_strategy_is_one_clear_line(bots: str, expected: str) -> None:
    done = run("--bots", bots, "--players", "2")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ratscrew: error:")
    assert expected in done.stderr
