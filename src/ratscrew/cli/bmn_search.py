"""``ratscrew bmn --search``: the record hunt on the command line (the search itself is lab/bmn_search.py)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ratscrew.cli.common import check_workers, print_json
from ratscrew.lab.bmn_search import Find, SearchState, SearchStateError, search


def place_options(options: dict[str, object]) -> tuple[int, str | None]:
    """Where to play: (local processes, Dask scheduler address or None), from --workers and --scheduler."""
    workers, scheduler = options.get("workers"), options.get("scheduler")
    assert workers is None or isinstance(workers, int)
    assert scheduler is None or isinstance(scheduler, str)
    check_workers(workers, scheduler)
    return workers or 1, scheduler


def run_search(options: dict[str, object], as_json: bool) -> None:
    workers, scheduler = place_options(options)
    seconds = options.get("seconds")
    restarts = options.get("restarts")
    assert seconds is None or isinstance(seconds, float)
    assert restarts is None or isinstance(restarts, int)
    state, path = _state(options)
    deadline = time.monotonic() + seconds if seconds is not None else None

    def time_left() -> bool:
        return deadline is None or time.monotonic() < deadline

    if state.best is not None and not as_json:
        click.echo(f"resuming at restart {state.next_restart}; best so far: {state.best.line()}")
    err = Console(stderr=True)
    bar = _progress(err) if err.is_terminal else None
    first_restart, start = state.next_restart, time.monotonic()
    if seconds is not None:
        total: float | None = seconds
    else:
        total = max(0, restarts - first_restart) if restarts is not None else None
    task = bar.add_task("", total=total) if bar is not None else None

    def after_restart(current: SearchState) -> None:
        if path is not None:
            current.save(path)
        if bar is not None and task is not None:
            done = time.monotonic() - start if seconds is not None else current.next_restart - first_restart
            best = f", best {current.best.cards} cards" if current.best is not None else ""
            bar.update(task, completed=done, description=f"restart {current.next_restart}{best}")

    found = search(
        state, restarts=restarts, time_left=time_left, workers=workers, scheduler=scheduler, on_restart=after_restart
    )
    try:
        if bar is not None:
            bar.start()
        for find in found:
            _report(find, as_json)
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        where = f"; carry on with --state {path}" if path is not None else ""
        click.echo(f"ratscrew: stopped at restart {state.next_restart}{where}", err=True)
        sys.exit(130)
    finally:
        if bar is not None:
            bar.stop()
    if not as_json:
        best = state.best.line() if state.best is not None else "none"
        click.echo(f"{state.next_restart} restarts, {state.played} deals played; best: {best}")


def _progress(err: Console) -> Progress:
    columns = (TextColumn("searching"), BarColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    # Finds go to stdout as they come. When stdout is the terminal too, they are printed above the bar so
    # it does not draw over them; when stdout is a pipe or a file, it is left alone.
    on_screen = sys.stdout.isatty()
    return Progress(*columns, console=err, transient=True, redirect_stdout=on_screen, redirect_stderr=False)


def _state(options: dict[str, object]) -> tuple[SearchState, Path | None]:
    seed = options.get("seed")
    assert seed is None or isinstance(seed, int)
    raw = options.get("state")
    if raw is None:
        return SearchState(seed if seed is not None else 1), None
    path = Path(str(raw))
    if not path.exists():
        if not path.parent.is_dir():
            raise SearchStateError(f"cannot write the search state {str(path)!r}: no folder {str(path.parent)!r}")
        state = SearchState(seed if seed is not None else 1)
        state.save(path)
        return state, path
    state = SearchState.load(path)
    if seed is not None and seed != state.seed:
        raise SearchStateError(
            f"the search state {str(path)!r} was started with --seed {state.seed}, not {seed}: "
            "leave --seed out to carry on, or give another --state file"
        )
    return state, path


def _report(find: Find, as_json: bool) -> None:
    if as_json:
        print_json(find.as_json())
    else:
        click.echo(f"new best: {find.line()}")
    sys.stdout.flush()
