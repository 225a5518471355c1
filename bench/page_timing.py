#!/usr/bin/env python3
"""The live table's own timing, as a player feels it: from a key pressed to what it did on the screen.

A real ``ratscrew play`` server on loopback and Debian's Chromium play two on one screen (no network hold, no
computer players), driven by the keys. A script in the page notes the moment each key goes down (before the
app's own listener) and the first frame after its answer is on the page:

- flip to card: the Flip key, to the frame that first shows the new card on the pile;
- slap to verdict: the Slap key, to the frame that first shows that slap's verdict (its line in the feed,
  written in the same task as the banner).

It prints the median and the 90th percentile of each, in ms, with the number of samples. The figures hold for
this machine only: compare two runs made on the same machine one after the other (before and after a change).

Usage: python bench/page_timing.py [--flips 80] [--slap-every 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Page, sync_playwright
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, open_page, start_server

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flips", type=int, default=80, help="cards to turn")
    parser.add_argument("--slap-every", type=int, default=3, help="slap after every so many cards")
    args = parser.parse_args()
    if args.flips < 1 or args.slap_every < 1:
        print("page_timing: --flips and --slap-every must be at least 1", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = start_server(Path(data))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page, errors = open_page(browser, server.url)
            page.add_init_script(PROBE)
            page.reload()
            page.wait_for_selector("body[data-ready=true]")
            deal_two_on_one_screen(page)
            play(page, args.flips, args.slap_every)
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
