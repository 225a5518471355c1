"""Fair slaps over a network: how long each player's link delays them, and how much of it a slap is credited.

A card reaches a player a moment after the server turns it, and their slap reaches the server a moment
after they make it. Judged at arrival, the player on the slower link loses every close race. So each slap
is credited with landing earlier than it arrived, by the smallest of:

- the lag the page reports: the time from sending the card to receiving the slap, less the reaction time
  the page measured from the card's first paint;
- the lag the server measured itself (websocket pings and application echoes, smoothed: the estimate
  rises slowly and falls fast, so one slow ping does not buy a player time), plus two frames, since the
  page starts counting only when the card is painted;
- a quota per player that refills a little with every card and is capped, so a page that claims lag on
  every slap soon runs dry (lichess compensates move times the same way);
- a hard cap, and the room's decision window (the table cannot apply anything earlier than that).

A reaction faster than a person can react (under ``HUMAN_FLOOR_MS``) gets nothing: it was a guess or a lie.
Whatever a page claims, it gains at most the cap; the figures used go into the game record.

>>> lag = LagEstimate()
>>> for sample in (40, 300, 40):  # one slow ping moves it up a little; a fast one brings it down at once
...     lag.observe(sample)
>>> round(lag.rtt_ms)
53
>>> judged = credit(received=1000, sent=500, reaction=300, lag=lag, quota=Quota(), window=150)
>>> judged.reported_lag, judged.compensation, judged.landed  # the page implies 200 ms; the server allows 87
(200, 87, 913)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ratscrew.engine.actions import Millis

# A player behind 150 ms of extra round trip also has their link's own delay and a frame of paint: 200 ms
# covers all three, so their faster reaction still counts; it is also the most any page can ever gain.
HARD_CAP_MS = 200
HUMAN_FLOOR_MS = 100
FRAME_MS = 34  # two frames at 60 Hz: a card is painted at most this long after its message arrives
QUOTA_PER_CARD_MS = 40
QUOTA_CAP_MS = 400
RISE = 0.1  # how far one slower sample moves the estimate up
FALL = 0.5  # and one faster sample down
MIN_WINDOW_MS = FRAME_MS + 6


@dataclass
class LagEstimate:
    """One connection's round-trip time, smoothed: it rises slowly and falls fast."""

    rtt_ms: float | None = None
    samples: int = 0

    def observe(self, rtt_ms: float) -> None:
        rtt_ms = max(0.0, min(float(rtt_ms), 10_000.0))
        self.samples += 1
        if self.rtt_ms is None:
            self.rtt_ms = rtt_ms
        elif rtt_ms < self.rtt_ms:
            self.rtt_ms += (rtt_ms - self.rtt_ms) * FALL
        else:
            self.rtt_ms += (rtt_ms - self.rtt_ms) * RISE

    @property
    def shown_ms(self) -> int | None:
        """What the table shows as this player's latency: the one-way delay."""
        return None if self.rtt_ms is None else round(self.rtt_ms / 2)

    def allowance(self) -> int:
        """The most lag the server believes this player has: the round trip plus the paint."""
        return round((self.rtt_ms or 0.0) + FRAME_MS)


@dataclass
class Quota:
    """Compensation a player may still be credited: refills with every card, capped."""

    left_ms: int = QUOTA_CAP_MS

    def refill(self) -> None:
        self.left_ms = min(QUOTA_CAP_MS, self.left_ms + QUOTA_PER_CARD_MS)

    def spend(self, ms: int) -> None:
        self.left_ms = max(0, self.left_ms - ms)


@dataclass(frozen=True, slots=True)
class Credit:
    """How one slap was timed: what arrived, what was believed, and the landing time credited."""

    received: Millis
    sent: Millis | None  # when the card it reacts to was sent to this page
    reaction: Millis | None  # what the page reported
    reported_lag: Millis | None
    rtt: int | None  # the server's estimate of this connection's round trip
    quota: int  # before this slap
    compensation: Millis
    landed: Millis

    def to_dict(self) -> dict[str, object]:
        return {
            "received": self.received,
            "sent": self.sent,
            "reaction": self.reaction,
            "reported_lag": self.reported_lag,
            "rtt": self.rtt,
            "quota": self.quota,
            "compensation": self.compensation,
            "landed": self.landed,
        }


def credit(
    *, received: Millis, sent: Millis | None, reaction: Millis | None, lag: LagEstimate, quota: Quota, window: int
) -> Credit:
    """The landing time of a slap received at ``received`` (table ms), and every figure that decided it."""
    reported = None if sent is None or reaction is None else max(0, received - sent - reaction)
    rtt = None if lag.rtt_ms is None else round(lag.rtt_ms)
    before = quota.left_ms
    if reported is None or reaction is None or reaction < HUMAN_FLOOR_MS:
        compensation = 0
    else:
        compensation = max(0, min(reported, lag.allowance(), before, HARD_CAP_MS, window))
    quota.spend(compensation)
    return Credit(received, sent, reaction, reported, rtt, before, compensation, received - compensation)


def decision_window(allowances: Iterable[int]) -> int:
    """How far behind the clock the table runs: enough for the slowest seated player's lag, within the cap.

    A faster reaction that arrives later over a slower link can still win while its credited landing time
    is inside this window; everyone sees every card this much later, which nobody notices at tens of ms.
    """
    return max(MIN_WINDOW_MS, min(HARD_CAP_MS, max(allowances, default=0)))
