"""What the terminal table knows of its room: built from the room's messages alone, as the page's model is.

Numbered events are applied once and in order (a hole in the numbering asks for what is missing, as
connection.js does); each becomes a line of the feed, a verdict that says why when there is one
(``words.Words.verdict``), and, for what matters to a player, a banner in a tone, as the page answers
events (verdicts.js ``answerFor``). No rule is decided here: the server judged everything.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from ratscrew.rooms import wire
from ratscrew.tui.words import Doc, Memory, Words

FEED_KEPT = 40  # lines of the feed kept; the screen shows as many as fit
PAINTS_KEPT = 64  # cards whose first paint is remembered, as the page keeps them
MAX_REACTION_MS = 600_000


class Tone(StrEnum):
    """How loud the table says a line: as the page's banners."""

    GOOD = "good"
    BAD = "bad"
    INFO = "info"
    MUTED = "muted"
    PLAIN = "plain"  # in the feed only


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the feed (or the banner): its words, its tone, and the event kind it tells."""

    text: str
    tone: Tone
    kind: str = ""


def tone_of(event: Doc, yours: tuple[int, ...]) -> Tone:
    """The banner an event gets, as the page's ``answerFor``: PLAIN for none."""
    kind = event.get("kind")
    if kind == "pile_won":
        return Tone.GOOD if event.get("how") == "slap" else Tone.INFO
    if kind == "wrong_slap":
        return Tone.BAD
    if kind == "slap_correct":
        return Tone.GOOD
    if kind in ("challenge_won", "player_out", "game_over"):
        return Tone.INFO
    if kind == "slap_dismissed" and event.get("seat") in yours:
        return Tone.MUTED  # your slap did not count: say why; another's is only in the feed
    return Tone.PLAIN


class TableModel:
    """One page's view of a room: the room and its seats, the table's state, the feed, the summary."""

    def __init__(self, words: Words, clock: Callable[[], float]) -> None:
        self.words = words
        self.clock = clock  # seconds, for reaction times: the app's frame clock
        self.room: wire.RoomView | None = None
        self.yours: tuple[int, ...] = ()
        self.host = False
        self.token: str | None = None
        self.state: wire.RoomState = wire.NO_TABLE
        self.summary: wire.GameSummary | None = None
        self.seq = -1  # the last event applied
        self.feed: deque[Line] = deque(maxlen=FEED_KEPT)
        self.banner: Line | None = None
        self.connected = False
        self.memory = Memory()
        self.painted: dict[int, float] = {}  # card number -> when it was first drawn on the screen
        self.events_applied = 0
        self.state_at = clock()  # when the state shown arrived (the clock and the slap window count from it)
        self.window_left = 1.0  # the share of the slap window left, as last drawn (kept while paused)
        self.game_over_seen = False  # an ``over`` arrived since the last deal

    # ------------------------------------------------------------------ what the room says

    def names(self) -> list[str]:
        return [seat.name for seat in self.room.seats] if self.room is not None else []

    @property
    def table(self) -> wire.TableState | None:
        """The table's state while a game is dealt (None before the first)."""
        return self.state if isinstance(self.state, wire.TableState) else None

    @property
    def playing(self) -> bool:
        return self.table is not None

    @property
    def live(self) -> bool:
        """A game is on and its clock runs: not paused, not over."""
        table = self.table
        return table is not None and not table.paused and not table.over

    @property
    def phase(self) -> wire.Phase | None:
        return self.room.phase if self.room is not None else None

    def welcome(self, msg: wire.Welcome) -> None:
        self.connected = True
        self.room, self.yours, self.host = msg.room, msg.yours, msg.host
        if msg.missed is None or self.seq < 0:
            self.seq = msg.seq
        self._show_state(msg.state)
        self.summary = msg.summary

    def events(self, msg: wire.Events) -> bool:
        """Apply the new events in order; False when some are missing (ask for them: ``resync``)."""
        items = sorted((item for item in msg.items if item.seq > self.seq), key=lambda item: item.seq)
        if items and items[0].seq > self.seq + 1 and self.seq >= 0:
            return False
        for item in items:
            self.seq = item.seq
            self._happened(item)
        self._show_state(msg.state)
        return True

    def whole_state(self, msg: wire.StateMsg) -> None:
        self.seq = msg.seq
        self.room = msg.room
        self._show_state(msg.state)

    def lobby(self, room: wire.RoomView) -> None:
        if self.room is not None and room.game != self.room.game:
            self.summary = None  # a new game: the last one's summary is done with
        self.room = room

    def seated(self, msg: wire.Seated) -> None:
        self.yours, self.token = msg.seats, msg.token

    def over(self, msg: wire.Over) -> None:
        self.summary = msg.summary
        self.game_over_seen = True

    def rejected(self, msg: wire.RejectedMsg) -> None:
        lobby = isinstance(msg.code, wire.Refusal)  # the room's own refusals; else the table's
        said = self.words.rejected(str(msg.code), msg.reason, msg.seat, self.names(), lobby)
        self.banner = Line(said, Tone.MUTED)

    def error(self, msg: wire.ErrorMsg) -> None:
        self.banner = Line(msg.message, Tone.BAD)

    def latency(self, msg: wire.Latency) -> None:
        """Only the measured delays moved: each seat's, shown by its name."""
        room = self.room
        if room is None or len(msg.seats) != len(room.seats):
            return
        seats = tuple(replace(seat, latency_ms=ms) for seat, ms in zip(room.seats, msg.seats, strict=True))
        self.room = replace(room, seats=seats, window_ms=msg.window_ms, waits_for=msg.waits_for)

    def reaction(self, msg: wire.ReactionMsg) -> None:
        words = self.words
        said = words.t(
            "room.react.said",
            name=words.seat_name(self.names(), msg.seat),
            reaction=words.t(f"room.react.{msg.reaction}"),
        )
        self.feed.appendleft(Line(said, Tone.PLAIN, "reaction"))

    # ------------------------------------------------------------------ inside

    def _show_state(self, state: wire.RoomState) -> None:
        if isinstance(state, wire.TableState):
            before = self.table
            if before is None or state.cards < before.cards:  # a first deal, or cards counted again: a new game
                self._new_game()
        self.state = state
        self.state_at = self.clock()

    def _new_game(self) -> None:
        self.painted.clear()
        self.memory = Memory()
        self.game_over_seen = False
        room = self.room
        shoe = self.words.decks(room.rules, len(room.seats)) if room is not None else None
        if shoe is not None:  # seven players or more (or the rules' own choice) are dealt two decks: say so
            line = Line(shoe, Tone.INFO, "decks")
            self.feed.appendleft(line)
            self.banner = line

    def _happened(self, item: wire.EventItem) -> None:
        self.events_applied += 1
        event = item.event
        if event.get("kind") == "card_turned":
            return  # the pile shows it
        names = self.names()
        # The page's voice: the one seat this page plays is "you"; two at one keyboard are called by name.
        you = self.yours[0] if len(self.yours) == 1 else None
        rules = self.room.rules if self.room is not None else None
        words = self.words
        said = words.verdict(event, item.seen, self.memory, names, you, rules) or words.describe(
            event, names, you, rules
        )
        self.memory.remember(event)
        tone = tone_of(event, self.yours)
        line = Line(said, tone, str(event.get("kind", "")))
        self.feed.appendleft(line)
        if tone is not Tone.PLAIN:
            self.banner = line

    # ------------------------------------------------------------------ what the player does

    def drawn(self, number: int) -> bool:
        """Card ``number`` is drawn on top of the pile: the first time, its reaction clock starts now (True);
        the screen then says when the frame that shows it is out (``shown``)."""
        if number in self.painted:
            return False
        self.painted[number] = self.clock()
        for old in [n for n in self.painted if n < number - PAINTS_KEPT]:
            del self.painted[old]
        return True

    def shown(self, number: int) -> None:
        """The frame that first showed card ``number`` is on the terminal: its reaction clock counts from now,
        as the page counts from the animation frame that painted it."""
        if number in self.painted:
            self.painted[number] = self.clock()

    def slap_for(self, seat: int) -> wire.SlapMsg:
        """A slap names the top card this player saw and how long after it was drawn they reacted."""
        card = self.top_card()
        painted = self.painted.get(card) if card is not None else None
        rt = None
        if painted is not None:
            rt = max(0, min(MAX_REACTION_MS, round((self.clock() - painted) * 1000)))
        return wire.SlapMsg(seat, card, rt)

    def top_card(self) -> int | None:
        """The number of the card on top of the pile (the cards turned so far), None when the pile is empty."""
        table = self.table
        return table.cards if table is not None and table.pile else None
