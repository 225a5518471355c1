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
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.engine.actions import Slap
from ratscrew.engine.events import WrongSlap
from ratscrew.engine.game import Game
from ratscrew.engine.view import view_for
from ratscrew.errors import BadRequest, IllegalAction, RecordError
from ratscrew.record import Record, action_to_json, state_json
from ratscrew.rules.io import rules_to_mapping
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


def history_entry(game_id: str, saved: float, summary: dict[str, Any]) -> dict[str, object]:
    """What the history page shows of one game: the summary without each reaction time, only their median."""
    players = []
    for seat, player in enumerate(summary.get("players") or []):
        if not isinstance(player, dict):
            continue
        players.append(
            {
                "seat": player.get("seat", seat),
                "name": player.get("name"),
                "bot": player.get("bot"),
                "cards": player.get("cards"),
                "piles_by_slap": player.get("piles_by_slap"),
                "piles_by_challenge": player.get("piles_by_challenge"),
                "wrong_slaps": player.get("wrong_slaps"),
                "median_reaction_ms": player.get("median_reaction_ms"),
                "reactions": len(player.get("reaction_ms") or []),
            }
        )
    return {
        "id": game_id,
        "played": saved,  # seconds since 1970, when the game ended and was saved
        "result": summary.get("result"),
        "winner": summary.get("winner"),
        "how": summary.get("how"),
        "reason": summary.get("reason"),
        "cards": summary.get("cards"),
        "tricks": summary.get("tricks"),
        "ms": summary.get("ms"),
        "players": players,
    }


@looks_up
async def history(request: Request) -> Response:
    ids = parse_ids(request.query_params.get("ids", ""))
    if not ids:
        return JSONResponse({"games": [], "unknown": [], "unchecked": []})
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
    return JSONResponse(
        {
            "games": [history_entry(*row) for row in rows if row[0] in told],
            # Not finished (still being played, or never finished): the page may keep or forget these.
            "unknown": unknown,
            # Not looked up: too many unknown ids from this address lately; ask again in a minute.
            "unchecked": unchecked,
        }
    )


# ------------------------------------------------------------------ replay


def parse_window(request: Request) -> tuple[int, int]:
    start_text = request.query_params.get("start", "0")
    count_text = request.query_params.get("count", str(MAX_STEPS))
    if not is_ascii_number(start_text, 9):
        raise BadRequest(f"start must be a step number (0 or more), got {start_text[:20]!r}")
    if not is_ascii_number(count_text, 9) or not 1 <= int(count_text) <= MAX_STEPS:
        raise BadRequest(f"count must be a number of steps from 1 to {MAX_STEPS}, got {count_text[:20]!r}")
    return int(start_text), int(count_text)


def step_doc(
    index: int,
    game: Game,
    action: object,
    t: int | None,
    events: list[dict[str, object]],
    landed: list[str] | None = None,
    seen: SlapSeen | None = None,
) -> dict[str, object]:
    """One step: the action, its events and the table after them; a slap also with the pile it landed on
    (``landed``, bottom first), so the viewer can show the slapped pile before it is taken, and a wrong one
    with what it reacted to (``seen``: the pile it saw, and the card that covered its pattern if it was late)."""
    view = view_for(game).as_dict()
    return {
        "index": index,
        "action": action,
        "t": t,
        "events": events,
        "view": view,
        "landed": landed,
        "seen": None if seen is None else seen.to_dict(),
    }


def replay_steps(record: Record, start: int, count: int) -> dict[str, object]:
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
    steps: list[dict[str, object]] = []
    if start == 0:
        steps.append(step_doc(0, game, None, None, []))
    slaps: list[int] = []
    for index, action in enumerate(record.actions, start=1):
        slap = action if isinstance(action, Slap) else None
        shown = start <= index < end
        landed = [str(card) for card in game.pile] if slap else None
        seen = slap_seen(game, slap.card) if slap and shown else None  # as the table keeps it, before it applies
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            raise RecordError(f"action {index - 1} cannot be replayed: {exc}") from None
        if slap:
            slaps.append(index)
        if shown:
            wrong = any(isinstance(event, WrongSlap) for event in events)
            docs = [e.to_dict() for e in events]
            steps.append(step_doc(index, game, action_to_json(action), game.now, docs, landed, seen if wrong else None))
    players = list(record.players) if record.players is not None else [f"Player {s + 1}" for s in range(record.seats)]
    return {
        "total": total,
        "start": start,
        "steps": steps,
        "slaps": slaps,
        "players": players,
        "rules": rules_to_mapping(record.rules, full=True),
        "final": state_json(game),
    }


async def replay(request: Request) -> Response:
    start, count = parse_window(request)
    declared = request.headers.get("content-length", "")
    if is_ascii_number(declared) and int(declared) > MAX_RECORD_BYTES:
        raise BadRequest(f"the record is {int(declared):,} bytes: the replay viewer takes records of at most 2 MB")
    doc = await read_body(request, RECORD_EXAMPLE, limit=MAX_RECORD_BYTES)
    record = Record.from_json(doc)
    return JSONResponse(await asyncio.to_thread(replay_steps, record, start, count))


routes: list[BaseRoute] = [
    Route("/api/history", history),
    Route("/api/replay", replay, methods=["POST"]),
]
