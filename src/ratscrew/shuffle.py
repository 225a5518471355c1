"""A seeded shuffle that gives the same order on every Python version, forever.

``random.shuffle`` is not promised to stay the same across Python releases, and a record that says
``"seed": 42`` must deal the same cards in a year. So the project carries its own generator: SplitMix64
(Steele, Lea and Flood, 2014), a tiny, well-studied 64-bit generator, and an unbiased Fisher-Yates
shuffle on top of it. Both are fixed by tests against known outputs.

>>> SeededRandom(1).next_u64()
10451216379200822465
>>> seeded_shuffle(list(range(6)), 42)
[4, 3, 0, 2, 5, 1]
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class SeededRandom:
    """SplitMix64. Deterministic for a given seed; any non-negative integer seed is accepted."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        if seed < 0:
            raise ValueError(f"a seed must be a non-negative integer, got {seed}")
        self._state = seed & _MASK

    @property
    def state(self) -> int:
        """Where the stream is: ``SeededRandom(r.state)`` carries on from here."""
        return self._state

    # The mask is written out rather than read from a global: the bots draw thousands of numbers a game.
    def next_u64(self) -> int:
        z = self._state = (self._state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias (draws above the last full block are redrawn)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            draw = self.next_u64()
            if draw < limit:
                return draw % n

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits: the top 53 bits of ``next_u64()`` over 2**53.

        The steps of ``next_u64`` are repeated here rather than called, which saves a call on every draw.
        """
        z = self._state = (self._state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return ((z ^ (z >> 31)) >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place, from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def seeded_shuffle(items: list[T], seed: int) -> list[T]:
    """A shuffled copy of ``items``."""
    out = list(items)
    SeededRandom(seed).shuffle(out)
    return out
