"""Every catalogue, every language: the same keys in the same file, with the same placeholders."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from ratscrew.i18n import LANGUAGES, catalog

PLACEHOLDER = re.compile(r"\{(\w+)\}")
FOLDER = resources.files("ratscrew.i18n")
FILES = sorted(item.name for item in FOLDER.joinpath("en").iterdir() if item.name.endswith(".json"))
# English option and preset texts live beside their definitions (ratscrew.rules) and are merged into the
# English catalogue; French and German keep theirs in rules.json.
GENERATED = ("option.", "preset.")


def file_texts(lang: str, name: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads(FOLDER.joinpath(lang, name).read_text(encoding="utf-8"))
    return texts


def english_texts(name: str) -> dict[str, str]:
    texts = file_texts("en", name)
    if name == "rules.json":
        english = catalog("en")
        texts |= {k: v for k, v in english.items() if k.startswith(GENERATED) and not k.endswith(".name")}
    return texts


def test_every_language_has_the_same_catalogue_files() -> None:
    assert "access.json" in FILES and "rules.json" in FILES
    for lang in LANGUAGES:
        names = sorted(i.name for i in FOLDER.joinpath(lang).iterdir() if i.name.endswith(".json"))
        assert names == FILES, lang


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("name", FILES)
def test_keys_and_placeholders_match_english_both_ways(lang: str, name: str) -> None:
    english, other = english_texts(name), file_texts(lang, name)
    assert not sorted(set(english) - set(other)), f"{lang}/{name} lacks {sorted(set(english) - set(other))}"
    assert not sorted(set(other) - set(english)), f"{lang}/{name} has extra {sorted(set(other) - set(english))}"
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (lang, name, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_key_is_in_two_files(lang: str) -> None:
    seen: dict[str, str] = {}
    for name in FILES:
        for key in file_texts(lang, name):
            assert key not in seen, f"{lang}: {key} is in {seen[key]} and {name}"
            seen[key] = name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_has_a_letter_in_every_language(lang: str) -> None:
    texts = catalog(lang)
    for rank in "23456789TJQKA":
        assert texts[f"card.letter.{rank}"].strip(), (lang, rank)


def test_french_elides_before_a_vowel_and_german_says_with_in_the_dative() -> None:
    from ratscrew.i18n import text, text_count

    assert text("fr", "access.say.turn", name="Ordinateur 2") == "Au tour d'Ordinateur 2."
    assert text("fr", "access.say.turn", name="Bob") == "Au tour de Bob."
    assert text("en", "access.say.turn", name="Ordinateur 2") == "Ordinateur 2's turn."  # French only
    wins = text_count("de", "scores.with_wins_n", 2)
    assert text("de", "scores.standing.leads", name="Ann", wins=wins) == "Ann führt mit 2 Siegen."
