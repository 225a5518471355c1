"""The rules page: every section built from the rules value, with its worked challenges and its examples,
and the house rules (every option with its value).
"""

from __future__ import annotations

from ratscrew.cards import Card, Rank, deal, parse_cards
from ratscrew.engine.events import (
    CardTurned,
    ChallengeOpened,
    ChallengeStopped,
    ChallengeWin,
    ChallengeWon,
    Event,
    StopReason,
)
from ratscrew.learn.examples import SHOW_SUIT, example, pattern_examples
from ratscrew.learn.narrator import narrate, play_challenge
from ratscrew.learn.words import (
    Doc,
    Texts,
    key_doc,
    keys_doc,
    no_challenges,
    note,
    paragraph,
    rank_name,
    slap_keys,
    value_label,
    wildcard_text,
)
from ratscrew.patterns import PATTERN_KEYS, PATTERNS, PATTERNS_BY_KEY
from ratscrew.rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, SECTIONS, Rules

COURT_RANKS: tuple[Rank, ...] = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


_WALKTHROUGHS: dict[str, tuple[str, ...]] = {
    "paid": ("QS 8C 2D", "4H 9D 3C 8S"),
    "passed": ("KS 7D 5S 6H 3D", "JC 8H 2C 4C"),
    "ran_out": ("KS 4D", "5H", "7C 9D 2S"),
    "ten": ("QS 5C", "TH 6D"),
}


def _tells(name: str, event: Event) -> bool:
    """Whether ``event`` is what the walkthrough ``name`` is there to show."""
    if name == "passed":
        return isinstance(event, ChallengeOpened) and event.passed_on
    if name == "ten":
        return isinstance(event, ChallengeStopped) and event.reason is StopReason.TEN
    wanted = ChallengeWin.PAID if name == "paid" else ChallengeWin.RAN_OUT
    return isinstance(event, ChallengeWon) and event.how is wanted


def walkthrough(tr: Texts, rules: Rules, name: str) -> Doc | None:
    """A short deal played by the engine until its challenge is decided, told card by card; None when under
    these rules the deal does not show what it is named for (a court card demanding nothing passes no debt)."""
    hands = [parse_cards(h) for h in _WALKTHROUGHS[name]]
    game, steps = play_challenge(rules, hands)
    if not any(_tells(name, e) for step in steps for e in step.events):
        return None
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


def deck_sentence(tr: Texts, rules: Rules) -> str:
    decks = rules.deck.decks
    sentence = tr(f"learn.deal.decks.{decks}")
    if rules.deck.jokers:
        sentence += " " + tr.count("learn.deal.jokers", rules.deck.jokers)
    return sentence


def stack_sizes(rules: Rules, players: int) -> list[int]:
    return [len(h) for h in deal(rules.deck_for(players).cards(), players)]


def section_goal(tr: Texts, rules: Rules) -> Doc:
    size = rules.deck_for(MIN_PLAYERS).size
    return {
        "id": "goal",
        "title": tr("learn.goal.title"),
        "keys": [],
        "blocks": [paragraph(tr("learn.goal.p1", n=size)), paragraph(tr("learn.goal.p2"))],
    }


def section_deal(tr: Texts, rules: Rules) -> Doc:
    sizes = stack_sizes(rules, 3)
    blocks = [
        paragraph(tr("learn.deal.p1", low=MIN_PLAYERS, high=MAX_PLAYERS) + " " + deck_sentence(tr, rules)),
        paragraph(tr("learn.deal.p2", sizes=", ".join(str(s) for s in sizes))),
        paragraph(tr("learn.deal.p3")),
    ]
    return {
        "id": "deal",
        "title": tr("learn.deal.title"),
        "blocks": blocks,
        "keys": keys_doc(tr, rules, ("deck.decks", "deck.jokers")),
    }


def section_turn(tr: Texts, rules: Rules) -> Doc:
    blocks = [paragraph(tr("learn.turn.p1")), paragraph(tr("learn.turn.p2")), paragraph(tr("learn.turn.p3"))]
    return {"id": "turn", "title": tr("learn.turn.title"), "blocks": blocks, "keys": []}


def demand_rows(tr: Texts, rules: Rules) -> list[Doc]:
    """What each court card (and the joker, when it demands anything) asks of the next player."""
    rows: list[Doc] = []
    for rank in COURT_RANKS:
        card = Card.parse(rank.symbol + SHOW_SUIT[rank])
        n = rules.demand(card)
        rows.append(
            {
                "card": str(card),
                "rank": rank.symbol,
                "name": rank_name(tr, rank),
                "demand": n,
                "text": tr.count("learn.value.cards", n) if n else tr("learn.value.zero.demand"),
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
        paragraph(tr("learn.challenge.p1")),
        {"type": "demands", "rows": demand_rows(tr, rules), "caption": tr("learn.challenge.caption")},
    ]
    if no_challenges(rules):
        blocks.append(note(tr("learn.challenge.none")))
    elif 0 in (c.J, c.Q, c.K, c.A):
        blocks.append(note(tr("learn.challenge.zero")))
    elif len({c.J, c.Q, c.K, c.A}) == 1:
        blocks.append(note(tr.count("learn.challenge.same", c.J)))
    elif (c.J, c.K) == (3, 1):
        blocks.append(note(tr("learn.challenge.swapped")))
    if c.joker and not rules.deck.jokers:
        blocks.append(note(tr("learn.challenge.joker_absent")))
    blocks += [
        paragraph(tr("learn.challenge.p2")),
        paragraph(tr("learn.challenge.p3")),
        paragraph(tr(f"learn.challenge.empty.{c.empty_payer}")),
        paragraph(tr("learn.challenge.alone")),
    ]
    if c.ten_stops:
        blocks.append(note(tr("learn.challenge.ten_stops")))
    for name in ("paid", "passed", "ran_out", *(("ten",) if c.ten_stops else ())):
        walk = walkthrough(tr, rules, name)
        if walk is not None:
            blocks.append(walk)
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
    blocks = [
        paragraph(collect_sentence(tr, rules)),
        paragraph(tr("learn.collect.order")),
        paragraph(leader_sentence(tr, rules)),
    ]
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
    if pattern == "flush":
        return tr("learn.pattern.flush.rule", n=s.flush)
    if pattern == "wildcard":
        return tr("learn.pattern.wildcard.rule", rank=wildcard_text(tr, rules))
    if pattern == "top_bottom_ten":
        return tr(f"learn.pattern.top_bottom_ten.{s.ten}")
    sentence = tr(f"learn.pattern.{pattern}.rule")
    if pattern in ("marriage", "divorce") and s.marriage_suits != "any":
        sentence += " " + tr(f"learn.pattern.marriage_suits.{s.marriage_suits}")
    if pattern in ("top_bottom", "top_bottom_ten") and s.burned_count:
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
    """The rules keys a pattern depends on (shown beside it): those that switch it on, and the options that
    change it (they need its switch, as ``slaps.run_wrap`` needs ``slaps.run``) without being another pattern's
    switch (``slaps.ten_gap`` needs a ten, but is a pattern of its own)."""
    declared = PATTERNS_BY_KEY[pattern]
    switches = {p.switch for p in PATTERNS}
    changes = [
        o.key
        for o in OPTIONS
        if o.needs is not None and declared.switch in o.needs.keys and o.key not in switches | set(declared.on)
    ]
    return (*declared.on, *changes)


def section_slaps(tr: Texts, rules: Rules) -> Doc:
    on = slap_keys(rules)  # a pattern that cannot come up (the joker slap without jokers) is not played
    off = [k for k in PATTERN_KEYS if k not in on]
    blocks: list[Doc] = [
        paragraph(tr("learn.slaps.p1")),
        paragraph(tr("learn.slaps.p2")),
        paragraph(tr("learn.slaps.burned_on" if rules.slaps.burned_count else "learn.slaps.burned_off")),
    ]
    if on:
        blocks.append(paragraph(tr.count("learn.slaps.count", len(on))))
        blocks.extend(pattern_block(tr, rules, p) for p in on)
    else:
        blocks.append(note(tr("learn.slaps.none")))
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
    blocks.append(paragraph(tr("learn.slaps.jokers")))
    keys = [o.key for o in OPTIONS if o.section == "slaps"]
    return {"id": "slaps", "title": tr("learn.slaps.title"), "blocks": blocks, "keys": keys_doc(tr, rules, keys)}


def wrong_sentence(tr: Texts, rules: Rules) -> str:
    s = rules.slapping
    if s.penalty in ("none", "lockout-pile", "give-pile"):
        return tr(f"learn.wrong.{s.penalty}")
    if s.penalty == "lockout":
        return tr.count("learn.wrong.lockout", s.lockout_cards)
    sentence = tr.count(f"learn.wrong.{s.penalty}", s.penalty_cards)
    if s.penalty_from == "bottom":
        sentence += " " + tr("learn.wrong.from_bottom")
    return sentence


def section_wrong(tr: Texts, rules: Rules) -> Doc:
    s = rules.slapping
    blocks = [paragraph(wrong_sentence(tr, rules))]
    if s.pays_in_cards:
        blocks.append(paragraph(tr("learn.wrong.short")))
    if s.penalty == "burn":
        blocks.append(paragraph(tr("learn.wrong.burned_count" if rules.slaps.burned_count else "learn.wrong.burned")))
    if s.locks_out:
        blocks.append(paragraph(tr("learn.wrong.locked")))
    if s.penalty == "give-pile":
        blocks.append(paragraph(tr("learn.wrong.give_pile_leader")))
    once = "learn.wrong.once_per_card" + ("_table" if s.once_per_card_scope == "table" else "")
    blocks.append(paragraph(tr(once if s.once_per_card else "learn.wrong.several")))
    blocks.append(paragraph(tr("learn.wrong.late")))
    keys = (
        "slapping.penalty",
        "slapping.penalty_cards",
        "slapping.lockout_cards",
        "slapping.penalty_from",
        "slapping.once_per_card",
        "slapping.once_per_card_scope",
    )
    return {"id": "wrong", "title": tr("learn.wrong.title"), "blocks": blocks, "keys": keys_doc(tr, rules, keys)}


def tie_sentence(tr: Texts, rules: Rules) -> str:
    s = rules.slapping
    if s.tie_window_ms == 0:
        return tr("learn.ties.exact")
    return tr(f"learn.ties.{s.tie}", time=tr("learn.value.ms", n=s.tie_window_ms))


def section_ties(tr: Texts, rules: Rules) -> Doc:
    blocks = [paragraph(tr("learn.ties.p1")), paragraph(tie_sentence(tr, rules))]
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
    blocks = [paragraph(s) for s in empty_sentences(tr, rules)]
    blocks.append(paragraph(tr(f"learn.challenge.empty.{rules.challenge.empty_payer}")))
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
        "blocks": [paragraph(s) for s in end_sentences(tr, rules)],
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
