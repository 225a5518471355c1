"""Which language a request is answered in."""

from __future__ import annotations

from starlette.requests import Request

from ratscrew.i18n import LANGUAGES, negotiate


def request_lang(request: Request) -> str:
    """``?lang=`` when it is one of ours, else the browser's ``Accept-Language``.

    An unknown ``?lang=`` (a link from a newer version, a typo in a shared URL) falls back instead of failing:
    the person following the link wants the page, and their browser already says which language they read.
    """
    asked = request.query_params.get("lang", "")
    return asked if asked in LANGUAGES else negotiate(request.headers.get("accept-language"))
