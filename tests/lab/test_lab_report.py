"""Report folders (--report DIR, `ratscrew lab report DIR`): the page opens from disk in Chromium with its
plots, fetches nothing, holds the exact command, the commit and the seed, shows the figures as tables, says
truthfully what gives the same figures again (and `--check` confirms it), and a folder is checked before the
run and never overwritten without --force."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from ratscrew.lab.report import Report, source_commit, write_report
from ratscrew.lab.report_tables import simulate_tables

SIMULATE = ["simulate", "--games", "40", "--players", "2", "--seed", "4", "--vary", "end.max_cards=50000,600"]
RUNS = {
    "simulate": SIMULATE,
    "bmn-random": ["bmn", "--random", "20000", "--seed", "3"],
    "bmn-search": ["bmn", "--search", "--batches", "1", "--seed", "2"],
    # Stopped by their time budgets: what they got through depends on the machine.
    "bmn-random-timed": ["bmn", "--random", "--seconds", "0.3", "--seed", "3", "--players", "3"],
    "bmn-search-timed": ["bmn", "--search", "--seconds", "1.5", "--seed", "5"],
}
REPO = Path(__file__).resolve().parents[2]


def ratscrew(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A report of each kind: a simulate grid, random deals, a short hunt, and the two stopped by time."""
    root = tmp_path_factory.mktemp("reports")
    for kind, args in RUNS.items():
        done = ratscrew(*args, "--report", str(root / kind))
        assert done.returncode == 0, done.stderr
        assert done.stderr.strip().endswith(f"report written to {root / kind / 'index.html'}")
    return {kind: root / kind for kind in RUNS}


def report_json(folder: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return doc


def open_report(browser: Browser, folder: Path) -> tuple[Page, list[str]]:
    page = browser.new_context().new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto((folder / "index.html").as_uri())
    page.wait_for_load_state("load")
    return page, asked


@pytest.mark.parametrize(
    ("kind", "plots"),
    [("simulate", 3), ("bmn-random", 2), ("bmn-search", 2), ("bmn-random-timed", 2), ("bmn-search-timed", 2)],
)
def test_the_page_opens_from_disk_with_its_plots_and_fetches_nothing(
    browser: Browser, reports: dict[str, Path], kind: str, plots: int
) -> None:
    folder = reports[kind]
    page, asked = open_report(browser, folder)
    try:
        images = page.locator("figure img")
        assert images.count() == plots
        for i in range(plots):
            width = images.nth(i).evaluate("img => img.complete ? img.naturalWidth : 0")
            assert width > 300, f"plot {i + 1} of the {kind} report did not draw"
        assert all(url.startswith(folder.as_uri()) for url in asked), asked  # only the page and its own plots
        command = page.locator("#command").inner_text()
        assert command == (folder / "command.txt").read_text(encoding="utf-8").strip()
        assert shlex.split(command)[:2] == ["ratscrew", kind.partition("-")[0]]
        # The JSON is there for machines, folded away: what a reader sees first are tables.
        assert not page.locator("#figures").is_visible()
        printed = [json.loads(line) for line in (page.locator("#figures").text_content() or "").splitlines()]
        assert printed == report_json(folder)["output"]
        assert page.locator("table.figures").count() >= 1
    finally:
        page.context.close()


def test_the_report_holds_command_version_seed_and_figures(reports: dict[str, Path]) -> None:
    from ratscrew import __version__

    doc = json.loads((reports["simulate"] / "report.json").read_text(encoding="utf-8"))
    assert doc["command"][:2] == ["ratscrew", "simulate"] and "--seed" in doc["command"]
    assert doc["version"] == __version__ and doc["kind"] == "simulate"
    cells = doc["figures"]["cells"]
    assert [c["set"] for c in cells] == [{"end.max_cards": 50000}, {"end.max_cards": 600}]
    assert sum(n for _, n in cells[0]["histogram"]["cards"]) == 40
    hunt = json.loads((reports["bmn-search"] / "report.json").read_text(encoding="utf-8"))
    assert hunt["figures"]["state"]["seed"] == 2 and hunt["figures"]["best"] == hunt["output"][-1]


def expected_commit() -> str:
    """What the report must say: the checkout's HEAD, or "unknown" when the tests run from a tree without git."""
    done = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 and (REPO / "src" / "ratscrew").is_dir() else "unknown"


def test_the_page_names_seed_and_commit_and_tables_the_figures(browser: Browser, reports: dict[str, Path]) -> None:
    doc = report_json(reports["simulate"])
    assert doc["seed"] == 4 and doc["commit"] == expected_commit()
    first, second = doc["output"]
    page, _ = open_report(browser, reports["simulate"])
    try:
        assert page.locator("#about-seed").inner_text() == "4"
        assert page.locator("#about-commit").inner_text().startswith(expected_commit())
        rows = page.locator("#table-mean_cards tbody tr")
        assert rows.count() == 2

        def interval(pair: list[float], scale: int = 1, digits: int = 2, unit: str = "") -> str:
            return f"{scale * pair[0]:.{digits}f}{unit} to {scale * pair[1]:.{digits}f}{unit}"

        assert rows.nth(0).locator("td").all_inner_texts() == [
            "50000",
            f"{first['mean_cards']:.2f} ± {first['mean_cards_se']:.2f}",
            interval(first["mean_cards_ci95"]),
            "the reference",
            "",
        ]
        paired = second["vs_first"]["mean_cards"]
        assert rows.nth(1).locator("td").all_inner_texts() == [
            "600",
            f"{second['mean_cards']:.2f} ± {second['mean_cards_se']:.2f}",
            interval(second["mean_cards_ci95"]),
            f"{paired['diff']:+.2f} ± {paired['se']:.2f}",
            interval(paired["ci95"]),
        ]
        seat = page.locator("#table-win_rate\\.0 tbody tr").nth(1).locator("td").all_inner_texts()
        assert seat[1] == f"{100 * second['win_rate'][0]:.1f}% ± {100 * second['win_rate_se'][0]:.1f}%"
        assert seat[2] == interval(second["win_rate_ci95"][0], 100, 1, "%")
    finally:
        page.context.close()
    random = report_json(reports["bmn-random"])["output"][0]
    page, _ = open_report(browser, reports["bmn-random"])
    try:
        cards = page.locator("#table-figures tr", has_text="cards turned per game").locator("td").all_inner_texts()
        low, high = random["mean_cards_ci95"]
        assert cards[1:] == [f"{random['mean_cards']:.2f} ± {random['mean_cards_se']:.2f}", f"{low:.2f} to {high:.2f}"]
    finally:
        page.context.close()


def test_a_report_made_outside_a_checkout_says_its_commit_is_unknown(tmp_path: Path) -> None:
    """ratscrew copied out of the checkout, with no COMMIT file written by a build: the report does not guess."""
    copy = tmp_path / "elsewhere"
    shutil.copytree(
        REPO / "src" / "ratscrew", copy / "ratscrew", ignore=shutil.ignore_patterns("__pycache__", "COMMIT")
    )
    folder = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", "bmn", "--random", "50", "--report", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(copy)},
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    doc = report_json(folder)
    assert (doc["commit"], doc["dirty"]) == ("unknown", None)
    assert source_commit()[0] == expected_commit()


def test_rerunning_what_the_page_names_gives_the_same_figures(browser: Browser, reports: dict[str, Path]) -> None:
    for kind in ("simulate", "bmn-search"):
        done = ratscrew("lab", "report", str(reports[kind]), "--check")
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().endswith("the same figures again")
        note = report_json(reports[kind])["rerun_note"]
        assert "seeded" in note and "the command run again gives the same figures" in note
    # Stopped by time: the page does not promise that the command repeats, and names the one that does.
    for kind, names in (("bmn-random-timed", "--random"), ("bmn-search-timed", "--batches")):
        doc = report_json(reports[kind])
        page, _ = open_report(browser, reports[kind])
        try:
            said = page.locator("#rerun").inner_text()
            assert "stopped by its time budget" in said and "the command run again" in said
            assert "a different number" in said and "command below" in said
            reproduce = shlex.split(page.locator("#reproduce").inner_text())
        finally:
            page.context.close()
        assert reproduce == doc["reproduce"] and names in reproduce and "--seconds" not in reproduce
        count = doc["output"][0]["games"] if kind == "bmn-random-timed" else doc["figures"]["state"]["next_batch"]
        assert reproduce[reproduce.index(names) + 1] == str(count)
        done = ratscrew("lab", "report", str(reports[kind]), "--check")
        assert done.returncode == 0, done.stderr
        assert f"rerunning: {shlex.join(reproduce)}" in done.stdout
    report = reports["bmn-random"] / "report.json"
    doc = report_json(reports["bmn-random"])
    doc["output"][0]["max_cards"] += 1  # a report that no longer matches its command
    report.write_text(json.dumps(doc), encoding="utf-8")
    done = ratscrew("lab", "report", str(reports["bmn-random"]), "--check")
    assert done.returncode == 2 and "max_cards" in done.stderr and done.stderr.count("\n") == 1


def test_the_hunts_plot_runs_to_the_end_of_the_run(browser: Browser, tmp_path: Path) -> None:
    """The last new best came after 2 s of a 20 s hunt: the line goes on to 20 s."""
    find = {"deal": ["-" * 26, "-" * 26], "cards": 3000, "tricks": 400}
    state = {"format": "ratscrew-bmn-search/2", "seed": 1, "next_batch": 30, "played": 0, "searched": 0}
    figures = {
        "state": {**state, "pool": [find], "cycles": []},
        "progress": [{"seconds": 1.0, "batch": 0, **find, "cards": 2000}, {"seconds": 2.0, "batch": 1, **find}],
        "best": find,
        "seconds": 20.0,
        "stopped_by_time": True,
    }
    write_report(tmp_path / "hunt", Report("bmn-search", "a hunt", ["ratscrew", "bmn"], [find], figures))
    page = browser.new_context().new_page()
    try:
        page.goto((tmp_path / "hunt" / "progress.svg").as_uri())
        box = "(id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.right]; }"
        line, finds = page.evaluate(box, "data-best"), page.evaluate(box, "data-finds")
    finally:
        page.context.close()
    # 1 s to 2 s holds the finds; the line runs on eighteen times as far again.
    assert line[1] - finds[1] > 10 * (finds[1] - finds[0])


def test_a_folder_that_cannot_take_the_report_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "other.txt").write_text("mine", encoding="utf-8")
    earlier = tmp_path / "earlier"
    assert ratscrew("bmn", "--random", "10", "--report", str(earlier)).returncode == 0
    cases = [
        (["simulate", "--games", "2", "--json", "--report", str(tmp_path)], "holds files that are not a report"),
        (["simulate", "--games", "2", "--json", "--report", str(tmp_path), "--force"], "not a report"),
        (["simulate", "--games", "2", "--json", "--report", str(tmp_path / "other.txt")], "is a file"),
        (["bmn", "--random", "10", "--json", "--report", str(tmp_path / "no" / "such")], "no folder"),
        (["bmn", "--random", "10", "--json", "--report", "/proc/report"], "cannot write the report"),
        (["simulate", "--games", "2", "--json", "--report", "/proc/report"], "cannot write the report"),
        (["bmn", "--random", "10", "--json", "--report", str(earlier)], "already holds a report"),
        (["bmn", "--search", "--batches", "1", "--json", "--report", str(earlier)], "--force to replace it"),
        (["simulate", "--games", "2", "--json", "--force"], "--force only goes with --report"),
        (["lab", "report", str(tmp_path)], "has no readable report.json"),
    ]
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "report.json").write_text('{"format": "ratscrew-report/1", "kind": "simulate"}')
    cases.append((["lab", "report", str(tmp_path / "broken")], "lacks a field"))
    for args, says in cases:
        done = ratscrew(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert done.stdout == "", f"{args}: the run went ahead before the folder was refused"
    assert not Path("/proc/report").exists()


def test_force_replaces_a_report_and_leaves_none_of_its_old_plots(tmp_path: Path) -> None:
    folder = tmp_path / "report"
    grid = ["simulate", "--games", "6", "--players", "2", "--vary", "slaps.run=0,3", "--json", "--report", str(folder)]
    assert ratscrew(*grid).returncode == 0
    assert (folder / "sweep.svg").is_file()
    (folder / "notes.txt").write_text("the reader's own notes", encoding="utf-8")
    before = (folder / "report.json").read_text(encoding="utf-8")
    plain = ["simulate", "--games", "6", "--players", "2", "--json", "--report", str(folder)]
    refused = ratscrew(*plain)
    assert refused.returncode == 2 and (folder / "report.json").read_text(encoding="utf-8") == before
    done = ratscrew(*plain, "--force")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == [
        "command.txt",
        "index.html",
        "lengths.svg",
        "notes.txt",
        "report.json",
        "wins.svg",
    ]
    assert report_json(folder)["command"][-1] == "--force"
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "the reader's own notes"


def test_the_tables_take_intervals_and_differences_where_the_results_give_them() -> None:
    """A run that gives a 95% interval beside a mean or a difference gets a column for it; one that does not,
    none (the results are read in one place, lab/report_tables.py's cell_estimates)."""
    plain = {"set": {"k": "a"}, "games": 9, "levels": ["easy", "hard"], "mean_cards": 100.0, "mean_cards_se": 5.0}
    plain |= {"win_rate": [0.25, 0.75], "win_rate_se": [0.1, 0.1]}
    with_ci = {**plain, "set": {"k": "b"}, "mean_cards": 90.0, "mean_cards_ci95": [80.2, 99.8]}
    with_ci["vs_first"] = {"mean_cards": {"diff": -10.0, "se": 2.0, "ci95": [-13.92, -6.08]}}
    tables = {t.key: t for t in simulate_tables([plain, with_ci])}
    cards = tables["mean_cards"]
    assert cards.head == ["k", "mean ± SE", "95% CI", "difference from k=a ± SE", "95% CI"]
    assert cards.rows == [
        ["a", "100.00 ± 5.00", "", "the reference", ""],
        ["b", "90.00 ± 5.00", "80.20 to 99.80", "-10.00 ± 2.00", "-13.92 to -6.08"],
    ]
    assert tables["win_rate.1"].title == "Seat 2 (hard) wins" and tables["win_rate.1"].head == ["k", "share ± SE"]
    assert tables["win_rate.1"].rows == [["a", "75.0% ± 10.0%"], ["b", "75.0% ± 10.0%"]]
    assert "mean_cards-pairs" not in tables  # no differences but from the first cell: no table of pairs


def test_a_grid_with_contrasts_and_replicates_tables_them_all(tmp_path: Path) -> None:
    """simulate --contrasts --replicates: every cell's difference from every other, and the spread between
    replicates, read from the JSON the command prints, as the page shows them."""
    args = ["--games", "6", "--players", "2", "--seed", "3", "--vary", "slaps.run=0,3,4", "--replicates", "2"]
    done = ratscrew("simulate", *args, "--contrasts", "--json", "--report", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr
    cells = [json.loads(line) for line in done.stdout.splitlines()]
    tables = {t.key: t for t in simulate_tables(cells)}
    cards = tables["mean_cards"]
    assert cards.head == [
        "slaps.run", "mean ± SE", "95% CI", "between replicates ± SE", "95% CI",
        "difference from slaps.run=0 ± SE", "95% CI",
    ]  # fmt: skip
    spread = cells[2]["between_replicates"]["mean_cards"]
    assert cards.rows[2][3:5] == [
        f"{spread['mean']:.2f} ± {spread['se']:.2f}",
        f"{spread['ci95'][0]:.2f} to {spread['ci95'][1]:.2f}",
    ]
    pairs = tables["mean_cards-pairs"]
    assert [row[:2] for row in pairs.rows] == [["slaps.run=4", "slaps.run=3"]]  # the first cell's are above
    [vs_second] = [c for c in cells[2]["contrasts"] if c["cell"] == 1]
    assert pairs.rows[0][2] == f"{vs_second['mean_cards']['diff']:+.2f} ± {vs_second['mean_cards']['se']:.2f}"
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert "id='table-mean_cards-pairs'" in page and "between replicates" in page


def test_a_resumed_hunts_report_names_the_fresh_hunt_that_reaches_its_best(tmp_path: Path) -> None:
    state, folder = tmp_path / "hunt.json", tmp_path / "report"
    assert ratscrew("bmn", "--search", "--batches", "1", "--seed", "6", "--state", str(state)).returncode == 0
    done = ratscrew("bmn", "--search", "--batches", "2", "--state", str(state), "--report", str(folder))
    assert done.returncode == 0, done.stderr
    doc = report_json(folder)
    assert doc["reproduce"] == ["ratscrew", "bmn", "--search", "--seed", "6", "--batches", "2"]
    assert doc["compare"] == "best" and "carried on from its state file at batch 1" in doc["rerun_note"]
    done = ratscrew("lab", "report", str(folder), "--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("the same best deal again")


def test_the_rerun_line_of_check_runs_as_it_is_printed(tmp_path: Path) -> None:
    # It printed the recorded command, `--report DIR --force` and all, while it ran another: pasted, that line
    # replaced the report instead of printing its figures.
    runs = tmp_path / "runs"
    runs.mkdir()
    made = [sys.executable, "-m", "ratscrew", "simulate", "--games", "6", "--players", "2", "--report", "report"]
    for extra in ([], ["--force"]):
        subprocess.run([*made, *extra], cwd=runs, capture_output=True, timeout=300, check=True)
    folder = runs / "report"
    before = (folder / "report.json").read_bytes()
    done = ratscrew("lab", "report", str(folder), "--check")
    assert done.returncode == 0, done.stderr
    [line] = [out.removeprefix("rerunning: ") for out in done.stdout.splitlines() if out.startswith("rerunning: ")]
    assert "--report" not in line and "--force" not in line
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    again = subprocess.run(
        ["bash", "-c", line],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PATH": path},
    )
    assert again.returncode == 0, again.stderr
    assert [json.loads(out) for out in again.stdout.splitlines()] == report_json(folder)["output"]
    assert (folder / "report.json").read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["runs"]
