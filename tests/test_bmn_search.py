"""`ratscrew bmn --search` and `bmn --random`: seeded, resumable, the same on any number of workers, and
every deal they name replays with `ratscrew bmn`."""

from __future__ import annotations

import json
import math
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ratscrew import bmn
from ratscrew.bmn import block_seed, parse_bmn_hands, play_bmn, play_random, random_deal
from ratscrew.lab import bmn_random
from ratscrew.lab.bmn_random import play_random_for
from ratscrew.lab.bmn_search import Find, HuntSettings, SearchState, run_batch, search
from ratscrew.lab.bmn_state import STATE_FORMAT, load_state, save_state
from ratscrew.shuffle import SeededRandom

SMALL = HuntSettings(block=4_000, keep=16, walk=8, cap=3_000)
PAULHUS = ["------------KAQ----J------", "-JQQK---K----JK--QA-A-JA--"]
CASELLA = ["---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA"]


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", "bmn", *args], capture_output=True, text=True, timeout=timeout
    )


def json_lines(*args: str) -> list[dict[str, Any]]:
    done = run(*args, "--json")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def replays(doc: dict[str, Any]) -> bool:
    result = play_bmn(parse_bmn_hands(doc["deal"]))
    if doc.get("result") == "loop":
        return result.loop is not None and result.loop.prefix_cards + result.loop.cycle_cards == doc["cards"]
    return (result.cards, result.tricks) == (doc["cards"], doc["tricks"])


def test_a_batch_is_the_same_in_c_and_python_and_every_find_replays() -> None:
    fast = run_batch(3, 0, SMALL)
    assert run_batch(3, 0, SMALL, accelerated=False) == fast
    assert fast.played == SMALL.block and fast.searched > 0
    cards = [f.cards for f in fast.finds]
    assert cards == sorted(cards, reverse=True) and len({f.deal for f in fast.finds}) == len(fast.finds)
    assert all(replays(f.as_json()) for f in fast.finds)
    assert run_batch(3, 1, SMALL) != fast


def test_the_families_beat_random_sampling_on_the_same_deals() -> None:
    settings = HuntSettings(block=50_000, keep=100)
    for batch in range(3):
        result = run_batch(11, batch, settings)
        dealt = max(f.cards for f in result.finds if not f.above)
        best = result.finds[0]
        assert best.above and best.cards > dealt, f"batch {batch}: the families found nothing beyond {dealt} cards"


def test_same_seed_same_bests_whatever_the_workers() -> None:
    one = list(search(SearchState(seed=8), batches=5, settings=SMALL))
    two = list(search(SearchState(seed=8), batches=5, settings=SMALL, workers=2))
    assert one == two and one
    assert [f.cards for f in one] == sorted(f.cards for f in one)
    assert [f.batch for f in one] == sorted(f.batch for f in one)
    assert list(search(SearchState(seed=9), batches=5, settings=SMALL)) != one


def test_each_json_line_is_a_deal_that_ratscrew_bmn_reproduces() -> None:
    lines = json_lines("--search", "--batches", "1", "--seed", "4")
    assert lines and all(set(line) == {"deal", "cards", "tricks"} for line in lines)
    assert [line["cards"] for line in lines] == sorted(line["cards"] for line in lines)
    done = run(*lines[-1]["deal"], "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert (doc["result"], doc["cards"], doc["tricks"]) == ("win", lines[-1]["cards"], lines[-1]["tricks"])


def test_a_stopped_search_carries_on_from_its_state_file(tmp_path: Path) -> None:
    state = tmp_path / "hunt.json"
    whole = json_lines("--search", "--batches", "2", "--seed", "6")
    first = json_lines("--search", "--batches", "1", "--seed", "6", "--state", str(state))
    saved = json.loads(state.read_text())
    assert saved["format"] == STATE_FORMAT and saved["next_batch"] == 1 and saved["seed"] == 6
    rest = json_lines("--search", "--batches", "2", "--state", str(state), "--workers", "2")
    assert first + rest == whole
    saved = json.loads(state.read_text())
    assert saved["next_batch"] == 2 and saved["played"] == 2 * HuntSettings().block
    pool = saved["pool"]
    assert len(pool) == 32 and pool[0]["deal"] == whole[-1]["deal"]
    assert [p["cards"] for p in pool] == sorted((p["cards"] for p in pool), reverse=True)
    assert all(replays(p) for p in pool[:4])


def test_the_state_file_holds_the_hunt_whole(tmp_path: Path) -> None:
    path = tmp_path / "hunt.json"
    whole = SearchState(seed=3)
    bests = list(search(whole, batches=6, settings=SMALL))
    part = SearchState(seed=3)
    bests_then = list(search(part, batches=3, settings=SMALL))
    save_state(part, path)
    resumed = load_state(path)
    assert resumed == part
    assert bests_then + list(search(resumed, batches=6, settings=SMALL)) == bests
    assert resumed == whole


def test_seconds_stops_the_search_and_ctrl_c_keeps_the_state(tmp_path: Path) -> None:
    # A search without --seconds runs until stopped: one that did not stop would end in run()'s timeout.
    done = run("--search", "--seconds", "1.5", "--json")
    assert done.returncode == 0, done.stderr
    assert all("deal" in json.loads(line) for line in done.stdout.splitlines())
    state = tmp_path / "hunt.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ratscrew", "bmn", "--search", "--state", str(state), "--json"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_a_terminal_would,
    )
    try:
        deadline = time.monotonic() + 60
        while batches_done(state) < 1:
            assert time.monotonic() < deadline, "no batch finished within a minute"
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:  # a search without --seconds runs until stopped: never leave one behind on a failure
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130
    assert err.strip().splitlines() == [err.strip()] and "stopped at batch" in err and str(state) in err
    assert json.loads(state.read_text())["next_batch"] >= 1


def _as_a_terminal_would() -> None:
    # A child inherits its parent's ignored and blocked signals: the test worker's must not hide the Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def batches_done(state: Path) -> int:
    try:
        done: int = json.loads(state.read_text())["next_batch"]
    except (OSError, ValueError):
        return 0
    return done


def test_from_a_known_deal_finds_its_longer_relative_and_from_an_endless_one_its_whole_cycle(tmp_path: Path) -> None:
    [best] = json_lines("--search", "--batches", "0", "--from", *PAULHUS)
    assert best["cards"] > 4791 and replays(best)
    state = tmp_path / "hunt.json"
    done = run("--search", "--batches", "0", "--state", str(state), "--from", *CASELLA)
    assert done.returncode == 0, done.stderr
    assert "its cycle: 62 tricks, 440 cards; 30 deals found that reach it" in done.stdout
    assert "1 distinct cycle met" in done.stdout.splitlines()[-1]
    saved = json.loads(state.read_text())
    [cycle] = saved["cycles"]
    assert (cycle["cycle_tricks"], cycle["cycle_cards"], cycle["deals"]) == (62, 440, 30)
    assert saved["pool"][0]["result"] == "loop" and replays(saved["pool"][0])


def valid_state(**changes: object) -> str:
    doc: dict[str, object] = {"format": STATE_FORMAT, "seed": 1, "next_batch": 0, "played": 0, "searched": 0}
    doc.update({"pool": [], "cycles": [], **changes})
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json at all", "is not JSON"),
        ('{"format": "something-else"}', "is not a search state"),
        ('{"format": "ratscrew-bmn-search/1", "seed": 1}', "earlier hill-climbing hunt"),
        (valid_state(seed=-1), "not a whole number"),
        (valid_state(pool=[{"deal": ["--", "--"], "cards": 3, "tricks": 1}]), "pool deal"),
        (valid_state(pool=[{"deal": PAULHUS, "cards": 5000, "tricks": 670}]), "pool deal"),  # not how it plays
        (valid_state(cycles=[{"key": "x"}]), "a cycle"),
    ],
)
def test_a_corrupt_state_file_is_one_clear_line(tmp_path: Path, content: str, says: str) -> None:
    state = tmp_path / "hunt.json"
    state.write_text(content)
    done = run("--search", "--batches", "1", "--state", str(state))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ratscrew: error:")
    assert says in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--workers", "2", "-" * 26, "-" * 26], "--workers only goes with --random N or --search"),
        (["--search", "--players", "3"], "--players does not go with --search"),
        (["--random"], "--random needs a number of deals, e.g. --random 10000, or a time budget: --seconds 60"),
        (["--random", "--json"], "--random needs a number of deals"),
        (["--random", "--seconds", "0"], "--seconds needs a number of seconds above 0"),
        (["--random", "10", "--batches", "5"], "--batches does not go with --random"),
        (["--random", "10", "--force"], "--force only goes with --report DIR"),
        (["--random", "10", "--from", *PAULHUS], "--from does not go with --random"),
        (["--random", "10", "--search"], "either --random N or --search"),
        (["--search", "--seconds", "soon"], "--seconds needs a number of seconds above 0"),
        (["--random", "10", "--workers", "0"], "--workers must be at least 1"),
        (["--search", "--state", "/nonexistent-folder/hunt.json"], "no folder"),
        (["--search", "--from", PAULHUS[0]], "--from needs a deal of two hands"),
        (["--search", "--from", PAULHUS[0], PAULHUS[1][:-1]], "expected exactly one deck"),
        (["--search", "--from", PAULHUS[0][:-1], "-" + PAULHUS[1]], "26 cards a hand"),
    ],
)
def test_bad_options_are_one_clear_line(args: list[str], says: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr


def test_random_deals_give_the_same_figures_on_any_worker_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bmn, "RANDOM_BLOCK", 70)  # several blocks with few games, so the Python path keeps up
    one = play_random(300, 5, keep=3)
    assert play_random(300, 5, workers=2, keep=3) == one
    assert play_random(300, 5, accelerated=False, workers=3, keep=3) == one
    blocks = [play_random(70, bmn.block_seed(5, b)) for b in range(4)] + [play_random(20, bmn.block_seed(5, 4))]
    assert one.headline() == (
        sum(b.total_cards for b in blocks),
        sum(b.ended for b in blocks),
        max(max(b.lengths) for b in blocks),
        sum(b.loops for b in blocks),
    )
    assert [d.cards for d in one.longest] == sorted(one.lengths.elements(), reverse=True)[:3]
    assert play_random(300, 6) != one


def test_bmn_random_reports_shares_tricks_percentiles_and_the_longest_deal() -> None:
    args = ("--random", "250000", "--seed", "2")
    one, two = json_lines(*args)[0], json_lines(*args, "--workers", "2")[0]
    for key in ("games", "mean_cards", "max_cards", "loops", "mean_tricks", "winner_share", "percentiles"):
        assert one[key] == two[key]
    assert one["longest_deal"] == two["longest_deal"]
    assert abs(sum(one["winner_share"]) - 1) < 1e-4 and all(0 < se < 0.01 for se in one["winner_share_se"])
    marks = list(one["percentiles"].values())
    assert list(one["percentiles"]) == ["50", "90", "99", "99.9", "99.99"] and marks == sorted(marks)
    assert marks[-1] <= one["max_cards"] and 20 < one["mean_tricks"] < 60
    longest = json.loads(run(*one["longest_deal"], "--json").stdout)
    assert longest["cards"] == one["max_cards"]


class Clock:
    """Virtual time: each look at the clock moves it on by ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize(("players", "accelerated"), [(2, True), (3, True), (2, False)])
def test_a_time_budget_plays_the_first_deals_of_the_seed(
    monkeypatch: pytest.MonkeyPatch, players: int, accelerated: bool
) -> None:
    assert bmn.skip_deals(7, 500) == bmn.skip_deals(7, 500, accelerated=False)  # C and Python skip alike
    # Small blocks, and chunks of sizes that do not divide them: chunks start part way through blocks.
    monkeypatch.setattr(bmn, "RANDOM_BLOCK", 70)
    monkeypatch.setattr(bmn_random, "FIRST_CHUNK", {"c": 13, "python": 13})
    monkeypatch.setattr(bmn_random, "CHUNK_SECONDS", 0.004)
    budget = play_random_for(0.5, 5, players, accelerated=accelerated, keep=3, clock=Clock(0.001))
    assert budget.games > 3 * 70  # several blocks, in chunks of several sizes
    assert budget == play_random(budget.games, 5, players, accelerated=accelerated, keep=3)
    two = play_random_for(0.5, 5, players, accelerated=accelerated, keep=3, workers=2, clock=Clock(0.001))
    assert two == play_random(two.games, 5, players, accelerated=accelerated, keep=3)
    spent = play_random_for(0.0001, 5, players, accelerated=accelerated, clock=Clock(0.001))
    assert spent.games == 13  # the first chunk is played even when the budget is spent at once
    capped = play_random_for(1000.0, 5, players, games=150, accelerated=accelerated, keep=3, clock=Clock(0.001))
    assert capped == play_random(150, 5, players, accelerated=accelerated, keep=3)


def test_bmn_random_seconds_says_how_many_deals_and_their_count_gives_the_figures_again() -> None:
    [timed] = json_lines("--random", "--seconds", "0.3", "--seed", "9", "--workers", "2")
    assert timed["games"] > 0 and timed["budget_seconds"] == 0.3
    [again] = json_lines("--random", str(timed["games"]), "--seed", "9")
    assert "budget_seconds" not in again
    timings = {"seconds", "games_per_s", "budget_seconds"}
    assert {k: v for k, v in timed.items() if k not in timings} == {k: v for k, v in again.items() if k not in timings}
    done = run("--random", "--seconds", "0.3", "--seed", "9")
    assert done.returncode == 0, done.stderr
    count = int(done.stdout.split(" deals in ")[0].replace(",", ""))
    assert "(stopped by --seconds 0.3)" in done.stdout
    assert done.stdout.strip().endswith(f"the same figures again: ratscrew bmn --random {count} --seed 9")
    [enough] = json_lines("--random", "500", "--seconds", "600", "--seed", "9")
    assert enough["games"] == 500 and "budget_seconds" not in enough  # the count came first


def test_every_mean_comes_with_its_standard_error_and_95_percent_interval() -> None:
    """Known answers: the figures of 3,000 deals against statistics over the same deals played one by one."""
    [doc] = json_lines("--random", "3000", "--seed", "12")
    rng = SeededRandom(block_seed(12, 0))
    games = [play_bmn(random_deal(rng)) for _ in range(3000)]
    ended = [g for g in games if g.loop is None]
    assert doc["loops"] == 3000 - len(ended)
    t = 1.9607  # Student's t, 97.5% point, on 2,999 degrees of freedom (tables give 1.9607)
    for key, values in (("mean_cards", [g.cards for g in ended]), ("mean_tricks", [g.tricks for g in ended])):
        mean, se = statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))
        assert doc[key] == round(mean, 2) and doc[f"{key}_se"] == round(se, 4)
        low, high = doc[f"{key}_ci95"]
        assert low == pytest.approx(mean - t * se, abs=0.006) and high == pytest.approx(mean + t * se, abs=0.006)
    first = sum(1 for g in ended if g.winner == 0) / len(ended)
    se = math.sqrt(first * (1 - first) / len(ended))
    assert doc["winner_share_se"][0] == round(se, 5)
    # Wilson's interval: its centre is pulled towards a half by z²/2n, its half width close to z·se here.
    z, n = 1.959964, len(ended)
    centre = (first + z * z / (2 * n)) / (1 + z * z / n)
    low, high = doc["winner_share_ci95"][0]
    assert (low + high) / 2 == pytest.approx(centre, abs=1e-5) and (high - low) / 2 == pytest.approx(z * se, rel=0.01)
    text = run("--random", "3000", "--seed", "12").stdout
    low, high = doc["mean_tricks_ci95"]
    assert (
        f"tricks per game: mean {doc['mean_tricks']:.2f} ± {doc['mean_tricks_se']:.2f} (95% CI {low:.2f}-{high:.2f})"
        in text
    )


def test_a_deal_found_from_the_one_given_is_not_labelled_given() -> None:
    paulhus = run("--search", "--batches", "0", "--from", *PAULHUS).stdout.splitlines()
    assert paulhus[0].startswith("new best: ") and paulhus[0].endswith("(in the family of the 4791-card deal given)")
    casella = run("--search", "--batches", "0", "--from", *CASELLA).stdout.splitlines()
    assert casella[0].endswith("(reaches the cycle of the deal given)")
    assert not any(line.endswith("(given)") for line in paulhus + casella)
    deal = (PAULHUS[0], PAULHUS[1])
    assert Find(deal, 4791, 670, batch=-1).origin() == "given with --from"
    assert Find(deal, 4791, 670, batch=3).origin() == "batch 3"
    assert Find(deal, 4795, 670, batch=3, above=2400).origin() == "batch 3, in the family of a 2400-card deal"
