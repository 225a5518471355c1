"""The notation of the rule-case tables (tests/test_rule_cases.py and tests/test_house_rules.py).

``pattern_case`` asks the referee (``find_matches``) about a pile, bottom card first. ``game_case`` drives the
engine: a deal, then actions one by one, each with every event it must produce (in a short, readable form,
see :func:`brief`) and, where it matters, the state right after it.

Action notation: ``flip``, ``wait``, ``slap 1`` (a slap by seat 1); a time in ms may follow as ``@1200`` and
the card count the slapper reacted to as ``#2`` (``slap 1 @1200 #2``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest

from ratscrew.cards import Card, parse_cards
from ratscrew.engine import Action, Flip, Game, Slap, Wait
from ratscrew.engine.events import (
    CardTurned,
    ChallengeOpened,
    ChallengeStopped,
    ChallengeWon,
    DebtPassed,
    Event,
    GameOver,
    PileWon,
    PlayerOut,
    SlapCorrect,
    SlapDismissed,
    WonBy,
    WrongSlap,
)
from ratscrew.patterns import PATTERNS, find_matches
from ratscrew.record import state_json
from ratscrew.rules import Rules


def pattern_case(
    preset: str, changes: Mapping[str, object], pile: str, expected: Sequence[str], note: str = ""
) -> object:
    """One row: under ``preset`` + ``changes``, the pile (bottom first, top last) shows exactly ``expected``."""
    extra = ",".join(f"{k.split('.', 1)[1]}={v}" for k, v in changes.items())
    rules_id = preset + (f"[{extra}]" if extra else "")
    answer = "+".join(expected) if expected else "no slap"
    case_id = f"{rules_id}: {pile} -> {answer}" + (f" ({note})" if note else "")
    return pytest.param(preset, dict(changes), pile, list(expected), id=case_id)


def check_pattern_case(preset: str, changes: dict[str, object], pile: str, expected: list[str]) -> None:
    rules = Rules.build(preset, changes)
    cards = parse_cards(pile, bare_rank=True)
    matches = find_matches(cards, rules)
    assert [m.pattern for m in matches] == expected
    for match in matches:
        # The cards a match names lie where its positions say, the top card always among them: its top cards,
        # or the pile's two ends for the patterns that look at the bottom.
        assert match.cards == tuple(cards[i] for i in match.positions)
        assert match.positions[-1] == len(cards) - 1
        bottom = next(p.bottom for p in PATTERNS if p.key == match.pattern)
        places = (0, len(cards) - 1) if bottom else tuple(range(len(cards) - len(match.cards), len(cards)))
        assert match.positions == places
        assert match.why


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def brief(event: Event) -> str:
    """An event in a few words, so the expected events of a case read like a commentary."""
    if isinstance(event, CardTurned):
        return f"{event.seat} turns {event.card}"
    if isinstance(event, ChallengeOpened):
        return f"{event.payer} owes {event.owed} to {event.seat}" + (" (passed on)" if event.passed_on else "")
    if isinstance(event, DebtPassed):
        return f"{event.to_seat} pays the {event.owed} {event.from_seat} still owed"
    if isinstance(event, ChallengeWon):
        return f"{event.seat} wins the challenge ({event.how})"
    if isinstance(event, ChallengeStopped):
        return f"challenge of {event.seat} stopped ({event.reason})"
    if isinstance(event, SlapCorrect):
        return f"{event.seat} slaps " + "+".join(m.pattern for m in event.matches)
    if isinstance(event, WrongSlap):
        text = f"{event.seat} wrong slap"
        if event.burned:
            text += f", burns {_cards(event.burned)}"
        if event.given:
            text += ", gives " + " ".join(f"{seat}:{card}" for seat, card in event.given)
        return text
    if isinstance(event, SlapDismissed):
        return f"{event.seat} slap dismissed ({event.reason})"
    if isinstance(event, PileWon):
        if event.how is WonBy.GIVEN:
            return f"{event.seat} is given {_cards(event.cards)}"
        text = f"{event.seat} takes {_cards(event.cards)} by {event.how}"
        if len(event.shares) > 1 or event.shares[0][0] != event.seat:
            text += ", shares " + " ".join(f"{seat}:{n}" for seat, n in event.shares)
        return text
    if isinstance(event, PlayerOut):
        return f"{event.seat} out ({event.reason})"
    if isinstance(event, GameOver):
        outcome = event.outcome
        return f"game over: {outcome.result.value}" + ("" if outcome.winner is None else f" {outcome.winner}")
    raise AssertionError(f"an event this test does not know: {event!r}")


def state(game: Game) -> dict[str, object]:
    return dict(state_json(game))


def action(text: str) -> Action:
    words = text.split()
    t = next((int(w[1:]) for w in words if w.startswith("@")), None)
    card = next((int(w[1:]) for w in words if w.startswith("#")), None)
    if words[0] == "flip":
        return Flip(t)
    if words[0] == "wait":
        return Wait(t)
    assert words[0] == "slap", text
    return Slap(int(words[1]), t, card)


@dataclass(frozen=True)
class Step:
    action: str
    events: tuple[str, ...]
    state: Mapping[str, object]


def step(act: str, *events: str, **expected_state: object) -> Step:
    """One action, every event it must produce (in order), and optionally some of the state after it.

    Besides the keys of ``replay --json``, ``locked`` gives each seat's lockout (``Game.lockout``).
    """
    return Step(act, events, expected_state)


@dataclass(frozen=True)
class GameCase:
    hands: tuple[str, ...]
    steps: tuple[Step, ...]
    preset: str = "standard"
    changes: Mapping[str, object] = field(default_factory=dict)
    first: int = 0


def game_case(
    case_id: str,
    hands: Sequence[str],
    *steps: Step,
    preset: str = "standard",
    changes: Mapping[str, object] | None = None,
    first: int = 0,
    xfail: str = "",
) -> object:
    marks = [pytest.mark.xfail(reason=xfail, strict=True)] if xfail else []
    case = GameCase(tuple(hands), steps, preset, dict(changes or {}), first)
    return pytest.param(case, id=case_id, marks=marks)


def check_game_case(case: GameCase) -> None:
    rules = Rules.build(case.preset, case.changes)
    game = Game(rules, [parse_cards(h) for h in case.hands], case.first)
    for index, item in enumerate(case.steps):
        events = game.apply(action(item.action))
        assert [brief(e) for e in events] == list(item.events), f"step {index}: {item.action}"
        if item.state:
            now = state(game) | {"locked": [game.lockout(s) for s in range(game.players)]}
            assert {k: now[k] for k in item.state} == dict(item.state), f"step {index}: {item.action}"
        # Cards are never made or lost.
        assert game.card_count() == sum(len(parse_cards(h)) for h in case.hands)
