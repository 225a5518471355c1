"""What ``ratscrew serve`` was asked for, handed to each worker it starts (as JSON in its environment)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ratscrew.hosting.ring import Letters, Ring

ENV = "RATSCREW_HOSTING"


@dataclass(frozen=True)
class Hosting:
    ports: tuple[int, ...]  # one worker per port, in the proxy's order
    data_dir: Path
    host: str = "127.0.0.1"  # where the workers listen: the proxy's side, never the public one
    redis_url: str | None = None
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")  # whose X-Forwarded-For is believed
    origins: tuple[str, ...] = ()  # pages allowed to open a room's websocket; none: the page's own host only
    rooms_per_hour: int = 60
    prefix: str = "ratscrew:"  # of every Redis key, so that several sites can share one Redis
    routing: str = "hash"  # how the proxy finds a code's worker: nginx's consistent hash, or "letters"
    log_level: str = "warning"  # "info" adds a line for every refused input: busy, at hundreds of rooms
    drain_s: float = 10.0  # how long a stopping worker lets pages go before it closes them
    reconcile_s: float = 5.0  # how often a worker writes its socket counts to Redis again (hosting/limits.py)
    worker: int = field(default=0)  # which of them this is (set for each worker)
    # A pipe's end whose other end only ``ratscrew serve`` holds: it reads end-of-file once serve is gone,
    # even killed with -9, and the worker then stops as on SIGTERM (set for each worker; -1: none).
    supervisor_fd: int = -1

    @property
    def servers(self) -> list[str]:
        """The workers as the proxy's ``upstream`` names them."""
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return [f"{shown}:{port}" for port in self.ports]

    def ring(self) -> Ring | Letters:
        return Letters(len(self.ports)) if self.routing == "letters" else Ring(self.servers)

    def to_env(self) -> str:
        doc = asdict(self)
        doc["data_dir"] = str(self.data_dir)
        return json.dumps(doc)

    @staticmethod
    def from_env(text: str) -> Hosting:
        doc = json.loads(text)
        doc["data_dir"] = Path(doc["data_dir"])
        for key in ("ports", "trusted_proxies", "origins"):
            doc[key] = tuple(doc[key])
        return Hosting(**doc)
