"""The compiled game kernel for ``ratscrew simulate``: when it may play, how it is fed, and how it is checked.

``ratscrew._ers_fast`` (``src/ratscrew/_ers_fast.c``) plays one complete game between computer players on
virtual time, the engine, the table and the bots together, and gives the same per-game figures as
:func:`ratscrew.lab.game.play_one` for the same rules, seats and seed. It is a port, so it only plays
what it was ported for: :func:`covers` names what it does not cover, and such a game is played by the
Python modules, which stay the reference. ``RATSCREW_PURE_PYTHON=1`` forces Python (see kernels.py).

The two sides agree by name, not by position: the kernel exports the fields it reads (``CONFIG_FIELDS``,
``SEAT_FIELDS``), the rules values it plays (``RULE_VALUES``) and its enums (``ENUMS``); :func:`config` packs
by those names and :func:`kernel_mismatch` compares the enums with the engine's, so a field or a value one
side lacks is named rather than misread.

Identity is checked game by game in tests/lab/test_ers_kernel.py, on the figures and on :func:`event_hash`,
a hash of everything the table published.
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType

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
from ratscrew.lab.game import GameStats, play_one
from ratscrew.lab.kernel_header import COMMAND as HEADER_COMMAND
from ratscrew.patterns import PATTERN_KEYS
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.rules.options import OPTIONS, OPTIONS_BY_KEY, Value, needs_met
from ratscrew.table.table import TableEvent

MODULE = "ratscrew._ers_fast"
_REBUILD = f"run `{HEADER_COMMAND}` and rebuild it (scripts/setup-env)"
# The levels whose every draw the kernel makes as the Python bot does. ``match`` plays at Medium's speed
# in the lab: its person is another computer, never measured, so its reaction fit is Medium's, fixed.
COVERED_LEVELS = frozenset({"easy", "medium", "hard", "expert", "perfect", "instant", "match"})
_RESULTS = tuple(r.value for r in Result)  # the kernel's result codes are places in Result
# The enums the kernel numbers events and results by: each must list the same values in the same order.
_ENUMS: dict[str, tuple[str, ...]] = {
    cls.__name__: tuple(m.value for m in cls)
    for cls in (EventKind, ChallengeWin, StopReason, DismissReason, WonBy, OutReason, Result, Ending, Suit)
} | {"patterns": PATTERN_KEYS}


# What ``_ers_fast.play`` returns for one game, by name (the kernel exports the same tuple as ROW_FIELDS).
ROW_FIELDS = (
    "cards",
    "ms",
    "piles_by_slap",
    "piles_by_challenge",
    "wrong_slaps",
    "out_by_wrong_slap",
    "result",
    "winner",
    "event_hash",
    "tricks",
    "seat_slap_piles",
    "seat_challenge_piles",
    "seat_wrong_slaps",
)
KernelRow = tuple[int, int, int, int, int, int, int, int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class KernelMismatch(RuntimeError):
    """The compiled kernel was built from other sources than these modules: a field, a value or an order
    differs, so its numbers cannot be read. Regenerate its lists and rebuild it (``python -m
    ratscrew.lab.kernel_header``, then ``scripts/setup-env``)."""


def covers(rules: Rules, levels: Sequence[str]) -> str | None:
    """None when the kernel plays these rules and seats exactly, else a short reason naming what it lacks.

    Every rules key is checked against the values the kernel declares it plays (``RULE_VALUES``), so a key or
    a value added to the rules that the kernel was not taught sends the games to Python, saying which.
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
    try:
        module = importlib.import_module(MODULE)
    except ImportError:
        return f"{MODULE} is not built"
    mismatch = kernel_mismatch(module)
    if mismatch is not None:
        return mismatch
    for opt in OPTIONS:
        accepted = module.RULE_VALUES.get(opt.key)
        if accepted is None:
            return f"rules key {opt.key} (the kernel does not know it)"
        if _code(rules.get(opt.key), accepted) is None:
            return f"{opt.key} = {_text(rules.get(opt.key))} (the kernel does not play it)"
    return None


def kernel_mismatch(module: ModuleType) -> str | None:
    """What differs between the compiled kernel's lists and these modules' (None when nothing does)."""
    row = getattr(module, "ROW_FIELDS", None)
    if row != ROW_FIELDS:
        return f"{MODULE} returns {row} for a game, these modules read {ROW_FIELDS}: {_REBUILD}"
    enums: dict[str, tuple[str, ...]] = module.ENUMS
    for name, values in _ENUMS.items():
        if enums.get(name) != values:
            return f"{MODULE} numbers {name} as {enums.get(name)}, these modules as {values}: {_REBUILD}"
    missing = [key for key in module.RULE_VALUES if key not in OPTIONS_BY_KEY]
    if missing:
        return f"{MODULE} plays rules key {missing[0]}, which these modules do not know: {_REBUILD}"
    return None


# ---------------------------------------------------------------------- feeding the kernel


def _text(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _code(value: Value, accepted: tuple[int, int] | tuple[str, ...]) -> float | None:
    """A rules value as the kernel's number, or None when the kernel does not play it: a number in the range
    it declares, or a choice's place in its list (the number itself when every choice is a number)."""
    if len(accepted) == 2 and isinstance(accepted[0], int) and isinstance(accepted[1], int):
        low, high = accepted[0], accepted[1]
        number = int(value) if isinstance(value, bool | int) else None
        return None if number is None or not low <= number <= high else float(number)
    text = _text(value)
    if text not in accepted:
        return None
    return float(value) if all(str(a).isdigit() for a in accepted) else float(accepted.index(text))


def _packed(named: dict[str, float], names: Sequence[str], what: str) -> list[float]:
    """``named`` in the kernel's order of ``names``; a name either side lacks is a KernelMismatch."""
    missing = [n for n in names if n not in named]
    if missing:
        raise KernelMismatch(f"{MODULE} reads {what} field {missing[0]!r}, which these modules do not send: {_REBUILD}")
    extra = [n for n in named if n not in names]
    if extra:
        raise KernelMismatch(f"these modules send {what} field {extra[0]!r}, which {MODULE} does not read: {_REBUILD}")
    return [named[n] for n in names]


def config(rules: Rules, levels: Sequence[str | Level], bot_pace: float = 1.0) -> bytes:
    """The rules and seats as the packed doubles ``_ers_fast.play`` reads, field by field in the order the
    kernel lists them (``CONFIG_FIELDS``, ``SEAT_FIELDS``). Only meaningful when :func:`covers` says None.

    A seat is a level's name or a :class:`Level` itself: a made-up player with its own reaction times (the
    ladder's simulated players, ``harness/ladder.py``), played as a Python bot of that level would play."""
    module = importlib.import_module(MODULE)
    mismatch = kernel_mismatch(module)
    if mismatch is not None:
        raise KernelMismatch(mismatch)
    named: dict[str, float] = {}
    in_force = _in_force(rules)
    for key, accepted in module.RULE_VALUES.items():
        code = _code(in_force[key], accepted)
        if code is None:
            raise KernelMismatch(f"{MODULE} does not play {key} = {_text(rules.get(key))}: ask covers() first")
        named[key] = code
    named |= {
        "players": len(levels),
        "bot_pace": bot_pace,
        "long_challenge_miss": LONG_CHALLENGE_MISS,
        "near_miss_wrong": NEAR_MISS_WRONG,
    }
    for key in PATTERN_KEYS:
        named[f"miss.{key}"], named[f"extra.{key}"] = PATTERN_DIFFICULTY[key]
    values = _packed(named, module.CONFIG_FIELDS, "configuration")
    for seat in levels:
        values += _packed(_seat(seat if isinstance(seat, Level) else resolve(seat)), module.SEAT_FIELDS, "seat")
    return struct.pack(f"<{len(values)}d", *values)


def _in_force(rules: Rules) -> dict[str, Value]:
    """Every key's value, with a key that cannot apply (its ``needs`` unmet, any value accepted) at its default:
    the engine leaves such a value unused, and so the kernel must be given nothing it would act on."""
    values = rules.values()
    for opt in OPTIONS:
        if opt.needs is not None and opt.needs.off is None and not needs_met(opt, values):
            values[opt.key] = opt.default
    return values


def _seat(level: Level) -> dict[str, float]:
    reaction, flip, strategy = level.reaction, level.flip, level.strategy
    assert isinstance(flip, ExGaussian)
    seat: dict[str, float] = {"reaction_fixed": 0.0, "mu": 0.0, "sigma": 0.0, "tau": 0.0, "floor": 0.0}
    if isinstance(reaction, FixedTime):
        seat |= {"reaction_fixed": 1.0, "fixed_ms": reaction.ms}
    else:
        seat |= {"mu": reaction.mu, "sigma": reaction.sigma, "tau": reaction.tau, "floor": reaction.floor}
        seat["fixed_ms"] = 0.0
    seat |= {"miss": level.miss, "wrong": level.wrong}
    seat |= {"flip_mu": flip.mu, "flip_sigma": flip.sigma, "flip_tau": flip.tau, "flip_floor": flip.floor}
    if strategy is None:
        seat |= {"strategy": 0.0, "courts": 0.0, "min_cards": 0.0}
    elif strategy.min_cards:
        seat |= {"strategy": 2.0, "courts": 0.0, "min_cards": strategy.min_cards}
    else:
        seat |= {"strategy": 1.0, "courts": sum(1 << int(rank) for rank in strategy.courts), "min_cards": 0.0}
    return seat


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
    rules: Rules,
    levels: Sequence[str | Level],
    seed: int,
    *,
    want_hash: bool = False,
    deck: Sequence[Card] | None = None,
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
    if not want_hash:
        return play_one(rules, levels, seed), 0
    h = EventHash()
    stats = play_one(rules, levels, seed, on_event=h.add)
    return stats, h.value


def _stats(row: KernelRow) -> tuple[GameStats, int]:
    cards, ms, by_slap, by_challenge, wrong, knocked, result, winner, digest, tricks, slaps, challenges, wrongs = row
    stats = GameStats(
        cards,
        ms,
        by_slap,
        by_challenge,
        wrong,
        knocked,
        _RESULTS[result],
        None if winner < 0 else winner,
        tricks,
        slaps,
        challenges,
        wrongs,
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
    seats = tuple(levels)

    def python(seed: int) -> GameStats:
        return play_one(rules, seats, seed)

    if kernels.pure_python_forced():
        return Player(python, "python", f"{kernels.PURE_PYTHON_ENV} is set")
    reason = covers(rules, seats)
    module = _module()
    if reason is not None or module is None:
        return Player(python, "python", reason or f"{MODULE} is not built")
    packed = config(rules, seats)
    play = module.play
    results = _RESULTS

    def compiled(seed: int) -> GameStats:
        cards, ms, slap, challenge, wrong, knocked, result, winner, _, tricks, slaps, challenges, wrongs = play(
            packed, seed, False
        )
        return GameStats(
            cards,
            ms,
            slap,
            challenge,
            wrong,
            knocked,
            results[result],
            None if winner < 0 else winner,
            tricks,
            slaps,
            challenges,
            wrongs,
        )

    return Player(compiled, "c")
