"""The referee as an endpoint: is this pile slappable under these rules, and by which patterns?"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.cards import parse_cards
from ratscrew.errors import BadRequest
from ratscrew.learn.examples import match_doc
from ratscrew.learn.words import Texts
from ratscrew.patterns import find_matches
from ratscrew.rules import Rules, rules_from_mapping
from ratscrew.web.bodies import read_body
from ratscrew.web.language import request_lang

MAX_CARDS_TEXT = 400


async def referee(request: Request) -> Response:
    """``/api/check?cards=9 7 9&preset=standard`` or POST {"cards": [...], "rules": {...}}: is it slappable?"""
    if request.method == "POST":
        doc = await read_body(request, '{"cards": ["9", "7", "9"], "rules": "standard"}')
        cards_doc = doc.get("cards", [])
        cards_text = " ".join(str(c) for c in cards_doc) if isinstance(cards_doc, list) else str(cards_doc)
        rules = rules_from_mapping(doc.get("rules", "standard"))
    else:
        cards_text = request.query_params.get("cards", "")
        rules = Rules.build(request.query_params.get("preset", "standard"))
    if len(cards_text) > MAX_CARDS_TEXT:
        raise BadRequest(f"too many cards: at most {MAX_CARDS_TEXT} characters of cards")
    pile = parse_cards(cards_text, bare_rank=True)
    tr = Texts(request_lang(request))
    if not pile:
        raise BadRequest(tr("referee.no_cards"))
    rules.deck_for(2).check_counts(pile, "the cards")
    matches = find_matches(pile, rules)
    return JSONResponse(
        {
            "slappable": bool(matches),
            "patterns": [m.pattern for m in matches],
            # Each match as the engine names it, with its name and reason in the reader's language.
            "matches": [match_doc(tr, m) for m in matches],
        }
    )


routes: list[BaseRoute] = [Route("/api/check", referee, methods=["GET", "POST"])]
