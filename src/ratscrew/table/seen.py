"""What a wrong slap reacted to, so that its verdict can explain itself.

A slap names the card it reacts to (the top card its player's page showed). When a later card had already
covered that one on the table by the time the slap landed, the slap is judged against the pile as it is,
and often found wrong: the player saw a double the table no longer had. The table keeps, with that verdict,
the pile's top cards when the slap landed and, when the slap came too late, the patterns the pile showed at
the card it reacted to and the card that covered it. A slap naming the top card is too late the same way
when that card covered a pattern the pile had just before it (the pile without its top card). The patterns
are the engine's own (``find_matches``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ratscrew.cards import Card
from ratscrew.engine.game import Game
from ratscrew.patterns import Match, find_matches

TOP_CARDS = 3  # the deepest pattern a player reads off a pile at a glance (a sandwich) needs three


@dataclass(frozen=True, slots=True)
class SlapSeen:
    """The pile a slap landed on and the one its player saw, when they differ."""

    card: int  # the number of the card the slap reacted to
    pile: tuple[Card, ...]  # the pile's top cards when the slap landed, bottom first
    missed: tuple[Match, ...] = ()  # the patterns the pile showed at ``card``, since covered
    covered_by: Card | None = None  # the card turned just after ``card``, when it was covered

    def to_dict(self) -> dict[str, object]:
        return {
            "card": self.card,
            "pile": [str(c) for c in self.pile],
            "missed": [{"pattern": m.pattern, "cards": [str(c) for c in m.cards], "why": m.why} for m in self.missed],
            "covered_by": None if self.covered_by is None else str(self.covered_by),
        }


def slap_seen(game: Game, card: int | None) -> SlapSeen:
    """The pile as a slap reacting to card number ``card`` (None: the top one) finds it, before it applies."""
    pile = game.pile
    top = game.cards
    reacted = top if card is None else card
    shown = reacted - game.pile_start  # how many of the pile's cards had been turned at ``reacted``
    burned = game.burned[::-1] if game.rules.slaps.burned_count else []
    plain = SlapSeen(reacted, tuple(pile[-TOP_CARDS:]))
    named_top = reacted >= top or shown >= len(pile)
    if named_top:
        # The page named the top card: the slap still came too late when that card covered a pattern the
        # pile had a moment before (its player saw the pattern, then the card landed as they slapped).
        if len(pile) < 2 or find_matches([*burned, *pile], game.rules, face_up=len(pile)):
            return plain
        shown = len(pile) - 1
    elif shown <= 0:
        return plain
    seen = pile[:shown]
    missed = find_matches([*burned, *seen], game.rules, face_up=len(seen))
    if named_top and not missed:
        return plain
    return SlapSeen(reacted, tuple(pile[-TOP_CARDS:]), tuple(missed), pile[shown])
