"""Fuzzing a room: hostile and confused pages, in-process on virtual time, with the checks that follow a run.

Shared by ``tests/test_rooms_fuzz.py`` (a few thousand messages) and ``bench/rooms_fuzz.py`` (100,000); what
the pages send is in ``rooms_nonsense.py``, the same over real websockets in ``rooms_fuzzing_ws.py``.
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

import json
import random
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harness.rooms_nonsense import (
    BAD_TOKENS,
    HUGE,
    LOBBY_MESSAGES,
    MALFORMED,
    OVERSIZED,
    PLAY_MESSAGES,
    SEATS,
    UNKNOWN,
    WRONG_TYPES,
)
from ratscrew.errors import BadMessage
from ratscrew.patterns import find_matches
from ratscrew.record import Record, action_to_json, state_json
from ratscrew.rooms import wire
from ratscrew.rooms.core import HISTORY, RoomCore
from ratscrew.rooms.document import KeptRoom
from ratscrew.rooms.pages import SENT_CARDS_KEPT
from ratscrew.rooms.seating import SeatInfo
from ratscrew.rooms.wire import GameSummary, Phase, SeatKind
from ratscrew.rules import Rules
from ratscrew.rules.io import rules_from_mapping
from ratscrew.table.clock import VirtualClock

VERDICTS = ("slap_correct", "wrong_slap", "slap_dismissed")
PROBES_KEPT = 16  # a probe every 2 s, forgotten after 30 s


class RecordingJournal:
    """Keeps what the room journals, to compare it with the game itself."""

    def __init__(self) -> None:
        self.doc: dict[str, object] = {}  # the room as the journal would write it
        self.kept: dict[int, list[object]] = {}
        self.games_finished: list[str] = []

    def room(self, code: str, room: KeptRoom) -> None:
        self.doc = json.loads(json.dumps(room.to_doc()))

    def actions(self, code: str, game_no: int, start: int, actions: list[object], seq: int) -> None:
        if game_no not in self.kept:
            self.kept = {game_no: []}  # only the game in progress is compared: the run keeps nothing older
        kept = self.kept[game_no]
        if start != len(kept):
            raise AssertionError(f"journal gap: actions from {start} written after {len(kept)}")
        kept.extend(json.loads(json.dumps(actions)))

    def healthy(self) -> bool:
        return True

    def finished(self, code: str, game_id: str, record: Record, summary: GameSummary) -> None:
        json.dumps(record.to_json())
        json.dumps(summary.to_json())
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
