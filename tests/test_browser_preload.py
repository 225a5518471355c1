"""Every page fetches its whole module graph at once (Chromium, the app in this process).

The shell page preloads its script's modules, and the script preloads a page's modules (from the graph the
server read from the import statements, web/modules.py) before it imports the page. So no module may be
fetched because another module's import statement asked for it: Chromium names what started each request
(the page's HTML, a script adding a preload, or the module whose imports were being fetched), and an import
that came before its preload, or a module the graph missed, shows as fetched by its importer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from harness.page_weight import address, serving

PAGES = ("play", "game", "room", "learn", "drills", "scores", "history", "replay")
SCRIPTS = "/static/js/"
PRELOADED = """() => [...document.querySelectorAll('link[rel=modulepreload]')]
  .map((link) => new URL(link.href).pathname.slice("/static/js/".length))"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(Path(tmp_path_factory.mktemp("preload"))) as url:
        yield url


def fetched_modules(
    browser: Browser, base: str, hash_: str, stored: dict[str, str], then: str | None = None
) -> dict[str, str]:
    """The modules a fresh browser fetched to show ``hash_`` (and then ``then``), each with the module whose
    import asked for it ("" when none did), once the page is ready (its page module has rendered). The page's script
    errors fail the test, and so does a module fetched but not preloaded."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(stored)})) localStorage.setItem(k, v)")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    cdp = context.new_cdp_session(tab)
    cdp.send("Network.enable")
    modules: dict[str, str] = {}

    def sent(event: dict[str, Any]) -> None:
        url: str = event["request"]["url"]
        if SCRIPTS in url:
            by: str = event["initiator"].get("url", "")
            modules[url.split(SCRIPTS, 1)[1]] = by.split(SCRIPTS, 1)[1] if SCRIPTS in by else ""

    cdp.on("Network.requestWillBeSent", sent)
    try:
        tab.goto(base + hash_)
        tab.wait_for_selector("body[data-ready=true]")
        if then is not None:
            tab.evaluate(f"location.hash = {json.dumps(then)}")
            tab.wait_for_function(
                f"document.querySelector('[data-nav][aria-current=page]')?.dataset.nav === {json.dumps(then[2:])}"
            )
            tab.wait_for_selector("body[data-ready=true]")
        preloaded = set(tab.evaluate(PRELOADED))
    finally:
        context.close()
    assert not errors, errors
    assert set(modules) - {"app.js"} <= preloaded, set(modules) - preloaded
    return modules


@pytest.mark.parametrize("page", PAGES)
def test_every_module_of_a_first_page_comes_from_a_preload(browser: Browser, base: str, page: str) -> None:
    # The replay viewer of a game the server does not have still loads the viewer (which then says so).
    hash_, stored = ("#/replay/nosuchgame", {}) if page == "replay" else address(base, page)
    modules = fetched_modules(browser, base, hash_, stored)
    assert {"app.js", "i18n.js", "dom.js", f"pages/{'setup' if page == 'play' else page}.js"} <= set(modules)
    imported = {name: by for name, by in modules.items() if by}
    assert imported == {}, f"{page}: fetched when the module named asked for it, not by a preload: {imported}"


def test_a_page_reached_from_another_is_preloaded_too(browser: Browser, base: str) -> None:
    modules = fetched_modules(browser, base, "#/learn", {}, then="#/history")
    assert {"pages/learn.js", "pages/history.js", "played.js"} <= set(modules)
    imported = {name: by for name, by in modules.items() if by}
    assert imported == {}, f"fetched when the module named asked for it, not by a preload: {imported}"
