"""What each page costs a first-time visitor: the bytes the browser receives over the wire (compressed, headers
included, as the network panel counts them) until the page has drawn everything it fetched.

The app runs in this process (uvicorn in a thread, on a free loopback port); Debian's Chromium loads each page
in a fresh browser context, so nothing comes from its cache. Shared by ``bench/page_weight.py`` (prints the
table) and ``tests/test_page_weight.py`` (holds each page to the budget).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Browser

from ratscrew.web.app import create_app

BUDGET = 150 * 1024
LANGS = ("en", "fr", "de")
PAGES = ("play", "game", "room", "learn", "drills", "scores", "history")


@dataclass
class Weight:
    page: str
    lang: str
    bytes: int = 0
    requests: int = 0
    by_url: dict[str, int] = field(default_factory=dict)
    fcp_ms: float = 0.0  # first contentful paint, from the start of navigation
    tbt_ms: float = 0.0  # total blocking time: each long task's time past 50 ms, from first paint until ready
    cpu_slowdown: float = 1.0  # the CPU throttling the figures were taken under (Lighthouse's phone: 4)


@contextlib.contextmanager
def serving(data: Path) -> Iterator[str]:
    """The app on a free loopback port, in a thread of this process; yields its address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(data), log_level="warning", lifespan="on", ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the app did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def post(url: str, body: object) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def address(base: str, page: str) -> tuple[str, dict[str, str]]:
    """The hash of a page, and what this browser must hold in localStorage to see it as a player would."""
    if page == "game":
        seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "easy"} for _ in range(3)]
        game = post(base + "api/games", {"seats": seats, "bot_pace": 4})
        return f"#/game/{game['id']}", {f"ratscrew.seat.{game['id']}": game["token"]}
    if page == "room":
        room = post(base + "api/rooms", {"seats": 4, "name": "Ana"})
        return f"#/room/{room['code']}", {f"ratscrew.seat.{room['code']}": room["token"]}
    return {"play": "#/"}.get(page, f"#/{page}"), {}


# Long tasks are reported to observers made before they happen: one is made before any script of the page runs.
WATCH_LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const task of list.getEntries()) window.__longTasks.push([task.startTime, task.duration]);
}).observe({ type: "longtask", buffered: true });
"""

PAINT_AND_BLOCKING = """() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const fcp = paint ? paint.startTime : 0;
  const blocking = window.__longTasks.filter(([start]) => start >= fcp)
    .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
  return [fcp, blocking];
}"""


def weigh(browser: Browser, base: str, page: str, lang: str, cpu_slowdown: float = 1.0) -> Weight:
    """Load one page in one language into an empty browser and count what came over the wire, and how soon it
    painted and how long its scripts blocked the page, with the CPU slowed down ``cpu_slowdown`` times."""
    hash_, stored = address(base, page)
    stored["ratscrew.lang"] = lang
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(stored)})) localStorage.setItem(k, v)")
    context.add_init_script(WATCH_LONG_TASKS)
    tab = context.new_page()
    cdp = context.new_cdp_session(tab)
    cdp.send("Network.enable")
    if cpu_slowdown > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
    urls: dict[str, str] = {}
    weight = Weight(page, lang, cpu_slowdown=cpu_slowdown)

    def responded(event: dict[str, Any]) -> None:
        urls[event["requestId"]] = event["response"]["url"]

    def finished(event: dict[str, Any]) -> None:
        url = urls.get(event["requestId"], "?").removeprefix(base)
        weight.bytes += int(event["encodedDataLength"])
        weight.requests += 1
        weight.by_url[url] = weight.by_url.get(url, 0) + int(event["encodedDataLength"])

    cdp.on("Network.responseReceived", responded)
    cdp.on("Network.loadingFinished", finished)
    try:
        tab.goto(base + hash_)
        tab.wait_for_selector("body[data-ready=true]")
        tab.wait_for_load_state("networkidle")
        tab.wait_for_timeout(200)
        weight.fcp_ms, weight.tbt_ms = tab.evaluate(PAINT_AND_BLOCKING)
    finally:
        context.close()
    return weight


def weigh_all(browser: Browser, data: Path, pages: tuple[str, ...] = PAGES, cpu_slowdown: float = 1.0) -> list[Weight]:
    with serving(data) as base:
        return [weigh(browser, base, page, lang, cpu_slowdown) for page in pages for lang in LANGS]
