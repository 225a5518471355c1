"""The texts of the accessibility work (access.json): the same keys and placeholders in every language."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from ratscrew.i18n import LANGUAGES, catalog

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def access_catalog(lang: str) -> dict[str, str]:
    path = resources.files("ratscrew.i18n").joinpath(lang, "access.json")
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return texts


def test_access_catalogs_have_the_same_keys_and_placeholders_in_every_language() -> None:
    english = access_catalog("en")
    for lang in LANGUAGES:
        other = access_catalog(lang)
        assert set(other) == set(english), f"{lang}/access.json: {set(english) ^ set(other)}"
        for key, text in english.items():
            assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (lang, key)
            assert other[key].strip(), (lang, key)
            assert catalog(lang)[key] == other[key], (lang, key)  # no other file overrides it


STATIC = Path(str(resources.files("ratscrew.web").joinpath("static", "js")))
TABLE_PARTS = tuple(f"table/{path.name}" for path in sorted((STATIC / "table").glob("*.js")))
SCRIPTS = (
    "app.js",
    "table.js",
    *TABLE_PARTS,
    "sound.js",
    "format.js",
    "rules-form.js",
    "pages/game.js",
    "pages/setup.js",
)


def test_every_key_the_scripts_ask_for_is_there() -> None:
    for lang in LANGUAGES:
        texts = catalog(lang)
        for name in SCRIPTS:
            path = STATIC / name
            if not path.exists():
                continue
            source = path.read_text(encoding="utf-8")
            # Every literal key (a counted one is looked up by its plural forms, `.other` always there).
            for key in re.findall(r"[\"`]((?:access|app\.not_found)\.[\w.-]*\w)[\"`]", source):
                assert key in texts or f"{key}.other" in texts, f"{name} uses {key}, missing in {lang}"


def test_french_and_german_rule_texts_never_show_a_raw_choice_value() -> None:
    from ratscrew.rules import OPTIONS

    raw = {str(c) for o in OPTIONS for c in (getattr(o, "choices", None) or ()) if "-" in str(c)}
    assert "ace-one" in raw
    for lang in ("fr", "de"):
        for key, text in catalog(lang).items():
            if key.startswith(("option.", "choice.", "preset.")):
                shown = [value for value in raw if value in text]
                assert not shown, f"{lang} {key} shows {shown}: {text}"
