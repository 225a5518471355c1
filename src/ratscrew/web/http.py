"""Reading untrusted request bodies, shared by every JSON endpoint."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

MAX_BODY_BYTES = 16 * 1024


class BadRequest(ValueError):
    """The request body is unreadable or a field is wrong: answered with 400 and the message."""


def json_type(value: object) -> str:
    """How a JSON value is named in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


async def read_body(request: Request, example: str = '{"winner": 0}') -> dict[str, Any]:
    """The JSON object of a request, read at most MAX_BODY_BYTES at a time so a huge body costs nothing."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise BadRequest(f"request body too large ({declared} bytes): at most {MAX_BODY_BYTES} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BadRequest(f"request body too large: at most {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks).strip()
    if not raw:
        return {}
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadRequest(f"request body is not valid JSON: expected a JSON object such as {example}") from None
    except RecursionError:
        raise BadRequest("request body is nested too deeply: expected a flat JSON object") from None
    if not isinstance(doc, dict):
        raise BadRequest(f"request body must be a JSON object, got {json_type(doc)}")
    return doc
