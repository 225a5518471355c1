"""``ratscrew bmn --search``: the record hunt on the command line (the hunt itself is lab/bmn_search.py)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ratscrew.bmn import parse_bmn_hands
from ratscrew.cli.common import place_options, print_json
from ratscrew.errors import MalformedInput
from ratscrew.lab.bmn_search import Find, HuntRun, SearchState, evaluate, known_family, search
from ratscrew.lab.bmn_state import SearchStateError, load_state, save_state


def run_search(options: dict[str, object], as_json: bool) -> HuntRun:
    """Hunt as the options say and print every new best."""
    workers, scheduler = place_options(options)
    seconds, batches = options.get("seconds"), options.get("batches")
    assert seconds is None or isinstance(seconds, float)
    assert batches is None or isinstance(batches, int)
    start_from = _from_deal(options.get("from"))
    state, path = _state(options)
    start = time.monotonic()
    deadline = start + seconds if seconds is not None else None

    def time_left() -> bool:
        return deadline is None or time.monotonic() < deadline

    if state.best is not None and not as_json:
        click.echo(f"resuming at batch {state.next_batch}; best so far: {state.best.line()}")
    err = Console(stderr=True)
    bar = _progress(err) if err.is_terminal else None
    first_batch, start_best = state.next_batch, state.best
    total: float | None = seconds if seconds is not None else (max(0, batches - first_batch) if batches else None)
    task = bar.add_task("", total=total) if bar is not None else None

    def after_batch(current: SearchState) -> None:
        if path is not None:
            save_state(current, path)
        if bar is not None and task is not None:
            done = time.monotonic() - start if seconds is not None else current.next_batch - first_batch
            best = f", best {current.best.cards} cards" if current.best is not None else ""
            bar.update(task, completed=done, description=f"batch {current.next_batch}{best}")

    progress: list[tuple[float, Find]] = []

    def finds() -> Iterator[Find]:
        if start_from is not None:
            yield from _start_from(state, start_from, as_json)
            after_batch(state)
        yield from search(
            state, batches=batches, time_left=time_left, workers=workers, scheduler=scheduler, on_batch=after_batch
        )

    try:
        if bar is not None:
            bar.start()
        for find in finds():
            progress.append((round(time.monotonic() - start, 2), find))
            _report(find, as_json)
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        where = f"; carry on with --state {path}" if path is not None else ""
        click.echo(f"ratscrew: stopped at batch {state.next_batch}{where}", err=True)
        sys.exit(130)
    finally:
        if bar is not None:
            bar.stop()
    if not as_json:
        click.echo(summary(state))
    stopped_by_time = seconds is not None and (batches is None or state.next_batch < batches)
    elapsed = round(time.monotonic() - start, 2)
    return HuntRun(state, progress, elapsed, first_batch, start_best, stopped_by_time, start_from)


def summary(state: SearchState) -> str:
    best = state.best.line() if state.best is not None else "none"
    cycles = len(state.cycles)
    endless = "no endless deal met" if not cycles else f"{cycles} distinct cycle{'s' if cycles > 1 else ''} met"
    return (
        f"{state.next_batch} batch{'es' if state.next_batch != 1 else ''}, {state.played:,} deals dealt, "
        f"{state.searched:,} positions searched "
        f"backwards; {endless}; best: {best}"
    )


def _start_from(state: SearchState, find: Find, as_json: bool) -> Iterator[Find]:
    finds, cycles, searched = known_family(find)
    state.searched += searched
    better = state.take(finds, cycles)
    if better is not None:
        yield better
    for cycle in cycles if not as_json else []:
        click.echo(f"its cycle: {cycle.tricks} tricks, {cycle.cards} cards; {cycle.deals} deals found that reach it")


def _from_deal(raw: object) -> Find | None:
    if raw is None:
        return None
    assert isinstance(raw, list)
    hands = parse_bmn_hands(raw)
    if len(hands) != 2 or len(hands[0]) != 26:
        raise MalformedInput("--from needs a two-hand deal of 26 cards a hand, e.g. --from HAND HAND")
    return evaluate((hands[0], hands[1]))


def _progress(err: Console) -> Progress:
    columns = (TextColumn("hunting"), BarColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
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
        save_state(state, path)
        return state, path
    state = load_state(path)
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
