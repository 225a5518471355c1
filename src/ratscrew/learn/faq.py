"""The questions players ask at the table, each answered for the chosen rules, and the common variants."""

from __future__ import annotations

import re

from ratscrew.learn.rules_page import (
    collect_sentence,
    demand_rows,
    empty_sentences,
    end_sentences,
    tie_sentence,
    wrong_sentence,
)
from ratscrew.learn.words import Doc, Texts, keys_doc, option_label, value_label
from ratscrew.rules import OPTIONS_BY_KEY, Rules
from ratscrew.rules.options import Value

FAQ: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("turn", ("players.slap_in",)),
    ("together", ("slapping.tie", "slapping.tie_window_ms")),
    ("empty", ("players.slap_in", "players.out_when", "challenge.empty_payer")),
    ("wrong", ("slapping.penalty", "slapping.penalty_cards", "slapping.penalty_from", "slaps.burned_count")),
    (
        "locked",
        ("slapping.penalty", "slapping.lockout_cards", "slapping.once_per_card", "slapping.once_per_card_scope"),
    ),
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
    ("bigmac", None, ("slaps.bigmac", "slaps.flush", "slaps.six_nine", "slaps.top_bottom_ten")),
    ("suited", None, ("slaps.marriage", "slaps.divorce", "slaps.marriage_suits")),
    ("leader", None, ("players.leader",)),
    ("wildcard", None, ("slaps.wildcard",)),
    ("slapjack", "slapjack", ("challenge.J", "challenge.Q", "challenge.K", "challenge.A", "slaps.wildcard")),
    ("burn_two", None, ("slapping.penalty_cards", "slapping.penalty_from")),
    ("lockout", None, ("slapping.penalty", "slapping.lockout_cards")),
    ("give_pile", None, ("slapping.penalty",)),
    ("once_per_card", None, ("slapping.once_per_card",)),
    ("once_per_table", None, ("slapping.once_per_card", "slapping.once_per_card_scope")),
    ("give", "bataille-corse", ("slapping.penalty", "players.out_when")),
    ("jokers", None, ("deck.jokers", "slaps.joker", "challenge.joker")),
    ("counts", None, ("challenge.J", "challenge.A", "challenge.joker")),
    ("out", "out-is-out", ("players.slap_in",)),
    ("ten_stops", None, ("challenge.ten_stops",)),
    ("next_pays", None, ("challenge.empty_payer",)),
    ("timed", None, ("end.time_limit_s",)),
)


# A rules key written in an answer ("challenge.J"), as a whole word: the longest first, so "slapping.penalty"
# never takes the front of "slapping.penalty_cards".
_KEYS = "|".join(re.escape(k) for k in sorted(OPTIONS_BY_KEY, key=len, reverse=True))
_A_KEY = re.compile(r"(?<![\w.])(" + _KEYS + r")(?![\w])")
# One of a key's values written in an answer as "slapping.penalty=lockout-pile".
_A_VALUE = re.compile(r"(?<![\w.])(" + _KEYS + r")=([\w-]+)")


def _value_named(tr: Texts, key: str, raw: str) -> str:
    """A value an answer names (its text as a rules file spells it) in the reader's words, as the forms say it."""
    opt = OPTIONS_BY_KEY[key]
    found = [c for c in opt.choices if str(c) == raw] if opt.kind == "choice" else []
    value: Value
    if opt.kind == "bool" and raw in ("true", "false"):
        value = raw == "true"
    elif found:
        value = found[0]
    elif opt.kind == "int" and raw.isdigit():
        value = int(raw)
    else:
        raise ValueError(f"an answer names {key}={raw}, which is not one of its values")
    return tr("learn.ui.value_named", value=value_label(tr, opt, value))


def _in_words(tr: Texts, answer: str) -> str:
    """The answer with every rules key it names replaced by the setting's name in the reader's language, and
    every value it names ("slapping.penalty=lockout") by the value's words: keys and values as files spell them
    belong to the command line, and the words come from the same definitions as the setup page's."""
    answer = _A_VALUE.sub(lambda m: _value_named(tr, m.group(1), m.group(2)), answer)
    return _A_KEY.sub(lambda m: tr("learn.ui.setting_named", name=option_label(tr, m.group(1))), answer)


def _faq_now(tr: Texts, rules: Rules, topic: str) -> str:
    """The sentence that says what the chosen rules do about a question."""
    if topic == "together":
        return tie_sentence(tr, rules)
    if topic == "empty":
        return " ".join([*empty_sentences(tr, rules), tr(f"learn.challenge.empty.{rules.challenge.empty_payer}")])
    if topic == "wrong":
        return wrong_sentence(tr, rules)
    if topic == "locked":
        return wrong_sentence(tr, rules) if rules.slapping.locks_out else tr("learn.faq.locked.off")
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
            "a": [_in_words(tr, tr(f"learn.faq.{topic}.a"))],
            "now": _in_words(tr, _faq_now(tr, rules, topic)),
            "keys": keys_doc(tr, rules, keys),
        }
        for topic, keys in FAQ
    ]
    variants = [
        {
            "id": name,
            "title": tr(f"learn.variant.{name}.title"),
            "text": _in_words(tr, tr(f"learn.variant.{name}.text")),
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
