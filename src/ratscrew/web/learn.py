"""Learn and Drills over HTTP: the rules document and seeded practice questions, as JSON.

- ``GET /api/learn?lang=fr&preset=bicycle`` (plus any rules key, e.g. ``&slaps.run=3``): the Learn document.
- ``GET /api/drills``: the kinds of drill.
- ``GET /api/drills/<kind>?seed=42&lang=de&preset=standard``: one question; the same query gives the same one.

A query the server cannot honour (an unknown preset, rules key or value, a bad seed) is answered with 400 and
``{"error": "..."}`` saying what was wrong and what is allowed, so the page can show it as is; an unknown
``lang`` falls back to the browser's language (``web.language``).
"""

from __future__ import annotations

import secrets

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.errors import BadRequest, NotFound
from ratscrew.i18n import text
from ratscrew.learn import DRILL_KINDS, learn_document, make_drill
from ratscrew.learn.drills import MAX_SEED
from ratscrew.rules import OPTIONS_BY_KEY, Rules
from ratscrew.web.bodies import is_ascii_number
from ratscrew.web.language import request_lang

_LEARN_PARAMS = ("lang", "preset")
_DRILL_PARAMS = ("lang", "preset", "seed")


def _rules(query: QueryParams, allowed: tuple[str, ...]) -> Rules:
    """The preset named in the query (standard by default) with any rules keys in the query applied."""
    changes: dict[str, str] = {}
    for key, value in query.multi_items():
        if key in allowed:
            continue
        if key not in OPTIONS_BY_KEY:
            raise BadRequest(
                f"unknown parameter {key[:40]!r}: expected {', '.join(allowed)} or a rules key such as slaps.run"
            )
        changes[key] = value
    return Rules.build(query.get("preset") or "standard", changes)


def _seed(query: QueryParams) -> int:
    raw = query.get("seed")
    if raw is None or raw == "":
        return secrets.randbelow(1 << 31)
    if not is_ascii_number(raw) or int(raw) > MAX_SEED:
        raise BadRequest(f"seed must be a whole number from 0 to {MAX_SEED} in the digits 0-9, got {raw[:24]!r}")
    return int(raw)


async def learn(request: Request) -> Response:
    """The whole Learn document (rules page, house rules, cheat sheet, cards, questions) for one rule set."""
    rules = _rules(request.query_params, _LEARN_PARAMS)
    return JSONResponse(learn_document(request_lang(request), rules), headers={"Cache-Control": "no-cache"})


async def drills(request: Request) -> Response:
    lang = request_lang(request)
    return JSONResponse(
        {
            "kinds": [
                {"kind": k, "title": text(lang, f"drill.{k}.title"), "summary": text(lang, f"drill.{k}.summary")}
                for k in DRILL_KINDS
            ]
        }
    )


async def drill(request: Request) -> Response:
    kind = request.path_params["kind"]
    if kind not in DRILL_KINDS:
        raise NotFound(f"unknown drill {kind[:20]!r}: expected one of {', '.join(DRILL_KINDS)}")
    rules = _rules(request.query_params, _DRILL_PARAMS)
    question = make_drill(kind, _seed(request.query_params), rules, request_lang(request))
    return JSONResponse(question, headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [
    Route("/api/learn", learn),
    Route("/api/drills", drills),
    Route("/api/drills/{kind:str}", drill),
]
