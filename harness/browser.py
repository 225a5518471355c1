"""Debian's Chromium, driven by Playwright: how it is launched, a page opened on the app, and what the app's
pages are checked for (script errors, what axe-core finds)."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

CHROMIUM = os.environ.get("RATSCREW_CHROMIUM", "/usr/bin/chromium")


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


SCREENSHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"


WAIT_MS = 30_000


HANG_S = 300  # a game a test plays to a point, or a state it waits for, is there long before this


def chromium_available() -> bool:
    return shutil.which(CHROMIUM) is not None or Path(CHROMIUM).is_file()


def until(
    page: Page, done: Callable[[], bool], what: str, *, act: Callable[[], object] | None = None, every_ms: int = 80
) -> None:
    """Look at the page until ``done()``, doing ``act()`` (a player's move) and waiting ``every_ms`` between
    looks. The bound is on real time, not on the number of looks, and only a hang reaches it: on a loaded
    machine each look takes longer, and the game's own timers run on real time regardless."""
    deadline = time.monotonic() + HANG_S
    while not done():
        assert time.monotonic() < deadline, f"{what}: not within {HANG_S} s"
        if act is not None:
            act()
        page.wait_for_timeout(every_ms)


def open_page(
    browser: Browser, url: str, *, lang: str | None = "en", width: int = 1280, height: int = 860, touch: bool = False
) -> tuple[Page, list[str]]:
    """A fresh browser context (a phone with ``touch``) showing ``url`` once the app is ready, and the list the
    page's script errors are collected in. ``lang`` is the language kept in the browser (None: the browser's
    own, English here); it is set again on every load."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="en-GB", has_touch=touch, is_mobile=touch
    )
    if lang is not None:
        context.add_init_script(f"localStorage.setItem('ratscrew.lang', {json.dumps(lang)})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return page, errors


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds on the page as it is now, serious or critical only: the rule, and where."""
    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical"):
            where = [node["target"] for node in violation["nodes"]][:4]
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {where}")
    return found
