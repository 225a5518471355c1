"""ratscrew.lab.api as a notebook uses it: per-game rows that add up to the command's totals, typed values,
designs (rotated seats, replicates, contrasts between any two cells), and the tables' ways out."""

from __future__ import annotations

import csv
import functools
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from ratscrew.cli.app import main
from ratscrew.errors import MalformedInput
from ratscrew.lab import api
from ratscrew.lab.bmn_search import HuntSettings
from ratscrew.rules import Rules

ARGS = ("--games", "24", "--bots", "hard,medium,easy", "--seed", "6")


def command(*args: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", "simulate", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def totals_from_rows(games: pd.DataFrame, cell: int) -> dict[str, Any]:
    """The command's figures worked out again from one cell's rows alone."""
    rows = games[games["cell"] == cell]
    n = len(rows)
    players = int(rows["players"].iloc[0])
    return {
        "games": n,
        "mean_cards": round(rows["cards"].sum() / n, 2),
        "median_cards": float(statistics.median(rows["cards"].tolist())),
        "max_cards": int(rows["cards"].max()),
        "mean_tricks": round(rows["tricks"].sum() / n, 2),
        "piles_by_slap": round(rows["piles_by_slap"].sum() / n, 2),
        "piles_by_challenge": round(rows["piles_by_challenge"].sum() / n, 2),
        "wrong_slaps": round(rows["wrong_slaps"].sum() / n, 3),
        "mean_cards_se": round(statistics.stdev(rows["cards"].tolist()) / math.sqrt(n), 4),
        "win_rate": [round(int((rows["winner"] == seat).sum()) / n, 4) for seat in range(1, players + 1)],
        "results": {r: int((rows["result"] == r).sum()) for r in ("win", "draw", "limit", "loop")},
        "seat_piles_by_slap": [round(rows[f"seat{s}_piles_by_slap"].sum() / n, 2) for s in range(1, players + 1)],
        "seat_wrong_slaps": [round(rows[f"seat{s}_wrong_slaps"].sum() / n, 3) for s in range(1, players + 1)],
    }


def same_figures(doc: dict[str, Any], mine: dict[str, Any]) -> None:
    for key, value in mine.items():
        if key == "median_cards":
            assert float(doc[key]) == value
        elif key.endswith("_se"):
            assert abs(doc[key] - value) <= 1.01e-4, key
        else:
            assert doc[key] == value, key


@pytest.mark.parametrize("workers", [1, 2])
def test_per_game_rows_add_up_to_the_commands_totals(workers: int) -> None:
    [doc] = command(*ARGS, "--workers", "1")
    study = api.simulate(games=24, bots="hard,medium,easy", seed=6, workers=workers)
    games = study.to_pandas()
    assert len(games) == 24 and list(games["deal"]) == list(range(24))
    same_figures(doc, totals_from_rows(games, 0))
    assert study.figures[0] == {k: v for k, v in doc.items() if k != "histogram"}
    seats = [f"seat{s}_piles_by_slap" for s in (1, 2, 3)]
    assert (games[seats].sum(axis=1) == games["piles_by_slap"]).all()


def test_a_grid_with_rotated_seats_and_replicates_adds_up_and_its_values_are_typed(tmp_path: Path) -> None:
    args = ("--games", "10", "--players", "3", "--seed", "2", "--rotate-seats", "--replicates", "2")
    vary = ("--vary", "slapping.penalty_cards=1,2", "--vary", "slaps.top_bottom=true,false")
    out = tmp_path / "games.csv"
    docs = command(*args, *vary, "--workers", "2", "--games-out", str(out))
    assert [d["set"] for d in docs] == [
        {"slapping.penalty_cards": 1, "slaps.top_bottom": True},
        {"slapping.penalty_cards": 1, "slaps.top_bottom": False},
        {"slapping.penalty_cards": 2, "slaps.top_bottom": True},
        {"slapping.penalty_cards": 2, "slaps.top_bottom": False},
    ]
    study = api.sweep(
        {"slapping.penalty_cards": [1, 2], "slaps.top_bottom": [True, False]},
        games=10,
        players=3,
        seed=2,
        rotate_seats=True,
        replicates=2,
        workers=1,
    )
    games = study.to_pandas()
    # 4 cells x 2 replicates x 10 deals x 3 rotations, and each deal's rotations share its seed.
    assert len(games) == 240 and games.groupby(["replicate", "deal"])["seed"].nunique().max() == 1
    assert games["slapping.penalty_cards"].dtype == "Int64" and games["slaps.top_bottom"].dtype == "boolean"
    for cell, doc in enumerate(docs):
        same_figures(doc, totals_from_rows(games, cell) | {"mean_cards_se": doc["mean_cards_se"]})
        assert doc["games"] == 60 and doc["deals"] == 20
        assert [r["seed"] for r in doc["replicates"]] == study.seeds and study.seeds[0] == 2
    # The file holds the same rows as the API's table, typed values written as the command line writes them.
    written = list(csv.DictReader(out.open(encoding="utf-8")))
    table = study.table()
    assert len(written) == 240 and [int(r["cards"]) for r in written] == table["cards"]
    assert {r["slaps.top_bottom"] for r in written} == {"True", "False"}


def test_rotation_gives_each_player_each_hand_and_removes_the_order_of_the_line_up() -> None:
    a = api.simulate(games=12, bots="hard,medium,easy", seed=3, rotate_seats=True, workers=1)
    b = api.simulate(games=12, bots="medium,easy,hard", seed=3, rotate_seats=True, workers=1)
    fa, fb = a.figures[0], b.figures[0]
    # The same three rotations, so the same games: the same figures per seat, each player's share moved along.
    assert fa["win_rate"] == fb["win_rate"] and fa["mean_cards"] == fb["mean_cards"]
    assert fa["player_win_rate"] == [*fb["player_win_rate"][2:], *fb["player_win_rate"][:2]]
    games = a.to_pandas()
    # Every deal is played with every player in every seat once.
    per_deal = games.groupby("deal")["seat1_player"].apply(lambda s: sorted(s.tolist()))
    assert all(players == [1, 2, 3] for players in per_deal)
    hard = games[games["winner_player"] == 1]
    assert round(len(hard) / len(games), 4) == fa["player_win_rate"][0]


def test_contrasts_between_any_two_cells_are_the_paired_differences_of_the_rows() -> None:
    study = api.sweep({"slaps.run": [0, 3, 4]}, games=40, players=2, seed=5, workers=2)
    games = study.to_pandas()
    by_cell = {c: games[games["cell"] == c].set_index("deal")["cards"] for c in range(3)}
    d = (by_cell[2] - by_cell[1]).astype(float)
    c21, c12 = study.contrast(2, 1), study.contrast(1, 2)
    e = c21.figures["mean_cards"]
    assert math.isclose(e.value, d.mean()) and math.isclose(e.se, d.std() / math.sqrt(len(d)))
    assert c12.figures["mean_cards"].value == -e.value and c12.figures["mean_cards"].se == e.se
    low, high = e.ci95
    assert math.isclose(high - e.value, e.value - low) and high - e.value > 1.96 * e.se
    contrasts = study.to_pandas("contrasts")
    row = contrasts[(contrasts["cell"] == 2) & (contrasts["minus"] == 1) & (contrasts["figure"] == "mean_cards")]
    assert math.isclose(float(row["value"].iloc[0]), e.value)
    docs = command(
        "--games", "40", "--players", "2", "--seed", "5", "--vary", "slaps.run=0,3,4", "--contrasts", "--workers", "1"
    )
    [vs_second] = [c for c in docs[2]["contrasts"] if c["cell"] == 1]
    assert vs_second["mean_cards"] == {
        "diff": round(e.value, 4),
        "se": round(e.se, 4),
        "ci95": [round(low, 4), round(high, 4)],
    }
    [vs_first] = [{k: v for k, v in c.items() if k != "cell"} for c in docs[2]["contrasts"] if c["cell"] == 0]
    assert docs[2]["vs_first"] == vs_first


def test_replicate_one_is_the_plain_run_and_the_others_are_plain_runs_on_their_recorded_seeds() -> None:
    study = api.simulate(games=15, players=2, seed=9, replicates=3, rows=False, workers=2)
    assert len(set(study.seeds)) == 3 and study.seeds[0] == 9
    for r, seed in enumerate(study.seeds):
        alone = api.simulate(games=15, players=2, seed=seed, rows=False, workers=1)
        assert study.summary(0, r).as_dict() == alone.summary().as_dict()
    pooled = study.figures[0]
    assert pooled["games"] == 45
    spread = pooled["between_replicates"]["mean_cards"]
    assert spread["mean"] == round(statistics.fmean(r["mean_cards"] for r in pooled["replicates"]), 4)
    assert spread["ci95"][0] < spread["mean"] < spread["ci95"][1]


def test_a_vary_over_bots_and_players_plays_each_line_up() -> None:
    seats = api.sweep({"players": [2, 3]}, bots="hard", games=6, workers=1)
    assert [(f["set"], f["levels"]) for f in seats.figures] == [
        ({"players": 2}, ["hard", "hard"]),
        ({"players": 3}, ["hard", "hard", "hard"]),
    ]
    lineups = api.sweep({"bots": ["medium", ["hard", "easy", "easy"]]}, players=3, games=6, workers=1)
    assert [(f["set"], f["levels"]) for f in lineups.figures] == [
        ({"bots": "medium"}, ["medium", "medium", "medium"]),
        ({"bots": "hard+easy+easy"}, ["hard", "easy", "easy"]),
    ]
    games = lineups.to_pandas()
    assert list(games[games["cell"] == 1]["seat1_level"].unique()) == ["hard"]
    # A line-up of three seats in a cell of two is an error naming the cell, before anything is played.
    with pytest.raises(MalformedInput, match=r"in the cell players=2 bots=hard\+easy\+easy"):
        api.sweep({"players": [2, 3], "bots": [["hard", "easy", "easy"]]}, games=6, workers=1)


def test_parquet_out_is_the_api_table_and_needs_pyarrow(tmp_path: Path) -> None:
    out = tmp_path / "games.parquet"
    command(*ARGS, "--workers", "1", "--games-out", str(out))
    written = pq.read_table(out)
    expected = api.simulate(games=24, bots="hard,medium,easy", seed=6, workers=1).to_arrow()
    assert written.equals(expected) and written.schema.field("seed").type == pa.uint64()
    # Without pyarrow: one clear line before anything is played, and a CSV file still works.
    script = (
        "import sys\n"
        "sys.modules['pyarrow'] = None\n"
        "from ratscrew.cli import main\n"
        "main(['simulate', '--games', '2', '--workers', '1', '--games-out', sys.argv[1]])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "x.parquet")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Parquet needs pyarrow" in done.stderr and "ratscrew[lab]" in done.stderr
    assert not (tmp_path / "x.parquet").exists()


def test_the_lab_imports_neither_pandas_nor_pyarrow_until_asked() -> None:
    script = (
        "import sys\n"
        "from ratscrew.lab import api\n"
        "study = api.sweep({'slaps.run': [3, 4]}, games=3, players=2, workers=1)\n"
        "assert len(study.table()['cards']) == 6 and study.contrast(1, 0)\n"
        "api.random_deals(10, workers=1).table()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'pyarrow', 'numpy')))\n"
        "study.to_pandas()\n"
        "print('pandas' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "True"]


def test_random_deals_rows_add_up_to_the_bmn_commands_figures() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", "bmn", "--random", "3000", "--seed", "4", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    deals = api.random_deals(3000, seed=4, workers=2)
    rows = deals.to_pandas()
    ended = rows[~rows["endless"]]
    assert len(rows) == 3000 and int(rows["endless"].sum()) == doc["loops"]
    assert round(ended["cards"].mean(), 2) == doc["mean_cards"] == round(deals.mean_cards.value, 2)
    assert int(ended["cards"].max()) == doc["max_cards"]
    assert round(ended["tricks"].mean(), 2) == doc["mean_tricks"]
    assert [round(float((ended["winner"] == h).mean()), 5) for h in (1, 2)] == doc["winner_share"]
    longest = rows.loc[ended["cards"].idxmax(), "deal"]
    assert longest.split() == doc["longest_deal"]
    assert math.isclose(deals.mean_cards.se, ended["cards"].std() / math.sqrt(len(ended)))


def test_a_hunt_gives_its_bests_and_pool_as_tables() -> None:
    small = HuntSettings(block=4_000, keep=16, walk=8, cap=3_000)
    one = api.hunt(batches=3, seed=8, settings=small)
    again = api.hunt(batches=3, seed=8, settings=small, workers=2)
    assert [f for _, f in one.bests] == [f for _, f in again.bests] and one.best is not None
    bests = one.to_pandas()
    assert list(bests["cards"]) == sorted(bests["cards"]) and bests["cards"].iloc[-1] == one.best.cards
    pool = one.table("pool")
    assert pool["cards"][0] == one.best.cards and len(pool["deal"][0].split()) == 2
    with pytest.raises(MalformedInput, match="batches=N or seconds=S"):
        api.hunt()


def test_rules_as_a_value_or_as_a_name_and_typed_changes_give_the_same_study() -> None:
    built = Rules.build("bicycle", {"slaps.run": 4, "slaps.top_bottom": False})
    by_value = api.simulate(rules=built, players=2, games=8, seed=2, rows=False, workers=1)
    by_name = api.simulate(
        rules="bicycle", sets={"slaps.run": 4, "slaps.top_bottom": False}, players=2, games=8, seed=2, rows=False
    )
    assert by_value.figures == by_name.figures
    with pytest.raises(MalformedInput, match=r"slaps\.run"):
        api.simulate(sets={"slaps.run": 9}, games=2)


def test_a_seat_or_a_cell_out_of_range_is_refused_not_counted_from_the_end() -> None:
    # Seats count from 1 and cells from 0: Python's negative or zero index would give another one's figures.
    study = api.simulate(players=2, games=20, seed=1, workers=1)
    assert study.win_rate(1).value + study.win_rate(2).value == pytest.approx(1)
    for seat in (0, -1, 3):
        with pytest.raises(ValueError, match=f"no seat {seat}: seats are numbered from 1, here 1 to 2"):
            study.win_rate(seat)
    for cell in (-1, 1):
        with pytest.raises(ValueError, match=f"no cell {cell}: this study's cells are numbered 0 to 0"):
            study.mean("mean_cards", cell=cell)
    with pytest.raises(ValueError, match="play it with rows=True"):
        api.simulate(players=2, games=5, seed=1, workers=1, rows=False).to_pandas()


def test_a_studys_repr_is_one_short_line_that_plays_it_again() -> None:
    # The dataclass's repr printed every game: a notebook cell showing a study of 1,000 games was ~96,000 characters.
    plain = api.simulate(games=1000, bots="hard,easy", sets={"slaps.run": 4}, seed=3, workers=1)
    assert repr(plain) == (
        "<Study of simulate(rules='standard', sets={'slaps.run': 4}, bots='hard,easy', games=1000, seed=3): "
        "1 cell, 1,000 games played>"
    )
    grid = api.sweep(
        {"slaps.run": [3, 4], "players": [2, 3]}, games=6, seed=2, rotate_seats=True, replicates=2, workers=1
    )
    text = repr(grid)
    assert len(text) < 200 and "\n" not in text
    assert text.endswith(": 4 cells, 120 games played>")  # 6 deals, 2 replicates, 2+3+2+3 rotations
    call = text.removeprefix("<Study of ").rpartition(":")[0]
    again = eval(call, {"sweep": functools.partial(api.sweep, workers=1)})
    assert again.figures == grid.figures


def test_deals_and_a_hunt_show_themselves_in_a_line() -> None:
    # Their dataclass reprs printed every deal (~177,000 characters for 2,000) and the whole pool.
    deals = api.random_deals(2000, seed=1, workers=1)
    longest = max(deals.table()["cards"])
    assert repr(deals) == (
        "<Deals of random_deals(2000, seed=1, players=2): "
        f"2,000 deals, {deals.loops} endless, longest {longest:,} cards>"
    )
    again = eval(repr(deals).removeprefix("<Deals of ").rpartition(":")[0], {"random_deals": api.random_deals})
    assert again.table() == deals.table()
    hunt = api.hunt(batches=1, seed=8, settings=HuntSettings(block=4_000, keep=16, walk=8, cap=3_000))
    assert hunt.best is not None
    assert repr(hunt) == f"<Hunt of seed 8: 1 batch, 4,000 deals dealt, best {hunt.best.cards:,} cards>"


def test_with_rotated_seats_each_players_share_is_given_between_replicates() -> None:
    # Rotation's point is each player's share, whatever seat: it was left out of the replicates' spread.
    study = api.simulate(games=8, bots="hard,easy,easy", seed=4, rotate_seats=True, replicates=3, rows=False, workers=1)
    [doc] = command("--games", "8", "--bots", "hard,easy,easy", "--seed", "4", "--rotate-seats", "--replicates", "3")
    assert doc == study.figures[0]
    per_replicate = [r["player_win_rate"] for r in doc["replicates"]]
    assert per_replicate == [
        [round(study.summary(0, r).tally.win_share(p, by_player=True).value, 4) for p in range(3)] for r in range(3)
    ]
    spread = doc["between_replicates"]["player_win_rate"]
    assert len(spread) == 3
    for p, player in enumerate(spread):
        assert player["mean"] == round(statistics.fmean(shares[p] for shares in per_replicate), 4)
        assert player["ci95"][0] <= player["mean"] <= player["ci95"][1]
    assert spread[0]["mean"] > spread[1]["mean"]  # hard against two easy players


@pytest.mark.parametrize(
    ("call", "python", "options", "command_line"),
    [
        ({"games": 0}, "games must be at least 1, got 0", ["--games", "0"], "--games must be at least 1, got 0"),
        ({"seed": -1}, "seed must be a non-negative integer", ["--seed", "-1"], "--seed must be a non-negative"),
        ({"replicates": 0}, "replicates must be at least 1", ["--replicates", "0"], "--replicates must be at least 1"),
        ({"workers": 0}, "workers must be at least 1", ["--workers", "0"], "--workers must be at least 1"),
        ({"players": 0}, "players must be from 2 to 12", ["--players", "0"], "--players must be from 2 to 12"),
        (
            {"bots": "hard,,easy"},
            "bots='hard,,easy' leaves a seat",
            ["--bots", "hard,,easy"],
            "--bots 'hard,,easy' leaves",
        ),
        (
            {"bots": "hard,easy", "players": 3},
            "bots gives 2 levels but players is 3",
            ["--bots", "hard,easy", "--players", "3"],
            "--bots gives 2 levels but --players is 3",
        ),
        (
            {"vary": {"slaps.run": [3, 3]}},
            "vary['slaps.run'] repeats a value (3)",
            ["--vary", "slaps.run=3,3"],
            "--vary slaps.run repeats a value (3)",
        ),
        (
            {"vary": {"slaps.run": [3, 4]}, "sets": {"slaps.run": 0}},
            "vary['slaps.run'] and sets['slaps.run'] both give",
            ["--vary", "slaps.run=3,4", "--set", "slaps.run=0"],
            "--vary slaps.run and --set slaps.run both give",
        ),
        (
            {"vary": {"players": [2, "two"]}},
            "vary['players'] needs whole numbers of seats, e.g. [2, 3, 4]; got 'two'",
            ["--vary", "players=2,two"],
            "--vary players needs whole numbers of seats, e.g. players=2,3,4",
        ),
        (
            {"vary": {"bots": ["hard+", "easy"]}},
            "'hard+' in vary['bots'] leaves a seat empty",
            ["--vary", "bots=hard+,easy"],
            "--vary bots 'hard+' leaves a seat empty",
        ),
    ],
)
def test_a_check_names_the_parameter_from_python_and_the_option_from_the_command_line(
    call: dict[str, Any], python: str, options: list[str], command_line: str
) -> None:
    # One check each, worded for its caller: a notebook was told to fix "--games", an option it never gave.
    vary = call.pop("vary", {})
    with pytest.raises(MalformedInput) as raised:
        api.sweep(vary, **{"games": 2, "workers": 1, **call})
    assert python in str(raised.value) and "--" not in str(raised.value)
    done = CliRunner().invoke(main, ["simulate", "--games", "2", "--workers", "1", *options])
    assert done.exit_code == 2 and command_line in done.output, done.output


def test_a_plain_runs_error_names_no_cell() -> None:
    # A plain run has one cell and nothing varied: its errors once ended in "(in the cell )".
    with pytest.raises(MalformedInput) as raised:
        api.simulate(players=13, games=2)
    assert str(raised.value) == "a game needs 2 to 12 players, got 13"


def test_a_sweep_over_rules_names_each_preset_and_plays_it_again_from_its_repr() -> None:
    study = api.sweep({"rules": ["standard", "slapjack"]}, sets={"slaps.run": 4}, players=2, games=8, workers=1)
    assert [study.chosen(c) for c in (0, 1)] == [{"rules": "standard"}, {"rules": "slapjack"}]
    assert study.table()["rules"][:2] == ["standard", "slapjack"]
    alone = api.simulate(rules="slapjack", sets={"slaps.run": 4}, players=2, games=8, workers=1)
    assert study.summary(1).as_dict() == alone.summary().as_dict()
    call = repr(study).removeprefix("<Study of ").rpartition(":")[0]
    assert "rules='standard'" not in call  # the vary names them
    assert eval(call, {"sweep": functools.partial(api.sweep, workers=1)}).figures == study.figures
    with pytest.raises(MalformedInput, match=r"vary\['rules'\] and rules both give the rules"):
        api.sweep({"rules": ["standard", "bicycle"]}, rules="beggar", games=2)
