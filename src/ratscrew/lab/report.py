"""Report folders: a lab run's exact command, version, commit, seed, figures and plots, in one page that opens
from disk.

``--report DIR`` on ``ratscrew simulate`` and ``ratscrew bmn`` writes, into DIR:

- ``report.json``: everything below, and ``output``, the JSON lines the command prints with ``--json``;
- ``command.txt``: the command, to paste into a shell;
- one SVG per plot, drawn by lab/report_plots.py (matplotlib);
- ``index.html``: the page (lab/report_page.py), with the figures as tables (lab/report_tables.py), its plots,
  and what reproduces the figures; it loads nothing else, from the folder or the network.

The folder is checked before the run: it must be new or empty (or hold an earlier report and ``--force`` be
given, which removes that report's files, its plots included, before the new one is written), and it must be
possible to create it. ``ratscrew lab report DIR`` draws the plots and the page again from ``report.json``, and
``--check`` runs the command that reproduces the figures and says whether it prints the same ones (timings are
left out of the comparison).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ratscrew import __version__
from ratscrew.bmn import to_notation
from ratscrew.errors import MalformedInput
from ratscrew.lab.bmn_state import state_doc

if TYPE_CHECKING:
    from ratscrew.lab.bmn_random import RandomRun
    from ratscrew.lab.bmn_search import HuntRun

REPORT_FORMAT = "ratscrew-report/1"
PLOT_HINT = "pip install 'ratscrew[plot]'"
VOLATILE = frozenset({"seconds", "games_per_s", "budget_seconds"})  # timings: they differ from run to run
REPORT_FILES = ("report.json", "command.txt", "index.html")  # and every .svg: the plots


class ReportError(MalformedInput):
    """A report folder that cannot be written or read."""


def source_commit() -> tuple[str, bool | None]:
    """The git commit the running code was built from (ratscrew.build: the checkout's HEAD, or the one written
    into an installed package), and whether it had uncommitted changes; ("unknown", None) when not known."""
    from ratscrew import build

    commit = build.commit()
    if commit == build.UNKNOWN:
        return commit, None
    return commit.removesuffix("-dirty"), commit.endswith("-dirty")


@dataclass
class Report:
    kind: str  # "simulate", "bmn-random" or "bmn-search"
    title: str
    command: list[str]
    output: list[dict[str, object]]  # what the command prints with --json, one object a line
    figures: dict[str, object]  # what the tables and plots are drawn from
    seed: int | None = None
    rerun_note: str = ""  # how (and whether) the figures can be had again, for the page
    reproduce: list[str] = field(default_factory=list)  # the command that does, when it is not ``command``
    compare: str = "all"  # what --check compares: every line printed ("all"), or the best deal found ("best")
    commit: str = "unknown"  # the git commit of the code that ran (ratscrew.build)
    dirty: bool | None = None  # whether that code had uncommitted changes (None: not known)
    version: str = __version__
    created: str = field(default_factory=lambda: time.strftime("%Y-%m-%d %H:%M:%S %z"))
    directory: str = field(default_factory=os.getcwd)  # where it ran: the command's relative paths start here
    format: str = REPORT_FORMAT


def _stamped(report: Report) -> Report:
    """A new report, with the commit of the code that made it."""
    report.commit, report.dirty = source_commit()
    return report


# ---------------------------------------------------------------------- the folder


def check_plotting() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ReportError(f"--report needs matplotlib to draw its plots: {PLOT_HINT}") from None


def check_report_folder(folder: Path, *, force: bool = False) -> None:
    """Before a run: plots can be drawn, and the folder can take the report: it is new (and can be created),
    or empty, or holds an earlier report and ``force`` says to replace it."""
    check_plotting()
    name = repr(str(folder))
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"--report {name} is a file: expected a folder (new or empty)")
    if folder.is_dir():
        if any(folder.iterdir()):
            if not (folder / "report.json").is_file():
                raise ReportError(
                    f"--report {name} holds files that are not a report: expected a new or empty folder "
                    "(--force only replaces an earlier report)"
                )
            if not force:
                raise ReportError(
                    f"--report {name} already holds a report: give a new or empty folder, or --force to replace it"
                )
        _probe(folder)
        return
    if not folder.parent.is_dir():
        raise ReportError(f"cannot write the report {name}: no folder {str(folder.parent)!r}")
    try:
        folder.mkdir()  # made and taken away again: that it can be made is what the run needs to know
        folder.rmdir()
    except OSError as exc:
        raise ReportError(f"cannot write the report {name}: {exc.strerror or exc}") from None


def _probe(folder: Path) -> None:
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise ReportError(f"cannot write the report {str(folder)!r}: {exc.strerror or exc}") from None


def write_report(folder: Path, report: Report, *, force: bool = False) -> None:
    try:
        folder.mkdir(exist_ok=True)
        if force:
            _clear(folder)
        (folder / "report.json").write_text(json.dumps(asdict(report), indent=1) + "\n", encoding="utf-8")
        (folder / "command.txt").write_text(shlex.join(report.command) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot write the report {str(folder)!r}: {exc.strerror}") from None
    draw(folder, report)
    print(f"report written to {folder / 'index.html'}", file=sys.stderr)


def _clear(folder: Path, keep: frozenset[str] = frozenset()) -> None:
    """Remove a report's files (its plots are every .svg) but those in ``keep``, so nothing stale stays."""
    for path in folder.iterdir():
        if path.name in keep or not path.is_file():
            continue
        if path.name in REPORT_FILES or path.suffix == ".svg":
            path.unlink()


def draw(folder: Path, report: Report) -> None:
    """The plots and the page, from the report's figures; plots an earlier drawing left are removed."""
    from ratscrew.lab.report_page import page
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
    try:
        _clear(folder, keep=frozenset({"report.json", "command.txt", *(name for name, _ in plots)}))
        (folder / "index.html").write_text(page(report, plots), encoding="utf-8")
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
    # Fields added since the first reports: an older report.json reads without them.
    optional: dict[str, type | tuple[type, ...]] = {
        "seed": (int, type(None)),
        "rerun_note": str,
        "reproduce": list,
        "compare": str,
        "commit": str,
    }
    extra = {k: doc[k] for k, kind in optional.items() if k in doc and isinstance(doc[k], kind)}
    if not all(isinstance(w, str) for w in extra.get("reproduce", [])) or extra.get("compare", "all") not in (
        "all",
        "best",
    ):
        raise ReportError(f"{str(path)!r} has a reproducing command of the wrong kind: {expected}")
    dirty = doc.get("dirty")
    report = Report(**{k: doc[k] for k in fields}, **extra, dirty=dirty if isinstance(dirty, bool) else None)
    return report


def rerun_command(report: Report) -> tuple[list[str], str | None]:
    """The command that reproduces the figures as it is run again: with --json, without the files it wrote
    (the report itself among them), and the folder it is run in (where it first ran, if that is still there)."""
    recorded = report.reproduce or report.command
    args = _without_files(recorded[1:]) if recorded[:1] == ["ratscrew"] else None
    if args is None:
        raise ReportError(f"the recorded command {shlex.join(recorded)!r} is not a ratscrew command")
    if "--json" not in args:
        args.append("--json")
    return ["ratscrew", *args], report.directory if Path(report.directory).is_dir() else None


def shown_rerun(report: Report) -> str:
    """The rerun as a shell line that does what ``rerun`` does: ``cd`` first when it runs in another folder."""
    command, where = rerun_command(report)
    if where is None or Path(where).resolve() == Path.cwd().resolve():
        return shlex.join(command)
    return f"cd {shlex.quote(where)} && {shlex.join(command)}"


def rerun(report: Report) -> list[str]:
    """Run the command that reproduces the figures (``rerun_command``) and list how its output differs from the
    report's."""
    command, where = rerun_command(report)
    done = subprocess.run(
        [sys.executable, "-m", "ratscrew", *command[1:]], capture_output=True, text=True, check=False, cwd=where
    )
    if done.returncode != 0:
        return [f"the command failed: {done.stderr.strip()}"]
    again = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if report.compare == "best":
        best, last = report.figures.get("best"), again[-1] if again else None
        return [] if best == last else [f"the best deal: {best!r} then, {last!r} now"]
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
FILE_OPTIONS = ("--report", "--state", "--csv", "--plot", "--games-out")
FLAG_OPTIONS = ("--force",)


def _without_files(args: list[str]) -> list[str]:
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
        elif word in FILE_OPTIONS:
            skip = True
        elif word not in FLAG_OPTIONS and not word.startswith(tuple(f"{o}=" for o in FILE_OPTIONS)):
            out.append(word)
    return out


# ---------------------------------------------------------------------- what each command records

SEEDED = "The {what} are seeded (seed {seed}): the command run again gives the same figures, timings aside, "


def simulate_report(
    command: list[str], cells: list[dict[str, object]], shown: list[dict[str, object]], title: str, seed: int
) -> Report:
    """``cells`` with their histograms (the plots need them), ``shown`` as the command printed them."""
    note = SEEDED.format(what="games", seed=seed) + "on any number of workers or on a Dask cluster."
    return _stamped(Report("simulate", title, command, shown, {"cells": cells}, seed=seed, rerun_note=note))


def bmn_random_report(command: list[str], run: RandomRun) -> Report:
    tally, printed = run.tally, run.figures()
    figures = {**printed, "histogram": {"cards": [list(pair) for pair in sorted(tally.lengths.items())]}}
    figures["wins"] = tally.wins
    title = f"Beggar-my-neighbour: {tally.games:,} random deals, {tally.players} hands"
    report = _stamped(Report("bmn-random", title, command, [printed], figures, seed=run.seed))
    if run.budget is None:
        report.rerun_note = SEEDED.format(what="deals", seed=run.seed) + "whatever the workers or the cluster."
    else:
        report.reproduce = run.reproduce()
        report.rerun_note = (
            f"This run was stopped by its time budget ({run.budget:g} s) after {tally.games:,} deals. How many deals "
            "a budget buys depends on the machine, so the command run again plays a different number and gives "
            f"other figures. The deals played are the first {tally.games:,} of seed {run.seed}'s sequence: the "
            "command below plays exactly them again and gives these figures, timings aside."
        )
    return report


def bmn_search_report(command: list[str], hunt: HuntRun) -> Report:
    state = hunt.state
    output = [find.as_json() for _, find in hunt.progress]
    figures: dict[str, object] = {
        "state": state_doc(state),
        "progress": [{"seconds": s, "batch": find.batch, **find.as_json()} for s, find in hunt.progress],
        "best": state.best.as_json() if state.best is not None else None,
        "seconds": hunt.seconds,
        "first_batch": hunt.first_batch,
        "start_best": hunt.start_best.as_json() if hunt.start_best is not None else None,
        "stopped_by_time": hunt.stopped_by_time,
    }
    batches = state.next_batch
    title = f"Beggar-my-neighbour record hunt: seed {state.seed}, {batches} batches"
    report = _stamped(Report("bmn-search", title, command, output, figures, seed=state.seed))
    start = ["--from", *(to_notation(h) for h in hunt.start_from.deal)] if hunt.start_from is not None else []
    fresh = ["ratscrew", "bmn", "--search", "--seed", str(state.seed), "--batches", str(batches), *start]
    dealt = f"{batches:,} batch{'es' if batches != 1 else ''} ({state.played:,} deals dealt)"
    if hunt.first_batch > 0:
        report.reproduce, report.compare = fresh, "best"
        report.rerun_note = (
            f"This hunt carried on from its state file at batch {hunt.first_batch:,} and stopped after {dealt}; "
            "the command run again would carry on from where it stopped. Every batch is drawn from the seed and "
            "its number alone, so the command below, started afresh, runs the same batches and reaches the same "
            "best deal (printing, besides, the bests of the batches before this run)."
        )
    elif hunt.stopped_by_time:
        report.reproduce = fresh
        report.rerun_note = (
            f"This hunt was stopped by its time budget after {dealt}. How far a budget gets depends on the machine, "
            "so the command run again gets through a different number of batches. Every batch is drawn from the "
            "seed and its number alone: the command below runs exactly these batches again and prints the same "
            "bests in the same order (at other times)."
        )
    else:
        report.rerun_note = (
            f"The hunt is seeded (seed {state.seed}) and ran {dealt}: the command run again gives the same figures, "
            "the same bests in the same order (found at other times), whatever the workers or the cluster."
        )
    return report
