"""Fair slaps over a network: how long each player's link delays them, and how much of it a slap is credited.

A card reaches a player a moment after the server sends it, and their slap reaches the server a moment
after they make it. Judged at arrival, the player on the slower link loses every close race. So each slap
is credited with landing earlier than it arrived, by the smallest of:

- the lag the page reports: the time from sending the card to receiving the slap, less the reaction time
  the page measured from the card's first paint;
- the round trip the server measured itself, where no page's script can slow it down: a websocket ping
  timed by the server (the browser answers it, not the page), or the kernel's smoothed round trip of the
  TCP connection when no pong came. Smoothed: the estimate rises slowly and falls fast, so one slow ping
  does not buy a player time. Plus two frames (``PAINT_MS``), since the page counts only from the paint;
- a quota per player: each card turned refills it by what the server allows that player, each
  compensation spends it, so an honest slow link never runs dry and a page slapping several times a
  card soon does;
- a hard cap, and the room's decision window (the table cannot apply anything earlier than that).

The page's own answers to the server's probes (``echo``) are kept for the record but bound nothing: a page
can answer them as late as it likes. So whatever a page claims, a slap gains at most the server-measured
round trip plus ``PAINT_MS``, and never more than the cap; the figures used go into the game record. A
reaction faster than a person can react (under ``HUMAN_FLOOR_MS``) gets nothing: it was a guess or a lie.

Computers sit at the same tables and are judged on the same clock: a computer's reaction counts from when
it sees the card, and it sees each card when the pages are sent it, a decision window after the card
landed, or, at a table where only one player's link counts, as late as that player does
(``computer_sight``). With equal reactions a person and a computer each win half their races.

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

import statistics
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from ratscrew.engine.actions import Millis
from ratscrew.rooms.wire.summary import Race, RaceSlap, Verdict

# A player behind 150 ms of extra round trip also has their link's own delay and a frame of paint: 200 ms
# covers all three, so their faster reaction still counts; it is also the most any page can ever gain.
HARD_CAP_MS = 200
HUMAN_FLOOR_MS = 100
PAINT_MS = 34  # two frames at 60 Hz: a card is painted at most this long after its message arrives
QUOTA_PER_CARD_MS = 40  # the least a card turned refills, whatever was measured
QUOTA_CAP_MS = 400
RISE = 0.1  # how far one slower sample moves the estimate up
FALL = 0.5  # and one faster sample down
MIN_WINDOW_MS = PAINT_MS + 6
# The table says whose link it waits for only from a wait a player could feel: a few tens of ms more (a loaded
# machine's own loopback adds that) would call every link at the table "slow".
SLOW_NOTE_MS = 100
SEEN_LAGS_KEPT = 15  # the slaps a page's usual lag is taken from (the computers' sight, at a table of one)
SEEN_LAGS_NEEDED = 3


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

    @property
    def rounded(self) -> int | None:
        return None if self.rtt_ms is None else round(self.rtt_ms)

    def allowance(self) -> int:
        """The most lag the server believes this player has: the round trip plus the paint."""
        return round((self.rtt_ms or 0.0) + PAINT_MS)


@dataclass
class Quota:
    """Compensation a player may still be credited: refills with every card, capped."""

    left_ms: int = QUOTA_CAP_MS

    def refill(self, allowance_ms: int = 0) -> None:
        """A card was turned: as much again as the server allows this player for one slap (at least a little)."""
        self.left_ms = min(QUOTA_CAP_MS, self.left_ms + max(QUOTA_PER_CARD_MS, min(allowance_ms, HARD_CAP_MS)))

    def spend(self, ms: int) -> None:
        self.left_ms = max(0, self.left_ms - ms)


@dataclass
class SeenLag:
    """How long after a card is sent one page's player sees it, from the lags its slaps implied: the median of
    the last few, none believed beyond what the server allows (a page claiming more is believed no further)."""

    recent: deque[int] = field(default_factory=lambda: deque(maxlen=SEEN_LAGS_KEPT))

    def add(self, judged: Credit, allowance: int) -> None:
        """One slap's implied lag, if it was one a person could have made."""
        if judged.reported_lag is not None and judged.reaction is not None and judged.reaction >= HUMAN_FLOOR_MS:
            self.recent.append(min(judged.reported_lag, allowance))

    def ms(self, lag: LagEstimate) -> int:
        """The usual lag; before enough slaps, the measured round trip (a card is painted soon after it lands)."""
        if len(self.recent) >= SEEN_LAGS_NEEDED:
            return round(statistics.median(self.recent))
        return lag.rounded or 0


@dataclass(frozen=True, slots=True)
class Credit:
    """How one slap was timed: what arrived, what was believed, and the landing time credited."""

    received: Millis
    sent: Millis | None  # when the card it reacts to was sent to this page
    reaction: Millis | None  # what the page reported
    reported_lag: Millis | None
    rtt: int | None  # the server's own measure of this connection's round trip: the bound
    quota: int  # before this slap
    compensation: Millis
    landed: Millis


def credit(
    *, received: Millis, sent: Millis | None, reaction: Millis | None, lag: LagEstimate, quota: Quota, window: int
) -> Credit:
    """The landing time of a slap received at ``received`` (table ms), and every figure that decided it.

    ``lag`` is what the server measured of the connection itself, never what the page answered."""
    reported = None if sent is None or reaction is None else max(0, received - sent - reaction)
    before = quota.left_ms
    if reported is None or reaction is None or reaction < HUMAN_FLOOR_MS:
        compensation = 0
    else:
        compensation = max(0, min(reported, lag.allowance(), before, HARD_CAP_MS, window))
    quota.spend(compensation)
    return Credit(received, sent, reaction, reported, lag.rounded, before, compensation, received - compensation)


def decision_window(allowances: Iterable[int]) -> int:
    """How far behind the clock the table runs: enough for the slowest seated player's lag, within the cap.

    A faster reaction that arrives later over a slower link can still win while its credited landing time
    is inside this window; everyone sees every card this much later, which nobody notices at tens of ms.
    """
    return max(MIN_WINDOW_MS, min(HARD_CAP_MS, max(allowances, default=0)))


def computer_sight(window: int, seen_lags: Iterable[int]) -> int:
    """How long after a card lands the computers at the table see it.

    Pages are sent each card a window after it landed, and a slap is credited back to no earlier than that:
    the computers see it then too. Where the window is narrower than a player's lag (a table where only one
    player's link counts keeps the window at its least), the computers see it as late as that player does,
    so nobody waits for a link that races nobody else's, and the computer still gets no head start.
    """
    return max(window, min(HARD_CAP_MS, max(seen_lags, default=0)))


@dataclass
class Adjudication:
    """One slap's timing for the record: the credit, the verdict it met, and the figures beside the bound."""

    seat: int
    card: int | None
    credit: Credit
    verdict: Verdict | None = None
    echo_rtt: int | None = None  # the page's own answers to the probes: recorded, never believed
    tcp_rtt: int | None = None  # the kernel's round trip of the TCP connection (to a proxy, if there is one)

    def timed(self) -> RaceSlap:
        """Every figure of this slap, as a game's record and its summary's races keep them."""
        c = self.credit
        return RaceSlap(
            self.seat,
            self.card,
            self.verdict,
            c.received,
            c.sent,
            c.reaction,
            c.reported_lag,
            c.rtt,
            c.quota,
            c.compensation,
            c.landed,
            self.echo_rtt,
            self.tcp_rtt,
        )

    def to_dict(self) -> dict[str, object]:
        return self.timed().to_json()


def races(adjudications: list[Adjudication]) -> tuple[Race, ...]:
    """Cards more than one person slapped, with the figures each slap was timed by: why a race went one way."""
    by_card: dict[int, list[Adjudication]] = {}
    for adjudication in adjudications:
        if adjudication.card is not None:
            by_card.setdefault(adjudication.card, []).append(adjudication)
    return tuple(
        Race(card, tuple(a.timed() for a in sorted(group, key=lambda a: a.credit.landed)))
        for card, group in sorted(by_card.items())
        if len({a.seat for a in group}) > 1
    )
