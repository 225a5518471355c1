#!/usr/bin/env python3
"""The live table's own timing, as a player feels it: from a key pressed to what it did on the screen.

A real ``ratscrew play`` server on loopback and Debian's Chromium play two on one screen (no network hold, no
computer players), driven by the keys. A script in the page notes the moment each key goes down (before the
app's own listener) and the first frame after its answer is on the page:

- flip to card: the Flip key, to the frame that first shows the new card on the pile;
- slap to verdict: the Slap key, to the frame that first shows that slap's verdict (its line in the feed,
  written in the same task as the banner).

It prints the median and the 90th percentile of each, in ms, with the number of samples.

Then the time a page takes to be ready when every request waits on the network: the game page (against the
computer) and the room page (its lobby) are opened in an empty browser, again and again, with Chromium's
network emulation adding a latency to every request (``--latency``, in ms), taking turns between two servers:
one sends the shell page with its module graph (the page's modules preloaded at once), the other as it is on
disk (``RATSCREW_NO_PRELOAD=1``: each level of imports found only when the one above has come). "Ready" is the
first moment the page shows what came from the room (the table's seats, the lobby's seats), from the start of
the navigation; "modules in", the moment the last of its modules had come. uvicorn speaks HTTP/1.1, so
Chromium asks it six things at a time: a graph fetched at once still comes in rounds of six.

The figures hold for this machine only: compare runs made on the same machine one after the other.

Usage: python bench/page_timing.py [--flips 80] [--slap-every 3] [--loads 5] [--latency 50 150]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Browser, Page, sync_playwright

from harness.browser import CHROMIUM, CHROMIUM_ARGS, open_page
from harness.page_weight import address
from harness.server import start_server

# Runs before the app's scripts. Keys: a and l flip, s and k slap (two on one screen).
PROBE = """
window.__timing = { flip: [], slap: [] };
let pending = null;
const topNumber = () => Number(document.querySelector('#pile .pile-card:last-of-type')?.dataset.number ?? 0);
const VERDICTS = ['kind-slap_correct', 'kind-wrong_slap', 'kind-slap_dismissed'];
const isVerdict = (node) => node instanceof Element && VERDICTS.some((kind) => node.classList.contains(kind));
document.addEventListener('keydown', (event) => {
  const key = event.key.toLowerCase();
  const t0 = performance.now();
  if (key === 'a' || key === 'l') pending = { kind: 'flip', t0, ref: topNumber() };
  if (key === 's' || key === 'k') pending = { kind: 'slap', t0 };
}, true);
new MutationObserver((records) => {
  if (!pending) return;
  const done = pending.kind === 'flip'
    ? topNumber() > pending.ref
    : records.some((record) => [...record.addedNodes].some(isVerdict));
  if (!done) return;
  const taken = pending;
  pending = null;
  requestAnimationFrame(() => window.__timing[taken.kind].push(performance.now() - taken.t0));
}).observe(document, { childList: true, subtree: true });
"""


def deal_two_on_one_screen(page: Page) -> None:
    page.check("input[name=mode][value=local]")
    while page.locator(".seat-row button.ghost").count():
        page.locator(".seat-row button.ghost").first.click()
    page.click("#start-game")
    page.wait_for_selector(".flip-button")


def count(page: Page, kind: str) -> int:
    return int(page.evaluate(f"window.__timing.{kind}.length"))


def play(page: Page, flips: int, slap_every: int) -> None:
    """Flip as the turn comes (the seat whose Flip button glows), slap now and then, each press waiting for
    its answer on the screen before the next."""
    done = 0
    while done < flips:
        # The turn comes, or the game ends (its summary shows a moment after the last card).
        page.wait_for_function(
            "document.querySelector('.flip-button.ready') || !document.querySelector('.overlay').hidden",
            timeout=10_000,
        )
        if page.locator(".overlay").is_visible():
            page.click("#play-again")
            page.wait_for_selector(".flip-button.ready")
        ready = page.locator(".flip-button.ready")
        key = "a" if ready.get_attribute("data-seat") == "0" else "l"
        before = count(page, "flip")
        page.keyboard.press(key)
        page.wait_for_function(f"window.__timing.flip.length > {before}", timeout=10_000)
        done += 1
        if done % slap_every == 0 and page.locator("#pile .pile-card").count():
            before = count(page, "slap")
            page.keyboard.press("s")
            page.wait_for_function(f"window.__timing.slap.length > {before}", timeout=10_000)
        page.wait_for_timeout(60)


def figures(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"{name:<16} median {statistics.median(ordered):6.1f} ms   p90 {p90:6.1f} ms   ({len(ordered)} samples)"


# What a page shows once the room has answered, and a script (before the app's) noting when it first does.
READY = {"game": "#table-seats .seat", "room": "#room-seats .room-seat-name"}
WATCH_READY = """
new MutationObserver((records, observer) => {
  if (document.body?.dataset.ready !== "true" || !document.querySelector(%s)) return;
  window.__readyAt = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true, attributes: true });
"""


# When the last of the page's modules had come, from the start of the navigation.
MODULES_IN = """Math.max(...performance.getEntriesByType("resource")
  .filter((entry) => entry.name.includes("/static/js/")).map((entry) => entry.responseEnd))"""


def load_once(browser: Browser, base: str, page: str, latency_ms: float) -> tuple[float, float]:
    """Open ``page`` in an empty browser with ``latency_ms`` added to every request; ms until its last module
    had come, and until it was ready."""
    hash_, stored = address(base, page)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(stored)})) localStorage.setItem(k, v)")
    context.add_init_script(WATCH_READY % json.dumps(READY[page]))
    tab = context.new_page()
    cdp = context.new_cdp_session(tab)
    cdp.send("Network.enable")
    conditions = {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", conditions)
    try:
        tab.goto(base + hash_)
        tab.wait_for_function("window.__readyAt !== undefined", timeout=60_000)
        return float(tab.evaluate(MODULES_IN)), float(tab.evaluate("window.__readyAt"))
    finally:
        context.close()


@contextlib.contextmanager
def two_servers() -> Iterator[tuple[str, str]]:
    """Two ``ratscrew play`` servers, each in its own process: one sending the shell page with its module
    graph, one sending it as it is on disk (RATSCREW_NO_PRELOAD=1); yields their addresses."""
    with tempfile.TemporaryDirectory() as data_on, tempfile.TemporaryDirectory() as data_off:
        on = start_server(Path(data_on))
        os.environ["RATSCREW_NO_PRELOAD"] = "1"
        try:
            off = start_server(Path(data_off))
        finally:
            del os.environ["RATSCREW_NO_PRELOAD"]
        try:
            yield on.url, off.url
        finally:
            on.stop()
            off.stop()


def load_figures(browser: Browser, loads: int, latencies: list[float]) -> list[str]:
    """The median and the slowest time to ready of each page at each latency, preloading on and off."""
    lines = []
    with two_servers() as (on, off):
        for latency in latencies:
            for page in READY:
                taken: dict[str, list[tuple[float, float]]] = {"preloaded": [], "as imported": []}
                for _ in range(loads):
                    taken["preloaded"].append(load_once(browser, on, page, latency))
                    taken["as imported"].append(load_once(browser, off, page, latency))
                for how, samples in taken.items():
                    modules = statistics.median(m for m, _ in samples)
                    ready = [r for _, r in samples]
                    lines.append(
                        f"{page:<5} {latency:>4g} ms latency  {how:<12} modules in: median {modules:5.0f} ms"
                        f"   ready: median {statistics.median(ready):5.0f} ms, slowest {max(ready):5.0f} ms"
                        f"   ({len(samples)} loads)"
                    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flips", type=int, default=80, help="cards to turn")
    parser.add_argument("--slap-every", type=int, default=3, help="slap after every so many cards")
    parser.add_argument("--loads", type=int, default=5, help="loads of each page at each latency (0: none)")
    parser.add_argument("--latency", type=float, nargs="+", default=[50.0, 150.0], help="latencies to add, in ms")
    args = parser.parse_args()
    if args.flips < 0 or args.slap_every < 1 or args.loads < 0 or min(args.latency) < 0:
        print(
            "page_timing: --flips and --loads must be at least 0, --slap-every at least 1, --latency not negative",
            file=sys.stderr,
        )
        return 2
    if args.flips:
        status = play_figures(args.flips, args.slap_every)
        if status:
            return status
    if args.loads:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                lines = load_figures(browser, args.loads, args.latency)
            finally:
                browser.close()
        print("\n".join(lines))
    return 0


def play_figures(flips: int, slap_every: int) -> int:
    """Play, print the flip and slap figures; 1 if the page raised an error."""
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = start_server(Path(data))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page, errors = open_page(browser, server.url)
            page.add_init_script(PROBE)
            page.reload()
            page.wait_for_selector("body[data-ready=true]")
            deal_two_on_one_screen(page)
            play(page, flips, slap_every)
            timing = page.evaluate("window.__timing")
            if errors:
                print(f"page_timing: the page raised {errors[0]}", file=sys.stderr)
                return 1
        finally:
            browser.close()
            server.stop()
    print(figures("flip to card", timing["flip"]))
    print(figures("slap to verdict", timing["slap"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
