"""Quick reactions: which a room passes on, and how often each player may send one.

A reaction is a fixed code (``wire.Reaction``), shown by its sender's seat on every page for a moment and
kept nowhere. The server is the limiter, whatever a page does: each player has a small bucket of reactions
that refills on the room's clock, so a few may go at once (a round of "GG") and then one every few seconds.
One past that is refused with ``too_fast`` and dropped; nothing else about the player or the game changes.
Only players send: a watcher has no seat to show a reaction by, and a public room is watched by anyone with
its link, whom the players could neither see nor silence one by one.

>>> limit = ReactionLimit()
>>> [limit.take(0, now=0) for _ in range(BURST + 1)]
[True, True, True, False]
>>> limit.take(0, now=REFILL_MS), limit.take(1, now=REFILL_MS)  # one more came back; another player has their own
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ratscrew.engine.actions import Millis

BURST = 3  # reactions a player may send at once
REFILL_MS = 4_000  # then one more every this long
TOO_FAST = f"too many reactions: {BURST} at once, then one every {REFILL_MS // 1000} seconds"


@dataclass
class _Bucket:
    left: float
    at: Millis  # when ``left`` was worked out


class ReactionLimit:
    """Each seat's reactions left, refilled on the room's clock (a seat's, so one player's tabs share it)."""

    def __init__(self) -> None:
        self._buckets: dict[int, _Bucket] = {}

    def take(self, seat: int, now: Millis) -> bool:
        """Whether ``seat`` may send a reaction now (and one fewer is left if so)."""
        bucket = self._buckets.get(seat)
        if bucket is None:
            bucket = self._buckets[seat] = _Bucket(BURST, now)
        bucket.left = min(BURST, bucket.left + max(0, now - bucket.at) / REFILL_MS)
        bucket.at = now
        if bucket.left < 1:
            return False
        bucket.left -= 1
        return True
