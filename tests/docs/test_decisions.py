"""The choices of docs/decisions.md, where docs/rules.md leaves room, pinned one by one."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from ratscrew.cards import Card, parse_cards
from ratscrew.engine import Flip, Game, Result, Slap, Wait
from ratscrew.engine.events import ChallengeStopped, GameOver, OutReason, PlayerOut, StopReason, WrongSlap
from ratscrew.errors import IllegalAction
from ratscrew.patterns import find_matches
from ratscrew.record import state_json
from ratscrew.rules import Rules


def hands(*stacks: str) -> list[list[Card]]:
    return [parse_cards(s) for s in stacks]


def names(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


@pytest.mark.parametrize(
    ("pile", "changes", "expected"),
    [
        ("7 X 7", {}, ["sandwich"]),
        ("K X Q", {"slaps.divorce": True}, ["divorce"]),
        ("4 X 6", {"slaps.ten": "numbers", "slaps.ten_gap": "any"}, ["ten_gap"]),
        ("4 X 6", {"slaps.ten": "numbers", "slaps.ten_gap": "court"}, []),
        ("7 X", {}, ["joker"]),
        ("X X", {}, ["joker"]),  # two jokers are no double: they have no rank
    ],
)
def test_a_joker_in_the_middle_does_not_break_a_pattern(
    pile: str, changes: dict[str, object], expected: list[str]
) -> None:
    rules = Rules.build("standard", {"deck.jokers": 2, **changes})
    assert [m.pattern for m in find_matches(parse_cards(pile, bare_rank=True), rules)] == expected


def test_give_each_two_cards_goes_round_the_table_twice() -> None:
    rules = Rules.build("standard", {"slapping.penalty": "give-each", "slapping.penalty_cards": 2})
    game = Game(rules, hands("2S 3S", "2H", "2D", "AC KC QC JC"), first=0)
    events = game.apply(Slap(3))
    wrong = events[0]
    assert isinstance(wrong, WrongSlap)
    assert [(seat, str(card)) for seat, card in wrong.given] == [(0, "AC"), (1, "KC"), (2, "QC"), (0, "JC")]
    assert names(game.stacks[0]) == ["2S", "3S", "AC", "JC"]


def test_a_flip_that_collects_the_winning_pile_does_nothing_more() -> None:
    game = Game(Rules.build("standard"), hands("JS", "5H"))
    game.apply(Flip())
    game.apply(Flip())
    assert game.collect_pending == 0
    events = game.apply(Flip())
    assert isinstance(events[-1], GameOver)
    assert game.outcome is not None
    assert game.outcome.winner == 0
    assert game.cards == 2
    with pytest.raises(IllegalAction, match="over"):
        game.apply(Flip())


def test_covering_a_slappable_pile_puts_out_those_who_had_no_cards_but_not_the_coverer() -> None:
    rules = Rules.build("standard", {"players.out_when": "missed-slap"})
    game = Game(rules, hands("7S 2D 4D", "7H", "9C"))
    game.apply(Flip())
    game.apply(Flip())  # 7S 7H: a double; seat 1 is now empty
    events = game.apply(Flip())  # seat 2 covers it with its last card: seat 1 missed the slap while empty
    assert [(e.seat, e.reason) for e in events if isinstance(e, PlayerOut)] == [(1, OutReason.MISSED_SLAP)]
    assert game.out == [False, True, False]  # seat 2 still held 9C when it covered the double


def test_a_challenger_who_goes_out_cannot_win_the_challenge() -> None:
    game = Game(Rules.build("standard"), hands("KS", "2H 3H 4H 5H", "6C 7C"))
    game.apply(Flip())  # seat 0 turns its last card, a King: seat 1 owes 3
    assert game.owed == 3
    events = game.apply(Slap(0))  # no pattern, and seat 0 had no cards: out
    assert [type(e) for e in events] == [WrongSlap, PlayerOut, ChallengeStopped]
    assert game.owed == 0
    assert game.turn == 1
    game.apply(Flip())  # 2H is now an ordinary card: play passes on
    assert game.turn == 2


def test_a_won_pile_waiting_for_a_player_who_goes_out_stays_in_the_middle() -> None:
    game = Game(Rules.build("standard"), hands("JS", "2H 3H", "4C 5C"))
    game.apply(Flip())
    game.apply(Flip())  # seat 1 pays 2H: seat 0 wins the challenge
    assert game.collect_pending == 0
    events = game.apply(Slap(0))  # seat 0 has no cards: a wrong slap puts it out
    assert any(isinstance(e, ChallengeStopped) and e.reason is StopReason.WINNER_OUT for e in events)
    assert game.collect_pending is None
    assert names(game.pile) == ["JS", "2H"]
    assert game.turn == 1
    game.apply(Wait())
    assert names(game.pile) == ["JS", "2H"]  # nobody collects it


def test_time_running_out_hands_a_waiting_pile_to_its_winner_first() -> None:
    rules = Rules.build("standard", {"end.time_limit_s": 10})
    game = Game(rules, hands("JS 9D", "2H 3H 4H"))
    game.apply(Flip(1000))
    game.apply(Flip(2000))  # seat 0 wins JS 2H; it waits to be collected
    game.apply(Wait(10_001))
    assert game.outcome is not None
    # Collected, seat 0 holds 9D JS 2H against 3H 4H; left in the middle it would have lost 1 to 2.
    assert game.outcome.result is Result.WIN
    assert game.outcome.winner == 0


def test_a_lockout_counts_cards_not_piles_and_sets_aside_correct_slaps() -> None:
    rules = Rules.build("standard", {"slapping.penalty": "lockout", "slapping.lockout_cards": 3})
    game = Game(rules, hands("7S 7D 2S 3S", "5H 7H 4H 6H"))
    game.apply(Flip())  # 7S
    game.apply(Slap(1))  # wrong: locked out until three more cards are turned
    game.apply(Flip())  # 5H
    game.apply(Flip())  # 7D: a double, but seat 1 is locked out
    assert [e.kind for e in game.apply(Slap(1))] == ["slap_dismissed"]
    game.apply(Slap(0))  # seat 0 takes the pile; the lockout goes on (one more card)
    assert game.lockout(1) == 1


def test_a_wrong_slap_under_a_lockout_puts_an_empty_player_out() -> None:
    rules = Rules.build("standard", {"slapping.penalty": "lockout"})
    game = Game(rules, hands("2S 3S 4S", "5H", "6C 7C"))
    game.apply(Flip())
    game.apply(Flip())  # seat 1 turns its last card
    events = game.apply(Slap(1))
    assert isinstance(events[0], WrongSlap) and PlayerOut(1, OutReason.WRONG_SLAP) in events


def test_once_per_card_counts_cards_not_piles() -> None:
    game = Game(Rules.build("standard", {"slapping.once_per_card": True}), hands("7S 2S 3S", "7H 4H 5H 6H"))
    game.apply(Flip())
    game.apply(Flip())
    game.apply(Slap(0))  # takes the double: no penalty paid
    assert isinstance(game.apply(Slap(1))[0], WrongSlap)  # on the empty table
    assert [e.kind for e in game.apply(Slap(1))] == ["slap_dismissed"]  # no new card since


def test_give_pile_hands_a_waiting_pile_to_the_slappers_left() -> None:
    game = Game(Rules.build("standard", {"slapping.penalty": "give-pile"}), hands("JS 2S", "3H 4H", "6C 7C"))
    game.apply(Flip())
    game.apply(Flip())  # seat 0 wins the challenge; the pile waits
    assert game.collect_pending == 0
    game.apply(Slap(2))  # seat 2's wrong slap: the pile goes to seat 0 at once, its left
    assert (state_json(game)["collect_pending"], names(game.stacks[0])) == (None, ["2S", "JS", "3H"])


def test_slapjack_has_no_joker_slap_even_with_jokers() -> None:
    rules = Rules.build("slapjack", {"deck.jokers": 1})
    assert find_matches(parse_cards("4 X", bare_rank=True), rules) == []
    assert find_matches(parse_cards("2H 7H 9H"), Rules.build("standard", {"slaps.flush": 3}))
    assert not find_matches(parse_cards("2 7 9", bare_rank=True), Rules.build("standard", {"slaps.flush": 3}))
