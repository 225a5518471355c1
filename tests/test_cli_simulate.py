"""`ratscrew simulate` as docs/commands.md describes it, run as a real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CONTRACT_KEYS = {
    "games",
    "players",
    "mean_cards",
    "median_cards",
    "p90_cards",
    "max_cards",
    "mean_minutes",
    "piles_by_slap",
    "piles_by_challenge",
    "wrong_slaps",
    "win_rate",
    "results",
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", "simulate", *args], capture_output=True, text=True, timeout=300
    )


def simulate_json(*args: str) -> dict[str, Any]:
    done = run(*args, "--json")
    assert done.returncode == 0, done.stderr
    doc: dict[str, Any] = json.loads(done.stdout)
    return doc


def test_json_has_every_contract_key_and_consistent_figures() -> None:
    doc = simulate_json("--games", "12", "--bots", "hard,medium,easy", "--seed", "4", "--workers", "1")
    assert set(doc) >= CONTRACT_KEYS
    assert doc["games"] == 12
    assert doc["players"] == 3
    assert sum(doc["results"].values()) == 12
    assert doc["max_cards"] >= doc["p90_cards"] >= doc["median_cards"] > 0
    assert len(doc["win_rate"]) == 3
    assert abs(sum(doc["win_rate"]) - doc["results"]["win"] / 12) < 1e-3
    assert doc["mean_minutes"] > 0


def test_same_seed_same_numbers_whatever_the_workers() -> None:
    args = ("--games", "10", "--rules", "bicycle", "--players", "4", "--bots", "medium", "--seed", "9")
    one = simulate_json(*args, "--workers", "1")
    two = simulate_json(*args, "--workers", "2")
    assert one == two
    assert simulate_json(*args[:-1], "10", "--workers", "1") != one


def test_players_defaults_to_the_levels_given_and_one_level_fills_every_seat() -> None:
    assert simulate_json("--games", "4", "--bots", "easy,hard", "--workers", "1")["players"] == 2
    assert simulate_json("--games", "4", "--players", "5", "--bots", "easy", "--workers", "1")["players"] == 5


def test_readable_summary_and_a_histogram(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "length.png"
    done = run("--games", "8", "--workers", "1", "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    assert "cards per game" in done.stdout
    assert "seat 1 (medium) wins" in done.stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--bots", "godlike"], "unknown bot level 'godlike'"),
        (["--players", "0"], "--players must be from 2 to 12"),
        (["--players", "13"], "a game needs 2 to 12 players"),
        (["--bots", "easy,hard", "--players", "3"], "one level per seat"),
        (["--games", "0"], "--games must be at least 1"),
        (["--set", "slaps.run=7"], "slaps.run cannot be 7"),
        (["--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], expected: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("ratscrew: error:")
    assert expected in lines[0]
    assert "Traceback" not in done.stderr


def test_a_broken_rules_file_is_one_clear_line(tmp_path: Path) -> None:
    broken = tmp_path / "rules.toml"
    broken.write_text("[slaps\nrun = 3\n", encoding="utf-8")
    done = run("--rules", str(broken))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "is not valid TOML" in done.stderr
