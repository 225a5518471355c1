"""Cards drawn in a terminal: a face with its corner index in the player's letters, the pile fanned so the
cards under the top one still show their corners, in red and black on white, or plain.

Suits differ by shape (♠ ♥ ♦ ♣), so the cards read without colour too: ``plain`` draws no colour at all, for
``--plain``, ``NO_COLOR`` and terminals without colour.

>>> from ratscrew.tui.words import Words
>>> print(pile_text(["7S", "QH"], Words("en"), plain=True, height=3).plain)
┌───┌───┐
│7♠ │Q♥ │
└───└───┘
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from ratscrew.tui.words import Words

RED = Style(color="rgb(184,38,43)", bgcolor="rgb(250,248,240)", bold=True)
BLACK = Style(color="rgb(27,27,34)", bgcolor="rgb(250,248,240)", bold=True)
EDGE = Style(color="rgb(120,120,120)", bgcolor="rgb(250,248,240)")
PLAIN = Style()
PLAIN_TOP = Style(bold=True)


@dataclass(frozen=True, slots=True)
class Size:
    """A card's size in cells, and how much of each card under the top one shows."""

    height: int
    width: int
    step: int


SIZES = {3: Size(3, 5, 4), 5: Size(5, 7, 4), 7: Size(7, 9, 5)}


def size_for(height: int) -> Size:
    """The largest card that fits ``height`` rows (at least the smallest)."""
    fits = [size for rows, size in SIZES.items() if rows <= height]
    return fits[-1] if fits else SIZES[3]


def face(code: str, words: Words, size: Size) -> list[str]:
    """One card's rows: its border, its corner index at the top left (and bottom right when there is room),
    and its suit in the middle."""
    index = words.card(code)
    suit = index[-1] if index and index[-1] in "♠♥♦♣" else ""
    inner = size.width - 2
    rows = ["┌" + "─" * inner + "┐"]
    body = [" " * inner for _ in range(size.height - 2)]
    body[0] = index.ljust(inner)[:inner]
    if size.height >= 5:
        middle = (size.height - 2) // 2
        body[middle] = (suit or "★").center(inner)[:inner]
        body[-1] = index.rjust(inner)[-inner:]
    rows += ["│" + line + "│" for line in body]
    rows.append("└" + "─" * inner + "┘")
    return rows


def style_of(code: str, plain: bool, top: bool) -> Style:
    if plain:
        return PLAIN_TOP if top else PLAIN
    return RED if code[-1:] in ("H", "D") else BLACK


def pile_text(pile: Sequence[str], words: Words, *, plain: bool, height: int, width: int = 80) -> Text:
    """The pile's top cards, bottom first, fanned left to right within ``width`` cells; empty for no card."""
    if not pile:
        return Text("")
    size = size_for(height)
    shown = max(1, min(len(pile), (width - size.width) // size.step + 1))
    cards = list(pile[-shown:])
    total = size.step * (len(cards) - 1) + size.width
    grid: list[list[tuple[str, Style]]] = [[(" ", PLAIN)] * total for _ in range(size.height)]
    for i, code in enumerate(cards):
        top = i == len(cards) - 1
        style = style_of(code, plain, top)
        edge = style if plain else EDGE
        left = i * size.step
        for r, drawn in enumerate(face(code, words, size)):
            for c, char in enumerate(drawn):
                grid[r][left + c] = (char, edge if char in "┌┐└┘─│" else style)
    text = Text()
    for r, cells in enumerate(grid):
        if r:
            text.append("\n")
        for char, cell_style in cells:
            text.append(char, cell_style)
    return text


def card_chip(code: str, words: Words, plain: bool) -> Text:
    """A card inline, in a line of words: ``K♠`` in its colour."""
    return Text(words.card(code), style_of(code, plain, False))
