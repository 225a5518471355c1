"""Shared fixtures: a real `ratscrew play` server on loopback, and Debian's Chromium driven by Playwright.

The suite runs in several processes (pytest-xdist, ``scripts/test``): see CONTRIBUTING.md for what a test must
respect to run beside others.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from harness.browser import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, chromium_available, open_page
from harness.server import Server, start_server

# Playwright's expect() gives up after 5 s by default, its waits after 30 s: a worker sharing two cores with
# two others and with Chromium can take longer than 5 s to see a page answer, so expect() waits as long.
expect.set_options(timeout=WAIT_MS)


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
