"""Learn and Drills over HTTP: the rules document and seeded practice questions, as JSON.

- ``GET /api/learn?lang=fr&preset=bicycle`` (plus any rules key, e.g. ``&slaps.run=3``): the Learn document.
- ``GET /api/drills``: the kinds of drill.
- ``GET /api/drills/<kind>?seed=42&lang=de&preset=standard``: one question; the same query gives the same one.

A query the server cannot honour (an unknown language, preset, rules key or value, a bad seed) is answered
with 400 and ``{"error": "..."}`` saying what was wrong and what is allowed, so the page can show it as is.
"""

from __future__ import annotations

import secrets

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.errors import RatscrewError
from ratscrew.i18n import LANGUAGES, negotiate, text
from ratscrew.learn import DRILL_KINDS, DrillError, learn_document, make_drill
from ratscrew.learn.drills import MAX_SEED
from ratscrew.rules import OPTIONS_BY_KEY, Rules

_LEARN_PARAMS = ("lang", "preset")
_DRILL_PARAMS = ("lang", "preset", "seed")


class BadQuery(ValueError):
    """A query parameter the endpoint cannot use; the message is shown to the user."""


def _error(message: str, status: int = 400) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def _lang(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked is None or asked == "":
        return negotiate(request.headers.get("accept-language"))
    if asked not in LANGUAGES:
        raise BadQuery(f"unknown language {asked[:12]!r}: expected one of {', '.join(LANGUAGES)}")
    return asked


def _rules(query: QueryParams, allowed: tuple[str, ...]) -> Rules:
    """The preset named in the query (standard by default) with any rules keys in the query applied."""
    changes: dict[str, str] = {}
    for key, value in query.multi_items():
        if key in allowed:
            continue
        if key not in OPTIONS_BY_KEY:
            raise BadQuery(
                f"unknown parameter {key[:40]!r}: expected {', '.join(allowed)} or a rules key such as slaps.run"
            )
        changes[key] = value
    return Rules.build(query.get("preset") or "standard", changes)


def _seed(query: QueryParams) -> int:
    raw = query.get("seed")
    if raw is None or raw == "":
        return secrets.randbelow(1 << 31)
    if not raw.isdigit() or int(raw) > MAX_SEED:
        raise BadQuery(f"seed must be a whole number from 0 to {MAX_SEED}, got {raw[:24]!r}")
    return int(raw)


async def learn(request: Request) -> Response:
    """The whole Learn document (rules page, house rules, cheat sheet, cards, questions) for one rule set."""
    try:
        lang = _lang(request)
        rules = _rules(request.query_params, _LEARN_PARAMS)
    except (BadQuery, RatscrewError) as exc:
        return _error(str(exc))
    return JSONResponse(learn_document(lang, rules), headers={"Cache-Control": "no-cache"})


async def drills(request: Request) -> Response:
    try:
        lang = _lang(request)
    except BadQuery as exc:
        return _error(str(exc))
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
        return _error(f"unknown drill {kind[:20]!r}: expected one of {', '.join(DRILL_KINDS)}", 404)
    try:
        lang = _lang(request)
        rules = _rules(request.query_params, _DRILL_PARAMS)
        seed = _seed(request.query_params)
        question = make_drill(kind, seed, rules, lang)
    except (BadQuery, DrillError, RatscrewError) as exc:
        return _error(str(exc))
    return JSONResponse(question, headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [
    Route("/api/learn", learn),
    Route("/api/drills", drills),
    Route("/api/drills/{kind:str}", drill),
]
