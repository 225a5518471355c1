"""What a request takes from its address's limits, and gives back.

A request that may create a room takes it before it acts, so that requests running side by side cannot each
see the same room left under the cap; it uses it once the room is made, and gives it back if not.

A lookup by code or id is counted once its answer is known, before it is told, in one step that cannot
interleave with another request's: an unknown code or id costs one, and is told only if the address had one
left; a known one costs nothing, and is told only if the address had one left. So a prober pays for every
code it tries (hits are too rare to matter); a player's own history page (ids of games they played, all
known) costs nothing however long, and nothing holds back the sockets of a club opening side by side; and an
address with nothing left is told nothing about any id (429 for all), so no answer, not even a refusal,
tells a known id from an unknown one for free.
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

    async def missed(self, client: str, misses: int) -> int:
        """Counts up to ``misses`` unknown codes or ids against ``client`` (as many as it has left); answers how
        many it had left before (at least 1), or TooMany if it had none."""
        ...

    async def password(self, client: str, account: str) -> Grant:
        """One password check by ``client`` on the account named ``account`` (its lower-case name, whether an
        account has it or not), or TooMany: use it when the password was wrong (or a new account was made),
        and it is given back when the password was right."""
        ...

    async def socket(self, client: str) -> Lease:
        """One more socket open for ``client``, or TooMany."""
        ...
