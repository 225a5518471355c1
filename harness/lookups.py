"""The two apps whose lookups the tests probe, in-process, with their limits on a clock the test moves: the app
of ``ratscrew play`` (limits in the process) and one worker of ``ratscrew serve`` (limits in a real
redis-server, its windows on the test's clock instead of Redis's), and the known codes and ids to ask for."""

from __future__ import annotations

import itertools
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from starlette.testclient import TestClient

from harness.games import played_record, summary_for
from harness.site import free_ports, require_programs, start_redis
from ratscrew.hosting.limits import SharedLimits
from ratscrew.hosting.settings import Hosting
from ratscrew.hosting.site import Hosted
from ratscrew.limits import Limits, LocalLimits
from ratscrew.record import Record
from ratscrew.rooms.runner import Rooms
from ratscrew.table.clock import ManualClock
from ratscrew.web import limits as rate
from ratscrew.web.app import Setup, create_app
from ratscrew.web.store import Store

_PREFIXES = itertools.count()


class FrozenPlay(Setup):
    """``ratscrew play``'s setup, with its limits on ``clock``."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock

    def limits(self, rooms: Rooms) -> Limits:
        return LocalLimits(self.clock)


class FrozenHosted(Hosted):
    """A worker of ``ratscrew serve`` whose shared limits count their windows on ``clock``."""

    def __init__(self, hosting: Hosting, clock: ManualClock) -> None:
        super().__init__(hosting, lambda: False)
        self.clock = clock

    def limits(self, rooms: Rooms) -> Limits:
        limits = super().limits(rooms)
        assert isinstance(limits, SharedLimits)
        limits.now = self.clock.now
        return limits


@dataclass
class Redis:
    url: str


@contextmanager
def redis_server(folder: Path) -> Iterator[Redis]:
    """A redis-server on a free port, for as long as the block runs."""
    from harness.site import eventually_answers

    require_programs(("redis-server",))
    (port,) = free_ports(1)
    server = start_redis(folder, port)
    try:
        eventually_answers(port)
        yield Redis(f"redis://127.0.0.1:{port}/0")
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()


def new_prefix() -> str:
    """Keys in Redis under a prefix no other test uses."""
    return f"t{next(_PREFIXES)}-{id(_PREFIXES)}:"


def hosting_for(
    data: Path, redis: Redis, ports: tuple[int, ...] = (8001,), worker: int = 0, prefix: str | None = None
) -> Hosting:
    """Settings of one worker."""
    return Hosting(ports=ports, data_dir=data, redis_url=redis.url, prefix=prefix or new_prefix(), worker=worker)


@contextmanager
def app_client(
    kind: str, data: Path, clock: ManualClock, redis: Redis | None, hosting: Hosting | None = None
) -> Iterator[TestClient]:
    """A client of the ``play`` or ``hosted`` app (``hosting``: which worker); the request rate per address out
    of the way (it is not what these tests count)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rate, "RATE", 1e9)
        patch.setattr(rate, "BURST", 1e9)
        if kind == "play":
            setup: Setup = FrozenPlay(clock)
        else:
            assert redis is not None
            setup = FrozenHosted(hosting or hosting_for(data, redis), clock)
        with TestClient(create_app(data, setup=setup)) as client:
            yield client


@dataclass(frozen=True)
class Known:
    """A live code or id of each kind, and an unknown one of the same shape."""

    room: str  # a room's code, the room in its lobby
    game: str  # a finished game's id
    match: str  # a score keeper's match id

    UNKNOWN: ClassVar[dict[str, str]] = {"room": "ZZZZZ9", "game": "ZZZZZ9-1", "match": "0badc0ffee00"}

    def of(self, kind: str) -> str:
        value: str = getattr(self, kind)
        return value


def make_known(client: TestClient) -> Known:
    room = client.post("/api/rooms", json={"seats": 2}).json()["code"]
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    game = "HSTRY2-1"
    store.save_game(game, Record.from_json(played_record()), summary_for(game, [400]))
    match = client.post("/api/matches", json={"players": ["Ann", "Bo"]}).json()["id"]
    known = Known(room, game, match)
    assert room not in Known.UNKNOWN.values() and match != Known.UNKNOWN["match"]
    return known


def spend(client: TestClient) -> int:
    """Unknown codes asked for until the address is refused; how many were answered."""
    for answered in range(1000):
        status = client.get("/api/rooms/ZZZZZ8").status_code  # the same wrong code costs each time
        if status == 429:
            return answered
        assert status == 404
    raise AssertionError("never refused")
