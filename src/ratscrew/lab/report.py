"""Report folders: a lab run's exact command, version, seed, figures and plots, in one page that opens from disk.

``--report DIR`` on ``ratscrew simulate`` and ``ratscrew bmn`` writes, into DIR:

- ``report.json``: everything below, and ``output``, the JSON lines the command prints with ``--json``;
- ``command.txt``: the command, to paste into a shell;
- one SVG per plot, drawn by lab/report_plots.py (matplotlib);
- ``index.html``: the page, with its plots and a copy of the figures; it loads nothing else, from the
  folder or the network.

``ratscrew lab report DIR`` draws the plots and the page again from ``report.json``, and ``--check`` reruns
the recorded command and says whether it prints the same figures (the lab's runs are seeded, so it should;
timings are left out of the comparison).
"""

from __future__ import annotations

import html
import json
import os
import shlex
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ratscrew import __version__
from ratscrew.bmn import RandomTally
from ratscrew.errors import MalformedInput
from ratscrew.lab.bmn_search import Find, SearchState
from ratscrew.lab.bmn_state import state_doc

REPORT_FORMAT = "ratscrew-report/1"
PLOT_HINT = "pip install 'ratscrew[plot]'"
VOLATILE = frozenset({"seconds", "games_per_s"})  # timings: they differ from run to run


class ReportError(MalformedInput):
    """A report folder that cannot be written or read."""


@dataclass
class Report:
    kind: str  # "simulate", "bmn-random" or "bmn-search"
    title: str
    command: list[str]
    output: list[dict[str, object]]  # what the command prints with --json, one object a line
    figures: dict[str, object]  # what the plots are drawn from
    version: str = __version__
    created: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M:%S %z"))
    directory: str = field(default_factory=os.getcwd)  # where it ran: the command's relative paths start here
    format: str = REPORT_FORMAT


def check_report_folder(folder: Path) -> None:
    """Before a run: the folder can be written (new, empty, or an earlier report) and plots can be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ReportError(f"--report needs matplotlib to draw its plots: {PLOT_HINT}") from None
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"--report {str(folder)!r} is a file: expected a folder (new, empty or an earlier report)")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / "report.json").is_file():
        raise ReportError(
            f"--report {str(folder)!r} holds other files: expected a new or empty folder, or an earlier report"
        )
    if not folder.exists() and not folder.parent.is_dir():
        raise ReportError(f"cannot write the report {str(folder)!r}: no folder {str(folder.parent)!r}")


def write_report(folder: Path, report: Report) -> None:
    try:
        folder.mkdir(exist_ok=True)
        (folder / "report.json").write_text(json.dumps(asdict(report), indent=1) + "\n", encoding="utf-8")
        (folder / "command.txt").write_text(shlex.join(report.command) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot write the report {str(folder)!r}: {exc.strerror}") from None
    draw(folder, report)
    print(f"report written to {folder / 'index.html'}", file=sys.stderr)


def draw(folder: Path, report: Report) -> None:
    """The plots and the page, from the report's figures."""
    from ratscrew.lab.report_plots import PLOTS

    try:
        plots = PLOTS[report.kind](report.figures, folder)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ReportError(
            f"the figures in {str(folder / 'report.json')!r} are not those of a {report.kind} report "
            f"({type(exc).__name__}: {exc}): expected a report.json written by --report"
        ) from None
    except OSError as exc:
        raise ReportError(f"cannot write the plots in {str(folder)!r}: {exc.strerror}") from None
    page = _page(report, plots)
    try:
        (folder / "index.html").write_text(page, encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot write the report page in {str(folder)!r}: {exc.strerror}") from None


def read_report(folder: Path) -> Report:
    path = folder / "report.json"
    expected = f'expected a folder written by --report, with a "{REPORT_FORMAT}" report.json'
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise ReportError(f"{str(folder)!r} has no readable report.json: {expected}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ReportError(f"{str(path)!r} is not JSON: {expected}") from None
    if not isinstance(doc, dict) or doc.get("format") != REPORT_FORMAT:
        raise ReportError(f"{str(path)!r} is not a report: {expected}")
    from ratscrew.lab.report_plots import PLOTS

    fields = ("kind", "title", "command", "output", "figures", "version", "created", "directory")
    kinds = (str, str, list, list, dict, str, str, str)
    if not all(isinstance(doc.get(k), t) for k, t in zip(fields, kinds, strict=True)) or doc["kind"] not in PLOTS:
        raise ReportError(f"{str(path)!r} lacks a field or has one of the wrong kind: {expected}")
    if not all(isinstance(w, str) for w in doc["command"]) or not all(isinstance(o, dict) for o in doc["output"]):
        raise ReportError(f"{str(path)!r} has a command or output of the wrong kind: {expected}")
    return Report(**{k: doc[k] for k in fields})


def rerun(report: Report) -> list[str]:
    """Run the recorded command again (with --json, without the files it wrote) and list how its output differs."""
    args = _without_report(report.command[1:]) if report.command[:1] == ["ratscrew"] else None
    if args is None:
        raise ReportError(f"the recorded command {shlex.join(report.command)!r} is not a ratscrew command")
    if "--json" not in args:
        args.append("--json")
    where = report.directory if Path(report.directory).is_dir() else None
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", *args], capture_output=True, text=True, check=False, cwd=where
    )
    if done.returncode != 0:
        return [f"the command failed: {done.stderr.strip()}"]
    again = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    differences = []
    if len(again) != len(report.output):
        differences.append(f"it printed {len(again)} lines of figures, the report holds {len(report.output)}")
    for number, (old, new) in enumerate(zip(report.output, again, strict=False), 1):
        for key in sorted((set(old) | set(new)) - VOLATILE):
            if old.get(key) != new.get(key):
                differences.append(f"line {number}, {key}: {old.get(key)!r} then, {new.get(key)!r} now")
    return differences


# Options whose files a rerun must leave alone: the report itself, a hunt's state (a rerun would carry on
# from it instead of starting again), and other outputs.
FILE_OPTIONS = ("--report", "--state", "--csv", "--plot")


def _without_report(args: list[str]) -> list[str]:
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
        elif word in FILE_OPTIONS:
            skip = True
        elif not word.startswith(tuple(f"{o}=" for o in FILE_OPTIONS)):
            out.append(word)
    return out


# ---------------------------------------------------------------------- what each command records


def bmn_random_report(command: list[str], doc: dict[str, object], tally: RandomTally) -> Report:
    lengths = sorted(tally.lengths.items())
    figures = {**doc, "histogram": {"cards": [list(pair) for pair in lengths]}, "wins": tally.wins}
    title = f"Beggar-my-neighbour: {tally.games:,} random deals, {tally.players} hands"
    return Report("bmn-random", title, command, [doc], figures)


def bmn_search_report(command: list[str], state: SearchState, progress: list[tuple[float, Find]]) -> Report:
    output = [find.as_json() for _, find in progress]
    figures: dict[str, object] = {
        "state": state_doc(state),
        "progress": [{"seconds": s, **find.as_json()} for s, find in progress],
        "best": state.best.as_json() if state.best is not None else None,
    }
    title = f"Beggar-my-neighbour record hunt: seed {state.seed}, {state.next_batch} batches"
    return Report("bmn-search", title, command, output, figures)


def simulate_report(
    command: list[str], cells: list[dict[str, object]], shown: list[dict[str, object]], title: str
) -> Report:
    """``cells`` with their histograms (the plots need them), ``shown`` as the command printed them."""
    return Report("simulate", title, command, shown, {"cells": cells})


# ---------------------------------------------------------------------- the page


_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1d2b24; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
pre { background: #f2f5f3; padding: .7rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; } td, th { border: 1px solid #c9d3ce; padding: .25rem .6rem; text-align: left; }
figure { margin: 1rem 0; } img { max-width: 100%; height: auto; }
"""


def _page(report: Report, plots: list[tuple[str, str]]) -> str:
    e = html.escape
    rows = "".join(
        f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>"
        for k, v in (
            ("version", f"ratscrew {report.version}"),
            ("written", report.created),
            ("in the folder", report.directory),
            ("kind", report.kind),
        )
    )
    figures = "".join(
        f'<figure><img src="{e(name)}" alt="{e(caption)}"><figcaption>{e(caption)}</figcaption></figure>'
        for name, caption in plots
    )
    output = "\n".join(json.dumps(line, ensure_ascii=False) for line in report.output)
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{e(report.title)}</title>"
        f"<style>{_STYLE}</style></head><body>\n<h1>{e(report.title)}</h1>\n"
        f"<h2>Command</h2><pre id='command'>{e(shlex.join(report.command))}</pre>\n"
        "<p>Rerun it to get the same figures (timings aside), or check that it does with "
        "<code>ratscrew lab report FOLDER --check</code>.</p>\n"
        f"<table>{rows}{_extra_rows(report)}</table>\n<h2>Plots</h2>\n{figures}\n"
        f"<h2>Figures</h2><p>As the command prints them with <code>--json</code> "
        f"(all of them are in <code>report.json</code>):</p><pre id='figures'>{e(output)}</pre>\n"
        "</body></html>\n"
    )


def _extra_rows(report: Report) -> str:
    e = html.escape
    rows = []
    if report.kind == "bmn-random":
        deal = report.figures.get("longest_deal")
        if isinstance(deal, list):
            rows.append(("longest deal", f"ratscrew bmn {' '.join(deal)}"))
    elif report.kind == "bmn-search":
        best, state = report.figures.get("best"), report.figures.get("state")
        if isinstance(best, dict):
            rows.append(("best deal", f"ratscrew bmn {' '.join(best['deal'])}  ({best['cards']} cards)"))
        if isinstance(state, dict):
            rows.append(("seed", str(state.get("seed"))))
            cycles = state.get("cycles") or []
            rows.append(("distinct cycles met", str(len(cycles) if isinstance(cycles, list) else 0)))
    return "".join(f"<tr><th>{e(k)}</th><td><code>{e(v)}</code></td></tr>" for k, v in rows)
