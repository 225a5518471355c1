"""What the pages need to know: the rules options, presets, levels and patterns, and the language catalogs."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew import __version__, build
from ratscrew.bots.levels import LEVELS
from ratscrew.errors import NotFound
from ratscrew.i18n import LANGUAGE_NAMES, LANGUAGES, PAGE_PARTS, page_catalog, text
from ratscrew.patterns import PATTERN_KEYS
from ratscrew.rooms.runner import CODE_LENGTH
from ratscrew.rules import OPTIONS, PRESETS, Rules, rules_to_mapping
from ratscrew.rules.options import TABLE_SECTIONS, Option
from ratscrew.web.language import request_lang


def option_doc(opt: Option, lang: str) -> dict[str, object]:
    doc: dict[str, object] = {
        "key": opt.key,
        "section": opt.section,
        "name": opt.name,
        "kind": opt.kind,
        "default": opt.default,
        "summary": text(lang, f"option.{opt.key}"),
        "allowed": opt.allowed_text(),
        # Whether people at a real table agree on it (the score keeper offers only those), and whether its
        # summary says more than its short label (the score keeper's form shows it as a hint only then).
        "table": opt.table,
        "hint": opt.hint,
    }
    if opt.kind == "choice":
        doc["choices"] = [{"value": c, "label": text(lang, f"choice.{opt.key}.{c}")} for c in opt.choices]
    if opt.kind == "int":
        doc["minimum"], doc["maximum"] = opt.minimum, opt.maximum
    if opt.needs is not None:
        # The form greys this option out unless one of ``keys`` holds one of ``values`` (and sets it to ``off``,
        # when the rules refuse it on its own: a ten with a gap needs a ten). ``key`` is the first of ``keys``.
        needs = opt.needs
        doc["needs"] = {"key": needs.key, "keys": list(needs.keys), "values": list(needs.values), "off": needs.off}
    return doc


async def meta(request: Request) -> Response:
    lang = request_lang(request)
    return JSONResponse(
        {
            "lang": lang,
            "languages": [{"code": c, "name": LANGUAGE_NAMES[c]} for c in LANGUAGES],
            "options": [option_doc(o, lang) for o in OPTIONS],
            # The sections the score keeper asks about, in the order people talk them through.
            "table_sections": list(TABLE_SECTIONS),
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
            "room_code_length": CODE_LENGTH,
            "version": __version__,
            "commit": build.commit(),
        }
    )


async def messages(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        raise NotFound(f"unknown language {lang[:10]!r}: expected one of {', '.join(LANGUAGES)}")
    part = request.path_params.get("part")
    if part is not None and part not in PAGE_PARTS:
        raise NotFound(f"unknown part {part[:20]!r} of the catalog: expected one of {', '.join(PAGE_PARTS)}")
    return JSONResponse(page_catalog(lang, part), headers={"Cache-Control": "no-cache"})


routes: list[BaseRoute] = [
    Route("/api/meta", meta),
    Route("/api/i18n/{lang:str}", messages),
    Route("/api/i18n/{lang:str}/{part:str}", messages),
]
