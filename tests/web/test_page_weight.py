"""A first visit to each page stays small: its own style sheets and one catalog, in the page's language only
(``harness/page_weight.py`` counts the bytes; ``bench/page_weight.py`` prints every page in every language)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from harness.page_weight import BUDGET, PAGES, serving, weigh
from ratscrew.i18n import LANGUAGES, catalog

# The style sheets each page needs besides base.css (which the shell links).
SHEETS = {
    "play": {"setup", "room"},
    "game": {"table", "room"},
    "room": {"table", "setup", "room"},
    "learn": {"learn"},
    "drills": {"learn"},
    "scores": {"scores"},
    "history": {"history"},
}

# The parts of the catalog a page fetches as it opens, besides the words every page gets.
PARTS = {"learn": ["api/i18n/{lang}/learn"], "drills": ["api/i18n/{lang}/learn"]}


def test_every_language_has_every_key() -> None:
    """The pages fetch only their own language's catalog, so none may lack a key English has."""
    english = set(catalog("en"))
    for lang in LANGUAGES:
        assert set(catalog(lang)) == english, lang


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(Path(tmp_path_factory.mktemp("weight"))) as url:
        yield url


@pytest.mark.parametrize("page", PAGES)
def test_a_first_visit_loads_only_what_the_page_needs(browser: Browser, base: str, page: str) -> None:
    lang = "fr" if PAGES.index(page) % 2 else "de"
    weight = weigh(browser, base, page, lang)
    assert weight.bytes <= BUDGET, f"{page} {lang}: {weight.bytes} bytes: {weight.by_url}"
    assert weight.fcp_ms > 0 and weight.tbt_ms >= 0  # the page painted, and its timing was read
    catalogs = sorted(url for url in weight.by_url if url.startswith("api/i18n/"))
    # Once, not the English one as well, and the Learn pages' words only on those pages.
    assert catalogs == [f"api/i18n/{lang}", *(part.format(lang=lang) for part in PARTS.get(page, []))], catalogs
    sheets = {url.removeprefix("static/css/").removesuffix(".css") for url in weight.by_url if url.endswith(".css")}
    assert sheets == SHEETS[page] | {"base"}, sheets
