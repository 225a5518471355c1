"""A player's profile and the leaderboards, by name: what a stranger may know of a player.

- ``GET /api/players/{name}``: a signed-in player's profile: their rating in each size class with its history
  (the shown number after each rated game, for the chart), their games and wins by table size, the median of
  their reaction times, the piles they won by slapping and their wrong slaps, and the slappable piles they let
  go, pattern by pattern, the most missed first, each with the drill that trains it (null when none does).
- ``GET /api/leaderboard?size=2`` (or ``size=3%2B``, 3 or more players): the established players of that size
  class by their shown rating, best first, and the provisional ones apart.

Names are public (a table and a history show them), but a name is still looked up like a room's code: an
unknown name costs the asking address one of its lookups (``web/lookups.py``), so the route cannot be used to
list who has an account faster than the rooms can be guessed. No answer holds an account's id, a game's id
(a finished game's id names its room, which may still be open) or anything of a password.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.accounts import AccountStore
from ratscrew.accounts.names import ALLOWED, MAX_NAME, MIN_NAME
from ratscrew.errors import BadRequest, NotFound
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.stats import StatsStore
from ratscrew.ladder.store import Change, RatingStore, Standing
from ratscrew.learn.drills import slap_patterns
from ratscrew.rules import PRESETS, Rules
from ratscrew.shapes import Shape
from ratscrew.web.lookups import found, looks_up
from ratscrew.web.session import accounts_of

LEADERBOARD_SIZE = 100  # players each list of a leaderboard shows at most
DRILL = "stream"  # the drill a missed pattern leads to: cards land one by one, slap the moment a pattern shows
SIZES = {"2": SizeClass.TWO, "3+": SizeClass.MORE, "3 ": SizeClass.MORE}  # "3 ": a "+" left unescaped in a URL
SIZE_EXAMPLE = "?size=2 (two players) or ?size=3%2B (3 or more; %2B is the + in a URL)"


@dataclass(frozen=True, slots=True)
class RatingPoint(Shape):
    """One rated game of a rating's history: the number shown before it and after it, and how it moved."""

    before: int  # the first game's is where the chart starts (a newcomer's starting number)
    shown: int
    change: int
    place: int  # among the game's signed-in players
    players: int
    when: float  # seconds since 1970


@dataclass(frozen=True, slots=True)
class PlayerRating(Shape):
    """A player's rating in one size class now, and its history, oldest first."""

    size_class: SizeClass
    shown: int
    provisional: bool
    games: int
    history: tuple[RatingPoint, ...]


@dataclass(frozen=True, slots=True)
class SizeGames(Shape):
    """The games a player finished at tables of one size class (rated or not)."""

    size_class: SizeClass
    games: int
    wins: int
    rated: int


@dataclass(frozen=True, slots=True)
class DrillLink(Shape):
    """A drill that trains a pattern: its kind and the preset whose patterns it deals (the page picks it)."""

    kind: str
    preset: str


@dataclass(frozen=True, slots=True)
class MissedPattern(Shape):
    """A pattern the player had chances at: how many, how many they let go, and the drill that trains it."""

    pattern: str
    chances: int
    missed: int
    drill: DrillLink | None  # None: no drill deals this pattern


@dataclass(frozen=True, slots=True)
class PlayerAnswer(Shape):
    """``GET /api/players/{name}``: a player's profile."""

    name: str
    ratings: tuple[PlayerRating, ...]
    games: tuple[SizeGames, ...]
    median_reaction_ms: float | None
    reactions: int
    slaps_won: int
    wrong_slaps: int
    chances: int
    missed: int
    patterns: tuple[MissedPattern, ...]


@dataclass(frozen=True, slots=True)
class Ranked(Shape):
    """A player on a leaderboard."""

    name: str
    shown: int
    games: int


@dataclass(frozen=True, slots=True)
class LeaderboardAnswer(Shape):
    """``GET /api/leaderboard?size=...``: one size class's established players best first, the provisional
    ones apart (best first too)."""

    size_class: SizeClass
    established: tuple[Ranked, ...]
    provisional: tuple[Ranked, ...]


@cache
def drill_for(pattern: str) -> DrillLink | None:
    """The drill that deals ``pattern``: the timed drill under the first preset whose drills show it (the
    drills are dealt under a preset, never under house rules), or None when no preset's drills do."""
    for name in PRESETS:
        if pattern in slap_patterns(Rules.build(name)):
            return DrillLink(DRILL, name)
    return None


class Profiles:
    """The three stores a profile is read from, over the server's one file."""

    def __init__(self, accounts: AccountStore) -> None:
        self.accounts = accounts
        self.ratings = RatingStore(accounts.path)
        self.stats = StatsStore(accounts.path)

    def profile(self, name: str) -> PlayerAnswer:
        found = self.accounts.find(name)
        if found is None:
            raise NotFound(f"no player is called {name!r}")
        account = found[0]  # and never the password's hash beside it
        ratings = tuple(
            _rating(standing, self.ratings.history(account.id, size))
            for size, standing in sorted(self.ratings.standings(account.id).items(), key=lambda kv: _order(kv[0]))
        )
        figures = self.stats.figures(account.id)
        return PlayerAnswer(
            account.name,
            ratings,
            tuple(SizeGames(s.size_class, s.games, s.wins, s.rated) for s in figures.games),
            figures.median_reaction_ms,
            figures.reactions,
            figures.slaps_won,
            figures.wrong_slaps,
            figures.chances,
            figures.missed,
            tuple(MissedPattern(p.pattern, p.chances, p.missed, drill_for(p.pattern)) for p in figures.patterns),
        )

    def leaderboard(self, size: SizeClass) -> LeaderboardAnswer:
        board = self.ratings.leaderboard(size, LEADERBOARD_SIZE)
        names = self.accounts.names([s.player for s in (*board.established, *board.provisional)])

        def ranked(standings: tuple[Standing, ...]) -> tuple[Ranked, ...]:
            # A player deleted since the list was read has no name left, and no place on it.
            return tuple(Ranked(names[s.player], s.rating.shown, s.games) for s in standings if s.player in names)

        return LeaderboardAnswer(size, ranked(board.established), ranked(board.provisional))


def _order(size: SizeClass) -> int:
    return list(SizeClass).index(size)


def _rating(standing: Standing, history: tuple[Change, ...]) -> PlayerRating:
    points = tuple(
        RatingPoint(c.before.shown, c.after.shown, c.shown_change, c.place, c.players, c.when) for c in history
    )
    rating = standing.rating
    return PlayerRating(standing.size_class, rating.shown, rating.provisional, standing.games, points)


def profiles_of(request: Request) -> Profiles:
    state = request.app.state
    kept: Profiles | None = getattr(state, "profiles", None)
    if kept is None:
        kept = state.profiles = Profiles(accounts_of(request))
    return kept


def player_name(raw: str) -> str:
    """The name asked for, if it can be anyone's; else BadRequest saying what a name is."""
    if not (MIN_NAME <= len(raw) <= MAX_NAME and ALLOWED.fullmatch(raw)):
        raise BadRequest(
            f"{raw[:40]!r} is not a player's name: a name is {MIN_NAME} to {MAX_NAME} letters a-z, digits, "
            "'.', '_' or '-'"
        )
    return raw


@looks_up
async def player(request: Request) -> Response:
    name = player_name(request.path_params["name"])
    profiles = profiles_of(request)

    async def find() -> PlayerAnswer:
        return await asyncio.to_thread(profiles.profile, name)

    answer = await found(request, find)
    return JSONResponse(answer.to_json(), headers={"Cache-Control": "no-cache"})


async def leaderboard(request: Request) -> Response:
    query = request.query_params
    extra = sorted(set(query) - {"size"})
    if extra:
        raise BadRequest(f"unknown parameter {extra[0][:40]!r}: expected {SIZE_EXAMPLE}")
    raw = query.get("size")
    if raw is None:
        raise BadRequest(f"which leaderboard? {SIZE_EXAMPLE}")
    size = SIZES.get(raw)
    if size is None:
        raise BadRequest(f"size {raw[:20]!r} is not a size class: expected {SIZE_EXAMPLE}")
    answer = await asyncio.to_thread(profiles_of(request).leaderboard, size)
    return JSONResponse(answer.to_json(), headers={"Cache-Control": "no-cache"})


SHAPES = (PlayerAnswer, LeaderboardAnswer)

routes: list[BaseRoute] = [
    Route("/api/players/{name}", player, methods=["GET"]),
    Route("/api/leaderboard", leaderboard, methods=["GET"]),
]
