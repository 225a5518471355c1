"""Computer-player levels: how fast they react, how often they miss, how rarely they slap wrong.

Reasoning behind the numbers (see also reaction.py for the shape of the distribution):

- A simple visual reaction takes a healthy adult about 200-250 ms on average; recognising *which* of a few
  patterns is showing and moving a hand to the pile is a choice reaction, roughly 350-600 ms with a long
  slow tail, unless the player has played enough to see a double as fast as a flash. Hard and Expert race
  like such quick people: on a double, a median of about 250 ms (Hard) and 190 ms (Expert), spread as a
  person's are (an ex-Gaussian: a tight bulk, a tail of slower slaps, never under 150 and 130 ms). So a
  fast person wins some races against either and loses some; ``bench/bot_races.py`` counts how many a
  scripted 200 ms slapper wins against each level. Medium is a regular player (mean about 650 ms), Easy a
  relaxed family player (mean about 1 s).
- Some patterns take longer to see and are missed more often. Two equal cards side by side are the
  easiest; a sandwich hides its pair behind another card and is the slap players miss most (the rule
  pages this project grew from say so in as many words), and patterns that need arithmetic (tens) or a look
  at the bottom of the pile (top-bottom) cost more still. Each pattern gets a miss multiplier and an extra
  reaction delay. A wildcard rank is one card to recognise, like a joker but with a rank to read; six-nine
  is a fixed pair, like a marriage; a flush is seen at a glance when the colours agree and then the suits
  must be checked; a Big Mac hides its pair behind two cards, so it is missed more than a sandwich; a
  top-bottom ten needs both the bottom card and a sum, the hardest of all.
- During a long challenge (a King or an Ace being paid) players count cards and stop watching the pile,
  so every miss chance grows by half.
- Wrong slaps are impulsive: a rare slap on a card that shows nothing, a few times likelier when the
  pile nearly shows something (a rank next to the one below, a King beside a Jack). Only Easy and Medium
  make them.
- The lab's ideal players (``LAB_LEVELS``) are no people: ``perfect`` never misses and never slaps wrong,
  reacting in a fixed 150 ms (the limit of a human's simple visual reaction, and quicker than any level's
  fastest flip, so no card ever covers a pattern before it slaps); ``instant`` is the same with no delay
  at all, so it wins every race it joins. Both turn cards at Expert's pace.
"""

from __future__ import annotations

from dataclasses import dataclass

from ratscrew.bots.reaction import ExGaussian, FixedTime, Reaction
from ratscrew.bots.strategy import Strategy


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    reaction: Reaction  # time from a card landing to the slap landing
    miss: float  # chance of not noticing a double (the easiest pattern)
    wrong: float  # chance of an impulsive slap on a card that shows no pattern
    flip: ExGaussian  # time from being due to turning the card
    summary: str = ""
    strategy: Strategy | None = None  # decides whether to slap instead of miss and wrong (strategy.py)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            ExGaussian(700, 90, 300, 180),
            miss=0.30,
            wrong=0.005,
            flip=ExGaussian(650, 100, 300, 250),
            summary="a relaxed player: about 1 s to slap, misses often",
        ),
        Level(
            "medium",
            ExGaussian(480, 70, 170, 160),
            miss=0.12,
            wrong=0.002,
            flip=ExGaussian(500, 80, 200, 220),
            summary="a regular player: about 650 ms, misses now and then",
        ),
        Level(
            "hard",
            ExGaussian(210, 28, 55, 150),  # median 253 ms, 90% between 188 and 383 ms
            miss=0.04,
            wrong=0.0,
            flip=ExGaussian(400, 60, 130, 200),
            summary="a sharp player: about 250 ms, rarely misses",
        ),
        Level(
            "expert",
            ExGaussian(160, 20, 40, 130),  # median 192 ms, 90% between 145 and 285 ms
            miss=0.01,
            wrong=0.0,
            flip=ExGaussian(330, 40, 90, 180),
            summary="as quick as the quickest people: about 190 ms",
        ),
    )
}

_EXPERT = LEVELS["expert"]
# Ideal players for the lab only (the browser offers LEVELS); the registry looks both up.
LAB_LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "perfect",
            FixedTime(150),
            miss=0.0,
            wrong=0.0,
            flip=_EXPERT.flip,
            summary="never misses, never slaps wrong, always 150 ms",
        ),
        Level(
            "instant",
            FixedTime(0),
            miss=0.0,
            wrong=0.0,
            flip=_EXPERT.flip,
            summary="perfect with no delay: wins every race it joins",
        ),
    )
}

# Per pattern: (miss multiplier, extra milliseconds to recognise it).
PATTERN_DIFFICULTY: dict[str, tuple[float, float]] = {
    "double": (1.0, 0.0),
    "joker": (0.5, -30.0),
    "marriage": (1.4, 40.0),
    "sandwich": (2.2, 90.0),
    "divorce": (2.2, 110.0),
    "run": (1.8, 110.0),
    "ten": (1.8, 120.0),
    "ten_gap": (2.6, 160.0),
    "top_bottom": (2.0, 120.0),
    "bigmac": (2.8, 130.0),
    "flush": (1.8, 100.0),
    "wildcard": (0.7, 0.0),
    "six_nine": (1.4, 50.0),
    "top_bottom_ten": (3.0, 180.0),
}
LONG_CHALLENGE_MISS = 1.5
NEAR_MISS_WRONG = 3.0
