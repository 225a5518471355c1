"""An online room, from the terminal: where it is, the first words with its server, and the seat tokens kept.

``--join`` takes the link a page shares (``http://HOST:PORT/#/room/CODE``) or a bare code with ``--server``.
The first contact says hello as the page does and reads the first answer before trusting the protocol's
classes with it: a server that cannot be reached, a code with no room, a server that is no ratscrew server
and one that speaks another version of the protocol each get one line saying which (exit code 2).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

from ratscrew.errors import BadMessage, MalformedInput, NotFound, RatscrewError, TooMany
from ratscrew.rooms import wire
from ratscrew.rooms.runner import CODE_LENGTH
from ratscrew.tui.link import SocketLink

OPEN_TIMEOUT_S = 10.0
CODE = re.compile(f"[A-Za-z0-9]{{{CODE_LENGTH}}}")
SHARED_LINK = re.compile(r"/(?:ws/rooms|room)/([^/?#]+)/?$")
TOKENS_KEPT = 100
MAX_MESSAGE_BYTES = 1 << 20


class Unreachable(RatscrewError):
    """Nothing answered at the server's address (exit code 2, as any address that cannot be used)."""


class ProtocolMismatch(MalformedInput):
    """The server speaks another version of the room protocol, or no ratscrew protocol at all."""


@dataclass(frozen=True, slots=True)
class Address:
    """An online room: its server's address (``http://HOST:PORT``, with any path it is served under) and code."""

    base: str
    code: str

    @property
    def socket_url(self) -> str:
        scheme, rest = self.base.split("://", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/rooms/{self.code}"

    @property
    def link(self) -> str:
        """The link a page shares for this room."""
        return f"{self.base}/#/room/{self.code}"


def parse_address(join: str, server: str | None) -> Address:
    """Where ``--join`` (a room's link, or its code with ``--server``) points.

    >>> parse_address("http://192.168.1.5:8000/#/room/abc234", None)
    Address(base='http://192.168.1.5:8000', code='ABC234')
    >>> parse_address("ABC234", "https://ers.example.org/games/")
    Address(base='https://ers.example.org/games', code='ABC234')
    """
    given = join.strip()
    if "://" in given:
        parts = urlsplit(given)
        found = SHARED_LINK.search(parts.fragment) or SHARED_LINK.search(parts.path)
        if found is None:
            raise MalformedInput(
                f"--join {given[:80]!r} is not a room's link: expected one such as http://HOST:PORT/#/room/ABC234"
            )
        path = parts.path[: found.start()] if found.string == parts.path else parts.path
        base, code = _base(f"{parts.scheme}://{parts.netloc}{path}", "--join"), found.group(1)
    else:
        if server is None:
            raise MalformedInput(
                f"--join {given[:20]!r} needs the server it is on: add --server http://HOST:PORT, "
                "or give the room's link"
            )
        base, code = _base(server, "--server"), given
    if not CODE.fullmatch(code):
        raise MalformedInput(
            f"{code[:20]!r} is not a room code: expected {CODE_LENGTH} letters and digits, such as ABC234"
        )
    return Address(base, code.upper())


def _base(url: str, option: str) -> str:
    parts = urlsplit(url.strip())
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.netloc:
        raise MalformedInput(f"{option} {url[:80]!r} is not a server's address: expected one such as http://HOST:PORT")
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}"


async def open_room(
    address: Address, token: str | None, since: int = -1
) -> tuple[SocketLink, wire.Welcome, str | None]:
    """Connect to the room and say hello; the link, the room's welcome, and a word the room said first (a seat
    token it no longer knows), or one of this module's errors saying what went wrong."""
    try:
        socket = await connect(address.socket_url, open_timeout=OPEN_TIMEOUT_S, max_size=MAX_MESSAGE_BYTES)
    except InvalidStatus as exc:
        status = exc.response.status_code
        raise ProtocolMismatch(
            f"{address.base} is not a ratscrew server: it answered HTTP {status} where a room's socket should be"
        ) from None
    except (InvalidHandshake, InvalidURI) as exc:
        raise ProtocolMismatch(f"{address.base} is not a ratscrew server: {exc}") from None
    except TimeoutError:
        raise Unreachable(f"cannot reach {address.base}: no answer within {OPEN_TIMEOUT_S:g} s") from None
    except ssl.SSLError as exc:  # before OSError, which it is: its errno is OpenSSL's, not the system's
        raise Unreachable(f"cannot reach {address.base} over TLS: {tls_words(exc)}") from None
    except OSError as exc:
        raise Unreachable(f"cannot reach {address.base}: {connect_words(exc)}") from None
    link = SocketLink(socket)
    try:
        await link.send(wire.Hello(wire.VERSION, token, since))
        welcome, said = await _first_answer(link, address)
    except BaseException:
        await link.close()
        raise
    return link, welcome, said


def connect_words(exc: OSError) -> str:
    """Why a connection failed, in the system's words: asyncio's own repeat the address, and a name that does
    not resolve carries the resolver's code (negative), which the system's table of errors does not know."""
    if isinstance(exc, socket.gaierror):
        return exc.strerror or str(exc)
    return os.strerror(exc.errno) if exc.errno else str(exc)


def tls_words(exc: ssl.SSLError) -> str:
    """Why the TLS handshake failed: the certificate's fault, or OpenSSL's reason (``wrong version number``:
    the server speaks plain HTTP there)."""
    if isinstance(exc, ssl.SSLCertVerificationError) and exc.verify_message:
        return f"its certificate was refused ({exc.verify_message})"
    reason = exc.reason if isinstance(exc.reason, str) else str(exc)
    return reason.replace("_", " ").lower()


async def _first_answer(link: SocketLink, address: Address) -> tuple[wire.Welcome, str | None]:
    said: str | None = None
    while True:
        try:
            raw = await asyncio.wait_for(link.receive_raw(), OPEN_TIMEOUT_S)
        except TimeoutError:
            raise ProtocolMismatch(f"{address.base} did not welcome this terminal into room {address.code}") from None
        if raw is None:
            if link.close_code == wire.CloseCode.NO_ROOM:
                raise NotFound(f"no room {address.code} at {address.base}: check the code (it may have closed)")
            if link.close_code == wire.CloseCode.TOO_MANY:
                raise TooMany(f"{address.base} refused the room's socket: {said or 'too many connections'}")
            raise Unreachable(f"{address.base} closed the room's socket: {said or 'without saying why'}")
        try:
            doc = json.loads(raw)
        except ValueError:
            doc = None
        kind = doc.get("type") if isinstance(doc, dict) else None
        if kind == wire.Out.ERROR.value:
            said = str(doc.get("message", ""))[:200] if isinstance(doc, dict) else ""
            if "protocol version" in said:
                raise ProtocolMismatch(_version_words(address, said))
            continue  # a room that will close says why first; a stale token is said before the welcome
        if kind != wire.Out.WELCOME.value or not isinstance(doc, dict):
            raise ProtocolMismatch(f"{address.base} is not a ratscrew server: its first answer was not a welcome")
        version = doc.get("v")
        if version != wire.VERSION:
            raise ProtocolMismatch(
                f"the server at {address.base} speaks room protocol version {version}, this ratscrew speaks "
                f"{wire.VERSION}: use the same version of ratscrew as the server"
            )
        try:
            return wire.Welcome.from_json(doc), said
        except BadMessage as exc:
            raise ProtocolMismatch(
                f"the server at {address.base} sent a welcome this ratscrew cannot read: {exc}"
            ) from None


def _version_words(address: Address, said: str) -> str:
    expected = re.search(r"expected (\d+)", said)
    theirs = f"version {expected.group(1)}" if expected else "another version"
    return (
        f"the server at {address.base} speaks room protocol {theirs}, this ratscrew speaks {wire.VERSION}: "
        "use the same version of ratscrew as the server"
    )


class Tokens:
    """The seat tokens this terminal holds, by room, in the data folder: ``--join`` again takes the seat back,
    as a page reloaded keeps its seat (its tokens are in the browser's storage)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return (
            {k: v for k, v in doc.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(doc, dict) else {}
        )

    def get(self, address: Address) -> str | None:
        return self._read().get(address.link)

    def put(self, address: Address, token: str | None) -> None:
        kept = self._read()
        kept.pop(address.link, None)
        if token:
            kept[address.link] = token
        kept = dict(list(kept.items())[-TOKENS_KEPT:])
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_suffix(".part")
            partial.write_text(json.dumps(kept), encoding="utf-8")
            os.replace(partial, self.path)
        except OSError:
            pass  # the seat lasts as long as this terminal, as a page's does when its storage is refused
