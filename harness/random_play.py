"""Random play for the property tests: rules drawn from a preset with random house rules, random sequences of
actions (mostly flips, some waits, slaps right and wrong, illegal ones), a driver that applies them to a game
checking every invariant (``harness/invariants.py``) after each, and a finished game's trip through a record."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import strategies as st

from harness.invariants import PenaltyModel, Snapshot, check_invariants, check_step, dealt_cards, state_key
from harness.rules_md import settled
from ratscrew.engine import Action, Event, Flip, Game, Slap, Wait
from ratscrew.errors import IllegalAction
from ratscrew.record import Record, state_json
from ratscrew.rules import OPTIONS, Option, Rules

MAX_CARDS = 3000


def _value_strategy(opt: Option) -> st.SearchStrategy[object]:
    if opt.key == "end.time_limit_s":
        return st.sampled_from([0, 0, 1, 2, 5])
    if opt.key == "end.max_cards":
        return st.just(MAX_CARDS)
    if opt.kind == "bool":
        return st.booleans()
    if opt.kind == "choice":
        return st.sampled_from(list(opt.choices))
    return st.integers(opt.minimum, opt.maximum)


@st.composite
def rules_for(draw: st.DrawFn, preset: str, *, timed: bool = True, fixed: dict[str, object] | None = None) -> Rules:
    """The preset with a random subset of its options changed to random allowed values, consistently."""
    changes: dict[str, object] = {}
    for opt in OPTIONS:
        if opt.key == "end.max_cards" or opt.key in (fixed or {}):
            continue
        if opt.key == "end.time_limit_s" and not timed:
            continue
        if draw(st.integers(0, 2)) == 0:
            changes[opt.key] = draw(_value_strategy(opt))
    changes.update(fixed or {})
    changes["end.max_cards"] = MAX_CARDS
    rules = Rules.build(preset, settled(preset, changes))
    assert rules.preset == preset
    assert rules.end.max_cards == MAX_CARDS
    return rules


OP_KINDS = ("flip",) * 8 + ("wait",) * 2 + ("slap",) * 3 + ("slap_hit",) * 2 + ("illegal",)


@dataclass(frozen=True)
class Op:
    kind: str
    seat: int
    dt: int | None
    card: int | None


ops_strategy = st.lists(
    st.builds(
        Op,
        st.sampled_from(OP_KINDS),
        st.integers(0, 11),
        st.one_of(st.none(), st.integers(0, 400)),
        st.one_of(st.none(), st.integers(0, 10_000)),
    ),
    min_size=1,
    max_size=60,
)


class Driver:
    """Applies random actions to a game, checking every invariant as it goes."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.model = PenaltyModel(game.players)
        self.dealt = dealt_cards(game)
        self.events: list[tuple[Event, ...]] = []
        self.illegal = 0
        check_invariants(game, self.dealt)

    def apply(self, action: Action) -> None:
        game = self.game
        pre = Snapshot.of(game, self.model)
        events = game.apply(action)
        self.events.append(events)
        self.model.after(game, events, pre.tricks)
        check_invariants(game, self.dealt)
        check_step(game, action, events, pre)
        assert [game.lockout(s) for s in range(game.players)] == self.model.locked(game)
        if game.over:
            assert events[-1].kind == "game_over"
            self.expect_illegal(Flip())
            self.expect_illegal(Wait())
            self.expect_illegal(Slap(game.outcome.winner if game.outcome and game.outcome.winner is not None else 0))

    def expect_illegal(self, action: Action) -> None:
        game = self.game
        before = state_key(game)
        with pytest.raises(IllegalAction):
            game.apply(action)
        assert state_key(game) == before, "an illegal action must leave the game as it was"
        self.illegal += 1

    def step(self, op: Op) -> None:
        game = self.game
        t = None if op.dt is None else game.now + op.dt
        in_seats = [s for s in range(game.players) if not game.out[s]]
        seat = in_seats[op.seat % len(in_seats)]
        card = None if op.card is None else op.card % (game.cards + 1)
        if op.kind == "flip":
            self.apply(Flip(t))
        elif op.kind == "wait":
            self.apply(Wait(t))
        elif op.kind == "slap":
            self.apply(Slap(seat, t, card))
        elif op.kind == "slap_hit":
            # A slap meant to be right: only when the pile shows a pattern, reacting to the top card.
            if game.slappable():
                self.apply(Slap(seat, t, game.cards if op.card is not None else None))
            else:
                self.apply(Flip(t))
        else:
            out_seats = [s for s in range(game.players) if game.out[s]]
            if op.seat % 3 == 0 and game.now > 0:
                self.expect_illegal(Flip(game.now - 1))  # time never goes back
            elif op.seat % 3 == 1:
                self.expect_illegal(Slap(game.players + op.seat))  # no such seat
            elif out_seats:
                self.expect_illegal(Slap(out_seats[op.seat % len(out_seats)]))  # out players cannot slap
            else:
                self.expect_illegal(Slap(seat, None, game.cards + 1 + op.seat))  # reacting to an unturned card


def check_round_trip(game: Game, seed: int, events: list[tuple[Event, ...]]) -> None:
    """record -> JSON text -> record -> replay gives the same game, event for event."""
    for record in (
        Record(game.rules, game.players, hands=game.hands, first=game.first, actions=tuple(game.actions)),
        Record(game.rules, game.players, seed=seed, first=game.first, actions=tuple(game.actions)),
    ):
        doc = record.to_json()
        text = json.dumps(doc)
        loaded = Record.from_json(json.loads(text))
        assert loaded.rules == game.rules
        assert loaded.to_json() == doc
        replayed = loaded.replay()
        assert state_json(replayed) == state_json(game)
        assert replayed.outcome == game.outcome
        assert (
            Record(
                replayed.rules,
                replayed.players,
                hands=replayed.hands,
                first=replayed.first,
                actions=tuple(replayed.actions),
            ).to_json()
            == Record(
                game.rules, game.players, hands=game.hands, first=game.first, actions=tuple(game.actions)
            ).to_json()
        )
    fresh = Record.from_json(
        json.loads(json.dumps(Record(game.rules, game.players, hands=game.hands, first=game.first).to_json()))
    ).new_game()
    again = [fresh.apply(a) for a in game.actions]
    assert again == events


# ---------------------------------------------------------------------------------------------- tests
