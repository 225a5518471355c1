"""The score keeper's API: matches of several rounds played with a real deck, kept in the SQLite store.

People at a real table tap the winner of each round (or, when a timed round runs out, enter each player's
card count and let the server pick the winner). Every body is untrusted: it is size-limited, checked field by
field, and refused with a 400 that says what was wrong and what was expected, before anything is written.
The store commits each write before the answer goes out, so a server stopped mid-match loses nothing.

Creating a match answers with its owner ``key``, given once and never stored in clear. The page keeps its
keys and sends them with every request, as ``X-Match-Keys: key1,key2,...``; changing or deleting a match
needs its key (403 without), and the list shows only the matches whose keys were sent (and those saved
before keys existed, which stay open to everyone). Every phone at a table that should score a match opens
its share link once (``#/scores/<id>-<key>``), so they all hold the key and all see the match.

Routes::

    GET    /api/matches?limit=&before=   the newest matches the keys open (50 by default), with wins so far,
                                         and "next": the ``before`` of the next page, or null
    POST   /api/matches                  {"players": [...], "name"?, "rules"?, "timer_s"?}: the match and its key
    GET    /api/matches/{id}             one match with its rounds
    POST   /api/matches/{id}/rounds      {"winner": 0} or {"cards": [12, 30, 10]}; optional "rounds": n seen
    POST   /api/matches/{id}/undo        remove the last round; optional "rounds": n seen
    POST   /api/matches/{id}/timer       start (or restart) the round timer
    POST   /api/matches/{id}/finish      {"finished": true | false}
    DELETE /api/matches/{id}             delete the match and its rounds
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.errors import BadRequest, Conflict, Forbidden, RatscrewError
from ratscrew.names import MAX_NAME, clean_text
from ratscrew.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, rules_from_mapping, rules_to_mapping
from ratscrew.rules.io import RulesDoc
from ratscrew.shapes import Shape
from ratscrew.web.bodies import is_ascii_number, json_type, parse_rules, read_body
from ratscrew.web.errors import error_response
from ratscrew.web.lookups import found, is_marked, looks_up
from ratscrew.web.store import Round, ScoreMatch, Store, match_not_found

MAX_MATCH_NAME = 60
MAX_TIMER_S = 24 * 3600
MAX_ROUNDS = 9999  # far beyond any evening; keeps one match from growing without bound
ID_PATTERN = re.compile(r"^[0-9a-f]{1,32}$")
KEY_HEADER = "X-Match-Keys"
KEY_PATTERN = re.compile(r"^[0-9a-f]{32}$")
MAX_KEYS = 300  # keeps the header under the server's header size limit
LIST_LIMIT = 50
MAX_LIST_LIMIT = 200
CURSOR_PATTERN = re.compile(r"^(\d{1,12}(?:\.\d{1,20})?)_([0-9a-f]{1,32})$")


# The store reads the round count and then inserts the next number; two writes to one match at the same
# moment (two phones tapping) must not interleave, so every write goes through this lock.
_WRITES = threading.Lock()


class MatchConflict(Conflict):
    """A request that does not fit the match as it is now (409); the answer carries the current match, so the
    page can show it at once."""

    def __init__(self, message: str, match: ScoreMatch) -> None:
        super().__init__(message)
        self.extra = {"match": match_doc(match).to_json()}


Handler = Callable[[Request], Awaitable[Response]]


# ---------------------------------------------------------------------------------------- reading bodies


def only_fields(doc: dict[str, Any], allowed: tuple[str, ...]) -> None:
    """Refuse unknown fields: a misspelt ``winer`` should be an error, not a silently ignored request."""
    for key in doc:
        if key not in allowed:
            expected = ", ".join(allowed) if allowed else "no fields"
            raise BadRequest(f"unknown field {str(key)[:30]!r}: expected {expected}")


def whole_number(value: object, field: str, low: int, high: int) -> int:
    """An integer in [low, high]; ``true`` and ``2.5`` are refused although Python would take them as numbers."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{field} must be a whole number from {low} to {high}, got {json_type(value)}")
    if not low <= value <= high:
        raise BadRequest(f"{field} must be from {low} to {high}, got {value}")
    return value


# ---------------------------------------------------------------------------------------- new matches


def parse_players(value: object) -> list[str]:
    if not isinstance(value, list):
        raise BadRequest(f"players must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} names, got {json_type(value)}")
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise BadRequest(f"players must list {MIN_PLAYERS} to {MAX_PLAYERS} names, got {len(value)}")
    names: list[str] = []
    seen: set[str] = set()
    for i, item in enumerate(value):
        name = clean_text(item, f"player {i + 1}'s name", MAX_NAME, error=BadRequest)
        if not name:
            raise BadRequest(f"player {i + 1}'s name is empty: give every player a name")
        if name.casefold() in seen:
            raise BadRequest(f"two players are called {name!r}: give each player a different name")
        seen.add(name.casefold())
        names.append(name)
    return names


def parse_new_match(doc: dict[str, Any]) -> tuple[str, list[str], RulesDoc, int]:
    """Name, players, rules (as a preset plus changes) and timer of a new match, all checked."""
    only_fields(doc, ("name", "players", "rules", "timer_s"))
    if "players" not in doc:
        raise BadRequest(f"players is missing: expected a list of {MIN_PLAYERS} to {MAX_PLAYERS} names")
    players = parse_players(doc["players"])
    name = clean_text(doc["name"], "name", MAX_MATCH_NAME, error=BadRequest) if doc.get("name") is not None else ""
    rules = parse_rules(doc.get("rules", "standard"))
    if "timer_s" in doc and doc["timer_s"] is not None:
        timer_s = whole_number(doc["timer_s"], "timer_s", 0, MAX_TIMER_S)
    else:
        timer_s = rules.end.time_limit_s
    # The timer is the match's own setting; keeping it out of the stored rules avoids two values disagreeing.
    rules = rules.with_changes({"end.time_limit_s": 0})
    return name, players, rules_to_mapping(rules), timer_s


# ---------------------------------------------------------------------------------------- answers


def match_rules(match: ScoreMatch) -> Rules:
    """The stored rules as a value (they were checked on the way in; a damaged row falls back to standard)."""
    try:
        return rules_from_mapping(match.rules)
    except (RatscrewError, ValueError, TypeError):
        return Rules.build("standard")


def leaders(match: ScoreMatch) -> list[int]:
    """The players with the most round wins (none before the first win)."""
    wins = match.wins()
    best = max(wins, default=0)
    return [i for i, w in enumerate(wins) if best and w == best]


@dataclass(frozen=True, slots=True)
class MatchShown(Shape):
    """One score-keeper match with its rounds, as the page shows it: the stored fields plus leaders, draws and
    the rules spelled out, and whether the caller's keys let it change the match (without, a phone watches)."""

    id: str
    name: str
    players: tuple[str, ...]
    rules: RulesDoc
    timer_s: int
    round_started: float | None
    remaining_s: float | None
    finished: bool
    created: float
    updated: float
    rounds: tuple[Round, ...]
    wins: tuple[int, ...]
    leaders: tuple[int, ...]
    draws: int
    rules_values: dict[str, bool | int | str]  # every rules key with its value
    decks: int
    deck_size: int
    timer_running: bool
    can_change: bool


@dataclass(frozen=True, slots=True)
class CreatedMatch(MatchShown):
    """``POST /api/matches``: the new match, and its owner key (given this once)."""

    key: str


@dataclass(frozen=True, slots=True)
class MatchListItem(Shape):
    """A match in the list: enough to pick it and see the score, without its rounds."""

    id: str
    name: str
    players: tuple[str, ...]
    wins: tuple[int, ...]
    leaders: tuple[int, ...]
    rounds: int
    preset: str
    timer_s: int
    finished: bool
    created: float
    updated: float


@dataclass(frozen=True, slots=True)
class MatchPage(Shape):
    """``GET /api/matches``: one page of the list, and where the next starts (None: no more)."""

    matches: tuple[MatchListItem, ...]
    next: str | None


SHAPES = (MatchShown, CreatedMatch, MatchPage)


def match_doc(match: ScoreMatch, now: float | None = None, *, can_change: bool = True) -> MatchShown:
    """A match as the page needs it."""
    rules = match_rules(match)
    deck = rules.deck_for(len(match.players))
    return MatchShown(
        match.id,
        match.name,
        match.players,
        match.rules,
        match.timer_s,
        match.round_started,
        match.remaining_s(now),
        match.finished,
        match.created,
        match.updated,
        match.rounds,
        tuple(match.wins()),
        tuple(leaders(match)),
        sum(1 for r in match.rounds if r.winner is None),
        rules.values(),
        deck.decks,
        deck.size,
        match.round_started is not None and match.timer_s > 0,
        can_change,
    )


def summary_doc(match: ScoreMatch) -> MatchListItem:
    """A match in the list."""
    preset = match.rules.get("preset", "standard")
    return MatchListItem(
        match.id,
        match.name,
        match.players,
        tuple(match.wins()),
        tuple(leaders(match)),
        len(match.rounds),
        preset if isinstance(preset, str) else "standard",
        match.timer_s,
        match.finished,
        match.created,
        match.updated,
    )


def winner_by_cards(cards: list[int]) -> int | None:
    """When time is up the most cards win; equal most is a draw."""
    best = max(cards)
    top = [i for i, c in enumerate(cards) if c == best]
    return top[0] if len(top) == 1 else None


# ---------------------------------------------------------------------------------------- owner keys


def new_key() -> tuple[str, str]:
    """A fresh owner key (128 random bits, as 32 hex digits) and the hash the store keeps of it."""
    key = secrets.token_hex(16)
    return key, key_hash(key)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def held_keys(request: Request) -> frozenset[str]:
    """The hashes of the keys the caller sent in ``X-Match-Keys`` (none: an empty set)."""
    raw = request.headers.get(KEY_HEADER, "")
    keys = [k.strip() for k in raw.split(",") if k.strip()]
    if len(keys) > MAX_KEYS:
        raise BadRequest(f"{KEY_HEADER} holds {len(keys)} keys: at most {MAX_KEYS}")
    for key in keys:
        if not KEY_PATTERN.match(key):
            raise BadRequest(f"{KEY_HEADER} must list match keys (32 hex digits each) separated by commas")
    return frozenset(key_hash(k) for k in keys)


def may_change(match: ScoreMatch, keys: frozenset[str]) -> bool:
    # Hashes of random keys are compared, so a timing difference tells an attacker nothing about a key.
    return match.key_hash is None or match.key_hash in keys


def _check_owner(match: ScoreMatch, keys: frozenset[str]) -> None:
    if not may_change(match, keys):
        raise Forbidden(
            "this match can be changed only on a phone that holds its key: open its share link "
            "from the phone that started it"
        )


# ---------------------------------------------------------------------------------------- store work (threads)


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _match_id(request: Request) -> str:
    match_id = str(request.path_params["match_id"])
    if not ID_PATTERN.match(match_id):
        raise match_not_found(match_id)
    return match_id


def _expect_rounds(match: ScoreMatch, doc: dict[str, Any]) -> None:
    """With ``rounds`` (the count the page saw), refuse a write meant for an older state: a double tap or a
    second phone must not record or undo twice."""
    if "rounds" in doc:
        seen = whole_number(doc["rounds"], "rounds", 0, MAX_ROUNDS)
        if seen != len(match.rounds):
            raise MatchConflict(
                f"the match changed meanwhile: it has {len(match.rounds)} rounds, not {seen}; "
                "the page now shows the current score",
                match,
            )


def _open(match: ScoreMatch, doing: str) -> None:
    if match.finished:
        raise MatchConflict(f"the match is finished, so {doing} is not possible: reopen it first", match)


def add_round(store: Store, match_id: str, doc: dict[str, Any], keys: frozenset[str]) -> ScoreMatch:
    with _WRITES:
        match = store.match(match_id)
        _check_owner(match, keys)
        only_fields(doc, ("winner", "cards", "rounds"))
        count = len(match.players)
        if ("winner" in doc) == ("cards" in doc):
            raise BadRequest(
                f"give either winner (a player from 0 to {count - 1}) or cards (each player's card "
                f"count, {count} numbers), not {'both' if 'winner' in doc else 'neither'}"
            )
        cards: list[int] | None = None
        if "winner" in doc:
            winner: int | None = whole_number(doc["winner"], "winner", 0, count - 1)
        else:
            cards = parse_card_counts(doc["cards"], count, match_rules(match).deck_for(count).size)
            winner = winner_by_cards(cards)
        _open(match, "recording a round")
        _expect_rounds(match, doc)
        if len(match.rounds) >= MAX_ROUNDS:
            raise MatchConflict(f"a match holds at most {MAX_ROUNDS} rounds: start a new match", match)
        return store.add_round(match_id, winner, cards)


def parse_card_counts(value: object, players: int, deck_size: int) -> list[int]:
    if not isinstance(value, list):
        raise BadRequest(f"cards must be a list of {players} card counts, one per player, got {json_type(value)}")
    if len(value) != players:
        raise BadRequest(f"cards must hold one count per player ({players} numbers), got {len(value)}")
    counts = [whole_number(v, f"cards[{i}]", 0, deck_size) for i, v in enumerate(value)]
    if sum(counts) > deck_size:
        raise BadRequest(f"the card counts add up to {sum(counts)}, but the deck holds only {deck_size} cards")
    if not any(counts):
        raise BadRequest("every card count is 0: enter how many cards each player holds")
    return counts


def undo_round(store: Store, match_id: str, doc: dict[str, Any], keys: frozenset[str]) -> ScoreMatch:
    with _WRITES:
        match = store.match(match_id)
        _check_owner(match, keys)
        only_fields(doc, ("rounds",))
        _open(match, "undoing a round")
        _expect_rounds(match, doc)
        if not match.rounds:
            raise MatchConflict("there is no round to undo yet", match)
        return store.undo_round(match_id)


def start_timer(store: Store, match_id: str, doc: dict[str, Any], keys: frozenset[str]) -> ScoreMatch:
    with _WRITES:
        match = store.match(match_id)
        _check_owner(match, keys)
        only_fields(doc, ("action",))
        action = doc.get("action", "start")
        if action not in ("start", "stop"):
            raise BadRequest(f"action must be start or stop, got {str(action)[:20]!r}")
        _open(match, "changing the timer")
        if action == "stop":
            return store.stop_round_timer(match_id)
        if not match.timer_s:
            raise MatchConflict("this match has no timer: rounds end when one player holds every card", match)
        return store.start_round_timer(match_id)


def set_finished(store: Store, match_id: str, doc: dict[str, Any], keys: frozenset[str]) -> ScoreMatch:
    with _WRITES:
        _check_owner(store.match(match_id), keys)
        only_fields(doc, ("finished",))
        finished = doc.get("finished", True)
        if not isinstance(finished, bool):
            raise BadRequest(f"finished must be true or false, got {json_type(finished)}")
        return store.finish(match_id, finished)


def delete_match(store: Store, match_id: str, keys: frozenset[str]) -> None:
    with _WRITES:
        _check_owner(store.match(match_id), keys)
        store.delete_match(match_id)


def list_matches(store: Store, keys: frozenset[str], limit: int, before: tuple[float, str] | None) -> MatchPage:
    """One page of the matches the keys open, newest first, and the cursor of the next page (None: no more)."""
    found = store.matches(keys, limit=limit + 1, before=before)
    page = found[:limit]
    more = len(found) > limit
    return MatchPage(tuple(summary_doc(m) for m in page), cursor(page[-1]) if more else None)


def cursor(match: ScoreMatch) -> str:
    """Where the next page starts: after this match (its creation time and id, so a deletion cannot move it)."""
    return f"{match.created!r}_{match.id}"


def parse_page(request: Request) -> tuple[int, tuple[float, str] | None]:
    """``limit`` (1 to MAX_LIST_LIMIT) and ``before`` (a cursor from a previous page) from the query."""
    query = request.query_params
    for name in query:
        if name not in ("limit", "before"):
            raise BadRequest(f"unknown parameter {name[:30]!r}: expected limit or before")
    raw_limit = query.get("limit", "")
    limit = LIST_LIMIT
    if raw_limit:
        if not is_ascii_number(raw_limit, 3) or not 1 <= int(raw_limit) <= MAX_LIST_LIMIT:
            raise BadRequest(f"limit must be a whole number from 1 to {MAX_LIST_LIMIT}, got {raw_limit[:20]!r}")
        limit = int(raw_limit)
    raw_before = query.get("before", "")
    if not raw_before:
        return limit, None
    found = CURSOR_PATTERN.match(raw_before)
    if found is None:
        raise BadRequest(f"before must be the next value of a previous page, got {raw_before[:60]!r}")
    return limit, (float(found.group(1)), found.group(2))


# ---------------------------------------------------------------------------------------- endpoints


async def list_or_create(request: Request) -> Response:
    """GET: one page of the matches the caller's keys open, newest first. POST: start a new one."""
    store = _store(request)
    if request.method == "GET":
        limit, before = parse_page(request)
        listed = await asyncio.to_thread(list_matches, store, held_keys(request), limit, before)
        return JSONResponse(listed.to_json())
    name, players, rules, timer_s = parse_new_match(await read_body(request))
    key, hashed = new_key()
    match = await asyncio.to_thread(store.create_match, name, players, rules, timer_s, hashed)
    created = CreatedMatch(**{f.name: getattr(match_doc(match), f.name) for f in fields(MatchShown)}, key=key)
    return JSONResponse(created.to_json(), status_code=201)


@looks_up
async def show_or_delete(request: Request) -> Response:
    """GET: one match with its rounds (anyone with its id may watch). DELETE: remove it for good (its key)."""
    store, match_id = _store(request), _match_id(request)
    keys = held_keys(request)
    match = await found(request, lambda: asyncio.to_thread(store.match, match_id))  # a 404 tells it is unknown
    if request.method == "DELETE":
        await asyncio.to_thread(delete_match, store, match_id, keys)
        return JSONResponse({"deleted": match_id})
    return JSONResponse(match_doc(match, time.time(), can_change=may_change(match, keys)).to_json())


def _action(work: Callable[[Store, str, dict[str, Any], frozenset[str]], ScoreMatch]) -> Handler:
    """An endpoint that reads the body first (async), then does the store work in a worker thread."""

    @looks_up
    async def endpoint(request: Request) -> Response:
        store, match_id = _store(request), _match_id(request)
        keys = held_keys(request)
        doc = await read_body(request)
        # Looked up first, and told only if the address has lookups left: a 403 or a 409 says it exists.
        await found(request, lambda: asyncio.to_thread(store.match, match_id))
        match = await asyncio.to_thread(work, store, match_id, doc, keys)
        return JSONResponse(match_doc(match).to_json())

    endpoint.__name__ = work.__name__
    return endpoint


ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def route(path: str, handler: Handler, methods: tuple[str, ...]) -> Route:
    """A route that answers a wrong method with a JSON 405 naming the right ones, like every other error."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())

    async def endpoint(request: Request) -> Response:
        if request.method not in allowed:
            response = error_response(f"{request.method} is not allowed here: use {' or '.join(methods)}", 405)
            response.headers["Allow"] = ", ".join(sorted(allowed))
            return response
        return await handler(request)

    endpoint.__name__ = handler.__name__
    if is_marked(handler):
        looks_up(endpoint)
    return Route(path, endpoint, methods=ANY_METHOD)


routes: list[BaseRoute] = [
    route("/api/matches", list_or_create, ("GET", "POST")),
    route("/api/matches/{match_id:str}", show_or_delete, ("GET", "DELETE")),
    route("/api/matches/{match_id:str}/rounds", _action(add_round), ("POST",)),
    route("/api/matches/{match_id:str}/undo", _action(undo_round), ("POST",)),
    route("/api/matches/{match_id:str}/timer", _action(start_timer), ("POST",)),
    route("/api/matches/{match_id:str}/finish", _action(set_finished), ("POST",)),
]
