"""The tables of docs/rules.md, written from the option and preset definitions: tests/test_docs.py checks that
the page holds exactly these lines, so a key added to the rules without its line there fails the suite (the
message prints the missing line, ready to paste)."""

from __future__ import annotations

from ratscrew.rules import OPTIONS, PRESETS
from ratscrew.rules.options import Option, Value

OPTIONS_HEADER = ("| key | default | allowed | meaning |", "|---|---|---|---|")
PRESETS_HEADER = ("| preset | in short | changes from the defaults |", "|---|---|---|")


def shown(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_line(opt: Option) -> str:
    meaning = opt.summary
    if opt.needs is not None:
        wanted = " or ".join(shown(v) for v in opt.needs.values)
        keys = " or ".join(f"`{key}`" for key in opt.needs.keys)
        meaning += f"; only with {keys} = {wanted}"
    return f"| `{opt.key}` | {shown(opt.default)} | {opt.allowed_text()} | {meaning} |"


def option_lines() -> list[str]:
    return [*OPTIONS_HEADER, *(option_line(o) for o in OPTIONS)]


def preset_lines() -> list[str]:
    lines = list(PRESETS_HEADER)
    for preset in PRESETS.values():
        changes = ", ".join(f"`{key}` = {shown(value)}" for key, value in preset.changes) or "none"
        lines.append(f"| `{preset.name}` | {preset.summary} | {changes} |")
    return lines
