"""`ratscrew bmn --search` and `--workers`: seeded, resumable, and the same on any number of workers."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ratscrew import bmn
from ratscrew.bmn import parse_bmn_hands, play_bmn, play_random
from ratscrew.lab.bmn_search import STATE_FORMAT, SearchState, climb, search


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", "bmn", *args], capture_output=True, text=True, timeout=timeout
    )


def json_lines(*args: str) -> list[dict[str, Any]]:
    done = run(*args, "--json")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_climb_only_ever_improves_and_every_find_replays() -> None:
    found, played = climb(seed=3, restart=0, patience=300)
    assert played > len(found) >= 2
    cards = [f.cards for f in found]
    assert cards == sorted(cards) and len(set(cards)) == len(cards)
    for find in found:
        result = play_bmn(parse_bmn_hands(find.as_json()["deal"]))  # type: ignore[arg-type]
        assert (result.cards, result.tricks) == (find.cards, find.tricks)
    assert climb(seed=3, restart=0, patience=300) == (found, played)
    assert climb(seed=3, restart=1, patience=300) != (found, played)


@pytest.mark.parametrize(("seed", "restart"), [(1, 0), (3, 4), (2024, 1)])
def test_the_c_climb_takes_the_python_climbs_every_step(seed: int, restart: int) -> None:
    assert climb(seed, restart, patience=400) == climb(seed, restart, patience=400, accelerated=False)


def test_same_seed_same_bests_whatever_the_workers() -> None:
    one = list(search(SearchState(seed=8), restarts=5, patience=300))
    two = list(search(SearchState(seed=8), restarts=5, patience=300, workers=2))
    assert one == two and one
    assert [f.restart for f in one] == sorted(f.restart for f in one)
    assert list(search(SearchState(seed=9), restarts=5, patience=300)) != one


def test_each_json_line_is_a_deal_that_ratscrew_bmn_reproduces() -> None:
    lines = json_lines("--search", "--restarts", "2", "--seed", "4")
    assert lines and all(set(line) == {"deal", "cards", "tricks"} for line in lines)
    assert [line["cards"] for line in lines] == sorted(line["cards"] for line in lines)
    for line in (lines[0], lines[-1]):
        done = run(*line["deal"], "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {
            "result": "win",
            "winner": json.loads(done.stdout)["winner"],
            "cards": line["cards"],
            "tricks": line["tricks"],
        }


def test_a_stopped_search_carries_on_from_its_state_file(tmp_path: Path) -> None:
    state = tmp_path / "hunt.json"
    whole = json_lines("--search", "--restarts", "4", "--seed", "6")
    first = json_lines("--search", "--restarts", "2", "--seed", "6", "--state", str(state))
    saved = json.loads(state.read_text())
    assert saved["format"] == STATE_FORMAT and saved["next_restart"] == 2 and saved["seed"] == 6
    rest = json_lines("--search", "--restarts", "4", "--state", str(state), "--workers", "2")
    assert first + rest == whole
    assert json.loads(state.read_text())["next_restart"] == 4


def test_seconds_stops_the_search_and_ctrl_c_keeps_the_state(tmp_path: Path) -> None:
    start = time.monotonic()
    done = run("--search", "--seconds", "1.5", "--json", timeout=60)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start < 30
    assert all("deal" in json.loads(line) for line in done.stdout.splitlines())
    state = tmp_path / "hunt.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ratscrew", "bmn", "--search", "--state", str(state), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while restarts_done(state) < 1:
        assert time.monotonic() < deadline, "no restart finished within a minute"
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines() == [err.strip()] and "stopped at restart" in err and str(state) in err
    assert json.loads(state.read_text())["next_restart"] >= 1


def restarts_done(state: Path) -> int:
    try:
        done: int = json.loads(state.read_text())["next_restart"]
    except (OSError, ValueError):
        return 0
    return done


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json at all", "is not JSON"),
        ('{"format": "something-else"}', "is not a search state"),
        (f'{{"format": "{STATE_FORMAT}", "seed": -1, "next_restart": 0, "played": 0}}', "not a whole number"),
        (
            f'{{"format": "{STATE_FORMAT}", "seed": 1, "next_restart": 0, "played": 0, '
            '"best": {"deal": ["--", "--"], "cards": 3, "tricks": 1}}',
            "best deal",
        ),
    ],
)
def test_a_corrupt_state_file_is_one_clear_line(tmp_path: Path, content: str, says: str) -> None:
    state = tmp_path / "hunt.json"
    state.write_text(content)
    done = run("--search", "--restarts", "1", "--state", str(state))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ratscrew: error:")
    assert says in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--workers", "2", "-" * 26, "-" * 26], "--workers only goes with --random N or --search"),
        (["--search", "--players", "3"], "--players does not go with --search"),
        (["--random", "10", "--seconds", "5"], "--seconds does not go with --random"),
        (["--random", "10", "--search"], "either --random N or --search"),
        (["--search", "--seconds", "soon"], "--seconds needs a number of seconds above 0"),
        (["--random", "10", "--workers", "0"], "--workers must be at least 1"),
        (["--search", "--state", "/nonexistent-folder/hunt.json"], "no folder"),
    ],
)
def test_bad_options_are_one_clear_line(args: list[str], says: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and says in done.stderr


def test_random_deals_give_the_same_figures_on_any_worker_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bmn, "RANDOM_BLOCK", 70)  # several blocks with few games, so the Python path keeps up
    one = play_random(300, 5)
    assert play_random(300, 5, workers=2) == one
    assert play_random(300, 5, accelerated=False, workers=3) == one
    blocks = [play_random(70, bmn.block_seed(5, b)) for b in range(4)] + [play_random(20, bmn.block_seed(5, 4))]
    column = list(zip(*blocks, strict=True))
    assert one == (sum(column[0]), sum(column[1]), max(column[2]), sum(column[3]))
    assert play_random(300, 6) != one


def test_bmn_random_workers_on_the_command_line() -> None:
    args = ("--random", "250000", "--seed", "2")
    one, two = json_lines(*args)[0], json_lines(*args, "--workers", "2")[0]
    for key in ("games", "mean_cards", "max_cards", "loops"):
        assert one[key] == two[key]
