"""The websocket protocol: every message from a browser is untrusted and checked here before use.

Client to server (JSON objects, at most ``MAX_MESSAGE_BYTES``):

- ``{"type": "flip", "seat": 0}``: the person at seat 0 turns their card.
- ``{"type": "slap", "seat": 0, "card": 17}``: a slap, reacting to card number 17 (what the page showed).
- ``{"type": "resync", "since": 41}``: send again every event after number 41 (after a reconnect).
- ``{"type": "ping"}``: answered with ``pong``.

Server to client: ``welcome`` (who is who, the rules, your seats, the state), ``events`` (numbered engine
events with their table time, then the state as this page may see it), ``rejected`` (an input that was
not taken, and why), ``error`` (a message that could not be read), ``over`` (the end-of-game summary).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

MAX_MESSAGE_BYTES = 1024


class BadMessage(ValueError):
    """A message that is not JSON, too large, or not one of the shapes above."""


@dataclass(frozen=True, slots=True)
class FlipMsg:
    seat: int


@dataclass(frozen=True, slots=True)
class SlapMsg:
    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class ResyncMsg:
    since: int


@dataclass(frozen=True, slots=True)
class PingMsg:
    pass


ClientMessage = FlipMsg | SlapMsg | ResyncMsg | PingMsg


def parse_message(raw: str | bytes) -> ClientMessage:
    if len(raw) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message too large ({len(raw)} bytes): at most {MAX_MESSAGE_BYTES} are accepted")
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadMessage('message is not JSON: expected an object such as {"type": "flip", "seat": 0}') from None
    if not isinstance(doc, dict):
        raise BadMessage('message must be a JSON object with a "type"')
    kind = doc.get("type")
    if kind == "flip":
        return FlipMsg(_int(doc, "seat"))
    if kind == "slap":
        card = doc.get("card")
        return SlapMsg(_int(doc, "seat"), None if card is None else _int(doc, "card"))
    if kind == "resync":
        return ResyncMsg(_int(doc, "since", minimum=-1))
    if kind == "ping":
        return PingMsg()
    raise BadMessage(f"unknown message type {json.dumps(kind)[:40]}: expected flip, slap, resync or ping")


def _int(doc: dict[str, object], name: str, *, minimum: int = 0) -> int:
    value = doc.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value < 1_000_000_000:
        raise BadMessage(f"{name} must be a whole number, got {json.dumps(value)[:40]}")
    return value
