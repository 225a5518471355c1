"""Shapes written and read by their type hints: every kind of field round-trips, a document that is not the
shape says which field is wrong and what was expected, and a field added later may be missing from an older
document."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Literal, NewType, TypedDict

import pytest

from ratscrew.cards import Card
from ratscrew.errors import BadMessage, MalformedInput
from ratscrew.rooms import wire
from ratscrew.shapes import Shape, ShapeError, from_json, to_json

Notes = NewType("Notes", dict[str, object])


class Colour(StrEnum):
    RED = "red"
    BLACK = "black"


class Tone(StrEnum):
    LOUD = "loud"


class Totals(TypedDict):
    cards: int
    names: list[str]


@dataclass(frozen=True, slots=True)
class Inner(Shape):
    seat: int
    colour: Colour


@dataclass(frozen=True, slots=True)
class Everything(Shape):
    TYPE: ClassVar[Colour] = Colour.RED
    flag: bool
    count: int
    share: float
    text: str
    card: Card
    lock: int | Literal["pile"] | None
    inners: tuple[Inner, ...]
    pair: tuple[int, str]
    table: dict[str, int]
    either: Colour | Tone
    notes: Notes
    totals: Totals
    maybe: Inner | None = None
    later: int | None = None  # a field added later: an older document lacks it


SAMPLE = Everything(
    True,
    3,
    0.5,
    "Zoé",
    Card.parse("TD"),
    "pile",
    (Inner(0, Colour.RED), Inner(2, Colour.BLACK)),
    (4, "four"),
    {"a": 1},
    Tone.LOUD,
    Notes({"free": ["form", 1]}),
    {"cards": 52, "names": ["Ann"]},
)


def test_every_kind_of_field_round_trips_through_json() -> None:
    doc = SAMPLE.to_json()
    assert doc == {
        "type": "red",
        "flag": True,
        "count": 3,
        "share": 0.5,
        "text": "Zoé",
        "card": "TD",
        "lock": "pile",
        "inners": [{"seat": 0, "colour": "red"}, {"seat": 2, "colour": "black"}],
        "pair": [4, "four"],
        "table": {"a": 1},
        "either": "loud",
        "notes": {"free": ["form", 1]},
        "totals": {"cards": 52, "names": ["Ann"]},
        "maybe": None,
        "later": None,
    }
    assert Everything.from_json(json.loads(json.dumps(doc))) == SAMPLE
    assert to_json([Inner(1, Colour.RED)]) == [{"seat": 1, "colour": "red"}]


def test_a_field_with_a_default_may_be_missing_and_no_other() -> None:
    doc = SAMPLE.to_json()
    del doc["later"]
    assert Everything.from_json(doc) == SAMPLE
    del doc["count"]
    with pytest.raises(MalformedInput, match=r"^red: missing \['count'\], unknown nothing$"):
        Everything.from_json(doc)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("count", True, "red.count: expected a whole number, got true"),
        ("share", "1", 'red.share: expected a number, got "1"'),
        ("card", "ZZ", "red.card: 'ZZ' is not a card"),
        ("lock", "wall", 'red.lock: expected one of "pile", got "wall"'),
        (
            "inners",
            [{"seat": 0, "colour": "blue"}],
            'red.inners[0].colour: "blue" is not a Colour: expected one of red',
        ),
        ("pair", [4], "red.pair: expected a list of 2, got [4]"),
        ("table", {"a": "one"}, 'red.table.a: expected a whole number, got "one"'),
        ("either", "quiet", 'red.either: "quiet" is not a Tone: expected one of loud'),
        ("notes", [], "red.notes: expected an object, got []"),
        ("totals", {"cards": 52}, "red.totals: missing ['names'], unknown nothing"),
        ("maybe", {"seat": 1}, "red.maybe: missing ['colour'], unknown nothing"),
        ("type", "black", "red: type must be 'red', got \"black\""),
    ],
)
def test_a_document_that_is_not_the_shape_says_which_field_and_what_was_expected(
    field: str, value: object, says: str
) -> None:
    doc = SAMPLE.to_json()
    doc[field] = value
    with pytest.raises(MalformedInput, match="^" + says.replace("[", r"\[").replace("]", r"\]")):
        Everything.from_json(doc)


def test_an_unknown_field_is_refused_and_the_callers_error_is_raised() -> None:
    with pytest.raises(BadMessage, match=r"unknown \['extra'\]"):
        from_json(Inner, {"seat": 1, "colour": "red", "extra": 0}, error=BadMessage)


def test_a_type_a_shape_cannot_hold_is_found_when_its_codec_is_built() -> None:
    @dataclass(frozen=True)
    class Loose:
        things: list  # type: ignore[type-arg]

    with pytest.raises(ShapeError, match="say what a list holds"):
        to_json(Loose([1]))


def test_the_table_state_is_the_engine_s_view_without_its_rules_plus_the_clocks() -> None:
    # GameView mirrors engine.view.View field for field (but the rules, sent once with the room): a field added
    # to the view and not to what pages are sent fails here.
    from dataclasses import fields

    from ratscrew.engine.actions import Flip
    from ratscrew.engine.game import Game
    from ratscrew.engine.view import View, view_for
    from ratscrew.rules import Rules

    assert [f.name for f in fields(View) if f.name != "rules"] == [f.name for f in fields(wire.GameView)]
    assert [f.name for f in fields(wire.TableState)][-4:] == ["now", "collect_delay_ms", "hold_ms", "paused"]
    assert wire.NO_TABLE.to_json() == {}
    # Each field of the view lands in its own place.
    game = Game.from_seed(Rules.build("standard", {"slapping.penalty": "lockout"}), 3, 11)
    for _ in range(7):
        game.apply(Flip(game.now))
    view = view_for(game, 2)
    state = wire.TableState.at(view, now=5, collect_delay_ms=6, hold_ms=7, paused=True)
    assert [getattr(state, name) for name in wire.state.VIEW_FIELDS] == [
        getattr(view, n) for n in wire.state.VIEW_FIELDS
    ]
    assert wire.GameView.of(view) == wire.GameView(*(getattr(view, n) for n in wire.state.VIEW_FIELDS))
    assert (state.now, state.collect_delay_ms, state.hold_ms, state.paused) == (5, 6, 7, True)
