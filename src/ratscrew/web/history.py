"""Finished games looked up again, and any game record replayed step by step for the replay viewer.

``GET /api/history?ids=ID,ID`` answers the summaries of the finished games among those ids, newest first. A
page asks for the ids it played itself (it remembers them in the browser): on a shared server, a list of
everyone's games would show strangers' names and games to anyone who opens the page. A game's id names its
room, so the ids count against the address's budget of lookups (``web/lookups.py``), in the order given: a
known id costs nothing, an unknown one costs one, and once the budget is spent the ids left are answered as
``unchecked`` (not told; ask again in a minute), known or not.

``POST /api/replay?start=N&count=M`` takes a ``ratscrew-record/1`` document (from the store or a file the
player dropped on the page) and answers the steps ``start`` to ``start + count - 1``: step 0 is the deal, step
``i`` what action ``i - 1`` did (its events) and the table after it as a spectator sees it; a wrong slap's step
also says what the slap reacted to (``seen``, the table's own ``slap_seen``), so the viewer explains it in the
table's words. The engine builds every step, so the page shows rules it never has to know. A long game is
answered in pages of at most ``MAX_STEPS`` steps; every page also carries the steps where someone slapped and
the final state, so the viewer can jump and show the end without asking for every page.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.cards import Card
from ratscrew.engine.actions import Slap
from ratscrew.engine.events import WrongSlap
from ratscrew.engine.game import Game
from ratscrew.engine.outcome import Ending, Result
from ratscrew.engine.view import view_for
from ratscrew.errors import BadRequest, IllegalAction, RecordError
from ratscrew.record import Record, StateJson, action_to_json, state_json
from ratscrew.rooms.wire import EventDoc, GameSummary, GameView
from ratscrew.rules.io import RulesDoc, rules_to_mapping
from ratscrew.shapes import Shape
from ratscrew.table.seen import SlapSeen, slap_seen
from ratscrew.web.bodies import is_ascii_number, read_body
from ratscrew.web.lookups import looks_up, missed
from ratscrew.web.store import Store

MAX_IDS = 100  # games one history request may name
GAME_ID = re.compile(r"[A-Za-z0-9]{1,12}(?:-[0-9]{1,6})?")
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_ACTIONS = 20_000  # more is refused: replaying 20,000 actions takes the engine about a second, per page asked
MAX_STEPS = 1_000  # steps in one answer; the viewer asks for the next page when it gets there
RECORD_EXAMPLE = '{"format": "ratscrew-record/1", "rules": "standard", "players": [...], "seed": 1, "actions": [...]}'


# ------------------------------------------------------------------ history


def parse_ids(raw: str) -> list[str]:
    """The game ids of ``?ids=``, in order, each once; a malformed id is refused by name.

    >>> parse_ids("ABC234, ABC234-2,ABC234")
    ['ABC234', 'ABC234-2']
    """
    ids: list[str] = []
    for part in raw.split(","):
        game_id = part.strip()
        if not game_id:
            continue
        if not GAME_ID.fullmatch(game_id):
            raise BadRequest(f"ids: {game_id[:20]!r} is not a game id (letters and digits, such as ABC234 or ABC234-2)")
        if game_id not in ids:
            ids.append(game_id)
    if len(ids) > MAX_IDS:
        raise BadRequest(f"ids: at most {MAX_IDS} games at once, got {len(ids)}")
    return ids


@dataclass(frozen=True, slots=True)
class HistoryPlayer(Shape):
    """One player of a finished game: the summary's figures, with how many reaction times and their median."""

    seat: int
    name: str
    bot: str | None  # the computer's level, or None for a person
    cards: int
    piles_by_slap: int
    piles_by_challenge: int
    wrong_slaps: int
    median_reaction_ms: float | None
    reactions: int


@dataclass(frozen=True, slots=True)
class HistoryGame(Shape):
    """One finished game on the history page."""

    id: str
    played: float  # when it ended and was saved, in seconds since 1970
    result: Result
    winner: int | None
    how: Ending | None
    reason: str
    cards: int
    tricks: int
    ms: int
    players: tuple[HistoryPlayer, ...]


@dataclass(frozen=True, slots=True)
class HistoryAnswer(Shape):
    """``GET /api/history?ids=...``: the finished games among the ids, newest first."""

    games: tuple[HistoryGame, ...]
    unknown: tuple[str, ...]  # ids not finished (still played, or never finished)
    # Ids not looked up: the address asked for too many unknown ids lately (ask again in a minute).
    unchecked: tuple[str, ...]


def history_entry(game_id: str, saved: float, summary: GameSummary) -> HistoryGame:
    """What the history page shows of one game: the summary without each reaction time, only their median."""
    players = tuple(
        HistoryPlayer(
            p.seat,
            p.name,
            p.bot,
            p.cards,
            p.piles_by_slap,
            p.piles_by_challenge,
            p.wrong_slaps,
            p.median_reaction_ms,
            len(p.reaction_ms),
        )
        for p in summary.players
    )
    s = summary
    return HistoryGame(game_id, saved, s.result, s.winner, s.how, s.reason, s.cards, s.tricks, s.ms, players)


@looks_up
async def history(request: Request) -> Response:
    ids = parse_ids(request.query_params.get("ids", ""))
    if not ids:
        return JSONResponse(HistoryAnswer((), (), ()).to_json())
    store: Store = request.app.state.store
    rows = await asyncio.to_thread(store.game_summaries, ids)
    found = {game_id for game_id, _saved, _summary in rows}
    left = await missed(request, sum(1 for game_id in ids if game_id not in found))
    # Told in order while the address had lookups left: each unknown id takes one (``missed`` counted as
    # many as it had), and once none is left no id is told, known or not.
    told: set[str] = set()
    unknown: list[str] = []
    unchecked: list[str] = []
    for game_id in ids:
        if not left:
            unchecked.append(game_id)
        elif game_id in found:
            told.add(game_id)
        else:
            unknown.append(game_id)
            left -= 1
    games = tuple(history_entry(*row) for row in rows if row[0] in told)
    return JSONResponse(HistoryAnswer(games, tuple(unknown), tuple(unchecked)).to_json())


# ------------------------------------------------------------------ replay


def parse_window(request: Request) -> tuple[int, int]:
    start_text = request.query_params.get("start", "0")
    count_text = request.query_params.get("count", str(MAX_STEPS))
    if not is_ascii_number(start_text, 9):
        raise BadRequest(f"start must be a step number (0 or more), got {start_text[:20]!r}")
    if not is_ascii_number(count_text, 9) or not 1 <= int(count_text) <= MAX_STEPS:
        raise BadRequest(f"count must be a number of steps from 1 to {MAX_STEPS}, got {count_text[:20]!r}")
    return int(start_text), int(count_text)


@dataclass(frozen=True, slots=True)
class ReplayStep(Shape):
    """One step of a replayed game: the action, its events and the table after them. A slap's step also has
    the pile it landed on (``landed``, bottom first), so the viewer can show the slapped pile before it is
    taken, and a wrong one what it reacted to (``seen``: the pile it saw, and the card that covered its
    pattern if it was late)."""

    index: int
    action: object  # the record's document of the action (None: step 0, the deal)
    t: int | None
    events: tuple[EventDoc, ...]
    view: GameView
    landed: tuple[Card, ...] | None
    seen: SlapSeen | None


@dataclass(frozen=True, slots=True)
class ReplayPage(Shape):
    """``POST /api/replay?start=&count=``: a page of steps, and the whole game's facts."""

    total: int
    start: int
    steps: tuple[ReplayStep, ...]
    slaps: tuple[int, ...]  # the steps that are a slap
    players: tuple[str, ...]
    rules: RulesDoc
    final: StateJson  # the state after the record's last action


SHAPES = (HistoryAnswer, ReplayPage)


def step(
    index: int,
    game: Game,
    action: object,
    t: int | None,
    events: tuple[EventDoc, ...],
    landed: tuple[Card, ...] | None = None,
    seen: SlapSeen | None = None,
) -> ReplayStep:
    """One step, with the table as it is after it."""
    return ReplayStep(index, action, t, events, GameView.of(view_for(game)), landed, seen)


def replay_steps(record: Record, start: int, count: int) -> ReplayPage:
    """Steps ``start`` .. ``start + count - 1`` of the record's game, the steps with a slap, and the end."""
    if len(record.actions) > MAX_ACTIONS:
        raise RecordError(
            f"the record has {len(record.actions)} actions: the replay viewer shows games of at most {MAX_ACTIONS}"
        )
    total = len(record.actions) + 1
    if start >= total:
        raise BadRequest(f"start must be a step from 0 to {total - 1}, got {start}")
    end = min(total, start + count)
    game = record.new_game()
    steps: list[ReplayStep] = []
    if start == 0:
        steps.append(step(0, game, None, None, ()))
    slaps: list[int] = []
    for index, action in enumerate(record.actions, start=1):
        slap = action if isinstance(action, Slap) else None
        shown = start <= index < end
        landed = tuple(game.pile) if slap else None
        seen = slap_seen(game, slap.card) if slap and shown else None  # as the table keeps it, before it applies
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            raise RecordError(f"action {index - 1} cannot be replayed: {exc}") from None
        if slap:
            slaps.append(index)
        if shown:
            wrong = any(isinstance(event, WrongSlap) for event in events)
            docs = tuple(EventDoc(e.to_dict()) for e in events)
            steps.append(step(index, game, action_to_json(action), game.now, docs, landed, seen if wrong else None))
    players = record.players if record.players is not None else tuple(f"Player {s + 1}" for s in range(record.seats))
    rules = rules_to_mapping(record.rules, full=True)
    return ReplayPage(total, start, tuple(steps), tuple(slaps), tuple(players), rules, state_json(game))


async def replay(request: Request) -> Response:
    start, count = parse_window(request)
    declared = request.headers.get("content-length", "")
    if is_ascii_number(declared) and int(declared) > MAX_RECORD_BYTES:
        raise BadRequest(f"the record is {int(declared):,} bytes: the replay viewer takes records of at most 2 MB")
    doc = await read_body(request, RECORD_EXAMPLE, limit=MAX_RECORD_BYTES)
    record = Record.from_json(doc)
    page = await asyncio.to_thread(replay_steps, record, start, count)
    return JSONResponse(page.to_json())


routes: list[BaseRoute] = [
    Route("/api/history", history),
    Route("/api/replay", replay, methods=["POST"]),
]
