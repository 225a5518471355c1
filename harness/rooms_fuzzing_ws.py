"""Fuzzing a live server's room over real websockets: the same nonsense as in-process (``rooms_nonsense.py``),
sent through the socket handler, with the checks that the room stays alive and consistent.

Shared by ``tests/test_rooms_fuzz.py`` and ``bench/rooms_fuzz.py`` (``--ws``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from harness.rooms_fuzzing import VERDICTS, Tally
from harness.rooms_nonsense import BAD_TOKENS, HUGE, LOBBY_MESSAGES, MALFORMED, OVERSIZED, SEATS, UNKNOWN, WRONG_TYPES
from ratscrew.record import Record, state_json
from ratscrew.rooms import wire

FLOOD_RETRIES = 20


class WsPage:
    """A socket to a live server's room, read by its own task into a queue."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.state: dict[str, Any] = {}
        self.token: str | None = None
        self.seats: list[int] = []
        self.closed_code: int | None = None
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                doc: dict[str, Any] = json.loads(raw)
                kind = doc["type"]
                if kind == "probe":
                    await self.ws.send(json.dumps({"type": "echo", "id": doc["id"]}))
                    continue
                if kind in ("events", "welcome", "state") and doc.get("state"):
                    self.state = doc["state"]
                if kind == "welcome":
                    self.seats = list(doc["yours"])
                elif kind == "seated":
                    self.token, self.seats = doc["token"], list(doc["seats"])
                self.inbox.put_nowait(doc)
        except ConnectionClosed:
            pass
        finally:
            self.closed_code = self.ws.close_code

    async def send(self, doc: object) -> None:
        raw = doc if isinstance(doc, str | bytes) else json.dumps(doc)
        if isinstance(raw, str) and not _encodes(raw):
            raw = raw.encode("utf-8", "surrogatepass")  # not valid text: it goes as a binary frame
        await self.ws.send(raw)

    async def expect(self, kinds: tuple[str, ...], timeout: float = 30.0) -> dict[str, Any] | None:
        """The next message of one of ``kinds`` (others are passed over); None if none came or the socket shut."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0 or (self.reader.done() and self.inbox.empty()):
                return None
            try:
                doc = await asyncio.wait_for(self.inbox.get(), min(left, 0.2))
            except TimeoutError:
                continue
            if doc["type"] in kinds:
                return doc

    async def answers(self, ping_id: int, timeout: float) -> bool:
        """Whether this page's ping ``ping_id`` is answered within ``timeout`` (other pongs are passed over)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            pong = await self.expect(("pong",), left)
            if pong is None:
                return False
            if pong["id"] == ping_id:
                return True
        return False

    def drain(self) -> None:
        while not self.inbox.empty():
            self.inbox.get_nowait()

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.gather(self.reader, return_exceptions=True)


@dataclass
class LiveRoom:
    base: str  # http://host:port
    code: str
    players: dict[int, WsPage]
    tokens: dict[int, str]

    @property
    def ws_url(self) -> str:
        return self.base.replace("http://", "ws://").rstrip("/") + f"/ws/rooms/{self.code}"


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def post_json(url: str, body: object) -> tuple[int, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def get_json(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def open_page_ws(room: LiveRoom, token: str | None, name: str, *, hello: bool = True) -> WsPage:
    ws = await connect(room.ws_url, open_timeout=10, proxy=None, max_size=2**22)
    page = WsPage(ws, name)
    if hello:
        await page.send({"type": "hello", "v": wire.VERSION, "token": token, "since": -1})
        if await page.expect(("welcome",)) is None:
            raise AssertionError(f"{name}: no welcome")
    return page


async def live_room(base: str, max_cards: int = 150) -> LiveRoom:
    """A room of four people at the table, its game started."""
    rules = {"preset": "standard", "end": {"max_cards": max_cards}}
    status, doc = await asyncio.to_thread(
        post_json, base.rstrip("/") + "/api/rooms", {"seats": SEATS, "name": "Host", "rules": rules}
    )
    if status != 200:
        raise AssertionError(f"room not created: {status} {doc}")
    room = LiveRoom(base, doc["code"], {}, {0: doc["token"]})
    room.players[0] = await open_page_ws(room, doc["token"], "host")
    for seat in range(1, SEATS):
        page = await open_page_ws(room, None, f"p{seat}")
        await page.send({"type": "sit", "seat": seat, "name": f"P{seat}"})
        seated = await page.expect(("seated",))
        assert seated is not None and seated["seats"] == [seat], seated
        room.players[seat], room.tokens[seat] = page, seated["token"]
    for page in room.players.values():
        await page.send({"type": "ready", "ready": True})
    for _ in range(50):
        lobby = await room.players[0].expect(("lobby",))
        if lobby is not None and all(s["ready"] for s in lobby["room"]["seats"]):
            break
    await room.players[0].send({"type": "start"})
    for _ in range(50):
        lobby = await room.players[0].expect(("lobby",))
        if lobby is None or lobby["room"]["phase"] == "playing":
            break
    for page in room.players.values():  # the state before the first card
        await page.send({"type": "resync", "since": -1})
        if await page.expect(("events",)) is None or not page.state:
            raise AssertionError("the game did not start")
    return room


def ws_nonsense(rng: random.Random, cards: int) -> tuple[str, str | bytes, tuple[str, ...]]:
    """A bad message for a seated page during a game, and the answers it may get."""
    refused = ("error",)
    makers: list[Callable[[], tuple[str, str | bytes, tuple[str, ...]]]] = [
        lambda: ("malformed", rng.choice(MALFORMED), refused),
        lambda: ("wrong_type", json.dumps(rng.choice(WRONG_TYPES)), refused),
        lambda: ("huge_number", rng.choice(HUGE), ("error", "events")),  # a resync far ahead is answered
        lambda: ("token", json.dumps({"type": "hello", "v": wire.VERSION, "token": rng.choice(BAD_TOKENS)}), refused),
        lambda: ("oversized", rng.choice(OVERSIZED), refused),
        lambda: ("unknown_type", json.dumps(rng.choice(UNKNOWN)), refused),
        lambda: ("replayed", json.dumps({"type": "hello", "v": wire.VERSION, "since": -1}), refused),
        lambda: ("other_seat", json.dumps({"type": "slap", "seat": 11, "card": cards, "rt": 300}), ("rejected",)),
        lambda: ("out_of_order", json.dumps(rng.choice(LOBBY_MESSAGES[:-1])(rng, cards)), ("rejected",)),
        lambda: ("ping", json.dumps({"type": "ping", "id": rng.randrange(10**9)}), ("pong",)),
    ]
    return rng.choice(makers)()


async def ws_fuzz(base: str, messages: int, seed: int, *, max_cards: int = 150) -> Tally:
    """Bad messages over real sockets to a live room whose game goes on; every one must be answered."""
    rng = random.Random(seed)
    tally = Tally()
    room = await live_room(base, max_cards)
    stop = asyncio.Event()

    async def play() -> None:  # the four players keep the game going meanwhile
        while not stop.is_set():
            state = room.players[0].state
            if state and not state.get("over") and state.get("collect_pending") is None:
                seat = state["turn"]
                with contextlib.suppress(ConnectionClosed):
                    await room.players[seat].send({"type": "flip", "seat": seat})
            await asyncio.sleep(0.15)

    async def fuzz(page: WsPage, count: int) -> None:
        for _ in range(count):
            category, raw, answers = ws_nonsense(rng, int(room.players[0].state.get("cards", 0)))
            tally.sent[category] += 1
            page.drain()
            await page.send(raw)
            answer = await page.expect((*answers, "error", "rejected"))
            if answer is None:
                tally.unanswered.append(f"{page.name} {category}: no answer to {raw[:80]!r}")
            else:
                tally.answers[answer["type"]] += 1
            await asyncio.sleep(0.03)  # below the rate limit: the flood is tested on its own

    async def spectator(count: int) -> None:
        page = await open_page_ws(room, rng.choice([None, "forged-token"]), "spectator")
        await fuzz(page, count)
        await page.close()

    async def flood() -> None:
        page = await open_page_ws(room, None, "flood")
        for i in range(200):
            await page.send({"type": "ping", "id": i})
        tally.sent["flood"] += 200
        told = await page.expect(("error",))
        if told is None or "too many" not in told["message"]:
            tally.unanswered.append(f"a flood got no error: {told}")
        # Answered again once the second is over. The server counts a second's messages as it reads them, and
        # a busy one may read the end of the flood late: so ask once a second (far below the rate) until this
        # very ping is answered, which a socket left stuck never is.
        for attempt in range(FLOOD_RETRIES):
            await asyncio.sleep(1.1)
            await page.send({"type": "ping", "id": 1000 + attempt})
            if await page.answers(1000 + attempt, 2.0):
                break
        else:
            tally.stuck.append(f"a socket that flooded is not answered after {FLOOD_RETRIES} tries a second apart")
        await page.close()

    async def abrupt() -> None:
        for i in range(5):
            page = await open_page_ws(room, None, "abrupt", hello=i % 2 == 0)
            await page.ws.send(json.dumps({"type": "ping", "id": 1}))
            page.ws.transport.abort()  # no close frame
            await asyncio.gather(page.reader, return_exceptions=True)
            tally.sent["abrupt_disconnect"] += 1
        big = await open_page_ws(room, None, "too big")
        with contextlib.suppress(ConnectionClosed):
            await big.send(json.dumps({"type": "ping", "id": 1, "pad": "x" * 70_000}))
        await asyncio.gather(big.reader, return_exceptions=True)
        tally.sent["over_frame_limit"] += 1
        if big.closed_code != 1009:
            tally.unanswered.append(f"a message over the frame limit closed the socket with {big.closed_code}")
        early = await open_page_ws(room, None, "before hello", hello=False)
        await early.send({"type": "flip", "seat": 0})
        tally.sent["before_hello"] += 1
        if await early.expect(("error",)) is None:
            tally.unanswered.append("a flip before hello got no error")
        await early.close()

    player = room.players[1]
    player_tokens = dict(room.tokens)
    runner = asyncio.get_running_loop().create_task(play())
    share = max(1, messages // 4, (messages - 207) // 3)  # the flood and the drops send 207 more
    await asyncio.gather(fuzz(player, share), spectator(share), spectator(share), flood(), abrupt())
    stop.set()
    await runner
    tally.stuck.extend(await ws_alive(room, rng))
    tally.corrupted.extend(await ws_consistent(room, player_tokens))
    for page in room.players.values():
        await page.close()
    return tally


async def ws_alive(room: LiveRoom, rng: random.Random) -> list[str]:
    """The room answers a ping and applies a proper flip and a proper slap."""
    problems: list[str] = []
    watcher = await open_page_ws(room, None, "watcher")
    await watcher.send({"type": "ping", "id": 5})
    if await watcher.expect(("pong",)) is None:
        problems.append("no pong")
    host = room.players[0]
    for _ in range(200):  # wait out a collect window
        if host.state.get("collect_pending") is None:
            break
        await asyncio.sleep(0.05)
    state = host.state
    if state.get("over"):
        await watcher.close()
        return problems
    seat = state["turn"]
    before = state["cards"]
    watcher.drain()
    await room.players[seat].send({"type": "flip", "seat": seat})
    for _ in range(20):  # the events of a pile being collected may come first
        events = await watcher.expect(("events",))
        if events is None:
            problems.append(f"a proper flip by seat {seat} (card {before + 1}) was not applied")
            break
        if any(i["event"]["kind"] == "card_turned" and i["event"]["seat"] == seat for i in events["items"]):
            break
    slapper = next(s for s in range(SEATS) if not host.state["out"][s])
    await room.players[slapper].send({"type": "slap", "seat": slapper, "card": host.state["cards"], "rt": 300})
    for _ in range(20):
        events = await watcher.expect(("events",))
        if events is None:
            problems.append(f"a proper slap by seat {slapper} got no verdict")
            break
        if any(i["event"]["kind"] in VERDICTS and i["event"]["seat"] == slapper for i in events["items"]):
            break
    await watcher.close()
    return problems


async def ws_consistent(room: LiveRoom, tokens: dict[int, str]) -> list[str]:
    """Each player's token still holds their seat; the game, played to its end, replays from its record."""
    problems: list[str] = []
    for seat, token in tokens.items():
        page = await open_page_ws(room, token, f"check {seat}")
        if page.seats != [seat]:
            problems.append(f"the token of seat {seat} now holds {page.seats}")
        await page.close()
    host = room.players[0]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while not host.state.get("over") and loop.time() < deadline:
        state = host.state
        if state.get("collect_pending") is None:
            seat = state["turn"]
            await room.players[seat].send({"type": "flip", "seat": seat})
        await asyncio.sleep(0.03)
    final = host.state
    if not final.get("over"):
        return [*problems, "the game did not reach its end"]
    game_id = room.code
    status, record = await asyncio.to_thread(get_json, f"{room.base.rstrip('/')}/api/games/{game_id}/record")
    if status != 200:
        return [*problems, f"no record of the finished game: {status} {record}"]
    replayed = state_json(Record.from_json(record).replay())
    if replayed["cards"] != final["cards"] or [len(h) for h in replayed["hands"]] != final["stack_sizes"]:
        problems.append(f"the record replays to {replayed['cards']} cards, the game showed {final['cards']}")
    return problems
