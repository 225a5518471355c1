"""The record hunt's state file: the seed, the next batch, the pool of longest deals and the cycles met.

The file is JSON, written whole or not at all (a new file renamed over the old one), and read back with
every field checked: a file from elsewhere, or one edited by hand into nonsense, is one clear line, and a
deal in it is replayed before it is trusted, so a pool entry always says how its deal really plays.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ratscrew.bmn import parse_bmn_hands
from ratscrew.errors import MalformedInput
from ratscrew.lab.bmn_search import CycleFound, Find, SearchState, evaluate

STATE_FORMAT = "ratscrew-bmn-search/2"
_EXPECTED = f'expected a "{STATE_FORMAT}" file written by ratscrew bmn --search --state'


class SearchStateError(MalformedInput):
    """A search state file that cannot be read or does not belong to this search."""


def _find_doc(find: Find) -> dict[str, object]:
    return {**find.as_json(), "batch": find.batch, "above": find.above}


def state_doc(state: SearchState) -> dict[str, object]:
    return {
        "format": STATE_FORMAT,
        "seed": state.seed,
        "next_batch": state.next_batch,
        "played": state.played,
        "searched": state.searched,
        "pool": [_find_doc(f) for f in state.pool],
        "cycles": [
            {
                "key": c.key,
                "cycle_cards": c.cards,
                "cycle_tricks": c.tricks,
                "deals": c.deals,
                "first": _find_doc(c.first),
            }
            for c in state.cycles.values()
        ],
    }


def save_state(state: SearchState, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".bmn-search-", dir=path.parent or Path("."))
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(state_doc(state), out)
    os.replace(tmp, path)


def load_state(path: Path) -> SearchState:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SearchStateError(f"cannot read the search state {str(path)!r}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise SearchStateError(f"the search state {str(path)!r} is not JSON: {_EXPECTED}") from None
    return _state_from(doc, path)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _state_from(doc: object, path: Path) -> SearchState:
    def bad(what: str) -> SearchStateError:
        return SearchStateError(f"the search state {str(path)!r} {what}: {_EXPECTED}")

    if isinstance(doc, dict) and doc.get("format") == "ratscrew-bmn-search/1":
        raise SearchStateError(
            f"the search state {str(path)!r} was written by the earlier hill-climbing hunt, which this one cannot "
            "carry on: give a new --state file (the old best deal can start it with --from)"
        )
    if not isinstance(doc, dict) or doc.get("format") != STATE_FORMAT:
        raise bad("is not a search state")
    numbers = [doc.get(k) for k in ("seed", "next_batch", "played", "searched")]
    if not all(_whole(n) for n in numbers):
        raise bad("has a seed, next_batch, played or searched that is not a whole number")
    seed, next_batch, played, searched = (int(str(n)) for n in numbers)
    pool_doc, cycles_doc = doc.get("pool"), doc.get("cycles")
    if not isinstance(pool_doc, list) or not isinstance(cycles_doc, list):
        raise bad("has no pool or cycles list")
    pool = [_find_from(d) for d in pool_doc]
    if any(f is None for f in pool):
        raise bad("has a pool deal that is not two hands of one deck playing as it says")
    cycles = {}
    for c in cycles_doc:
        cycle = _cycle_from(c)
        if cycle is None:
            raise bad("has a cycle that is not a key, whole numbers and a deal")
        cycles[cycle.key] = cycle
    state = SearchState(seed, next_batch, played, searched)
    state.take([f for f in pool if f is not None], [])
    state.cycles = cycles
    return state


def _find_from(doc: object) -> Find | None:
    if not isinstance(doc, dict):
        return None
    deal, batch, above = doc.get("deal"), doc.get("batch", 0), doc.get("above", 0)
    if not (isinstance(deal, list) and len(deal) == 2 and all(isinstance(h, str) for h in deal)):
        return None
    if not isinstance(batch, int) or isinstance(batch, bool) or batch < -1 or not _whole(above):
        return None
    try:
        first, second = parse_bmn_hands(deal)
    except MalformedInput:
        return None
    played = evaluate((first, second), batch)
    if (played.cards, played.tricks, played.loop) != (doc.get("cards"), doc.get("tricks"), doc.get("result") == "loop"):
        return None
    return Find(played.deal, played.cards, played.tricks, played.loop, batch, int(str(above)))


def _cycle_from(doc: object) -> CycleFound | None:
    if not isinstance(doc, dict):
        return None
    key, numbers = doc.get("key"), [doc.get(k) for k in ("cycle_cards", "cycle_tricks", "deals")]
    first = _find_from(doc.get("first"))
    if not isinstance(key, str) or not all(_whole(n) for n in numbers) or first is None or not first.loop:
        return None
    cards, tricks, deals = (int(str(n)) for n in numbers)
    return CycleFound(key, cards, tricks, deals, first)
