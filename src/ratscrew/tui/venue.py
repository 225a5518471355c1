"""Where the terminal's table is: a game against the computer in this process, or an online room on a server.
The app asks either for a link to its room, for the link again after a drop, and for another game."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ratscrew.rooms import wire
from ratscrew.tui.link import Link
from ratscrew.tui.local import LocalTable, Setup
from ratscrew.tui.online import Address, Tokens, open_room
from ratscrew.tui.words import Words

Opened = tuple[Link, wire.Welcome | None, str | None]  # the link, the welcome if already read, a word said first


class Venue(Protocol):
    online: bool
    watching: bool

    async def open(self) -> Opened:
        """The link to the room (its hello said, for an online room)."""
        ...

    async def reopen(self, token: str | None, since: int) -> Opened:
        """The link again after it dropped, as a page reconnects: the seat token, the last event seen."""
        ...

    async def again(self) -> Opened | None:
        """Another game with the same seats (a game against the computer); None where the room decides (online:
        a rematch is a message to the room)."""
        ...

    def hello(self) -> wire.Hello | None:
        """What to say first on a link ``open`` gave without a welcome (None: said already)."""
        ...

    def saved(self, game_id: str) -> str | None:
        """Where a finished game's record is, in words (None: not kept here)."""
        ...

    def keep_token(self, token: str | None) -> None: ...

    def seat_wanted(self) -> int | None: ...

    def name(self) -> str: ...

    async def close(self) -> None: ...


class LocalVenue:
    """A game against the computer (or two at one keyboard), played by this process's rooms."""

    online = False
    watching = False

    def __init__(self, table: LocalTable, setup: Setup, words: Words, folder: str | None = None) -> None:
        self.table = table
        self.setup = setup
        self.words = words
        self.folder = folder  # the data folder as the player named it, for the summary's words

    def _computer(self, n: int) -> str:
        return self.words.t("setup.computer_n", n=n)

    async def open(self) -> Opened:
        return await self.table.deal(self.setup, self._computer), None, None

    async def reopen(self, token: str | None, since: int) -> Opened:
        raise RuntimeError("a game in this process does not drop its link")

    async def again(self) -> Opened | None:
        reactions = self.table.reactions()
        return await self.table.deal(self.setup, self._computer, reactions), None, None

    def hello(self) -> wire.Hello | None:
        return wire.Hello(wire.VERSION, self.table.token, -1)

    def saved(self, game_id: str) -> str | None:
        if self.table.data_dir is None or not game_id:
            return None
        folder = self.folder or str(self.table.data_dir)
        return self.words.t("tui.saved", id=game_id, folder=folder)

    def keep_token(self, token: str | None) -> None:
        pass  # the game lives as long as this process

    def seat_wanted(self) -> int | None:
        return None

    def name(self) -> str:
        return self.setup.people[0]

    async def close(self) -> None:
        await self.table.close()


class OnlineVenue:
    """An online room: the first link the command opened, then the same room again as often as it drops."""

    online = True

    def __init__(
        self,
        address: Address,
        first: Opened,
        tokens: Tokens | None,
        *,
        watching: bool,
        name: str,
        seat: int | None = None,
    ) -> None:
        self.address = address
        self.first: Opened | None = first
        self.tokens = tokens
        self.watching = watching
        self._name = name
        self._seat = seat

    async def open(self) -> Opened:
        assert self.first is not None, "open() gives the first link once"
        first, self.first = self.first, None
        return first

    async def reopen(self, token: str | None, since: int) -> Opened:
        return await open_room(self.address, token, since)

    async def again(self) -> Opened | None:
        return None

    def hello(self) -> wire.Hello | None:
        return None

    def saved(self, game_id: str) -> str | None:
        return None  # the server keeps it: its page's history and replay show it

    def keep_token(self, token: str | None) -> None:
        if self.tokens is not None and not self.watching:
            self.tokens.put(self.address, token)

    def seat_wanted(self) -> int | None:
        return self._seat

    def name(self) -> str:
        return self._name

    async def close(self) -> None:
        pass


def tokens_in(data_dir: Path) -> Tokens:
    return Tokens(data_dir / "tui-seats.json")
