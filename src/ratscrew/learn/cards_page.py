"""The card reference: what each rank does under the chosen rules, each claim shown on a pile the engine
judged.
"""

from __future__ import annotations

from collections.abc import Sequence

from ratscrew.cards import Card, Rank
from ratscrew.i18n import LANGUAGES, catalog, text
from ratscrew.learn.examples import OTHER_SUIT, SHOW_SUIT, example, show_card
from ratscrew.learn.words import Doc, Texts, rank_name
from ratscrew.patterns import find_matches, wildcard_rank
from ratscrew.rules import Rules

REFERENCE_RANKS: tuple[Rank, ...] = (
    Rank.ACE,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.TEN,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
    Rank.SIX,
    Rank.FIVE,
    Rank.FOUR,
    Rank.THREE,
    Rank.TWO,
    Rank.JOKER,
)
NUMBER_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if Rank.TWO <= r <= Rank.TEN)


def _partner(rank: Rank, card: Card) -> Card:
    """Another card of ``rank`` that is not ``card`` (so a pair never repeats one physical card)."""
    suit = SHOW_SUIT[rank]
    if card.suit is not None and card.rank is rank and card.suit.value == suit:
        suit = OTHER_SUIT[suit]
    return show_card(rank, suit)


def _filler(avoid: Sequence[Rank]) -> Card:
    """A card to put between two others that makes no pattern of its own with them: a Jack, or a 5."""
    for rank in (Rank.JACK, Rank.FIVE, Rank.TWO, Rank.NINE):
        if rank not in avoid:
            return show_card(rank, "C")
    return show_card(Rank.THREE, "C")


def _fact(
    tr: Texts, rules: Rules, key: str, pile: Sequence[Card] | None, pattern: str | None = None, **values: object
) -> Doc:
    fact: Doc = {"text": tr(key, **values)}
    if pattern is not None:
        fact["pattern"] = pattern  # the pattern the fact tells of (a test checks each one is told of)
    if pile is not None:
        fact["example"] = example(tr, rules, pile, shows=pattern)
    return fact


def _ten_partners(rules: Rules, rank: Rank) -> list[Rank]:
    """Ranks that make a ten with ``rank`` when played on it, as the engine judges it."""
    card = show_card(rank)
    found = []
    for other in (*NUMBER_RANKS, Rank.ACE):
        pile = [_partner(other, card), card]
        if any(m.pattern == "ten" for m in find_matches(pile, rules)):
            found.append(other)
    return found


def _run_through(rules: Rules, rank: Rank) -> list[Card] | None:
    """A run of the rules' length that ends on ``rank`` (going up, else down), checked by the engine."""
    length = rules.slaps.run
    order: list[Rank] = [r for r in Rank if r is not Rank.JOKER]
    at = order.index(rank)
    for step in (1, -1):
        ranks = [order[(at - step * i) % 13] for i in range(length - 1, -1, -1)]
        if not rules.slaps.run_wrap and not all(0 <= at - step * i < 13 for i in range(length)):
            continue
        pile = [show_card(r) for r in ranks]
        if any(m.pattern == "run" for m in find_matches(pile, rules)):
            return pile
    return None


def card_facts(tr: Texts, rules: Rules, rank: Rank) -> list[Doc]:
    """What one rank does under the rules: its demand and the patterns it can take part in."""
    card = show_card(rank)
    name = rank_name(tr, rank)
    demand = rules.demand(card)
    s = rules.slaps
    facts: list[Doc] = []
    if rank is Rank.JOKER:
        facts.append(
            _fact(tr, rules, "learn.cards.joker.deck" if rules.deck.jokers else "learn.cards.joker.absent", None)
        )
    if demand:
        facts.append({"text": tr.count("learn.cards.demand", demand, rank=name)})
    elif rank is Rank.JOKER:
        facts.append({"text": tr("learn.cards.joker.no_demand")})
    elif rank.is_court:
        facts.append({"text": tr("learn.cards.no_demand")})
    else:
        facts.append({"text": tr("learn.cards.number")})
    if rank is Rank.TEN and rules.challenge.ten_stops:
        facts.append({"text": tr("learn.cards.ten_stops")})
    if rank is Rank.JOKER:
        if s.joker:
            facts.append(_fact(tr, rules, "learn.cards.joker.slap", [show_card(Rank.FIVE), card], "joker"))
        facts.append({"text": tr("learn.cards.joker.breaks")})
        return facts
    other = _partner(rank, card)
    if s.double:
        facts.append(_fact(tr, rules, "learn.cards.double", [other, card], "double", rank=name))
    if s.sandwich:
        facts.append(_fact(tr, rules, "learn.cards.sandwich", [other, _filler([rank]), card], "sandwich", rank=name))
    if rank in (Rank.KING, Rank.QUEEN):
        # Of the card's own suit where the table asks a King and Queen to share one (slaps.marriage_suits).
        suit = card.suit.value if s.marriage_suits != "any" and card.suit is not None else None
        mate = show_card(Rank.QUEEN if rank is Rank.KING else Rank.KING, suit)
        if s.marriage:
            facts.append(_fact(tr, rules, "learn.cards.marriage", [mate, card], "marriage"))
        if s.divorce:
            facts.append(_fact(tr, rules, "learn.cards.divorce", [mate, _filler([rank, mate.rank]), card], "divorce"))
    if s.ten != "off":
        partners = _ten_partners(rules, rank)
        if partners:
            first = partners[0]
            shown = ", ".join(r.symbol if r is not Rank.TEN else "10" for r in partners)
            facts.append(_fact(tr, rules, "learn.cards.ten", [_partner(first, card), card], "ten", partners=shown))
            if s.ten_gap != "off":
                around = [_partner(first, card), _filler([rank, first]), card]
                facts.append(_fact(tr, rules, f"learn.cards.ten_gap.{s.ten_gap}", around, "ten_gap", partners=shown))
        else:
            facts.append({"text": tr("learn.cards.no_ten")})
    if s.run:
        run_pile = _run_through(rules, rank)
        if run_pile is not None:
            facts.append(_fact(tr, rules, "learn.cards.run", run_pile, "run", n=s.run))
    if s.top_bottom:
        facts.append(_fact(tr, rules, "learn.cards.top_bottom", None, "top_bottom", rank=name))
    facts.extend(_house_facts(tr, rules, rank, card, other))
    return facts


def _house_facts(tr: Texts, rules: Rules, rank: Rank, card: Card, other: Card) -> list[Doc]:
    """The patterns of the house rules a rank can take part in: Big Mac, flush, wildcard, six-nine, top-bottom ten."""
    s = rules.slaps
    name = rank_name(tr, rank)
    facts: list[Doc] = []
    if s.bigmac:
        first = _filler([rank])
        pile = [other, first, _filler([rank, first.rank]), card]
        facts.append(_fact(tr, rules, "learn.cards.bigmac", pile, "bigmac", rank=name))
    if s.flush and card.suit is not None:
        under = [show_card(r, card.suit.value) for r in (Rank.TWO, Rank.FIVE, Rank.NINE, Rank.KING) if r is not rank]
        pile = [*under[: s.flush - 1], card]
        facts.append(_fact(tr, rules, "learn.cards.flush", pile, "flush", n=s.flush))
    if rank is wildcard_rank(s):
        facts.append(_fact(tr, rules, "learn.cards.wildcard", [_filler([rank]), card], "wildcard", rank=name))
    if s.six_nine and rank in _SIX_NINE:
        mate = show_card(Rank.NINE if rank is Rank.SIX else Rank.SIX)
        facts.append(_fact(tr, rules, "learn.cards.six_nine", [mate, card], "six_nine"))
    if s.ten != "off" and s.top_bottom_ten:
        partners = _ten_partners(rules, rank)
        if partners:
            pile = [_partner(partners[0], card), _filler([rank, partners[0]]), card]
            shown = ", ".join(r.symbol if r is not Rank.TEN else "10" for r in partners)
            facts.append(_fact(tr, rules, "learn.cards.top_bottom_ten", pile, "top_bottom_ten", partners=shown))
    return facts


_SIX_NINE = (Rank.SIX, Rank.NINE)


def _pattern_names(facts: Sequence[Doc]) -> set[str]:
    """The names, in every language, of the patterns a card's facts show (so the filter finds "flush")."""
    keys: set[str] = set()
    for fact in facts:
        example = fact.get("example")
        if isinstance(example, dict) and isinstance(example.get("shows"), str):
            keys.add(str(example["shows"]))
    return {text(lang, f"pattern.{key}").lower() for key in keys for lang in LANGUAGES}


def card_reference(tr: Texts, rules: Rules) -> Doc:
    entries: list[Doc] = []
    for rank in REFERENCE_RANKS:
        card = show_card(rank)
        names = {lang: text(lang, f"learn.rank.{rank.symbol}") for lang in LANGUAGES}
        # Read straight from the catalogs: most ranks have no alias, and text() would answer with the key.
        aliases = sorted(
            {
                a.strip()
                for lang in LANGUAGES
                for a in catalog(lang).get(f"learn.rank.{rank.symbol}.alias", "").split(",")
                if a.strip()
            }
        )
        symbol = "10" if rank is Rank.TEN else rank.symbol
        kind = "joker" if rank is Rank.JOKER else ("court" if rank.is_court else "number")
        facts = card_facts(tr, rules, rank)
        entries.append(
            {
                "rank": rank.symbol,
                "symbol": symbol,
                "card": str(card),
                "name": names[tr.lang],
                "kind": kind,
                "kind_label": tr(f"learn.cards.kind.{kind}"),
                "demand": rules.demand(card),
                "search": sorted(
                    {
                        symbol.lower(),
                        rank.symbol.lower(),
                        *(n.lower() for n in names.values()),
                        *(a.lower() for a in aliases),
                        *_pattern_names(facts),
                    }
                ),
                "facts": facts,
            }
        )
    return {"title": tr("learn.cards.title"), "intro": tr("learn.cards.intro"), "cards": entries}
