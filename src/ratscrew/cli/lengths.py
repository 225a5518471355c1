"""``simulate --histogram`` on a terminal: the game-length distribution as a table of ranges of cards turned,
one column per cell (with ``--json`` the exact counts go into the JSON instead)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table

BINS = 12  # ranges, about
BAR = 30  # characters of the longest bar


def nice_width(span: int, bins: int = BINS) -> int:
    """A round width (1, 2 or 5 times a power of ten) that cuts ``span`` into about ``bins`` ranges.

    >>> nice_width(1400), nice_width(7), nice_width(0)
    (200, 1, 1)
    """
    raw = max(1.0, span / bins)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(step * power for step in (1, 2, 5, 10) if step * power >= raw))


def ranges(cells: Sequence[Sequence[Sequence[int]]]) -> tuple[int, int, list[list[int]]]:
    """The first range's start, the width, and each cell's games per range, over the [cards, games] pairs."""
    values = [int(pair[0]) for pairs in cells for pair in pairs]
    low, high = min(values), max(values)
    width = nice_width(high - low + 1)
    start = low // width * width
    count = (high - start) // width + 1
    counts = [[0] * count for _ in cells]
    for column, pairs in zip(counts, cells, strict=True):
        for cards, games in pairs:
            column[(int(cards) - start) // width] += int(games)
    return start, width, counts


def print_lengths(cells: Sequence[dict[str, object]], printer: Callable[[Table], None] | None = None) -> None:
    """The distribution of each cell's game lengths; a plain run gets a bar beside its counts (printed by
    ``printer``, by default on a console of its own)."""
    pairs = [_pairs(cell) for cell in cells]
    if not any(pairs):
        return
    start, width, counts = ranges(pairs)
    table = Table(title="Game length: games per range of cards turned")
    table.add_column("cards turned", justify="right", no_wrap=True)
    for cell in cells:
        chosen = cell.get("set")
        name = ", ".join(f"{k}={v}" for k, v in chosen.items()) if isinstance(chosen, dict) and chosen else "games"
        table.add_column(name, justify="right")
    single = len(cells) == 1
    if single:
        table.add_column("", no_wrap=True)
    most = max(max(column) for column in counts) or 1
    for i in range(len(counts[0])):
        low = start + i * width
        row = [f"{low}-{low + width - 1}" if width > 1 else str(low), *(f"{column[i]:,}" for column in counts)]
        if single:
            row.append("█" * round(BAR * counts[0][i] / most))
        table.add_row(*row)
    (printer or Console().print)(table)


def _pairs(cell: dict[str, object]) -> list[list[int]]:
    histogram = cell.get("histogram")
    pairs = histogram.get("cards") if isinstance(histogram, dict) else None
    return [[int(c), int(n)] for c, n in pairs] if isinstance(pairs, list) else []
