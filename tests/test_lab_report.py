"""Report folders (--report DIR, `ratscrew lab report DIR`): the page opens from disk in Chromium with its
plots, fetches nothing, holds the exact command, and the command it records gives the same figures again."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser

SIMULATE = ["simulate", "--games", "40", "--players", "2", "--seed", "4", "--vary", "end.max_cards=50000,600"]


def ratscrew(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A report of each kind: a simulate grid, random deals, and a short hunt."""
    root = tmp_path_factory.mktemp("reports")
    runs = {
        "simulate": SIMULATE,
        "bmn-random": ["bmn", "--random", "20000", "--seed", "3"],
        "bmn-search": ["bmn", "--search", "--batches", "1", "--seed", "2"],
    }
    for kind, args in runs.items():
        done = ratscrew(*args, "--report", str(root / kind))
        assert done.returncode == 0, done.stderr
        assert done.stderr.strip().endswith(f"report written to {root / kind / 'index.html'}")
    return {kind: root / kind for kind in runs}


@pytest.mark.parametrize(("kind", "plots"), [("simulate", 3), ("bmn-random", 2), ("bmn-search", 2)])
def test_the_page_opens_from_disk_with_its_plots_and_fetches_nothing(
    browser: Browser, reports: dict[str, Path], kind: str, plots: int
) -> None:
    folder = reports[kind]
    context = browser.new_context()
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto((folder / "index.html").as_uri())
        page.wait_for_load_state("load")
        images = page.locator("figure img")
        assert images.count() == plots
        for i in range(plots):
            width = images.nth(i).evaluate("img => img.complete ? img.naturalWidth : 0")
            assert width > 300, f"plot {i + 1} of the {kind} report did not draw"
        assert all(url.startswith(folder.as_uri()) for url in asked), asked  # only the page and its own plots
        command = page.locator("#command").inner_text()
        assert command == (folder / "command.txt").read_text(encoding="utf-8").strip()
        assert shlex.split(command)[:2] == ["ratscrew", kind.partition("-")[0]]
        printed = [json.loads(line) for line in page.locator("#figures").inner_text().splitlines()]
        assert printed == json.loads((folder / "report.json").read_text(encoding="utf-8"))["output"]
    finally:
        context.close()


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


def test_rerunning_the_recorded_command_gives_the_same_figures(reports: dict[str, Path]) -> None:
    for kind in ("simulate", "bmn-search"):
        done = ratscrew("lab", "report", str(reports[kind]), "--check")
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().endswith("the same figures again")
    report = reports["bmn-random"] / "report.json"
    doc = json.loads(report.read_text(encoding="utf-8"))
    doc["output"][0]["max_cards"] += 1  # a report that no longer matches its command
    report.write_text(json.dumps(doc), encoding="utf-8")
    done = ratscrew("lab", "report", str(reports["bmn-random"]), "--check")
    assert done.returncode == 2 and "max_cards" in done.stderr and done.stderr.count("\n") == 1


def test_a_folder_that_is_not_a_report_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "other.txt").write_text("mine", encoding="utf-8")
    cases = [
        (["simulate", "--games", "2", "--report", str(tmp_path)], "holds other files"),
        (["simulate", "--games", "2", "--report", str(tmp_path / "other.txt")], "is a file"),
        (["bmn", "--random", "10", "--report", str(tmp_path / "no" / "such")], "no folder"),
        (["lab", "report", str(tmp_path)], "has no readable report.json"),
    ]
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "report.json").write_text('{"format": "ratscrew-report/1", "kind": "simulate"}')
    cases.append((["lab", "report", str(tmp_path / "broken")], "lacks a field"))
    for args, says in cases:
        done = ratscrew(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and says in done.stderr and "Traceback" not in done.stderr
