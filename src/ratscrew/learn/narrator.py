"""A challenge told flip by flip: the engine plays it, and each flip is put into words.

Shared by the Learn pages (the worked challenges) and the debt drills (the story of a question's deal).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ratscrew.cards import Card
from ratscrew.engine import Flip, Game
from ratscrew.engine.events import (
    CardTurned,
    ChallengeOpened,
    ChallengeStopped,
    ChallengeWin,
    ChallengeWon,
    DebtPassed,
    Event,
    PlayerOut,
    StopReason,
)
from ratscrew.learn.words import Texts, card_text, rank_name
from ratscrew.rules import Rules


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
        who, card = names[turned.seat], card_text(turned.card, tr)
        stopped = any(isinstance(e, ChallengeStopped) and e.reason is StopReason.TEN for e in step.events)
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
        elif won is not None and won.how is ChallengeWin.PAID:
            parts.append(tr("learn.step.paid", who=who, card=card, winner=names[won.seat]))
        elif step.owed_before > 0:
            parts.append(tr.count("learn.step.paying", step.owed_before - 1, who=who, card=card))
        elif won is not None and won.how is ChallengeWin.UNOPPOSED:
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
        elif isinstance(event, ChallengeWon) and event.how is not ChallengeWin.PAID:
            payer = names[turned.seat] if turned is not None else ""
            parts.append(tr(f"learn.step.{event.how}", who=payer, winner=names[event.seat]))
    return " ".join(parts)
