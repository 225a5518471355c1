"""The cheat sheet: the whole game on one printable page, in the rules page's own sentences, shortened."""

from __future__ import annotations

from ratscrew.learn.examples import pattern_examples
from ratscrew.learn.rules_page import (
    collect_sentence,
    deck_sentence,
    demand_rows,
    empty_sentences,
    end_sentences,
    leader_sentence,
    stack_sizes,
    tie_sentence,
    wrong_sentence,
)
from ratscrew.learn.words import Doc, Texts, key_doc, no_challenges, slap_keys
from ratscrew.patterns import enabled_patterns
from ratscrew.rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, Rules


def cheatsheet(tr: Texts, rules: Rules) -> Doc:
    """The whole game on one printable page: the same sentences as the rules page, shortened."""
    slappable = slap_keys(rules)
    slaps = [
        {
            "key": p.key,
            "name": tr(f"pattern.{p.key}"),
            "short": tr(f"learn.pattern.{p.key}.short"),
            "example": next((e for e in pattern_examples(tr, rules, p.key) if e["slappable"]), None),
        }
        for p in enabled_patterns(rules)
        if p.key in slappable
    ]
    changed = [
        key_doc(tr, rules, o.key) | {"summary": tr(f"option.{o.key}")} for o in OPTIONS if rules.get(o.key) != o.default
    ]
    sizes = stack_sizes(rules, 3)
    blocks: list[Doc] = [
        {
            "id": "setup",
            "title": tr("learn.cs.setup"),
            "items": [
                tr("learn.cs.setup.deal", sizes=", ".join(str(s) for s in sizes)),
                deck_sentence(tr, rules),
                tr("learn.cs.setup.look"),
            ],
        },
        {"id": "turn", "title": tr("learn.cs.turn"), "items": [tr("learn.cs.turn.flip"), tr("learn.cs.turn.number")]},
        challenge_block(tr, rules),
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


def challenge_block(tr: Texts, rules: Rules) -> Doc:
    """What court cards demand and how a challenge ends; under rules where no card demands anything (Slapjack),
    that one sentence alone, and no court card listed as 'nothing'."""
    if no_challenges(rules):
        return {
            "id": "challenge",
            "title": tr("learn.cs.challenge"),
            "demands": [],
            "items": [tr("learn.challenge.none")],
        }
    return {
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
    }
