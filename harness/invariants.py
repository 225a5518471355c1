"""The invariants of docs/rules.md, checked on a game after every action: every dealt card somewhere exactly
once, the seat due able to play, and each flip and slap doing what the rules say, with the lockouts kept by a
model of their own to hold the engine's bookkeeping to. The property tests (tests/engine/) check them on random
play, through ``harness/random_play.py``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

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
from ratscrew.record import state_json


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
    once_applies = slapping.once_per_card and game.rules.applies("slapping.once_per_card")
    once = once_applies and pre.paid_at[action.seat] == pre.cards and not pre.slappable
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
