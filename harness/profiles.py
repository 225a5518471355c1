"""Finished games for the profile tests and bench: real games of computer players in a real room on virtual
time, handed over as the room hands them at its end (the record and the summary), and an independent reading
of a record's missed chances to check ``ladder.chances`` against."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ratscrew.cards import Card
from ratscrew.engine.events import CardTurned, GameOver, PileWon, PlayerOut, WonBy
from ratscrew.ladder.places import places, rated_result
from ratscrew.ladder.stats import note_game
from ratscrew.ladder.store import RatingStore
from ratscrew.patterns import find_matches
from ratscrew.record import Record
from ratscrew.rooms.core import Phase, RoomCore
from ratscrew.rooms.document import NoJournal
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import GameSummary, SeatKind
from ratscrew.rules import Rules
from ratscrew.table.clock import ManualClock


@dataclass(frozen=True)
class Finished:
    game_id: str
    record: Record
    summary: GameSummary


class Kept(NoJournal):
    """A journal that keeps only the game its room finishes, as the room hands it over."""

    def __init__(self) -> None:
        self.games: list[Finished] = []

    def finished(self, code: str, game_id: str, record: Record, summary: GameSummary) -> None:
        self.games.append(Finished(game_id, record, summary))


def room_game(rules: Rules, levels: Sequence[str], seed: int, code: str = "PROF1") -> Finished:
    """A whole game of computers of ``levels`` (one a seat) in a room on virtual time: what the room hands its
    journal at the end."""
    kept = Kept()
    clock = ManualClock()
    seats = [SeatInfo(SeatKind.BOT, f"Bot {i + 1}", level, ready=True) for i, level in enumerate(levels)]
    room = RoomCore(code, clock, seats=seats, rules=rules, journal=kept)
    room.start_game(seed=seed)
    while room.phase is Phase.PLAYING:
        due = room.next_deadline()
        assert due is not None, "a game with nobody to wake it"
        clock.advance_to(max(due, clock.now()))
        room.tick()
    (finished,) = kept.games
    return finished


def missed_from_events(record: Record, seat: int) -> dict[str, tuple[int, int]]:
    """The chances ``seat`` had and missed, pattern by pattern, read another way than ``ladder.chances`` does:
    the pile rebuilt from the events alone (cards turned onto it, cleared when it is won), the patterns asked
    of ``patterns.find_matches`` as each card lands, and the seat's chances ended by the event that puts it out.
    Only for rules where nobody is locked out and burned cards take no part in patterns."""
    rules = record.rules
    assert not rules.slaps.burned_count
    assert rules.slapping.penalty not in ("lockout", "lockout-pile")
    game = record.new_game()
    pile: list[Card] = []
    counts: dict[str, tuple[int, int]] = {}
    showing: tuple[str, ...] = ()  # the patterns the card on top made, while the seat is in
    out = False

    def close(taken: bool) -> None:
        for pattern in showing:
            had, let_go = counts.get(pattern, (0, 0))
            counts[pattern] = (had + 1, let_go + (not taken))

    for action in record.actions:
        turned = False
        for event in game.apply(action):
            if isinstance(event, PileWon):
                close(event.how is WonBy.SLAP and seat in {s for s, _ in event.shares})
                showing, pile = (), []
            elif isinstance(event, CardTurned):
                close(False)
                pile.append(event.card)
                turned = True
                showing = () if out else tuple(m.pattern for m in find_matches(pile, rules))
            elif isinstance(event, PlayerOut) and event.seat == seat:
                out = True
            elif isinstance(event, GameOver):
                if not turned:  # a card the game ended on was nobody's chance
                    close(False)
                showing = ()
    return counts


def finish(path: Path, game: Finished, seats: Sequence[int | None], *, rated: bool) -> None:
    """What the server does with a finished game where signed-in people sat (accounts ``seats``, None for a
    computer or a guest): a rated one moves their ratings (``RatingStore.record``), and every one is noted
    for their profiles (``note_game``)."""
    summary = game.summary
    if rated:
        place = places(summary.out_order, [p.cards for p in summary.players])
        result = rated_result(game.game_id, seats, place)
        if result is not None:
            RatingStore(path).record(result)
    note_game(path, game.game_id, seats, summary, game.record, rated)


def seed_ladder(path: Path, ids: dict[str, int], *, duels: int = 30, seed: int = 0) -> None:
    """Real games between the accounts ``ids`` (name to id), rated and noted as the server does at their end:
    ``duels`` two-player games between the first two players and between the next two (enough to settle their
    ratings), two more between the first two under house rules whose six-nine no drill deals, three rated
    tables of three, and two duels between the last player and the fourth (the last is still provisional). Computers
    play every seat, of levels that differ, so the games have winners and misses both ways."""
    names = list(ids)
    first, second, third, fourth, last = (ids[name] for name in names[:5])
    levels = (("hard", "medium"), ("medium", "hard"), ("expert", "medium"))
    n = 0

    def play(rules: Rules, seats: Sequence[int | None], chosen: Sequence[str]) -> None:
        nonlocal n
        n += 1
        finish(path, room_game(rules, chosen, seed + n, code=f"L{seed}X{n}"), seats, rated=True)

    standard, bicycle = Rules.build("standard"), Rules.build("bicycle")
    for i in range(duels):
        play(standard, [first, second], levels[i % 3])
        play(standard, [third, fourth], levels[(i + 1) % 3])
    for _ in range(2):
        play(Rules.build("standard", {"slaps.six_nine": True}), [first, second], ("medium", "hard"))
    for _ in range(3):
        play(bicycle, [first, third, second], ("medium", "hard", "medium"))
    for _ in range(2):
        play(standard, [last, fourth], ("medium", "hard"))
