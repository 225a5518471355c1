"""The real-time table: turns timed inputs into engine actions, and runs the computer players.

The engine says what a slap means; the table decides when things happen. It owns one game and a queue
of timers: a bot's flip, a bot's slap, the end of the pause after a won challenge, the end of a tie window,
the time limit, and inputs held back for fair ordering. It never sleeps and never reads a clock of its own:
the clock is injected, and whoever drives the table (the lab on virtual time, the server on the event
loop) asks ``next_deadline()`` and calls ``run_due()`` when that time comes.

Fairness:
- Every card turned has a number (the engine's ``cards`` count). A slap names the card it reacts to, so a
  slap meant for a pile that has since been won is dismissed without penalty.
- Everything is applied in landing order, whatever order it arrived in. With ``hold_ms`` > 0 (online play)
  the table runs that far behind the clock: a person's input, a computer's flip or slap, the end of the
  pause after a won challenge and the end of a tie window are all applied ``hold_ms`` after the moment they
  landed, so a slap from a slower connection that landed first (its landing time is credited by the room)
  is still judged first, and judged against the pile its player saw, not against a card that covered it a
  moment later on the server.
- A computer sees a card ``sight_ms`` after it landed (online: when the pages are sent it, the hold later,
  or as late as the one person at the table sees it), and its flips and slaps count from then: a person's
  slap is credited back to no earlier than the moment their page was sent the card, so both race from the
  same moment. The lab's tables see at once.
- A bot's planned slap is cancelled the moment the pile changes under it.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from ratscrew.bots.bot import Bot, Sight, demands_by_rank
from ratscrew.bots.levels import LEVELS, Level
from ratscrew.bots.reaction import ExGaussian
from ratscrew.bots.registry import resolve
from ratscrew.engine.actions import Action, Flip, Millis, Seat, Slap, Wait
from ratscrew.engine.events import CardTurned, ChallengeWon, Event, SlapCorrect, WrongSlap
from ratscrew.engine.game import Game
from ratscrew.shuffle import SeededRandom
from ratscrew.table.clock import Clock, VirtualClock
from ratscrew.table.seen import SlapSeen, slap_seen

MATCH = "match"
MIN_MATCH_SAMPLES = 5


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: a person, or a computer at a level (``match`` plays at a person's speed)."""

    name: str
    bot: str | None = None  # a level name, "match", or None for a person
    match_seat: Seat | None = None  # whose speed a "match" bot copies


@dataclass(frozen=True, slots=True)
class TableConfig:
    hold_ms: int = 0  # how far behind the clock the table runs, so inputs apply in landing order (online play)
    bot_pace: float = 1.0  # multiplies the computer players' flip delays (0.5: twice as brisk)
    sight_ms: int = 0  # how long after a card lands the computers see it (online: at least the hold)


@dataclass(frozen=True, slots=True)
class TableEvent:
    """An engine event as published: numbered in order, with the table time it happened; a wrong slap also
    with the pile it landed on and the one its player saw (``seen``)."""

    seq: int
    t: Millis
    event: Event
    seen: SlapSeen | None = None


class RejectCode(StrEnum):
    """Why an input was not taken."""

    GAME_OVER = "game_over"
    WAITING = "waiting"  # a won pile is about to be collected: nobody flips until it moves
    NOT_YOUR_TURN = "not_your_turn"
    CANNOT_SLAP = "cannot_slap"  # the seat is out, or does not exist
    NOT_YOURS = "not_yours"  # the seat belongs to someone else (answered by the server, never the table)


class TimerKind(StrEnum):
    """What a timer of the table does when it fires."""

    FLIP = "flip"  # a computer turns its card
    BOT_SLAP = "bot_slap"  # a computer's planned slap lands
    INPUT = "input"  # a held input is applied at its landing time
    COLLECT = "collect"  # the pause after a won challenge is over
    SPLIT_CLOSE = "split_close"  # the window for sharing a split pile is over
    TIME_LIMIT = "time_limit"  # end.time_limit_s is reached


@dataclass(frozen=True, slots=True)
class Rejected:
    """An input the table would not take: a code for programs, words for people, the seat the words name
    (whose turn it is, who is about to collect), and the seat whose input it was."""

    code: RejectCode
    reason: str
    seat: Seat | None
    by: Seat


class _Timer(NamedTuple):
    """A timer is a plain tuple, so the heap orders timers by comparing tuples in C: by landing time, then by
    the order they were set in (never repeated, so nothing after it is ever compared). A cancelled timer stays
    in the heap, its order number in ``Table._cancelled``, until it reaches the top and is dropped."""

    at: Millis
    order: int
    kind: TimerKind
    seat: Seat = -1
    card: int = 0  # the card a computer's slap reacts to
    action: Action | None = None  # a held input
    pile: tuple[int, int] = (0, 0)  # (cards, tricks) when a pile timer was set


_new_timer = tuple.__new__


class Table:
    def __init__(
        self,
        game: Game,
        seats: Sequence[SeatSpec],
        clock: Clock,
        *,
        seed: int = 0,
        config: TableConfig | None = None,
        reactions: dict[Seat, list[Millis]] | None = None,
        history: Sequence[TableEvent] = (),
    ) -> None:
        if len(seats) != game.players:
            raise ValueError(f"the table has {len(seats)} seats but the game has {game.players} players")
        self.game = game
        self.seats = tuple(seats)
        self._match_seats = frozenset(seat for seat, spec in enumerate(self.seats) if _plays_match(spec))
        self.clock = clock
        self.config = config or TableConfig()
        self.hold_ms = self.config.hold_ms  # the room may change it as it measures its players' delays
        self.sight_ms = self.config.sight_ms  # and this with it
        # Every event of the game, numbered; a game resumed from its journal (``replay``) starts with the
        # events its actions had.
        self.log: list[TableEvent] = list(history)
        self.listeners: list[Callable[[TableEvent], None]] = []
        # The table's one way of saying no: an input refused when it arrives, or one taken then but no longer
        # possible when its landing time came (online play, where inputs are held).
        self.refusals: list[Callable[[Rejected], None]] = []
        self.card_times: dict[int, Millis] = {}  # when each card was seen: ``sight_ms`` after it landed
        # Reaction times of correct slaps, per seat; a person's carry over from earlier games at the same
        # table (``reactions``), so a "match" computer knows their speed from the first card.
        self.reactions: dict[Seat, list[Millis]] = {s: list((reactions or {}).get(s, [])) for s in range(game.players)}
        self._timers: list[_Timer] = []
        self._cancelled: set[int] = set()  # order numbers of timers cancelled but still in the heap
        self._order = itertools.count()
        self._flip_timer: _Timer | None = None
        self._bot_slaps: list[_Timer] = []
        self._last_t: Millis = game.now
        rng = SeededRandom(seed)
        self.bots: dict[Seat, Bot] = {}
        for seat, spec in enumerate(self.seats):
            if spec.bot is not None:
                self.bots[seat] = Bot(self._level_for(spec), SeededRandom(rng.next_u64()))
        self._burned_in_patterns = bool(game.rules.slaps.burned_count)  # burning a card then changes the pile
        self._demands = demands_by_rank(game.rules)
        self._pile_key = self._current_pile_key()
        limit = game.rules.end.time_limit_s
        if limit:
            self._schedule(limit * 1000 + 1, TimerKind.TIME_LIMIT)
        if game.collect_pending is not None:
            # A game resumed in its collect window (after a restart): the window starts again in full.
            self._schedule(game.now + game.rules.slapping.collect_delay_ms, TimerKind.COLLECT)
        self._plan_flip(game.now)
        self._plan_bot_slaps(game.now)

    # ------------------------------------------------------------------ inputs from people

    def flip(self, seat: Seat) -> None:
        """A person at ``seat`` turns their card now (or is refused, through ``refusals``)."""
        game = self.game
        if game.over:
            self._refuse(Rejected(RejectCode.GAME_OVER, "the game is over", None, seat))
        elif game.collect_pending is not None:
            pending = game.collect_pending
            self._refuse(Rejected(RejectCode.WAITING, "the pile is still waiting to be collected", pending, seat))
        elif seat != game.turn:
            reason = f"it is seat {game.turn}'s turn, not seat {seat}'s"
            self._refuse(Rejected(RejectCode.NOT_YOUR_TURN, reason, game.turn, seat))
        else:
            self._input(Flip(), self.clock.now(), seat)

    def slap(self, seat: Seat, *, card: int | None = None, landed: Millis | None = None) -> None:
        """A slap by ``seat`` that landed at ``landed`` (default now), reacting to card number ``card`` (or
        refused, through ``refusals``)."""
        game = self.game
        if game.over:
            self._refuse(Rejected(RejectCode.GAME_OVER, "the game is over", None, seat))
        elif not 0 <= seat < game.players or game.out[seat]:
            reason = f"seat {seat} cannot slap (it is out or does not exist)"
            self._refuse(Rejected(RejectCode.CANNOT_SLAP, reason, seat, seat))
        else:
            now = self.clock.now()
            landed = now if landed is None else max(min(landed, now), now - self.hold_ms)
            # No card named: the slap is on whatever the pile shows when it lands (an empty pile too: a slap on
            # nothing is a wrong slap, not one that came too late for the pile won before it).
            card = None if card is None else max(0, min(card, game.cards))
            self._input(Slap(seat, card=card), landed, seat)

    def _refuse(self, rejected: Rejected) -> None:
        for listener in self.refusals:
            listener(rejected)

    def _input(self, action: Action, landed: Millis, seat: Seat) -> None:
        # Nothing already applied can be overtaken: a landing time before the last applied one moves up to it.
        landed = max(landed, self._last_t)
        if self.hold_ms <= 0:
            self._apply(action, landed)
        else:
            self._schedule(landed, TimerKind.INPUT, seat=seat, action=action)

    def set_standin(self, seat: Seat, level: str | None) -> None:
        """A computer at ``level`` plays ``seat`` until called again with None (a person who dropped out)."""
        if level is None:
            if self.seats[seat].bot is None:
                self.bots.pop(seat, None)
        elif seat not in self.bots:
            self.bots[seat] = Bot(self._level_for(SeatSpec(self.seats[seat].name, level)), SeededRandom(seat + 1))
        self._plan_flip(max(self.clock.now() - self.hold_ms, self._last_t))

    # ------------------------------------------------------------------ time

    def next_deadline(self) -> Millis | None:
        """When ``run_due`` next has something to do: the earliest timer's landing time plus the hold."""
        timers, cancelled = self._timers, self._cancelled
        while timers and timers[0].order in cancelled:
            cancelled.discard(heapq.heappop(timers).order)
        return timers[0].at + self.hold_ms if timers and self.game.outcome is None else None

    def run_due(self) -> None:
        """Fire every timer due at or before the clock's time, in order."""
        now = self.clock.now()
        game, timers, cancelled = self.game, self._timers, self._cancelled
        while timers and game.outcome is None:
            timer = timers[0]
            if timer.order in cancelled:
                cancelled.discard(heapq.heappop(timers).order)
            elif timer.at + self.hold_ms > now:
                return
            else:
                heapq.heappop(timers)
                self._fire(timer)

    def _drive_virtual(self, clock: VirtualClock, max_steps: int) -> None:
        """``run_virtual``'s loop: move the clock to the next deadline and run what is due, until the end.

        It is ``next_deadline`` and ``run_due`` in one place, since the lab runs it for every action.
        """
        game, timers, cancelled = self.game, self._timers, self._cancelled
        for _ in range(max_steps):
            if game.outcome is not None:
                return
            while timers and timers[0].order in cancelled:
                cancelled.discard(heapq.heappop(timers).order)
            if not timers:
                raise RuntimeError("the table is stuck: nothing is scheduled and the game is not over")
            deadline = timers[0].at + self.hold_ms
            if deadline > clock.now():
                clock.advance_to(deadline)
            self.run_due()
        raise RuntimeError(f"the game did not end within {max_steps} steps")

    def _fire(self, timer: _Timer) -> None:
        game = self.game
        at, _order, kind, seat, card, action, pile = timer
        if kind is TimerKind.FLIP:
            self._flip_timer = None
            if game.turn == seat and game.collect_pending is None:
                self._apply(Flip(at), at)
        elif kind is TimerKind.BOT_SLAP:
            self._bot_slaps.remove(timer)
            if not game.out[seat]:
                self._apply(Slap(seat, at, card), at)
        elif kind is TimerKind.INPUT:
            assert action is not None
            if isinstance(action, Flip) and (game.collect_pending is not None or game.turn != seat):
                reason = "the pile was waiting to be collected" if game.collect_pending is not None else "turn passed"
                self._refuse(Rejected(RejectCode.NOT_YOUR_TURN, f"flip not played: {reason}", seat, seat))
                return
            if isinstance(action, Slap) and game.out[action.seat]:
                self._refuse(Rejected(RejectCode.CANNOT_SLAP, "slap not played: out of the game", seat, seat))
                return
            self._apply(action, at)  # at the moment it landed
        elif kind is TimerKind.TIME_LIMIT:
            self._apply(Wait(at), at)
        elif game.collect_pending is not None and pile == (game.cards, game.tricks):
            # The pause after a won challenge, or a tie window, is over: time passes with nobody slapping.
            # A timer for a pile that has since been taken some other way is stale and does nothing.
            self._apply(Wait(at), at)

    def _schedule(
        self, at: Millis, kind: TimerKind, seat: Seat = -1, card: int = 0, action: Action | None = None
    ) -> _Timer:
        game = self.game
        # tuple.__new__ makes the named tuple without the Python-level constructor a NamedTuple adds.
        timer = _new_timer(_Timer, (at, next(self._order), kind, seat, card, action, (game.cards, game.tricks)))
        heapq.heappush(self._timers, timer)
        return timer

    # ------------------------------------------------------------------ applying and reacting

    def _apply(self, action: Action, t: Millis) -> None:
        # The lab runs this once per action of every game, so it reads the state through plain attributes.
        if t < self._last_t:
            t = self._last_t
        self._last_t = t
        game = self.game
        if action.t != t:  # the action happens at the table's time (timers make theirs with it already)
            kind = type(action)
            if kind is Flip:
                action = Flip(t)
            elif kind is Wait:
                action = Wait(t)
            else:
                assert isinstance(action, Slap)
                action = Slap(action.seat, t, action.card)
        landed_on = slap_seen(game, action.card) if type(action) is Slap else None
        for event in game.apply(action):
            self._publish(t, event, landed_on if type(event) is WrongSlap else None)
            if isinstance(event, CardTurned):
                self.card_times[event.number] = t + self.sight_ms
            elif isinstance(event, SlapCorrect):
                if isinstance(action, Slap) and action.card is not None:
                    seen = self.card_times.get(action.card)
                    if seen is not None:
                        self.reactions[event.seat].append(max(0, t - seen))
                if game.rules.slapping.tie == "split" and game.collect_pending == event.seat:
                    self._schedule(t + game.rules.slapping.tie_window_ms, TimerKind.SPLIT_CLOSE)
            elif isinstance(event, ChallengeWon):
                self._schedule(t + game.rules.slapping.collect_delay_ms, TimerKind.COLLECT)
        if game.outcome is not None:
            return
        key = (game.cards, game.tricks, len(game.burned) if self._burned_in_patterns else 0)
        if key != self._pile_key:
            self._pile_key = key
            if self._bot_slaps:
                self._cancel_bot_slaps()
            self._plan_bot_slaps(t)
        self._plan_flip(t)

    def _publish(self, t: Millis, event: Event, seen: SlapSeen | None = None) -> None:
        published = TableEvent(len(self.log), t, event, seen)
        self.log.append(published)
        for listener in self.listeners:
            listener(published)

    def _current_pile_key(self) -> tuple[int, int, int]:
        game = self.game
        return game.cards, game.tricks, len(game.burned) if self._burned_in_patterns else 0

    def _cancel_bot_slaps(self) -> None:
        for timer in self._bot_slaps:
            self._cancelled.add(timer.order)
        self._bot_slaps.clear()

    def _plan_bot_slaps(self, t: Millis) -> None:
        if not self.bots:
            return
        game = self.game
        sight = Sight.at(game, self._demands)  # the public facts only, without copying a View for every card
        match_seats = self._match_seats
        seen = t + self.sight_ms
        for seat, bot in self.bots.items():
            if match_seats and seat in match_seats:
                bot.level = self._level_for(self.seats[seat])
            plan = bot.react(sight, seat)
            if plan is not None:
                self._bot_slaps.append(self._schedule(seen + plan.delay, TimerKind.BOT_SLAP, seat, game.cards))

    def _plan_flip(self, t: Millis) -> None:
        """Schedule the due seat's flip if a computer turns it."""
        game = self.game
        due = game.turn
        flip_timer = self._flip_timer
        if flip_timer is not None:
            if flip_timer.seat == due and game.collect_pending is None:
                return
            self._cancelled.add(flip_timer.order)
            self._flip_timer = None
        if game.outcome is not None or game.collect_pending is not None:
            return
        bot = self.bots.get(due)
        if bot is None:
            return
        delay = int(bot.flip_delay() * self.config.bot_pace)
        self._flip_timer = self._schedule(t + self.sight_ms + delay, TimerKind.FLIP, due)

    def _level_for(self, spec: SeatSpec) -> Level:
        """The seat's computer player from the one registry (``LEVEL`` or ``LEVEL:STRATEGY``); ``match``
        plays at Medium's speed until its person has slapped often enough to be measured."""
        assert spec.bot is not None
        level = resolve(spec.bot)
        if level.name.partition(":")[0] != MATCH:
            return level
        medium = LEVELS["medium"]
        samples = self.reactions.get(spec.match_seat, []) if spec.match_seat is not None else []
        if len(samples) < MIN_MATCH_SAMPLES:
            return replace(medium, strategy=level.strategy)
        fitted = ExGaussian.fit(samples[-50:], floor=120.0)
        summary = "plays at a person's own speed"
        return Level(MATCH, fitted, medium.miss, medium.wrong, medium.flip, summary, level.strategy)


def _plays_match(spec: SeatSpec) -> bool:
    """A ``match`` computer (with or without a strategy), whose speed follows its person's."""
    return spec.bot is not None and spec.bot.strip().lower().partition(":")[0] == MATCH


def replay(game: Game, actions: Iterable[Action]) -> list[TableEvent]:
    """Apply a journal's actions to the game they were played in, from its deal: the events they had, as a
    table numbers them, for a ``Table`` that takes the game over from there (``history``)."""
    log: list[TableEvent] = []
    for action in actions:
        landed_on = slap_seen(game, action.card) if type(action) is Slap else None
        for event in game.apply(action):
            log.append(TableEvent(len(log), game.now, event, landed_on if type(event) is WrongSlap else None))
    return log


def run_virtual(table: Table, clock: Clock, *, max_steps: int = 10_000_000) -> None:
    """Drive a table on virtual time until the game ends (every seat must be a computer)."""
    assert isinstance(clock, VirtualClock)
    table._drive_virtual(clock, max_steps)
