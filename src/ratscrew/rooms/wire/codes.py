"""The protocol's version, its limits, and every code a room message carries, each an enum with one spelling.

The page translates codes through its catalogues (``room.rejected.not_host``, ``room.phase.lobby``...), so a
code is never renamed without a new ``VERSION``; ``docs/vocabulary.md`` lists every member, and
``tests/rooms/test_rooms_wire.py`` fails when one is added without its line there and its golden example.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from ratscrew.names import MAX_NAME as MAX_NAME  # a seat's name: the one rule for every name
from ratscrew.rules.model import MAX_PLAYERS

# 4: lobby and latency say which seat's link the table waits for; races show echo_rtt, tcp_rtt.
# 5: quick reactions (``react``, ``reaction``, ``too_fast``); a room says which seat its host holds.
# 6: Play now: a room says whether the matchmaker made it and whether its game is rated; ``rated`` gives
#    each signed-in player's rating change once the game is recorded (and ``welcome`` the last game's).
# The page says the same number (``PROTOCOL`` in web/static/js/connection.js), and a test holds them together.
VERSION = 6
MAX_MESSAGE_BYTES = 2048
MAX_TOKEN = 64
MAX_SEAT = MAX_PLAYERS - 1  # seats are numbered from 0


class In(StrEnum):
    """Every type of message a page sends."""

    HELLO = "hello"
    PING = "ping"
    ECHO = "echo"
    FLIP = "flip"
    SLAP = "slap"
    RESYNC = "resync"
    SIT = "sit"
    STAND = "stand"
    READY = "ready"
    SEATS = "seats"
    BOT = "bot"
    RULES = "rules"
    VISIBILITY = "visibility"
    START = "start"
    REMATCH = "rematch"
    PAUSE = "pause"
    REACT = "react"


class Out(StrEnum):
    """Every type of message the server sends."""

    WELCOME = "welcome"
    SEATED = "seated"
    LOBBY = "lobby"
    EVENTS = "events"
    STATE = "state"
    REJECTED = "rejected"
    ERROR = "error"
    OVER = "over"
    PONG = "pong"
    PROBE = "probe"
    LATENCY = "latency"
    REACTION = "reaction"
    RATED = "rated"


class Phase(StrEnum):
    """Where a room is: seats and rules change in the lobby only."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class Refusal(StrEnum):
    """Why the room refused a message (the table's own reasons are ``table.RejectCode``)."""

    NOT_HOST = "not_host"
    NOT_SEATED = "not_seated"
    SEAT_TAKEN = "seat_taken"
    NOT_READY = "not_ready"
    WRONG_PHASE = "wrong_phase"
    BAD_VALUE = "bad_value"
    PAUSED = "paused"  # the game is paused: nothing is played until it resumes
    NO_PAUSE = "no_pause"  # only a game against the computer (or two on one screen) can be paused
    NOT_SAVING = "not_saving"  # the server cannot keep games just now (its journal fails): no new game starts
    TOO_FAST = "too_fast"  # quick reactions come faster than the room passes them on: this one is dropped


class Reaction(StrEnum):
    """The quick reactions a player may send: a fixed few a card table says aloud, never free text (nothing to
    moderate, and every page shows each in its own language)."""

    HI = "hi"
    NICE = "nice"  # a nice slap
    WOW = "wow"
    OOPS = "oops"
    CLOSE = "close"  # so close!
    WAIT = "wait"  # one moment
    GG = "gg"  # good game


class CloseCode(IntEnum):
    """Why the server closed a room's websocket (after an ``error`` saying so in words, where it could)."""

    NO_ROOM = 4404  # no room by that code (or the code was refused: too many wrong ones)
    TOO_MANY = 4429  # too many sockets or wrong codes from one address
    SENT_AWAY = 4408  # the page fell behind again and again, or the server is stopping: the page reconnects
