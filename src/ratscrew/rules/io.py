"""Reading and writing rules: preset names, TOML and JSON files, ``--set key=value`` and mappings.

A rules document is a preset plus keys nested by section (``{"preset": "standard", "slaps": {"run": 4}}``);
dotted keys at the top level (``{"slaps.run": 4}``) are accepted too.

>>> rules = load_rules("bicycle", ["slapping.penalty_cards=2"])
>>> rules_from_mapping(rules_to_mapping(rules)) == rules
True
>>> rules_from_toml(rules_to_toml(rules)) == rules
True
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NewType

from ratscrew.errors import RulesError
from ratscrew.rules.model import Rules
from ratscrew.rules.options import OPTIONS, SECTIONS, Value, option
from ratscrew.rules.presets import PRESETS

# A rule set as a JSON document: the preset's name and one table per section, each option's value by name
# (``{"preset": "standard", "slaps": {"run": 4}}``). Its sections and options are the options' own
# (``rules/options.py``), so it has no fixed shape of its own.
RulesDoc = NewType("RulesDoc", dict[str, object])


def rules_from_mapping(doc: object, *, where: str = "rules") -> Rules:
    """Rules from a parsed document: a preset name, or an object with ``preset`` and section tables."""
    if isinstance(doc, str):
        return Rules.build(doc)
    if not isinstance(doc, Mapping):
        raise RulesError(f"{where} must be a preset name or an object of rules keys, got {type(doc).__name__}")
    preset = doc.get("preset", "standard")
    if not isinstance(preset, str):
        raise RulesError(f"{where}: preset must be a name, one of {', '.join(PRESETS)}")
    changes: dict[str, object] = {}
    for key, value in doc.items():
        if key == "preset":
            continue
        if not isinstance(key, str):
            raise RulesError(f"{where}: keys must be text")
        if key in SECTIONS and isinstance(value, Mapping):
            for name, item in value.items():
                changes[f"{key}.{name}"] = item
        elif key in SECTIONS:
            raise RulesError(
                f"{where}: [{key}] must be a table of keys such as "
                f"{', '.join(o.key for o in OPTIONS if o.section == key)}"
            )
        else:
            changes[key] = value
    for key in changes:
        option(key)  # names an unknown key before any value is looked at
    return Rules.build(preset, changes)


def rules_to_mapping(rules: Rules, *, full: bool = False) -> RulesDoc:
    """The preset plus every key that differs from it (or every key with ``full``), nested by section."""
    values = rules.values() if full else rules.changes_from_preset()
    doc: dict[str, object] = {"preset": rules.preset}
    for key, value in values.items():
        section, name = key.split(".", 1)
        table = doc.setdefault(section, {})
        assert isinstance(table, dict)
        table[name] = value
    return RulesDoc(doc)


def rules_to_toml(rules: Rules) -> str:
    """Every key with its value, as a TOML file that loads back to the same rules, one comment per key."""
    lines = [f'preset = "{rules.preset}"']
    for section in SECTIONS:
        lines += ["", f"[{section}]"]
        for opt in (o for o in OPTIONS if o.section == section):
            lines.append(f"{opt.name} = {_toml_value(rules.get(opt.key))}  # {opt.summary}")
    return "\n".join(lines) + "\n"


def rules_from_toml(text: str, *, where: str = "rules file") -> Rules:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(
            f"{where} is not valid TOML ({exc}): expected a file like the one `ratscrew rules show` prints"
        ) from None
    except ValueError:  # Python refuses to read an integer of more than 4,300 digits
        raise RulesError(f"{where} holds a number of more than 4300 digits: no rule takes a number that long") from None
    return rules_from_mapping(doc, where=where)


def parse_set(assignments: Iterable[str]) -> dict[str, str]:
    """``key=value`` strings from ``--set``, checked for shape (values are checked by the rules)."""
    changes: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--set {item!r} is not key=value: expected e.g. --set slaps.run=4")
        option(key.strip())
        changes[key.strip()] = value.strip()
    return changes


def load_rules(name_or_file: str | None = None, sets: Iterable[str] = ()) -> Rules:
    """What ``--rules`` and ``--set`` mean: a preset name or a TOML/JSON file, then each change."""
    base = Rules.build("standard") if name_or_file is None else _load_base(name_or_file)
    changes = parse_set(sets)
    return base.with_changes(changes) if changes else base


def _load_base(name_or_file: str) -> Rules:
    if name_or_file.strip().lower() in PRESETS:
        return Rules.build(name_or_file)
    path = Path(name_or_file)
    if not path.is_file():
        raise RulesError(
            f"--rules {name_or_file!r} is neither a preset ({', '.join(PRESETS)}) nor a readable TOML or JSON file"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"cannot read rules file {name_or_file}: {exc}") from None
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesError(
                f"rules file {name_or_file} is not valid JSON ({exc.msg} at line {exc.lineno}): "
                'expected e.g. {"preset": "standard", "slaps": {"run": 4}}'
            ) from None
        except ValueError:  # see rules_from_toml
            raise RulesError(
                f"rules file {name_or_file} holds a number of more than 4300 digits: no rule takes a number that long"
            ) from None
        return rules_from_mapping(doc, where=f"rules file {name_or_file}")
    return rules_from_toml(text, where=f"rules file {name_or_file}")


def _toml_value(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value)
