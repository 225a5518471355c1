"""What a request takes from its address's limits, and gives back.

A request that may create a room, or look up codes or ids, takes what it may need before it acts, all at once,
so that requests running side by side cannot each see the same room left under a cap. It then uses what it
needed (a room made; a code or id that turned out unknown) and gives back the rest when it ends.

What a lookup costs: an unknown code or id costs one; a known one costs nothing, but is looked up only while
the request holds one unused. So a prober pays for every code it tries (hits are too rare to matter), a
player's own history page (ids of games they played, all known) costs nothing however long, and a request
with nothing left looks nothing up: it cannot learn, for free, whether the next id is known.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Grant:
    """``granted`` units taken ahead for one request; ``use`` one as it needs it; ``settle`` gives back the
    rest (once, whatever happened in between)."""

    __slots__ = ("_give_back", "_settled", "granted", "used")

    def __init__(self, granted: int, give_back: Callable[[int], None]) -> None:
        self.granted = granted
        self.used = 0
        self._give_back = give_back
        self._settled = False

    @property
    def left(self) -> int:
        return self.granted - self.used

    def use(self) -> None:
        if self.used >= self.granted:
            raise RuntimeError(f"a grant of {self.granted} used {self.used + 1} times")
        self.used += 1

    def settle(self) -> None:
        if self._settled:
            return
        self._settled = True
        if self.left:
            self._give_back(self.left)


class Lease:
    """One socket counted against its address until ``close`` (once)."""

    __slots__ = ("_end",)

    def __init__(self, end: Callable[[], None]) -> None:
        self._end: Callable[[], None] | None = end

    def close(self) -> None:
        end, self._end = self._end, None
        if end is not None:
            end()


class Limits(Protocol):
    async def room(self, client: str) -> Grant:
        """One room ``client`` may create (use it once the room is made), or TooMany."""
        ...

    async def lookups(self, client: str, wanted: int) -> Grant:
        """Up to ``wanted`` lookups of codes or ids (use one for each that turns out unknown), or TooMany when
        none is left."""
        ...

    async def socket(self, client: str) -> Lease:
        """One more socket open for ``client``, or TooMany."""
        ...
