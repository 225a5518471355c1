"""Beggar-my-neighbour played backwards (lab/bmn_family.py and its C twin _bmn_hunt.c).

Every predecessor must lead forward to the position it came from, the game's own previous position must
always be among them, the C search must take the Python one's every step, and every deal a family search
names must replay, with ``ratscrew bmn``'s own player, to the length it was given.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from harness.deals import CASELLA_LOOP, PAULHUS
from ratscrew import _bmn_hunt
from ratscrew.bmn import parse_bmn_hands, play_bmn, play_random, random_deal
from ratscrew.lab.bmn_family import Position, cycle_of, family, into_cycle, predecessors, trick
from ratscrew.shuffle import SeededRandom


def deal(hands: tuple[str, str]) -> Position:
    first, second = parse_bmn_hands(list(hands))
    return first, second


def games(seed: int, count: int) -> list[list[Position]]:
    """The positions of ``count`` random games, from the deal to the last position before the end."""
    rng = SeededRandom(seed)
    out = []
    for _ in range(count):
        first, second = random_deal(rng)
        pos: Position = (first, second)
        path = [pos]
        while (step := trick(pos)) is not None and len(path) < 2_000:
            pos = step[0]
            path.append(pos)
        out.append(path)
    return out


def c_predecessors(pos: Position) -> list[tuple[Position, int]]:
    return [
        ((a.decode(), b.decode()), pile) for (a, b), pile in _bmn_hunt.predecessors(pos[0].encode(), pos[1].encode())
    ]


def test_every_predecessor_leads_forward_to_the_position_and_the_real_one_is_always_among_them() -> None:
    checked = 0
    for path in games(seed=5, count=150):
        for before, after in pairwise(path):
            found = predecessors(after)
            assert any(p == before for p, _ in found), f"{before} is missing from the predecessors of {after}"
            for pos, pile in found:
                assert trick(pos) == (after, pile)
                checked += 1
            assert c_predecessors(after) == found
            step = _bmn_hunt.trick(before[0].encode(), before[1].encode())
            assert step is not None and ((step[0][0].decode(), step[0][1].decode()), step[1]) == trick(before)
    assert checked > 2_000


def test_a_hand_whose_bottom_cannot_be_a_won_pile_has_no_predecessor() -> None:
    rest = "1234" * 3 + "124" + "0" * 11  # the other hand: the rest of the deck
    for lead in ("0" * 25 + "3", "0" * 23 + "300"):  # ends on a court card; a King paid only two cards
        assert predecessors((lead, rest)) == [] == c_predecessors((lead, rest))
    assert len(predecessors(("0" * 22 + "3000", rest))) == 23  # a King paid in full: any opening run of 0 to 22


@pytest.mark.parametrize("seed", [1, 7])
def test_the_c_family_search_takes_the_python_one_s_every_step_and_its_finds_replay(seed: int) -> None:
    tally = play_random(20_000, seed, keep=12)
    longer = 0
    for dealt in tally.longest:
        hands = (dealt.hands[0], dealt.hands[1])
        fast = family(hands, dealt.cards, dealt.tricks, 10, 3_000)
        slow = family(hands, dealt.cards, dealt.tricks, 10, 3_000, accelerated=False)
        assert fast == slow
        relative, searched = fast
        assert searched > 0
        if relative is not None:
            longer += 1
            assert relative.cards > dealt.cards
            assert (len(relative.deal[0]), len(relative.deal[1])) == (26, 26)
            replay = play_bmn(relative.deal)
            assert (replay.cards, replay.tricks, replay.loop) == (relative.cards, relative.tricks, None)
    assert longer >= 6  # most long deals have a longer relative


def test_the_published_record_has_a_longer_relative_one_rotation_away() -> None:
    paulhus = deal(PAULHUS)
    result = play_bmn(paulhus)
    relative, _ = family(paulhus, result.cards, result.tricks, 20, 100_000)
    assert relative is not None and relative.cards > 4791
    moved = [(len(a) - len(a.lstrip("0")), len(b) - len(b.lstrip("0"))) for a, b in (paulhus, relative.deal)]
    assert moved[1] == (moved[0][0] + 2, moved[0][1] + 1)  # number cards moved from the bottom to the top


def test_the_endless_deal_s_cycle_is_reached_by_exactly_the_thirty_deals_of_the_paper() -> None:
    # Casella et al. (arXiv:2403.13855): a cycle of 62 tricks "reached by 30 distinct starting hands".
    cycle = cycle_of(deal(CASELLA_LOOP))
    assert cycle is not None and (cycle.tricks, cycle.cards) == (62, 440)
    found, searched = into_cycle(cycle)
    assert len(found) == 30 and len({r.deal for r in found}) == 30 and searched < 10_000
    assert deal(CASELLA_LOOP) in {r.deal for r in found}
    for relative in found:
        result = play_bmn(relative.deal)
        assert result.loop is not None
        assert (result.loop.cycle_tricks, result.loop.cycle_cards) == (62, 440)
        assert result.loop.prefix_cards + result.loop.cycle_cards == relative.cards
        other = cycle_of(relative.deal)
        assert other is not None and other.key == cycle.key
    assert cycle_of(deal(PAULHUS)) is None
