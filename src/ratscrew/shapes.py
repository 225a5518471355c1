"""Frozen dataclasses as JSON documents, written and read back by their type hints alone.

A *shape* is a dataclass whose fields hold what JSON can say: ``bool``, ``int``, ``float``, ``str``, None, a
``Literal``, an enum (its value), a :class:`~ratscrew.cards.Card` (its text, ``"QH"``), a tuple or list of
those, a ``dict`` with text keys, another shape, a union of any of these, a ``NewType`` over one (a document
whose shape another module owns, such as the rules), or ``object`` (any JSON value, passed as it is).
:func:`to_json` writes exactly a shape's fields, in order, after ``"type"`` when the class has an enum
``TYPE``; :func:`from_json` reads a document back, checking every field, and says which one was wrong. A field
with a default may be left out of a document (an older writer did not know it). The page's types are
rendered from the same hints (``web/typescript.py``), so what is sent, what is read back and what the page
is told to expect cannot drift apart.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Seen:
...     card: Card
...     seats: tuple[int, ...]
...     note: str | None = None
>>> to_json(Seen(Card.parse("QH"), (0, 2)))
{'card': 'QH', 'seats': [0, 2], 'note': None}
>>> from_json(Seen, {"card": "QH", "seats": [0, 2]})
Seen(card=Card.parse('QH'), seats=(0, 2), note=None)
>>> from_json(Seen, {"card": "QH", "seats": [0, "two"]})
Traceback (most recent call last):
...
ratscrew.errors.MalformedInput: seen.seats[1]: expected a whole number, got "two"
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, NewType, Self, TypeGuard, TypeVar, get_args, get_origin

from ratscrew.cards import Card
from ratscrew.errors import MalformedInput, NotationError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
Json = object  # what json.loads gives and json.dumps takes
# A type as an annotation writes it: a class, a union, ``tuple[int, ...]``, a ``NewType``, a ``Literal``.
TypeForm = object
Writer = Callable[[Any], Json]  # takes a value of the type it was built for
Reader = Callable[[Json, str], object]  # a document and where it was found, for the message


class ShapeError(TypeError):
    """A type a shape cannot hold (a programming error, raised when its codec is first built)."""


def to_json(value: object) -> Json:
    """A shape (or a tuple, list or dict of them) as its JSON document."""
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    kind: Any = type(value)
    return _writer(kind)(value)


def from_json(cls: type[T], doc: Json, *, where: str | None = None, error: type[MalformedInput] = MalformedInput) -> T:
    """``doc`` read back as a ``cls``, every field checked; ``error`` says what was wrong, and where."""
    try:
        kind: TypeForm = cls
        value = typing.cast(T, _reader(kind)(doc, where or _default_name(cls)))
    except _Wrong as wrong:
        raise error(str(wrong)) from None
    return value


def document(value: object) -> dict[str, object]:
    """A shape as its JSON object."""
    doc = to_json(value)
    if not isinstance(doc, dict):
        raise ShapeError(f"{type(value).__name__} is not written as an object")
    return doc


class Shape:
    """A base for shapes that read and write themselves (``Welcome.from_json(doc)``, ``message.to_json()``)."""

    __slots__ = ()

    def to_json(self) -> dict[str, object]:
        return document(self)

    @classmethod
    def from_json(cls, doc: Json, *, error: type[MalformedInput] = MalformedInput) -> Self:
        return from_json(cls, doc, error=error)


def hints(cls: type) -> dict[str, TypeForm]:
    """A shape's fields and their types, in order (``ClassVar`` left out), for the codecs and the page's types."""
    if not dataclasses.is_dataclass(cls):
        raise ShapeError(f"{cls.__name__} is not a dataclass")
    resolved = typing.get_type_hints(cls)
    return {f.name: resolved[f.name] for f in dataclasses.fields(cls)}


def type_code(cls: type) -> Enum | None:
    """The ``TYPE`` a message class is sent under (written as ``"type"``), or None."""
    code = getattr(cls, "TYPE", None)
    return code if isinstance(code, Enum) else None


def is_shape(tp: object) -> TypeGuard[type[DataclassInstance]]:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp) and tp is not Card


def _default_name(cls: type) -> str:
    code = type_code(cls)
    if code is not None:
        return str(code.value)
    return re.sub(r"(?<!^)(?=[A-Z])", " ", cls.__name__).lower()


class _Wrong(Exception):
    """What was wrong with a document, and where (turned into the caller's error type once, at the top)."""


def _show(value: object) -> str:
    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return type(value).__name__


# ---------------------------------------------------------------------------------------- writing


def _same(value: object) -> object:
    return value


@cache
def _writer(tp: TypeForm) -> Writer:
    """How to write a value of type ``tp``: Python source made from its hints once per type and compiled, so
    a message is written as fast as a hand-written encoder would (a room writes one for every event)."""
    if is_shape(tp):
        return _shape_writer_of(tp)
    names: dict[str, object] = {}
    expression = _expression(tp, "v", names, 0)
    if expression is None:
        return _same
    return _compiled(f"def write(v):\n    return {expression}\n", names)


def _shape_writer(cls: type) -> Writer:
    names: dict[str, object] = {}
    code = type_code(cls)
    parts = [] if code is None else [f"'type': {code.value!r}"]
    for name, tp in hints(cls).items():
        parts.append(f"{name!r}: {_expression(tp, f'v.{name}', names, 0) or f'v.{name}'}")
    return _compiled(f"def write(v):\n    return {{{', '.join(parts)}}}\n", names)


def _compiled(source: str, names: dict[str, object]) -> Writer:
    scope = dict(names)
    exec(compile(source, "<ratscrew.shapes>", "exec"), scope)  # the source is built here, from type hints only
    write: Writer = scope["write"]  # type: ignore[assignment]
    return write


def _expression(tp: TypeForm, arg: str, names: dict[str, object], depth: int) -> str | None:
    """A Python expression writing ``arg``, a value of type ``tp``; None when the value goes out as it is.
    Functions it calls are put in ``names``."""
    origin, args = get_origin(tp), get_args(tp)
    if tp in (int, float, str, bool, type(None), object) or origin is Literal or typing.is_typeddict(tp):
        return None  # a TypedDict holds its JSON already
    if isinstance(tp, NewType):
        return _expression(tp.__supertype__, arg, names, depth)
    if tp is Card:
        return f"str({arg})"
    if isinstance(tp, type) and issubclass(tp, Enum):
        return f"{arg}.value"
    item = f"x{depth}"
    if origin in (tuple, list):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            parts = [_expression(a, f"{arg}[{i}]", names, depth + 1) or f"{arg}[{i}]" for i, a in enumerate(args)]
            return f"[{', '.join(parts)}]"
        each = _expression(args[0], item, names, depth + 1)
        return f"list({arg})" if each is None else f"[{each} for {item} in {arg}]"
    if origin is dict:
        # A document of plain values goes out as it is (the rules of a room, written once for all its messages).
        each = _expression(args[1], item, names, depth + 1)
        return None if each is None else f"{{k{depth}: {each} for k{depth}, {item} in {arg}.items()}}"
    if origin in (typing.Union, types.UnionType):
        present = [a for a in args if a is not type(None)]
        written = [_expression(a, arg, names, depth) for a in present]
        if all(w is None for w in written):
            return None
        if len(present) == 1:
            return f"(None if {arg} is None else {written[0]})"
        return f"{_named(names, _union_writer(args))}({arg})"
    if is_shape(tp):
        return f"{_named(names, _shape_writer_of(tp))}({arg})"
    if isinstance(tp, type) and tp in (tuple, list, dict):
        raise ShapeError(f"say what a {tp.__name__} holds: {tp.__name__}[...]")
    raise ShapeError(f"a shape cannot hold {tp!r}")


@cache
def _shape_writer_of(cls: type) -> Writer:
    return _shape_writer(cls)


def _named(names: dict[str, object], function: object) -> str:
    name = f"_w{len(names)}"
    names[name] = function
    return name


def _union_writer(args: tuple[TypeForm, ...]) -> Writer:
    choices = [(_checker(a), _writer(a)) for a in args]

    def write(value: object) -> Json:
        for fits, writer in choices:
            if fits(value):
                return writer(value)
        raise ShapeError(f"{value!r} is none of {args}")

    return write


def _checker(tp: TypeForm) -> Callable[[object], bool]:
    """Whether a Python value is of ``tp`` (to choose a union's writer)."""
    origin = get_origin(tp)
    if tp is type(None):
        return lambda v: v is None
    if tp is object:
        return lambda v: True
    if origin is Literal:
        allowed = get_args(tp)
        return lambda v: v in allowed
    if isinstance(tp, NewType):
        return _checker(tp.__supertype__)
    if origin is not None:
        base = origin if origin not in (typing.Union, types.UnionType) else object
        return lambda v: isinstance(v, base)
    assert isinstance(tp, type)
    return lambda v: isinstance(v, tp)


# ---------------------------------------------------------------------------------------- reading


@cache
def _reader(tp: TypeForm) -> Reader:
    origin, args = get_origin(tp), get_args(tp)
    if tp is object:
        return lambda v, at: v
    if tp is type(None):
        return _none
    if tp is bool:
        return _bool
    if tp is int:
        return _int
    if tp is float:
        return _float
    if tp is str:
        return _str
    if origin is Literal:
        return _literal(args)
    if isinstance(tp, NewType):
        return _reader(tp.__supertype__)
    if tp is Card:
        return _card
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _enum(tp)
    if origin in (tuple, list):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return _fixed(tuple(_reader(a) for a in args))
        return _sequence(_reader(args[0]), tuple if origin is tuple else list)
    if origin is dict:
        return _mapping(_reader(args[1]))
    if origin in (typing.Union, types.UnionType):
        return _union(args)
    if is_shape(tp):
        return _shape_reader(tp)
    if typing.is_typeddict(tp):
        return _typeddict_reader(tp)
    raise ShapeError(f"a shape cannot hold {tp!r}")


def _none(value: Json, at: str) -> None:
    if value is not None:
        raise _Wrong(f"{at}: expected null, got {_show(value)}")


def _bool(value: Json, at: str) -> bool:
    if not isinstance(value, bool):
        raise _Wrong(f"{at}: expected true or false, got {_show(value)}")
    return value


def _int(value: Json, at: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Wrong(f"{at}: expected a whole number, got {_show(value)}")
    return value


def _float(value: Json, at: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Wrong(f"{at}: expected a number, got {_show(value)}")
    return value


def _str(value: Json, at: str) -> str:
    if not isinstance(value, str):
        raise _Wrong(f"{at}: expected text, got {_show(value)}")
    return value


def _card(value: Json, at: str) -> Card:
    try:
        return Card.parse(_str(value, at))
    except NotationError as exc:
        raise _Wrong(f"{at}: {exc}") from None


def _literal(allowed: tuple[object, ...]) -> Reader:
    def read(value: Json, at: str) -> object:
        for choice in allowed:  # ``True == 1``: a literal matches by type as well as by value
            if value == choice and type(value) is type(choice):
                return choice
        raise _Wrong(f"{at}: expected one of {', '.join(json.dumps(a) for a in allowed)}, got {_show(value)}")

    return read


def _enum(kind: type[Enum]) -> Reader:
    members = {member.value: member for member in kind}
    listed = ", ".join(str(m.value) for m in kind)

    def read(value: Json, at: str) -> Enum:
        member = members.get(value) if isinstance(value, str | int) and not isinstance(value, bool) else None
        if member is None:
            raise _Wrong(f"{at}: {_show(value)} is not a {kind.__name__}: expected one of {listed}")
        return member

    return read


def _sequence(item: Reader, make: type[tuple[Any, ...]] | type[list[Any]]) -> Reader:
    def read(value: Json, at: str) -> object:
        if not isinstance(value, list):
            raise _Wrong(f"{at}: expected a list, got {_show(value)}")
        return make(item(x, f"{at}[{i}]") for i, x in enumerate(value))

    return read


def _fixed(parts: tuple[Reader, ...]) -> Reader:
    def read(value: Json, at: str) -> tuple[object, ...]:
        if not isinstance(value, list) or len(value) != len(parts):
            raise _Wrong(f"{at}: expected a list of {len(parts)}, got {_show(value)}")
        return tuple(r(x, f"{at}[{i}]") for i, (r, x) in enumerate(zip(parts, value, strict=True)))

    return read


def _mapping(item: Reader) -> Reader:
    def read(value: Json, at: str) -> dict[str, object]:
        if not isinstance(value, dict):
            raise _Wrong(f"{at}: expected an object, got {_show(value)}")
        return {str(k): item(x, f"{at}.{k}") for k, x in value.items()}

    return read


def _union(args: tuple[TypeForm, ...]) -> Reader:
    readers = [(_reader(a), _field_names(a)) for a in args if a is not type(None)]
    nullable = type(None) in args

    def read(value: Json, at: str) -> object:
        if value is None and nullable:
            return None
        tried: list[tuple[int, _Wrong]] = []
        for reader, names in readers:
            try:
                return reader(value, at)
            except _Wrong as exc:
                # For an object, the reading that knows most of its fields says best what is wrong with it;
                # otherwise the last (a union lists its likeliest reading last).
                tried.append((len(names & value.keys()) if isinstance(value, dict) else 0, exc))
        raise max(reversed(tried), key=lambda t: t[0])[1]

    return read


def _field_names(tp: TypeForm) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(tp)) if is_shape(tp) else frozenset()


def _shape_reader(cls: type) -> Reader:
    fields = dataclasses.fields(cls)
    readers = {name: _reader(tp) for name, tp in hints(cls).items()}
    required = {f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    code = type_code(cls)
    ignored = {"type"} if code is not None else set()

    def read(value: Json, at: str) -> object:
        if not isinstance(value, dict):
            raise _Wrong(f"{at} must be an object, got {_show(value)}")
        keys = set(value) - ignored
        missing, extra = sorted(required - keys), sorted(keys - readers.keys())
        if missing or extra:
            raise _Wrong(f"{at}: missing {missing or 'nothing'}, unknown {extra or 'nothing'}")
        if code is not None and "type" in value and value["type"] != code.value:
            raise _Wrong(f"{at}: type must be {code.value!r}, got {_show(value['type'])}")
        return cls(**{name: readers[name](value[name], f"{at}.{name}") for name in readers if name in value})

    return read


def _typeddict_reader(kind: TypeForm) -> Reader:
    readers = {name: _reader(tp) for name, tp in typing.get_type_hints(kind).items()}
    required: frozenset[str] = getattr(kind, "__required_keys__")  # noqa: B009 (a TypedDict's, typed nowhere)

    def read(value: Json, at: str) -> object:
        if not isinstance(value, dict):
            raise _Wrong(f"{at} must be an object, got {_show(value)}")
        missing, extra = sorted(required - value.keys()), sorted(value.keys() - readers.keys())
        if missing or extra:
            raise _Wrong(f"{at}: missing {missing or 'nothing'}, unknown {extra or 'nothing'}")
        return {name: readers[name](item, f"{at}.{name}") for name, item in value.items()}

    return read
