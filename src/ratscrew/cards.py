"""Cards, their notation and the decks they come in.

A card is a rank and a suit, written rank first: ``7S``, ``TD`` (or ``10D``), ``KH``, ``A♠``. A joker is
``X``. Where suits cannot matter (the referee), a bare rank such as ``7`` is a card too. Cards are
interned, so the same card is always the same object and comparing them is cheap.

>>> Card.parse("10♦")
Card.parse('TD')
>>> str(Card.parse("qh")), str(Card.parse("x"))
('QH', 'X')
>>> [str(c) for c in parse_cards("7S K 7c", bare_rank=True)]
['7S', 'K', '7C']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from ratscrew.errors import NotationError


class Rank(IntEnum):
    """Card ranks; the value is the rank's place in the order 2 3 ... 10 J Q K A (jokers have none)."""

    JOKER = 0
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    @property
    def is_court(self) -> bool:
        """J, Q, K and A: the cards that open a challenge (the seeds count the Ace as a court card)."""
        return self >= Rank.JACK


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def glyph(self) -> str:
        return _SUIT_GLYPHS[self]


_RANK_SYMBOLS = {
    Rank.JOKER: "X",
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANK_BY_TEXT = {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()} | {"10": Rank.TEN}
_SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = (
    {s.value: s for s in Suit}
    | {g: s for s, g in _SUIT_GLYPHS.items()}
    | {
        "♤": Suit.SPADES,
        "♡": Suit.HEARTS,
        "♢": Suit.DIAMONDS,
        "♧": Suit.CLUBS,
    }
)
EXPECTED_CARD = "a rank (2-9, 10 or T, J, Q, K, A) and a suit (S H D C or ♠ ♥ ♦ ♣), e.g. 7S, TD, QH; or X for a joker"


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``suit`` is None for a joker and for a bare rank (a card whose suit does not matter)."""

    rank: Rank
    suit: Suit | None = None

    @staticmethod
    def parse(text: str, *, bare_rank: bool = False) -> Card:
        """Read one card in the project's notation; ``bare_rank`` also accepts a rank with no suit.

        >>> Card.parse("A♣") == Card(Rank.ACE, Suit.CLUBS)
        True
        """
        key = text.strip().upper()
        card = _PARSED.get(key)
        if card is None and bare_rank:
            rank = _RANK_BY_TEXT.get(key)
            if rank is not None:
                card = _interned(rank, None)
        if card is None:
            what = EXPECTED_CARD + (", or a bare rank" if bare_rank else "")
            raise NotationError(f"{text!r} is not a card: expected {what}")
        return card

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def pretty(self) -> str:
        """The card with a suit glyph, for people: ``7♠``, ``10♦``, ``Joker``."""
        if self.is_joker:
            return "Joker"
        rank = "10" if self.rank is Rank.TEN else self.rank.symbol
        return rank + (self.suit.glyph if self.suit else "")

    def __str__(self) -> str:
        return self.rank.symbol + (self.suit.value if self.suit else "")

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[str, bool]]:
        # Pickled cards (sent to worker processes) come back as the interned objects.
        return (_unpickle_card, (str(self), self.suit is None))


def _unpickle_card(text: str, bare: bool) -> Card:
    return Card.parse(text, bare_rank=bare)


_INTERNED: dict[tuple[Rank, Suit | None], Card] = {}


def _interned(rank: Rank, suit: Suit | None) -> Card:
    card = _INTERNED.get((rank, suit))
    if card is None:
        card = _INTERNED[(rank, suit)] = Card(rank, suit)
    return card


JOKER = _interned(Rank.JOKER, None)
STANDARD_RANKS = tuple(r for r in Rank if r is not Rank.JOKER)
FULL_DECK: tuple[Card, ...] = tuple(_interned(r, s) for s in Suit for r in STANDARD_RANKS)
_PARSED: dict[str, Card] = {"X": JOKER}
for _card in FULL_DECK:
    assert _card.suit is not None
    for _rank_text in [t for t, r in _RANK_BY_TEXT.items() if r is _card.rank]:
        for _suit_text in [t for t, s in _SUIT_BY_TEXT.items() if s is _card.suit]:
            _PARSED[_rank_text + _suit_text] = _card


def parse_cards(text: str | Iterable[str], *, bare_rank: bool = False) -> list[Card]:
    """Read cards separated by spaces or commas (or given one per item)."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item, bare_rank=bare_rank) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """What the shoe holds: ``decks`` standard decks, each with ``jokers`` jokers."""

    decks: int = 1
    jokers: int = 0

    def cards(self) -> list[Card]:
        """Every card of the shoe, in a fixed (unshuffled) order."""
        one = list(FULL_DECK) + [JOKER] * self.jokers
        return one * self.decks

    @property
    def size(self) -> int:
        return self.decks * (52 + self.jokers)

    def copies(self, card: Card) -> int:
        """How many times the shoe holds this card (a bare rank: every suit of that rank)."""
        if card.is_joker:
            return self.decks * self.jokers
        return self.decks * (1 if card.suit else 4)

    def check_counts(self, cards: Sequence[Card], what: str = "the cards") -> None:
        """Raise if ``cards`` hold any card more often than the shoe does (bare ranks count per rank)."""
        counts = Counter(cards)
        for card, n in counts.items():
            if n > self.copies(card):
                raise NotationError(
                    f"{what} hold {card} {n} times, but {self._describe()} holds it {self.copies(card)} "
                    f"time{'s' if self.copies(card) != 1 else ''}"
                )
        per_rank = Counter(c.rank for c in cards if not c.is_joker)
        for rank, n in per_rank.items():
            if n > 4 * self.decks:
                raise NotationError(
                    f"{what} hold {n} cards of rank {rank.symbol}, but {self._describe()} holds {4 * self.decks}"
                )

    def _describe(self) -> str:
        decks = "one deck" if self.decks == 1 else f"{self.decks} decks"
        jokers = f" with {self.jokers} joker{'s' if self.jokers != 1 else ''} each" if self.jokers else ""
        return decks + jokers


def deal(cards: Sequence[Card], seats: int) -> list[list[Card]]:
    """Deal every card one at a time from seat 0; each stack is listed top card first.

    The first seats get the extra cards when the deck does not divide evenly.

    >>> [len(h) for h in deal(FULL_DECK, 3)]
    [18, 17, 17]
    """
    return [list(cards[seat::seats]) for seat in range(seats)]
