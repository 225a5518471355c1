"""A record the command-line tests replay, and how they hand one to ``ratscrew replay``: as a file."""

from __future__ import annotations

import json
from pathlib import Path

# Three hands dealt by hand, a wrong slap (Cat burns a card) and a wait: replayed, a game still being played.
EXAMPLE_RECORD = {
    "format": "ratscrew-record/1",
    "rules": {"preset": "standard", "slaps": {"top_bottom": True}},
    "players": ["Ann", "Bob", "Cat"],
    "hands": [["7S", "KD", "2C"], ["9H", "QS"], ["7C", "4D"]],
    "first": 0,
    "actions": ["flip", "flip", {"slap": 2}, "flip", "wait"],
}


def write_record(tmp_path: Path, doc: object, name: str = "record.json") -> str:
    """Writes ``doc`` as JSON into ``tmp_path`` and returns the file's path, as the commands take it."""
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)
