"""`ratscrew simulate` as docs/commands.md describes it, run as a real command."""

from __future__ import annotations

import csv
import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Callable
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
        # Once, an empty --bots meant four Medium players and an empty seat was dropped without a word.
        (["--bots", ""], "--bots needs at least one level"),
        (["--bots", " , "], "--bots needs at least one level"),
        (["--bots", "medium,,medium"], "leaves a seat empty"),
        (["--bots", "medium,hard,"], "leaves a seat empty"),
        (["--replicates", "0"], "--replicates must be at least 1"),
        (["--contrasts"], "give --vary"),
        (["--games-out", "games.xlsx"], "give a file ending in .parquet or .csv"),
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


def simulate_lines(*args: str) -> list[dict[str, Any]]:
    done = run(*args, "--json")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_each_cell_of_a_grid_gives_the_figures_of_a_plain_run_with_its_set() -> None:
    base = ("--games", "40", "--players", "3", "--bots", "medium,hard,easy", "--seed", "5")
    cells = simulate_lines(*base, "--workers", "2", "--vary", "slaps.run=3,4", "--vary", "challenge.J=1,2")
    assert [c["set"] for c in cells] == [  # typed as the rules hold them: numbers, not strings
        {"slaps.run": 3, "challenge.J": 1},
        {"slaps.run": 3, "challenge.J": 2},
        {"slaps.run": 4, "challenge.J": 1},
        {"slaps.run": 4, "challenge.J": 2},
    ]
    assert "vs_first" not in cells[0] and all("vs_first" in c for c in cells[1:])
    for cell in (cells[0], cells[3]):
        chosen = cell.pop("set")
        cell.pop("vs_first", None)
        sets = [w for k, v in chosen.items() for w in ("--set", f"{k}={v}")]
        assert simulate_json(*base, "--workers", "1", *sets) == cell
    [single] = simulate_lines(*base, "--workers", "1", "--vary", "slaps.run=4")
    assert single.pop("set") == {"slaps.run": 4}
    assert single == simulate_json(*base, "--workers", "1", "--set", "slaps.run=4")


def test_paired_differences_have_smaller_standard_errors_than_separate_runs() -> None:
    # A card limit of 800 leaves every game shorter than that as it was, so game by game most differences
    # are zero; two separate runs would carry the whole spread of game lengths into the difference.
    first, capped = simulate_lines(
        "--games", "300", "--players", "2", "--seed", "2", "--vary", "end.max_cards=50000,800"
    )
    paired = capped["vs_first"]["mean_cards"]
    unpaired = math.hypot(first["mean_cards_se"], capped["mean_cards_se"])
    assert paired["diff"] == round(capped["mean_cards"] - first["mean_cards"], 4)
    assert paired["diff"] < 0 and 0 < paired["se"] < unpaired / 2
    # Rules the games never reach give the same games: no difference at all, not just none on average.
    same = simulate_lines(
        "--games", "60", "--bots", "perfect", "--players", "2", "--vary", "slapping.penalty_cards=1,3"
    )
    assert same[1]["vs_first"]["mean_cards"] == {"diff": 0.0, "se": 0.0, "ci95": [0.0, 0.0]}
    assert same[0]["mean_cards_se"] > 0


def test_histogram_csv_and_the_grid_table(tmp_path: Path) -> None:
    args = ("--games", "30", "--players", "2", "--seed", "3", "--vary", "slaps.run=3,4")
    cells = simulate_lines(*args, "--histogram", "--csv", str(tmp_path / "grid.csv"))
    for cell in cells:
        counts = cell["histogram"]["cards"]
        assert sum(n for _, n in counts) == 30 and counts[-1][0] == cell["max_cards"]
        assert sum(n for _, n in cell["histogram"]["seconds"]) == 30
    rows = list(csv.DictReader((tmp_path / "grid.csv").open(encoding="utf-8")))
    assert [r["slaps.run"] for r in rows] == ["3", "4"]
    assert [r["mean_cards_ci95.1"] for r in rows] == [str(c["mean_cards_ci95"][0]) for c in cells]
    assert float(rows[1]["vs_first.mean_cards.diff"]) == cells[1]["vs_first"]["mean_cards"]["diff"]
    assert "histogram" not in simulate_lines(*args)[0]
    done = run(*args)
    assert done.returncode == 0, done.stderr
    assert "slaps.run" in done.stdout and "Δ cards" in done.stdout and "paired difference" in done.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--vary", "slaps.run"], "is not KEY=V1,V2,..."),
        (["--vary", "slaps.run=3,,4"], "is not KEY=V1,V2,..."),
        (["--vary", "slaps.run=3,3"], "repeats a value"),
        (["--vary", "slaps.run=3", "--vary", "slaps.run=4"], "is given twice"),
        (["--vary", "slaps.run=3,4", "--set", "slaps.run=0"], "give it in one of them"),
        (["--vary", "slaps.run=3,7"], "slaps.run cannot be 7"),
        (["--vary", "slaps.nonsense=1,2"], "slaps.nonsense"),
        (["--vary", "slaps.run=3,4", "--plot", "x.png"], "give --report DIR"),
        (["--vary", "bots=medium,hard", "--bots", "easy"], "give it in one of them"),
        (["--vary", "players=2,3", "--players", "2"], "give it in one of them"),
        (["--vary", "players=2,three"], "needs whole numbers of seats"),
        (["--vary", "bots=medium+medium,hard++easy"], "leaves a seat empty"),
        (["--vary", "bots=medium+godlike,easy+easy"], "unknown bot level 'godlike'"),
        (["--vary", "bots=medium+medium,hard", "--players", "3"], "(in the cell bots=medium+medium)"),
        (["--vary", "rules=standard,bicycle", "--rules", "beggar"], "--vary rules and --rules both give the rules"),
        (["--vary", "rules=standard,nonsense"], "is neither a preset"),
    ],
)
def test_bad_vary_is_one_clear_line(args: list[str], expected: str) -> None:
    done = run("--games", "2", *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and expected in done.stderr and "Traceback" not in done.stderr


def test_rotated_seats_on_a_terminal_name_players_not_seats() -> None:
    done = run("--games", "6", "--bots", "hard,medium,easy", "--rotate-seats", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "6 deals in every rotation of the seats (18 games)" in done.stdout
    assert "player 1 (hard) wins, any seat" in done.stdout
    assert "seat 1 wins" in done.stdout and "seat 1 (hard)" not in done.stdout
    assert re.search(r"seat 1 wins .*% ± [\d.]+ \([\d.]+ to [\d.]+%\)", done.stdout)  # the 95% interval


def test_a_grid_printed_into_a_pipe_keeps_every_figure_whole() -> None:
    # A notebook's `!ratscrew simulate` or `| less` is not a terminal: Rich once gave it 80 columns, and a grid
    # of three keys came out as "316…". The JSON has every figure: each must be in the table as it is there.
    args = ["--games", "20", "--seed", "3", "--workers", "1", "--vary", "players=2,3"]
    args += ["--vary", "slapping.penalty_cards=1,2", "--vary", "bots=easy,hard"]
    env = {**os.environ, "COLUMNS": "80"}
    command = [sys.executable, "-m", "ratscrew", "simulate", *args]
    table = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, check=True).stdout
    lines = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300, env=env, check=True)
    assert "…" not in table
    for cell in map(json.loads, lines.stdout.splitlines()):
        row = next(line for line in table.splitlines() if f"{cell['mean_cards']} ± {cell['mean_cards_se']:.2f}" in line)
        assert f"{cell['median_cards']} / {cell['p90_cards']}" in row
        if "vs_first" in cell:
            assert f"{cell['vs_first']['mean_cards']['diff']:+.2f} ± {cell['vs_first']['mean_cards']['se']:.2f}" in row


@pytest.mark.parametrize("grid", [[], ["--vary", "slaps.run=3,4"]])
def test_the_table_names_the_replicates_seeds(grid: list[str]) -> None:
    # The seeds after the first are derived: the table said they were printed, and only --json gave them.
    args = ("--games", "6", "--players", "2", "--seed", "7", "--replicates", "3", "--workers", "1", *grid)
    seeds = [r["seed"] for r in simulate_lines(*args)[0]["replicates"]]
    assert seeds[0] == 7 and len(set(seeds)) == 3
    done = run(*args)
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if "replicate seeds (the first is --seed)" in line]
    assert ", ".join(map(str, seeds)) in line


# The three files simulate writes once its run is over, each with a name its checks accept and a test of what
# it holds once written.
OUTPUTS: dict[str, tuple[str, Callable[[bytes], bool]]] = {
    "--csv": ("cells.csv", lambda data: data.startswith(b"games,players,")),
    "--plot": ("length.png", lambda data: data.startswith(b"\x89PNG\r\n\x1a\n")),
    "--games-out": ("games.csv", lambda data: data.startswith(b"cell,") and data.count(b"\n") == 5),
}
SMALL = ("--games", "4", "--players", "2", "--workers", "1")


def run_without_playing(*args: str, missing: str = "") -> subprocess.CompletedProcess[str]:
    """`ratscrew simulate` with its run replaced by one that stops the process, so a refusal shows whether it
    came before any game was played (and without the package ``missing`` names, as if not installed)."""
    script = (
        "import sys\n"
        f"if {missing!r}: sys.modules[{missing!r}] = None\n"
        "from ratscrew.cli import main, simulate\n"
        "def started(*args, **kwargs):\n"
        "    print('the run started', file=sys.stderr)\n"
        "    sys.exit(99)\n"
        "simulate.run_design = started\n"
        "main(['simulate', *sys.argv[1:]])\n"
    )
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("option", list(OUTPUTS))
def test_an_existing_file_is_refused_before_the_run_and_left_as_it_was(option: str, tmp_path: Path) -> None:
    # --csv and --plot overwrote an existing file without a word, once the run was over.
    out = tmp_path / OUTPUTS[option][0]
    earlier = b"an earlier run's results\n\x00\xff"
    out.write_bytes(earlier)
    refused = run_without_playing(*SMALL, option, str(out))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip() == (
        f"ratscrew: error: {option} {str(out)!r} already exists: give a new file, or --force to replace it"
    )
    assert out.read_bytes() == earlier


@pytest.mark.parametrize("option", list(OUTPUTS))
def test_force_replaces_an_existing_file(option: str, tmp_path: Path) -> None:
    name, written = OUTPUTS[option]
    out = tmp_path / name
    out.write_bytes(b"an earlier run's results\n")
    done = run(*SMALL, option, str(out), "--force")
    assert done.returncode == 0, done.stderr
    assert written(out.read_bytes())


@pytest.mark.parametrize("option", list(OUTPUTS))
def test_a_missing_folder_is_named_before_the_run(option: str, tmp_path: Path) -> None:
    # It was found once the run was over, and the run was lost.
    name = OUTPUTS[option][0]
    for parent, what in ((tmp_path / "absent", "does not exist"), (tmp_path / "a-file", "is a file")):
        (tmp_path / "a-file").write_text("", encoding="utf-8")
        out = parent / name
        refused = run_without_playing(*SMALL, option, str(out))
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr.strip() == (
            f"ratscrew: error: {option} {str(out)!r}: the folder {str(parent)!r} {what}: "
            "give a file in a folder that exists"
        )
        assert not (tmp_path / "absent").exists()


def test_two_options_naming_one_file_are_refused_before_the_run(tmp_path: Path) -> None:
    # Both were written, one over the other, and the cells' rows were lost without a word. (--plot cannot clash:
    # neither a .csv nor a .parquet file is a plot matplotlib writes.)
    out, again = tmp_path / "results.csv", tmp_path / "sub" / ".." / "results.csv"
    (tmp_path / "sub").mkdir()
    for force in ([], ["--force"]):
        refused = run_without_playing(*SMALL, "--csv", str(out), "--games-out", str(again), *force)
        assert refused.returncode == 2 and refused.stdout == ""
        assert refused.stderr.strip() == (
            f"ratscrew: error: --games-out {str(again)!r} and --csv {str(out)!r} are one file: give each its own"
        )
    assert not out.exists()


def test_a_plot_matplotlib_cannot_write_is_refused_before_the_run(tmp_path: Path) -> None:
    # The run was played, then matplotlib's ValueError ended it in a traceback.
    refused = run_without_playing(*SMALL, "--plot", str(tmp_path / "length.txt"))
    assert refused.returncode == 2 and refused.stdout == ""
    [line] = refused.stderr.splitlines()
    assert line.startswith(f"ratscrew: error: --plot {str(tmp_path / 'length.txt')!r}: matplotlib cannot write .txt")
    assert ".png" in line and ".svg" in line
    without = run_without_playing(*SMALL, "--plot", str(tmp_path / "length.png"), missing="matplotlib")
    assert without.returncode == 2 and without.stdout == ""
    assert without.stderr == "ratscrew: error: --plot needs matplotlib: pip install 'ratscrew[plot]'\n"
    done = run(*SMALL, "--plot", str(tmp_path / "length.svg"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "length.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_a_grid_over_bots_does_not_name_the_first_cells_computer_for_every_cell() -> None:
    # The column said "seat 1 (easy) wins" above the rows where seat 1 was hard.
    over_bots = run("--games", "4", "--workers", "1", "--vary", "bots=easy+easy,hard+easy")
    assert over_bots.returncode == 0 and "seat 1 wins" in over_bots.stdout and "(easy) wins" not in over_bots.stdout
    over_rules = run("--games", "4", "--workers", "1", "--bots", "hard,easy", "--vary", "slaps.run=3,4")
    assert over_rules.returncode == 0 and "seat 1 (hard) wins" in over_rules.stdout


def test_a_grid_over_players_does_not_give_the_first_cells_seats_for_every_cell() -> None:
    # The title said "2 players" above a cell of three, and with rotated seats counted the first cell's games.
    done = run("--games", "4", "--workers", "1", "--vary", "players=2,3", "--rotate-seats")
    assert done.returncode == 0, done.stderr
    title = done.stdout.splitlines()[0].strip()
    assert title == "4 deals a cell in every rotation of the seats, rules: standard"


def test_a_vary_over_rules_plays_each_preset_with_the_sets_on_it() -> None:
    base = ("--games", "20", "--players", "3", "--seed", "5", "--workers", "1", "--set", "slaps.run=4")
    cells = simulate_lines(*base, "--vary", "rules=standard,bicycle")
    assert [c["set"] for c in cells] == [{"rules": "standard"}, {"rules": "bicycle"}]
    for cell in cells:
        preset = cell.pop("set")["rules"]
        cell.pop("vs_first", None)
        assert simulate_json(*base, "--rules", preset) == cell
    done = run(*base, "--vary", "rules=standard,bicycle")
    assert done.returncode == 0 and "rules: standard, bicycle" in done.stdout
