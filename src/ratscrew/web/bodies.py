"""Reading untrusted request bodies, shared by every JSON endpoint."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from ratscrew.errors import BadRequest, RatscrewError, json_type
from ratscrew.rules.io import rules_from_mapping
from ratscrew.rules.model import Rules

__all__ = ["MAX_BODY_BYTES", "BadRequest", "is_ascii_number", "json_type", "parse_rules", "read_body"]

MAX_BODY_BYTES = 16 * 1024
JSON_TYPE = "application/json"


def is_ascii_number(text: str, max_digits: int = 19) -> bool:
    """Only the digits 0-9, at most ``max_digits`` of them: ``str.isdigit`` also takes ``²`` and ``①``, which
    ``int`` then refuses, and a very long number costs ``int`` time or raises past Python's digit limit.

    >>> [is_ascii_number(t) for t in ("42", "²", "①", "", "-3", "9" * 20)]
    [True, False, False, False, False, False]
    """
    return 0 < len(text) <= max_digits and text.isascii() and text.isdigit()


async def read_body(request: Request, example: str = '{"winner": 0}', *, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The JSON object of a request, read at most ``limit`` bytes (MAX_BODY_BYTES unless an endpoint needs more)
    so a huge body costs nothing.

    An empty body is an empty object. A body with any other content type than JSON is refused: a page on
    another site can post ``text/plain`` without asking first, but not ``application/json``.
    """
    declared = request.headers.get("content-length", "")
    if is_ascii_number(declared) and int(declared) > limit:
        raise BadRequest(f"request body too large ({declared} bytes): at most {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(f"request body too large: at most {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks).strip()
    if not raw:
        return {}
    content_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if content_type != JSON_TYPE:
        shown = repr(content_type[:40]) if content_type else "none"
        raise BadRequest(f"request body must be sent as Content-Type: {JSON_TYPE}, got {shown}")
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadRequest(f"request body is not valid JSON: expected a JSON object such as {example}") from None
    except RecursionError:
        raise BadRequest("request body is nested too deeply: expected a flat JSON object") from None
    except ValueError:  # Python refuses to read an integer of more than 4,300 digits
        raise BadRequest(
            "request body holds a number of more than 4300 digits: no field takes a number that long"
        ) from None
    if not isinstance(doc, dict):
        raise BadRequest(f"request body must be a JSON object, got {json_type(doc)}")
    return doc


def parse_rules(value: object, *, seats: int | None = None) -> Rules:
    """The rules a body names: a preset's name, or ``{"preset": ..., "slaps": {...}}``; with ``seats``, only
    rules whose deck deals to that many players. Anything else is refused with what was wrong."""
    try:
        rules = rules_from_mapping(value, where="rules")
    except RecursionError:
        raise BadRequest('rules are nested too deeply: expected a preset name or {"preset": ..., ...}') from None
    except (RatscrewError, ValueError, TypeError) as exc:
        raise BadRequest(str(exc)[:300]) from None
    if seats is not None:
        deck = rules.deck_for(seats)
        if deck.size < seats:
            raise BadRequest(f"{seats} players need more than {deck.size} cards")
    return rules
