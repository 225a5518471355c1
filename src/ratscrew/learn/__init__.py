"""Learn and Drills: the rules explained, and practice questions, all computed from the engine's own rules.

Nothing here imports the web layer: the pages are built as plain JSON-able documents (``learn_document``)
and questions (``make_drill``), so the same data can be tested, printed or served.
"""

from __future__ import annotations

from ratscrew.learn.content import learn_document
from ratscrew.learn.drills import DRILL_KINDS, make_drill

__all__ = ["DRILL_KINDS", "learn_document", "make_drill"]
