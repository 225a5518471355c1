"""Hunting long (and endless) Beggar-my-neighbour deals the way record hunters do: hill climbing with restarts.

Each restart starts from a random deal and keeps swapping two cards of different kinds, keeping a swap
when the game gets no shorter (a longer game, or as long, so the climb can cross flat ground), until
``patience`` swaps in a row have not made it longer. An endless deal beats any deal that ends.

Restart ``r`` draws everything from its own seed, so restarts can be shared out between processes and
their findings read back in restart order: the same seed gives the same bests, in the same order, whatever
the number of workers. A run stops after a number of restarts or seconds; a state file remembers the seed,
the next restart and the best so far, so a stopped run carries on where it left off.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ratscrew import kernels
from ratscrew.bmn import BmnResult, play_bmn, random_deal, to_notation
from ratscrew.errors import MalformedInput
from ratscrew.lab.executor import open_runner
from ratscrew.shuffle import SeededRandom

_fast = kernels.load("ratscrew._bmn_fast")
STATE_FORMAT = "ratscrew-bmn-search/1"
DEFAULT_PATIENCE = 2000
_MASK = (1 << 64) - 1


class SearchStateError(MalformedInput):
    """A search state file that cannot be read or does not belong to this search."""


@dataclass(frozen=True, slots=True)
class Find:
    """A deal and how it plays: ``loop`` is True for an endless deal (then cards and tricks reach the repeat)."""

    deal: tuple[str, str]  # demand strings, first hand first
    cards: int
    tricks: int
    loop: bool = False
    restart: int = 0

    def beats(self, other: Find | None) -> bool:
        return other is None or (self.loop, self.cards) > (other.loop, other.cards)

    def as_json(self) -> dict[str, object]:
        doc: dict[str, object] = {"deal": [to_notation(h) for h in self.deal], "cards": self.cards}
        doc["tricks"] = self.tricks
        if self.loop:
            doc["result"] = "loop"
        return doc

    def line(self) -> str:
        what = "endless" if self.loop else f"{self.cards} cards, {self.tricks} tricks"
        return f"{to_notation(self.deal[0])} {to_notation(self.deal[1])}  {what}  (restart {self.restart})"


def evaluate(deal: tuple[str, str], restart: int) -> Find:
    result: BmnResult = play_bmn(deal)
    if result.loop is not None:
        loop = result.loop
        cards = loop.prefix_cards + loop.cycle_cards
        return Find(deal, cards, loop.prefix_tricks + loop.cycle_tricks, True, restart)
    return Find(deal, result.cards, result.tricks, False, restart)


def restart_seed(seed: int, restart: int) -> int:
    return SeededRandom((seed * 0x1_0000_0001 + restart * 0x9E37_79B9 + 7) & _MASK).next_u64()


def climb(
    seed: int, restart: int, patience: int = DEFAULT_PATIENCE, *, accelerated: bool = True
) -> tuple[list[Find], int]:
    """One restart: every improvement on the way up, in order, and how many deals were played.

    The C kernel climbs step for step as the Python below does (same draws, same rule), only sooner.
    """
    if accelerated and _fast is not None:
        entries, played = _fast.climb(restart_seed(seed, restart), patience)
        return [Find((a, b), cards, tricks, loop, restart) for a, b, cards, tricks, loop in entries], played
    rng = SeededRandom(restart_seed(seed, restart))
    first, second = random_deal(rng, 2)
    deck = list(first + second)
    half = len(first)
    best = evaluate((first, second), restart)
    found = [best]
    played, stale = 1, 0
    while stale < patience:
        i, j = rng.below(52), rng.below(52)
        if deck[i] == deck[j]:
            continue
        deck[i], deck[j] = deck[j], deck[i]
        text = "".join(deck)
        trial = evaluate((text[:half], text[half:]), restart)
        played += 1
        better = trial.beats(best)
        if better or (trial.loop, trial.cards) == (best.loop, best.cards):
            best = trial
        else:
            deck[i], deck[j] = deck[j], deck[i]
        if better:
            found.append(trial)
            stale = 0
        else:
            stale += 1
    return found, played


@dataclass
class SearchState:
    seed: int
    next_restart: int = 0
    played: int = 0
    best: Find | None = None

    def as_json(self) -> dict[str, object]:
        best = None
        if self.best is not None:
            best = {**self.best.as_json(), "restart": self.best.restart}
        return {
            "format": STATE_FORMAT,
            "seed": self.seed,
            "next_restart": self.next_restart,
            "played": self.played,
            "best": best,
        }

    def save(self, path: Path) -> None:
        """Write the state whole or not at all (a new file renamed over the old one)."""
        fd, tmp = tempfile.mkstemp(prefix=".bmn-search-", dir=path.parent or Path("."))
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(self.as_json(), out)
        os.replace(tmp, path)

    @staticmethod
    def load(path: Path) -> SearchState:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise SearchStateError(f"cannot read the search state {str(path)!r}: {exc.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise SearchStateError(f"the search state {str(path)!r} is not JSON: {_EXPECTED}") from None
        return _state_from(doc, path)


_EXPECTED = f'expected a "{STATE_FORMAT}" file written by ratscrew bmn --search --state'


def _state_from(doc: object, path: Path) -> SearchState:
    def bad(what: str) -> SearchStateError:
        return SearchStateError(f"the search state {str(path)!r} {what}: {_EXPECTED}")

    if not isinstance(doc, dict) or doc.get("format") != STATE_FORMAT:
        raise bad("is not a search state")
    numbers = [doc.get(k) for k in ("seed", "next_restart", "played")]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers):
        raise bad("has a seed, next_restart or played that is not a whole number")
    seed, next_restart, played = (int(str(n)) for n in numbers)
    best_doc = doc.get("best")
    best = None
    if best_doc is not None:
        best = _find_from(best_doc)
        if best is None:
            raise bad("has a best deal that is not two hands of one deck with cards and tricks")
    return SearchState(seed, next_restart, played, best)


def _find_from(doc: object) -> Find | None:
    from ratscrew.bmn import parse_bmn_hands

    if not isinstance(doc, dict):
        return None
    deal, cards, tricks, restart = doc.get("deal"), doc.get("cards"), doc.get("tricks"), doc.get("restart", 0)
    if not (isinstance(deal, list) and len(deal) == 2 and all(isinstance(h, str) for h in deal)):
        return None
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (cards, tricks, restart)):
        return None
    try:
        first, second = parse_bmn_hands(deal)
    except MalformedInput:
        return None
    return Find((first, second), int(str(cards)), int(str(tricks)), doc.get("result") == "loop", int(str(restart)))


def _climb_task(seed: int, restart: int, patience: int) -> tuple[list[Find], int]:
    return climb(seed, restart, patience)


def search(
    state: SearchState,
    *,
    restarts: int | None = None,
    time_left: Callable[[], bool] = lambda: True,
    workers: int = 1,
    scheduler: str | None = None,
    patience: int = DEFAULT_PATIENCE,
    on_restart: Callable[[SearchState], None] | None = None,
) -> Iterator[Find]:
    """Run restarts from ``state.next_restart``; yield every new best as it is found.

    The restarts run in this process, in ``workers`` local processes, or on the Dask cluster at
    ``scheduler``. It stops before restart number ``restarts`` (counted from the first run, so a resumed
    run stops at the same place), or once ``time_left()`` is False (restarts still running then are dropped
    and run again on resuming). Findings are read in restart order, and ``state`` is brought up to date
    (then ``on_restart`` called) after each restart, so stopping between two restarts loses nothing.
    """
    limit = restarts if restarts is not None else -1
    for found, played in _restarts(state.seed, state.next_restart, limit, time_left, workers, scheduler, patience):
        for find in found:
            if find.beats(state.best):
                state.best = find
                yield find
        state.next_restart += 1
        state.played += played
        if on_restart:
            on_restart(state)


def _restarts(
    seed: int,
    first: int,
    limit: int,
    time_left: Callable[[], bool],
    workers: int,
    scheduler: str | None,
    patience: int,
) -> Iterator[tuple[list[Find], int]]:
    def tasks() -> Iterator[tuple[int, int, int]]:
        restart = first
        while (limit < 0 or restart < limit) and time_left():
            yield seed, restart, patience
            restart += 1

    with open_runner(workers, scheduler) as runner:
        results = runner.ordered(_climb_task, tasks())
        try:
            for result in results:
                yield result
                if not time_left():
                    return
        finally:
            results.close()
