"""The words of the Learn pages and drills: messages in the reader's language, cards and rule values as
people write them, and the small blocks (paragraph, note) the pages are made of.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratscrew.cards import Card, Rank
from ratscrew.i18n import catalog, text, text_count
from ratscrew.patterns import enabled_patterns, wildcard_rank
from ratscrew.rules import OPTIONS_BY_KEY, Option, Rules
from ratscrew.rules.options import Value, needs_met

Doc = dict[str, object]

# Integer options whose 0 means "none" and reads better as words than as a number.
ZERO_WORDS: tuple[str, ...] = (
    "challenge.joker",
    "slapping.collect_delay_ms",
    "slapping.tie_window_ms",
    "end.time_limit_s",
    "end.max_cards",
)


def slap_keys(rules: Rules) -> list[str]:
    """The patterns that can really be slapped: enabled, and what their option needs (rules/options.py) is
    set so; the joker slap needs jokers in the deck. Learn, the summary and the cheat sheet all ask here."""
    values = rules.values()
    return [p.key for p in enabled_patterns(rules) if needs_met(OPTIONS_BY_KEY[p.switch], values)]


@dataclass(frozen=True, slots=True)
class Texts:
    """Messages of one language, so the builders below need not pass ``lang`` to every call."""

    lang: str

    def __call__(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def count(self, key: str, n: int, **values: object) -> str:
        """A message whose wording depends on a number: ``key.one`` or ``key.other`` by the language's CLDR rule."""
        return text_count(self.lang, key, n, **values)

    def names(self) -> list[str]:
        """Names for the players in examples, chosen per language so they read naturally."""
        names = [n.strip() for n in self("learn.names").split(",") if n.strip()]
        return names if len(names) >= 3 else ["Ann", "Ben", "Cleo"]

    def seconds(self, ms: int) -> str:
        amount = f"{ms / 1000:g}"
        if self.lang in ("fr", "de"):
            amount = amount.replace(".", ",")
        return self("learn.value.s", n=amount)


def card_text(card: Card, tr: Texts | None = None) -> str:
    """A card as people write it in the reader's language (``Q♠``, ``D♠`` in French, ``10♦``, ``Joker``).

    The letters are the catalog's ``card.letter.*``, the same ones the page draws (``prettyCard`` in cards.js);
    without ``tr`` the card is written in English.
    """
    if tr is None:
        return card.pretty
    if card.is_joker:
        return tr("card.joker")
    return tr(f"card.letter.{card.rank.symbol}") + (card.suit.glyph if card.suit else "")


def cards_text(cards: Sequence[Card], tr: Texts | None = None) -> str:
    return " ".join(card_text(c, tr) for c in cards)


def rank_name(tr: Texts, rank: Rank) -> str:
    return tr(f"learn.rank.{rank.symbol}")


def no_challenges(rules: Rules) -> bool:
    """No card opens a challenge (Slapjack): every court card demands 0, and so does the joker if there is one."""
    c = rules.challenge
    return not (c.J or c.Q or c.K or c.A or (c.joker and rules.deck.jokers))


def wildcard_text(tr: Texts, rules: Rules) -> str:
    """The rank ``slaps.wildcard`` names, as a word in the reader's language (``Jack``, ``10``)."""
    rank = wildcard_rank(rules.slaps)
    return rank_name(tr, rank) if rank is not None else ""


def value_label(tr: Texts, opt: Option, value: Value) -> str:
    """A rule value in words: on/off, a choice's label, or a number with its unit."""
    if opt.kind == "bool":
        return tr("learn.value.on" if value else "learn.value.off")
    if opt.kind == "choice":
        return tr(f"choice.{opt.key}.{value}")
    assert isinstance(value, int)
    if value == 0 and opt.key in ZERO_WORDS:
        return tr(f"learn.value.zero.{opt.key}")
    if value == 0 and opt.key.startswith("challenge."):
        return tr("learn.value.zero.demand")
    if opt.key.endswith("_ms"):
        return tr("learn.value.ms", n=value)
    if opt.key.endswith("_s"):
        return tr("learn.value.s", n=value)
    if opt.key.startswith("challenge."):
        return tr.count("learn.value.cards", value)
    return str(value)


def option_label(tr: Texts, key: str) -> str:
    """A rules key's short name for players (the score keeper's label), or its summary for what only a computer
    measures (the score keeper has no label for those: it leaves them out)."""
    return tr(f"scores.opt.{key}") if OPTIONS_BY_KEY[key].table else tr(f"option.{key}")


def key_doc(tr: Texts, rules: Rules, key: str) -> Doc:
    """One rules key as shown beside an explanation: the key, its name, its value and the value in words, and its
    standard value, in words too (a changed setting's chip says what it was changed from)."""
    opt = OPTIONS_BY_KEY[key]
    value = rules.get(key)
    # A yes/no rule whose needs are not met does nothing (runs round the corner without runs): it reads "no".
    shown = False if opt.kind == "bool" and not needs_met(opt, rules.values()) else value
    return {
        "key": key,
        "name": option_label(tr, key),
        "value": value,
        "label": value_label(tr, opt, shown),
        "default": opt.default,
        "default_label": value_label(tr, opt, opt.default),
        "changed": value != opt.default,
    }


def keys_doc(tr: Texts, rules: Rules, keys: Sequence[str]) -> list[Doc]:
    return [key_doc(tr, rules, k) for k in keys]


def paragraph(value: str) -> Doc:
    return {"type": "p", "text": value}


def note(value: str) -> Doc:
    return {"type": "note", "text": value}


def missing_texts(lang: str) -> list[str]:
    """Keys the English catalog has and ``lang`` lacks (a test keeps this empty)."""
    english, other = catalog("en"), catalog(lang)
    return sorted(k for k in english if k.startswith(("learn.", "drill.")) and k not in other)
