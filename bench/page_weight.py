#!/usr/bin/env python3
"""Page weight: the bytes a first visit to each page costs, per language, as the browser receives them (gzip
on, headers included), with the app served in this process and Debian's Chromium loading each page into an
empty browser (``harness/page_weight.py`` does the counting). The budget is 150 KB a page. With the pages
loaded under a CPU slowed down four times (``--cpu-slowdown``, as Lighthouse's phone), it also prints each
page's first contentful paint and total blocking time (long tasks past 50 ms, from that paint until the page
is ready), both in ms.

Usage: python bench/page_weight.py [--files] [--json] [--cpu-slowdown 4]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright

from harness.browser import CHROMIUM, CHROMIUM_ARGS
from harness.page_weight import BUDGET, LANGS, PAGES, weigh_all


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", action="store_true", help="also list each file a page loaded and its bytes")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--cpu-slowdown", type=float, default=4.0, help="CPU throttling while timing (1: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            weights = weigh_all(browser, Path(data), cpu_slowdown=args.cpu_slowdown)
        finally:
            browser.close()
    if args.json:
        print(json.dumps([w.__dict__ for w in weights], indent=1))
        return 0
    table = {(w.page, w.lang): w for w in weights}
    print(f"{'page':<10}" + "".join(f"{lang:>16}" for lang in LANGS))
    for page in PAGES:
        cells = [table[page, lang] for lang in LANGS]
        print(f"{page:<10}" + "".join(f"{w.bytes / 1024:>9.1f} KB ({w.requests:>2})" for w in cells))
    print(f"(KB of 1024 bytes, requests in brackets; budget {BUDGET // 1024} KB a page)")
    print(f"\nfirst contentful paint / total blocking time, ms, CPU slowed {args.cpu_slowdown:g}x")
    print(f"{'page':<10}" + "".join(f"{lang:>16}" for lang in LANGS))
    for page in PAGES:
        cells = [table[page, lang] for lang in LANGS]
        print(f"{page:<10}" + "".join(f"{w.fcp_ms:>9.0f} / {w.tbt_ms:<4.0f}" for w in cells))
    if args.files:
        for w in weights:
            print(f"\n{w.page} {w.lang}")
            for url, size in sorted(w.by_url.items(), key=lambda item: -item[1]):
                print(f"  {size:>8} {url}")
    over = [w for w in weights if w.bytes > BUDGET]
    for w in over:
        print(f"over budget: {w.page} {w.lang} {w.bytes / 1024:.1f} KB", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
