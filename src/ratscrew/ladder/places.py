"""A finished game's places, and the part of them a rating is moved by.

The places come from what the rooms' summary says of every game (``rooms.wire.GameSummary``): the seats in
the order they went out (``out_order``, first out first) and the cards each seat held at the end
(``players[i].cards``). A seat still in at the end finishes above every seat that went out; seats still in
are ranked by the cards they hold, so a game stopped by its time limit (or by a card limit, or a loop) ranks
by cards held, and a game won outright puts its winner, who holds every card, first. Seats that went out
are ranked by how long they lasted. A player who left and whose seat a stand-in took (``replaced``) finishes
last whatever the stand-in did, below everyone who stayed; two such players tie.

Only seats held by signed-in people count: a computer's seat, or a guest's, is left out, and those who
count keep their order among themselves. The table's size (computers included) picks the size class.

>>> places(out_order=[2], cards=[30, 22, 0])  # seat 2 went out; seat 0 holds more than seat 1
(1, 2, 3)
>>> places(out_order=[], cards=[26, 26], replaced=[1])
(1, 2)
>>> rated_result("ABCDEF", players=[7, None, 9], places=(2, 1, 3))
RatedResult(game='ABCDEF', size_class=<SizeClass.MORE: '3+'>, places=((7, 1), (9, 2)))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ratscrew.errors import MalformedInput
from ratscrew.ladder.ratings import Place, PlayerId, SizeClass


@dataclass(frozen=True, slots=True)
class RatedResult:
    """What a rated game tells the ratings: its id, its size class, and each signed-in player's place among
    the signed-in players (1 first, ties sharing a place)."""

    game: str
    size_class: SizeClass
    places: tuple[tuple[PlayerId, Place], ...]


def places(out_order: Sequence[int], cards: Sequence[int], replaced: Collection[int] = ()) -> tuple[Place, ...]:
    """Each seat's place, 1 for the first; seats that tie share the better place (1, 1, 3)."""
    seats = len(cards)
    for seat in (*out_order, *replaced):
        if not 0 <= seat < seats:
            raise MalformedInput(f"seat {seat} is not one of the game's {seats} seats")
    if len(set(out_order)) != len(out_order):
        raise MalformedInput(f"a seat went out twice: {list(out_order)}")
    went_out = {seat: i for i, seat in enumerate(out_order)}

    def standing(seat: int) -> tuple[int, int]:
        # Higher is better: still in (by cards held) above out (by how long it lasted) above replaced.
        if seat in replaced:
            return (0, 0)
        if seat in went_out:
            return (1, went_out[seat])
        return (2, cards[seat])

    scores = [standing(seat) for seat in range(seats)]
    return tuple(1 + sum(other > mine for other in scores) for mine in scores)


def rated_result(game: str, players: Sequence[PlayerId | None], places: Sequence[Place]) -> RatedResult | None:
    """The result the ratings take from a game whose seat ``i`` was held by ``players[i]`` (None for a
    computer or a guest) and finished at ``places[i]``; None when fewer than two signed-in people played."""
    if len(players) != len(places):
        raise MalformedInput(f"{len(players)} players for {len(places)} places")
    counted = [(player, place) for player, place in zip(players, places, strict=True) if player is not None]
    if len(counted) < 2:
        return None
    ids = [player for player, _ in counted]
    if len(set(ids)) != len(ids):
        raise MalformedInput(f"a player holds two seats in one rated game: {ids}")
    # Places among those who count: a computer between two people moves neither.
    among = tuple((player, 1 + sum(other < place for _, other in counted)) for player, place in counted)
    return RatedResult(game, SizeClass.of(len(players)), among)
