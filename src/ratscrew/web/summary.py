"""The rules in brief over HTTP, for the pages that show a rule set beside something else.

``POST /api/rules/summary`` with ``{"rules": {"preset": "bicycle", "slaps": {"run": 3}}, "players": 4,
"lang": "fr"}`` answers with ``learn.summary.rules_summary``: the slaps with their sentences and example
piles, the chips, the challenge and penalty sentences, the changes from the preset and the deck dealt for
that many players. ``rules`` may also be a preset name; ``players`` defaults to 4 and ``lang`` to the
request's language (``web.language``). Anything else is a 400 saying what was wrong.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.errors import BadRequest
from ratscrew.i18n import LANGUAGES
from ratscrew.learn.summary import rules_summary
from ratscrew.rules import MAX_PLAYERS, MIN_PLAYERS, rules_from_mapping
from ratscrew.web.bodies import json_type, read_body
from ratscrew.web.language import request_lang

EXAMPLE = '{"rules": {"preset": "standard"}, "players": 4, "lang": "en"}'
FIELDS = ("rules", "players", "lang")
DEFAULT_PLAYERS = 4


async def summary(request: Request) -> Response:
    body = await read_body(request, EXAMPLE)
    unknown = [k for k in body if k not in FIELDS]
    if unknown:
        raise BadRequest(f"unknown field {unknown[0][:40]!r}: expected {', '.join(FIELDS)}, e.g. {EXAMPLE}")
    lang = body.get("lang", request_lang(request))
    if lang not in LANGUAGES:
        shown = repr(lang[:10]) if isinstance(lang, str) else json_type(lang)
        raise BadRequest(f"lang must be one of {', '.join(LANGUAGES)}, got {shown}")
    players = body.get("players", DEFAULT_PLAYERS)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        shown = str(players) if isinstance(players, int) and not isinstance(players, bool) else json_type(players)
        raise BadRequest(f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, got {shown[:20]}")
    rules = rules_from_mapping(body.get("rules", "standard"), where="rules")
    return JSONResponse(rules_summary(lang, rules, players), headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [Route("/api/rules/summary", summary, methods=["POST"])]
