"""The terminal table at an online room of a real `ratscrew play` server, over real sockets: beside a browser
page (Chromium) in one room, both see the same events and the same verdicts in the same words; the terminal
reconnects with its seat token, and one more terminal watches. And bad input at the start: an unreachable
server, a wrong code, a server of another protocol version or none at all, each one line and exit code 2."""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import TypeVar

import pytest
from playwright.sync_api import Browser, Page, expect
from textual.pilot import Pilot
from websockets.asyncio.server import ServerConnection, serve

from harness.browser import HANG_S, open_page, until
from harness.server import Server
from harness.tui import on_a_thread, table
from ratscrew.rooms import wire
from ratscrew.tui.app import TableApp
from ratscrew.tui.link import SocketLink
from ratscrew.tui.online import Address, Tokens, open_room
from ratscrew.tui.venue import OnlineVenue
from ratscrew.tui.words import Words

T = TypeVar("T")


# ---------------------------------------------------------------------------------------------- bad input


def tui(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", "tui", *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_without_textual_the_command_says_how_to_install_it() -> None:
    # As after ``pip install ratscrew`` without the tui extra: ``import textual`` fails.
    program = "import sys; sys.modules['textual'] = None; from ratscrew.cli import main; main(['tui'])"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "ratscrew: error: the terminal table needs Textual (textual is missing): pip install 'ratscrew[tui]'"
    ]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # nothing listens there now


def test_an_unreachable_server_is_one_line_and_exit_2(tmp_path: Path) -> None:
    port = closed_port()
    done = tui("--join", f"http://127.0.0.1:{port}/#/room/ABC234", "--data", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"ratscrew: error: cannot reach http://127.0.0.1:{port}: Connection refused"]


def test_a_wrong_code_is_one_line_and_exit_2(live_server: Server, tmp_path: Path) -> None:
    done = tui("--join", "ZZZ999", "--server", live_server.url, "--data", str(tmp_path))
    assert done.returncode == 2
    base = live_server.url.rstrip("/")
    assert done.stderr.splitlines() == [
        f"ratscrew: error: no room ZZZ999 at {base}: check the code (it may have closed)"
    ]


def test_a_server_of_another_protocol_version_is_one_line_and_exit_2(
    live_server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A terminal of another version, at this server: the server says which version it speaks.
    status, made = live_server.post("/api/rooms", {"seats": 2, "name": "Ann"})
    assert status == 200
    monkeypatch.setattr(wire, "VERSION", wire.VERSION + 1)
    from click.testing import CliRunner

    from ratscrew.cli import main

    link = f"{live_server.url}#/room/{made['code']}"
    # On a thread of its own: this worker's browser tests may have an event loop running on this one.
    result = on_a_thread(lambda: CliRunner().invoke(main, ["tui", "--join", link, "--data", str(tmp_path)]))
    assert result.exit_code == 2
    base = live_server.url.rstrip("/")
    assert result.stderr.splitlines() == [
        f"ratscrew: error: the server at {base} speaks room protocol version {wire.VERSION - 1}, this ratscrew "
        f"speaks {wire.VERSION}: use the same version of ratscrew as the server"
    ]


def in_thread(start: Callable[[], Awaitable[None]]) -> Iterator[None]:
    """Run a server coroutine on a loop of its own until the test is done."""
    loop = asyncio.new_event_loop()
    stop = threading.Event()

    async def main() -> None:
        task = asyncio.ensure_future(start())
        while not stop.is_set():
            await asyncio.sleep(0.02)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)  # the server closes its sockets on this loop

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)
        loop.close()


def test_a_newer_server_that_welcomes_in_its_own_version_is_one_line_and_exit_2(tmp_path: Path) -> None:
    port = closed_port()

    async def answer(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.send(json.dumps({"type": "welcome", "v": wire.VERSION + 1, "room": {}, "players": []}))
        await asyncio.sleep(1)

    async def start() -> None:
        async with serve(answer, "127.0.0.1", port):
            await asyncio.Future()

    for _ in in_thread(start):
        time.sleep(0.3)
        done = tui("--join", f"http://127.0.0.1:{port}/#/room/ABC234", "--data", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"ratscrew: error: the server at http://127.0.0.1:{port} speaks room protocol version {wire.VERSION + 1}, "
        f"this ratscrew speaks {wire.VERSION}: use the same version of ratscrew as the server"
    ]


def test_a_name_that_does_not_resolve_is_one_line_and_exit_2(tmp_path: Path) -> None:
    # ``.invalid`` never resolves: the resolver's own words, not an errno number read as a system error.
    done = tui("--join", "http://nothing.invalid/#/room/ABC234", "--data", str(tmp_path))
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("ratscrew: error: cannot reach http://nothing.invalid: ")
    assert "Unknown error" not in line and "Errno" not in line


def test_a_server_that_is_no_ratscrew_server_is_one_line_and_exit_2(tmp_path: Path) -> None:
    class NotHere(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # as any web server answers

        def do_GET(self) -> None:
            self.send_error(404)

        def log_message(self, format: str, *args: object) -> None:  # the base class's name
            pass

    http = HTTPServer(("127.0.0.1", 0), NotHere)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        port = http.server_address[1]
        done = tui("--join", f"http://127.0.0.1:{port}/#/room/ABC234", "--data", str(tmp_path))
        # https:// to a server that speaks plain HTTP: the TLS handshake fails, and the line says so.
        tls = tui("--join", f"https://127.0.0.1:{port}/#/room/ABC234", "--data", str(tmp_path))
    finally:
        http.shutdown()
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"ratscrew: error: http://127.0.0.1:{port} is not a ratscrew server: it answered HTTP 404 where a room's "
        "socket should be"
    ]
    assert tls.returncode == 2
    [line] = tls.stderr.splitlines()
    assert line.startswith(f"ratscrew: error: cannot reach https://127.0.0.1:{port} over TLS: "), line


def test_a_certificate_the_terminal_cannot_trust_is_one_line_and_exit_2(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    request = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    files = ["-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1"]
    subprocess.run([*request, *files], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    http = HTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    http.socket = context.wrap_socket(http.socket, server_side=True)  # a handshake refused ends at accept
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        port = http.server_address[1]
        done = tui("--join", f"https://127.0.0.1:{port}/#/room/ABC234", "--data", str(tmp_path))
    finally:
        http.shutdown()
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"ratscrew: error: cannot reach https://127.0.0.1:{port} over TLS: its certificate was refused "
        "(self-signed certificate)"
    ]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--join", "ABC234"], "--join 'ABC234' needs the server it is on: add --server http://HOST:PORT"),
        (["--join", "http://h:1/#/lobby"], "is not a room's link: expected one such as http://HOST:PORT/#/room/ABC234"),
        (["--join", "AB", "--server", "http://h:1"], "'AB' is not a room code: expected 6 letters and digits"),
        (["--join", "ABC234", "--bots", "hard"], "--bots sets up a game against the computer"),
        (["--join", "ABC234", "--server", "http://h:1", "--seed", "0"], "--seed sets up a game against the computer"),
        (["--watch"], "--watch goes with --join URL_OR_CODE"),
        (["--bots", "hard,nobody"], "--bots: unknown level 'nobody'"),
        (["--bots", ",".join(["easy"] * 12)], "13 seats is too many: at most 12, so at most 11 computers"),
        (["--set", "slaps.nothing=1"], "slaps.nothing"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: list[str], said: str, tmp_path: Path) -> None:
    done = tui(*args, "--data", str(tmp_path))
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("ratscrew: error: ") and said in line


# ---------------------------------------------------------------------------------------------- in a room


class Terminal:
    """The terminal table, headless (Textual's pilot), on an asyncio loop in a thread of its own: this thread
    belongs to Playwright's browser."""

    def __init__(self, make: Callable[[], Awaitable[TableApp]]) -> None:
        self.loop = asyncio.new_event_loop()
        self._ready: Future[tuple[TableApp, Pilot[int]]] = Future()
        self._done: asyncio.Event | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(make),), daemon=True)
        self.thread.start()
        self.app, self.pilot = self._ready.result(timeout=HANG_S)

    async def _main(self, make: Callable[[], Awaitable[TableApp]]) -> None:
        self._done = asyncio.Event()
        try:
            app = await make()
            async with app.run_test(size=(100, 30)) as pilot:
                self._ready.set_result((app, pilot))
                await self._done.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def run(self, coro: Awaitable[T]) -> T:
        async def wrapped() -> T:
            return await coro

        return asyncio.run_coroutine_threadsafe(wrapped(), self.loop).result(timeout=HANG_S)

    def read(self, look: Callable[[TableApp], T]) -> T:
        async def reading() -> T:
            return look(self.app)

        return self.run(reading())

    def press(self, key: str) -> None:
        self.run(self.pilot.press(key))

    def stop(self) -> None:
        if self._done is not None:
            self.loop.call_soon_threadsafe(self._done.set)
        self.thread.join(timeout=30)


def join(server: Server, code: str, data: Path, *, watching: bool = False, name: str = "Tess") -> Terminal:
    address = Address(server.url.rstrip("/"), code)

    async def make() -> TableApp:
        tokens = Tokens(data / "tui-seats.json")
        first = await open_room(address, None if watching else tokens.get(address))
        venue = OnlineVenue(address, first, tokens, watching=watching, name=name)
        return TableApp(venue, Words("en"))

    return Terminal(make)


def browser_seq(page: Page) -> int:
    seq: str | None = page.evaluate("document.querySelector('.game')?.dataset.seq ?? null")
    return -1 if seq is None else int(seq)


def browser_feed(page: Page) -> list[tuple[str, str]]:
    """The browser's feed, newest first: each line's event kind and its words (a correct slap's line is
    followed by small cards, left out)."""
    items: list[list[str]] = page.eval_on_selector_all(
        "#feed .feed-item",
        "els => els.map(e => [[...e.classList].find(c => c.startsWith('kind-')).slice(5),"
        " e.querySelector('.feed-shown').firstChild.textContent.trim()])",
    )
    return [(kind, text) for kind, text in items]


def terminal_feed(terminal: Terminal) -> list[tuple[str, str]]:
    return terminal.read(lambda app: [(line.kind, line.text) for line in app.model.feed if line.kind != "reaction"])


def cards(terminal: Terminal) -> int:
    """How many cards the terminal's table has turned."""
    turned: int = terminal.read(lambda app: app.model.table.cards if app.model.table is not None else 0)
    return turned


def same_point(page: Page, terminal: Terminal, what: str, after: int = -1) -> int:
    """Until the page and the terminal have applied the same last event, numbered past ``after``; its number.
    (After a key is pressed, ``after`` is the point before it: both may still agree on the old point while the
    key's event is on its way, on a loaded machine.)"""

    def agree() -> bool:
        seq = browser_seq(page)
        return seq > after and seq == terminal.read(lambda app: app.model.seq)

    until(page, agree, what)
    return browser_seq(page)


@pytest.fixture
def ann(browser: Browser, live_server: Server) -> Iterator[tuple[Page, str]]:
    """Ann's browser page, host of a new room of two seats, sitting in the first."""
    status, made = live_server.post("/api/rooms", {"seats": 2, "name": "Ann"})
    assert status == 200
    code, token = made["code"], made["token"]
    page, errors = open_page(browser, live_server.url)
    page.evaluate("([key, token]) => localStorage.setItem(key, token)", [f"ratscrew.seat.{code}", token])
    page.goto(f"{live_server.url}#/room/{code}")
    page.wait_for_selector("#room-seat-0.mine")
    try:
        yield page, code
    finally:
        page.context.close()
    assert not errors, errors


def test_a_terminal_and_a_browser_play_one_room_and_see_the_same_events_and_verdicts(
    ann: tuple[Page, str], browser: Browser, live_server: Server, tmp_path: Path
) -> None:
    page, code = ann
    tess = join(live_server, code, tmp_path)
    watcher: Terminal | None = None
    try:
        # The terminal takes the free seat under its name, says it is ready; the host starts.
        expect(page.locator("#room-seat-1 .room-seat-name")).to_have_text("Tess")
        assert tess.read(lambda app: app.model.yours) == (1,)
        tess.press("r")
        page.click("#ready-button")
        page.wait_for_selector("#start-button:not([disabled])")
        page.click("#start-button")
        page.wait_for_selector("#flip-0")
        until(page, lambda: tess.read(lambda app: app.model.playing), "the terminal's table dealt")

        # Watching from the start: a terminal without a seat and a browser page without one.
        watcher = join(live_server, code, tmp_path, watching=True, name="Wes")
        spectator, spectator_errors = open_page(browser, f"{live_server.url}#/room/{code}")
        spectator.wait_for_selector("#flip-0", state="detached")
        assert watcher.read(lambda app: app.model.yours) == ()

        # A slap on the empty pile from each: the same wrong slaps, each page speaking to its own player.
        before = browser_seq(page)
        page.keyboard.press("j")
        before = same_point(page, tess, "Ann's wrong slap on both", after=before)
        tess.press("j")
        same_point(page, tess, "Tess's wrong slap on both", after=before)
        assert terminal_feed(tess)[:2] == [
            ("wrong_slap", "You slap wrong and burn 1: the pile was empty"),
            ("wrong_slap", "Ann slaps wrong and burns 1: the pile was empty"),
        ]
        assert browser_feed(page)[:2] == [
            ("wrong_slap", "Tess slaps wrong and burns 1: the pile was empty"),
            ("wrong_slap", "You slap wrong and burn 1: the pile was empty"),
        ]

        # Each turns in turn (and Tess slaps once more on a card): the same events, the same table.
        def play() -> None:
            turn = tess.read(lambda app: table(app).turn)
            if turn == 1:
                tess.press("f")
            elif page.locator("#flip-0.ready").count():
                page.keyboard.press("f")

        until(page, lambda: cards(tess) >= 8, "eight cards", act=play)
        tess.press("j")
        same_point(page, tess, "the same point after eight cards")
        same_point(spectator, watcher, "the same point for the watchers")

        # An event may still reach one before the other (the slap window's end is on the room's clock): both
        # feeds are read until they show the same events, and only a hang fails.
        def same_feed() -> bool:
            kinds = [kind for kind, _text in browser_feed(page)]
            return [kind for kind, _text in terminal_feed(tess)][: len(kinds)] == kinds and len(kinds) >= 3

        until(page, same_feed, "the same events in the terminal's feed and the page's")

        # The watchers are spoken to by no one: the terminal's lines are the page's, word for word.
        def same_words() -> bool:
            shown = [item for item in browser_feed(spectator) if item[0] != "slap_correct"]
            watched = [item for item in terminal_feed(watcher) if item[0] != "slap_correct"][: len(shown)]
            return watched == shown and len(shown) >= 3

        until(page, same_words, "the watchers' feeds word for word")

        def same_stacks() -> bool:
            sizes = page.eval_on_selector_all(".seat .seat-count", "els => els.map(e => e.textContent)")
            stacks: tuple[int, ...] = tess.read(lambda app: table(app).stack_sizes)
            return (
                sizes == [f"{n} card{'s' if n != 1 else ''}" for n in stacks]
                and watcher.read(lambda app: table(app).stack_sizes) == stacks
            )

        until(page, same_stacks, "the same cards in each seat on the page and in both terminals")

        # The terminal's connection drops: it reconnects with its seat token and the last event it saw, keeps
        # its seat, and is sent what it missed.
        link = tess.app.link
        assert isinstance(link, SocketLink)
        tess.read(lambda app: link.socket.transport.abort())  # the connection is cut, as a network drop cuts it
        until(page, lambda: tess.read(lambda app: app.link is not link and app.model.connected), "the terminal back")
        assert tess.read(lambda app: app.model.yours) == (1,)
        until(page, lambda: cards(tess) >= 10, "two cards more", act=play)
        same_point(page, tess, "the same point after the reconnection")
        assert Tokens(tmp_path / "tui-seats.json").get(Address(live_server.url.rstrip("/"), code))  # kept for --join
        names = page.eval_on_selector_all(".seat .seat-name", "els => els.map(e => e.textContent)")
        assert names == ["Ann", "Tess"]
        spectator.context.close()
        assert not spectator_errors, spectator_errors
    finally:
        tess.stop()
        if watcher is not None:
            watcher.stop()
