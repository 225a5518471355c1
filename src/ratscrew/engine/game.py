"""The game state machine: a deal plus actions in, events out.

Nothing here reads a clock, draws a random number or prints. Times arrive inside actions; the deal
arrives as stacks. Every rule of docs/rules.md that is about *what* happens lives here; *when* things
happen (the slap window, bot reaction times) belongs to the table.

>>> from ratscrew.cards import parse_cards
>>> from ratscrew.rules import Rules
>>> game = Game(Rules.build(), [parse_cards("7S KD"), parse_cards("7H 2C")])
>>> [str(e.kind) for e in game.apply(Flip())], [str(e.kind) for e in game.apply(Flip())]
(['card_turned'], ['card_turned'])
>>> [str(e.kind) for e in game.apply(Slap(0))]
['slap_correct', 'pile_won']
>>> [str(c) for c in game.stacks[0]], game.turn
(['KD', '7S', '7H'], 0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Literal

from ratscrew.cards import Card, DeckSpec, Rank, deal
from ratscrew.engine.actions import Action, Flip, Millis, Seat, Slap
from ratscrew.engine.events import (
    CardTurned,
    ChallengeOpened,
    ChallengeStopped,
    ChallengeWin,
    ChallengeWon,
    DebtPassed,
    DismissReason,
    Event,
    GameOver,
    OutReason,
    PileWon,
    PlayerOut,
    SlapCorrect,
    SlapDismissed,
    StopReason,
    WonBy,
    WrongSlap,
)
from ratscrew.engine.outcome import Ending, Loop, Outcome, Result
from ratscrew.errors import IllegalAction, NotationError
from ratscrew.patterns import Match, enabled_patterns
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.shuffle import seeded_shuffle

BoundaryKey = tuple[tuple[bytes, ...], tuple[bool, ...], Seat]
# How long a seat is locked out: cards still to be turned, "pile" until the next pile is won, None for free.
Lockout = int | Literal["pile"] | None


def seeded_deal(rules: Rules, seats: int, seed: int) -> list[list[Card]]:
    """The rules' deck for ``seats`` players, shuffled by the project's seeded shuffle and dealt from seat 0."""
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise NotationError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {seats}")
    return deal(seeded_shuffle(rules.deck_for(seats).cards(), seed), seats)


class Game:
    """One game in progress. ``apply`` is the only way it changes; ``actions`` is everything applied so far."""

    def __init__(
        self, rules: Rules, hands: Sequence[Sequence[Card]], first: Seat = 0, *, detect_loops: bool | None = None
    ) -> None:
        players = len(hands)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise NotationError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
        if not 0 <= first < players:
            raise NotationError(f"first must be a seat from 0 to {players - 1}, got {first}")
        self.deck: DeckSpec = rules.deck_for(players)
        every_card = [c for hand in hands for c in hand]
        if not every_card:
            raise NotationError("the deal holds no cards: expected at least one card in some hand")
        for card in every_card:
            if card.suit is None and not card.is_joker:
                raise NotationError(f"{card} has no suit: a dealt card needs one, e.g. {card}S")
        self.deck.check_counts(every_card, "the hands")

        self.rules = rules
        self.players = players
        self.hands: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self.first = first
        self.actions: list[Action] = []
        self.stacks: list[deque[Card]] = [deque(h) for h in hands]
        self.pile: list[Card] = []
        self.burned: list[Card] = []
        self.out: list[bool] = [False] * players
        self.turn: Seat = first
        self.owed = 0
        self.challenger: Seat | None = None
        self.collect_pending: Seat | None = None
        self._collect_how = WonBy.CHALLENGE
        self.cards = 0
        self.tricks = 0
        self.now: Millis = 0
        self.outcome: Outcome | None = None
        self.pile_start = 0  # cards turned before the current pile began
        self.last_flipper: Seat | None = None
        self._split: list[Seat] = []  # slappers sharing a pile under tie = split, earliest first
        self._split_t0: Millis = 0
        self._locked_until = [0] * players  # lockout: the card count from which the seat's slaps count again
        self._locked_pile: list[int | None] = [None] * players  # lockout-pile: the tricks count the lock lasts
        self._paid_at = [-1] * players  # the card count at the seat's last wrong slap (once_per_card)
        self._table_paid_at = -1  # the card count at anyone's last wrong slap (once_per_card_scope = table)
        # Unused where no penalty would make a second wrong slap cost anything (its needs, rules/sections.py).
        self._once_per_card = rules.slapping.once_per_card and rules.applies("slapping.once_per_card")
        self._patterns = enabled_patterns(rules)
        self._total = len(every_card)
        jokers = any(c.is_joker for c in every_card)
        self.detect_loops = not rules.any_slap_enabled(jokers_in_play=jokers) if detect_loops is None else detect_loops
        self._seen: dict[BoundaryKey, tuple[int, int]] = {}
        self._demand = {c: rules.demand(c) for c in set(every_card)}
        ten_matters = rules.challenge.ten_stops
        self._card_class = {c: d or (10 if ten_matters and c.rank is Rank.TEN else 0) for c, d in self._demand.items()}
        self._events: list[Event] = []

        seat = self._settle_from(first)
        if seat is not None:
            self.turn = seat
        self._check_all_held()
        if self.outcome is None:
            self._mark_boundary()
        self._events.clear()

    @staticmethod
    def from_seed(rules: Rules, seats: int, seed: int, first: Seat = 0) -> Game:
        """Shuffle the rules' deck for ``seats`` players with the project's seeded shuffle and deal it."""
        return Game(rules, seeded_deal(rules, seats, seed), first)

    # ------------------------------------------------------------------ reading the state

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def pattern_pile(self) -> list[Card]:
        """The cards patterns look at, bottom first: the burned cards too under ``burned_count``."""
        if self.rules.slaps.burned_count and self.burned:
            return self.burned[::-1] + self.pile
        return self.pile

    def matches(self) -> list[Match]:
        """Every pattern the pile shows right now (what a correct slap would be rewarded for)."""
        pile = self.pattern_pile()
        slaps = self.rules.slaps
        found = []
        for pattern in self._patterns:
            match = pattern.test(pile, slaps, len(self.pile))
            if match is not None:
                found.append(match)
        return found

    def slappable(self) -> bool:
        return bool(self.matches())

    def lockout(self, seat: Seat) -> Lockout:
        """How long ``seat``'s slaps are still dismissed after a wrong slap under a lockout penalty."""
        if self._locked_pile[seat] == self.tricks:
            return "pile"
        left = self._locked_until[seat] - self.cards
        return left if left > 0 else None

    def card_count(self) -> int:
        return sum(len(s) for s in self.stacks) + len(self.pile) + len(self.burned)

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Apply one action and return what happened. Raises IllegalAction if the rules do not allow it."""
        if self.outcome is not None:
            raise IllegalAction(f"the game is over ({self.outcome.result.value}): no more actions are allowed")
        t = self.now if action.t is None else action.t
        if t < self.now:
            raise IllegalAction(f"t={t} is earlier than the previous action's t={self.now}: times must not go back")
        if isinstance(action, Slap):
            self._check_slap(action)
        self._events = []
        self.now = t
        self.actions.append(action)
        limit = self.rules.end.time_limit_s
        if limit and t > limit * 1000:
            self._end_by_time()
        elif isinstance(action, Slap):
            self._slap(action.seat, t, action.card)
        else:
            self._end_split_window()
            if self.outcome is None and self.collect_pending is not None:
                self._collect()
            if self.outcome is None and isinstance(action, Flip):
                self._flip()
        return tuple(self._events)

    def _check_slap(self, slap: Slap) -> None:
        if not 0 <= slap.seat < self.players:
            raise IllegalAction(f"seat {slap.seat} does not exist: seats are 0 to {self.players - 1}")
        if self.out[slap.seat]:
            raise IllegalAction(f"seat {slap.seat} is out and cannot slap")
        if slap.card is not None and not 0 <= slap.card <= self.cards:
            raise IllegalAction(
                f"a slap reacting to card {slap.card} came before that card was turned (only {self.cards} have been)"
            )

    # ------------------------------------------------------------------ turning cards

    def _flip(self) -> None:
        seat = self.turn
        stack = self.stacks[seat]
        if self.rules.players.out_when == "missed-slap" and self.rules.players.slap_in and self.slappable():
            self._out_missed(keep=())
            if self.outcome is not None:
                return
        card = stack.popleft()
        self.pile.append(card)
        self.cards += 1
        self.last_flipper = seat
        self._events.append(CardTurned(seat, card, self.cards))
        max_cards = self.rules.end.max_cards
        if max_cards and self.cards >= max_cards:
            self._finish(
                Outcome(
                    Result.LIMIT,
                    None,
                    reason=f"stopped after {self.cards} cards (end.max_cards)",
                    how=Ending.CARD_LIMIT,
                )
            )
            return
        demand = self._demand[card]
        if demand:
            self._open_challenge(seat, card, demand)
        elif self.owed:
            self._pay(seat, card)
        else:
            self._pass_turn(seat)

    def _open_challenge(self, seat: Seat, card: Card, demand: int) -> None:
        passed_on = self.owed > 0
        self.challenger = seat
        payer = self._next_player(seat)
        if self.outcome is not None:
            return
        if payer is None:
            self._win_challenge(seat, ChallengeWin.UNOPPOSED)
            return
        self.turn = payer
        self.owed = demand
        self._events.append(ChallengeOpened(seat, card, payer, demand, passed_on))

    def _pay(self, seat: Seat, card: Card) -> None:
        assert self.challenger is not None
        if self.rules.challenge.ten_stops and card.rank is Rank.TEN:
            self.owed = 0
            self._events.append(ChallengeStopped(self.challenger, StopReason.TEN))
            self.challenger = None
            self._pass_turn(seat)
            return
        self.owed -= 1
        if self.owed == 0:
            self._win_challenge(self.challenger, ChallengeWin.PAID)
        elif not self.stacks[seat]:
            self._payer_ran_out(seat)

    def _payer_ran_out(self, payer: Seat) -> None:
        assert self.challenger is not None
        if self.rules.challenge.empty_payer == "next_pays":
            nxt = self._next_player(payer)
            if self.outcome is not None:
                return
            if nxt is not None and nxt != self.challenger:
                self._events.append(DebtPassed(payer, nxt, self.owed))
                self.turn = nxt
                return
        elif not self.rules.players.slap_in:
            # Beggar-my-neighbour: a player who must pay with no card loses, and is out.
            self._mark_out(payer, OutReason.EMPTY)
            if self.outcome is not None:
                return
        self._win_challenge(self.challenger, ChallengeWin.RAN_OUT)

    def _win_challenge(self, winner: Seat, how: ChallengeWin) -> None:
        self.owed = 0
        self.challenger = None
        self.collect_pending = winner
        self._collect_how = WonBy.CHALLENGE
        self.turn = self._peek_leader(winner)
        self._events.append(ChallengeWon(winner, how))

    def _pass_turn(self, seat: Seat) -> None:
        nxt = self._next_player(seat, include_start=True)
        if self.outcome is not None:
            return
        if nxt is None:
            # Everyone still in is empty: whoever turned the last card wins the pile as if by challenge.
            self._win_challenge(
                self._nearest_in(self.last_flipper if self.last_flipper is not None else seat), ChallengeWin.LAST_CARD
            )
        else:
            self.turn = nxt

    def _next_player(self, seat: Seat, *, include_start: bool = False) -> Seat | None:
        """The next seat to the left that can turn a card, settling empty seats on the way.

        With ``slap_in`` off an empty seat is out as soon as play passes to it. Returns None when no seat
        has cards (or the game ended because only one player is left in).
        """
        return self._settle_from((seat + 1) % self.players, skip=None if include_start else seat)

    def _settle_from(self, start: Seat, *, skip: Seat | None = None) -> Seat | None:
        n = self.players
        slap_in = self.rules.players.slap_in
        for step in range(n):
            s = (start + step) % n
            if s == skip:
                continue
            if self.out[s]:
                continue
            if self.stacks[s]:
                return s
            if not slap_in:
                self._mark_out(s, OutReason.EMPTY)
                if self.outcome is not None:
                    return None
        return None

    def _peek_leader(self, winner: Seat) -> Seat:
        """Who will lead once ``winner`` collects (without settling anybody yet)."""
        leader = self.rules.players.leader
        if leader == "winner":
            return winner
        if leader == "left":
            for step in range(1, self.players):
                s = (winner + step) % self.players
                if not self.out[s] and self.stacks[s]:
                    return s
            return winner
        start = self._after_last_card()
        for step in range(self.players):
            s = (start + step) % self.players
            if not self.out[s] and (self.stacks[s] or s == winner):  # the winner will hold the pile
                return s
        return winner

    def _after_last_card(self) -> Seat:
        """``players.leader`` = ``next``: the seat after the one who turned the last card (the first seat when no
        card has been turned yet), from which play goes on, whoever won the pile."""
        return self.first if self.last_flipper is None else (self.last_flipper + 1) % self.players

    def _nearest_in(self, seat: Seat) -> Seat:
        for step in range(self.players):
            s = (seat + step) % self.players
            if not self.out[s]:
                return s
        return seat

    # ------------------------------------------------------------------ slapping

    def _slap(self, seat: Seat, t: Millis, card: int | None) -> None:
        if self._split and not (t - self._split_t0 <= self.rules.slapping.tie_window_ms):
            self._end_split_window()
            if self.outcome is not None:
                return
        if card is not None and 1 <= card <= self.pile_start:
            # The card this slap reacted to belongs to a pile that has already been won.
            self._events.append(SlapDismissed(seat, DismissReason.LATE))
            return
        if self.lockout(seat) is not None:
            self._events.append(SlapDismissed(seat, DismissReason.LOCKED_OUT))
            return
        if self._split:
            if seat in self._split:
                self._events.append(SlapDismissed(seat, DismissReason.ALREADY_SHARING))
                return
            matches = self.matches()
            if matches:
                self._split.append(seat)
                self._events.append(SlapCorrect(seat, tuple(matches)))
                return
        matches = self.matches()
        if not matches:
            if self._once_per_card and self._paid_for_this_card(seat):
                self._events.append(SlapDismissed(seat, DismissReason.ONCE_PER_CARD))
                return
            self._wrong_slap(seat)
            return
        self._events.append(SlapCorrect(seat, tuple(matches)))
        self.owed = 0
        self.challenger = None
        self.collect_pending = seat
        self._collect_how = WonBy.SLAP
        self.turn = self._peek_leader(seat)
        if self.rules.slapping.tie == "split":
            self._split = [seat]
            self._split_t0 = t
        else:
            self._collect()

    def _paid_for_this_card(self, seat: Seat) -> bool:
        """``once_per_card``: a wrong slap on this card was punished already, the seat's own (``player``) or
        anyone's (``table``), so this one is set aside."""
        if self.rules.slapping.once_per_card_scope == "table":
            return self._table_paid_at == self.cards
        return self._paid_at[seat] == self.cards

    def _end_split_window(self) -> None:
        if self._split:
            self._collect()

    def _wrong_slap(self, seat: Seat) -> None:
        stack = self.stacks[seat]
        was_empty = not stack
        burned: list[Card] = []
        given: list[tuple[Seat, Card]] = []
        slapping = self.rules.slapping
        penalty = slapping.penalty
        count = slapping.penalty_cards
        take = stack.pop if slapping.penalty_from == "bottom" else stack.popleft
        self._paid_at[seat] = self._table_paid_at = self.cards
        if penalty == "burn":
            for _ in range(min(count, len(stack))):
                burned.append(take())
            self.burned.extend(burned)
        elif penalty == "give-each":
            receivers = [(seat + step) % self.players for step in range(1, self.players)]
            receivers = [r for r in receivers if not self.out[r]]
            for _ in range(count):
                for receiver in receivers:
                    if not stack:
                        break
                    given_card = take()
                    self.stacks[receiver].append(given_card)
                    given.append((receiver, given_card))
        elif penalty == "lockout":
            self._locked_until[seat] = self.cards + slapping.lockout_cards
        elif penalty == "lockout-pile":
            self._locked_pile[seat] = self.tricks
        self._events.append(WrongSlap(seat, tuple(burned), tuple(given)))
        if penalty == "give-pile":
            self._give_pile(seat)
            if self.outcome is not None:
                return
        players = self.rules.players
        if players.slap_in and players.out_when == "wrong-slap" and was_empty:
            self._mark_out(seat, OutReason.WRONG_SLAP)
            if self.outcome is not None:
                return
        self._check_all_held()
        if self.outcome is None:
            self._settle_due()

    def _give_pile(self, seat: Seat) -> None:
        """``give-pile``: the next player in on the slapper's left takes the pile, as if they had won it."""
        if not self.pile and not self.burned:
            return
        receiver = next(s for s in ((seat + k) % self.players for k in range(1, self.players)) if not self.out[s])
        self._split = []
        self.collect_pending = receiver
        self._collect_how = WonBy.GIVEN
        self._collect()

    def _settle_due(self) -> None:
        """After a penalty: the seat reported as due must still be able to turn a card."""
        if self.collect_pending is not None:
            # A penalty in the window can change who is able to lead once the pile moves.
            self.turn = self._peek_leader(self.collect_pending)
            return
        seat = self.turn
        if not self.out[seat] and self.stacks[seat]:
            return
        if self.owed and self.challenger is not None and not self.out[seat]:
            self._payer_ran_out(seat)
            return
        if not self.rules.players.slap_in and not self.out[seat]:
            self._mark_out(seat, OutReason.EMPTY)
            if self.outcome is not None:
                return
        self._pass_turn(seat)

    # ------------------------------------------------------------------ players going out

    def _mark_out(self, seat: Seat, reason: OutReason) -> None:
        self.out[seat] = True
        self._events.append(PlayerOut(seat, reason))
        if self.challenger == seat and self.owed:
            # A player who is out cannot win anything: the challenge lapses and the payer plays on.
            self.owed = 0
            self.challenger = None
            self._events.append(ChallengeStopped(seat, StopReason.CHALLENGER_OUT))
        if self.collect_pending == seat:
            self.collect_pending = None
            self._split = []
            self._events.append(ChallengeStopped(seat, StopReason.WINNER_OUT))
        still_in = [s for s in range(self.players) if not self.out[s]]
        if len(still_in) == 1:
            self._last_in(still_in[0])

    def _out_missed(self, keep: Sequence[Seat]) -> None:
        for s in range(self.players):
            if not self.out[s] and not self.stacks[s] and s not in keep:
                self._mark_out(s, OutReason.MISSED_SLAP)
                if self.outcome is not None:
                    return

    def _last_in(self, seat: Seat) -> None:
        if self.pile or self.burned:
            self._gather([seat], WonBy.LAST_IN)
        self._finish(Outcome(Result.WIN, seat, reason="everyone else is out", how=Ending.LAST_IN))

    # ------------------------------------------------------------------ collecting piles

    def _collect(self) -> None:
        seats = self._split or ([] if self.collect_pending is None else [self.collect_pending])
        self._split = []
        if not seats:
            return
        if self.rules.players.out_when == "missed-slap" and self.rules.players.slap_in and self.slappable():
            self._out_missed(keep=seats)
            if self.outcome is not None:
                return
        self._gather(seats, self._collect_how)
        self.collect_pending = None
        self.owed = 0
        self.challenger = None
        leader = seats[0]
        if self.rules.players.leader == "left":
            nxt = self._next_player(leader)
            if self.outcome is not None:
                return
            leader = leader if nxt is None else nxt
        elif self.rules.players.leader == "next":
            # Play goes on as it would have: from the seat after the last card's, skipping as play always does.
            nxt = self._settle_from(self._after_last_card())
            if self.outcome is not None:
                return
            leader = leader if nxt is None else nxt
        self.turn = leader
        self._check_all_held()
        if self.outcome is None:
            self._mark_boundary()

    def _gather(self, seats: Sequence[Seat], how: WonBy) -> None:
        cards = self.burned[::-1] + self.pile
        self.pile = []
        self.burned = []
        self.tricks += 1
        self.pile_start = self.cards
        share, extra = divmod(len(cards), len(seats))
        shares: list[tuple[Seat, int]] = []
        start = 0
        for i, seat in enumerate(seats):
            size = share + (1 if i < extra else 0)
            self.stacks[seat].extend(cards[start : start + size])
            shares.append((seat, size))
            start += size
        self._events.append(PileWon(seats[0], how, tuple(cards), tuple(shares)))

    # ------------------------------------------------------------------ the end

    def _check_all_held(self) -> None:
        if self.pile or self.burned or self.collect_pending is not None:
            return
        for seat, stack in enumerate(self.stacks):
            if len(stack) == self._total:
                self._finish(Outcome(Result.WIN, seat, reason="holds every card", how=Ending.ALL_CARDS))
                return

    def _end_by_time(self) -> None:
        if self._split or self.collect_pending is not None:
            self._collect()
            if self.outcome is not None:
                return
        sizes = [len(s) for s in self.stacks]
        best = max(sizes)
        leaders = [s for s, n in enumerate(sizes) if n == best]
        if len(leaders) == 1:
            self._finish(Outcome(Result.WIN, leaders[0], reason="most cards when time ran out", how=Ending.TIME))
        else:
            self._finish(Outcome(Result.DRAW, None, reason="tied for most cards when time ran out", how=Ending.TIME))

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.collect_pending = None
        self._split = []
        self.owed = 0
        self._events.append(GameOver(outcome))

    def _mark_boundary(self) -> None:
        if not self.detect_loops:
            return
        # Without slaps only what a card demands (and whether it is a 10, under ten_stops) steers the game,
        # so positions are compared card class by card class: a 7 and a 4 are the same to the future.
        classes = self._card_class
        key: BoundaryKey = (tuple(bytes(classes[c] for c in s) for s in self.stacks), tuple(self.out), self.turn)
        seen = self._seen.get(key)
        if seen is None:
            self._seen[key] = (self.cards, self.tricks)
            return
        loop = Loop(seen[0], seen[1], self.cards - seen[0], self.tricks - seen[1])
        self._finish(
            Outcome(Result.LOOP, None, loop, reason="the game came back to an earlier position", how=Ending.LOOP)
        )

    def enable_loop_detection(self) -> None:
        """Start comparing positions at every pile boundary from the next one on (used by play-out)."""
        self.detect_loops = True
