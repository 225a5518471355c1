"""The terminal table's way to its room: the same typed messages whether the room runs in this process (a game
against the computer) or on a server (an online room, over the websocket the page uses).

A link sends ``rooms.wire`` client messages and gives back server messages read by ``server_from_json``,
every field checked: what a server sends is untrusted, and a message that does not read is dropped with a
line in the log rather than stopping the table.
"""

from __future__ import annotations

import json
import logging
from typing import Protocol

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from ratscrew.errors import BadMessage
from ratscrew.rooms import wire
from ratscrew.rooms.delivery import WAKE
from ratscrew.rooms.runner import PageLink, RoomRunner

log = logging.getLogger(__name__)


class Link(Protocol):
    async def send(self, message: wire.ClientMessage) -> bool:
        """Send one message; False when the link is closed (the message is dropped)."""
        ...

    async def receive(self) -> wire.ServerMessage | None:
        """The next message that reads; None once the link is closed."""
        ...

    async def close(self) -> None: ...


def read(text: str | bytes) -> wire.ServerMessage | None:
    """One server message, or None (logged) when it is not one of the protocol's messages."""
    try:
        return wire.server_from_json(json.loads(text))
    except (BadMessage, ValueError, RecursionError) as exc:
        log.warning("a message from the room did not read: %s", exc)
        return None


class LocalLink:
    """A page of a room running in this process: its messages go into the room's inbox, and its outbox is
    read as a socket's sender reads it (``web/online.py``), in order, each message once."""

    def __init__(self, runner: RoomRunner, page: PageLink) -> None:
        self.runner = runner
        self.page = page
        self.closed = False
        runner.open(page)

    async def send(self, message: wire.ClientMessage) -> bool:
        if self.closed or self.runner.closed:
            return False
        self.runner.submit(self.page, message)
        return True

    async def receive(self) -> wire.ServerMessage | None:
        while not self.closed:
            text = await self.page.outbox.get()
            if text is None:
                self.closed = True
                return None
            if text == WAKE:  # the room's sender is woken ahead of its journal: what it releases follows
                continue
            message = read(text)
            if message is not None:
                return message
        return None

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.runner.close_link(self.page)


class SocketLink:
    """An online room's websocket, as the page opens it (``/ws/rooms/CODE``)."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    async def send(self, message: wire.ClientMessage) -> bool:
        try:
            await self.socket.send(json.dumps(message.to_json(), ensure_ascii=False))
        except ConnectionClosed:
            return False
        return True

    async def receive(self) -> wire.ServerMessage | None:
        while True:
            try:
                text = await self.socket.recv()
            except ConnectionClosed:
                return None
            message = read(text)
            if message is not None:
                return message

    async def receive_raw(self) -> str | bytes | None:
        """The next message as it came (the first one is read before trusting the classes: another protocol
        version may not fit them)."""
        try:
            return await self.socket.recv()
        except ConnectionClosed:
            return None

    @property
    def close_code(self) -> int | None:
        return self.socket.close_code

    async def close(self) -> None:
        await self.socket.close()
