"""The compiled game kernel for ``ratscrew simulate``: when it may play, how it is fed, and how it is checked.

``ratscrew._ers_fast`` (``src/ratscrew/_ers_fast.c``) plays one complete game between computer players on
virtual time, the engine, the table and the bots together, and gives the same per-game figures as
:func:`ratscrew.lab.simulate.play_one` for the same rules, seats and seed. It is a port, so it only plays
what it was ported for: :func:`covers` names what it does not cover, and such a game is played by the
Python modules, which stay the reference. ``RATSCREW_PURE_PYTHON=1`` forces Python (see kernels.py).

Identity is checked game by game in tests/test_ers_kernel.py, on the figures and on :func:`event_hash`,
a hash of everything the table published.
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from ratscrew import kernels
from ratscrew.bots.levels import LONG_CHALLENGE_MISS, NEAR_MISS_WRONG, PATTERN_DIFFICULTY, Level
from ratscrew.bots.reaction import ExGaussian, FixedTime
from ratscrew.bots.registry import resolve
from ratscrew.cards import Card, Suit
from ratscrew.engine.events import (
    CardTurned,
    ChallengeOpened,
    ChallengeStopped,
    ChallengeWin,
    ChallengeWon,
    DebtPassed,
    DismissReason,
    Event,
    EventKind,
    GameOver,
    OutReason,
    PileWon,
    PlayerOut,
    SlapCorrect,
    SlapDismissed,
    StopReason,
    WonBy,
    WrongSlap,
)
from ratscrew.engine.outcome import Ending, Result
from ratscrew.patterns import PATTERN_KEYS
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules

if TYPE_CHECKING:
    from ratscrew.lab.simulate import GameStats
    from ratscrew.table.table import TableEvent

MODULE = "ratscrew._ers_fast"
# The levels whose every draw the kernel makes as the Python bot does. ``match`` plays at Medium's speed
# in the lab: its person is another computer, never measured, so its reaction fit is Medium's, fixed.
COVERED_LEVELS = frozenset({"easy", "medium", "hard", "expert", "perfect", "instant", "match"})
_RESULTS = tuple(r.value for r in Result)  # the kernel's result codes are places in Result


def covers(rules: Rules, levels: Sequence[str]) -> str | None:
    """None when the kernel plays these rules and seats exactly, else a short reason naming what it lacks.

    Bad level names raise as :func:`ratscrew.bots.registry.resolve` does (``check_levels`` runs first).
    """
    if not MIN_PLAYERS <= len(levels) <= MAX_PLAYERS:
        return f"{len(levels)} seats"
    for name in levels:
        level = resolve(name)
        base = level.name.partition(":")[0]
        if base not in COVERED_LEVELS:
            return f"level {base}"
        if not isinstance(level.reaction, ExGaussian | FixedTime) or not isinstance(level.flip, ExGaussian):
            return f"level {base} (its reaction times)"
    return None


# ---------------------------------------------------------------------- feeding the kernel

_PENALTIES = {"burn": 0, "give-each": 1, "none": 2}
_OUT_WHEN = {"wrong-slap": 0, "missed-slap": 1, "never": 2}
_TEN = {"off": 0, "numbers": 1, "ace-one": 2}
_TEN_GAP = {"off": 0, "court": 1, "any": 2}


def config(rules: Rules, levels: Sequence[str], bot_pace: float = 1.0) -> bytes:
    """The rules and seats as the packed doubles ``_ers_fast.play`` reads (the CFG_ and SEAT_ offsets of
    ``_ers_fast.c``, in the same order). Only meaningful when :func:`covers` says None."""
    c, s, p, sl = rules.challenge, rules.slapping, rules.players, rules.slaps
    values: list[float] = [
        len(levels),
        c.J,
        c.Q,
        c.K,
        c.A,
        c.joker,
        c.empty_payer == "next_pays",
        c.ten_stops,
        s.collect_delay_ms,
        _PENALTIES[s.penalty],
        s.penalty_cards,
        s.tie_window_ms,
        s.tie == "split",
        p.slap_in,
        _OUT_WHEN[p.out_when],
        p.leader == "left",
        sl.double,
        sl.sandwich,
        sl.top_bottom,
        sl.marriage,
        sl.divorce,
        sl.run,
        sl.run_wrap,
        _TEN[sl.ten],
        _TEN_GAP[sl.ten_gap],
        sl.joker,
        sl.burned_count,
        rules.end.time_limit_s,
        rules.end.max_cards,
        rules.deck_for(len(levels)).decks,
        rules.deck.jokers,
        bot_pace,
    ]
    for key in PATTERN_KEYS:
        values.extend(PATTERN_DIFFICULTY.get(key, (2.0, 100.0)))
    values += [LONG_CHALLENGE_MISS, NEAR_MISS_WRONG]
    for name in levels:
        values += _seat(resolve(name))
    return struct.pack(f"<{len(values)}d", *values)


def _seat(level: Level) -> list[float]:
    reaction, flip, strategy = level.reaction, level.flip, level.strategy
    assert isinstance(flip, ExGaussian)
    if isinstance(reaction, FixedTime):
        shape = [1.0, 0.0, 0.0, 0.0, 0.0, reaction.ms]
    else:
        shape = [0.0, reaction.mu, reaction.sigma, reaction.tau, reaction.floor, 0.0]
    if strategy is None:
        plan = [0.0, 0.0, 0.0]
    elif strategy.min_cards:
        plan = [2.0, 0.0, strategy.min_cards]
    else:
        plan = [1.0, sum(1 << int(rank) for rank in strategy.courts), 0.0]
    return [*shape, level.miss, level.wrong, flip.mu, flip.sigma, flip.tau, flip.floor, *plan, 0.0]


# ---------------------------------------------------------------------- the event hash

_KIND = {kind: i for i, kind in enumerate(EventKind)}
_SUIT = {suit: i for i, suit in enumerate(Suit)}
_PATTERN = {key: i for i, key in enumerate(PATTERN_KEYS)}
FNV_OFFSET = 0xCBF2_9CE4_8422_2325
FNV_PRIME = 0x0000_0100_0000_01B3
_MASK = (1 << 64) - 1


def _index(value: object, members: Iterable[object]) -> int:
    return list(members).index(value)


def card_code(card: Card) -> int:
    """rank * 4 + suit (S H D C as 0 to 3); a joker is 0."""
    return int(card.rank) * 4 + (_SUIT[card.suit] if card.suit is not None else 0)


def event_words(t: int, event: Event) -> tuple[int, int, int, int, int, int]:
    """An event as six integers: (kind, seat, card, a, b, t).

    ``kind`` is the event's place in EventKind; ``seat`` its main seat (``from_seat`` of a debt passed,
    the winner of a game over, -1 for none); ``card`` :func:`card_code` of the card turned or of the card
    that opened a challenge, else -1; ``t`` the table time; ``a`` and ``b`` the rest, by kind:

    - card_turned: the card's number, 0;  challenge_opened: the payer, owed * 2 + passed_on;
    - debt_passed: to_seat, owed;  challenge_won: how (place in ChallengeWin), 0;
    - challenge_stopped, slap_dismissed, player_out: the reason's place in its enum, 0;
    - slap_correct: one bit per pattern matched (bit i: PATTERN_KEYS[i]), 0;
    - wrong_slap: cards burned, cards given;  pile_won: how (place in WonBy), cards * 16 + shares;
    - game_over: the result's place in Result, the ending's place in Ending (-1 for none).
    """
    kind = _KIND[event.kind]
    seat, card, a, b = -1, -1, 0, 0
    if isinstance(event, CardTurned):
        seat, card, a = event.seat, card_code(event.card), event.number
    elif isinstance(event, ChallengeOpened):
        seat, card, a, b = event.seat, card_code(event.card), event.payer, event.owed * 2 + int(event.passed_on)
    elif isinstance(event, DebtPassed):
        seat, a, b = event.from_seat, event.to_seat, event.owed
    elif isinstance(event, ChallengeWon):
        seat, a = event.seat, _index(event.how, ChallengeWin)
    elif isinstance(event, ChallengeStopped):
        seat, a = event.seat, _index(event.reason, StopReason)
    elif isinstance(event, SlapCorrect):
        seat, a = event.seat, sum(1 << _PATTERN[m.pattern] for m in event.matches)
    elif isinstance(event, WrongSlap):
        seat, a, b = event.seat, len(event.burned), len(event.given)
    elif isinstance(event, SlapDismissed):
        seat, a = event.seat, _index(event.reason, DismissReason)
    elif isinstance(event, PileWon):
        seat, a, b = event.seat, _index(event.how, WonBy), len(event.cards) * 16 + len(event.shares)
    elif isinstance(event, PlayerOut):
        seat, a = event.seat, _index(event.reason, OutReason)
    elif isinstance(event, GameOver):
        outcome = event.outcome
        seat = -1 if outcome.winner is None else outcome.winner
        a = _index(outcome.result, Result)
        b = -1 if outcome.how is None else _index(outcome.how, Ending)
    return kind, seat, card, a, b, t


def fnv1a(state: int, words: Iterable[int]) -> int:
    """FNV-1a 64 folded over each word's 8 bytes, little-endian, negative words as two's complement."""
    for word in words:
        for byte in (word & _MASK).to_bytes(8, "little"):
            state = ((state ^ byte) * FNV_PRIME) & _MASK
    return state


class EventHash:
    """The hash of a game's event stream: FNV-1a 64 over :func:`event_words` of every event the table
    publishes, in order, starting from the FNV offset basis. Use ``add`` as a table listener."""

    def __init__(self) -> None:
        self.value = FNV_OFFSET

    def add(self, published: TableEvent) -> None:
        self.value = fnv1a(self.value, event_words(published.t, published.event))


def event_hash(events: Iterable[TableEvent]) -> int:
    """The hash of a whole stream (a table's ``log``)."""
    h = EventHash()
    for published in events:
        h.add(published)
    return h.value


# ---------------------------------------------------------------------- playing


def _module() -> ModuleType | None:
    return kernels.load(MODULE)


def play_c(
    rules: Rules, levels: Sequence[str], seed: int, *, want_hash: bool = False, deck: Sequence[Card] | None = None
) -> tuple[GameStats, int]:
    """One game in C, even with RATSCREW_PURE_PYTHON set (this is the comparison's other side): its
    figures and (when asked, else 0) its event hash. An ImportError says the kernel was not built.

    ``deck`` (tests only) is dealt instead of the seeded shuffle: the rules' whole deck, in dealing order.
    """
    module = importlib.import_module(MODULE)
    packed = config(rules, levels)
    if deck is None:
        return _stats(module.play(packed, seed, want_hash))
    if sorted(map(card_code, deck)) != sorted(map(card_code, rules.deck_for(len(levels)).cards())):
        raise ValueError("the deck must be the rules' whole deck")
    return _stats(module.play(packed, seed, want_hash, bytes(map(card_code, deck))))


def play_python(rules: Rules, levels: Sequence[str], seed: int, *, want_hash: bool = False) -> tuple[GameStats, int]:
    """One game on the Python modules: its figures and (when asked, else 0) its event hash."""
    from ratscrew.lab.simulate import play_one

    if not want_hash:
        return play_one(rules, levels, seed), 0
    h = EventHash()
    stats = play_one(rules, levels, seed, on_event=h.add)
    return stats, h.value


def _stats(row: tuple[int, int, int, int, int, int, int, int, int]) -> tuple[GameStats, int]:
    from ratscrew.lab.simulate import GameStats

    cards, ms, by_slap, by_challenge, wrong, knocked, result, winner, digest = row
    stats = GameStats(
        cards, ms, by_slap, by_challenge, wrong, knocked, _RESULTS[result], None if winner < 0 else winner
    )
    return stats, digest


@dataclass(frozen=True, slots=True)
class Player:
    """Plays the games of one run: ``play(seed)`` gives one game's GameStats. ``kernel`` is "c" or
    "python"; ``fallback`` says why Python plays when the kernel could not."""

    play: Callable[[int], GameStats]
    kernel: str
    fallback: str | None = None


def player(rules: Rules, levels: Sequence[str]) -> Player:
    """The fastest exact way to play these games: the kernel when it covers them, else Python."""
    from ratscrew.lab.simulate import GameStats, play_one

    seats = tuple(levels)

    def python(seed: int) -> GameStats:
        return play_one(rules, seats, seed)

    if kernels.pure_python_forced():
        return Player(python, "python", f"{kernels.PURE_PYTHON_ENV} is set")
    reason = covers(rules, seats)
    module = _module()
    if reason is None and module is None:
        reason = f"{MODULE} is not built"
    if reason is not None:
        return Player(python, "python", reason)
    assert module is not None
    packed = config(rules, seats)
    play = module.play
    results = _RESULTS

    def compiled(seed: int) -> GameStats:
        cards, ms, by_slap, by_challenge, wrong, knocked, result, winner, _ = play(packed, seed, False)
        return GameStats(
            cards, ms, by_slap, by_challenge, wrong, knocked, results[result], None if winner < 0 else winner
        )

    return Player(compiled, "c")
