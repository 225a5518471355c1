"""The score keeper's API (filled in by the score-keeper work)."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
