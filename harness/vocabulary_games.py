"""Random engine games over every preset, for the vocabulary tests: flips plus slaps at random moments."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ratscrew.engine.actions import Flip, Slap, Wait
from ratscrew.engine.events import Event
from ratscrew.engine.game import Game
from ratscrew.record import Record
from ratscrew.rules import PRESETS, Rules

# Option mixes that reach the rarer events: debts passed on, tens that stop, missed slaps, the end by time,
# lockouts, piles given away, slaps dismissed once per card.
MIXES: tuple[dict[str, object], ...] = (
    {},
    {"slapping.penalty": "lockout", "slaps.bigmac": True, "slaps.flush": 3},
    {"slapping.penalty": "lockout-pile", "slaps.wildcard": 10, "slaps.six_nine": True},
    {"slapping.penalty": "give-pile", "slapping.once_per_card": True},
    {
        "slapping.once_per_card": True,
        "slapping.penalty_from": "bottom",
        "slaps.ten": "numbers",
        "slaps.top_bottom_ten": True,
    },
    {"slapping.tie": "split", "slapping.tie_window_ms": 100},
    {"challenge.empty_payer": "next_pays"},
    {"challenge.ten_stops": True},
    {"players.out_when": "missed-slap"},
    {"end.time_limit_s": 30},
    {"end.max_cards": 150},
)


def random_games(count: int, seed: int = 7, max_actions: int = 600) -> Iterator[tuple[Record, list[Event]]]:
    """``count`` games (presets in turn, 2 to 6 seats), each with its record and every event it produced."""
    rng = random.Random(seed)
    names = list(PRESETS)
    for index in range(count):
        rules = Rules.build(names[index % len(names)], MIXES[index % len(MIXES)])
        seats = 2 + index % 5
        game_seed = rng.randrange(1 << 32)
        game = Game.from_seed(rules, seats, game_seed)
        events: list[Event] = []
        t = 0
        for _ in range(max_actions):
            if game.over:
                break
            t += rng.choice((0, 5, 40, 300))
            roll = rng.random()
            if roll < 0.25:
                live = [s for s in range(seats) if not game.out[s]]
                events.extend(game.apply(Slap(rng.choice(live), t, game.cards)))
            elif roll < 0.3:
                events.extend(game.apply(Wait(t)))
            else:
                events.extend(game.apply(Flip(t)))
        yield Record(rules, seats, seed=game_seed, actions=tuple(game.actions)), events
