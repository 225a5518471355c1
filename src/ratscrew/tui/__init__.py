"""The terminal table (``ratscrew tui``): one page of a room drawn with Textual, in this process against the
computer or over the page's websocket at an online room.

Its parts: the words (``words.py``, the page's sentences from the same catalogs), what the page knows of its room
(``model.py``), its keys (``keys.py``), the links to a room (``link.py``), where the room is (``local.py``,
``online.py``, ``venue.py``), the cards drawn in cells (``cards.py``), the table's parts and screens
(``widgets.py``, ``screens.py``), the app (``app.py``) and the command's run (``run.py``). Only ``app.py``,
``widgets.py``, ``screens.py`` and ``run.py`` import Textual.
"""
