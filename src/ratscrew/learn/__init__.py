"""Learn and Drills: the rules explained, and practice questions, all computed from the engine's own rules.

Nothing here imports the web layer: the pages are built as plain JSON-able documents (``learn_document``)
and questions (``make_drill``), so the same data can be tested, printed or served.

- ``words``: messages in the reader's language, cards and rule values in words, the page blocks.
- ``examples``: piles judged by the engine, for each pattern and its near misses.
- ``narrator``: a challenge played by the engine and told flip by flip (the pages and the debt drills).
- ``rules_page``, ``cheatsheet``, ``cards_page``, ``faq``: the Learn pages; ``document`` puts them together.
- ``drills``: the practice questions.
"""

from __future__ import annotations

from ratscrew.learn.document import learn_document
from ratscrew.learn.drills import DRILL_KINDS, make_drill

__all__ = ["DRILL_KINDS", "learn_document", "make_drill"]
