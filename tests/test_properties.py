"""Property tests: many random games under every preset and random mixes of house rules.

Each game is dealt by ``Game.from_seed`` and driven by a random sequence of actions (mostly flips, some
waits, slaps by random seats that are in, right and wrong, times that never go back, and sometimes a
``card`` a slap reacted to). After every action the invariants of docs/rules.md must hold; at the end the game
must survive a trip through a ``ratscrew-record/1`` document unchanged.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from harness.rules_md import settled
from ratscrew.cards import Card, Rank
from ratscrew.engine import Action, Event, Flip, Game, Result, Slap, Wait
from ratscrew.engine.events import (
    CardTurned,
    ChallengeOpened,
    ChallengeWon,
    DebtPassed,
    EventKind,
    OutReason,
    PileWon,
    PlayerOut,
    SlapCorrect,
    SlapDismissed,
    WrongSlap,
)
from ratscrew.engine.game import Lockout
from ratscrew.errors import IllegalAction, RulesError
from ratscrew.record import Record, state_json
from ratscrew.rules import OPTIONS, PRESETS, Option, Rules

MAX_CARDS = 3000
PRESET_NAMES = sorted(PRESETS)

# ---------------------------------------------------------------------------------------------- strategies


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

# ---------------------------------------------------------------------------------------------- checks


def all_cards(game: Game) -> Counter[Card]:
    held: Counter[Card] = Counter()
    for stack in game.stacks:
        held.update(stack)
    held.update(game.pile)
    held.update(game.burned)
    return held


def dealt_cards(game: Game) -> Counter[Card]:
    return Counter(c for hand in game.hands for c in hand)


def check_invariants(game: Game, dealt: Counter[Card]) -> None:
    # Every dealt card is somewhere, exactly once.
    assert all_cards(game) == dealt
    assert game.card_count() == sum(dealt.values())
    # Out players hold nothing.
    for seat in range(game.players):
        if game.out[seat]:
            assert not game.stacks[seat], f"seat {seat} is out but holds {len(game.stacks[seat])} cards"
    if game.outcome is None:
        # The seat due can always turn a card: never out, and holding cards unless a pile waits to be collected.
        assert not game.out[game.turn], f"seat {game.turn} is due but out"
        if game.collect_pending is None:
            assert game.stacks[game.turn], f"seat {game.turn} is due but holds no card"
        else:
            assert not game.out[game.collect_pending]
            assert game.owed == 0
        assert sum(not o for o in game.out) >= 2, "the game goes on with fewer than two players in"
        if not game.pile and not game.burned:
            total = sum(dealt.values())
            assert all(len(stack) < total for stack in game.stacks), "one player holds every card: the game is over"
        assert game.owed >= 0
    else:
        assert game.collect_pending is None
        assert game.owed == 0
        outcome = game.outcome
        timed_out = bool(game.rules.end.time_limit_s) and game.now > game.rules.end.time_limit_s * 1000
        if outcome.result is Result.WIN:
            assert outcome.winner is not None
            assert not game.out[outcome.winner]
            if not timed_out:
                # Won by holding every card or by being the last one in: either way, every card is theirs.
                assert Counter(game.stacks[outcome.winner]) == dealt
                assert not game.pile and not game.burned
        elif outcome.result is Result.DRAW:
            assert timed_out and outcome.winner is None
        elif outcome.result is Result.LIMIT:
            assert game.cards == game.rules.end.max_cards and outcome.winner is None
        else:
            assert game.detect_loops and outcome.loop is not None and outcome.winner is None
            assert outcome.loop.cycle_tricks >= 1 and outcome.loop.cycle_cards >= 1


def state_key(game: Game) -> str:
    return json.dumps([state_json(game), game.now, len(game.actions)], sort_keys=True)


@dataclass(frozen=True)
class Snapshot:
    """The state just before an action."""

    state: object  # state_json() as it was
    cards: int
    tricks: int
    pile: list[Card]
    burned: list[Card]
    stacks: list[list[Card]]
    out: list[bool]
    slappable: bool
    turn: int
    owed: int
    collect_pending: int | None
    challenger: int | None
    locked: list[Lockout]  # each seat's lockout, as the penalty model has it
    paid_at: list[int]  # the card count of each seat's last wrong slap (for once_per_card)

    @staticmethod
    def of(game: Game, model: PenaltyModel) -> Snapshot:
        return Snapshot(
            state_json(game),
            game.cards,
            game.tricks,
            list(game.pile),
            list(game.burned),
            [list(s) for s in game.stacks],
            list(game.out),
            game.slappable(),
            game.turn,
            game.owed,
            game.collect_pending,
            game.challenger,
            model.locked(game),
            list(model.paid_at),
        )


class PenaltyModel:
    """The lockouts and once-per-card marks as the rules describe them, kept apart from the engine's own
    bookkeeping: after every action the engine's ``lockout`` must agree with it."""

    def __init__(self, players: int) -> None:
        self.until = [0] * players  # lockout: from this card count on, the seat's slaps count again
        self.pile_lock: list[int | None] = [None] * players  # lockout-pile: locked while tricks is this
        self.paid_at = [-1] * players

    def locked(self, game: Game) -> list[Lockout]:
        out: list[Lockout] = []
        for seat in range(game.players):
            if self.pile_lock[seat] == game.tricks:
                out.append("pile")
            else:
                out.append(self.until[seat] - game.cards if self.until[seat] > game.cards else None)
        return out

    def after(self, game: Game, events: Sequence[Event], pre_tricks: int) -> None:
        penalty = game.rules.slapping
        won = 0
        for event in events:
            if isinstance(event, PileWon):
                won += 1
            elif isinstance(event, WrongSlap):
                # A slap turns no card: this is the card it slapped. Under the table scope the card is paid for
                # everyone at once.
                table = penalty.once_per_card_scope == "table"
                for seat in range(game.players) if table else (event.seat,):
                    self.paid_at[seat] = game.cards
                if penalty.penalty == "lockout":
                    self.until[event.seat] = game.cards + penalty.lockout_cards
                elif penalty.penalty == "lockout-pile":
                    self.pile_lock[event.seat] = pre_tricks + won


def seats_after(players: int, seat: int, until: int) -> list[int]:
    """The seats passed going left from ``seat`` (exclusive) to ``until`` (exclusive); all others if equal."""
    passed = []
    s = (seat + 1) % players
    while s != until:
        passed.append(s)
        s = (s + 1) % players
    return passed


def check_flip(game: Game, events: Sequence[Event], pre: Snapshot) -> None:
    """A flip with nothing waiting to be collected, against the turn and challenge rules of docs/rules.md."""
    turned = [e for e in events if isinstance(e, CardTurned)]
    if not turned or game.over:
        return
    flipper, card = turned[0].seat, turned[0].card
    before_card = [e.kind for e in events[: events.index(turned[0])]]
    if "challenge_stopped" in before_card:
        return  # the challenger went out (missed slap) before the card: the debt lapsed
    rules = game.rules
    demand = rules.demand(card)
    kinds = [e.kind for e in events]
    newly_out = {s for s in range(game.players) if game.out[s] and not pre.out[s]}
    if demand:
        # A court card: the next player who has cards owes; if nobody else has cards it wins at once.
        opened = [e for e in events if isinstance(e, ChallengeOpened)]
        if opened:
            payer = opened[0].payer
            assert opened[0].seat == flipper and opened[0].owed == demand
            assert opened[0].passed_on == (pre.owed > 0)
            assert payer != flipper and game.stacks[payer] and not game.out[payer]
            for s in seats_after(game.players, flipper, payer):
                assert s == flipper or game.out[s] or not game.stacks[s], f"seat {s} has cards but was passed over"
            assert (game.turn, game.owed, game.challenger) == (payer, demand, flipper)
        else:
            unopposed = [e for e in events if isinstance(e, ChallengeWon)]
            assert unopposed and unopposed[0].how == "unopposed" and unopposed[0].seat == flipper, kinds
            assert all(game.out[s] or not game.stacks[s] for s in range(game.players) if s != flipper)
        return
    if pre.owed == 0:
        # A number card with no debt: play passes to the nearest seat on the left that can turn a card.
        if kinds.count(EventKind.CARD_TURNED) != 1 or set(kinds) - {"card_turned", "player_out", "challenge_won"}:
            return
        if "challenge_won" in kinds:
            won = next(e for e in events if isinstance(e, ChallengeWon))
            assert won.how == "last_card"
            assert all(game.out[s] or not game.stacks[s] for s in range(game.players))
            return
        passed = seats_after(game.players, flipper, game.turn)
        for s in passed:
            assert game.out[s] or not game.stacks[s], f"seat {s} has cards but play passed {flipper} -> {game.turn}"
        if not rules.players.slap_in:
            assert newly_out == {s for s in passed if not pre.out[s]}, "an empty player is out when play passes"
        return
    # Paying a debt with a number card.
    challenger = pre.challenger
    assert challenger is not None and flipper == pre.turn
    if rules.challenge.ten_stops and card.rank is Rank.TEN:
        assert "challenge_stopped" in kinds and game.owed == 0 and game.collect_pending is None
        return
    if pre.owed == 1:
        won = next(e for e in events if isinstance(e, ChallengeWon))
        assert (won.seat, won.how) == (challenger, "paid")
        assert game.collect_pending == challenger and game.owed == 0
    elif pre.stacks[flipper][1:]:
        assert (game.owed, game.turn, game.challenger) == (pre.owed - 1, flipper, challenger), kinds
        assert [k for k in kinds if k != "player_out"] == ["card_turned"]
    else:
        # The payer ran out before paying in full.
        if rules.challenge.empty_payer == "loses":
            won = next(e for e in events if isinstance(e, ChallengeWon))
            assert (won.seat, won.how) == (challenger, "ran_out"), kinds
            if not rules.players.slap_in:
                assert flipper in newly_out
        else:
            passed_debt = [e for e in events if isinstance(e, DebtPassed)]
            if passed_debt:
                assert passed_debt[0].owed == pre.owed - 1 == game.owed
                assert passed_debt[0].to_seat != challenger and game.turn == passed_debt[0].to_seat
            else:
                won = next(e for e in events if isinstance(e, ChallengeWon))
                assert won.seat == challenger


def check_step(game: Game, action: Action, events: Sequence[Event], pre: Snapshot) -> None:
    """What one action did must agree with the state before it."""
    pre_pile, pre_burned, pre_stacks, pre_out = pre.pile, pre.burned, pre.stacks, pre.out
    kinds = [e.kind for e in events]
    assert game.actions[-1] is action
    # Out is for the rest of the game.
    assert all(game.out[s] for s in range(game.players) if pre_out[s])
    # Counters only go up, and they count the events.
    assert game.cards == pre.cards + kinds.count(EventKind.CARD_TURNED)
    assert game.tricks == pre.tricks + kinds.count(EventKind.PILE_WON)
    turned = [e for e in events if isinstance(e, CardTurned)]
    for offset, turn in enumerate(turned):
        assert turn.number == pre.cards + offset + 1
    timed_out = bool(game.rules.end.time_limit_s) and game.now > game.rules.end.time_limit_s * 1000
    if isinstance(action, Flip) and turned:
        # The seat reported as due is the one that turns the next card.
        assert turned[0].seat == pre.turn, f"seat {pre.turn} was due but {turned[0].seat} flipped"
    players = game.rules.players
    for event in events:
        if isinstance(event, PlayerOut):
            if not players.slap_in:
                assert event.reason is OutReason.EMPTY
            elif players.out_when == "wrong-slap":
                assert event.reason is OutReason.WRONG_SLAP
                assert isinstance(action, Slap) and action.seat == event.seat and not pre_stacks[event.seat]
            elif players.out_when == "missed-slap":
                assert event.reason is OutReason.MISSED_SLAP
                assert not pre_stacks[event.seat] and pre.slappable
            else:
                raise AssertionError(f"out_when=never, yet seat {event.seat} went out ({event.reason})")
    if isinstance(action, Flip) and pre.collect_pending is None and not timed_out:
        check_flip(game, events, pre)
    if isinstance(action, Wait) and pre.collect_pending is None and not timed_out:
        assert not events and state_json(game) == pre.state, "a wait with nothing pending changes nothing"
    if isinstance(action, Wait | Flip) and pre.collect_pending is not None and not timed_out:
        won = next(e for e in events if isinstance(e, PileWon))
        assert won.seat == pre.collect_pending
    for pile_won in (e for e in events if isinstance(e, PileWon)):
        sizes = [n for _, n in pile_won.shares]
        assert sum(sizes) == len(pile_won.cards) and pile_won.seat == pile_won.shares[0][0]
        assert len({seat for seat, _ in pile_won.shares}) == len(sizes)
        if len(sizes) > 1:
            # Split between simultaneous slappers, as evenly as possible, the earliest first.
            assert game.rules.slapping.tie == "split" and pile_won.how == "slap"
            assert sizes == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
    first_won = next((e for e in events if isinstance(e, PileWon)), None)
    if first_won is not None and first_won.how in ("slap", "challenge", "given"):
        # The winner turns the whole pile over: burned cards (last burned first), then the face-up pile.
        assert list(first_won.cards) == pre_burned[::-1] + pre_pile
        assert sum(n for _, n in first_won.shares) == len(first_won.cards)
    if isinstance(action, Slap) and not timed_out and game.rules.slapping.tie == "first":
        check_slap(game, action, events, pre, first_won)


def check_slap(game: Game, action: Slap, events: Sequence[Event], pre: Snapshot, first_won: PileWon | None) -> None:
    """A slap under ``tie = first``: dismissed, correct or wrong, and what each costs."""
    pre_pile, pre_burned, pre_stacks, pre_out = pre.pile, pre.burned, pre.stacks, pre.out
    kinds = [e.kind for e in events]
    slapping = game.rules.slapping
    late = action.card is not None and 1 <= action.card <= pre.cards - len(pre_pile)
    locked = pre.locked[action.seat] is not None
    once = slapping.once_per_card and pre.paid_at[action.seat] == pre.cards and not pre.slappable
    if late or locked or once:
        assert kinds == ["slap_dismissed"], f"the slap must be dismissed (late {late}, locked {locked}): {kinds}"
        reason = "late" if late else ("locked_out" if locked else "once_per_card")
        assert isinstance(events[0], SlapDismissed) and events[0].reason == reason
        assert state_json(game) == pre.state, "a dismissed slap must change nothing"
        return
    if pre.slappable:
        assert isinstance(events[0], SlapCorrect), kinds
        assert events[0].seat == action.seat
        won = next(e for e in events if isinstance(e, PileWon))
        # (If the slap put the last empty player out under missed-slap, the pile goes to the last one in.)
        assert won.seat == action.seat and won.how in (("slap", "last_in") if game.over else ("slap",))
        assert list(won.cards) == pre_burned[::-1] + pre_pile
        if game.outcome is None:
            assert not game.pile and not game.burned and game.owed == 0 and game.collect_pending is None
            stack = list(game.stacks[action.seat])
            assert stack == pre_stacks[action.seat] + list(won.cards)
        return
    assert isinstance(events[0], WrongSlap), kinds
    wrong = events[0]
    assert not any(isinstance(e, SlapCorrect | SlapDismissed) for e in events)
    penalty, count = slapping.penalty, slapping.penalty_cards
    # Paid from the top of the stack, or from the bottom (bottom card first) under penalty_from = bottom.
    paying = pre_stacks[action.seat][::-1] if slapping.penalty_from == "bottom" else pre_stacks[action.seat]
    if penalty == "burn":
        assert list(wrong.burned) == paying[:count]
        assert not wrong.given
        if first_won is None:
            assert game.burned == pre_burned + list(wrong.burned)
            assert game.pile == pre_pile
        return
    if penalty == "give-each":
        assert not wrong.burned
        receivers = [seat for seat, _ in wrong.given]
        assert action.seat not in receivers
        assert len(wrong.given) == min(
            len(pre_stacks[action.seat]),
            count * sum(1 for s in range(game.players) if s != action.seat and not pre_out[s]),
        )
        assert [c for _, c in wrong.given] == paying[: len(wrong.given)]
        return
    assert not wrong.burned and not wrong.given
    given = [e for e in events if isinstance(e, PileWon) and e.how == "given"]
    if penalty == "give-pile" and (pre_pile or pre_burned):
        # The whole pile goes at once to the next seat on the slapper's left that is not out.
        receiver = next(s for s in ((action.seat + k) % game.players for k in range(1, game.players)) if not pre_out[s])
        assert len(given) == 1 and given[0].seat == receiver, kinds
        assert list(given[0].cards) == pre_burned[::-1] + pre_pile
        assert game.owed == 0 and (game.over or game.collect_pending is None)
        return
    assert not given
    if first_won is None:
        assert game.burned == pre_burned and game.pile == pre_pile
    if penalty == "lockout" and not game.over:
        assert game.lockout(action.seat) == slapping.lockout_cards


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

seats_strategy = st.integers(2, 8)
seed_strategy = st.integers(0, 2**32)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("preset", PRESET_NAMES)
@SETTINGS
@given(data=st.data(), seats=seats_strategy, seed=seed_strategy, ops=ops_strategy)
def test_random_games_keep_every_invariant(
    preset: str, data: st.DataObject, seats: int, seed: int, ops: list[Op]
) -> None:
    rules = data.draw(rules_for(preset), label="rules")
    steps = data.draw(st.integers(1, 400), label="steps")
    game = Game.from_seed(rules, seats, seed)
    assert sum(len(h) for h in game.hands) == rules.deck_for(seats).size
    driver = Driver(game)
    for i in range(steps):
        if game.over:
            break
        driver.step(ops[i % len(ops)])
    check_round_trip(game, seed, driver.events)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seats=seats_strategy, seed=seed_strategy)
def test_flips_alone_always_end(preset: str, data: st.DataObject, seats: int, seed: int) -> None:
    rules = data.draw(rules_for(preset, timed=False), label="rules")
    game = Game.from_seed(rules, seats, seed)
    driver = Driver(game)
    for _ in range(2 * MAX_CARDS + 10):
        if game.over:
            break
        driver.apply(Flip())
    assert game.outcome is not None, f"still playing after {game.cards} cards with end.max_cards={MAX_CARDS}"
    assert game.outcome.result in (Result.WIN, Result.LOOP, Result.LIMIT)
    assert game.cards <= MAX_CARDS
    if game.outcome.result is Result.LOOP:
        assert not rules.any_slap_enabled(jokers_in_play=any(c.is_joker for h in game.hands for c in h))
    check_round_trip(game, seed, driver.events)


@settings(max_examples=60, deadline=None)
@given(
    seats=seats_strategy,
    seed=seed_strategy,
    decks=st.sampled_from([1, 2]),
    jokers=st.sampled_from([1, 2]),
    ops=ops_strategy,
)
def test_two_decks_and_jokers(seats: int, seed: int, decks: int, jokers: int, ops: list[Op]) -> None:
    rules = Rules.build(
        "bicycle", {"deck.decks": decks, "deck.jokers": jokers, "challenge.joker": seed % 5, "end.max_cards": MAX_CARDS}
    )
    game = Game.from_seed(rules, seats, seed)
    assert sum(len(h) for h in game.hands) == decks * (52 + jokers)
    assert sum(c.is_joker for h in game.hands for c in h) == decks * jokers
    driver = Driver(game)
    for i in range(300):
        if game.over:
            break
        driver.step(ops[i % len(ops)])
    check_round_trip(game, seed, driver.events)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    preset=st.sampled_from(PRESET_NAMES),
    seats=st.integers(3, 8),
    seed=seed_strategy,
    leader=st.sampled_from(["winner", "left"]),
    penalty=st.sampled_from(["burn", "give-each"]),
    penalty_cards=st.sampled_from([1, 2, 3]),
    slappers=st.lists(st.integers(0, 11), min_size=1, max_size=4),
)
def test_penalties_while_a_pile_waits(
    data: st.DataObject,
    preset: str,
    seats: int,
    seed: int,
    leader: str,
    penalty: str,
    penalty_cards: int,
    slappers: list[int],
) -> None:
    # Wrong slaps in the collect window change who can lead once the pile moves; the seat reported as due
    # must follow (docs/rules.md: while it waits, the seat due is the one that will lead after collecting).
    rules = data.draw(
        rules_for(
            preset,
            timed=False,
            fixed={
                "players.leader": leader,
                "slapping.penalty": penalty,
                "slapping.penalty_cards": penalty_cards,
                "slapping.tie": "first",
            },
        ),
        label="rules",
    )
    game = Game.from_seed(rules, seats, seed)
    driver = Driver(game)
    for _ in range(400):
        if game.over:
            break
        if game.collect_pending is not None:
            for seat in slappers:
                if not game.over and game.collect_pending is not None:
                    driver.step(Op("slap", seat, None, None))
        if not game.over:
            driver.step(Op("flip", 0, None, None))
    check_round_trip(game, seed, driver.events)


def test_deal_is_seeded_and_uneven_stacks_go_to_first_seats() -> None:
    rules = Rules.build("standard")
    game = Game.from_seed(rules, 3, 7)
    assert [len(h) for h in game.hands] == [18, 17, 17]
    assert game.hands == Game.from_seed(rules, 3, 7).hands
    assert game.hands != Game.from_seed(rules, 3, 8).hands
    assert game.turn == 0
    eight = Game.from_seed(rules, 8, 7)  # auto: two decks above 6 players
    assert sum(len(h) for h in eight.hands) == 104
    assert [len(h) for h in eight.hands] == [13] * 8


def test_ten_gap_needs_ten() -> None:
    with pytest.raises(RulesError):
        Rules.build("standard", {"slaps.ten_gap": "court"})
    with pytest.raises(RulesError):
        Rules.build("bicycle", {"slaps.ten": "off"})
    assert Rules.build("bicycle", {"slaps.ten": "off", "slaps.ten_gap": "off"}).slaps.ten == "off"


# ---------------------------------------------------------------------------------------------- stateful


class GameMachine(RuleBasedStateMachine):
    """Random play, one action at a time, with the invariants checked between every step."""

    driver: Driver
    seed: int

    @initialize(data=st.data(), preset=st.sampled_from(PRESET_NAMES), seats=seats_strategy, seed=seed_strategy)
    def deal(self, data: st.DataObject, preset: str, seats: int, seed: int) -> None:
        self.seed = seed
        self.driver = Driver(Game.from_seed(data.draw(rules_for(preset)), seats, seed))

    @rule(dt=st.one_of(st.none(), st.integers(0, 300)))
    def flip(self, dt: int | None) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("flip", 0, dt, None))

    @rule(dt=st.one_of(st.none(), st.integers(0, 2000)))
    def wait(self, dt: int | None) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("wait", 0, dt, None))

    @rule(
        seat=st.integers(0, 11),
        dt=st.one_of(st.none(), st.integers(0, 300)),
        card=st.one_of(st.none(), st.integers(0, 10_000)),
        aim=st.booleans(),
    )
    def slap(self, seat: int, dt: int | None, card: int | None, aim: bool) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("slap_hit" if aim else "slap", seat, dt, card))

    @rule(seat=st.integers(0, 11))
    def illegal(self, seat: int) -> None:
        if not self.driver.game.over:
            self.driver.step(Op("illegal", seat, None, None))

    @invariant()
    def cards_are_all_there(self) -> None:
        if hasattr(self, "driver"):
            check_invariants(self.driver.game, self.driver.dealt)

    def teardown(self) -> None:
        if hasattr(self, "driver"):
            check_round_trip(self.driver.game, self.seed, self.driver.events)


GameMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestGameMachine = GameMachine.TestCase
