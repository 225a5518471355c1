#!/usr/bin/env python3
"""How many slap races a quick person wins against each computer level, in-process on virtual time.

The person is scripted: seat 0 of a two-player game, it slaps every pile that shows a pattern exactly 200 ms
after the card that made it landed (``--slapper``), never misses and never slaps wrong, and turns its card
350 ms after it is due. Seat 1 is the computer at each level in turn, driven by the real table
(``ratscrew.table``) with its seeded bots, as in a game against the computer: the person's slap lands when
it is made, and the computer sees each card as it lands. A race is a pile someone took by slapping it; the
person's share is how many of those they took. On a tie to the millisecond the computer's slap counts
first (the table runs its timers before the person's hand). Beside each level: the share on doubles alone
(where a computer reacts at its level's base speed, with no pattern's extra time) and what its reaction
distribution predicts there (the chance it misses a double, or is no quicker than the person).

Hard and Expert are also played as they were before they raced like people (``BEFORE``: medians of about
430 and 290 ms), as the baseline measured in the same run.

Usage: python bench/bot_races.py [--races 4000] [--slapper 200] [--seed 1]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

from ratscrew.bots.bot import Bot
from ratscrew.bots.levels import LEVELS, PATTERN_DIFFICULTY, Level
from ratscrew.bots.reaction import ExGaussian
from ratscrew.bots.registry import resolve
from ratscrew.engine.events import SlapCorrect
from ratscrew.engine.game import Game
from ratscrew.rules import Rules
from ratscrew.shuffle import SeededRandom
from ratscrew.table.clock import VirtualClock
from ratscrew.table.table import SeatSpec, Table, TableEvent

RULES = Rules.build("standard", {"end.max_cards": 3000})
FLIP_MS = 350
BEFORE = {"hard": ExGaussian(360, 45, 90, 150), "expert": ExGaussian(250, 30, 50, 150)}


@dataclass
class Tally:
    races: int = 0
    won: int = 0
    doubles: int = 0
    doubles_won: int = 0
    games: int = 0

    def add(self, event: SlapCorrect) -> None:
        person = event.seat == 0
        self.races += 1
        self.won += person
        if event.matches and event.matches[0].pattern == "double" and len(event.matches) == 1:
            self.doubles += 1
            self.doubles_won += person


def play(level: str, seed: int, tally: Tally, slapper: int, reaction: ExGaussian | None) -> None:
    """One game between the scripted person (seat 0) and the computer at ``level`` (seat 1)."""
    game = Game.from_seed(RULES, 2, seed)
    clock = VirtualClock()
    seats = [SeatSpec("person"), SeatSpec(level, level, match_seat=0 if level == "match" else None)]
    table = Table(game, seats, clock, seed=seed)
    if reaction is not None:  # the level as it was before
        table.bots[1] = Bot(replace(resolve(level), reaction=reaction), SeededRandom(seed + 1))

    def heard(published: TableEvent) -> None:
        if isinstance(published.event, SlapCorrect):
            tally.add(published.event)

    table.listeners.append(heard)
    flip_at: int | None = None
    slap: tuple[int, int] | None = None  # when the person slaps, and the card they react to
    pile = (-1, -1)
    while not game.over:
        now = clock.now()
        if (game.cards, game.tricks) != pile:  # the pile changed: look at it afresh, as a person would
            pile = (game.cards, game.tricks)
            slap = (now + slapper, game.cards) if game.matches() else None
        if game.turn == 0 and game.collect_pending is None:
            flip_at = flip_at if flip_at is not None else now + FLIP_MS
        else:
            flip_at = None
        times = [t for t in (table.next_deadline(), flip_at, slap[0] if slap else None) if t is not None]
        if not times:
            raise RuntimeError("the game is stuck")
        clock.advance_to(max(now, min(times)))
        table.run_due()  # the computer's timers first: a tie to the millisecond is the computer's
        if game.over or (game.cards, game.tricks) != pile:
            continue
        if slap is not None and clock.now() >= slap[0]:
            table.slap(0, card=slap[1])
            slap = None
        elif flip_at is not None and clock.now() >= flip_at:
            table.flip(0)
            flip_at = None
    tally.games += 1


def predicted_on_doubles(level: Level, reaction: ExGaussian, slapper: int) -> float:
    """The person's share of races for a double: the computer misses it, or is no quicker (ties are its)."""
    miss = level.miss * PATTERN_DIFFICULTY["double"][0]
    return miss + (1 - miss) * (1 - reaction.cdf(slapper + 0.5))


def measure(level: str, races: int, slapper: int, seed: int, reaction: ExGaussian | None = None) -> Tally:
    tally = Tally()
    game_seed = seed
    while tally.races < races:
        play(level, game_seed, tally, slapper, reaction)
        game_seed += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=4000, help="races per level, at least (default 4000)")
    parser.add_argument("--slapper", type=int, default=200, help="the person's reaction, ms (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"A scripted person slapping {args.slapper} ms after each pattern, never missing, against each level:")
    print(f"{'level':<16} {'games':>6} {'races':>6} {'person wins':>12} {'on doubles':>18} {'predicted':>10}")
    rows: list[tuple[str, str, ExGaussian | None]] = [(name, name, None) for name in (*LEVELS, "match")]
    rows += [(f"{name} (before)", name, old) for name, old in BEFORE.items()]
    for label, name, old in rows:
        tally = measure(name, args.races, args.slapper, args.seed, old)
        level = resolve(name)
        reaction = old or level.reaction
        share = tally.won / tally.races
        doubles = f"{tally.doubles_won / tally.doubles:6.1%} of {tally.doubles:>5}" if tally.doubles else "-"
        guess = (
            f"{predicted_on_doubles(level, reaction, args.slapper):.1%}" if isinstance(reaction, ExGaussian) else "-"
        )
        if name == "match":
            guess = "-"  # its reaction is fitted to the person's as the game goes
        print(f"{label:<16} {tally.games:>6} {tally.races:>6} {share:>12.1%} {doubles:>18} {guess:>10}")


if __name__ == "__main__":
    main()
