"""Example piles judged by the engine: a pile for each slap pattern (the cleanest one under the chosen rules),
its variants, near misses, and each match named and explained in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ratscrew.cards import Card, Rank, parse_cards
from ratscrew.learn.words import Doc, Texts, cards_text
from ratscrew.patterns import Match, find_matches, wildcard_rank
from ratscrew.rules import Rules

# Suits used to draw a rank on its own, so a page of cards does not look like one long suit.
SHOW_SUIT = {
    Rank.ACE: "S",
    Rank.KING: "H",
    Rank.QUEEN: "C",
    Rank.JACK: "D",
    Rank.TEN: "H",
    Rank.NINE: "S",
    Rank.EIGHT: "D",
    Rank.SEVEN: "C",
    Rank.SIX: "H",
    Rank.FIVE: "S",
    Rank.FOUR: "D",
    Rank.THREE: "C",
    Rank.TWO: "H",
}
OTHER_SUIT = {"S": "H", "H": "C", "C": "D", "D": "S"}


def match_doc(tr: Texts, match: Match) -> Doc:
    """A match with its name, a one-line reason in the page's language, and the places of its cards in the pile
    (``positions``, from the bottom: what a page marks)."""
    return {
        "pattern": match.pattern,
        "name": tr(f"pattern.{match.pattern}"),
        "cards": [str(c) for c in match.cards],
        "positions": list(match.positions),
        "why": tr(f"pattern.{match.pattern}.why", cards=cards_text(match.cards, tr)),
    }


def verdict(tr: Texts, matches: Sequence[Match]) -> str:
    if not matches:
        return tr("learn.verdict.none")
    return tr("learn.verdict.slap", patterns=", ".join(tr(f"pattern.{m.pattern}") for m in matches))


def example(tr: Texts, rules: Rules, pile: Sequence[Card], *, shows: str | None = None, caption: str = "") -> Doc:
    """A pile (bottom first) with the engine's verdict on it; ``shows`` names the pattern it is meant to show."""
    matches = find_matches(pile, rules)
    return {
        "type": "example",
        "cards": [str(c) for c in pile],
        "shows": shows,
        "caption": caption,
        "slappable": bool(matches),
        "patterns": [m.pattern for m in matches],
        "matches": [match_doc(tr, m) for m in matches],
        "verdict": verdict(tr, matches),
    }


def iter_examples(node: object) -> Iterator[Doc]:
    """Every example anywhere in a document (tests check each one against the engine)."""
    if isinstance(node, dict):
        if node.get("type") == "example":
            yield node
        for value in node.values():
            yield from iter_examples(value)
    elif isinstance(node, list):
        for item in node:
            yield from iter_examples(item)


# Candidate piles (bottom first) for each pattern. The first one that shows the pattern with the fewest
# other patterns under the chosen rules is used, so the example stays clean whatever else is switched on.
_SHOWS: dict[str, tuple[str, ...]] = {
    "double": ("4C 9H 9S", "JD 6S 6H", "2C 8D 8S"),
    "sandwich": ("3D 7S KD 7C", "5H 8C 2S 8D", "JH 4S 9D 4C"),
    "top_bottom": ("8C 3D KS 5H 8H", "6S 2H JC 6D", "QH 4C 9S 2D QC"),
    # The last of each is a King and a Queen of one suit, for tables that ask for that (slaps.marriage_suits).
    "marriage": ("5S KH QC", "9D QS KD", "3H KS QD", "7C KH QH"),
    "divorce": ("4H KC 7D QS", "2S QH 8C KD", "6D KS 3H QS"),
    "ten": ("KS 3H 7D", "JC 6S 4H", "QD 2C 8H"),
    "ten_gap": ("5D 3H KC 7S", "9S 2C QH 8D", "6D 3H 5C 7S"),
    "joker": ("5D X", "QC X"),
    "bigmac": ("3D 7S 2H KD 7C", "9C 4S JH 2D 4D", "5S QH 8C 3D QD"),
    "flush": ("9C 4H 2H 7H KH", "3S 8D 5D JD 2D", "KC 9S 3S 6S 4S"),
    "six_nine": ("4C 6D 9S", "JH 9D 6C", "2S 6H 9C"),
    "top_bottom_ten": ("3D 8C KS 7H", "4S JC 2D 6H", "2C 9D QS 8H"),
}
# Cards to lay under a wildcard, the first two whose rank is not the wildcard's.
_UNDER_WILDCARD = ("4C", "9D", "3S", "JH", "6C", "QD")
_RUNS: dict[int, tuple[str, ...]] = {
    3: ("JS 4C 5D 6H", "2D 9H 8C 7S", "KD 5S 6C 7H"),
    4: ("JS 4C 5D 6H 7S", "2D 9H 8C 7S 6D", "KD 5S 6C 7H 8D"),
}
_WRAPS: dict[int, str] = {3: "5C KD AS 2H", 4: "6C QD KS AH 2S"}
# Near misses: piles that look like a pattern but are not one, with the reason in words.
_NEAR: dict[str, tuple[str, str]] = {
    "double": ("6D 9H 8S", "learn.near.double"),
    "sandwich": ("KD 7S 4D 2C 7C", "learn.near.sandwich"),
    "marriage": ("5S KH JC", "learn.near.marriage"),
    "divorce": ("KC 7D 4H QS", "learn.near.divorce"),
    "ten": ("JD 6S 5H", "learn.near.ten"),
    "bigmac": ("7S 2H KD QC 7C", "learn.near.bigmac"),
    "flush": ("9C 2H 7H KD", "learn.near.flush"),
    "six_nine": ("6D 4S 9C", "learn.near.six_nine"),
}


def _candidates(pattern: str, rules: Rules) -> tuple[str, ...]:
    if pattern == "run":
        return _RUNS.get(rules.slaps.run, ())
    if pattern == "wildcard":
        rank = wildcard_rank(rules.slaps)
        if rank is None:
            return ()
        under = [c for c in _UNDER_WILDCARD if Card.parse(c).rank is not rank]
        top = str(show_card(rank))
        return (f"{under[0]} {under[1]} {top}", f"{under[2]} {under[3]} {top}")
    return _SHOWS.get(pattern, ())


def pick_pile(rules: Rules, pattern: str, candidates: Sequence[str]) -> list[Card] | None:
    """The candidate that shows ``pattern`` with the fewest other patterns, or None if none shows it."""
    best: list[Card] | None = None
    best_extra = 99
    for pile_text in candidates:
        pile = parse_cards(pile_text)
        found = [m.pattern for m in find_matches(pile, rules)]
        if pattern in found and len(found) - 1 < best_extra:
            best, best_extra = pile, len(found) - 1
    return best


def pattern_pile(rules: Rules, pattern: str) -> list[Card] | None:
    """The cleanest pile that shows ``pattern`` under these rules (None when the rules rule it out)."""
    return pick_pile(rules, pattern, _candidates(pattern, rules))


def _clean(rules: Rules, pile_text: str) -> list[Card] | None:
    """The pile if the engine finds nothing in it (a near miss must really be a miss under these rules)."""
    pile = parse_cards(pile_text)
    return None if find_matches(pile, rules) else pile


def pattern_examples(tr: Texts, rules: Rules, pattern: str) -> list[Doc]:
    """A pile that shows the pattern, any variant worth its own picture, and near misses, all engine-judged."""
    shown: list[Doc] = []
    pile = pattern_pile(rules, pattern)
    if pile is not None:
        shown.append(example(tr, rules, pile, shows=pattern))
    slaps = rules.slaps
    if pattern == "run" and slaps.run_wrap:
        wrap = pick_pile(rules, "run", (_WRAPS[slaps.run],))
        if wrap is not None:
            shown.append(example(tr, rules, wrap, shows="run", caption=tr("learn.example.wrap")))
    if pattern == "ten" and slaps.ten == "ace-one":
        ace = pick_pile(rules, "ten", ("KD AS 9H", "3C AH 9D"))
        if ace is not None:
            shown.append(example(tr, rules, ace, shows="ten", caption=tr("learn.example.ace_one")))
    shown.extend(_near_misses(tr, rules, pattern))
    return shown


def _near_misses(tr: Texts, rules: Rules, pattern: str) -> list[Doc]:
    slaps = rules.slaps
    near: list[tuple[str, str]] = []
    if pattern in _NEAR:
        near.append(_NEAR[pattern])
    if pattern == "run":
        near.append(("4C 5D 7H" if slaps.run == 3 else "3C 4D 5H 7S", "learn.near.run"))
        if not slaps.run_wrap:
            near.append((_WRAPS[slaps.run], "learn.near.run_wrap"))
    if pattern == "ten" and slaps.ten == "numbers":
        near.append(("KD AS 9H", "learn.near.ten_ace"))
    if pattern == "ten_gap" and slaps.ten_gap == "court":
        near.append(("6D 3H 5C 7S", "learn.near.ten_gap"))
    if pattern == "marriage" and slaps.marriage_suits != "any":
        near.append(("5S KH QC", f"learn.near.marriage_suits.{slaps.marriage_suits}"))
    out: list[Doc] = []
    for pile_text, key in near:
        pile = _clean(rules, pile_text)
        if pile is not None:
            out.append(example(tr, rules, pile, caption=tr(key)))
    return out


def show_card(rank: Rank, suit: str | None = None) -> Card:
    if rank is Rank.JOKER:
        return Card.parse("X")
    return Card.parse(rank.symbol + (suit or SHOW_SUIT[rank]))
