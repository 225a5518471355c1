"""The lab from Python: what ``ratscrew simulate`` and ``ratscrew bmn --random / --search`` do, returning
result objects a notebook can work with.

>>> from ratscrew.lab import api
>>> study = api.simulate(games=20, bots="hard,medium,easy", seed=4, workers=1)
>>> study.figures[0]["games"], len(study.table()["cards"])
(20, 20)

Every function takes the same seeds as the commands and gives the same figures for them (``figures`` is what
``--json`` prints), whatever ``workers`` (local processes, default one per core) or ``scheduler`` (a Dask
cluster's address). The result objects keep one row per game (or deal) beside the totals: ``table()`` gives
them as columns of plain values, ``to_pandas()`` and ``to_arrow()`` as pandas and Arrow tables (those two need
``pip install 'ratscrew[lab]'``; nothing else here does). docs/lab.md walks through a study.

Values are typed: a rules key's value as the rules hold it (``{"slapping.penalty_cards": 2}``), a number of
seats as a number. A line-up is a string with seats separated by commas (``"hard,medium,easy"``) or a list of
levels; in a ``vary`` over ``bots`` each value is one line-up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from ratscrew.bmn import RANDOM_BLOCK, parse_bmn_hands, play_random
from ratscrew.errors import MalformedInput
from ratscrew.executor import open_runner
from ratscrew.lab.bmn_search import Find, HuntSettings, SearchState, evaluate, known_family, search
from ratscrew.lab.deal_results import DealRow, Deals, Hunt, deal_rows
from ratscrew.lab.results import Study
from ratscrew.lab.sweep import check_vary, design_cells, run_design
from ratscrew.rules import Rules

__all__ = ["Deals", "Hunt", "HuntSettings", "Study", "hunt", "random_deals", "simulate", "sweep"]

Lineup = str | Sequence[str] | None


def _text(value: object) -> str:
    """A typed value as the command line writes it (true/false for yes/no, a line-up's seats joined by +)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "+".join(str(v) for v in value)
    return str(value)


def _lineup(bots: Lineup) -> str | None:
    if bots is None or isinstance(bots, str):
        return bots
    return ",".join(bots)


def _rules_args(rules: str | Rules | None, sets: Mapping[str, object] | None) -> tuple[str | None, list[str]]:
    """A preset name or rules file and ``--set`` texts; a Rules value becomes its preset and its changes."""
    texts = [f"{k}={_text(v)}" for k, v in (sets or {}).items()]
    if isinstance(rules, Rules):
        return rules.preset, [f"{k}={_text(v)}" for k, v in rules.changes_from_preset().items()] + texts
    return rules, texts


def sweep(
    vary: Mapping[str, Sequence[object]],
    *,
    rules: str | Rules | None = None,
    sets: Mapping[str, object] | None = None,
    bots: Lineup = None,
    players: int | None = None,
    games: int = 1000,
    seed: int = 1,
    rotate_seats: bool = False,
    replicates: int = 1,
    rows: bool = True,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Study:
    """Play every combination of the ``vary`` values (a rules key, ``rules`` (preset names), ``bots`` or
    ``players`` to its values; the first key's values change slowest) on the same deals, as ``ratscrew simulate
    --vary`` does.

    ``rotate_seats`` plays each deal in every rotation of the seats; ``replicates`` repeats the run on seeds
    derived from ``seed`` (``Study.seeds``); ``rows`` keeps one row per game (``Study.table()``).
    """
    name, set_texts = _rules_args(rules, sets)
    texts = [(key, tuple(_text(v) for v in values)) for key, values in vary.items()]
    given = [k for k, v in (("rules", rules), ("bots", bots), ("players", players)) if v is not None]
    parsed = check_vary(texts, set_texts, given=given)
    cells = design_cells(name, set_texts, parsed, _lineup(bots), players)
    run = run_design(
        cells,
        games,
        seed,
        rotate=rotate_seats,
        replicates=replicates,
        keep_rows=rows,
        workers=workers,
        scheduler=scheduler,
        progress=progress,
    )
    return Study(run, tuple(cells) if parsed else None)


def simulate(
    *,
    rules: str | Rules | None = None,
    sets: Mapping[str, object] | None = None,
    bots: Lineup = None,
    players: int | None = None,
    games: int = 1000,
    seed: int = 1,
    rotate_seats: bool = False,
    replicates: int = 1,
    rows: bool = True,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Study:
    """Play ``games`` games under one rule set, as ``ratscrew simulate`` does (a study of one cell)."""
    return sweep(
        {},
        rules=rules,
        sets=sets,
        bots=bots,
        players=players,
        games=games,
        seed=seed,
        rotate_seats=rotate_seats,
        replicates=replicates,
        rows=rows,
        workers=workers,
        scheduler=scheduler,
        progress=progress,
    )


def random_deals(
    deals: int,
    *,
    seed: int = 1,
    players: int = 2,
    rows: bool = True,
    workers: int = 1,
    scheduler: str | None = None,
) -> Deals:
    """Play ``deals`` shuffled Beggar-my-neighbour deals of ``players`` hands, as ``ratscrew bmn --random``
    does (the same deals and totals for the same seed), keeping one row per deal with ``rows``."""
    if deals < 1:
        raise MalformedInput(f"random_deals needs at least 1 deal, got {deals}")
    if not 2 <= players <= 12:
        raise MalformedInput(f"players must be from 2 to 12, got {players}")
    tally = play_random(deals, seed, players, workers=workers, scheduler=scheduler)
    kept: list[DealRow] | None = None
    if rows:
        blocks = [
            (seed, min(RANDOM_BLOCK, deals - start), players, b)
            for b, start in enumerate(range(0, deals, RANDOM_BLOCK))
        ]
        parts: dict[int, list[DealRow]] = {}
        with open_runner(workers, scheduler, tasks=len(blocks)) as runner:
            for part in runner.unordered(deal_rows, blocks):
                if part:
                    parts[part[0][0]] = part
        kept = [row for b in sorted(parts) for row in parts[b]]
    return Deals(seed, tally, tuple(kept) if kept is not None else None)


def hunt(
    *,
    batches: int | None = None,
    seconds: float | None = None,
    seed: int = 1,
    start_from: Sequence[str] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    settings: HuntSettings | None = None,
) -> Hunt:
    """Hunt long two-hand deals, as ``ratscrew bmn --search`` does, for ``batches`` batches or ``seconds``
    seconds (at least one of them); ``start_from`` (two hands in the records' notation) searches that deal's
    family first. A hunt stopped by ``batches`` finds the same bests in the same order for the same seed."""
    if batches is None and seconds is None:
        raise MalformedInput("a hunt needs batches=N or seconds=S (or both) to know when to stop")
    if batches is not None and batches < 1:
        raise MalformedInput(f"batches must be at least 1, got {batches}")
    if seconds is not None and not seconds > 0:
        raise MalformedInput(f"seconds must be above 0, got {seconds}")
    state = SearchState(seed=seed)
    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    bests: list[tuple[float, Find]] = []
    if start_from is not None:
        hands = parse_bmn_hands(list(start_from))
        if len(hands) != 2 or len(hands[0]) != 26:
            raise MalformedInput("start_from needs a two-hand deal of 26 cards a hand")
        finds, cycles, searched = known_family(evaluate((hands[0], hands[1])))
        state.searched += searched
        better = state.take(finds, cycles)
        if better is not None:
            bests.append((round(time.monotonic() - start, 2), better))
    for find in search(
        state,
        batches=batches,
        time_left=lambda: deadline is None or time.monotonic() < deadline,
        workers=workers,
        scheduler=scheduler,
        settings=settings or HuntSettings(),
    ):
        bests.append((round(time.monotonic() - start, 2), find))
    return Hunt(state, tuple(bests))
