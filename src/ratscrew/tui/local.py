"""A game against the computer in this process: the rooms the server runs, without the server.

The browser's game against the computer is a room that starts at once (``web/games.py``); so is this one,
made by the same ``Rooms.create_game`` with the same seats, rules, pace and seed, and journaled to the same
SQLite file (``--data``, the folder ``ratscrew play`` uses): its record and summary are saved as the
browser's are, and the replay viewer shows it (``#/replay/GAME``). The terminal is one page of the room.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ratscrew.bots.registry import PLAYABLE, resolve
from ratscrew.errors import MalformedInput, RatscrewError
from ratscrew.names import clean_name
from ratscrew.rooms.journal import SqliteJournal
from ratscrew.rooms.runner import RoomRunner, Rooms
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import SeatKind
from ratscrew.rules.model import MAX_PLAYERS, Rules
from ratscrew.table.clock import AlarmClock
from ratscrew.tui.link import LocalLink

DATABASE = "ratscrew.sqlite3"  # the file ``ratscrew play`` keeps in its data folder (web/app.py)


@dataclass(frozen=True, slots=True)
class Setup:
    """Who sits at the table: one or two people (one keyboard), then computers at their levels."""

    people: tuple[str, ...]
    levels: tuple[str, ...]
    rules: Rules
    pace: float = 1.0
    seed: int | None = None

    def seats(self, computer: Callable[[int], str]) -> list[SeatInfo]:
        """``computer``: a computer's name in the player's language, by its seat number (from 1)."""
        people = [SeatInfo(SeatKind.HUMAN, name) for name in self.people]
        bots = [
            SeatInfo(SeatKind.BOT, computer(len(people) + i + 1), level, ready=True)
            for i, level in enumerate(self.levels)
        ]
        return people + bots


def parse_levels(text: str) -> tuple[str, ...]:
    """``--bots``: one to eleven computer levels, comma-separated (``hard,hard,easy``).

    >>> parse_levels("Hard, easy,match")
    ('hard', 'easy', 'match')
    """
    levels = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    if not levels:
        raise MalformedInput(f"--bots needs at least one level: one of {', '.join(PLAYABLE)}")
    for level in levels:
        if level not in PLAYABLE:
            raise MalformedInput(f"--bots: unknown level {level[:20]!r}: expected one of {', '.join(PLAYABLE)}")
    return tuple(resolve(level).name for level in levels)


def chosen_levels(text: str | None, people: int) -> tuple[str, ...]:
    """The computers of a game: ``--bots`` as given, else one Medium computer for one person and none for two
    (two people at one keyboard play each other, as on the browser's shared screen); ``none`` asks for none.

    >>> chosen_levels(None, 1), chosen_levels(None, 2), chosen_levels("none", 2), chosen_levels("hard", 2)
    (('medium',), (), (), ('hard',))
    >>> chosen_levels("none", 1)
    Traceback (most recent call last):
    ...
    ratscrew.errors.MalformedInput: --bots none leaves one person alone at the table: name a level, or add --people 2
    """
    if text is None:
        return ("medium",) if people == 1 else ()
    if text.strip().lower() == "none":
        if people < 2:
            raise MalformedInput("--bots none leaves one person alone at the table: name a level, or add --people 2")
        return ()
    return parse_levels(text)


def make_setup(names: tuple[str, ...], levels: tuple[str, ...], rules: Rules, pace: float, seed: int | None) -> Setup:
    """The seats checked as the browser's game form is (``web/games.py``): one or two people, two to twelve seats."""
    seats = len(names) + len(levels)
    if seats > MAX_PLAYERS:
        raise MalformedInput(
            f"{seats} seats is too many: at most {MAX_PLAYERS}, so at most {MAX_PLAYERS - len(names)} computers"
        )
    deck = rules.deck_for(seats)
    if deck.size < seats:
        raise MalformedInput(f"{seats} players need more than the {deck.size} cards of these rules")
    if not 0.25 <= pace <= 4:
        raise MalformedInput(f"--pace must be from 0.25 (brisk) to 4 (leisurely), got {pace:g}")
    people = tuple(clean_name(name, f"Player {i + 1}") for i, name in enumerate(names))
    return Setup(people, levels, rules, pace, seed)


class LocalTable:
    """The rooms of this process and the one game being played, journaled to ``data_dir`` (None: kept nowhere)."""

    def __init__(self, data_dir: Path | None, clock: AlarmClock | None = None) -> None:
        self.journal: SqliteJournal | None = None
        if data_dir is not None:
            try:
                data_dir.mkdir(parents=True, exist_ok=True)
                self.journal = SqliteJournal(data_dir / DATABASE)
            except OSError as exc:
                raise RatscrewError(
                    f"cannot use the data folder {data_dir}: {exc.strerror}; choose another with --data"
                ) from None
        self.data_dir = data_dir
        self.rooms = Rooms(self.journal, clock=clock)
        self.runner: RoomRunner | None = None
        self.token = ""

    async def deal(
        self, setup: Setup, computer: Callable[[int], str], reactions: dict[int, list[int]] | None = None
    ) -> LocalLink:
        """A new game (the first, or another with the same seats and this player's measured speed), and the
        terminal's link to it."""
        seed = setup.seed if setup.seed is not None and self.runner is None else secrets.randbits(48)
        runner, token = self.rooms.create_game(
            seats=setup.seats(computer),
            rules=setup.rules,
            bot_pace=setup.pace,
            seed=seed,
            reactions=reactions,
            token=self.token or None,
        )
        await runner.kept()
        self.runner, self.token = runner, token
        return LocalLink(runner, self.rooms.new_link())

    def reactions(self) -> dict[int, list[int]]:
        """Each person's reaction times so far, for a ``match`` computer in the next game."""
        return dict(self.runner.core.reactions) if self.runner is not None else {}

    @property
    def game_id(self) -> str:
        return self.runner.core.game_id if self.runner is not None else ""

    async def close(self) -> None:
        await self.rooms.close()
        if self.journal is not None:
            self.journal.close()
