"""Translations: English, French and German message catalogs, one JSON file per area and language.

The browser asks for a language's catalog (``/api/i18n/fr``) without the parts only some pages need: the
Learn and drills pages (and the profile, which names drills) fetch ``learn`` as they open
(``/api/i18n/fr/learn``), and the terminal's own words never go to a page (``page_catalog``). The server
uses the same catalogs for the rules pages, so a rule is explained in the same words everywhere. Rule options,
presets and patterns are looked up by their keys (``option.slaps.run``), so a new option without a translation
fails a test.

The player is spoken to, not about: a line about the page's own seat has a ``.you`` form ("You owe 3 to
Computer 2", ``game.status.owes_cards.you``). French says *vous* everywhere, never *tu*: the pages are read by
strangers who meet in online rooms and by adults at a shared table, the rules and the lessons (the longest
texts) already said *vous*, and *vous* is what French card sites use with their players; buttons use the
infinitive ("Retourner") or the *vous* imperative ("Tapez !"). German says *du*, as German card apps do (and
*ihr* to a table of several in the score keeper). ``tests/web/test_table_words.py`` holds both.

French typography puts a no-break space (U+00A0) before : ; ! ? » and after «, with the straight apostrophe the
elision inserts; each concept has one word per language (tape à tort, tas, défi, total de dix, carte désignée;
Klatscher, Stapel, Herausforderung, Zehnersumme, Wunschkarte, Kartenspiel, Partie). ``tests/web/test_catalog_words.py``
lists the synonyms each language left behind.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources

from ratscrew.rules import OPTIONS, PRESETS  # their English texts are written beside them

LANGUAGES: tuple[str, ...] = ("en", "fr", "de")
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}
DEFAULT = "en"


PAGE_PARTS: dict[str, str] = {"learn": "learn.json"}  # a part a page fetches as it opens: its file
TERMINAL_ONLY = "tui.json"


def page_catalog(lang: str, part: str | None = None) -> dict[str, str]:
    """What a page fetches: the catalog without the parts (or one part, by name) and never the terminal's."""
    lang = lang if lang in LANGUAGES else DEFAULT
    if part is not None:
        return _file(lang, PAGE_PARTS[part])
    left_out: set[str] = set()
    for name in (*PAGE_PARTS.values(), TERMINAL_ONLY):
        left_out.update(_file(lang, name))
    return {key: value for key, value in catalog(lang).items() if key not in left_out}


@cache
def _file(lang: str, name: str) -> dict[str, str]:
    found: dict[str, str] = json.loads(resources.files("ratscrew.i18n").joinpath(lang, name).read_text("utf-8"))
    return found


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every message of one language (unknown languages get English)."""
    lang = lang if lang in LANGUAGES else DEFAULT
    merged: dict[str, str] = {}
    folder = resources.files("ratscrew.i18n").joinpath(lang)
    if lang == DEFAULT:
        merged.update(_rules_english())
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".json"):
            merged.update(json.loads(item.read_text(encoding="utf-8")))
    return merged


def _rules_english() -> dict[str, str]:
    """The English texts of options and presets live beside their definitions; the other languages here."""
    texts = {f"option.{o.key}": o.summary for o in OPTIONS}
    texts.update({f"preset.{p.name}": p.summary for p in PRESETS.values()})
    return texts


_recorders: list[set[str]] = []


@contextmanager
def recording() -> Iterator[set[str]]:
    """Every key looked up while it lasts (a count's ``.one`` and ``.other`` both): the tests check that each
    key a page asks for exists in every language, since ``text`` would quietly fall back to English."""
    seen: set[str] = set()
    _recorders.append(seen)
    try:
        yield seen
    finally:
        _recorders.remove(seen)


def text(lang: str, key: str, **values: object) -> str:
    """One message with ``{name}`` placeholders filled; falls back to English, then to the key itself."""
    for seen in _recorders:
        seen.add(key)
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key) or key
    if lang == "fr":
        template = _elide(template, values)
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return template


_ELIDES = re.compile(r"(?<![^\W\d_'])([DdQqLlJj]e|[Qq]ue) \{(\w+)\}")
_VOWEL = re.compile(r"[aeiouyàâäéèêëîïôöûüAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜ]")


def _elide(template: str, values: dict[str, object]) -> str:
    """French elides "de", "que", "le"... before a vowel: ``de {name}`` with "Ordinateur 2" reads "d'Ordinateur 2".

    >>> _elide("Au tour de {name}.", {"name": "Ordinateur 2"}), _elide("Au tour de {name}.", {"name": "Bob"})
    ("Au tour d'{name}.", 'Au tour de {name}.')
    """

    def one(match: re.Match[str]) -> str:
        word, name = match.group(1), match.group(2)
        value = values.get(name)
        return f"{word[:-1]}'{{{name}}}" if value is not None and _VOWEL.match(str(value)) else match.group(0)

    return _ELIDES.sub(one, template)


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an ``Accept-Language`` header (``fr-CH,fr;q=0.9,en;q=0.8``)."""
    best, best_q = DEFAULT, -1.0
    for part in (accept_language or "").split(","):
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().lower().split("-")[0]
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


def plural(lang: str, n: int) -> str:
    """The CLDR plural category of a whole number, as ``Intl.PluralRules`` names it in the page.

    English and German: ``one`` for 1 only. French: ``one`` for 0 and 1 (CLDR: i = 0,1). Every other number
    (and every other language) is ``other``; the catalogs hold a ``.one`` and an ``.other`` text for each count.

    >>> [plural("fr", n) for n in (0, 1, 2)], [plural("en", n) for n in (0, 1, 2)]
    (['one', 'one', 'other'], ['other', 'one', 'other'])
    """
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


def text_count(lang: str, key: str, n: int, **values: object) -> str:
    """``key.one`` or ``key.other`` by the plural category of ``n``, with ``{n}`` filled in."""
    for seen in _recorders:
        seen.update((f"{key}.one", f"{key}.other"))
    return text(lang, f"{key}.{plural(lang, n)}", n=n, **values)
