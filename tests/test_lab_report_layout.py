"""A report's plots are readable whatever the grid: opened in Chromium, measured from the boxes the browser
draws each SVG <text> in, no two labels overlap, none is cut off at the edge, and the legend covers no bar,
point or line of the data (nor any other label)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

# Two keys with three and two values (the 2x3 of the issue), and three by four with three seats and a longer
# name; a hunt and random deals too.
RUNS = {
    "grid-2x3": [
        "simulate", "--games", "20", "--players", "2", "--seed", "4",
        "--vary", "end.max_cards=50000,600", "--vary", "slapping.penalty_cards=1,2,3",
    ],
    "grid-3x4": [
        "simulate", "--games", "8", "--bots", "medium,hard,easy", "--seed", "5",
        "--vary", "challenge.J=1,2,3", "--vary", "slapping.penalty=burn,give-each,lockout-pile,give-pile",
    ],
    "random": ["bmn", "--random", "5000", "--players", "3", "--seed", "2"],
    "hunt": ["bmn", "--search", "--batches", "1", "--seed", "2"],
}  # fmt: skip

MEASURE = """() => {
    const box = (e) => {
        const r = e.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, id: e.id, text: e.textContent.trim()};
    };
    const svg = document.querySelector('svg').getBoundingClientRect();
    const texts = [...document.querySelectorAll('text')].filter((t) => t.textContent.trim());
    return {
        svg: {left: svg.left, top: svg.top, right: svg.right, bottom: svg.bottom},
        texts: texts.filter((t) => !t.closest('#legend')).map(box),
        legendTexts: texts.filter((t) => t.closest('#legend')).map(box),
        legend: [...document.querySelectorAll('#legend')].map(box),
        data: [...document.querySelectorAll('[id^="bar-"], [id^="data-"]')].map(box),
    };
}"""

Box = dict[str, Any]


def overlap(a: Box, b: Box, slack: float = 1.0) -> bool:
    """Whether two boxes share more than ``slack`` pixels each way (a glyph box's edge may touch the next)."""
    across: float = min(a["right"], b["right"]) - max(a["left"], b["left"])
    down: float = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return across > slack and down > slack


@pytest.fixture(scope="module")
def report_plots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("layout")
    for name, args in RUNS.items():
        done = subprocess.run(
            [sys.executable, "-m", "ratscrew", *args, "--report", str(root / name)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    return {name: root / name for name in RUNS}


def problems(measured: dict[str, Any]) -> list[str]:
    found = []
    texts, legend_texts, legends, data = (measured[k] for k in ("texts", "legendTexts", "legend", "data"))
    every = texts + legend_texts
    for a, b in itertools.combinations(every, 2):
        if overlap(a, b):
            found.append(f"labels {a['text']!r} and {b['text']!r} overlap")
    edge = measured["svg"]
    for t in every:
        inside = t["left"] >= edge["left"] - 0.5 and t["right"] <= edge["right"] + 0.5
        if not inside or t["top"] < edge["top"] - 0.5 or t["bottom"] > edge["bottom"] + 0.5:
            found.append(f"label {t['text']!r} runs off the plot")
    for legend in legends:
        found += [f"the legend covers {d['id']}" for d in data if overlap(legend, d)]
        found += [f"the legend covers the label {t['text']!r}" for t in texts if overlap(legend, t)]
    for t in texts:
        found += [f"the label {t['text']!r} lies on {d['id']}" for d in data if overlap(t, d)]
    return found


@pytest.mark.parametrize("name", list(RUNS))
def test_no_label_overlaps_another_or_the_data(browser: Browser, report_plots: dict[str, Path], name: str) -> None:
    folder = report_plots[name]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto((folder / "index.html").as_uri())
        sources = page.locator("figure img").evaluate_all("images => images.map((i) => i.src)")
        assert sources, f"the {name} report shows no plots"
        for source in sources:
            page.goto(source)
            measured = page.evaluate(MEASURE)
            assert len(measured["texts"]) >= 5, f"{source}: its labels are not text (svg.fonttype)"
            assert measured["data"], f"{source}: no bars or data found by their ids"
            if name.startswith("grid") and source.endswith(("wins.svg", "lengths.svg")):
                assert measured["legend"], f"{source}: a grid's plot names its cells or seats in a legend"
            found = problems(measured)
            assert not found, f"{source}: " + "; ".join(found[:8])
    finally:
        context.close()
