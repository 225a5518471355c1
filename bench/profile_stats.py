#!/usr/bin/env python3
"""What the profile costs: noting a finished game for its players (``ladder.stats.note_game``: the record
replayed by the engine for its slappable piles, one write transaction), and answering a profile and a
leaderboard over HTTP for a player with many games (``tests/ladder/test_ladder_stats.py`` and
``tests/web/test_web_profiles.py`` check what they say; this prints how long they take).

Every figure is the median of several runs on this machine, beside a baseline measured in the same run:
note_game beside the engine's replay of the same record alone and beside ``RatingStore.record`` of the same
game (the other write at a game's end); the profile beside ``GET /api/account`` (the HTTP stack and a
session lookup, no work).

Usage: python bench/profile_stats.py [--games 500] [--players 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from starlette.testclient import TestClient

from harness.profiles import Finished, room_game
from ratscrew.accounts import AccountStore
from ratscrew.ladder.chances import chances
from ratscrew.ladder.places import RatedResult, places, rated_result
from ratscrew.ladder.ratings import SizeClass
from ratscrew.ladder.stats import StatsStore, note_game
from ratscrew.ladder.store import RatingStore
from ratscrew.rules import Rules
from ratscrew.web.app import create_app

LEVELS = {2: ("medium", "hard"), 3: ("medium", "hard", "easy"), 4: ("hard", "medium", "medium", "expert")}


def timed(work: Callable[[], object], repeat: int) -> float:
    """The median time of ``work``, in ms."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def games_of(seats: int, count: int, rules: Rules) -> list[Finished]:
    return [room_game(rules, LEVELS[seats], seed, code=f"B{seats}X{seed}") for seed in range(count)]


def note_costs(folder: Path, rules: Rules) -> None:
    path = folder / "notes.sqlite3"
    accounts = AccountStore(path)
    ids = [accounts.create(f"p{i}", "$argon2id$bench").id for i in range(4)]
    ratings = RatingStore(path)
    for seats in (2, 3, 4):
        played = games_of(seats, 12, rules)
        actions = statistics.median(len(g.record.actions) for g in played)
        replay = statistics.median(timed(g.record.replay, 3) for g in played)
        reading = statistics.median(timed(lambda g=g: chances(g.record), 3) for g in played)  # type: ignore[misc]
        noting, rating = [], []
        for n, game in enumerate(played):
            seated = ids[:seats]
            summary = game.summary
            start = time.perf_counter()
            note_game(path, f"N{seats}X{n}", seated, summary, game.record, rated=True)
            noting.append((time.perf_counter() - start) * 1000)
            result = rated_result(
                f"N{seats}X{n}", seated, places(summary.out_order, [p.cards for p in summary.players])
            )
            assert result is not None
            start = time.perf_counter()
            ratings.record(result)
            rating.append((time.perf_counter() - start) * 1000)
        note = statistics.median(noting)
        print(
            f"{seats} seats, {actions:.0f} actions a game: note_game {note:.2f} ms "
            f"(its replay for chances {reading:.2f} ms; the engine's replay alone {replay:.2f} ms, "
            f"x{note / replay:.1f}); RatingStore.record {statistics.median(rating):.2f} ms, "
            f"x{note / statistics.median(rating):.1f}"
        )


def profile_costs(folder: Path, rules: Rules, games: int, players: int) -> None:
    data = folder / "data"
    data.mkdir()
    path = data / "ratscrew.sqlite3"
    accounts = AccountStore(path)
    ids = [accounts.create(f"player{i}", "$argon2id$bench").id for i in range(players)]
    stats, ratings = StatsStore(path), RatingStore(path)
    played = games_of(2, 20, rules)
    start = time.perf_counter()
    for n in range(games):
        game = played[n % len(played)]
        seated = [ids[0], ids[1 + n % (players - 1)]]
        stats.note(f"P{n}", seated, game.summary, game.record, rated=True)
        place = places(game.summary.out_order, [p.cards for p in game.summary.players])
        ratings.record(RatedResult(f"P{n}", SizeClass.TWO, tuple(zip(seated, place, strict=True))))
    made = time.perf_counter() - start
    figures = stats.figures(ids[0])
    print(
        f"a player with {figures.played} games ({figures.reactions} reaction times, {len(figures.patterns)} "
        f"patterns), {players} players rated: made in {made:.1f} s"
    )
    with TestClient(create_app(data)) as client:
        client.get("/api/players/player0")  # the stores are opened on the first answer
        account = timed(lambda: client.get("/api/account"), 30)
        profile = timed(lambda: client.get("/api/players/player0"), 30)
        board = timed(lambda: client.get("/api/leaderboard?size=2"), 30)
        size = len(client.get("/api/players/player0").content)
    reading = timed(lambda: stats.figures(ids[0]), 30)
    print(
        f"GET /api/players/NAME {profile:.2f} ms ({size} bytes; the figures alone {reading:.2f} ms), "
        f"x{profile / account:.1f} GET /api/account ({account:.2f} ms)"
    )
    print(f"GET /api/leaderboard?size=2 {board:.2f} ms, x{board / account:.1f} GET /api/account")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=500, help="games of the profiled player")
    parser.add_argument("--players", type=int, default=200, help="rated players on the leaderboard")
    args = parser.parse_args(argv)
    rules = Rules.build("standard")
    with tempfile.TemporaryDirectory() as folder:
        note_costs(Path(folder), rules)
        profile_costs(Path(folder), rules, args.games, args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
