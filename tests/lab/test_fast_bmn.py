"""The fast Beggar-my-neighbour player agrees with the readable engine, and both reproduce the published records.

``ratscrew.bmn.play_bmn`` works on demand strings (``0`` a number card, ``1``-``4`` J Q K A). Each deal is
also turned into real cards and played by ``Game(Rules.build("beggar"), hands)`` one flip at a time; the
two must agree on the winner, the cards turned and the tricks, or on the loop for an endless deal.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.deals import CASELLA_LOOP, MANN_WU, PAULHUS
from ratscrew.bmn import (
    ONE_DECK,
    BmnResult,
    parse_bmn_hands,
    play_bmn,
    play_random,
    random_deal,
    to_notation,
)
from ratscrew.cards import Card
from ratscrew.engine import Flip, Game, Loop, Result
from ratscrew.errors import NotationError
from ratscrew.rules import Rules
from ratscrew.shuffle import SeededRandom

BEGGAR = Rules.build("beggar")
NUMBER_CARDS = [Card.parse(f"{rank}{suit}") for rank in "23456789T" for suit in "SHDC"]
COURT_CARDS = {
    demand: [Card.parse(f"{rank}{suit}") for suit in "SHDC"] for demand, rank in zip("1234", "JQKA", strict=True)
}

CASELLA_CYCLE = Loop(prefix_cards=34, prefix_tricks=4, cycle_cards=440, cycle_tricks=62)

# The Python player and the C one (tests/lab/test_kernels.py fails the run if the C one was not built; with
# RATSCREW_PURE_PYTHON=1 both entries run the Python player).
ACCELERATED = [False, True]


def to_cards(hands: Sequence[str], rng: SeededRandom) -> list[list[Card]]:
    """Real cards for demand strings: a random number card for each ``0``, a J Q K or A of a random suit."""
    numbers = list(NUMBER_CARDS)
    rng.shuffle(numbers)
    courts = {d: list(cards) for d, cards in COURT_CARDS.items()}
    for cards in courts.values():
        rng.shuffle(cards)
    out: list[list[Card]] = []
    for hand in hands:
        out.append([numbers.pop() if ch == "0" else courts[ch].pop() for ch in hand])
    return out


def engine_result(hands: Sequence[str], rng: SeededRandom) -> BmnResult:
    """The readable engine, one flip at a time, with a hard bound so a bug cannot hang the tests."""
    game = Game(BEGGAR, to_cards(hands, rng))
    assert game.detect_loops, "beggar has no slap pattern, so the engine must look for repeats"
    for _ in range(1_000_000):
        if game.over:
            break
        game.apply(Flip())
    outcome = game.outcome
    assert outcome is not None, "the engine neither ended nor found a loop"
    if outcome.result is Result.LOOP:
        assert outcome.winner is None and outcome.loop is not None
    else:
        assert outcome.result is Result.WIN and outcome.winner is not None
        assert len(game.stacks[outcome.winner]) == 52 and not game.pile
    return BmnResult(outcome.winner, game.cards, game.tricks, outcome.loop)


def assert_agree(hands: Sequence[str], rng: SeededRandom) -> BmnResult:
    expected = engine_result(hands, rng)
    for accelerated in ACCELERATED:
        got = play_bmn(hands, accelerated=accelerated)
        assert got == expected, f"deal {[to_notation(h) for h in hands]} (accelerated={accelerated})"
    return expected


def test_card_mapping_is_one_deck() -> None:
    rng = SeededRandom(3)
    hands = random_deal(rng, 3)
    cards = to_cards(hands, rng)
    flat = [c for hand in cards for c in hand]
    assert len(set(flat)) == 52 and len(flat) == 52
    for hand, real in zip(hands, cards, strict=True):
        assert [BEGGAR.demand(c) for c in real] == [int(ch) for ch in hand]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_random_deal_is_one_deck_split_evenly(players: int) -> None:
    rng = SeededRandom(players)
    for _ in range(50):
        hands = random_deal(rng, players)
        assert Counter("".join(hands)) == Counter(ONE_DECK)
        sizes = [len(h) for h in hands]
        assert sizes == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
    again = SeededRandom(players)
    first = random_deal(again, players)
    assert first == random_deal(SeededRandom(players), players)
    assert first != random_deal(again, players)


def test_two_hand_random_deals_agree_with_the_engine() -> None:
    rng = SeededRandom(2024)
    cards_rng = SeededRandom(99)
    longest = 0
    for _ in range(1500):
        result = assert_agree(random_deal(rng, 2), cards_rng)
        longest = max(longest, result.cards)
    assert longest > 1000  # the sample reached some long games, not only quick ones


@pytest.mark.parametrize("players", [3, 4, 5, 6, 8])
def test_multi_hand_random_deals_agree_with_the_engine(players: int) -> None:
    rng = SeededRandom(1000 + players)
    cards_rng = SeededRandom(7)
    winners = Counter[int | None]()
    for _ in range(250):
        winners[assert_agree(random_deal(rng, players), cards_rng).winner] += 1
    assert len(winners) >= 2  # not one seat winning everything


@settings(max_examples=150, deadline=None)
@given(deck=st.permutations(ONE_DECK), cuts=st.lists(st.integers(0, 52), min_size=1, max_size=4))
def test_any_split_agrees_with_the_engine(deck: list[str], cuts: list[int]) -> None:
    # Uneven splits, even an empty hand, are deals too ("in any split").
    text = "".join(deck)
    bounds = [0, *sorted(cuts), 52]
    hands = [text[a:b] for a, b in pairwise(bounds)]
    assert_agree(hands, SeededRandom(len(cuts)))


def test_published_records() -> None:
    paulhus = parse_bmn_hands(PAULHUS)
    mann_wu = parse_bmn_hands(MANN_WU)
    for accelerated in ACCELERATED:
        assert play_bmn(paulhus, accelerated=accelerated) == BmnResult(0, 4791, 670)
        assert play_bmn(mann_wu, accelerated=accelerated) == BmnResult(1, 7157, 1007)
    assert engine_result(paulhus, SeededRandom(1)) == BmnResult(0, 4791, 670)
    assert engine_result(mann_wu, SeededRandom(2)) == BmnResult(1, 7157, 1007)


def test_published_records_as_seat_order_matters() -> None:
    # Swapping the hands is a different game: the second hand now leads.
    swapped = parse_bmn_hands(PAULHUS[::-1])
    result = play_bmn(swapped)
    assert result != BmnResult(1, 4791, 670)
    assert result == engine_result(swapped, SeededRandom(5))


def run_with_timeout(hands: list[str], accelerated: bool, seconds: float = 30.0) -> BmnResult:
    box: list[BmnResult] = []
    worker = threading.Thread(target=lambda: box.append(play_bmn(hands, accelerated=accelerated)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"play_bmn still running after {seconds} s on an endless deal"
    return box[0]


def test_casella_endless_deal_is_a_62_trick_loop() -> None:
    hands = parse_bmn_hands(CASELLA_LOOP)
    engine = engine_result(hands, SeededRandom(11))
    assert engine.winner is None
    assert engine.loop == CASELLA_CYCLE
    assert (engine.cards, engine.tricks) == (34 + 440, 4 + 62)  # stopped at the first repeat
    for accelerated in ACCELERATED:
        result = run_with_timeout(hands, accelerated)
        assert result.winner is None
        assert result.loop == CASELLA_CYCLE


def test_small_deals_with_loops_agree_between_the_paths() -> None:
    # Endless deals are rare in full decks; small partial deals loop often enough to compare the cycle
    # search of the C player with the Python player's table of positions, prefix and cycle alike.
    rng = SeededRandom(5)
    loops = 0
    for _ in range(4000):
        size = 6 + rng.below(15)
        deal = "".join(str(1 + rng.below(4)) if rng.below(4) == 0 else "0" for _ in range(size))
        cut = rng.below(size + 1)
        hands = [deal[:cut], deal[cut:]]
        results = {play_bmn(hands, accelerated=accelerated) for accelerated in ACCELERATED}
        assert len(results) == 1, f"the paths disagree on {hands}: {results}"
        loops += results.pop().loop is not None
    assert loops >= 10  # the sample held endless deals, so the cycle search was exercised


def test_play_random_agrees_with_the_engine() -> None:
    for players, games, seed in ((2, 300, 17), (3, 100, 5)):
        rng = SeededRandom(seed)
        cards_rng = SeededRandom(0)
        results = [engine_result(random_deal(rng, players), cards_rng) for _ in range(games)]
        ended = [r for r in results if r.loop is None]
        cards = [r.cards for r in ended]
        expected = (sum(cards), len(ended), max(cards), games - len(ended))
        wins = [sum(1 for r in ended if r.winner == seat) for seat in range(players)]
        for accelerated in ACCELERATED:
            tally = play_random(games, seed, players, accelerated=accelerated, keep=2)
            assert tally.headline() == expected
            assert (tally.wins, tally.tricks, sorted(tally.lengths.elements())) == (
                wins,
                sum(r.tricks for r in ended),
                sorted(cards),
            )
            assert [d.cards for d in tally.longest] == sorted(cards, reverse=True)[:2]
            assert engine_result(list(tally.longest[0].hands), SeededRandom(0)).cards == max(cards)


def test_notation() -> None:
    assert parse_bmn_hands(["----------------------KQJA", "-" * 14 + "KQJAKQJAKQJA"]) == [
        "0" * 22 + "3214",
        "0" * 14 + "321432143214",
    ]
    assert parse_bmn_hands(["kqja" + "-" * 22, "-" * 14 + "KQJAKQJAKQJA"])[0] == "3214" + "0" * 22
    assert to_notation("0123401234") == "-JQKA-JQKA"
    with pytest.raises(NotationError):
        parse_bmn_hands([PAULHUS[0]])  # one hand
    with pytest.raises(NotationError):
        parse_bmn_hands([PAULHUS[0], PAULHUS[1][:-1]])  # a card short
    with pytest.raises(NotationError):
        parse_bmn_hands([PAULHUS[0], PAULHUS[1][:-1] + "K"])  # a fifth King
    with pytest.raises(NotationError):
        parse_bmn_hands([PAULHUS[0], PAULHUS[1][:-1] + "7"])  # not the notation
