"""Shared fixtures: a real `ratscrew play` server on loopback, and Debian's Chromium driven by Playwright.

The suite runs in several processes (pytest-xdist, ``scripts/test``): see CONTRIBUTING.md for what a test must
respect to run beside others.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

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
# Playwright's expect() gives up after 5 s by default, its waits after 30 s: a worker sharing two cores with
# two others and with Chromium can take longer than 5 s to see a page answer, so expect() waits as long.
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)
HANG_S = 300  # a game a test plays to a point, or a state it waits for, is there long before this


@dataclass
class Server:
    url: str
    data: Path
    process: subprocess.Popen[str]

    def get(self, path: str) -> tuple[int, Any]:
        """GET a JSON endpoint: the status and the decoded body (error bodies included)."""
        return self._call(urllib.request.Request(self.url.rstrip("/") + path))

    def post(self, path: str, body: object) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url.rstrip("/") + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        return self._call(request)

    @staticmethod
    def _call(request: urllib.request.Request) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout=20)


def start_server(data: Path) -> Server:
    """Start `ratscrew play` as a user would, on a free port, and wait for its address line."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ratscrew", "play", "--no-browser", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return serving(process, data)


def serving(process: subprocess.Popen[str], data: Path) -> Server:
    """The server ``process`` started, once it has printed its address line (killed, with its error, if not)."""
    assert process.stdout is not None
    first = process.stdout.readline().strip()
    prefix = "ratscrew: serving on "
    if not first.startswith(prefix):
        process.kill()
        raise RuntimeError(f"server did not start: {first!r} {process.stderr.read() if process.stderr else ''}")
    return Server(first[len(prefix) :], data, process)


WIDER_SCOPES = frozenset({"class", "module", "package"})


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the groups once to add them to node ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` the tests of one module that share a fixture wider than a test (a server,
    browser pages, a cluster) run in one worker, in their order, so that fixture is set up once; every other
    test goes to whichever worker is free."""
    for item in items:
        if isinstance(item, pytest.Function) and _shares_a_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__ if item.module else item.nodeid))


def pytest_collection_finish(session: pytest.Session) -> None:
    """In a worker under ``--dist loadgroup``, pytest-xdist keeps a group together only by adding it to the test's
    node id. If a pytest release stops that from taking (9.2 did), every worker sets the module's fixtures up
    again (servers, clusters, the wheel's build): stop at once rather than run the suite that way."""
    if not hasattr(session.config, "workerinput") or not session.config.getoption("loadgroup", False):
        return
    for item in session.items:
        marks = list(item.iter_markers("xdist_group"))
        if marks and "@" not in item.nodeid:
            why = (
                f"pytest-xdist could not group {item.nodeid} (pytest {pytest.__version__}): "
                "--dist loadgroup would set its module's fixtures up in every worker; pin pytest as pyproject.toml says"
            )
            print(why, file=sys.stderr)  # xdist reports a worker's error only as the test it was about to run
            raise pytest.UsageError(why)


def _shares_a_fixture(item: pytest.Function) -> bool:
    # pytest keeps the fixtures a test resolved to in _fixtureinfo; it has no public way to ask their scope.
    info: Any = item._fixtureinfo
    return any(d.scope in WIDER_SCOPES for defs in info.name2fixturedefs.values() for d in defs)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start_server(tmp_path_factory.mktemp("data"))
    try:
        yield server
    finally:
        server.stop()


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


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, launched once for every browser test (scripts/test installs it with apt)."""
    if not chromium_available():
        pytest.fail(f"Chromium is not at {CHROMIUM}: run scripts/test, which installs Debian's chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser, live_server: Server) -> Iterator[Page]:
    """The app in English in a fresh browser context; the test fails if the page's script raised an error."""
    opened, errors = open_page(browser, live_server.url)
    try:
        yield opened
    finally:
        opened.context.close()
    assert not errors, errors
