"""Every house rule the engine knows, as a table: its key, allowed values, default and meaning.

The options are declared once, as the fields of the rules' sections (``rules/sections.py``); this table is read
from those declarations, and the rules value, the ``ratscrew rules`` command, the settings panels and the rules
pages are built from it, so none of them can disagree with the engine.
"""

from __future__ import annotations

from collections.abc import Mapping

from ratscrew.errors import RulesError
from ratscrew.rules.option import Needs, Option, Value, needs_met_in, options_of, show
from ratscrew.rules.sections import LOCKING, PAYING, SECTION_TYPES, TABLE_SECTIONS

__all__ = [
    "LOCKING",
    "OPTIONS",
    "OPTIONS_BY_KEY",
    "PAYING",
    "SECTIONS",
    "TABLE_SECTIONS",
    "Needs",
    "Option",
    "Value",
    "check_needs",
    "needs_met",
    "option",
]

OPTIONS: tuple[Option, ...] = tuple(opt for name, cls in SECTION_TYPES for opt in options_of(name, cls))
OPTIONS_BY_KEY: dict[str, Option] = {o.key: o for o in OPTIONS}
SECTIONS: tuple[str, ...] = tuple(name for name, _ in SECTION_TYPES)


def _check_declarations() -> None:
    """A needs that names no key, or a table section that is not one, is a mistake in the declarations."""
    for opt in OPTIONS:
        if opt.needs is not None:
            unknown = [k for k in opt.needs.keys if k not in OPTIONS_BY_KEY]
            if unknown:
                raise TypeError(f"{opt.key} needs {unknown[0]}, which is no rules key")
    table = {o.section for o in OPTIONS if o.table}
    if set(TABLE_SECTIONS) != table:
        raise TypeError(f"TABLE_SECTIONS lists {TABLE_SECTIONS}; the sections with table options are {sorted(table)}")


_check_declarations()


def needs_met(opt: Option, values: Mapping[str, Value]) -> bool:
    """Whether ``opt`` applies under ``values`` (every key to its value): what it depends on is set so."""
    return needs_met_in(opt, values, OPTIONS_BY_KEY)


def check_needs(values: Mapping[str, Value]) -> None:
    """Refuse a rule set that turns on an option which could never apply (``slaps.ten_gap`` without a ten)."""
    for opt in OPTIONS:
        needs = opt.needs
        if needs is None or needs.off is None or needs_met(opt, values) or values[opt.key] == needs.off:
            continue
        wanted = " or ".join(show(v) for v in needs.values)
        raise RulesError(
            f"{opt.key} needs {needs.key} on ({wanted}): set {needs.key} to {wanted}, or {opt.key} to {show(needs.off)}"
        )


def option(key: str) -> Option:
    """The option for a key such as ``slaps.run``; an unknown key is an error that lists the known ones."""
    found = OPTIONS_BY_KEY.get(key)
    if found is None:
        raise RulesError(f"unknown rules key {key!r}: known keys are {', '.join(OPTIONS_BY_KEY)}")
    return found
