"""Hunting long (and endless) Beggar-my-neighbour deals: random deals, then the families above the longest.

The hunt works in batches. A batch deals ``block`` random deals (as ``bmn --random`` does, in C), keeps the
``keep`` longest, and searches each one's family: the deals whose games run into its game, found by playing
backwards from its first ``walk`` positions (lab/bmn_family.py). A family holds, more often than not, a deal
longer than the one it was found from, and now and then one longer by a thousand cards. Endless deals beat
any that end; when a batch deals one, its cycle is found, named, and every deal that reaches the cycle is
listed by playing back from it.

Why this method (docs/lab.md has the measurements): the neighbours record hunters try (swap two cards, move
one, rotate a hand, swap the hands) give games no longer than random deals, because any change alters a trick
in the first pass through the hands and the game is a new one from there; a family, by contrast, holds a
longer deal more often than not, and its gain does not depend on the length of the deal it was found from.

Batch ``b`` draws everything from its own seed, so batches can be shared out between processes or a Dask
cluster and their findings read back in batch order: the same seed gives the same bests, in the same order,
whatever the number of workers. A state file keeps the seed, the next batch, the pool of the longest deals
found and the cycles, so a stopped hunt carries on where it left off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ratscrew.bmn import play_block, play_bmn, to_notation
from ratscrew.executor import open_runner
from ratscrew.lab.bmn_family import Position, Relative, cycle_of, family, into_cycle
from ratscrew.shuffle import SeededRandom

_MASK = (1 << 64) - 1
POOL_SIZE = 32  # the longest deals a hunt keeps (in its state file too)
ENDLESS_SEARCH_CAP = 1_000_000  # positions searched back from a cycle for the deals that reach it


@dataclass(frozen=True, slots=True)
class HuntSettings:
    """How much each batch does. The defaults were measured (docs/lab.md): the longest relatives lie above the
    first eight positions of a game, families larger than 20,000 positions are rare, and with a family costing
    about as much as 85 random deals, searching the families of the longest 0.4% of deals gets the longest
    deals soonest."""

    block: int = 500_000  # random deals per batch
    keep: int = 2_000  # of which the longest have their families searched
    walk: int = 8  # positions of each game searched above
    cap: int = 20_000  # positions searched above each one, at most


@dataclass(frozen=True, slots=True)
class Find:
    """A deal and how it plays: ``loop`` is True for an endless deal (then cards and tricks reach the repeat).

    ``batch`` is the batch that found it (-1: given with ``--from``, or found from the deal given), and ``above``
    the length of the game it runs into when it was found in a family or, endless, reaching the cycle of another
    deal (0 when it was dealt or given itself).
    """

    deal: tuple[str, str]  # demand strings, first hand first
    cards: int
    tricks: int
    loop: bool = False
    batch: int = 0
    above: int = 0

    def rank(self) -> tuple[bool, int, int, tuple[str, str]]:
        """Sorts the best first: endless, then longer, then found sooner."""
        return (not self.loop, -self.cards, self.batch, self.deal)

    def beats(self, other: Find | None) -> bool:
        return other is None or (self.loop, self.cards) > (other.loop, other.cards)

    def as_json(self) -> dict[str, object]:
        doc: dict[str, object] = {"deal": [to_notation(h) for h in self.deal], "cards": self.cards}
        doc["tricks"] = self.tricks
        if self.loop:
            doc["result"] = "loop"
        return doc

    def line(self) -> str:
        what = (
            f"endless, repeats after {self.cards} cards" if self.loop else f"{self.cards} cards, {self.tricks} tricks"
        )
        return f"{to_notation(self.deal[0])} {to_notation(self.deal[1])}  {what}  ({self.origin()})"

    def origin(self) -> str:
        """Where the deal came from, in words: given, dealt, or found from one of those."""
        given = self.batch < 0
        if not self.above:
            return "given with --from" if given else f"batch {self.batch}"
        if self.loop:
            return (
                "reaches the cycle of the deal given"
                if given
                else f"batch {self.batch}, reaches the cycle of a deal dealt there"
            )
        return (
            f"in the family of the {self.above}-card deal given"
            if given
            else f"batch {self.batch}, in the family of a {self.above}-card deal"
        )


@dataclass(frozen=True, slots=True)
class CycleFound:
    """A cycle an endless game goes round, the number of deals found that reach it, and the first of them
    (the one that repeats latest)."""

    key: str
    cards: int
    tricks: int
    deals: int
    first: Find


@dataclass(frozen=True, slots=True)
class BatchResult:
    finds: list[Find]  # the batch's best few, best first
    played: int
    searched: int
    cycles: list[CycleFound] = field(default_factory=list)


def evaluate(deal: Position, batch: int = -1) -> Find:
    """How ``deal`` plays, as the hunt scores it."""
    result = play_bmn(deal)
    if result.loop is not None:
        loop = result.loop
        return Find(deal, loop.prefix_cards + loop.cycle_cards, loop.prefix_tricks + loop.cycle_tricks, True, batch)
    return Find(deal, result.cards, result.tricks, False, batch)


def batch_seed(seed: int, batch: int) -> int:
    return SeededRandom((seed * 0x1_0000_0001 + batch * 0x9E37_79B9 + 11) & _MASK).next_u64()


def run_batch(seed: int, batch: int, settings: HuntSettings, accelerated: bool = True) -> BatchResult:
    """One batch: deal, keep the longest, search their families; the same result wherever it runs."""
    tally = play_block(batch_seed(seed, batch), settings.block, 2, accelerated, settings.keep, batch)
    finds: list[Find] = []
    searched = 0
    for dealt in tally.longest:
        deal = (dealt.hands[0], dealt.hands[1])
        finds.append(Find(deal, dealt.cards, dealt.tricks, False, batch))
        relative, n = family(deal, dealt.cards, dealt.tricks, settings.walk, settings.cap, accelerated=accelerated)
        searched += n
        if relative is not None:
            finds.append(_found(relative, False, batch, dealt.cards))
    cycles = []
    for dealt in tally.endless:
        found, n = endless_family(evaluate((dealt.hands[0], dealt.hands[1]), batch))
        searched += n
        cycles.append(found)
        finds.append(found.first)
    return BatchResult(_best(finds, POOL_SIZE), settings.block, searched, cycles)


def _found(relative: Relative, loop: bool, batch: int, above: int) -> Find:
    return Find((relative.deal[0], relative.deal[1]), relative.cards, relative.tricks, loop, batch, above)


def _best(finds: list[Find], size: int) -> list[Find]:
    """The ``size`` best distinct deals of ``finds``, best first."""
    seen: set[tuple[str, str]] = set()
    out = []
    for find in sorted(finds, key=Find.rank):
        if find.deal not in seen:
            seen.add(find.deal)
            out.append(find)
    return out[:size]


def endless_family(find: Find) -> tuple[CycleFound, int]:
    """The cycle an endless deal falls into and every deal found that reaches it; and the positions searched."""
    cycle = cycle_of(find.deal)
    assert cycle is not None, "endless_family needs an endless deal"
    deals, searched = into_cycle(cycle, ENDLESS_SEARCH_CAP)
    first = _found(deals[0], True, find.batch, find.cards) if deals and deals[0].deal != find.deal else find
    return CycleFound(cycle.key, cycle.cards, cycle.tricks, len(deals), first if first.beats(find) else find), searched


def known_family(find: Find) -> tuple[list[Find], list[CycleFound], int]:
    """What ``--from`` adds: the deal itself and the longest of its family searched far and wide (for an endless
    deal, every deal found that reaches its cycle); the cycle if it has one; and the positions searched."""
    if find.loop:
        cycle, searched = endless_family(find)
        return [find, cycle.first], [cycle], searched
    relative, searched = family(find.deal, find.cards, find.tricks, walk=find.tricks, cap=ENDLESS_SEARCH_CAP)
    finds = [find] if relative is None else [find, _found(relative, False, find.batch, find.cards)]
    return finds, [], searched


@dataclass
class SearchState:
    """Where a hunt is: its seed, the next batch, what it has done, the pool of its longest deals and the
    cycles it has met."""

    seed: int
    next_batch: int = 0
    played: int = 0
    searched: int = 0
    pool: list[Find] = field(default_factory=list)
    cycles: dict[str, CycleFound] = field(default_factory=dict)

    @property
    def best(self) -> Find | None:
        return self.pool[0] if self.pool else None

    def take(self, finds: list[Find], cycles: list[CycleFound]) -> Find | None:
        """Add one batch's findings to the pool and the cycles; returns its best if that beats the best so far."""
        before = self.best
        self.pool = _best([*self.pool, *finds], POOL_SIZE)
        for cycle in cycles:
            known = self.cycles.get(cycle.key)
            if known is None or cycle.first.beats(known.first):
                self.cycles[cycle.key] = cycle
        best = self.best
        return best if best is not None and best is not before and best.beats(before) else None


def search(
    state: SearchState,
    *,
    batches: int | None = None,
    time_left: Callable[[], bool] = lambda: True,
    workers: int = 1,
    scheduler: str | None = None,
    settings: HuntSettings = HuntSettings(),
    on_batch: Callable[[SearchState], None] | None = None,
) -> Iterator[Find]:
    """Run batches from ``state.next_batch``; yield every new best as it is found.

    The batches run in this process, in ``workers`` local processes, or on the Dask cluster at ``scheduler``.
    It stops before batch number ``batches`` (counted from the first run, so a resumed hunt stops at the same
    place), or once ``time_left()`` is False (batches still running then are dropped and run again on
    resuming). Findings are read in batch order, and ``state`` is brought up to date (then ``on_batch``
    called) after each batch, so stopping between two batches loses nothing.
    """
    limit = batches if batches is not None else -1

    def tasks() -> Iterator[tuple[int, int, HuntSettings]]:
        batch = state.next_batch
        while (limit < 0 or batch < limit) and time_left():
            yield state.seed, batch, settings
            batch += 1

    with open_runner(workers, scheduler) as runner:
        results = runner.ordered(run_batch, tasks())
        try:
            for result in results:
                better = state.take(result.finds, result.cycles)
                state.next_batch += 1
                state.played += result.played
                state.searched += result.searched
                if on_batch:
                    on_batch(state)
                if better is not None:
                    yield better
                if not time_left():
                    return
        finally:
            results.close()


@dataclass(frozen=True, slots=True)
class HuntRun:
    """What one run of the hunt did: where it ended (``state``), each new best with the seconds it took to find,
    how long it ran, the batch it started at (0, or where its state file stood) and the best it started with,
    and whether its time budget is what stopped it."""

    state: SearchState
    progress: list[tuple[float, Find]]
    seconds: float
    first_batch: int
    start_best: Find | None
    stopped_by_time: bool
    start_from: Find | None  # the deal --from gave
