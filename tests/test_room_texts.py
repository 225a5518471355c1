"""The online room's texts: the same keys in English, French and German, and every key the pages ask for."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from ratscrew.i18n import LANGUAGES, catalog
from ratscrew.rooms.core import Phase, Refusal
from ratscrew.rooms.wire import Reaction
from ratscrew.table.table import RejectCode

STATIC = Path(str(resources.files("ratscrew.web").joinpath("static", "js")))
# The table's and the room page's modules, each split into parts under a folder of its name.
PARTS = tuple(
    path.relative_to(STATIC).as_posix()
    for folder in ("table", "pages/room")
    for path in sorted((STATIC / folder).glob("*.js"))
)
SCRIPTS = (
    "pages/room.js",
    "pages/setup.js",
    "pages/game.js",
    "table.js",
    *PARTS,
    "connection.js",
    "rules-form.js",
)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def room_catalog(lang: str) -> dict[str, str]:
    path = resources.files("ratscrew.i18n").joinpath(lang, "room.json")
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return texts


def test_room_catalogs_have_the_same_keys_and_placeholders_in_every_language() -> None:
    english = room_catalog("en")
    assert all(k.startswith(("room.", "online.")) for k in english)
    for lang in ("fr", "de"):
        other = room_catalog(lang)
        assert set(other) == set(english), f"{lang}/room.json: missing {set(english) - set(other)}"
        for key, text in english.items():
            assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (lang, key)
            assert other[key].strip(), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_room_scripts_ask_for_is_there(lang: str) -> None:
    texts = catalog(lang)
    for name in SCRIPTS:
        source = (STATIC / name).read_text(encoding="utf-8")
        for key in re.findall(r"[\"`]((?:room|online|game|setup)\.[a-z_.]+[a-z])[\"`]", source):
            # (a counted key is looked up by its plural forms, `.other` always there)
            assert key in texts or f"{key}.other" in texts, f"{name} uses {key}, missing in {lang}"
    # Keys built from a code the server sends: every code it can send has its text.
    for refusal in Refusal:
        assert f"room.rejected.{refusal.value}" in texts
    for reject in RejectCode:
        assert f"game.rejected.{reject.value}" in texts
    for phase in Phase:
        assert f"room.phase.{phase.value}" in texts
    for reaction in Reaction:
        assert f"room.react.{reaction.value}" in texts
    for verdict in ("slap_correct", "wrong_slap", "slap_dismissed"):
        assert f"room.verdict.{verdict}" in texts
