"""A wrong slap keeps what it reacted to: the pile it landed on and, when it came too late, what it saw."""

from __future__ import annotations

from ratscrew.cards import parse_cards
from ratscrew.engine import Game
from ratscrew.engine.events import WrongSlap
from ratscrew.rules import Rules
from ratscrew.table import SeatSpec, Table, TableEvent, VirtualClock, replay


def table_after_three_cards() -> Table:
    """Seat 0 turns 7H, seat 1 7S (a double, card 2), seat 0 5C (card 3) covers it."""
    rules = Rules.build("standard")
    hands = [parse_cards("7H 5C 9D 3S"), parse_cards("7S 8C 4D 2H")]
    table = Table(Game(rules, hands), [SeatSpec("a"), SeatSpec("b")], VirtualClock())
    for seat in (0, 1, 0):
        table.flip(seat)
    return table


def wrong_slaps(log: list[TableEvent]) -> list[TableEvent]:
    return [item for item in log if isinstance(item.event, WrongSlap)]


def test_a_slap_on_a_covered_double_keeps_the_double_and_the_card_that_covered_it() -> None:
    table = table_after_three_cards()
    table.slap(1, card=2)
    (item,) = wrong_slaps(table.log)
    assert item.seen is not None
    assert [str(c) for c in item.seen.pile] == ["7H", "7S", "5C"]
    assert item.seen.card == 2
    assert [(m.pattern, [str(c) for c in m.cards]) for m in item.seen.missed] == [("double", ["7H", "7S"])]
    assert str(item.seen.covered_by) == "5C"
    doc = item.seen.to_dict()
    assert doc["covered_by"] == "5C" and doc["missed"] == [
        {"pattern": "double", "cards": ["7H", "7S"], "why": item.seen.missed[0].why}
    ]


def test_a_slap_on_the_card_that_covered_a_double_is_too_late_too() -> None:
    table = table_after_three_cards()
    table.slap(0, card=3)  # the page showed 5C, the card that covered the double: the double was there just before
    table.slap(1)  # no card named: the top one
    assert [
        (i.seen.card, [m.pattern for m in i.seen.missed], str(i.seen.covered_by))
        for i in wrong_slaps(table.log)
        if i.seen
    ] == [
        (3, ["double"], "5C"),
        (3, ["double"], "5C"),
    ]


def test_a_slap_on_a_top_card_that_covered_nothing_says_only_what_it_landed_on() -> None:
    table = table_after_three_cards()
    table.flip(1)  # 8C on 7H 7S 5C, which showed no pattern
    table.slap(0)
    assert [(i.seen.card, i.seen.missed, i.seen.covered_by) for i in wrong_slaps(table.log) if i.seen] == [
        (4, (), None)
    ]


def test_only_wrong_slaps_carry_it_and_a_replayed_log_has_it_too() -> None:
    table = table_after_three_cards()
    table.slap(1, card=2)
    assert all(item.seen is None for item in table.log if not isinstance(item.event, WrongSlap))
    game = Game(table.game.rules, [parse_cards("7H 5C 9D 3S"), parse_cards("7S 8C 4D 2H")])
    assert replay(game, table.game.actions) == table.log
