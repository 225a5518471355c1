"""The slappable piles a player let go, read from a game's record (``ladder/chances.py``): hand-made records
whose every chance is known, the rules' switches, players out or locked out, a split pile, and real games of
computers in a room, checked against a reading of the same records from their events alone."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from harness.profiles import missed_from_events, room_game
from ratscrew.cards import parse_cards
from ratscrew.engine.actions import Action, Flip, Slap
from ratscrew.ladder.chances import Chance, chances, missed_by
from ratscrew.record import Record
from ratscrew.rules import Rules


def record(rules: Rules, hands: list[str], actions: Sequence[Action]) -> Record:
    dealt = tuple(tuple(parse_cards(hand)) for hand in hands)
    return Record(rules, len(hands), hands=dealt, actions=tuple(actions))


def read(found: list[Chance]) -> list[tuple[int, tuple[str, ...], list[int], list[int]]]:
    return [(c.card, c.patterns, sorted(c.open_to), sorted(c.taken_by)) for c in found]


FLIPS_TO_A_SANDWICH_THEN_A_DOUBLE = (["7S 7D 4D 9C 2C", "5H 3S 9D 6C 8C"], [Flip()] * 7 + [Slap(1)])


def test_a_sandwich_nobody_slapped_and_a_double_the_other_player_won_are_both_missed() -> None:
    # 7 5 7 is a sandwich at the third card; the fourth covers it unslapped. 9 9 is a double at the seventh
    # card, and seat 1 takes it.
    hands, actions = FLIPS_TO_A_SANDWICH_THEN_A_DOUBLE
    found = chances(record(Rules.build("standard"), hands, actions))
    assert read(found) == [(3, ("sandwich",), [0, 1], []), (7, ("double",), [0, 1], [1])]
    assert missed_by(found, 0) == {"double": (1, 1), "sandwich": (1, 1)}
    assert missed_by(found, 1) == {"double": (1, 0), "sandwich": (1, 1)}


def test_a_pattern_the_rules_switch_off_is_never_a_chance() -> None:
    hands, actions = FLIPS_TO_A_SANDWICH_THEN_A_DOUBLE
    found = chances(record(Rules.build("standard", {"slaps.sandwich": False}), hands, actions))
    assert read(found) == [(7, ("double",), [0, 1], [1])]
    assert missed_by(found, 0) == {"double": (1, 1)}


def test_a_pile_slappable_for_cards_in_a_row_is_a_chance_at_each() -> None:
    # 7 7 is a double at the second card, missed; 7 7 7 a double and a sandwich at the third, which seat 0 takes.
    found = chances(record(Rules.build("standard"), ["7S 7D 2C 3C", "7H 4H 5H 6H"], [Flip(), Flip(), Flip(), Slap(0)]))
    assert read(found) == [(2, ("double",), [0, 1], []), (3, ("double", "sandwich"), [0, 1], [0])]
    assert missed_by(found, 0) == {"double": (2, 1), "sandwich": (1, 0)}
    assert missed_by(found, 1) == {"double": (2, 2), "sandwich": (1, 1)}


def test_a_player_who_is_out_had_no_chance() -> None:
    # Without slapping back in, seat 2 is out once its one card is turned and play comes round to it: the
    # double at the seventh card is open to seats 0 and 1 alone.
    rules = Rules.build("standard", {"players.slap_in": False})
    found = chances(record(rules, ["2C 5C 8C 9S", "3D 6D 8D 9H", "4H"], [Flip()] * 7 + [Slap(0)]))
    assert read(found) == [(7, ("double",), [0, 1], [0])]
    assert missed_by(found, 2) == {}


def test_a_player_locked_out_by_a_wrong_slap_had_no_chance_until_the_lock_ends() -> None:
    rules = Rules.build("standard", {"slapping.penalty": "lockout", "slapping.lockout_cards": 3})
    # Seat 0 slaps the first card wrongly: locked for three cards, it cannot slap the double at the third
    # (4 4); the double at the sixth (9 9) is open to both again, and seat 1 takes it.
    actions: list[Action] = [Flip(), Slap(0), Flip(), Flip(), Flip(), Flip(), Flip(), Slap(1)]
    found = chances(record(rules, ["2C 4C 9C 3H", "4D 6D 9D 3S"], actions))
    assert read(found) == [(3, ("double",), [1], []), (6, ("double",), [0, 1], [1])]
    assert missed_by(found, 0) == {"double": (1, 1)}
    assert missed_by(found, 1) == {"double": (2, 1)}


def test_a_split_pile_is_taken_by_everyone_who_shared_it() -> None:
    rules = Rules.build("standard", {"slapping.tie": "split", "slapping.tie_window_ms": 100})
    actions: list[Action] = [Flip(0), Flip(0), Slap(0, 1000), Slap(1, 1050), Flip(2000)]
    found = chances(record(rules, ["5C 9C 2H 3H", "5D 8D 2S 3S"], actions))
    assert read(found) == [(2, ("double",), [0, 1], [0, 1])]
    assert missed_by(found, 0) == missed_by(found, 1) == {"double": (1, 0)}


@pytest.mark.parametrize(
    ("preset", "levels", "seed"),
    [
        ("standard", ["medium", "hard"], 3),
        ("standard", ["easy", "medium", "expert"], 4),
        ("bicycle", ["hard", "medium", "medium", "expert"], 5),
        ("everything", ["expert", "hard"], 6),
        ("slapjack", ["medium", "hard", "easy"], 7),
    ],
)
def test_real_games_agree_with_a_reading_of_their_events_and_with_their_summary(
    preset: str, levels: list[str], seed: int
) -> None:
    game = room_game(Rules.build(preset), levels, seed)
    found = chances(game.record)
    assert found, "a game with no slappable pile proves nothing"
    for seat, figures in enumerate(game.summary.players):
        assert missed_by(found, seat) == missed_from_events(game.record, seat), seat
        # Every pile the summary says the seat won by slapping is a chance it took, and no other.
        assert sum(seat in c.taken_by for c in found) == figures.piles_by_slap, seat
    assert any(c.open_to - c.taken_by for c in found), "nobody missed anything: the check saw no miss"
