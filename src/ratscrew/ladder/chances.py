"""The slappable piles of a finished game, read from its record by the engine: who could have slapped each, and
who won it by slapping. A player's profile counts, pattern by pattern, the ones they let go.

What counts, exactly:

- **A chance** is a card that left the pile slappable: the engine's own ``Game.matches()`` (the patterns the
  rules in force switch on, with their reach, burned cards under ``slaps.burned_count`` and all) found a
  pattern with that card on top, while the game was still on. A pattern the rules switch off never makes a
  chance, whatever the cards show. A pile can be slappable for several cards in a row (7 7 7 is a double at
  the second 7, and a double and a sandwich at the third): each card is a chance of its own, since each could
  have been slapped, and the chance lasts from that card until the next card covers it or the pile goes
  (won by a slap, collected after a challenge, given away, or the game's end).
- **Its patterns** are every pattern it showed while it lasted; a chance that is a double and a sandwich at
  once counts once for each of the two patterns, and once among all chances.
- **Open to** a player when, as the card showed, they were still in the game and not locked out by a wrong
  slap (``slapping.penalty`` = lockout or lockout-pile). A player who was out or locked out could not slap,
  so the chance never counts against them. A player with no cards who may still slap back in
  (``players.slap_in``) is in, and it counts.
- **Taken** by the players who won the pile by slapping while the chance lasted (all who shared it, under
  ``slapping.tie`` = split).
- **Missed** by a player it was open to who did not take it: nobody slapped before it was covered or went,
  or someone else won it (a slap that lost the race is still a miss).

>>> from ratscrew.cards import parse_cards
>>> from ratscrew.engine.actions import Flip, Slap
>>> from ratscrew.rules import Rules
>>> hands = (tuple(parse_cards("7S 7D 4D")), tuple(parse_cards("5H 3S 9D")))  # 7 5 7: a sandwich
>>> record = Record(Rules.build("standard"), 2, hands=hands, actions=(Flip(), Flip(), Flip(), Slap(1)))
>>> [(c.card, c.patterns, sorted(c.open_to), sorted(c.taken_by)) for c in chances(record)]
[(3, ('sandwich',), [0, 1], [1])]
>>> missed_by(chances(record), 0)
{'sandwich': (1, 1)}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ratscrew.engine.actions import Seat
from ratscrew.engine.events import PileWon, WonBy
from ratscrew.engine.game import Game
from ratscrew.errors import IllegalAction
from ratscrew.patterns import PATTERN_KEYS
from ratscrew.record import Record, describe_action


@dataclass(frozen=True, slots=True)
class Chance:
    """One card that left the pile slappable: its number in the game, the patterns it showed (in the order of
    ``patterns.PATTERNS``), the seats that could slap it, and the seats that won it by slapping."""

    card: int
    patterns: tuple[str, ...]
    open_to: frozenset[Seat]
    taken_by: frozenset[Seat]

    def missed_by(self, seat: Seat) -> bool:
        return seat in self.open_to and seat not in self.taken_by


@dataclass
class _Open:
    key: tuple[int, int]  # the card on top and the pile's number (tricks): what the chance is about
    patterns: set[str]
    open_to: frozenset[Seat]
    taken_by: set[Seat] = field(default_factory=set)

    def closed(self) -> Chance:
        ordered = tuple(key for key in PATTERN_KEYS if key in self.patterns)
        return Chance(self.key[0], ordered, self.open_to, frozenset(self.taken_by))


def chances(record: Record) -> list[Chance]:
    """Every chance of the game ``record`` holds, in the order they came; the record is replayed by the
    engine, and an action it does not allow is named by its index. A record that stops before the game's
    end leaves out the chance still standing (nobody has let it go yet)."""
    game = record.new_game()
    found: list[Chance] = []
    current: _Open | None = None
    for index, action in enumerate(record.actions):
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            raise IllegalAction(f"action {index} ({describe_action(action)}): {exc}") from None
        if current is not None:
            for event in events:
                if isinstance(event, PileWon) and event.how is WonBy.SLAP:
                    current.taken_by.update(seat for seat, _count in event.shares)
        key = (game.cards, game.tricks)
        if current is not None and (current.key != key or game.over):
            found.append(current.closed())
            current = None
        if game.over:
            break
        matches = game.matches()
        if not matches:
            continue
        if current is None:
            current = _Open(key, set(), _free_to_slap(game))
        current.patterns.update(match.pattern for match in matches)
    return found


def _free_to_slap(game: Game) -> frozenset[Seat]:
    return frozenset(seat for seat in range(game.players) if not game.out[seat] and game.lockout(seat) is None)


def missed_by(found: Iterable[Chance], seat: Seat) -> dict[str, tuple[int, int]]:
    """For each pattern, how many chances showing it were open to ``seat`` and how many of them it missed;
    patterns it never had a chance at are left out."""
    counts: dict[str, tuple[int, int]] = {}
    for chance in found:
        if seat not in chance.open_to:
            continue
        missed = chance.missed_by(seat)
        for pattern in chance.patterns:
            had, let_go = counts.get(pattern, (0, 0))
            counts[pattern] = (had + 1, let_go + missed)
    return {key: counts[key] for key in PATTERN_KEYS if key in counts}
