"""The Learn pages as data: the rules explained from the very definitions the engine plays by.

Every sentence that depends on a rule reads it from a :class:`~ratscrew.rules.Rules` value, every example
pile is judged by :func:`~ratscrew.patterns.find_matches` and every worked challenge is played by
:class:`~ratscrew.engine.Game`, so the pages cannot drift from the engine: change a preset and the words,
the demand table and the verdicts change with it. The result is a plain JSON-able document per language;
the browser only lays it out.

>>> doc = learn_document("en", Rules.build("one-chance"))
>>> [row["demand"] for row in doc["rules"]["sections"][3]["blocks"][1]["rows"]]
[1, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ratscrew.cards import Card, Rank, deal, parse_cards
from ratscrew.engine import Flip, Game
from ratscrew.engine.events import (
    CardTurned,
    ChallengeOpened,
    ChallengeStopped,
    ChallengeWon,
    DebtPassed,
    Event,
    PlayerOut,
)
from ratscrew.i18n import LANGUAGES, catalog, text
from ratscrew.patterns import PATTERN_KEYS, Match, enabled_patterns, find_matches
from ratscrew.rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, OPTIONS_BY_KEY, PRESETS, SECTIONS, Option, Rules
from ratscrew.rules.options import Value

Doc = dict[str, object]

COURT_RANKS: tuple[Rank, ...] = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
# Suits used to draw a rank on its own, so a page of cards does not look like one long suit.
_SHOW_SUIT = {
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
_OTHER_SUIT = {"S": "H", "H": "C", "C": "D", "D": "S"}
# Integer options whose 0 means "none" and reads better as words than as a number.
ZERO_WORDS: tuple[str, ...] = (
    "challenge.joker",
    "slapping.collect_delay_ms",
    "slapping.tie_window_ms",
    "end.time_limit_s",
    "end.max_cards",
)


# ---------------------------------------------------------------------------------------------------- words


@dataclass(frozen=True, slots=True)
class Texts:
    """Messages of one language, so the builders below need not pass ``lang`` to every call."""

    lang: str

    def __call__(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def count(self, key: str, n: int, **values: object) -> str:
        """A message whose wording depends on a number: ``key.one`` or ``key.other`` (French: 0 is singular)."""
        one = n == 1 or (self.lang == "fr" and n == 0)
        return text(self.lang, f"{key}.{'one' if one else 'other'}", n=n, **values)

    def names(self) -> list[str]:
        """Names for the players in examples, chosen per language so they read naturally."""
        names = [n.strip() for n in self("learn.names").split(",") if n.strip()]
        return names if len(names) >= 3 else ["Ann", "Ben", "Cleo"]

    def seconds(self, ms: int) -> str:
        amount = f"{ms / 1000:g}"
        if self.lang in ("fr", "de"):
            amount = amount.replace(".", ",")
        return self("learn.value.s", n=amount)


def card_text(card: Card) -> str:
    """A card as people write it (``Q♠``, ``10♦``, ``Joker``): the same letters the drawn cards show."""
    return card.pretty


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


def rank_name(tr: Texts, rank: Rank) -> str:
    return tr(f"learn.rank.{rank.symbol}")


def value_label(tr: Texts, opt: Option, value: Value) -> str:
    """A rule value in words: on/off, a choice's label, or a number with its unit."""
    if opt.kind == "bool":
        return tr("learn.value.on" if value else "learn.value.off")
    if opt.kind == "choice":
        return tr(f"choice.{opt.key}.{value}")
    assert isinstance(value, int)
    if value == 0 and opt.key in ZERO_WORDS:
        return tr(f"learn.value.zero.{opt.key}")
    if opt.key.endswith("_ms"):
        return tr("learn.value.ms", n=value)
    if opt.key.endswith("_s"):
        return tr("learn.value.s", n=value)
    if opt.key.startswith("challenge."):
        return tr.count("learn.value.cards", value)
    return str(value)


def key_doc(tr: Texts, rules: Rules, key: str) -> Doc:
    """One rules key as shown beside an explanation: the key, its value and the value in words."""
    opt = OPTIONS_BY_KEY[key]
    value = rules.get(key)
    return {
        "key": key,
        "value": value,
        "label": value_label(tr, opt, value),
        "default": opt.default,
        "changed": value != opt.default,
    }


def keys_doc(tr: Texts, rules: Rules, keys: Sequence[str]) -> list[Doc]:
    return [key_doc(tr, rules, k) for k in keys]


def _p(value: str) -> Doc:
    return {"type": "p", "text": value}


def _list(items: Sequence[str]) -> Doc:
    return {"type": "list", "items": [i for i in items if i]}


def _note(value: str) -> Doc:
    return {"type": "note", "text": value}


# ---------------------------------------------------------------------------------------------------- examples


def match_doc(tr: Texts, match: Match) -> Doc:
    """A match with its name and a one-line reason in the page's language."""
    return {
        "pattern": match.pattern,
        "name": tr(f"pattern.{match.pattern}"),
        "cards": [str(c) for c in match.cards],
        "why": tr(f"pattern.{match.pattern}.why", cards=cards_text(match.cards)),
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
    "marriage": ("5S KH QC", "9D QS KD", "3H KS QD"),
    "divorce": ("4H KC 7D QS", "2S QH 8C KD"),
    "ten": ("KS 3H 7D", "JC 6S 4H", "QD 2C 8H"),
    "ten_gap": ("5D 3H KC 7S", "9S 2C QH 8D", "6D 3H 5C 7S"),
    "joker": ("5D X", "QC X"),
}
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
}


def _candidates(pattern: str, rules: Rules) -> tuple[str, ...]:
    if pattern == "run":
        return _RUNS.get(rules.slaps.run, ())
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


def _clean(rules: Rules, pile_text: str) -> list[Card] | None:
    """The pile if the engine finds nothing in it (a near miss must really be a miss under these rules)."""
    pile = parse_cards(pile_text)
    return None if find_matches(pile, rules) else pile


def pattern_examples(tr: Texts, rules: Rules, pattern: str) -> list[Doc]:
    """A pile that shows the pattern, any variant worth its own picture, and near misses, all engine-judged."""
    shown: list[Doc] = []
    pile = pick_pile(rules, pattern, _candidates(pattern, rules))
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
    out: list[Doc] = []
    for pile_text, key in near:
        pile = _clean(rules, pile_text)
        if pile is not None:
            out.append(example(tr, rules, pile, caption=tr(key)))
    return out


# ---------------------------------------------------------------------------------------------------- challenges


@dataclass(frozen=True, slots=True)
class Step:
    """One flip of a worked challenge: what it produced, and the debt before and after it."""

    events: tuple[Event, ...]
    owed_before: int
    owed_after: int


def challenge_steps(game: Game, max_flips: int) -> Iterator[Step]:
    """Turn cards one at a time until a challenge is decided (won or stopped), the way the engine plays it."""
    for _ in range(max_flips):
        if game.over or game.collect_pending is not None:
            return
        before = game.owed
        events = game.apply(Flip())
        yield Step(events, before, game.owed)
        if any(isinstance(e, ChallengeStopped) for e in events):
            return


def play_challenge(rules: Rules, hands: Sequence[Sequence[Card]], max_flips: int = 16) -> tuple[Game, list[Step]]:
    """A worked challenge from a deal: the game where it ended and every flip on the way."""
    game = Game(rules, hands)
    return game, list(challenge_steps(game, max_flips))


def narrate(tr: Texts, names: Sequence[str], step: Step) -> str:
    """One flip in words, e.g. "Ben pays with 4♥, a number card: 1 card still owed."."""
    parts: list[str] = []
    turned = next((e for e in step.events if isinstance(e, CardTurned)), None)
    opened = next((e for e in step.events if isinstance(e, ChallengeOpened)), None)
    won = next((e for e in step.events if isinstance(e, ChallengeWon)), None)
    if turned is not None:
        who, card = names[turned.seat], card_text(turned.card)
        stopped = any(isinstance(e, ChallengeStopped) and e.reason == "ten" for e in step.events)
        if opened is not None:
            key = "learn.step.passed" if opened.passed_on else "learn.step.court"
            parts.append(
                tr.count(
                    key,
                    opened.owed,
                    who=who,
                    card=card,
                    rank=rank_name(tr, turned.card.rank),
                    payer=names[opened.payer],
                )
            )
        elif stopped:
            parts.append(tr("learn.step.ten", who=who, card=card))
        elif won is not None and won.how == "paid":
            parts.append(tr("learn.step.paid", who=who, card=card, winner=names[won.seat]))
        elif step.owed_before > 0:
            parts.append(tr.count("learn.step.paying", step.owed_before - 1, who=who, card=card))
        elif won is not None and won.how == "unopposed":
            parts.append(tr("learn.step.court_alone", who=who, card=card, rank=rank_name(tr, turned.card.rank)))
        else:
            parts.append(tr("learn.step.number", who=who, card=card))
    for event in step.events:
        if isinstance(event, DebtPassed):
            parts.append(
                tr.count("learn.step.debt_passed", event.owed, who=names[event.from_seat], next=names[event.to_seat])
            )
        elif isinstance(event, PlayerOut):
            parts.append(tr("learn.step.out", who=names[event.seat]))
        elif isinstance(event, ChallengeWon) and event.how != "paid":
            payer = names[turned.seat] if turned is not None else ""
            parts.append(tr(f"learn.step.{event.how}", who=payer, winner=names[event.seat]))
    return " ".join(parts)


_WALKTHROUGHS: dict[str, tuple[str, ...]] = {
    "paid": ("QS 8C 2D", "4H 9D 3C 8S"),
    "passed": ("KS 7D 5S 6H 3D", "JC 8H 2C 4C"),
    "ran_out": ("KS 4D", "5H", "7C 9D 2S"),
    "ten": ("QS 5C", "TH 6D"),
}


def walkthrough(tr: Texts, rules: Rules, name: str) -> Doc:
    """A short deal played by the engine until its challenge is decided, told card by card."""
    hands = [parse_cards(h) for h in _WALKTHROUGHS[name]]
    game, steps = play_challenge(rules, hands)
    names = tr.names()[: len(hands)]
    shown: list[Doc] = []
    for step in steps:
        turned = next((e for e in step.events if isinstance(e, CardTurned)), None)
        if turned is None:
            continue
        shown.append(
            {
                "seat": turned.seat,
                "name": names[turned.seat],
                "card": str(turned.card),
                "owed": step.owed_after,
                "text": narrate(tr, names, step),
            }
        )
    return {
        "type": "walkthrough",
        "id": name,
        "title": tr(f"learn.walk.{name}"),
        "players": names,
        "deal": [[str(c) for c in h] for h in hands],
        "steps": shown,
        "winner": game.collect_pending,
    }


# ---------------------------------------------------------------------------------------------------- rules page


def _deck_sentence(tr: Texts, rules: Rules) -> str:
    decks = rules.deck.decks
    sentence = tr(f"learn.deal.decks.{decks}")
    if rules.deck.jokers:
        sentence += " " + tr.count("learn.deal.jokers", rules.deck.jokers)
    return sentence


def _stack_sizes(rules: Rules, players: int) -> list[int]:
    return [len(h) for h in deal(rules.deck_for(players).cards(), players)]


def section_goal(tr: Texts, rules: Rules) -> Doc:
    size = rules.deck_for(MIN_PLAYERS).size
    return {
        "id": "goal",
        "title": tr("learn.goal.title"),
        "keys": [],
        "blocks": [_p(tr("learn.goal.p1", n=size)), _p(tr("learn.goal.p2"))],
    }


def section_deal(tr: Texts, rules: Rules) -> Doc:
    sizes = _stack_sizes(rules, 3)
    blocks = [
        _p(tr("learn.deal.p1", low=MIN_PLAYERS, high=MAX_PLAYERS) + " " + _deck_sentence(tr, rules)),
        _p(tr("learn.deal.p2", sizes=", ".join(str(s) for s in sizes))),
        _p(tr("learn.deal.p3")),
    ]
    return {
        "id": "deal",
        "title": tr("learn.deal.title"),
        "blocks": blocks,
        "keys": keys_doc(tr, rules, ("deck.decks", "deck.jokers")),
    }


def section_turn(tr: Texts, rules: Rules) -> Doc:
    blocks = [_p(tr("learn.turn.p1")), _p(tr("learn.turn.p2")), _p(tr("learn.turn.p3"))]
    return {"id": "turn", "title": tr("learn.turn.title"), "blocks": blocks, "keys": []}


def demand_rows(tr: Texts, rules: Rules) -> list[Doc]:
    """What each court card (and the joker, when it demands anything) asks of the next player."""
    rows: list[Doc] = []
    for rank in COURT_RANKS:
        card = Card.parse(rank.symbol + _SHOW_SUIT[rank])
        n = rules.demand(card)
        rows.append(
            {
                "card": str(card),
                "rank": rank.symbol,
                "name": rank_name(tr, rank),
                "demand": n,
                "text": tr.count("learn.value.cards", n),
            }
        )
    if rules.challenge.joker:
        joker = Card.parse("X")
        n = rules.demand(joker)
        rows.append(
            {
                "card": "X",
                "rank": "X",
                "name": tr("learn.rank.X"),
                "demand": n,
                "text": tr.count("learn.value.cards", n),
            }
        )
    return rows


def section_challenge(tr: Texts, rules: Rules) -> Doc:
    c = rules.challenge
    blocks: list[Doc] = [
        _p(tr("learn.challenge.p1")),
        {"type": "demands", "rows": demand_rows(tr, rules), "caption": tr("learn.challenge.caption")},
    ]
    if len({c.J, c.Q, c.K, c.A}) == 1:
        blocks.append(_note(tr.count("learn.challenge.same", c.J)))
    elif (c.J, c.K) == (3, 1):
        blocks.append(_note(tr("learn.challenge.swapped")))
    if c.joker and not rules.deck.jokers:
        blocks.append(_note(tr("learn.challenge.joker_absent")))
    blocks += [
        _p(tr("learn.challenge.p2")),
        _p(tr("learn.challenge.p3")),
        _p(tr(f"learn.challenge.empty.{c.empty_payer}")),
        _p(tr("learn.challenge.alone")),
    ]
    if c.ten_stops:
        blocks.append(_note(tr("learn.challenge.ten_stops")))
    blocks.append(walkthrough(tr, rules, "paid"))
    blocks.append(walkthrough(tr, rules, "passed"))
    blocks.append(walkthrough(tr, rules, "ran_out"))
    if c.ten_stops:
        blocks.append(walkthrough(tr, rules, "ten"))
    keys = (
        "challenge.J",
        "challenge.Q",
        "challenge.K",
        "challenge.A",
        "challenge.joker",
        "challenge.empty_payer",
        "challenge.ten_stops",
    )
    return {
        "id": "challenge",
        "title": tr("learn.challenge.title"),
        "blocks": blocks,
        "keys": keys_doc(tr, rules, keys),
    }


def collect_sentence(tr: Texts, rules: Rules) -> str:
    delay = rules.slapping.collect_delay_ms
    if delay:
        return tr("learn.collect.delay", time=tr.seconds(delay))
    return tr("learn.collect.now")


def leader_sentence(tr: Texts, rules: Rules) -> str:
    return tr(f"learn.collect.leader.{rules.players.leader}")


def section_collect(tr: Texts, rules: Rules) -> Doc:
    blocks = [_p(collect_sentence(tr, rules)), _p(tr("learn.collect.order")), _p(leader_sentence(tr, rules))]
    return {
        "id": "collect",
        "title": tr("learn.collect.title"),
        "blocks": blocks,
        "keys": keys_doc(tr, rules, ("slapping.collect_delay_ms", "players.leader")),
    }


def pattern_rule(tr: Texts, rules: Rules, pattern: str) -> str:
    """The pattern's rule in words, with the numbers and variants the rules choose."""
    s = rules.slaps
    if pattern == "run":
        wrap = "wrap" if s.run_wrap else "nowrap"
        return tr("learn.pattern.run.rule", n=s.run) + " " + tr(f"learn.pattern.run.{wrap}")
    if pattern == "ten":
        return tr(f"learn.pattern.ten.{s.ten}")
    if pattern == "ten_gap":
        return tr(f"learn.pattern.ten_gap.{s.ten_gap}")
    sentence = tr(f"learn.pattern.{pattern}.rule")
    if pattern == "top_bottom" and s.burned_count:
        sentence += " " + tr("learn.pattern.top_bottom.burned")
    if pattern == "joker" and not rules.deck.jokers:
        sentence += " " + tr("learn.pattern.joker.absent")
    return sentence


def pattern_block(tr: Texts, rules: Rules, pattern: str) -> Doc:
    return {
        "type": "pattern",
        "key": pattern,
        "name": tr(f"pattern.{pattern}"),
        "rule": pattern_rule(tr, rules, pattern),
        "examples": pattern_examples(tr, rules, pattern),
        "keys": keys_doc(tr, rules, pattern_keys(pattern)),
    }


def pattern_keys(pattern: str) -> tuple[str, ...]:
    """The rules keys a pattern depends on (shown beside it)."""
    return {"run": ("slaps.run", "slaps.run_wrap"), "ten_gap": ("slaps.ten", "slaps.ten_gap")}.get(
        pattern, (f"slaps.{pattern}",)
    )


def section_slaps(tr: Texts, rules: Rules) -> Doc:
    on = [p.key for p in enabled_patterns(rules)]
    off = [k for k in PATTERN_KEYS if k not in on]
    blocks: list[Doc] = [
        _p(tr("learn.slaps.p1")),
        _p(tr("learn.slaps.p2")),
        _p(tr("learn.slaps.burned_on" if rules.slaps.burned_count else "learn.slaps.burned_off")),
    ]
    if on:
        blocks.append(_p(tr.count("learn.slaps.count", len(on))))
        blocks.extend(pattern_block(tr, rules, p) for p in on)
    else:
        blocks.append(_note(tr("learn.slaps.none")))
        blocks.append(example(tr, rules, parse_cards("4C 9H 9S"), caption=tr("learn.slaps.none_example")))
    if off:
        blocks.append(
            {
                "type": "off",
                "text": tr("learn.slaps.off"),
                "items": [
                    {"key": k, "name": tr(f"pattern.{k}"), "summary": tr(f"learn.pattern.{k}.short")} for k in off
                ],
            }
        )
    blocks.append(_p(tr("learn.slaps.jokers")))
    keys = [o.key for o in OPTIONS if o.section == "slaps"]
    return {"id": "slaps", "title": tr("learn.slaps.title"), "blocks": blocks, "keys": keys_doc(tr, rules, keys)}


def wrong_sentence(tr: Texts, rules: Rules) -> str:
    s = rules.slapping
    if s.penalty == "none":
        return tr("learn.wrong.none")
    return tr.count(f"learn.wrong.{s.penalty}", s.penalty_cards)


def section_wrong(tr: Texts, rules: Rules) -> Doc:
    blocks = [_p(wrong_sentence(tr, rules))]
    if rules.slapping.penalty != "none":
        blocks.append(_p(tr("learn.wrong.short")))
    if rules.slapping.penalty == "burn":
        blocks.append(_p(tr("learn.wrong.burned_count" if rules.slaps.burned_count else "learn.wrong.burned")))
    blocks += [_p(tr("learn.wrong.several")), _p(tr("learn.wrong.late"))]
    return {
        "id": "wrong",
        "title": tr("learn.wrong.title"),
        "blocks": blocks,
        "keys": keys_doc(tr, rules, ("slapping.penalty", "slapping.penalty_cards")),
    }


def tie_sentence(tr: Texts, rules: Rules) -> str:
    s = rules.slapping
    if s.tie_window_ms == 0:
        return tr("learn.ties.exact")
    return tr(f"learn.ties.{s.tie}", time=tr("learn.value.ms", n=s.tie_window_ms))


def section_ties(tr: Texts, rules: Rules) -> Doc:
    blocks = [_p(tr("learn.ties.p1")), _p(tie_sentence(tr, rules))]
    return {
        "id": "ties",
        "title": tr("learn.ties.title"),
        "blocks": blocks,
        "keys": keys_doc(tr, rules, ("slapping.tie", "slapping.tie_window_ms")),
    }


def empty_sentences(tr: Texts, rules: Rules) -> list[str]:
    p = rules.players
    if not p.slap_in:
        return [tr("learn.empty.out")]
    return [tr("learn.empty.stay"), tr(f"learn.empty.when.{p.out_when}")]


def section_empty(tr: Texts, rules: Rules) -> Doc:
    blocks = [_p(s) for s in empty_sentences(tr, rules)]
    blocks.append(_p(tr(f"learn.challenge.empty.{rules.challenge.empty_payer}")))
    return {
        "id": "empty",
        "title": tr("learn.empty.title"),
        "blocks": blocks,
        "keys": keys_doc(tr, rules, ("players.slap_in", "players.out_when", "challenge.empty_payer")),
    }


def end_sentences(tr: Texts, rules: Rules) -> list[str]:
    e = rules.end
    out = [tr("learn.end.p1")]
    if e.time_limit_s:
        out.append(tr("learn.end.time", time=_duration(tr, e.time_limit_s)))
    else:
        out.append(tr("learn.end.no_time"))
    if e.max_cards:
        out.append(tr("learn.end.max_cards", n=e.max_cards))
    jokers = bool(rules.deck.jokers)
    out.append(tr("learn.end.loop" if not rules.any_slap_enabled(jokers_in_play=jokers) else "learn.end.long"))
    return out


def _duration(tr: Texts, seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    if minutes and not rest:
        return tr.count("learn.value.minutes", minutes)
    return tr("learn.value.s", n=seconds)


def section_end(tr: Texts, rules: Rules) -> Doc:
    return {
        "id": "end",
        "title": tr("learn.end.title"),
        "blocks": [_p(s) for s in end_sentences(tr, rules)],
        "keys": keys_doc(tr, rules, ("end.time_limit_s", "end.max_cards")),
    }


def house_rules(tr: Texts, rules: Rules) -> Doc:
    """Every option the engine knows, grouped by section, with its value under the chosen rules."""
    groups: list[Doc] = []
    for section in SECTIONS:
        items: list[Doc] = []
        for opt in (o for o in OPTIONS if o.section == section):
            item = key_doc(tr, rules, opt.key)
            item["summary"] = tr(f"option.{opt.key}")
            item["default_label"] = value_label(tr, opt, opt.default)
            if opt.kind == "choice":
                item["choices"] = [value_label(tr, opt, c) for c in opt.choices]
            elif opt.kind == "int":
                item["range"] = [opt.minimum, opt.maximum]
            items.append(item)
        groups.append({"section": section, "title": tr(f"learn.section.{section}"), "options": items})
    return {"id": "house", "title": tr("learn.house.title"), "intro": tr("learn.house.intro"), "groups": groups}


def rules_page(tr: Texts, rules: Rules) -> Doc:
    sections = [
        section_goal(tr, rules),
        section_deal(tr, rules),
        section_turn(tr, rules),
        section_challenge(tr, rules),
        section_collect(tr, rules),
        section_slaps(tr, rules),
        section_wrong(tr, rules),
        section_ties(tr, rules),
        section_empty(tr, rules),
        section_end(tr, rules),
    ]
    return {
        "title": tr("learn.rules.title"),
        "lede": tr("learn.rules.lede"),
        "sections": sections,
        "house": house_rules(tr, rules),
    }


# ---------------------------------------------------------------------------------------------------- cheat sheet


def cheatsheet(tr: Texts, rules: Rules) -> Doc:
    """The whole game on one printable page: the same sentences as the rules page, shortened."""
    slaps = [
        {
            "key": p.key,
            "name": tr(f"pattern.{p.key}"),
            "short": tr(f"learn.pattern.{p.key}.short"),
            "example": next((e for e in pattern_examples(tr, rules, p.key) if e["slappable"]), None),
        }
        for p in enabled_patterns(rules)
        if p.key != "joker" or rules.deck.jokers
    ]
    changed = [
        key_doc(tr, rules, o.key) | {"summary": tr(f"option.{o.key}")} for o in OPTIONS if rules.get(o.key) != o.default
    ]
    sizes = _stack_sizes(rules, 3)
    blocks: list[Doc] = [
        {
            "id": "setup",
            "title": tr("learn.cs.setup"),
            "items": [
                tr("learn.cs.setup.deal", sizes=", ".join(str(s) for s in sizes)),
                _deck_sentence(tr, rules),
                tr("learn.cs.setup.look"),
            ],
        },
        {"id": "turn", "title": tr("learn.cs.turn"), "items": [tr("learn.cs.turn.flip"), tr("learn.cs.turn.number")]},
        {
            "id": "challenge",
            "title": tr("learn.cs.challenge"),
            "demands": demand_rows(tr, rules),
            "items": [
                tr("learn.cs.challenge.pass"),
                tr("learn.cs.challenge.win"),
                tr(f"learn.challenge.empty.{rules.challenge.empty_payer}"),
                tr("learn.challenge.ten_stops") if rules.challenge.ten_stops else "",
                collect_sentence(tr, rules),
            ],
        },
        {
            "id": "slaps",
            "title": tr("learn.cs.slaps"),
            "patterns": slaps,
            "items": [tr("learn.cs.slaps.any") if slaps else tr("learn.slaps.none"), leader_sentence(tr, rules)],
        },
        {"id": "wrong", "title": tr("learn.cs.wrong"), "items": [wrong_sentence(tr, rules), tie_sentence(tr, rules)]},
        {"id": "empty", "title": tr("learn.cs.empty"), "items": empty_sentences(tr, rules)},
        {"id": "end", "title": tr("learn.cs.end"), "items": end_sentences(tr, rules)[:3]},
    ]
    for block in blocks:
        items = block["items"]
        assert isinstance(items, list)
        block["items"] = [i for i in items if i]
    return {
        "title": tr("learn.cs.title"),
        "subtitle": tr(
            "learn.cs.subtitle", preset=tr(f"preset.{rules.preset}.name"), low=MIN_PLAYERS, high=MAX_PLAYERS
        ),
        "blocks": blocks,
        "changed": changed,
    }


# ---------------------------------------------------------------------------------------------------- cards


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


def show_card(rank: Rank, suit: str | None = None) -> Card:
    if rank is Rank.JOKER:
        return Card.parse("X")
    return Card.parse(rank.symbol + (suit or _SHOW_SUIT[rank]))


def _partner(rank: Rank, card: Card) -> Card:
    """Another card of ``rank`` that is not ``card`` (so a pair never repeats one physical card)."""
    suit = _SHOW_SUIT[rank]
    if card.suit is not None and card.rank is rank and card.suit.value == suit:
        suit = _OTHER_SUIT[suit]
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
        mate = show_card(Rank.QUEEN if rank is Rank.KING else Rank.KING)
        if s.marriage:
            facts.append(_fact(tr, rules, "learn.cards.marriage", [mate, card], "marriage"))
        if s.divorce:
            facts.append(_fact(tr, rules, "learn.cards.divorce", [mate, _filler([rank, mate.rank]), card], "divorce"))
    if s.ten != "off":
        partners = _ten_partners(rules, rank)
        if partners:
            first = partners[0]
            facts.append(
                _fact(
                    tr,
                    rules,
                    "learn.cards.ten",
                    [_partner(first, card), card],
                    "ten",
                    partners=", ".join(r.symbol if r is not Rank.TEN else "10" for r in partners),
                )
            )
        else:
            facts.append({"text": tr("learn.cards.no_ten")})
    if s.run:
        run_pile = _run_through(rules, rank)
        if run_pile is not None:
            facts.append(_fact(tr, rules, "learn.cards.run", run_pile, "run", n=s.run))
    if s.top_bottom:
        facts.append({"text": tr("learn.cards.top_bottom", rank=name)})
    return facts


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
                    }
                ),
                "facts": card_facts(tr, rules, rank),
            }
        )
    return {"title": tr("learn.cards.title"), "intro": tr("learn.cards.intro"), "cards": entries}


# ---------------------------------------------------------------------------------------------------- questions


FAQ: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("turn", ("players.slap_in",)),
    ("together", ("slapping.tie", "slapping.tie_window_ms")),
    ("empty", ("players.slap_in", "players.out_when", "challenge.empty_payer")),
    ("wrong", ("slapping.penalty", "slapping.penalty_cards", "slaps.burned_count")),
    ("late", ("slapping.collect_delay_ms",)),
    ("beggar", ("slaps.double", "slaps.sandwich", "players.slap_in")),
    ("length", ("end.time_limit_s", "end.max_cards")),
    ("order", ("challenge.J", "challenge.Q", "challenge.K", "challenge.A")),
    ("ten", ("challenge.ten_stops",)),
    ("suits", ("slaps.double",)),
)

VARIANTS: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("one_chance", "one-chance", ("challenge.J", "challenge.Q", "challenge.K", "challenge.A")),
    ("swap", None, ("challenge.J", "challenge.K")),
    (
        "more_slaps",
        "bicycle",
        ("slaps.top_bottom", "slaps.marriage", "slaps.divorce", "slaps.run", "slaps.ten", "slaps.ten_gap"),
    ),
    ("burn_two", None, ("slapping.penalty_cards",)),
    ("give", "bataille-corse", ("slapping.penalty", "players.out_when")),
    ("jokers", None, ("deck.jokers", "slaps.joker", "challenge.joker")),
    ("out", "out-is-out", ("players.slap_in",)),
    ("ten_stops", None, ("challenge.ten_stops",)),
    ("next_pays", None, ("challenge.empty_payer",)),
    ("timed", None, ("end.time_limit_s",)),
)


def _faq_now(tr: Texts, rules: Rules, topic: str) -> str:
    """The sentence that says what the chosen rules do about a question."""
    if topic == "together":
        return tie_sentence(tr, rules)
    if topic == "empty":
        return " ".join([*empty_sentences(tr, rules), tr(f"learn.challenge.empty.{rules.challenge.empty_payer}")])
    if topic == "wrong":
        return wrong_sentence(tr, rules)
    if topic == "late":
        return collect_sentence(tr, rules)
    if topic == "length":
        return " ".join(end_sentences(tr, rules)[1:])
    if topic == "order":
        return tr(
            "learn.faq.order.now", demands=", ".join(f"{r['rank']} {r['demand']}" for r in demand_rows(tr, rules))
        )
    if topic == "ten":
        return tr(f"learn.faq.ten.{'on' if rules.challenge.ten_stops else 'off'}")
    if topic == "beggar":
        jokers = bool(rules.deck.jokers)
        return tr(f"learn.faq.beggar.{'slaps' if rules.any_slap_enabled(jokers_in_play=jokers) else 'none'}")
    if topic == "turn":
        return tr(f"learn.faq.turn.{'in' if rules.players.slap_in else 'out'}")
    return ""


def faq(tr: Texts, rules: Rules) -> Doc:
    questions = [
        {
            "id": topic,
            "q": tr(f"learn.faq.{topic}.q"),
            "a": [tr(f"learn.faq.{topic}.a")],
            "now": _faq_now(tr, rules, topic),
            "keys": keys_doc(tr, rules, keys),
        }
        for topic, keys in FAQ
    ]
    variants = [
        {
            "id": name,
            "title": tr(f"learn.variant.{name}.title"),
            "text": tr(f"learn.variant.{name}.text"),
            "preset": preset,
            "preset_label": tr(f"preset.{preset}.name") if preset else None,
            "keys": keys_doc(tr, rules, keys),
        }
        for name, preset, keys in VARIANTS
    ]
    return {
        "title": tr("learn.faq.title"),
        "intro": tr("learn.faq.intro"),
        "questions": questions,
        "variants_title": tr("learn.variant.title"),
        "variants_intro": tr("learn.variant.intro"),
        "variants": variants,
    }


# ---------------------------------------------------------------------------------------------------- document


def learn_document(lang: str, rules: Rules) -> Doc:
    """Everything the Learn pages show, in one language, for one rule set."""
    tr = Texts(lang if lang in LANGUAGES else "en")
    return {
        "lang": tr.lang,
        "preset": rules.preset,
        "preset_label": tr(f"preset.{rules.preset}.name"),
        "preset_summary": tr(f"preset.{rules.preset}"),
        "presets": [{"name": p, "label": tr(f"preset.{p}.name"), "summary": tr(f"preset.{p}")} for p in PRESETS],
        "changes": rules.changes_from_preset(),
        "rules": rules_page(tr, rules),
        "cheatsheet": cheatsheet(tr, rules),
        "cards": card_reference(tr, rules),
        "faq": faq(tr, rules),
    }


def missing_texts(lang: str) -> list[str]:
    """Keys the English catalog has and ``lang`` lacks (a test keeps this empty)."""
    english, other = catalog("en"), catalog(lang)
    return sorted(k for k in english if k.startswith(("learn.", "drill.")) and k not in other)
