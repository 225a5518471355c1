"""Beggar-my-neighbour played backwards: the deals whose games run into a given one.

Two-hand Beggar-my-neighbour is deterministic, so the positions between tricks form a forest: each position
leads to exactly one next position, and a game that ends runs down a branch to a finished one. A deal's length
is its depth in that forest. A position can have several positions before it, because the pile the leader
has just taken (at the bottom of their hand) can often be split back onto the two hands in more than one
way; so above every position of a game hang other branches, and any position up there with 26 cards a hand
is a deal whose game runs into this one, longer by the cards in between. This is why published record deals
come in families of near relatives.

A position is ``(lead, other)``: the hand that leads the next trick and the other one, as demand strings
(``0`` a number card, ``1``-``4`` J Q K A), top card first. A deal is the position before its first trick.

``src/ratscrew/_bmn_hunt.c`` does the same searches step for step (the tests hold the two together); this
module is the reference and the fallback.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ratscrew import kernels
from ratscrew.bmn import play_bmn, to_notation

_hunt = kernels.load("ratscrew._bmn_hunt")

Position = tuple[str, str]
HALF = 26


def trick(pos: Position) -> tuple[Position, int] | None:
    """The position after one trick and the cards played in it, or None when the game ends in that trick."""
    hands = [pos[0], pos[1]]
    at = [0, 0]
    pile: list[str] = []
    player, owed, challenger = 0, 0, 0
    while True:
        if at[player] == len(hands[player]):
            return None  # must play with no card
        card = hands[player][at[player]]
        at[player] += 1
        pile.append(card)
        if card != "0":
            challenger, owed, player = player, ord(card) - 48, 1 - player
        elif owed:
            owed -= 1
            if not owed:
                break
        else:
            player = 1 - player
    loser = 1 - challenger
    if at[loser] == len(hands[loser]):
        return None  # the winner holds every card
    lead = hands[challenger][at[challenger] :] + "".join(pile)
    return (lead, hands[loser][at[loser] :]), len(pile)


def predecessors(pos: Position) -> list[tuple[Position, int]]:
    """Every position one trick before ``pos``, with the size of that trick's pile.

    The leader of ``pos`` won the last trick, so its pile is the bottom of their hand and ends with their court
    card and the other's full payment. Going back from there, each court card whose following run of number
    cards is shorter than its demand can have been turned by the player who was paying, so the trick may have
    opened at any court card of that chain, after an opening run of any of the number cards before it. Who
    played each card follows from where the trick opened. The order (court cards from the last back, runs
    from none up) is the one the C search uses.
    """
    lead = pos[0]
    n = len(lead)
    last = n - 1
    while last >= 0 and lead[last] == "0":
        last -= 1
    if last < 0 or ord(lead[last]) - 48 != n - 1 - last:
        return []
    chain = [0] * n  # who played each card of the pile from the chain's court card on: 0 the winner, 1 the other
    for i in range(last + 1, n):
        chain[i] = 1
    found: list[tuple[Position, int]] = []
    court, player = last, 0
    while True:
        chain[court] = player
        gap = 0
        while court - gap - 1 >= 0 and lead[court - gap - 1] == "0":
            gap += 1
        for run in range(gap + 1):
            start = court - run
            # the opening run alternates, and the card just before the court card is the other player's
            who = [player ^ (j & 1) for j in range(run, 0, -1)] + chain[court:]
            found.append((_unplay(pos, start, who), n - start))
        before = court - gap - 1
        if before < 0 or gap >= ord(lead[before]) - 48:
            return found
        for i in range(before + 1, court):
            chain[i] = player  # they paid the earlier court card, then turned this one
        court, player = before, 1 - player


def _unplay(pos: Position, start: int, who: list[int]) -> Position:
    lead, other = pos
    pile = lead[start:]
    winner = "".join(c for c, w in zip(pile, who, strict=True) if w == 0) + lead[:start]
    loser = "".join(c for c, w in zip(pile, who, strict=True) if w == 1) + other
    return (loser, winner) if who[0] else (winner, loser)


@dataclass(frozen=True, slots=True)
class Relative:
    """A deal found above a game: its hands (first to lead first) and how long its own game is."""

    deal: Position
    cards: int
    tricks: int


def _search_above(
    start: Position, skip: Position | None, cap: int, best: tuple[int, int, Position | None]
) -> tuple[int, tuple[int, int, Position | None]]:
    """Depth first over at most ``cap`` positions above ``start``, not through ``skip``: the deal most cards
    above it, if more than ``best[0]`` (ties keep the first found). Returns (positions searched, best)."""
    stack: list[tuple[Position, int, int]] = [(start, 0, 0)]
    searched = 0
    while stack and searched < cap:
        pos, cards, tricks = stack.pop()
        searched += 1
        if cards > best[0] and len(pos[0]) == HALF and len(pos[1]) == HALF:
            best = (cards, tricks, pos)
        for before, pile in predecessors(pos):
            if cards == 0 and before == skip:
                continue
            stack.append((before, cards + pile, tricks + 1))
    return searched, best


def family(
    deal: Position, cards: int, tricks: int, walk: int, cap: int, *, accelerated: bool = True
) -> tuple[Relative | None, int]:
    """The longest deal whose game runs into the first ``walk`` positions of this deal's game, if it is
    longer than this one (which lasts ``cards`` and ``tricks``), and how many positions were searched.

    Above each position, at most ``cap`` positions are searched, skipping the branch the game came down
    (searched from the position before). For an endless deal, ``walk`` must stop short of its cycle.
    """
    if accelerated and _hunt is not None:
        found, searched = _hunt.family(deal[0].encode(), deal[1].encode(), cards, tricks, walk, cap)
        if found is None:
            return None, searched
        (lead, other), best_cards, best_tricks = found
        return Relative((lead.decode(), other.decode()), best_cards, best_tricks), searched
    best_cards, best_tricks, best = cards, tricks, None
    now: Position = deal
    prev: Position | None = None
    played = searched = 0
    for turns in range(walk):
        rest = cards - played  # a deal found here lasts the cards above this position plus these
        n, (above, above_tricks, pos) = _search_above(now, prev, cap, (max(0, best_cards - rest), 0, None))
        searched += n
        if pos is not None:
            best_cards, best_tricks, best = rest + above, tricks - turns + above_tricks, pos
        step = trick(now)
        if step is None:
            break
        prev, (now, pile) = now, step
        played += pile
    return (Relative(best, best_cards, best_tricks) if best is not None else None), searched


# ---------------------------------------------------------------------- endless deals


@dataclass(frozen=True, slots=True)
class Cycle:
    """The positions an endless game goes round, from the one its ``key`` names (the first in notation order,
    so every deal that reaches this cycle gives the same key)."""

    key: str
    positions: tuple[Position, ...]
    cards: int
    tricks: int


def cycle_of(deal: Position) -> Cycle | None:
    """The cycle this deal's game falls into, or None if the game ends."""
    result = play_bmn(deal)
    if result.loop is None:
        return None
    pos = deal
    for _ in range(result.loop.prefix_tricks):
        step = trick(pos)
        assert step is not None
        pos = step[0]
    ring = []
    for _ in range(result.loop.cycle_tricks):
        ring.append(pos)
        step = trick(pos)
        assert step is not None
        pos = step[0]
    first = min(range(len(ring)), key=lambda i: _notation(ring[i]))
    ring = ring[first:] + ring[:first]
    return Cycle(_notation(ring[0]), tuple(ring), result.loop.cycle_cards, result.loop.cycle_tricks)


def _notation(pos: Position) -> str:
    return f"{to_notation(pos[0])}/{to_notation(pos[1])}"


def into_cycle(cycle: Cycle, cap: int = 1_000_000) -> tuple[list[Relative], int]:
    """Every deal (26 cards a hand) whose game falls into ``cycle``, found by playing back from each of its
    positions without going round it, at most ``cap`` positions in all; and the positions searched. A deal's
    ``cards`` and ``tricks`` run to its first repeated position, as :func:`ratscrew.bmn.play_bmn` counts them.
    """
    on_cycle = set(cycle.positions)
    found: list[Relative] = []
    searched = 0
    for start in cycle.positions:
        stack: list[tuple[Position, int, int]] = [(start, 0, 0)]
        while stack and searched < cap:
            pos, cards, tricks = stack.pop()
            searched += 1
            if len(pos[0]) == HALF and len(pos[1]) == HALF:
                found.append(Relative(pos, cards + cycle.cards, tricks + cycle.tricks))
            for before, pile in _predecessors(pos):
                if before not in on_cycle:
                    stack.append((before, cards + pile, tricks + 1))
    found.sort(key=lambda r: (-r.cards, r.deal))
    return found, searched


def _predecessors(pos: Position) -> Iterator[tuple[Position, int]]:
    if _hunt is None:
        yield from predecessors(pos)
        return
    for (lead, other), pile in _hunt.predecessors(pos[0].encode(), pos[1].encode()):
        yield (lead.decode(), other.decode()), pile
