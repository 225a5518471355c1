"""One rules key: how it is declared, what it allows, and how a value from a file or ``--set`` is checked.

An option is declared once, as a field of its section of the rules value (``rules/sections.py``)::

    penalty: Penalty = declare("burn", "what a wrong slap costs ...")

The field's type says which values it takes (a ``Literal`` lists the choices; ``bool`` and ``int`` speak for
themselves), its default is the rule's default, and ``declare`` carries the rest: the sentence that explains it,
an integer's range, the key it depends on, and whether people at a real table agree on it. Everything else (the
table of options, ``ratscrew rules``, the settings forms, the C kernel's list, docs/rules.md) is read from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Literal, TypeVar, cast, get_args, get_origin, get_type_hints

from ratscrew.errors import RulesError

Value = bool | int | str
V = TypeVar("V")

_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}
_DECLARED = "ratscrew.option"  # the key of a field's metadata that holds its declaration


@dataclass(frozen=True, slots=True)
class Needs:
    """An option that only means something while ``key`` (or any of ``or_keys``) holds one of ``values``, and
    what that key itself needs holds too (``slapping.once_per_card_scope`` needs ``once_per_card``, which needs a
    penalty that costs something).

    ``off`` is the value the option must keep otherwise (a rule set that asks for it anyway is refused, since
    it could never apply); None means any value is accepted and simply not used.
    """

    key: str
    values: tuple[Value, ...]
    off: Value | None = None
    or_keys: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key, *self.or_keys)


@dataclass(frozen=True, slots=True)
class Option:
    """One rules key. ``choices`` lists the allowed values; integer options without choices use a range.

    ``aliases`` are other spellings of a choice (``T`` for the rank 10); ``needs`` says which other key this one
    depends on, for the checks of the rules value and for the settings forms. ``table`` is false for what only a
    computer measures or guards (timings, simulation limits): the score keeper leaves those out. ``hint`` is false
    where the option's short label says all there is, so the forms show no sentence under it.
    """

    key: str
    default: Value
    summary: str
    choices: tuple[Value, ...] = ()
    minimum: int = 0
    maximum: int = 0
    aliases: tuple[tuple[str, Value], ...] = ()
    needs: Needs | None = None
    table: bool = True
    hint: bool = True

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.key.split(".", 1)[1]

    @property
    def kind(self) -> str:
        """``bool``, ``int`` or ``choice`` (a fixed set, possibly of mixed strings and integers)."""
        if isinstance(self.default, bool):
            return "bool"
        if self.choices:
            return "choice"
        return "int"

    def allowed_text(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return ", ".join(show(c) for c in self.choices)
        return f"an integer from {self.minimum} to {self.maximum}"

    def parse(self, raw: object) -> Value:
        """Check a value from a file (already typed) or from ``--set`` (text); return it normalised."""
        value = self._coerce(raw)
        if value is None:
            raise RulesError(f"{self.key} cannot be {show(raw)}: allowed values are {self.allowed_text()}")
        return value

    def _coerce(self, raw: object) -> Value | None:
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                return raw.strip().lower() in _TRUE
            return None
        if self.kind == "int":
            number = _as_int(raw)
            if number is not None and self.minimum <= number <= self.maximum:
                return number
            return None
        text = raw.strip().lower() if isinstance(raw, str) else None
        for alias, value in self.aliases:
            if text == alias.lower():
                return value
        for choice in self.choices:
            if isinstance(choice, int) and _as_int(raw) == choice:
                return choice
            if isinstance(choice, str) and text == choice.lower():
                return choice
        return None


@dataclass(frozen=True, slots=True)
class _Declared:
    summary: str
    minimum: int
    maximum: int
    aliases: tuple[tuple[str, Value], ...]
    needs: Needs | None
    table: bool
    hint: bool


def declare(
    default: V,
    summary: str,
    *,
    minimum: int = 0,
    maximum: int = 0,
    aliases: tuple[tuple[str, Value], ...] = (),
    needs: Needs | None = None,
    table: bool = True,
    hint: bool = True,
) -> V:
    """A field of a rules section that is a rules key (see the module's docstring; :class:`Option` says what
    each argument means). The type checker reads it as the default itself, so the default must be a value of
    the field's type."""
    declared = _Declared(summary, minimum, maximum, aliases, needs, table, hint)
    return field(default=default, metadata={_DECLARED: declared})


def options_of(section: str, cls: type) -> tuple[Option, ...]:
    """The options a section class declares, in the order of its fields."""
    hints = get_type_hints(cls)
    out: list[Option] = []
    for f in fields(cls):
        declared = f.metadata.get(_DECLARED)
        if not isinstance(declared, _Declared):
            raise TypeError(f"{cls.__name__}.{f.name} is not declared with declare(): every field is a rules key")
        hint = hints[f.name]
        choices: tuple[Value, ...] = get_args(hint) if get_origin(hint) is Literal else ()
        default = cast(Value, f.default)
        if choices and default not in choices:
            raise TypeError(f"{cls.__name__}.{f.name}: the default {default!r} is not one of {choices}")
        out.append(
            Option(
                f"{section}.{f.name}",
                default,
                declared.summary,
                choices,
                declared.minimum,
                declared.maximum,
                declared.aliases,
                declared.needs,
                declared.table,
                declared.hint,
            )
        )
    return tuple(out)


def needs_met_in(opt: Option, values: Mapping[str, Value], by_key: Mapping[str, Option]) -> bool:
    """Whether ``opt`` applies under ``values`` (every key to its value): one of the keys it depends on holds one
    of its values, and that key applies too."""
    needs = opt.needs
    if needs is None:
        return True
    return any(values[k] in needs.values and needs_met_in(by_key[k], values, by_key) for k in needs.keys)


def _as_int(raw: object) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        digits = raw.strip().removeprefix("-")
        # ASCII digits only (str.isdigit also takes "²" and "①", which int() refuses), and few enough of them
        # that int() is quick: every integer option is far below 10**18.
        if 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit():
            return int(raw.strip())
    return None


def show(value: object) -> str:
    """A value as a message shows it (true/false, text cut short, a huge number named rather than printed)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return (value if len(value) <= 40 else value[:40] + "...") if value else '""'
    if isinstance(value, int) and value.bit_length() > 64:
        return "a number too large for any rule"
    return repr(value)[:40] if not isinstance(value, int) else str(value)
