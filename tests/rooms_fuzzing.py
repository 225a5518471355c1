"""Fuzzing a room: hostile and confused pages, in-process on virtual time, with the checks that follow a run.

Shared by ``tests/test_rooms_fuzz.py`` (a few thousand messages) and ``bench/rooms_fuzz.py`` (100,000).
Every message goes the way a socket's would: ``wire.parse_client`` first (what it refuses, the socket
handler answers with an ``error``), then ``RoomCore.receive``. Between messages virtual time moves on and
the room ticks, as its owner task would. Four pages hold the four seats and play properly now and then, so
the game moves on under the noise; every page also sends nonsense, out-of-order, replayed and other-seat
messages, and drops and comes back.

After a run, :func:`check_room` lists what is corrupted (the record replays to another state, a card is in
two places or none, a token moved seats, something the room keeps grew past its bound) and
:func:`check_alive` what is stuck (no answer to a ping, a proper flip or slap no longer applied).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import traceback
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from ratscrew.errors import BadMessage
from ratscrew.patterns import find_matches
from ratscrew.record import Record, action_to_json, state_json
from ratscrew.rooms import wire
from ratscrew.rooms.core import HISTORY, SENT_CARDS_KEPT, Phase, RoomCore, SeatInfo, SeatKind
from ratscrew.rules import Rules
from ratscrew.rules.io import rules_from_mapping
from ratscrew.table.clock import VirtualClock

SEATS = 4
VERDICTS = ("slap_correct", "wrong_slap", "slap_dismissed")
PROBES_KEPT = 16  # a probe every 2 s, forgotten after 30 s


class RecordingJournal:
    """Keeps what the room journals, to compare it with the game itself."""

    def __init__(self) -> None:
        self.doc: dict[str, object] = {}
        self.kept: dict[int, list[object]] = {}
        self.games_finished: list[str] = []

    def room(self, code: str, doc: dict[str, object]) -> None:
        self.doc = json.loads(json.dumps(doc))

    def actions(self, code: str, game_no: int, start: int, actions: list[object]) -> None:
        if game_no not in self.kept:
            self.kept = {game_no: []}  # only the game in progress is compared: the run keeps nothing older
        kept = self.kept[game_no]
        if start != len(kept):
            raise AssertionError(f"journal gap: actions from {start} written after {len(kept)}")
        kept.extend(json.loads(json.dumps(actions)))

    def finished(self, code: str, game_id: str, record: dict[str, object], summary: dict[str, object]) -> None:
        json.dumps(record)
        json.dumps(summary)
        self.games_finished = [*self.games_finished[-9:], game_id]


@dataclass
class FuzzPage:
    id: int
    token: str | None = None
    seats: list[int] = field(default_factory=list)
    greeted: bool = False
    last_seq: int = -1
    sent: list[str] = field(default_factory=list)  # raw messages, for replays
    probes: list[int] = field(default_factory=list)


@dataclass
class Tally:
    """What a fuzz run sent and how it was answered."""

    sent: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)
    refused_by_wire: int = 0
    unanswered: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    corrupted: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    games: int = 0
    cards: int = 0
    reconnects: int = 0

    @property
    def messages(self) -> int:
        return sum(self.sent.values())

    def merge(self, other: Tally) -> None:
        self.sent.update(other.sent)
        self.answers.update(other.answers)
        self.refused_by_wire += other.refused_by_wire
        for name in ("unanswered", "crashes", "corrupted", "stuck"):
            getattr(self, name).extend(getattr(other, name))
        self.games += other.games
        self.cards += other.cards
        self.reconnects += other.reconnects


def pile_slappable(room: RoomCore) -> bool:
    game = room.game
    return game is not None and bool(game.pile) and bool(find_matches(list(game.pile), game.rules))


class RoomFuzzer:
    """One room and the pages that torment it."""

    def __init__(self, seed: int, *, rules: Rules | None = None) -> None:
        self.rng = random.Random(seed)
        self.clock = VirtualClock()
        self.journal = RecordingJournal()
        # Games end after a few hundred cards, so rematches and the lobby between games get fuzzed too.
        self.rules = rules or rules_from_mapping({"preset": "standard", "end": {"max_cards": 150}})
        self.room = RoomCore(
            "FUZZ23",
            self.clock,
            seats=[SeatInfo(SeatKind.HUMAN, "Host")] + [SeatInfo() for _ in range(SEATS - 1)],
            rules=self.rules,
            journal=self.journal,
            seed_source=lambda: self.rng.randrange(1 << 48),
        )
        self.room.tokens[self.room.host_token] = frozenset({0})
        self.pages: dict[int, FuzzPage] = {}
        self.next_id = 0
        self.tally = Tally()
        self.seat_tokens: dict[int, str] = {0: self.room.host_token}  # the token each player holds
        self.game_tokens: dict[str, frozenset[int]] = {}  # tokens as they were when the game started
        self.tokens_of_game = 0  # the game whose tokens game_tokens holds
        self.host = self.open(self.room.host_token)
        self.players = {0: self.host}
        for seat in range(1, SEATS):
            page = self.open(None)
            self.send(page, {"type": "sit", "seat": seat, "name": f"P{seat}"}, "setup")
            self.players[seat] = page
        self.spectators = [self.open(None), self.open("not-a-token")]

    # ------------------------------------------------------------------ pages and messages

    def open(self, token: str | None, since: int = -1) -> FuzzPage:
        self.next_id += 1
        page = FuzzPage(self.next_id, token)
        self.pages[page.id] = page
        self.room.open_page(page.id)
        self.send(page, {"type": "hello", "v": wire.VERSION, "token": token, "since": since}, "setup")
        return page

    def close(self, page: FuzzPage) -> None:
        self.room.close_page(page.id)
        self.pages.pop(page.id, None)
        self.deliver()

    def send(self, page: FuzzPage, doc: object, category: str) -> list[dict[str, Any]]:
        raw = json.dumps(doc) if not isinstance(doc, str | bytes) else doc
        return self.send_raw(page, raw, category)

    def send_raw(self, page: FuzzPage, raw: str | bytes, category: str) -> list[dict[str, Any]]:
        """One message from ``page`` as its socket would hand it on; the messages the page got back at once."""
        self.tally.sent[category] += 1
        try:
            msg = wire.parse_client(raw)
        except BadMessage as exc:
            self.tally.refused_by_wire += 1
            self.tally.answers["error"] += 1
            if not str(exc):
                self.tally.unanswered.append(f"{category}: empty error for {raw[:60]!r}")
            return [{"type": "error", "message": str(exc)}]
        except Exception:
            self.tally.crashes.append(f"parse {category} {raw[:80]!r}: {traceback.format_exc(limit=4)}")
            return []
        if isinstance(raw, str) and len(page.sent) < 200:
            page.sent.append(raw)
        try:
            self.room.receive(page.id, msg)
        except Exception:
            self.tally.crashes.append(f"receive {category} {raw[:80]!r}: {traceback.format_exc(limit=6)}")
            return []
        got = self.deliver().get(page.id, [])
        quiet = isinstance(msg, wire.Echo) or (
            isinstance(msg, wire.FlipMsg | wire.SlapMsg) and not any(m["type"] == "rejected" for m in got)
        )
        if not got and not quiet and page.id in self.pages:
            self.tally.unanswered.append(f"{category}: no answer to {raw[:80]!r} in phase {self.room.phase}")
        return got

    def deliver(self) -> dict[int, list[dict[str, Any]]]:
        """Hand what the room sent to its pages, the way they would read it (through JSON)."""
        by_page: dict[int, list[dict[str, Any]]] = {}
        for page_id, message in self.room.take_outgoing():
            try:
                doc: dict[str, Any] = json.loads(json.dumps(message))
            except (TypeError, ValueError):
                self.tally.crashes.append(f"cannot send {message!r:.200}: {traceback.format_exc(limit=3)}")
                continue
            self.tally.answers[str(doc["type"])] += 1
            by_page.setdefault(page_id, []).append(doc)
            page = self.pages.get(page_id)
            if page is None:
                continue
            kind = doc["type"]
            if kind == "welcome":
                page.greeted = True
                page.seats = list(doc["yours"])
                if doc["missed"] is None:
                    page.last_seq = doc["seq"]
            elif kind == "seated":
                page.token, page.seats = doc["token"], list(doc["seats"])
                for seat in page.seats:
                    self.seat_tokens[seat] = doc["token"]
            elif kind == "events":
                page.last_seq = max([page.last_seq, *(item["seq"] for item in doc["items"])])
            elif kind == "state":
                page.last_seq = doc["seq"]
            elif kind == "probe":
                page.probes.append(doc["id"])
            if "hands" in json.dumps(doc.get("state", {})):
                self.tally.corrupted.append(f"a page was sent the cards in a stack: {doc!r:.200}")
        return by_page

    def advance(self, ms: int) -> dict[int, list[dict[str, Any]]]:
        """Time moves on by ``ms`` and the room ticks; what it sent meanwhile, by page."""
        self.clock.advance(ms)
        try:
            self.room.tick()
        except Exception:
            self.tally.crashes.append(f"tick: {traceback.format_exc(limit=6)}")
        return self.deliver()

    def run_time(self, ms: int, step: int = 50) -> None:
        end = self.clock.now() + ms
        while self.clock.now() < end:
            self.advance(min(step, end - self.clock.now()))

    # ------------------------------------------------------------------ proper play, now and then

    def play_properly(self) -> None:
        room, rng = self.room, self.rng
        game = room.game
        if room.phase is Phase.LOBBY:
            self.to_the_table()
            return
        if room.phase is Phase.OVER:
            self.send(self.players[0], {"type": "rematch"}, "proper")
            return
        if game is None:
            return
        if pile_slappable(room) and rng.random() < 0.7:
            seat = rng.randrange(SEATS)
            rt = rng.randint(150, 500)
            self.advance(rt)
            self.send(self.players[seat], {"type": "slap", "seat": seat, "card": game.cards, "rt": rt}, "proper")
        elif game.collect_pending is None and not game.over:
            seat = game.turn
            self.send(self.players[seat], {"type": "flip", "seat": seat}, "proper")
        for page in self.pages.values():
            while page.probes:
                self.send(page, {"type": "echo", "id": page.probes.pop()}, "proper")

    def to_the_table(self) -> None:
        """From the lobby to a game, whatever the lobby now looks like: the four players sit, ready, start."""
        room = self.room
        # The page holding the host's token: the first one, unless the host left the lobby and it moved on.
        host = next((p for p in self.players.values() if p.token == room.host_token and p.id in self.pages), self.host)
        if len(room.seats) != SEATS:
            self.send(host, {"type": "seats", "count": SEATS}, "proper")
        for seat in range(SEATS):
            info = room.seats[seat] if seat < len(room.seats) else None
            if info is not None and info.kind is SeatKind.BOT:
                self.send(host, {"type": "bot", "seat": seat, "level": None}, "proper")
        for seat, page in list(self.players.items()):
            page = self.reconnect_if_gone(seat, page)
            if seat not in page.seats and seat < len(room.seats) and room.seats[seat].kind is SeatKind.EMPTY:
                self.send(page, {"type": "sit", "seat": seat, "name": f"P{seat}"}, "proper")
            self.send(page, {"type": "ready", "ready": True}, "proper")
        if all(s.kind is SeatKind.HUMAN and s.ready for s in room.seats) and len(room.seats) == SEATS:
            holders = {seat: self.players[seat].seats for seat in range(SEATS)}
            if all(holders[seat] == [seat] for seat in range(SEATS)):
                self.send(host, {"type": "start"}, "proper")
                if room.phase is Phase.PLAYING:
                    self.tally.games += 1

    def reconnect_if_gone(self, seat: int, page: FuzzPage) -> FuzzPage:
        if page.id in self.pages:
            return page
        fresh = self.open(page.token, page.last_seq)
        fresh.seats = list(page.seats)
        self.players[seat] = fresh
        if seat == 0:
            self.host = fresh
        self.tally.reconnects += 1
        return fresh

    # ------------------------------------------------------------------ nonsense

    def step(self) -> None:
        """One hostile or confused message (or a drop), then time moves on."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.25:
            self.play_properly()
        elif roll < 0.27:
            self.drop_and_return()
        elif roll < 0.28:
            self.before_hello()
        else:
            page = rng.choice(list(self.pages.values()))
            category, raw = self.nonsense(page)
            self.send_raw(page, raw, category)
        self.advance(rng.choice((0, 0, 1, 5, 20, 40, 100, 300, 1200)))

    def drop_and_return(self) -> None:
        rng = self.rng
        seat = rng.randrange(SEATS)
        page = self.players[seat]
        self.close(page)
        if rng.random() < 0.8:
            self.advance(rng.choice((0, 50, 2000, 20_000)))
            self.reconnect_if_gone(seat, page)

    def nonsense(self, page: FuzzPage) -> tuple[str, str | bytes]:
        rng = self.rng
        room = self.room
        game = room.game
        cards = game.cards if game is not None else 0
        makers: list[Callable[[], tuple[str, str | bytes]]] = [
            lambda: ("malformed", rng.choice(MALFORMED)),
            lambda: ("malformed", bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))),
            lambda: ("wrong_type", json.dumps(rng.choice(WRONG_TYPES))),
            lambda: ("huge_number", rng.choice(HUGE)),
            lambda: ("token", json.dumps({"type": "hello", "v": wire.VERSION, "token": rng.choice(BAD_TOKENS)})),
            lambda: ("token", json.dumps({"type": "hello", "v": wire.VERSION, "token": self.any_token(), "since": -1})),
            lambda: ("oversized", rng.choice(OVERSIZED)),
            lambda: ("unknown_type", json.dumps(rng.choice(UNKNOWN))),
            lambda: ("replayed", rng.choice(self.any_sent())),
            lambda: ("other_seat", json.dumps(self.other_seat(page, cards))),
            lambda: ("out_of_order", json.dumps(rng.choice(LOBBY_MESSAGES + PLAY_MESSAGES)(rng, cards))),
            lambda: ("resync", json.dumps({"type": "resync", "since": rng.randint(-1, room.seq + 3)})),
            lambda: ("ping", json.dumps({"type": "ping", "id": rng.randrange(10**9)})),
            lambda: ("echo", json.dumps({"type": "echo", "id": rng.randrange(10**9)})),
        ]
        return rng.choice(makers)()

    def any_token(self) -> str:
        tokens = [*list(self.room.tokens), "", "x" * wire.MAX_TOKEN]
        return self.rng.choice(tokens)

    def any_sent(self) -> list[str]:
        pages = [p for p in self.pages.values() if p.sent]
        return self.rng.choice(pages).sent if pages else ['{"type": "ping", "id": 1}']

    def other_seat(self, page: FuzzPage, cards: int) -> dict[str, object]:
        others = [s for s in range(12) if s not in page.seats]
        seat = self.rng.choice(others)
        if self.rng.random() < 0.5:
            return {"type": "flip", "seat": seat}
        return {"type": "slap", "seat": seat, "card": cards, "rt": self.rng.randint(0, 900)}

    def before_hello(self) -> None:
        """A page that speaks before saying hello, then goes."""
        self.next_id += 1
        page = FuzzPage(self.next_id)
        self.pages[page.id] = page
        self.room.open_page(page.id)
        for _ in range(self.rng.randint(1, 3)):
            message = self.rng.choice(PLAY_MESSAGES + LOBBY_MESSAGES[:-1])(self.rng, 0)
            got = self.send(page, message, "before_hello")
            if [m["type"] for m in got] != ["error"]:
                self.tally.unanswered.append(f"before hello: {message} got {got!r:.200}")
        self.close(page)

    # ------------------------------------------------------------------ the run

    def run(self, messages: int) -> Tally:
        start = self.tally.messages
        while self.tally.messages - start < messages:
            self.step()
            room = self.room
            if room.phase is Phase.PLAYING and self.tokens_of_game != room.game_no:
                # Whoever started it (a lobby whose host left is handed to another player): tokens cannot
                # change during a game, so this is how they were at its start.
                self.tokens_of_game = room.game_no
                self.game_tokens = {t: s for t, s in room.tokens.items() if s}
        if self.room.game is not None:
            self.tally.cards = self.room.game.cards
        return self.tally


# ---------------------------------------------------------------------- what is sent


def _huge(digits: int) -> str:
    return "9" * digits


MALFORMED: list[str | bytes] = [
    "",
    " ",
    "{",
    '{"type": ',
    '{"type": "flip", "seat": 0',
    "null",
    "true",
    "42",
    '"flip"',
    "[]",
    '[{"type": "flip", "seat": 0}]',
    '{"type": "ping", "id": NaN}',
    '{"type": "ping", "id": Infinity}',
    '{"type": "ping", "id": -Infinity}',
    "[" * 1500,
    '{"a":' * 400 + "1" + "}" * 400,
    b"\xff\xfe\x00",
    b"\x80not utf-8",
    '{"type": "flip", "seat": 0}\x00',
    "{'type': 'flip', 'seat': 0}",
    '{"type": "flip" "seat": 0}',
    '{"type": "ping", "id": 1}{"type": "ping", "id": 2}',
    '{"type": "flip", "seat": 0, "seat": 1, "seat": "x"}',
    "\ud800",
]
WRONG_TYPES: list[dict[str, object]] = [
    {"type": "flip"},
    {"type": "flip", "seat": "0"},
    {"type": "flip", "seat": 0.5},
    {"type": "flip", "seat": 1.0},
    {"type": "flip", "seat": True},
    {"type": "flip", "seat": None},
    {"type": "flip", "seat": []},
    {"type": "flip", "seat": {}},
    {"type": "flip", "seat": -1},
    {"type": "flip", "seat": 12},
    {"type": "slap", "seat": 0, "card": "top"},
    {"type": "slap", "seat": 0, "card": -5},
    {"type": "slap", "seat": 0, "card": 1, "rt": -1},
    {"type": "slap", "seat": 0, "card": 1, "rt": 10**7},
    {"type": "slap", "seat": 0, "card": 1, "rt": 1e3},
    {"type": "ping"},
    {"type": "ping", "id": "1"},
    {"type": "echo", "id": None},
    {"type": "resync", "since": -2},
    {"type": "resync", "since": "0"},
    {"type": "hello", "v": "2"},
    {"type": "hello", "v": 1},
    {"type": "hello", "v": wire.VERSION, "since": "x"},
    {"type": "hello", "v": wire.VERSION, "token": 12345},
    {"type": "hello", "v": wire.VERSION, "token": ["a"]},
    {"type": "sit", "seat": 1, "name": 5},
    {"type": "sit", "seat": 1, "name": ["Ann"]},
    {"type": "sit", "seat": "one"},
    {"type": "ready", "ready": "yes"},
    {"type": "ready", "ready": 1},
    {"type": "seats", "count": 1},
    {"type": "seats", "count": 13},
    {"type": "seats", "count": "4"},
    {"type": "bot", "seat": 1, "level": []},
    {"type": "bot", "seat": 1, "level": {}},
    {"type": "bot", "seat": 1, "level": 3},
    {"type": "bot", "seat": 1, "level": "x" * 41},
    {"type": "visibility", "public": "true"},
    {"type": "visibility"},
    {"type": ["flip"], "seat": 0},
    {"type": {"flip": 0}},
]
HUGE: list[str] = [
    '{"type": "flip", "seat": ' + _huge(5000)[:1900] + "}",
    '{"type": "ping", "id": ' + _huge(4301)[:2000] + "}",
    '{"type": "ping", "id": -' + _huge(1990) + "}",
    '{"type": "slap", "seat": 0, "card": 1e400}',
    '{"type": "slap", "seat": 0, "card": 1, "rt": 1e-400}',
    '{"type": "resync", "since": 9999999999999}',
    '{"type": "resync", "since": 999999999}',
    '{"type": "ping", "id": 1000000001}',
    '{"type": "ping", "id": 0.0000001}',
    '{"type": "echo", "id": ' + _huge(13) + "}",
]
BAD_TOKENS: list[object] = [
    "é" * 10,
    "\u2460\u00b2",
    "🂡" * 16,
    "\x00" * 8,
    "A" * (wire.MAX_TOKEN + 1),
    "A" * 1900,
    "",
    " ",
    "null",
]
OVERSIZED: list[str | bytes] = [
    json.dumps({"type": "ping", "id": 1, "pad": "x" * 3000}),
    json.dumps({"type": "sit", "seat": 1, "name": "N" * 5000}),
    json.dumps({"type": "flip", "seat": 0, "pad": "é" * 2049}, ensure_ascii=False),
    b"{" + b" " * 4096 + b"}",
    "[" * 2049,
]
UNKNOWN: list[object] = [
    {"type": "teleport", "seat": 0},
    {"type": "FLIP", "seat": 0},
    {"type": "flip ", "seat": 0},
    {"type": "__proto__"},
    {"type": None},
    {"type": 5},
    {"seat": 0},
    {},
    {"type": "welcome"},
    {"type": "events", "items": []},
    {"type": "probe", "id": 1},
]
Maker = Callable[[random.Random, int], dict[str, object]]
LOBBY_MESSAGES: list[Maker] = [
    lambda r, c: {"type": "sit", "seat": r.randrange(12), "name": r.choice(["Zed", "<b>x</b>", "\u202e\u0000", ""])},
    lambda r, c: {"type": "stand"},
    lambda r, c: {"type": "ready", "ready": r.random() < 0.5},
    lambda r, c: {"type": "seats", "count": r.randint(2, 12)},
    lambda r, c: {"type": "bot", "seat": r.randrange(12), "level": r.choice(["easy", "expert", "match", "nope", None])},
    lambda r, c: {"type": "rules", "rules": r.choice(RULES_DOCS)},
    lambda r, c: {"type": "visibility", "public": r.random() < 0.5},
    lambda r, c: {"type": "start"},
    lambda r, c: {"type": "rematch"},
    lambda r, c: {"type": "hello", "v": wire.VERSION},
]
PLAY_MESSAGES: list[Maker] = [
    lambda r, c: {"type": "flip", "seat": r.randrange(SEATS)},
    lambda r, c: {"type": "slap", "seat": r.randrange(SEATS), "card": r.randint(0, c + 2), "rt": r.randint(0, 2000)},
    lambda r, c: {"type": "slap", "seat": r.randrange(SEATS)},
    lambda r, c: {"type": "slap", "seat": r.randrange(SEATS), "card": None, "rt": None},
    lambda r, c: {"type": "resync", "since": r.randint(-1, c)},
]
RULES_DOCS: list[object] = [
    "standard",
    "bicycle",
    "nonsense",
    {"preset": "standard"},
    {"slaps": {"run": 5}},
    {"slaps": {"run": "²"}},
    {"slaps": {"double": "yes"}},
    {"slapping": {"penalty_cards": 10**9}},
    {"deck": {"decks": 0}},
    {"deck": {"jokers": -1}},
    {"end": {"max_cards": 20}},
    [1, 2, 3],
    None,
    5,
    {"preset": ["standard"]},
    {"unknown_section": {"x": 1}},
]


# ---------------------------------------------------------------------- the checks


def check_room(fuzzer: RoomFuzzer) -> list[str]:
    """Everything corrupted in the room after a run (an empty list: nothing)."""
    room = fuzzer.room
    problems: list[str] = []
    game = room.game
    if game is not None:
        dealt = sorted(str(c) for hand in game.hands for c in hand)
        now = sorted(str(c) for c in [*(c for s in game.stacks for c in s), *game.pile, *game.burned])
        if dealt != now:
            problems.append(f"cards: {len(now)} in play, {len(dealt)} dealt, or not the same ones")
        try:
            replayed = state_json(room.record().replay())
        except Exception as exc:
            problems.append(f"the record does not replay: {exc}")
        else:
            if replayed != state_json(game):
                problems.append("the record replays to another state than the game's")
        journaled = fuzzer.journal.kept.get(room.game_no, [])
        if journaled != [json.loads(json.dumps(action_to_json(a))) for a in game.actions]:
            problems.append(f"journal holds {len(journaled)} actions, the game {len(game.actions)} (or others)")
        if room.phase is Phase.PLAYING and game.over:
            problems.append("the game is over but the room still plays")
    if room.phase is not Phase.LOBBY:
        for token, seats in fuzzer.game_tokens.items():
            if room.seats_of(token) != seats:
                problems.append(f"a token held {sorted(seats)} at the start and now {room.seats_of(token)}")
    if len(room.history) > HISTORY:
        problems.append(f"history holds {len(room.history)} events")
    bound = len(room.seats) + 1 + len(room.pages)
    if len(room.tokens) > bound:
        problems.append(f"{len(room.tokens)} tokens for {len(room.seats)} seats and {len(room.pages)} pages")
    for page in room.pages.values():
        if len(page.sent_cards) > SENT_CARDS_KEPT or len(page.probes) > PROBES_KEPT:
            problems.append(f"page {page.id} keeps {len(page.sent_cards)} card times, {len(page.probes)} probes")
    if room.outgoing:
        problems.append(f"{len(room.outgoing)} messages left unsent")
    return problems


def check_alive(fuzzer: RoomFuzzer, limit_ms: int = 600_000) -> list[str]:
    """What is stuck: the room must answer a ping, and take a proper flip and a proper slap."""
    problems: list[str] = []
    watcher = fuzzer.open(None)
    got = fuzzer.send(watcher, {"type": "ping", "id": 77}, "alive")
    if {"type": "pong", "id": 77} not in got:
        problems.append(f"no pong: {got!r:.200}")
    room = fuzzer.room
    start = fuzzer.clock.now()
    flipped = slapped = False
    while not (flipped and slapped) and fuzzer.clock.now() - start < limit_ms:
        game = room.game
        if room.phase is not Phase.PLAYING or game is None or game.over:
            fuzzer.play_properly()
            fuzzer.run_time(200)
            continue
        if game.collect_pending is not None:
            fuzzer.run_time(100)
            continue
        seat = game.turn
        if not flipped or slapped:
            before = game.cards
            fuzzer.reconnect_if_gone(seat, fuzzer.players[seat])
            fuzzer.send(fuzzer.players[seat], {"type": "flip", "seat": seat}, "alive")
            items = _events_after(fuzzer, (room.table.hold_ms if room.table is not None else 0) + 50)
            turned = [i for i in items if i["event"]["kind"] == "card_turned" and i["event"]["seat"] == seat]
            if turned and game.cards > before:
                flipped = True
            elif not any(i["event"]["kind"] == "game_over" for i in items):
                problems.append(f"a proper flip by seat {seat} was not applied")
                break
        else:
            slapper = next(s for s in range(seat + 1, seat + 1 + SEATS) if not game.out[s % SEATS]) % SEATS
            fuzzer.reconnect_if_gone(slapper, fuzzer.players[slapper])
            msg = {"type": "slap", "seat": slapper, "card": game.cards, "rt": 300}
            got = fuzzer.send(fuzzer.players[slapper], msg, "alive")
            items = _events_after(fuzzer, (room.table.hold_ms if room.table is not None else 0) + 50)
            verdicts = [i for i in items if i["event"]["kind"] in VERDICTS and i["event"]["seat"] == slapper]
            if verdicts:
                slapped = True
            elif any(m["type"] == "rejected" for m in got) and game.over:
                continue
            else:
                problems.append(f"a proper slap by seat {slapper} got no verdict ({got!r:.200})")
                break
    if not (flipped and slapped) and not problems:
        problems.append(f"no proper flip and slap within {limit_ms} ms of virtual time")
    fuzzer.close(watcher)
    return problems


def _events_after(fuzzer: RoomFuzzer, ms: int) -> list[dict[str, Any]]:
    """The event items the room sends while ``ms`` of time passes."""
    items: dict[int, dict[str, Any]] = {}
    end = fuzzer.clock.now() + ms
    while fuzzer.clock.now() < end:
        for message in [m for got in fuzzer.advance(10).values() for m in got]:
            if message["type"] == "events":
                items.update((item["seq"], item) for item in message["items"])
    return [items[seq] for seq in sorted(items)]


# ---------------------------------------------------------------------- over real websockets


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

    async def expect(self, kinds: tuple[str, ...], timeout: float = 10.0) -> dict[str, Any] | None:
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
        await asyncio.sleep(1.1)
        page.drain()
        await page.send({"type": "ping", "id": 999})
        if await page.expect(("pong",)) is None:
            tally.stuck.append("a socket that flooded is not answered a second later")
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
