"""What hostile and confused pages send a room, for the fuzzers (``rooms_fuzzing.py`` in-process,
``rooms_fuzzing_ws.py`` over real websockets): messages that are not JSON, of the wrong shape, too large, of
unknown types, with bad tokens, and lobby and play messages with random values."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from ratscrew.rooms import wire
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS

SEATS = 4  # the fuzzed rooms' seats
NAMES = ["Zed", "<b>x</b>", "\u202e\u0000", ""]
LEVELS = ["easy", "expert", "match", "nope", None]


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
    lambda r, c: {
        "type": "sit",
        "seat": r.randrange(MAX_PLAYERS),
        "name": r.choice(["Zed", "<b>x</b>", "\u202e\u0000", ""]),
    },
    lambda r, c: {"type": "stand"},
    lambda r, c: {"type": "ready", "ready": r.random() < 0.5},
    lambda r, c: {"type": "seats", "count": r.randint(MIN_PLAYERS, MAX_PLAYERS)},
    lambda r, c: {
        "type": "bot",
        "seat": r.randrange(MAX_PLAYERS),
        "level": r.choice(["easy", "expert", "match", "nope", None]),
    },
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
