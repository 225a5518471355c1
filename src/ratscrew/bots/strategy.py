"""Slapping strategies: rules of thumb that decide *whether* to slap, put on a level that decides *when*.

Diamond and Garcia (arXiv:2304.01007) asked whether "risk slapping", slapping when a slap is likely rather
than certain, beats plain reflexes. A strategy answers that question for the lab: it replaces a level's
judgement (miss a pattern now and then, slap wrong now and then) with a fixed rule, and keeps the level's
speed. It reacts once to each card turned, legal slap or not, and never otherwise:

- ``risk-faces``: slap while a court card (J, Q, K or A) lies anywhere under the top card of the pile,
  burned cards included;
- ``risk-jqk``: the same with J, Q and K only;
- ``risk-N`` (N from 2 to 6): slap once the pile, burned cards included, holds at least N cards.

>>> from ratscrew.cards import Card
>>> pile = tuple(Card.parse(c) for c in ("KS", "7H", "3D"))
>>> strategy("risk-faces").wants(pile, ())
True
>>> strategy("risk-4").wants(pile, ())
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratscrew.cards import Card, Rank
from ratscrew.errors import MalformedInput

MIN_RISK_CARDS = 2
MAX_RISK_CARDS = 6


class UnknownStrategy(MalformedInput):
    """A strategy name that is not one of ``risk-faces``, ``risk-jqk`` or ``risk-N`` (N from 2 to 6)."""


@dataclass(frozen=True, slots=True)
class Strategy:
    """Slap every card while ``courts`` shows under the top card, or once the pile holds ``min_cards``."""

    name: str
    courts: frozenset[Rank] = frozenset()
    min_cards: int = 0

    def wants(self, pile: Sequence[Card], burned: Sequence[Card]) -> bool:
        """Whether to slap the card now on top of ``pile`` (face-up, bottom first); ``burned`` lies below it."""
        if not pile:
            return False
        if self.min_cards:
            return len(pile) + len(burned) >= self.min_cards
        under = (*burned, *pile[:-1])
        return any(card.rank in self.courts for card in under)


FACES = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE})
STRATEGIES: dict[str, Strategy] = {
    "risk-faces": Strategy("risk-faces", courts=FACES),
    "risk-jqk": Strategy("risk-jqk", courts=FACES - {Rank.ACE}),
    **{f"risk-{n}": Strategy(f"risk-{n}", min_cards=n) for n in range(MIN_RISK_CARDS, MAX_RISK_CARDS + 1)},
}


def strategy(name: str) -> Strategy:
    """The strategy called ``name``; anything else is one clear error naming what is allowed."""
    found = STRATEGIES.get(name.strip().lower())
    if found is None:
        raise UnknownStrategy(
            f"unknown strategy {name.strip()[:20]!r}: expected risk-faces, risk-jqk "
            f"or risk-N with N from {MIN_RISK_CARDS} to {MAX_RISK_CARDS}"
        )
    return found
