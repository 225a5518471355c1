"""Ratings: OpenSkill's Plackett-Luce model, one rating per size class, moved by each game's finishing places.

A rating is a belief about a player's skill: ``mu`` its centre and ``sigma`` how unsure it still is. Everyone
starts at OpenSkill's defaults (25 and 25/3); each rated game moves ``mu`` towards what the places say and
shrinks ``sigma``, and the model's small dynamics term (``tau``) keeps ``sigma`` from reaching zero, so an
old rating can still follow a player who improves.

People see one number: the conservative estimate ``mu - 3 sigma`` (the skill the player very likely has at
least), scaled so that an average player (``mu`` 25) shows 1500 the moment they stop being provisional:

    shown = 1500 + 40 * (mu - 3 sigma - 10)

A newcomer shows 1100 and climbs as their ``sigma`` falls, even through a few lost games. 40 points to a unit
of ``mu`` makes gaps read about as chess ratings do between settled players (``sigma`` near 2.5): the higher
wins about 64 games in 100 across 100 points and 90 in 100 across 400 (OpenSkill's ``predict_win``).

A rating is provisional while ``sigma`` is 5 or more (it starts at 8.33): about 20 two-player games in a
ladder where everyone is new (tests/ladder/test_ladder_sim.py), about 12 against settled players. Tables of three or
four teach less about each player: about 30 games when the places are told apart, 40 when only the winner is
(the standard rules, where those left with nothing tie). By then the conservative estimate has climbed most
of its way, and the simulated ladder's order agrees with the players' hidden skill.

>>> new = Rating()
>>> new.shown, new.provisional
(1100, True)
>>> after = rate({1: new, 2: new}, [(1, 1), (2, 2)])
>>> after[1].mu > 25 > after[2].mu
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from openskill.models import PlackettLuce

from ratscrew.errors import MalformedInput

PlayerId = int  # an account's id: ratings never name a player otherwise
Place = int  # 1 for the first; seats that tie share a place

MU = 25.0
SIGMA = 25.0 / 3.0
PROVISIONAL_SIGMA = 5.0  # provisional while sigma is at least this
SCALE = 40.0  # shown points to a unit of mu
AVERAGE_SHOWN = 1500  # an average player (mu 25) at the provisional threshold
_ZERO_AT = MU - 3 * PROVISIONAL_SIGMA  # the conservative estimate that shows AVERAGE_SHOWN

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


class SizeClass(StrEnum):
    """Ratings are kept apart by table size: a duel and a table of four ask different things of a player."""

    TWO = "2"
    MORE = "3+"

    @classmethod
    def of(cls, players: int) -> SizeClass:
        """The class of a game with ``players`` seats (computers included).

        >>> SizeClass.of(2), SizeClass.of(4)
        (<SizeClass.TWO: '2'>, <SizeClass.MORE: '3+'>)
        """
        if players < 2:
            raise MalformedInput(f"a rated game has 2 or more seats, not {players}")
        return cls.TWO if players == 2 else cls.MORE


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one size class."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        """The skill the player very likely has at least."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The number people see."""
        return shown(self.conservative)

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA

    @property
    def points(self) -> float:
        """The centre of the belief on the shown scale, with no uncertainty taken off: what the matchmaker
        compares (a newcomer is matched as an average player, not as their low shown number)."""
        return AVERAGE_SHOWN + SCALE * (self.mu - MU)


def shown(conservative: float) -> int:
    """A conservative estimate on the scale people read.

    >>> shown(10.0), shown(0.0)
    (1500, 1100)
    """
    return round(AVERAGE_SHOWN + SCALE * (conservative - _ZERO_AT))


def rate(before: Mapping[PlayerId, Rating], places: Sequence[tuple[PlayerId, Place]]) -> dict[PlayerId, Rating]:
    """Each player's rating after a game they finished at the given places (1 first; equal places tie).

    ``before`` holds the ratings going in (a player missing from it starts fresh). Fewer than two players
    change nothing: there is no one to be better or worse than.
    """
    players = [player for player, _ in places]
    if len(set(players)) != len(players):
        raise MalformedInput(f"a player holds two seats in one rated game: {players}")
    if len(places) < 2:
        return {}
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in (before.get(p, Rating()) for p in players)]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in places])
    return {player: Rating(team[0].mu, team[0].sigma) for player, team in zip(players, rated, strict=True)}
