"""Learn: the rules pages and the drills (filled in by the Learn work)."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
