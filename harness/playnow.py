"""``ratscrew play`` whose Play-now tables stop after a few cards, started as a user starts the real one (its own
process, a free port, its address line): the whole flow of Play now, a browser's game played through by its
keys, in a minute rather than the quarter of an hour a whole game of two people takes.

Its tables are dealt from one known seed (``SEED``), so a test knows what the players meet: in the first ten
cards of a duel under the standard rules, a sandwich (3 6 3) and two doubles (K K, 7 7), which two players who
only turn cards both miss.

    python -m harness.playnow --port 0 --data DIR [--cards N] [--seed S]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from harness.server import Server, serving
from ratscrew.ladder.matching import Pool
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.matched import Match
from ratscrew.rooms.runner import RoomRunner, Rooms
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rules.model import Rules
from ratscrew.web.app import Setup
from ratscrew.web.tally import Tally

ROOT = Path(__file__).resolve().parent.parent
CARDS = 10  # cards turned before a Play-now table's game stops (ranked by cards held, as a time limit does)
SEED = 31  # every table's deal (see above)


class SeededRooms(Rooms):
    """The server's rooms, each Play-now table dealt from ``seed`` (rooms draw a random one)."""

    seed = SEED

    def create_matched(
        self, *, seats: list[SeatInfo], rules: Rules, match: Match
    ) -> tuple[RoomRunner, list[str | None]]:
        runner, tokens = super().create_matched(seats=seats, rules=rules, match=match)
        seed = self.seed
        runner.core.seed_source = lambda: seed
        return runner, tokens


class ShortTables(Setup):
    """``ratscrew play``'s setup; each Play-now table plays its pool's preset, stopped after ``cards`` cards."""

    def __init__(self, cards: int = CARDS, seed: int = SEED) -> None:
        self.cards = cards
        self.seed = seed

    def rooms(self, journal: SqliteJournal, tally: Tally) -> Rooms:
        rooms = SeededRooms(journal)
        rooms.seed = self.seed
        return rooms

    def table_rules(self, pool: Pool) -> Rules:
        return Rules.build(pool.preset, {"end.max_cards": self.cards})


def start_short_server(data: Path, cards: int = CARDS, seed: int = SEED) -> Server:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "harness.playnow", "--port", "0", "--data", str(data)),
            *("--cards", str(cards), "--seed", str(seed)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    return serving(process, data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--cards", type=int, default=CARDS)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()

    import uvicorn

    from ratscrew.web.app import create_app
    from ratscrew.web.serve import bind, run_quietly, server_config

    args.data.mkdir(parents=True, exist_ok=True)
    app = create_app(args.data, setup=ShortTables(args.cards, args.seed))
    sock = bind("127.0.0.1", args.port)
    print(f"ratscrew: serving on http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
    run_quietly(uvicorn.Server(server_config(app)), sock)


if __name__ == "__main__":
    main()
