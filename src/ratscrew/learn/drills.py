"""Practice questions made by the engine: every situation is dealt and played, every answer is computed.

A drill is a pure function of its kind, seed, rules and language, so a seed names a question for good
(a player can share it, a test can pin it). Three kinds:

- ``debt``: a short challenge really played by :class:`~ratscrew.engine.Game` from small dealt hands; the
  question is how many cards the payer still owes, or who takes the pile.
- ``slap``: a pile of 2 to 5 cards, half the time built on or next to a pattern; the answer is
  :func:`~ratscrew.patterns.find_matches` on it.
- ``stream``: cards turned one at a time, each marked with the patterns it completes, for a reaction drill
  (``shown`` says how many top cards the page must show for every pattern in play to be seen).

>>> from ratscrew.rules import Rules
>>> q = make_drill("slap", 7, Rules.build(), "en")
>>> q == make_drill("slap", 7, Rules.build(), "en"), q["kind"]
(True, 'slap')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ratscrew.cards import Card, Rank, Suit
from ratscrew.engine import Game
from ratscrew.engine.events import CardTurned, ChallengeOpened, ChallengeStopped, ChallengeWin, ChallengeWon, StopReason
from ratscrew.errors import MalformedInput, NotFound, RulesError
from ratscrew.learn.examples import match_doc
from ratscrew.learn.narrator import Step, challenge_steps, narrate
from ratscrew.learn.words import Doc, Texts, card_text, cards_text, no_challenges, rank_name, slap_keys
from ratscrew.patterns import PATTERNS_BY_KEY, find_matches, wildcard_rank
from ratscrew.rules import Rules
from ratscrew.shuffle import SeededRandom

DRILL_KINDS: tuple[str, ...] = ("debt", "slap", "stream")
MAX_SEED = (1 << 63) - 1
STREAM_LENGTH = 30
MAX_LEAD_IN = 4  # number cards before the first court card in a debt drill
_ORDER: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)  # 2 .. A


def make_drill(kind: str, seed: int, rules: Rules, lang: str) -> Doc:
    """One question of ``kind`` for ``seed``: the same arguments always give the same question.

    Raises :class:`~ratscrew.errors.NotFound` for an unknown kind, :class:`~ratscrew.errors.MalformedInput` for
    a seed out of range, and :class:`~ratscrew.errors.RulesError` for slapping drills under rules with no slaps.
    """
    if kind not in DRILL_KINDS:
        raise NotFound(f"unknown drill {kind[:20]!r}: expected one of {', '.join(DRILL_KINDS)}")
    if not 0 <= seed <= MAX_SEED:
        raise MalformedInput(f"seed must be an integer from 0 to {MAX_SEED}, got {seed}")
    tr = Texts(lang)
    base: Doc = {"kind": kind, "seed": seed, "preset": rules.preset, "lang": tr.lang}
    if kind == "debt":
        if no_challenges(rules):
            raise RulesError(tr("drill.error.no_challenges", preset=tr(f"preset.{rules.preset}.name")))
        return base | debt_drill(tr, rules, SeededRandom(seed))
    patterns = slap_patterns(rules)
    if not patterns:
        raise RulesError(tr("drill.error.no_patterns", preset=tr(f"preset.{rules.preset}.name")))
    if kind == "slap":
        return base | slap_drill(tr, rules, SeededRandom(seed), patterns)
    return base | stream_drill(tr, rules, SeededRandom(seed), patterns)


def slap_patterns(rules: Rules) -> list[str]:
    """The patterns a pile can show under these rules (the joker pattern only with jokers in the deck)."""
    return slap_keys(rules)


def _deck(rules: Rules, rng: SeededRandom, *, jokers: bool) -> list[Card]:
    cards = [c for c in rules.deck_for(2).cards() if jokers or not c.is_joker]
    rng.shuffle(cards)
    return cards


# ---------------------------------------------------------------------------------------------------- debt


@dataclass(frozen=True, slots=True)
class _Moment:
    """The table right after a flip: what is owed, by whom, and how many cards each player still holds."""

    flips: int
    owed: int
    payer: int
    sizes: tuple[int, ...]


def _play(
    rules: Rules, hands: Sequence[Sequence[Card]], max_flips: int = 14
) -> tuple[list[Step], list[_Moment], Game] | None:
    """Flip until the first challenge is decided; None if a slappable pile showed on the way (a debt drill is
    about the challenge alone, and nobody slapping a double would only confuse it)."""
    game = Game(rules, hands)
    steps: list[Step] = []
    moments: list[_Moment] = []
    for step in challenge_steps(game, max_flips):
        steps.append(step)
        if game.slappable():
            return None
        if game.owed and game.challenger is not None and game.collect_pending is None:
            moments.append(_Moment(len(steps), game.owed, game.turn, tuple(len(s) for s in game.stacks)))
    return steps, moments, game


def _deal_small(rules: Rules, rng: SeededRandom) -> list[list[Card]]:
    players = 2 + rng.below(2)
    jokers = bool(rules.deck.jokers and rules.challenge.joker)
    deck = _deck(rules, rng, jokers=jokers)
    per = 3 + rng.below(3)
    return [deck[i * per : (i + 1) * per] for i in range(players)]


def debt_drill(tr: Texts, rules: Rules, rng: SeededRandom) -> Doc:
    ask = "owed" if rng.below(2) == 0 else "winner"
    for _ in range(500):
        hands = _deal_small(rules, rng)
        played = _play(rules, hands)
        if played is None:
            continue
        steps, moments, game = played
        if _first_court(steps) > MAX_LEAD_IN:
            continue
        if ask == "owed" and moments:
            moment = moments[rng.below(len(moments))]
            return _owed_question(tr, rules, hands, steps[: moment.flips], moment)
        if ask == "winner" and steps and _decided(steps[-1]):
            return _winner_question(tr, rules, hands, steps, game)
    raise MalformedInput("could not deal a challenge for this seed: try another seed")


def _first_court(steps: Sequence[Step]) -> int:
    """How many cards were flipped before the first court card (long lead-ins make dull questions)."""
    for i, step in enumerate(steps):
        if any(
            isinstance(e, ChallengeOpened) or (isinstance(e, ChallengeWon) and e.how is ChallengeWin.UNOPPOSED)
            for e in step.events
        ):
            return i
    return len(steps)


def _decided(step: Step) -> bool:
    """Whether this flip settled a challenge in a way worth asking about (a 10 stopping it counts; everyone
    running out of cards, or the game ending, does not)."""
    for event in step.events:
        if isinstance(event, ChallengeWon) and event.how in ("paid", "ran_out", "unopposed"):
            return True
        if isinstance(event, ChallengeStopped) and event.reason is StopReason.TEN:
            return True
    return False


def _plays(tr: Texts, rules: Rules, names: Sequence[str], steps: Sequence[Step]) -> list[Doc]:
    out: list[Doc] = []
    for step in steps:
        for event in step.events:
            if isinstance(event, CardTurned):
                out.append(
                    {
                        "seat": event.seat,
                        "name": names[event.seat],
                        "card": str(event.card),
                        "demand": rules.demand(event.card),
                        "text": narrate(tr, names, step),
                    }
                )
    return out


def _last_opening(steps: Sequence[Step]) -> tuple[int, ChallengeOpened | None, CardTurned | None]:
    """Index of the flip with the latest court card (the challenge now running), its event and its card."""
    for i in range(len(steps) - 1, -1, -1):
        turned = next((e for e in steps[i].events if isinstance(e, CardTurned)), None)
        opened = next((e for e in steps[i].events if isinstance(e, ChallengeOpened)), None)
        if opened is not None:
            return i, opened, turned
        won = next((e for e in steps[i].events if isinstance(e, ChallengeWon)), None)
        if won is not None and won.how is ChallengeWin.UNOPPOSED:
            return i, None, turned
    return -1, None, None


def _paid_cards(steps: Sequence[Step], after: int) -> list[Card]:
    return [e.card for s in steps[after + 1 :] for e in s.events if isinstance(e, CardTurned)]


def _common(
    tr: Texts, rules: Rules, hands: Sequence[Sequence[Card]], steps: Sequence[Step], sizes: Sequence[int]
) -> Doc:
    names = tr.names()[: len(hands)]
    return {
        "players": [{"seat": i, "name": n, "cards_left": sizes[i]} for i, n in enumerate(names)],
        "plays": _plays(tr, rules, names, steps),
        "deal": [[str(c) for c in h] for h in hands],
        "steps": [narrate(tr, names, s) for s in steps],
    }


def _owed_question(
    tr: Texts, rules: Rules, hands: Sequence[Sequence[Card]], steps: Sequence[Step], moment: _Moment
) -> Doc:
    names = tr.names()[: len(hands)]
    at, opened, turned = _last_opening(steps)
    assert opened is not None and turned is not None
    paid = _paid_cards(steps, at)
    top = max(4, rules.challenge.J, rules.challenge.Q, rules.challenge.K, rules.challenge.A, rules.challenge.joker)
    choices = [{"value": str(n), "label": tr.count("drill.debt.cards", n), "key": str(n)} for n in range(1, top + 1)]
    values = {
        "opener": names[opened.seat],
        "card": card_text(turned.card, tr),
        "rank": rank_name(tr, turned.card.rank),
        "demand": opened.owed,
        "payer": names[moment.payer],
        "paid": cards_text(paid, tr),
    }
    if paid:
        why = tr.count("drill.debt.why.owed", moment.owed, **values)
    else:
        why = tr.count("drill.debt.why.fresh", moment.owed, **values)
    return _common(tr, rules, hands, steps, moment.sizes) | {
        "ask": "owed",
        "question": tr("drill.debt.q.owed", payer=names[moment.payer]),
        "choices": choices,
        "answer": str(moment.owed),
        "why": why,
    }


def _winner_question(
    tr: Texts, rules: Rules, hands: Sequence[Sequence[Card]], steps: Sequence[Step], game: Game
) -> Doc:
    names = tr.names()[: len(hands)]
    choices = [{"value": str(i), "label": n, "key": str(i + 1)} for i, n in enumerate(names)]
    if rules.challenge.ten_stops:
        choices.append({"value": "nobody", "label": tr("drill.debt.nobody"), "key": str(len(names) + 1)})
    won = next((e for e in steps[-1].events if isinstance(e, ChallengeWon)), None)
    at, opened, turned = _last_opening(steps)
    values: dict[str, object] = {
        "card": card_text(turned.card, tr) if turned else "",
        "rank": rank_name(tr, turned.card.rank) if turned else "",
        "cards": cards_text(_paid_cards(steps, at), tr),
        "payer": "",
        "winner": "",
    }
    if won is None:
        answer, why = "nobody", narrate(tr, names, steps[-1])
    else:
        answer = str(won.seat)
        values["winner"] = names[won.seat]
        last = next((e for e in steps[-1].events if isinstance(e, CardTurned)), None)
        values["payer"] = names[last.seat] if last else ""
        demand = opened.owed if opened else 0
        if won.how is ChallengeWin.PAID:
            why = tr.count("drill.debt.why.paid", demand, **values)
        else:
            why = tr(f"drill.debt.why.{won.how}", **values)
    sizes = tuple(len(s) for s in game.stacks)
    return _common(tr, rules, hands, steps, sizes) | {
        "ask": "winner",
        "question": tr("drill.debt.q.winner"),
        "choices": choices,
        "answer": answer,
        "why": why,
    }


# ---------------------------------------------------------------------------------------------------- slap


class _ShoeEmpty(Exception):
    """The shoe has no card of the rank a pile needs; the caller deals again (never leaves this module)."""


class _Shoe:
    """Cards to build piles from, each physical card used once, drawn in a seeded order."""

    def __init__(self, rules: Rules, rng: SeededRandom, avoid: Collection[Card] = ()) -> None:
        self.rng = rng
        self.cards = [c for c in _deck(rules, rng, jokers=bool(rules.deck.jokers)) if c not in avoid]

    def take(self, rank: Rank, suits: Collection[Suit | None] | None = None) -> Card:
        """The next card of ``rank`` (and of one of ``suits``, when given)."""
        for i, card in enumerate(self.cards):
            if card.rank is rank and (suits is None or card.suit in suits):
                return self.cards.pop(i)
        raise _ShoeEmpty(f"no {rank.symbol} left in the shoe")

    def of_suit(self, suit: Suit, avoid: Collection[Rank] = ()) -> Card:
        for i, card in enumerate(self.cards):
            if card.suit is suit and card.rank not in avoid:
                return self.cards.pop(i)
        raise _ShoeEmpty(f"no {suit.value} left in the shoe")

    def any(self, avoid: Sequence[Rank] = ()) -> Card:
        for i, card in enumerate(self.cards):
            if card.rank not in avoid and not card.is_joker:
                return self.cards.pop(i)
        return self.cards.pop(0)


def _ten_pair(rng: SeededRandom, rules: Rules) -> tuple[Rank, Rank]:
    low = 1 if rules.slaps.ten == "ace-one" else 2
    a = low + rng.below(9 - low)  # leaves a partner from 2 to 9 (or the Ace as 1)
    first = Rank.ACE if a == 1 else Rank(a)
    b = 10 - a
    second = Rank.ACE if b == 1 else Rank(b)
    return first, second


def _pattern_top(rng: SeededRandom, rules: Rules, shoe: _Shoe, pattern: str) -> list[Card]:
    """The top cards that make ``pattern`` (bottom first); top-bottom returns its bottom and top only."""
    courts = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    if pattern in ("double", "top_bottom"):
        rank = _ORDER[rng.below(13)]
        return [shoe.take(rank), shoe.take(rank)]
    if pattern == "top_bottom_ten":
        a, b = _ten_pair(rng, rules)
        return [shoe.take(a), shoe.take(b)]
    if pattern == "bigmac":
        rank = _ORDER[rng.below(13)]
        return [shoe.take(rank), shoe.any(avoid=[rank]), shoe.any(avoid=[rank]), shoe.take(rank)]
    if pattern == "flush":
        suit = list(Suit)[rng.below(4)]
        cards: list[Card] = []
        for _ in range(rules.slaps.flush):
            cards.append(shoe.of_suit(suit, avoid=[c.rank for c in cards]))
        return cards
    if pattern == "wildcard":
        wild = wildcard_rank(rules.slaps)
        assert wild is not None
        return [shoe.take(wild)]
    if pattern == "six_nine":
        pair = [Rank.SIX, Rank.NINE] if rng.below(2) else [Rank.NINE, Rank.SIX]
        return [shoe.take(pair[0]), shoe.take(pair[1])]
    if pattern == "sandwich":
        rank = _ORDER[rng.below(13)]
        return [shoe.take(rank), shoe.any(avoid=[rank]), shoe.take(rank)]
    if pattern in ("marriage", "divorce"):
        pair = [Rank.KING, Rank.QUEEN] if rng.below(2) else [Rank.QUEEN, Rank.KING]
        first = shoe.take(pair[0])
        second = shoe.take(pair[1], _partner_suits(rules, first))
        if pattern == "marriage":
            return [first, second]
        return [first, shoe.any(avoid=[Rank.KING, Rank.QUEEN]), second]
    if pattern == "run":
        length = rules.slaps.run
        start = rng.below(13) if rules.slaps.run_wrap else rng.below(14 - length)
        places = [(start + i) % 13 for i in range(length)]
        if rng.below(2):
            places.reverse()
        return [shoe.take(_ORDER[p]) for p in places]
    if pattern == "ten":
        a, b = _ten_pair(rng, rules)
        return [shoe.take(a), shoe.take(b)]
    if pattern == "ten_gap":
        a, b = _ten_pair(rng, rules)
        middle = shoe.take(courts[rng.below(3)]) if rules.slaps.ten_gap == "court" else shoe.any(avoid=[a, b])
        return [shoe.take(a), middle, shoe.take(b)]
    if pattern == "joker":
        return [shoe.take(Rank.JOKER)]
    # A pattern this module does not build is a declaration with a piece missing (tests/test_declarations.py).
    raise LookupError(f"learn/drills.py builds no pile for the pattern {pattern}: add it to _pattern_top")


_RED = (Suit.HEARTS, Suit.DIAMONDS)
_BLACK = (Suit.SPADES, Suit.CLUBS)


def _partner_suits(rules: Rules, card: Card) -> Collection[Suit | None] | None:
    """The suits a King or Queen may have to marry ``card`` under ``slaps.marriage_suits`` (None: any)."""
    if rules.slaps.marriage_suits == "same-suit":
        return (card.suit,)
    if rules.slaps.marriage_suits == "same-colour":
        return _RED if card.suit in _RED else _BLACK
    return None


# Patterns made by the two ends of the pile, with the fewest cards between them.
_ENDS = {"top_bottom": 0, "top_bottom_ten": 1}


def _nudge(shoe: _Shoe, rng: SeededRandom, card: Card) -> Card:
    """A card of a neighbouring rank: what makes a near miss (a 9 where the 8 would have paired)."""
    if card.is_joker:
        return shoe.any()
    place = _ORDER.index(card.rank)
    options = [p for p in (place - 1, place + 1) if 0 <= p < 13]
    return shoe.take(_ORDER[options[rng.below(len(options))]])


def build_pile(rng: SeededRandom, rules: Rules, patterns: Sequence[str]) -> tuple[list[Card], str | None, bool]:
    """A pile of 2 to 5 cards, bottom first. Half the time it is built on a pattern (and then, half of those
    times, one card is nudged to a neighbouring rank to make a near miss). Returns the pile, the pattern it
    was built on and whether it was nudged."""
    shoe = _Shoe(rules, rng)
    size = 2 + rng.below(4)
    if rng.below(2):
        return [shoe.any() for _ in range(size)], None, False
    target = patterns[rng.below(len(patterns))]
    top = _pattern_top(rng, rules, shoe, target)
    nudged = rng.below(2) == 0
    if nudged:
        top[-1] = _nudge(shoe, rng, top[-1])
    if target in _ENDS:
        bottom, last = top
        middle = [shoe.any(avoid=[bottom.rank]) for _ in range(max(_ENDS[target], size - 2))]
        return [bottom, *middle, last], target, nudged
    filler = [shoe.any() for _ in range(max(0, size - len(top)))]
    return [*filler, *top], target, nudged


def slap_drill(tr: Texts, rules: Rules, rng: SeededRandom, patterns: Sequence[str]) -> Doc:
    pile, target, nudged = build_pile(rng, rules, patterns)
    matches = find_matches(pile, rules)
    choices = [{"value": key, "label": tr(f"pattern.{key}"), "key": str(i + 1)} for i, key in enumerate(patterns)]
    choices.append({"value": "none", "label": tr("drill.slap.none"), "key": "0"})
    if matches:
        why = [tr(f"pattern.{m.pattern}.why", cards=cards_text(m.cards, tr)) for m in matches]
    else:
        why = [tr("drill.slap.why.none")]
        if target is not None and nudged:
            why.append(tr("drill.slap.why.near", pattern=tr(f"pattern.{target}")))
    return {
        "pile": [str(c) for c in pile],
        "question": tr("drill.slap.q"),
        "choices": choices,
        "answer": [m.pattern for m in matches] or ["none"],
        "matches": [match_doc(tr, m) for m in matches],
        "why": why,
        "built_on": target,
        "near": nudged and not matches,
    }


# ---------------------------------------------------------------------------------------------------- stream


def _segment(rng: SeededRandom, rules: Rules, target: str, used: set[Card]) -> list[Card]:
    """One pile of the stream: a few cards that show nothing, then the card that completes ``target``.

    Built from the same pattern tops as the slap drill, and kept only if no earlier card of the pile was
    already slappable, so each pile is exactly one chance. Cards already used in the stream are avoided
    while the shoe still allows it.
    """
    for attempt in range(60):
        shoe = _Shoe(rules, rng, avoid=used if attempt < 30 else ())
        try:
            top = _pattern_top(rng, rules, shoe, target)
            if target in _ENDS:
                bottom, last = top
                pile = [bottom, *(shoe.any(avoid=[bottom.rank]) for _ in range(1 + rng.below(3))), last]
            else:
                pile = [*(shoe.any() for _ in range(rng.below(4))), *top]
        except _ShoeEmpty:
            continue
        clean = all(not find_matches(pile[:i], rules) for i in range(1, len(pile)))
        if clean and any(m.pattern == target for m in find_matches(pile, rules)):
            used.update(pile)
            return pile
    return [_Shoe(rules, rng).any()]


def stream_drill(
    tr: Texts, rules: Rules, rng: SeededRandom, patterns: Sequence[str], length: int = STREAM_LENGTH
) -> Doc:
    """Cards to show one at a time, pile after pile, each pile ending on one pattern (chosen evenly among the
    patterns in play). A slappable card ends its pile (someone takes it), so the next starts afresh."""
    used: set[Card] = set()
    pile: list[Card] = []
    items: list[Doc] = []
    while len(items) < length:
        target = patterns[rng.below(len(patterns))]
        for card in _segment(rng, rules, target, used)[: length - len(items)]:
            pile.append(card)
            matches = find_matches(pile, rules)
            items.append(
                {
                    "card": str(card),
                    "patterns": [m.pattern for m in matches],
                    "matches": [match_doc(tr, m) for m in matches],
                    "reset": bool(matches),
                }
            )
            if matches:
                pile = []
    return {
        "cards": items,
        # The page shows as many top cards as the patterns in play look at (three at least), and the bottom card
        # too where a pattern joins it to the top.
        "shown": max(3, *(PATTERNS_BY_KEY[k].reach_under(rules.slaps) for k in patterns)),
        "interval_ms": 1200,
        "patterns": [{"key": k, "name": tr(f"pattern.{k}"), "bottom": PATTERNS_BY_KEY[k].bottom} for k in patterns],
        "question": tr("drill.stream.q"),
    }
