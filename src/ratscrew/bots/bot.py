"""A computer player: it watches the pile through a View and decides whether and when to slap.

It never sees a stack: everything it decides comes from the view a person at the table would have (and,
for a strategy, the burned cards under the pile, which the lab's strategies are defined to count).
Its randomness comes from its own seeded stream, so a simulation replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratscrew.bots.levels import LONG_CHALLENGE_MISS, NEAR_MISS_WRONG, PATTERN_DIFFICULTY, Level
from ratscrew.cards import Card, Rank
from ratscrew.engine.actions import Millis
from ratscrew.engine.game import Game
from ratscrew.engine.view import View
from ratscrew.patterns import Match
from ratscrew.rules.model import Rules
from ratscrew.shuffle import SeededRandom


@dataclass(slots=True)
class Sight:
    """What every player at the table can tell about the pile right now, worked out once for all bots.

    It holds the public facts only (the face-up pile, who is out or locked out, the debt), so a bot cannot
    peek at a stack; the table builds it straight from the game (``Sight.at``) rather than copying a whole
    View for every card, and anything with a View can build the same thing (``Sight.of``). Nothing changes a
    Sight once it is built; it is not declared frozen only because the table builds one for every card
    turned, and a frozen dataclass sets each of its fields through a call.
    """

    rules: Rules
    pile: tuple[Card, ...]
    out: tuple[bool, ...]
    over: bool
    cards: int  # cards turned so far: which card this is
    matches: tuple[Match, ...]
    long_challenge: bool  # a King or an Ace (or a card demanding 3+) is being paid
    near_miss: bool  # the top two cards almost make a pattern
    burned: tuple[Card, ...] = ()  # the cards burned under the pile (only strategies look at them)
    easiest: tuple[str, float, float] | None = None  # the easiest pattern showing, its miss factor and delay
    locked: tuple[bool, ...] = ()  # per seat, locked out after a wrong slap (empty: the rules lock nobody out)

    @staticmethod
    def of(view: View, matches: Sequence[Match], burned: Sequence[Card] | None = None) -> Sight:
        under = view.burned_visible if burned is None else tuple(burned)
        locked = tuple(lock is not None for lock in view.locked) if view.rules.slapping.locks_out else ()
        return Sight.build(
            view.rules,
            view.pile,
            view.out,
            view.over,
            view.cards,
            view.owed,
            view.challenger,
            matches,
            under,
            locked=locked,
        )

    @staticmethod
    def at(game: Game, demands: Sequence[int] | None = None) -> Sight:
        """The sight of ``game`` as it stands (burned cards included, for the strategies).

        ``demands`` is ``demands_by_rank(game.rules)``, for a caller that builds many sights of one game.
        """
        locked = (
            tuple(game.lockout(s) is not None for s in range(game.players)) if game.rules.slapping.locks_out else ()
        )
        return Sight.build(
            game.rules,
            tuple(game.pile),
            tuple(game.out),
            game.outcome is not None,
            game.cards,
            game.owed,
            game.challenger,
            game.matches(),
            tuple(game.burned),
            demands,
            locked=locked,
        )

    @staticmethod
    def build(
        rules: Rules,
        pile: tuple[Card, ...],
        out: tuple[bool, ...],
        over: bool,
        cards: int,
        owed: int,
        challenger: int | None,
        matches: Sequence[Match],
        burned: tuple[Card, ...],
        demands: Sequence[int] | None = None,
        *,
        locked: tuple[bool, ...] = (),
    ) -> Sight:
        long_challenge = (
            owed > 0 and challenger is not None and _demand_was_high(demands or demands_by_rank(rules), pile)
        )
        easiest = None
        if matches:
            # Every pattern has its difficulty (tests/test_declarations.py names one that lacks it).
            pattern = min(matches, key=lambda m: PATTERN_DIFFICULTY[m.pattern]).pattern
            easiest = (pattern, *PATTERN_DIFFICULTY[pattern])
        near_miss = not matches and _nearly(pile)
        return Sight(rules, pile, out, over, cards, tuple(matches), long_challenge, near_miss, burned, easiest, locked)


@dataclass(frozen=True, slots=True)
class SlapPlan:
    """Slap ``delay`` ms after the card landed (whether it was right is for the engine to say)."""

    delay: Millis


class Bot:
    def __init__(self, level: Level, rng: SeededRandom) -> None:
        self.level = level
        self.rng = rng
        self._last_card = -1  # the card a strategy last reacted to: it reacts once to each card

    def flip_delay(self) -> Millis:
        return self.level.flip.sample(self.rng)

    def react(self, sight: Sight, seat: int) -> SlapPlan | None:
        """What the bot at ``seat`` does about the pile it now sees."""
        if sight.over or sight.out[seat] or (sight.locked and sight.locked[seat]):
            return None  # a seat that is locked out knows its slaps would not count
        level = self.level
        if level.strategy is not None:
            return self._follow_strategy(sight)
        if sight.easiest is not None:
            _pattern, miss_factor, extra = sight.easiest
            miss = level.miss * miss_factor * (LONG_CHALLENGE_MISS if sight.long_challenge else 1.0)
            # A level that never misses draws nothing here, so its stream is spent on reactions alone.
            if miss > 0 and self.rng.random() < min(miss, 0.95):
                return None
            return SlapPlan(level.reaction.sample(self.rng, extra))
        if level.wrong <= 0 or not sight.pile:
            return None
        chance = level.wrong * (NEAR_MISS_WRONG if sight.near_miss else 1.0)
        if self.rng.random() < chance:
            return SlapPlan(level.reaction.sample(self.rng))
        return None

    def _follow_strategy(self, sight: Sight) -> SlapPlan | None:
        """Slap when the strategy says so, once per card turned, at the level's speed, right or wrong."""
        assert self.level.strategy is not None
        if sight.cards == self._last_card:
            return None
        self._last_card = sight.cards
        if not self.level.strategy.wants(sight.pile, sight.burned):
            return None
        return SlapPlan(self.level.reaction.sample(self.rng))


def demands_by_rank(rules: Rules) -> tuple[int, ...]:
    """How many cards each rank demands under ``rules``, indexed by the rank's value (``rules.demand``)."""
    return tuple(rules.demand(Card(Rank(value))) if value in _RANK_VALUES else 0 for value in range(max(Rank) + 1))


_RANK_VALUES = frozenset(int(rank) for rank in Rank)


def _demand_was_high(demands: Sequence[int], pile: Sequence[Card]) -> bool:
    """A King or an Ace is being paid (or a rule made a card demand three or more)."""
    for card in reversed(pile):
        demand = demands[card.rank]
        if demand:
            return demand >= 3
    return False


_JOKER, _JACK, _QUEEN, _KING = int(Rank.JOKER), int(Rank.JACK), int(Rank.QUEEN), int(Rank.KING)


def _nearly(pile: Sequence[Card]) -> bool:
    """The top two cards almost make a pattern: neighbouring ranks, or a court card beside a King or Queen."""
    if len(pile) < 2:
        return False
    top, below = int(pile[-1].rank), int(pile[-2].rank)  # plain ints: compared many times a game
    if top == _JOKER or below == _JOKER:
        return False
    if top - below in (1, -1):
        return True
    # Two court cards (J, Q, K, A), one of them a Queen or a King.
    return top >= _JACK and below >= _JACK and (top in (_QUEEN, _KING) or below in (_QUEEN, _KING))
