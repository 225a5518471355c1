"""The request rate per client address, for every HTTP request (websockets have their own, per message).

A token bucket per address in this process: ``RATE`` requests a second on average, bursts up to ``BURST``;
past that the answer is 429 with a JSON error and a log line. Pages load a dozen files at once, so the burst
is generous. Behind ``ratscrew serve``'s proxy the proxy limits the rate as a whole. What each address may
create, look up and hold open is ``ratscrew.limits``.
"""

from __future__ import annotations

import json
import logging
import re
import time

from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)


RATE = 30.0
BURST = 120.0
MAX_CLIENTS = 10_000  # addresses remembered; the quietest are forgotten first


class RateLimit:
    def __init__(self, app: ASGIApp, rate: float | None = None, burst: float | None = None) -> None:
        self.app = app
        self.rate = RATE if rate is None else rate
        self.burst = BURST if burst is None else burst
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when last counted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if not self._take(address):
            log.info("rate limit: %s refused on %s", address, scope.get("path", "")[:80])
            body = json.dumps({"error": f"too many requests: at most {self.rate:.0f} a second; try again shortly"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 429,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
                }
            )
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await self.app(scope, receive, send)

    def _take(self, address: str) -> bool:
        now = time.monotonic()
        tokens, then = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if len(self.buckets) >= MAX_CLIENTS and address not in self.buckets:
            quietest = max(self.buckets, key=lambda a: self.buckets[a][0])
            del self.buckets[quietest]
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return False
        self.buckets[address] = (tokens - 1, now)
        return True


# Requests that make a room (or a game, which is one): a stopping worker refuses them (hosting/site.py).
CREATING = re.compile(r"^/api/(?:rooms|games|games/[^/]+/again)/?$")
