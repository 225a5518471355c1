"""What the pages need to know about the rules and the languages, and the referee as an endpoint."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.bots.levels import LEVELS
from ratscrew.cards import parse_cards
from ratscrew.errors import RatscrewError
from ratscrew.i18n import LANGUAGE_NAMES, LANGUAGES, catalog, negotiate, text
from ratscrew.patterns import PATTERN_KEYS, find_matches
from ratscrew.rules import OPTIONS, PRESETS, Rules, rules_from_mapping, rules_to_mapping
from ratscrew.rules.options import Option
from ratscrew.web.http import read_body


def _lang(request: Request) -> str:
    asked = request.query_params.get("lang")
    return asked if asked in LANGUAGES else negotiate(request.headers.get("accept-language"))


def option_doc(opt: Option, lang: str) -> dict[str, object]:
    doc: dict[str, object] = {
        "key": opt.key,
        "section": opt.section,
        "name": opt.name,
        "kind": opt.kind,
        "default": opt.default,
        "summary": text(lang, f"option.{opt.key}"),
        "allowed": opt.allowed_text(),
    }
    if opt.kind == "choice":
        doc["choices"] = [{"value": c, "label": text(lang, f"choice.{opt.key}.{c}")} for c in opt.choices]
    if opt.kind == "int":
        doc["minimum"], doc["maximum"] = opt.minimum, opt.maximum
    return doc


async def meta(request: Request) -> Response:
    lang = _lang(request)
    return JSONResponse(
        {
            "lang": lang,
            "languages": [{"code": c, "name": LANGUAGE_NAMES[c]} for c in LANGUAGES],
            "options": [option_doc(o, lang) for o in OPTIONS],
            "presets": [
                {
                    "name": p.name,
                    "label": text(lang, f"preset.{p.name}.name"),
                    "summary": text(lang, f"preset.{p.name}"),
                    "rules": rules_to_mapping(Rules.build(p.name), full=True),
                }
                for p in PRESETS.values()
            ],
            "levels": [
                {"name": name, "label": text(lang, f"level.{name}"), "summary": text(lang, f"level.{name}.summary")}
                for name in LEVELS
            ],
            "patterns": [{"key": k, "label": text(lang, f"pattern.{k}")} for k in PATTERN_KEYS],
        }
    )


async def messages(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return JSONResponse(
            {"error": f"unknown language {lang[:10]!r}: expected one of {', '.join(LANGUAGES)}"}, status_code=404
        )
    return JSONResponse(catalog(lang), headers={"Cache-Control": "no-cache"})


async def referee(request: Request) -> Response:
    """``/api/check?cards=9 7 9&preset=standard`` or POST {"cards": [...], "rules": {...}}: is it slappable?"""
    lang = _lang(request)
    try:
        if request.method == "POST":
            doc = await read_body(request, '{"cards": ["9", "7", "9"], "rules": "standard"}')
            cards_doc = doc.get("cards", [])
            cards_text = " ".join(str(c) for c in cards_doc) if isinstance(cards_doc, list) else str(cards_doc)
            rules = rules_from_mapping(doc.get("rules", "standard"))
        else:
            cards_text = request.query_params.get("cards", "")
            rules = Rules.build(request.query_params.get("preset", "standard"))
        if len(cards_text) > 400:
            raise ValueError("too many cards")
        pile = parse_cards(cards_text, bare_rank=True)
        if not pile:
            raise ValueError(text(lang, "referee.no_cards"))
        rules.deck_for(2).check_counts(pile, "the cards")
    except (RatscrewError, ValueError) as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    matches = find_matches(pile, rules)
    return JSONResponse(
        {
            "slappable": bool(matches),
            "patterns": [m.pattern for m in matches],
            "matches": [{"pattern": m.pattern, "cards": [str(c) for c in m.cards]} for m in matches],
        }
    )


routes: list[BaseRoute] = [
    Route("/api/meta", meta),
    Route("/api/i18n/{lang:str}", messages),
    Route("/api/check", referee, methods=["GET", "POST"]),
]
