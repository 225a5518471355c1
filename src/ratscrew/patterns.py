"""Slap patterns: one small pure predicate per pattern, each saying why it matched.

Every predicate looks at the pile bottom first, top last (with ``slaps.burned_count`` the engine puts the
burned cards underneath), and returns a :class:`Match` or None. Ranks count, never suits (the flush
alone looks at suits); a joker has no rank and no suit, so it only ever makes the ``joker`` pattern and
breaks every other one it would be part of.

>>> from ratscrew.rules import Rules
>>> from ratscrew.cards import parse_cards
>>> [m.why for m in find_matches(parse_cards("9 7 9", bare_rank=True), Rules.build())]
['sandwich: 9 7 9, the top card matches the third']
>>> find_matches(parse_cards("9 7 6 9", bare_rank=True), Rules.build())
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, TypeAlias

from ratscrew.cards import Card, Rank, Suit, format_cards

if TYPE_CHECKING:  # the rules import the patterns (Rules.any_slap_enabled); these only name the rules' types
    from ratscrew.rules.model import Rules, SlapRules

__all__ = [
    "PATTERNS",
    "PATTERNS_BY_KEY",
    "PATTERN_KEYS",
    "Match",
    "Pattern",
    "enabled_patterns",
    "find_matches",
    "wildcard_rank",
]


@dataclass(frozen=True, slots=True)
class Match:
    """A pattern that matched: its key (``sandwich``), the cards that make it (bottom first), why, and where
    those cards lie in the pile the pattern was shown (``positions``, indices from the bottom, one per card).

    A page marks the cards by their positions, so it never needs to know which patterns take the bottom card.
    A match read back from an event's JSON has no positions (the events name the cards, which is what a page
    shows of them); they take no part in comparisons.
    """

    pattern: str
    cards: tuple[Card, ...]
    why: str
    positions: tuple[int, ...] = field(default=(), compare=False)


# A predicate sees the pile (bottom first), the slap rules and how many of the pile's cards are face up
# (the rest, under ``burned_count``, are burned cards at the bottom).
Predicate: TypeAlias = "Callable[[Sequence[Card], SlapRules, int], Match | None]"


@dataclass(frozen=True, slots=True)
class Pattern:
    """A slap pattern, declared once: its key, its predicate, the rules keys that must all be on for it to be
    played (``on``, the last one its own switch; a key is on unless it is false, 0 or "off"), and how much of
    the pile it looks at: ``reach`` top cards (a number, or how the slap rules set it), and with ``bottom`` the
    pile's bottom card too. The drills show that much of a pile; the C kernel's list is generated from these."""

    key: str
    test: Predicate
    on: tuple[str, ...]
    reach: int | Callable[[SlapRules], int]
    bottom: bool = False

    @property
    def switch(self) -> str:
        """The rules key that turns this pattern on (``slaps.ten_gap``; ``slaps.ten`` must be on as well)."""
        return self.on[-1]

    def enabled(self, rules: SlapRules) -> bool:
        return all(getattr(rules, key.split(".", 1)[1]) not in _OFF for key in self.on)

    def reach_under(self, rules: SlapRules) -> int:
        """How many top cards it looks at under these rules."""
        return self.reach(rules) if callable(self.reach) else self.reach


_OFF: tuple[object, ...] = (False, 0, "off")


def _ranks(cards: Sequence[Card]) -> str:
    return " ".join("X" if c.is_joker else ("10" if c.rank is Rank.TEN else c.rank.symbol) for c in cards)


def _top(pile: Sequence[Card], n: int) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """The top ``n`` cards, bottom first, and their places in the pile."""
    return tuple(pile[-n:]), tuple(range(len(pile) - n, len(pile)))


def _ends(pile: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """The bottom card and the top card, and their places in the pile."""
    return (pile[0], pile[-1]), (0, len(pile) - 1)


def _same_rank(a: Card, b: Card) -> bool:
    return a.rank is b.rank and a.rank is not Rank.JOKER


def double(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 2 and _same_rank(pile[-1], pile[-2]):
        top, at = _top(pile, 2)
        return Match("double", top, f"double: {_ranks(top)}, two of a rank in a row", at)
    return None


def sandwich(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 3 and _same_rank(pile[-1], pile[-3]):
        top, at = _top(pile, 3)
        return Match("sandwich", top, f"sandwich: {_ranks(top)}, the top card matches the third", at)
    return None


def top_bottom(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if face_up >= 2 and _same_rank(pile[-1], pile[0]):
        ends, at = _ends(pile)
        return Match("top_bottom", ends, f"top-bottom: {_ranks(ends)}, the top card matches the bottom of the pile", at)
    return None


_ROYALS = {Rank.KING, Rank.QUEEN}
_RED = {Suit.HEARTS, Suit.DIAMONDS}


def _royal_couple(a: Card, b: Card, rules: SlapRules) -> bool:
    """A King and a Queen, of the suits ``slaps.marriage_suits`` asks for (a bare rank has no suit to match)."""
    if {a.rank, b.rank} != _ROYALS:
        return False
    if rules.marriage_suits == "any":
        return True
    if a.suit is None or b.suit is None:
        return False
    if rules.marriage_suits == "same-suit":
        return a.suit is b.suit
    return (a.suit in _RED) == (b.suit in _RED)


def _couple_words(cards: tuple[Card, ...], rules: SlapRules) -> tuple[str, str]:
    """The cards as the reason shows them, and what the King and Queen must share (nothing by default)."""
    if rules.marriage_suits == "any":
        return _ranks(cards), ""
    return format_cards(cards), " of one suit" if rules.marriage_suits == "same-suit" else " of one colour"


def marriage(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 2 and _royal_couple(pile[-1], pile[-2], rules):
        top, at = _top(pile, 2)
        shown, shared = _couple_words(top, rules)
        return Match("marriage", top, f"marriage: {shown}, a King and a Queen{shared} side by side", at)
    return None


def divorce(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 3 and _royal_couple(pile[-1], pile[-3], rules):
        top, at = _top(pile, 3)
        shown, shared = _couple_words(top, rules)
        return Match("divorce", top, f"divorce: {shown}, a King and a Queen{shared} with one card between", at)
    return None


def run(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    length = rules.run
    if length < 2 or len(pile) < length:
        return None
    cards, at = _top(pile, length)
    if any(c.is_joker for c in cards):
        return None
    # Place in the order 2..A as 0..12; with wrap, steps are taken round the circle of 13.
    places = [c.rank - 2 for c in cards]
    steps = [b - a for a, b in pairwise(places)]
    if rules.run_wrap:
        steps = [(s + 13) % 13 for s in steps]
        direction_ok = all(s == 1 for s in steps) or all(s == 12 for s in steps)
    else:
        direction_ok = all(s == 1 for s in steps) or all(s == -1 for s in steps)
    if direction_ok:
        return Match("run", cards, f"run: {_ranks(cards)}, {length} cards in sequence", at)
    return None


def ten_value(card: Card, rules: SlapRules) -> int | None:
    """What a card is worth towards ten: 2-10 at face value, an Ace 1 under ``ace-one``, else nothing."""
    if Rank.TWO <= card.rank <= Rank.TEN:
        return int(card.rank)
    if card.rank is Rank.ACE and rules.ten == "ace-one":
        return 1
    return None


def _sum_to_ten(a: Card, b: Card, rules: SlapRules) -> bool:
    va, vb = ten_value(a, rules), ten_value(b, rules)
    return va is not None and vb is not None and va + vb == 10


def ten(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 2 and _sum_to_ten(pile[-2], pile[-1], rules):
        top, at = _top(pile, 2)
        return Match("ten", top, f"ten: {_ranks(top)} add up to 10", at)
    return None


def ten_gap(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) < 3 or not _sum_to_ten(pile[-3], pile[-1], rules):
        return None
    middle = pile[-2]
    if rules.ten_gap == "court" and not (middle.rank.is_court and not middle.is_joker):
        return None
    top, at = _top(pile, 3)
    between = "a court card" if rules.ten_gap == "court" else "one card"
    return Match("ten_gap", top, f"ten with a gap: {_ranks((top[0], top[2]))} add up to 10 with {between} between", at)


def joker(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if pile and pile[-1].is_joker:
        top, at = _top(pile, 1)
        return Match("joker", top, "joker: a joker is on top", at)
    return None


def bigmac(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 4 and _same_rank(pile[-1], pile[-4]):
        top, at = _top(pile, 4)
        return Match("bigmac", top, f"Big Mac: {_ranks(top)}, the top card matches the fourth", at)
    return None


def flush(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    length = rules.flush
    if length < 2 or len(pile) < length:
        return None
    top, at = _top(pile, length)
    suit = top[0].suit
    # A joker has no suit, and neither has a bare rank given to the referee: neither is part of a flush.
    if suit is None or any(c.suit is not suit for c in top):
        return None
    return Match("flush", top, f"flush: {format_cards(top)}, {length} cards of one suit", at)


_WILDCARD_RANKS: dict[object, Rank] = {int(r): r for r in Rank if Rank.TWO <= r <= Rank.TEN} | {
    r.symbol: r for r in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
}


def wildcard_rank(rules: SlapRules) -> Rank | None:
    """The rank ``slaps.wildcard`` names, or None when it is off."""
    return _WILDCARD_RANKS.get(rules.wildcard)


def wildcard(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if pile and pile[-1].rank is wildcard_rank(rules):
        top, at = _top(pile, 1)
        return Match("wildcard", top, f"wildcard: {_ranks(top)} is on top", at)
    return None


_SIX_NINE = {Rank.SIX, Rank.NINE}


def six_nine(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if len(pile) >= 2 and {pile[-1].rank, pile[-2].rank} == _SIX_NINE:
        top, at = _top(pile, 2)
        return Match("six_nine", top, f"six-nine: {_ranks(top)}, a 6 and a 9 side by side", at)
    return None


def top_bottom_ten(pile: Sequence[Card], rules: SlapRules, face_up: int) -> Match | None:
    if face_up >= 3 and _sum_to_ten(pile[0], pile[-1], rules):
        ends, at = _ends(pile)
        return Match(
            "top_bottom_ten", ends, f"top-bottom ten: {_ranks(ends)}, the top and bottom cards add up to 10", at
        )
    return None


PATTERNS: tuple[Pattern, ...] = (
    Pattern("double", double, on=("slaps.double",), reach=2),
    Pattern("sandwich", sandwich, on=("slaps.sandwich",), reach=3),
    Pattern("top_bottom", top_bottom, on=("slaps.top_bottom",), reach=1, bottom=True),
    Pattern("marriage", marriage, on=("slaps.marriage",), reach=2),
    Pattern("divorce", divorce, on=("slaps.divorce",), reach=3),
    Pattern("run", run, on=("slaps.run",), reach=lambda s: s.run),
    Pattern("ten", ten, on=("slaps.ten",), reach=2),
    Pattern("ten_gap", ten_gap, on=("slaps.ten", "slaps.ten_gap"), reach=3),
    Pattern("joker", joker, on=("slaps.joker",), reach=1),
    Pattern("bigmac", bigmac, on=("slaps.bigmac",), reach=4),
    Pattern("flush", flush, on=("slaps.flush",), reach=lambda s: s.flush),
    Pattern("wildcard", wildcard, on=("slaps.wildcard",), reach=1),
    Pattern("six_nine", six_nine, on=("slaps.six_nine",), reach=2),
    Pattern("top_bottom_ten", top_bottom_ten, on=("slaps.ten", "slaps.top_bottom_ten"), reach=1, bottom=True),
)
PATTERN_KEYS: tuple[str, ...] = tuple(p.key for p in PATTERNS)
PATTERNS_BY_KEY: dict[str, Pattern] = {p.key: p for p in PATTERNS}


def enabled_patterns(rules: Rules) -> tuple[Pattern, ...]:
    return tuple(p for p in PATTERNS if p.enabled(rules.slaps))


def find_matches(pile: Sequence[Card], rules: Rules, *, face_up: int | None = None) -> list[Match]:
    """Every enabled pattern the pile shows, in the order of :data:`PATTERNS` (that of docs/rules.md).

    ``face_up`` is how many of ``pile``'s cards are face up (default: all of them); the others are burned
    cards at the bottom, which only ``slaps.burned_count`` brings into patterns.
    """
    slaps = rules.slaps
    shown = len(pile) if face_up is None else face_up
    found = []
    for pattern in enabled_patterns(rules):
        match = pattern.test(pile, slaps, shown)
        if match is not None:
            found.append(match)
    return found
