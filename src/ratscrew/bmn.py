"""Beggar-my-neighbour: the published-deal notation and a fast player for the lab.

In the notation of the published records a hand is a string, top card first: ``-`` for a number card,
``J Q K A`` for court cards. Only what a card demands steers the game, so the fast player works on
strings of demands (``0`` for a number card) and plays a whole run of number cards with one string
operation instead of one card at a time. It follows the same conventions as the engine's ``beggar``
preset (checked against it on thousands of deals by the tests):

>>> play_bmn(parse_bmn_hands(["------------KAQ----J------", "-JQQK---K----JK--QA-A-JA--"]))
BmnResult(winner=0, cards=4791, tricks=670, loop=None)
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType

from ratscrew import kernels
from ratscrew.engine.outcome import Loop
from ratscrew.errors import NotationError
from ratscrew.shuffle import SeededRandom

# The C player (_bmn_fast.c); RATSCREW_PURE_PYTHON=1 forces the Python one (see kernels.py).
_fast: ModuleType | None = kernels.load("ratscrew._bmn_fast")
HAVE_ACCELERATOR = _fast is not None

_TO_DEMANDS = str.maketrans({"-": "0", "J": "1", "Q": "2", "K": "3", "A": "4"})
_TO_NOTATION = str.maketrans({"0": "-", "1": "J", "2": "Q", "3": "K", "4": "A"})
ONE_DECK = "0" * 36 + "1234" * 4
EXPECTED_DEAL = "36 '-' and four each of J Q K A in all"


@dataclass(frozen=True, slots=True)
class BmnResult:
    """``winner`` is a seat (from 0) or None for an endless deal, which then has its ``loop``."""

    winner: int | None
    cards: int
    tricks: int
    loop: Loop | None = None


def parse_bmn_hands(hands: Sequence[str]) -> list[str]:
    """Check hands in the published notation; return them as demand strings (``0``-``4``)."""
    if len(hands) < 2:
        raise NotationError(
            f"Beggar-my-neighbour needs two or more hands, got {len(hands)}: "
            "give one string per hand, e.g. ------------KAQ----J------"
        )
    out = []
    for number, hand in enumerate(hands, 1):
        text = hand.strip().upper()
        bad = sorted(set(text) - set("-JQKA"))
        if bad:
            raise NotationError(
                f"hand {number} ({hand!r}) holds {bad[0]!r}: expected only '-' for a number card "
                "and J Q K A for court cards"
            )
        out.append(text.translate(_TO_DEMANDS))
    counts = {ch: sum(h.count(ch) for h in out) for ch in "01234"}
    if counts != {"0": 36, "1": 4, "2": 4, "3": 4, "4": 4}:
        held = ", ".join(f"{counts[ch]} {ch.translate(_TO_NOTATION)!r}" for ch in "01234")
        raise NotationError(f"the hands hold {held}: expected exactly one deck, {EXPECTED_DEAL}")
    return out


def to_notation(hand: str) -> str:
    return hand.translate(_TO_NOTATION)


def random_deal(rng: SeededRandom, players: int = 2) -> list[str]:
    """A uniformly random deal of one deck, split as evenly as possible (first hands get the extra cards).

    Only the 16 court cards need places: a partial Fisher-Yates picks 16 distinct positions out of 52, which
    is a uniform arrangement of the deck's five kinds of card, at a third of the cost of a full shuffle.
    """
    positions = list(range(52))
    deck = ["0"] * 52
    for i, demand in enumerate("1111222233334444"):
        j = i + rng.below(52 - i)
        positions[i], positions[j] = positions[j], positions[i]
        deck[positions[i]] = demand
    text = "".join(deck)
    return [text[seat::players] for seat in range(players)]


def play_bmn(hands: Sequence[str], *, accelerated: bool = True) -> BmnResult:
    """Play a deal of demand strings to the end (or to the first repeated position).

    Two hands go to the C accelerator when it is built (``accelerated=False`` forces Python), or to a
    card-by-card loop that looks for repeats only if the game runs far past any known terminating game.
    """
    if len(hands) == 2:
        if accelerated and _fast is not None:
            w, cards, tricks, *cycle = _fast.play2(hands[0].encode(), hands[1].encode())
            return BmnResult(w, cards, tricks) if w >= 0 else BmnResult(None, cards, tricks, Loop(*cycle))
        quick = _play_two(hands[0], hands[1])
        if quick is not None:
            return quick
    return _play_tracked(hands)


# The longest terminating two-hand deals known run to about 1,200 tricks (Casella et al. 2024); a game past
# this many is replayed with every position remembered, so loops are reported exactly.
_UNTRACKED_TRICKS = 5_000


def _play_two(first: str, second: str) -> BmnResult | None:
    """The two-hand game card by card, without remembering positions; None if it runs suspiciously long."""
    hands = (deque(ord(c) - 48 for c in first), deque(ord(c) - 48 for c in second))
    if not hands[0] or not hands[1]:
        return BmnResult(0 if hands[0] else 1, 0, 0)
    total = len(first) + len(second)
    cards = tricks = leader = 0
    while tricks < _UNTRACKED_TRICKS:
        player, owed, challenger = leader, 0, 0
        pile: list[int] = []
        while True:
            hand = hands[player]
            if not hand:  # must play or pay with no card: out, and the other takes the pile
                return BmnResult(1 - player, cards, tricks + 1)
            card = hand.popleft()
            pile.append(card)
            cards += 1
            if card:
                challenger, owed, player = player, card, 1 - player
            elif owed:
                owed -= 1
                if not owed:
                    break
            else:
                player = 1 - player
        hands[challenger].extend(pile)
        tricks += 1
        leader = challenger
        if len(hands[challenger]) == total:
            return BmnResult(challenger, cards, tricks)
    return None


def _play_tracked(hands: Sequence[str]) -> BmnResult:
    """Any number of hands, remembering every position between tricks to catch the first repeat."""
    n = len(hands)
    h = list(hands)
    total = sum(len(x) for x in h)
    out = [False] * n
    cards = tricks = 0
    seen: dict[tuple[tuple[str, ...], tuple[bool, ...], int], tuple[int, int]] = {}

    def next_in(seat: int) -> int | None:
        """The next seat after ``seat`` with cards; empty seats passed on the way are out."""
        for step in range(1, n + 1):
            s = (seat + step) % n
            if out[s]:
                continue
            if h[s]:
                return s
            out[s] = True
        return None

    def last_in() -> int | None:
        still = [s for s in range(n) if not out[s]]
        return still[0] if len(still) == 1 else None

    leader = next_in(n - 1)
    if leader is None or last_in() is not None:
        winner = last_in()
        return BmnResult(winner if winner is not None else leader, 0, 0)
    while True:
        for seat in range(n):
            if len(h[seat]) == total:
                return BmnResult(seat, cards, tricks)
        key = (tuple(h), tuple(out), leader)
        first_seen = seen.get(key)
        if first_seen is not None:
            c0, t0 = first_seen
            return BmnResult(None, cards, tricks, Loop(c0, t0, cards - c0, tricks - t0))
        seen[key] = (cards, tricks)

        # Number cards round the table until someone turns a court card or must play with none.
        pile = ""
        start = leader
        while True:
            active = [s for s in ((start + i) % n for i in range(n)) if not out[s]]
            m = len(active)
            best_step = best_i = -1
            for i, seat in enumerate(active):
                hand = h[seat]
                step = i + m * (len(hand) - len(hand.lstrip("0")))
                if best_step < 0 or step < best_step:
                    best_step, best_i = step, i
            for j, seat in enumerate(active):
                played = (best_step - j + m - 1) // m
                if played:
                    h[seat] = h[seat][played:]
            cards += best_step
            pile += "0" * best_step
            seat = active[best_i]
            if h[seat]:
                break
            out[seat] = True  # had to play with no card
            winner = last_in()
            if winner is not None:
                return BmnResult(winner, cards, tricks + (1 if pile else 0))
            start = active[(best_i + 1) % m]

        # The challenge: each payer turns up to the demand, and a court card passes it on.
        challenger = seat
        court = h[seat][0]
        h[seat] = h[seat][1:]
        pile += court
        cards += 1
        demand = ord(court) - 48
        while True:
            payer = next_in(challenger)
            if payer is None or last_in() is not None:
                return BmnResult(challenger, cards, tricks + 1)
            hand = h[payer]
            part = hand[:demand]
            numbers = len(part) - len(part.lstrip("0"))
            if numbers < len(part):
                pile += part[: numbers + 1]
                cards += numbers + 1
                h[payer] = hand[numbers + 1 :]
                challenger = payer
                demand = ord(part[numbers]) - 48
                continue
            pile += part
            cards += len(part)
            h[payer] = hand[len(part) :]
            if len(part) < demand:  # the payer ran out, and a player who must pay with no card is out
                out[payer] = True
                if last_in() is not None:
                    return BmnResult(challenger, cards, tricks + 1)
            h[challenger] += pile
            tricks += 1
            leader = challenger
            break


def random_kernel(players: int, *, accelerated: bool = True) -> str:
    """Which player ``play_random`` uses for deals of ``players`` hands: ``"c"`` or ``"python"``."""
    return "c" if players == 2 and accelerated and _fast is not None else "python"


# Random deals come in blocks with a stream of their own, so any number of processes can share out the
# blocks and add up the same figures. The first block uses the seed itself.
RANDOM_BLOCK = 100_000
_BLOCK_MIX = 0xD1B5_4A32_D192_ED03
_MASK = (1 << 64) - 1
ENDLESS_KEPT = 16  # endless deals named per block (and per run), the first ones dealt


@dataclass(frozen=True, slots=True)
class Dealt:
    """One deal of a random run, found again by its place: deal ``index`` of block ``block``."""

    hands: tuple[str, ...]  # demand strings, first hand first
    cards: int  # for an endless deal, 0
    tricks: int
    block: int
    index: int

    def rank(self) -> tuple[int, int, int]:
        """Sorts the longest first, the earliest dealt first among equals."""
        return -self.cards, self.block, self.index


@dataclass
class RandomTally:
    """What a run of random deals gives: totals over the games that ended, their lengths as counts, the
    longest deals and the first endless ones. Every part adds up the same in any order, so the figures do
    not depend on how the blocks were shared out."""

    players: int
    games: int = 0
    loops: int = 0
    tricks: int = 0  # total over the games that ended
    tricks_squared: int = 0  # total of each ended game's tricks squared, for the standard error of the mean
    wins: list[int] = field(default_factory=list)  # games that ended won by each seat
    lengths: Counter[int] = field(default_factory=Counter)  # games that ended, per number of cards
    longest: list[Dealt] = field(default_factory=list)  # the ``keep`` longest that ended, longest first
    endless: list[Dealt] = field(default_factory=list)  # the first endless deals, in dealing order
    keep: int = 1

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players

    @property
    def ended(self) -> int:
        return self.games - self.loops

    @property
    def total_cards(self) -> int:
        return sum(c * n for c, n in self.lengths.items())

    def merge(self, other: RandomTally) -> None:
        self.games += other.games
        self.loops += other.loops
        self.tricks += other.tricks
        self.tricks_squared += other.tricks_squared
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.lengths.update(other.lengths)
        self.longest = sorted(self.longest + other.longest, key=Dealt.rank)[: self.keep]
        self.endless = sorted(self.endless + other.endless, key=Dealt.rank)[:ENDLESS_KEPT]

    def headline(self) -> tuple[int, int, int, int]:
        """(total cards of ended games, ended games, most cards, endless deals), the run's headline figures."""
        return self.total_cards, self.ended, max(self.lengths, default=0), self.loops


def block_seed(seed: int, block: int) -> int:
    """The seed of block ``block`` of a ``play_random`` run (block 0: ``seed`` itself)."""
    return seed if block == 0 else SeededRandom((seed + block * _BLOCK_MIX) & _MASK).next_u64()


def play_random(
    games: int,
    seed: int,
    players: int = 2,
    *,
    accelerated: bool = True,
    workers: int = 1,
    scheduler: str | None = None,
    keep: int = 1,
) -> RandomTally:
    """Play ``games`` random deals, keeping the ``keep`` longest.

    Both paths deal from the same streams, and the blocks' tallies are added up (and the longest taken),
    which no order changes, so the figures are the same for the same seed whatever the path, the number of
    ``workers`` (processes), or the Dask cluster at ``scheduler``.
    """
    from ratscrew.executor import open_runner  # here: playing one deal needs no process pool

    blocks = [
        (block_seed(seed, b), min(RANDOM_BLOCK, games - start), players, accelerated, keep, b)
        for b, start in enumerate(range(0, games, RANDOM_BLOCK))
    ]
    tally = RandomTally(players, keep=keep)
    with open_runner(workers, scheduler, tasks=len(blocks)) as runner:
        for part in runner.unordered(play_block, blocks):
            tally.merge(part)
    return tally


def play_block(
    seed: int, games: int, players: int, accelerated: bool, keep: int, block: int = 0, first: int = 0
) -> RandomTally:
    """One block of deals, all from one stream; or part of one: ``seed`` is then the stream's state after its
    first ``first`` deals (:func:`skip_deals`), and the deals are numbered from ``first``."""
    tally = RandomTally(players, games=games, keep=keep)
    if random_kernel(players, accelerated=accelerated) == "c":
        assert _fast is not None
        _, _, tally.loops, first_wins, tally.tricks, counts, top, endless, tally.tricks_squared, _ = _fast.play_random(
            games, seed, keep
        )
        tally.wins = [first_wins, games - tally.loops - first_wins]
        tally.lengths = Counter({c: n for c, n in enumerate(counts) if n})
        tally.longest = [Dealt((a, b), cards, tricks, block, first + i) for a, b, cards, tricks, i in top]
        tally.endless = [Dealt((a, b), 0, 0, block, first + i) for a, b, i in endless]
        return tally
    rng = SeededRandom(seed)
    for i in range(first, first + games):
        hands = tuple(random_deal(rng, players))
        result = play_bmn(hands, accelerated=accelerated)
        if result.loop is not None:
            tally.loops += 1
            if len(tally.endless) < ENDLESS_KEPT:
                tally.endless.append(Dealt(hands, 0, 0, block, i))
            continue
        assert result.winner is not None
        tally.wins[result.winner] += 1
        tally.tricks += result.tricks
        tally.tricks_squared += result.tricks * result.tricks
        tally.lengths[result.cards] += 1
        if keep and (len(tally.longest) < keep or result.cards > tally.longest[-1].cards):
            tally.longest = sorted(
                [*tally.longest, Dealt(hands, result.cards, result.tricks, block, i)], key=Dealt.rank
            )
            del tally.longest[keep:]
    return tally


def skip_deals(seed: int, count: int, *, accelerated: bool = True) -> int:
    """The state of the stream started at ``seed`` after ``count`` deals, dealt and not played: a run cut into
    chunks starts each one there (:func:`play_block`'s ``first``). Every deal takes the same draws whatever the
    number of hands, so this holds for any ``players``."""
    if accelerated and _fast is not None:
        state: int = _fast.skip_deals(seed, count)
        return state
    rng = SeededRandom(seed)
    for _ in range(count):
        random_deal(rng)
    return rng.state
