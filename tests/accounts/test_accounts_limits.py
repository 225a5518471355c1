"""Guessing passwords is stopped by the shared limits, per address and per account name, in the app of
``ratscrew play`` (counted in the process) and in a worker of ``ratscrew serve`` (counted in a real
redis-server), on a clock the test moves; and behind ``serve``'s proxy the cookie is Secure when the proxy
says the page came over HTTPS, and only a trusted proxy is believed."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from starlette.testclient import TestClient

from harness.accounts import PASSWORD, Browser, account_client
from harness.lookups import FrozenHosted, FrozenPlay, Redis, hosting_for, redis_server
from ratscrew.hosting.limits import SharedLimits
from ratscrew.limits import Caps, Limits, LocalLimits
from ratscrew.limits.caps import GUESS_MS
from ratscrew.rooms.runner import Rooms
from ratscrew.table.clock import ManualClock
from ratscrew.web import limits as rate
from ratscrew.web.app import Setup, create_app
from ratscrew.web.serve import bind, server_config

CAPS = Caps(guesses_per_address=6, guesses_per_account=3)


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


class SmallPlay(FrozenPlay):
    def limits(self, rooms: Rooms) -> Limits:
        return LocalLimits(self.clock, CAPS)


class SmallHosted(FrozenHosted):
    def limits(self, rooms: Rooms) -> Limits:
        limits = super().limits(rooms)
        assert isinstance(limits, SharedLimits)
        limits.caps = CAPS
        return limits


@pytest.fixture(params=["play", "hosted"])
def guarded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, ManualClock]]:
    clock = ManualClock()
    if request.param == "play":
        setup: Setup = SmallPlay(clock)
    else:
        setup = SmallHosted(hosting_for(tmp_path, request.getfixturevalue("redis")), clock)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rate, "RATE", 1e9)  # the request rate is not what these tests count
        patch.setattr(rate, "BURST", 1e9)
        with account_client(tmp_path, setup) as client:
            yield client, clock


def sign_in(client: TestClient, name: str, password: str, address: str) -> tuple[int, str]:
    response = Browser(client, address=address).sign_in(name, password)
    return response.status_code, response.json().get("code", "")


def test_one_account_s_guesses_are_stopped_whatever_the_address(guarded: tuple[TestClient, ManualClock]) -> None:
    client, clock = guarded
    Browser(client, address="192.0.2.1").sign_up("Ann_1")
    Browser(client, address="192.0.2.1").sign_up("Bob_1")
    said = [sign_in(client, "ann_1", f"guess {i:04}", f"198.51.100.{i}") for i in range(CAPS.guesses_per_account)]
    assert said == [(403, "wrong_sign_in")] * CAPS.guesses_per_account
    # Ann's name has had its guesses, from any address: even her own password waits; Bob's name does not.
    assert sign_in(client, "Ann_1", f"guess {99:04}", "203.0.113.7") == (429, "too_many_guesses")
    assert sign_in(client, "Ann_1", PASSWORD, "203.0.113.7") == (429, "too_many_guesses")
    assert sign_in(client, "Bob_1", PASSWORD, "203.0.113.7") == (200, "")
    # A name nobody has is counted the same way: the limit says nothing about who exists.
    said = [sign_in(client, "Nobody_1", "guess 0000", f"198.51.100.{i}") for i in range(CAPS.guesses_per_account)]
    assert said == [(403, "wrong_sign_in")] * CAPS.guesses_per_account
    assert sign_in(client, "Nobody_1", "guess 0000", "203.0.113.8") == (429, "too_many_guesses")
    clock.advance(GUESS_MS - 1)
    assert sign_in(client, "Ann_1", PASSWORD, "203.0.113.7") == (429, "too_many_guesses")
    clock.advance(1)
    assert sign_in(client, "Ann_1", PASSWORD, "203.0.113.7") == (200, "")


def test_one_address_s_guesses_are_stopped_whatever_the_name(guarded: tuple[TestClient, ManualClock]) -> None:
    client, clock = guarded
    Browser(client, address="192.0.2.1").sign_up("Ann_1")
    guesser = "198.51.100.66"
    names = [f"name_{i}" for i in range(CAPS.guesses_per_address)]
    assert [sign_in(client, n, "guess 0000", guesser) for n in names] == [(403, "wrong_sign_in")] * len(names)
    assert sign_in(client, "Ann_1", "guess 0000", guesser) == (429, "too_many_guesses")
    assert sign_in(client, "Ann_1", PASSWORD, guesser) == (429, "too_many_guesses")
    assert sign_in(client, "Ann_1", PASSWORD, "192.0.2.1") == (200, "")  # Ann, from her own address
    clock.advance(GUESS_MS)
    assert sign_in(client, "Ann_1", PASSWORD, guesser) == (200, "")


def test_right_passwords_cost_no_attempt(tmp_path: Path) -> None:
    clock = ManualClock()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rate, "RATE", 1e9)
        patch.setattr(rate, "BURST", 1e9)
        with account_client(tmp_path, SmallPlay(clock)) as client:
            Browser(client).sign_up("Ann_1")
            for _ in range(CAPS.guesses_per_address + 2):
                assert sign_in(client, "Ann_1", PASSWORD, "192.0.2.50") == (200, "")


def test_the_password_change_and_the_deletion_count_as_guesses(  # a stolen session cannot guess through them
    guarded: tuple[TestClient, ManualClock],
) -> None:
    client, _clock = guarded
    ann = Browser(client, address="192.0.2.1")
    ann.sign_up("Ann_1")
    wrong = [
        ann.post("/api/account/password", {"current": f"guess {i:04}", "password": "a new password"})
        for i in range(CAPS.guesses_per_account - 1)
    ]
    assert {r.status_code for r in wrong} == {403}
    assert ann.post("/api/account/delete", {"password": "guess 9999"}).status_code == 403
    refused = ann.post("/api/account/delete", {"password": PASSWORD})
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_guesses"
    assert ann.state()["account"] == {"name": "Ann_1"}


# ---------------------------------------------------------------------------------------------- behind a proxy


def serving(tmp_path: Path, trusted: tuple[str, ...]) -> tuple[uvicorn.Server, threading.Thread, str]:
    """A real uvicorn with ``serve``'s settings (``server_config``) on a free loopback port, in a thread."""
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(server_config(create_app(tmp_path), trusted, graceful_s=1))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.mark.parametrize(
    ("trusted", "proto", "secure"),
    [
        (("127.0.0.1",), "https", True),  # the proxy said HTTPS
        (("127.0.0.1",), "http", False),  # the proxy said plain HTTP
        ((), "https", False),  # nobody is trusted: anyone could have written the header
    ],
)
def test_behind_the_proxy_the_cookie_is_secure_when_the_proxy_says_https(
    tmp_path: Path, trusted: tuple[str, ...], proto: str, secure: bool
) -> None:
    server, thread, url = serving(tmp_path, trusted)
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            for _ in range(600):
                if server.started:
                    break
                threading.Event().wait(0.05)
            response = http.post(
                "/api/account/sign-up",
                json={"name": "Ann_1", "password": PASSWORD},
                headers={"X-Forwarded-Proto": proto, "X-Forwarded-For": "203.0.113.5"},
            )
        assert response.status_code == 200, response.text
        attributes = {a.strip().lower() for a in response.headers["set-cookie"].split(";")[1:]}
        assert ("secure" in attributes) is secure
        assert "httponly" in attributes and "samesite=lax" in attributes
    finally:
        server.should_exit = True
        thread.join(timeout=30)
