"""The rules in brief, for every page that shows a rule set next to something else: the setup page, the
online room, the table and the score keeper. Each of them used to work this out in JavaScript; now the page
asks the server (``POST /api/rules/summary``) and only draws what comes back.

Everything here is read from the engine's own definitions: the enabled patterns (``patterns``), the example
piles the engine judges (``learn.examples``), the deck the engine deals for that many players
(``Rules.deck_for``) and the options that differ from the preset (``Rules.changes_from_preset``).
"""

from __future__ import annotations

from ratscrew.cards import Rank
from ratscrew.learn.examples import pattern_pile
from ratscrew.learn.rules_page import pattern_rule
from ratscrew.learn.words import (
    Doc,
    Texts,
    card_text,
    no_challenges,
    option_label,
    slap_keys,
    value_label,
    wildcard_text,
)
from ratscrew.rules import OPTIONS_BY_KEY, Rules

COURT_LETTERS: tuple[Rank, ...] = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


def letter(tr: Texts, rank: Rank) -> str:
    """The letter a court card carries in this language (K, R in French, K in German...)."""
    return tr(f"card.letter.{rank.symbol}")


def _pattern_note(tr: Texts, rules: Rules, key: str) -> str:
    s = rules.slaps
    if key == "run":
        return tr("scores.rules.run_wrap" if s.run_wrap else "scores.rules.run_nowrap", n=s.run)
    if key == "ten":
        return tr("scores.rules.ten_ace" if s.ten == "ace-one" else "scores.rules.ten_numbers")
    if key == "ten_gap":
        return tr("scores.rules.gap_court" if s.ten_gap == "court" else "scores.rules.gap_any")
    if key == "flush":
        return tr("scores.rules.flush", n=s.flush)
    if key == "wildcard":
        return tr("scores.rules.wildcard", rank=wildcard_text(tr, rules))
    if key in ("marriage", "divorce") and s.marriage_suits != "any":
        return tr(f"scores.rules.pattern.{key}") + tr(f"scores.rules.suits.{s.marriage_suits}")
    return tr(f"scores.rules.pattern.{key}")


def slap_doc(tr: Texts, rules: Rules, key: str) -> Doc:
    """One enabled pattern: its name, a one-line sentence, the rule in full and a pile the engine slaps."""
    pile = pattern_pile(rules, key) or []
    return {
        "key": key,
        "name": tr(f"pattern.{key}"),
        "sentence": _pattern_note(tr, rules, key),
        "rule": pattern_rule(tr, rules, key),
        "example": [str(c) for c in pile],
        "example_text": " ".join(card_text(c, tr) for c in pile),
    }


def demands_text(tr: Texts, rules: Rules, *, with_joker: bool = True) -> str:
    """What court cards demand, in this language's letters: ``J1 Q2 K3 A4``, ``V1 D2 R3 A4``."""
    c = rules.challenge
    if no_challenges(rules):
        return tr("rules.chip.no_challenges")
    counts = {Rank.JACK: c.J, Rank.QUEEN: c.Q, Rank.KING: c.K, Rank.ACE: c.A}
    text = " ".join(f"{letter(tr, r)}{counts[r]}" for r in COURT_LETTERS)
    if with_joker and c.joker and rules.deck.jokers:
        text += f" {tr('card.joker')} {c.joker}"
    return text


def _minutes(tr: Texts, seconds: int) -> str:
    amount = f"{round(seconds / 6) / 10:g}"
    return amount.replace(".", ",") if tr.lang in ("fr", "de") else amount


# The options that end a game early, each shown as a chip of its own when set.
LIMITS = ("end.time_limit_s", "end.max_cards")


def chips(tr: Texts, rules: Rules) -> list[str]:
    """The rule set in a few short labels: what may be slapped, what court cards demand, what a wrong slap
    costs, what happens to a player without cards, and a time or card limit if there is one."""
    s = rules.slaps
    on: list[str] = []
    for key in slap_keys(rules):
        if key == "run":
            on.append(tr("rules.chip.run", n=s.run) + (" ↻" if s.run_wrap else ""))
        elif key == "ten":
            on.append(tr(f"rules.chip.ten.{s.ten}"))
        elif key == "flush":
            on.append(tr("rules.chip.flush", n=s.flush))
        elif key == "wildcard":
            on.append(tr("rules.chip.wildcard", rank=wildcard_text(tr, rules)))
        elif key in ("marriage", "divorce") and s.marriage_suits != "any":
            on.append(tr(f"rules.chip.suited.{s.marriage_suits}", name=tr(f"pattern.{key}")))
        else:
            on.append(tr(f"pattern.{key}"))
    p = rules.players
    out = [
        tr("rules.chip.slaps", list=", ".join(on)) if on else tr("rules.chip.no_slaps"),
        demands_text(tr, rules),
        penalty_chip(tr, rules),
        tr(f"rules.chip.out_when.{p.out_when}") if p.slap_in else tr("rules.chip.out_is_out"),
    ]
    limit = rules.end.time_limit_s
    if limit:
        out.append(
            tr("rules.chip.time_limit_s", s=limit)
            if limit < 120
            else tr("rules.chip.time_limit", m=_minutes(tr, limit))
        )
    if rules.end.max_cards:
        out.append(tr("rules.chip.max_cards", n=rules.end.max_cards))
    return out


def penalty_chip(tr: Texts, rules: Rules) -> str:
    s = rules.slapping
    n = s.lockout_cards if s.penalty == "lockout" else s.penalty_cards
    chip = tr(f"rules.chip.penalty.{s.penalty}", n=n)
    if s.pays_in_cards and s.penalty_from == "bottom":
        chip += " " + tr("rules.chip.from_bottom")
    return chip


def changes(tr: Texts, rules: Rules) -> list[Doc]:
    """Each option that differs from the rule set's preset, as a short label and its value in words."""
    out: list[Doc] = []
    for key, value in rules.changes_from_preset().items():
        opt = OPTIONS_BY_KEY[key]
        label = option_label(tr, key)
        words = value_label(tr, opt, value)
        out.append(
            {
                "key": key,
                "value": value,
                "label": label,
                "value_label": words,
                "chip": tr("rules.chip.change", label=label, value=words),
                "table": opt.table,
            }
        )
    return out


def challenge_sentence(tr: Texts, rules: Rules) -> str:
    if no_challenges(rules):
        return tr("scores.rules.no_challenge")
    sentence = tr("scores.rules.challenge", demands=demands_text(tr, rules, with_joker=False))
    if rules.challenge.joker and rules.deck.jokers:
        sentence += " " + tr("scores.rules.joker_demand", n=rules.challenge.joker)
    return sentence


def penalty_sentence(tr: Texts, rules: Rules) -> str:
    s = rules.slapping
    if s.penalty == "none":
        sentence = tr("scores.rules.penalty_none")
    elif s.penalty == "lockout":
        sentence = tr.count("scores.rules.penalty_lockout", s.lockout_cards)
    elif s.penalty in ("lockout-pile", "give-pile"):
        sentence = tr(f"scores.rules.penalty_{s.penalty.replace('-', '_')}")
    else:
        key = "scores.rules.penalty_burn" if s.penalty == "burn" else "scores.rules.penalty_give"
        sentence = tr.count(key, s.penalty_cards)
        if s.penalty_from == "bottom":
            sentence += " " + tr("scores.rules.penalty_bottom")
    if s.once_per_card:
        sentence += " " + tr("scores.rules.once_per_card" + ("_table" if s.once_per_card_scope == "table" else ""))
    return sentence


def deck_doc(tr: Texts, rules: Rules, players: int) -> Doc:
    """The shoe the engine deals for ``players``: how many decks (``deck.decks`` decides, or the player
    count when it is auto), how many jokers, and both in words."""
    spec = rules.deck_for(players)
    sentence = tr.count("scores.rules.decks", spec.decks)
    if spec.jokers:
        sentence += " " + tr.count("scores.rules.jokers", spec.jokers)
    return {
        "decks": spec.decks,
        "jokers": spec.jokers,
        "jokers_total": spec.jokers * spec.decks,
        "cards": spec.size,
        "auto": rules.deck.decks == "auto",
        "text": sentence,
        "line": tr("setup.seat_count", n=players, decks=tr("setup.one_deck" if spec.decks == 1 else "setup.two_decks")),
    }


def lines(tr: Texts, rules: Rules, players: int) -> list[str]:
    """The rules as sentences for a real table: challenge, payer, penalty and ties, empty players, leader,
    deck. Penalty and ties are left out when nothing can be slapped (they never come up)."""
    slapping = bool(slap_keys(rules))
    c, p = rules.challenge, rules.players
    out = [
        challenge_sentence(tr, rules),
        tr("scores.rules.payer_next" if c.empty_payer == "next_pays" else "scores.rules.payer_loses"),
    ]
    if c.ten_stops:
        out.append(tr("scores.rules.ten_stops"))
    if slapping:
        out.append(penalty_sentence(tr, rules))
        out.append(tr("scores.rules.tie_split" if rules.slapping.tie == "split" else "scores.rules.tie_first"))
    if not p.slap_in:
        out.append(tr("scores.rules.out_is_out"))
    else:
        out.append(tr(f"scores.rules.out_{p.out_when.replace('-', '_')}"))
    out.append(tr(f"scores.rules.leader_{p.leader}"))
    out.append(str(deck_doc(tr, rules, players)["text"]))
    if slapping and rules.slaps.burned_count:
        out.append(tr("scores.rules.burned_count"))
    return out


def empty_doc(tr: Texts, rules: Rules) -> Doc:
    """A player without cards at the table, as ``players.slap_in`` and ``players.out_when`` decide: the few
    words on their seat (``mine``, ``seat`` on anyone else's) and the notice their own page shows (``you``, then
    ``you_out`` once they are out). ``you`` leaves ``{slap}`` for the page to fill with its Slap button and key,
    which only the page knows."""
    p = rules.players
    if not p.slap_in:
        return {
            "mine": tr("table.empty.mine.out_is_out"),
            "seat": tr("table.empty.seat.out_is_out"),
            "you": tr("table.empty.you.out_is_out", slap="{slap}"),
            "you_out": tr("table.empty.you_out"),
        }
    short = tr("table.empty.seat.slap_in")
    then = tr(f"table.empty.you.{p.out_when.replace('-', '_')}")
    return {
        "mine": short,
        "seat": short,
        "you": tr("table.empty.you.slap_in", slap="{slap}") + " " + then,
        "you_out": tr("table.empty.you_out"),
    }


def rules_summary(lang: str, rules: Rules, players: int) -> Doc:
    """The whole summary of one rule set for ``players`` players, in ``lang``."""
    tr = Texts(lang)
    changed = changes(tr, rules)
    summary = tr(f"preset.{rules.preset}")
    label = tr(f"preset.{rules.preset}.name")
    # The rules a table agrees on, and the limits that end its game (not table rules, yet the players must
    # know them: a game stopped by a card limit nobody was told of ends by surprise).
    table = [c for c in changed if c["table"] or c["key"] in LIMITS]
    # The preset's own sentence names its values (J1 Q2 ...): once a house rule a table agrees on differs,
    # it no longer describes the rules in force, so the line names the preset and the chips (the same words
    # as the chips drawn under it) that differ from the preset's.
    if table:
        head = tr.count("learn.ui.table_summary", len(table), preset=label)
        before = chips(tr, Rules.build(rules.preset))
        differ = [chip for chip in chips(tr, rules) if chip not in before]
        sep = " ; " if tr.lang == "fr" else "; "
        text = tr("rules.chip.change", label=head, value=sep.join(differ)) if differ else head
    else:
        text = summary + (" " + tr("setup.with_changes") if changed else "")
    return {
        "lang": lang,
        "players": players,
        "preset": {
            "name": rules.preset,
            "label": label,
            "summary": summary,
            "changed": bool(changed),
            "text": text,
            "changes_text": tr.count("scores.rules.changes", len(table)),
        },
        "slaps": [slap_doc(tr, rules, k) for k in slap_keys(rules)],
        "no_slaps": tr("scores.rules.no_slaps"),
        "chips": chips(tr, rules),
        "changes": changed,
        "challenge": challenge_sentence(tr, rules),
        "penalty": penalty_sentence(tr, rules),
        "lines": lines(tr, rules, players),
        "deck": deck_doc(tr, rules, players),
        "empty": empty_doc(tr, rules),
    }
