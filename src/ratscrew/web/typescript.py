"""The page's types for what the server sends and reads, rendered from the server's own dataclasses.

Every message of a room's websocket, both ways, and every answer of the JSON API that is a dataclass
(``ratscrew.shapes``) is declared for TypeScript's checker in ``web/static/js/wire.d.ts``, which
``types.d.ts`` (the page's own types, kept by hand) re-exports. The file is rendered from the same type
hints the server writes and reads its documents by, so the page cannot be told one shape while the server
sends another. Regenerate it after changing a shape::

    python -m ratscrew.web.typescript

``tests/web/test_page_types.py`` renders it again and fails, naming this command, when the file differs; it
also has TypeScript check the golden corpus and real answers against the types.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import sys
import types
import typing
from collections.abc import Iterable
from enum import Enum
from pathlib import Path
from typing import Literal, NewType, get_args, get_origin

from ratscrew.cards import Card
from ratscrew.engine.game import Lockout
from ratscrew.patterns import Match
from ratscrew.record import StateJson
from ratscrew.rooms import wire
from ratscrew.rooms.runner import OpenRoom
from ratscrew.rules.io import RulesDoc
from ratscrew.shapes import TypeForm, hints, is_shape, type_code
from ratscrew.web import accounts, games, history, online, playnow, profiles, scores, store

TARGET = Path(__file__).resolve().parent / "static" / "js" / "wire.d.ts"
COMMAND = "python -m ratscrew.web.typescript"

# What the pages are sent and send, by the names the page's code knows them by. Each root brings in every
# shape its fields hold.
SERVER = get_args(wire.ServerMessage)
PAGE = get_args(wire.ClientMessage)
ANSWERS: tuple[type, ...] = (
    games.CreatedGame,
    games.NextGame,
    online.CreatedRoom,
    online.RoomList,
    online.RoomInfo,
    OpenRoom,
    *history.SHAPES,
    *scores.SHAPES,
    *accounts.SHAPES,
    *profiles.SHAPES,
    *playnow.SHAPES,
)

# Names the page's code has always used, where they differ from the class's.
NAMES: dict[TypeForm, str] = {
    wire.SeatView: "SeatDoc",
    wire.RoomView: "RoomDoc",
    Match: "PatternMatch",
    StateJson: "FinalState",
    scores.MatchShown: "ScoreMatch",
    store.Round: "ScoreRound",
    **{cls: f"{cls.TYPE.value.capitalize()}Message" for cls in SERVER},
    **{cls: f"{cls.TYPE.value.capitalize()}Request" for cls in PAGE},
}
# Unions and enums declared once by name.
ALIASES: dict[TypeForm, str] = {
    wire.RoomState: "RoomState",
    Lockout: "Lockout",
    wire.Reaction: "ReactionCode",
    wire.ServerMessage: "ServerMessage",
    wire.ClientMessage: "ClientMessage",
}
# Documents whose shape the page's hand-kept types declare (``types.d.ts``): the rules are the options' own,
# a game event is the engine's.
EXTERNAL: dict[TypeForm, str] = {RulesDoc: "RulesDoc", wire.EventDoc: "GameEvent", Card: "CardText"}


class Renderer:
    def __init__(self) -> None:
        self.blocks: dict[str, str] = {}
        self.done: set[TypeForm] = set()
        self.todo: list[TypeForm] = []
        self.optional_defaults: set[TypeForm] = set()  # what a page sends may leave out a field with a default

    def add(self, tp: TypeForm) -> None:
        if tp not in self.done and tp not in self.todo:
            self.todo.append(tp)

    def render(self, roots: Iterable[TypeForm]) -> str:
        for root in roots:
            self.add(root)
        while self.todo:
            tp = self.todo.pop(0)
            self.done.add(tp)
            if tp in ALIASES and not (isinstance(tp, type) and issubclass(tp, Enum)):
                self.blocks[ALIASES[tp]] = f"export type {ALIASES[tp]} = {self.union(get_args(tp))};\n"
            elif isinstance(tp, type) and issubclass(tp, Enum):
                self.blocks[ALIASES[tp]] = f"{_doc(tp)}export type {ALIASES[tp]} = {self.enum(tp)};\n"
            else:
                assert isinstance(tp, type)
                self.blocks[name_of(tp)] = self.interface(tp)
        used = sorted({name for name in EXTERNAL.values() if re.search(rf"\b{name}\b", "".join(self.blocks.values()))})
        head = HEADER + f'import type {{ {", ".join(used)} }} from "./types.js";\n'
        return "\n".join([head, *self.blocks.values()])

    def interface(self, cls: type) -> str:
        if typing.is_typeddict(cls):
            fields = "".join(f"  {name}: {self.ts(tp)};\n" for name, tp in typing.get_type_hints(cls).items())
            return f"{_doc(cls)}export interface {name_of(cls)} {{\n{fields}}}\n"
        own = hints(cls)
        base = next((b for b in cls.__mro__[1:] if is_shape(b)), None)
        if base is not None:
            self.add(base)
            own = {name: tp for name, tp in own.items() if name not in hints(base)}
        if not own and base is None and type_code(cls) is None:
            return f"{_doc(cls)}export type {name_of(cls)} = Record<string, never>;\n"
        notes = _field_notes(cls)
        defaults = {f.name for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING}
        lines = [f"{_doc(cls)}export interface {name_of(cls)}{f' extends {name_of(base)}' if base else ''} {{"]
        code = type_code(cls)
        if code is not None:
            lines.append(f"  type: {json.dumps(code.value)};")
        for name, tp in own.items():
            if name in notes:
                lines.append("  /** " + _wrap(notes[name], "   * ", 108) + " */")
            optional = "?" if cls in self.optional_defaults and name in defaults else ""
            lines.append(f"  {name}{optional}: {self.ts(tp)};")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def ts(self, tp: TypeForm) -> str:
        """The TypeScript for one Python type."""
        origin, args = get_origin(tp), get_args(tp)
        if tp in EXTERNAL:
            return EXTERNAL[tp]
        if tp in ALIASES:
            self.add(tp)
            return ALIASES[tp]
        if tp is type(None):
            return "null"
        if tp in (int, float):
            return "number"
        if tp is str:
            return "string"
        if tp is bool:
            return "boolean"
        if tp is object:
            return "unknown"
        if origin is Literal:
            return " | ".join(json.dumps(a) for a in args)
        if isinstance(tp, NewType):
            return self.ts(tp.__supertype__)
        if isinstance(tp, type) and issubclass(tp, Enum):
            return self.enum(tp)
        if origin in (tuple, list):
            if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
                return "[" + ", ".join(self.ts(a) for a in args) + "]"
            return _array(self.ts(args[0]))
        if origin is dict:
            return f"{{ [key: string]: {self.ts(args[1])} }}"
        if origin in (typing.Union, types.UnionType):
            return self.union(args)
        if is_shape(tp) or typing.is_typeddict(tp):
            self.add(tp)
            return name_of(tp)
        raise TypeError(f"no TypeScript for {tp!r}")

    def union(self, args: Iterable[TypeForm]) -> str:
        return " | ".join(self.ts(a) for a in args)

    @staticmethod
    def enum(kind: type[Enum]) -> str:
        return " | ".join(json.dumps(member.value) for member in kind)


def name_of(cls: TypeForm) -> str:
    return NAMES.get(cls) or str(getattr(cls, "__name__", cls))


def _array(item: str) -> str:
    return f"({item})[]" if " | " in item else f"{item}[]"


def _doc(cls: type) -> str:
    """The class's docstring as a JSDoc comment (where the server declares it, for the page's reader)."""
    text = inspect.getdoc(cls) or ""
    if not text or text.startswith(f"{cls.__name__}("):  # a dataclass's made-up docstring says nothing
        return f"/** {cls.__module__.removeprefix('ratscrew.')}.{cls.__qualname__}. */\n"
    lines = _for_page(" ".join(text.split()))
    where = f"({cls.__module__.removeprefix('ratscrew.')}.{cls.__qualname__})"
    return "/** " + _wrap(f"{lines} {where}", " * ") + " */\n"


def _wrap(text: str, lead: str, width: int = 112) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return f"\n{lead}".join(lines)


def _for_page(text: str) -> str:
    """Python's words as the page's reader knows them: null for None, one backquote for code."""
    return re.sub(r"\bNone\b", "null", text).replace("``", "`").replace("*/", "* /")


_FIELD = re.compile(r"^    (\w+): [^#]*?(?:#\s*(.*))?$")
_COMMENT = re.compile(r"^    #\s?(.*)$")


def _field_notes(cls: type) -> dict[str, str]:
    """Each field's comment in the class's source: the one after it on its line, or those just above it."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    notes: dict[str, str] = {}
    above: list[str] = []
    for line in source.splitlines():
        comment, field = _COMMENT.match(line), _FIELD.match(line)
        if comment:
            above.append(comment.group(1).strip())
        elif field:
            said = " ".join([*above, field.group(2) or ""]).strip()
            if said:
                notes[field.group(1)] = _for_page(said)
            above = []
        else:
            above = []
    return notes


HEADER = f"""\
// Generated from the server's dataclasses by `{COMMAND}`: do not edit by hand.
// What a room's websocket carries both ways and what the JSON API answers, as the server writes it
// (ratscrew/shapes.py writes and reads every one of these by the same type hints). The page's own types,
// and the documents whose shape another part of the server owns, are in types.d.ts, which re-exports these.
"""


def render() -> str:
    renderer = Renderer()
    renderer.optional_defaults.update(PAGE)
    # A match read back from an event has no positions (events name the cards): a page may not count on them.
    renderer.optional_defaults.add(Match)
    return renderer.render([wire.ServerMessage, wire.ClientMessage, *ANSWERS])


def main(argv: list[str] | None = None) -> int:
    text = render()
    if TARGET.exists() and TARGET.read_text(encoding="utf-8") == text:
        print(f"{TARGET.name} is up to date")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
