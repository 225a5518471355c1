"""A room's seating: its seats, rules and settings, and who holds which seat (every token, the host's among them).

This is the lobby's state. What pages ask of the lobby comes here once the room has checked the phase; each
change either happens or is refused with the message its page is sent (``wire.RejectedMsg``). Tokens are
unguessable and compared in constant time; the host's token may hold a seat or none (a host who watches).
During a game, a computer holds the seat of a person away longer than the grace, where the room allows it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from ratscrew.bots.registry import PLAYABLE
from ratscrew.engine.actions import Millis
from ratscrew.errors import RatscrewError
from ratscrew.rooms import wire
from ratscrew.rooms.fairness import Quota
from ratscrew.rooms.outbox import Outbox
from ratscrew.rooms.pages import Page, Pages
from ratscrew.rooms.wire import Refusal, SeatKind
from ratscrew.rules.io import rules_from_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules
from ratscrew.table.table import MATCH, SeatSpec


@dataclass
class SeatInfo:
    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    level: str | None = None
    ready: bool = False
    away_since: Millis | None = None
    standin: bool = False
    stood_in: bool = False  # a stand-in held the seat at some time in this game (rated: its person finishes last)
    quota: Quota = field(default_factory=Quota)

    def to_doc(self) -> dict[str, object]:
        return {"kind": self.kind.value, "name": self.name, "level": self.level}


@dataclass(frozen=True, slots=True)
class RoomOptions:
    public: bool = False
    standins: bool = True  # a computer may hold a dropped player's seat until they come back
    bot_pace: float = 1.0
    pausable: bool = False  # a game against the computer (or two on one screen): its players may pause it


GRACE_MS = 15_000  # a dropped player keeps their seat this long before a computer holds it (if allowed)
STANDIN_LEVEL = "medium"

LobbyChange = wire.Sit | wire.Stand | wire.Ready | wire.SetSeats | wire.SetBot | wire.SetRules | wire.SetVisibility


def new_token() -> str:
    return secrets.token_urlsafe(18)


def refused(code: Refusal, reason: str, seat: int | None = None) -> wire.RejectedMsg:
    return wire.RejectedMsg(code, reason, seat)


class Seating:
    def __init__(self, seats: Iterable[SeatInfo], rules: Rules, options: RoomOptions) -> None:
        self.seats = list(seats)
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            raise RatscrewError(f"a room has {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(self.seats)}")
        self.rules = rules
        self.options = options
        self.host_token = new_token()
        self.tokens: dict[str, frozenset[int]] = {self.host_token: frozenset()}
        self.rematch_by: int | None = None  # the seat that asked for the rematch the lobby is in (else None)

    # ------------------------------------------------------------------ tokens

    def issue_token(self, seats: Iterable[int]) -> str:
        token = new_token()
        self.tokens[token] = frozenset(seats)
        return token

    def seats_of(self, token: str | None) -> frozenset[int] | None:
        """The seats a token holds (the host's token may hold none); None for an unknown token."""
        if token is None:
            return None
        found = None
        for known, seats in self.tokens.items():
            if secrets.compare_digest(known, token):
                found = seats
        return found

    def is_host(self, token: str | None) -> bool:
        return token is not None and secrets.compare_digest(token, self.host_token)

    def retoken(self, old: str | None, seats: frozenset[int]) -> str | None:
        """The token that holds ``seats`` now, for a page that held ``old``: the host keeps theirs; anyone else
        gets a new one (the old one no longer holds anything), and a page that stood up none at all."""
        if old is not None and self.is_host(old):
            self.tokens[self.host_token] = seats
            return self.host_token
        if old is not None:
            self.tokens.pop(old, None)
        return self.issue_token(seats) if seats else None

    # ------------------------------------------------------------------ changes asked by pages

    def handle(self, page: Page, msg: LobbyChange, pages: Pages, outbox: Outbox) -> bool:
        """One lobby message from ``page``: True once the lobby changed, False when it was refused (and the
        page told why). A page that sits or stands holds a new token, and so does every page that showed
        its old one (the same player in another tab): none keeps a seat that was freed, and may since be
        someone else's."""
        no = self._change(msg, page.seats, self.is_host(page.token))
        if no is not None:
            outbox.refuse(page.id, no)
            return False
        if isinstance(msg, wire.Sit | wire.Stand):
            seats = frozenset({msg.seat}) if isinstance(msg, wire.Sit) else frozenset()
            old = page.token
            token = self.retoken(old, seats)
            for other in pages.values():
                if other is page or (old is not None and other.token == old):
                    other.token, other.seats = token, seats
                    outbox.send(other.id, wire.Seated(tuple(sorted(seats)), token))
        return True

    def _change(self, msg: LobbyChange, held: frozenset[int], host: bool) -> wire.RejectedMsg | None:
        """Apply one lobby message from a page holding ``held`` (the room moves its token after a sit or a
        stand); the refusal to send, or None once done."""
        if isinstance(msg, wire.Sit):
            return self._sit(msg, held)
        if isinstance(msg, wire.Stand):
            if not held:
                return refused(Refusal.NOT_SEATED, "you hold no seat to leave")
            for seat in held:
                self.seats[seat] = SeatInfo()
        elif isinstance(msg, wire.Ready):
            if not held:
                return refused(Refusal.NOT_SEATED, "take a seat first")
            for seat in held:
                self.seats[seat].ready = msg.ready
        elif not host:
            return refused(Refusal.NOT_HOST, "only the host changes the seats and the rules")
        elif isinstance(msg, wire.SetSeats):
            return self._resize(msg.count)
        elif isinstance(msg, wire.SetBot):
            return self._set_bot(msg)
        elif isinstance(msg, wire.SetRules):
            return self._set_rules(msg.rules)
        else:
            self.options = replace(self.options, public=msg.public)
        return None

    def _sit(self, msg: wire.Sit, held: frozenset[int]) -> wire.RejectedMsg | None:
        if not 0 <= msg.seat < len(self.seats) or self.seats[msg.seat].kind is not SeatKind.EMPTY:
            return refused(Refusal.SEAT_TAKEN, f"seat {msg.seat + 1} is not free", msg.seat)
        for seat in held:  # one page, one seat in an online room: moving frees the old one
            self.seats[seat] = SeatInfo()
        self.seats[msg.seat] = SeatInfo(SeatKind.HUMAN, msg.name or f"Player {msg.seat + 1}")
        return None

    def _resize(self, count: int) -> wire.RejectedMsg | None:
        try:
            self.rules.deck_for(count)
        except RatscrewError as exc:
            return refused(Refusal.BAD_VALUE, str(exc))
        if count < len(self.seats):
            taken = [s for s in range(count, len(self.seats)) if self.seats[s].kind is SeatKind.HUMAN]
            if taken:
                return refused(Refusal.SEAT_TAKEN, f"seat {taken[0] + 1} is taken: ask them to move first")
            del self.seats[count:]
        else:
            self.seats.extend(SeatInfo() for _ in range(count - len(self.seats)))
        return None

    def _set_bot(self, msg: wire.SetBot) -> wire.RejectedMsg | None:
        if not 0 <= msg.seat < len(self.seats) or self.seats[msg.seat].kind is SeatKind.HUMAN:
            return refused(Refusal.SEAT_TAKEN, f"seat {msg.seat + 1} is not free", msg.seat)
        if msg.level is None:
            self.seats[msg.seat] = SeatInfo()
        elif msg.level not in PLAYABLE:
            choices = ", ".join(PLAYABLE)
            return refused(Refusal.BAD_VALUE, f"unknown level {msg.level[:20]!r}: expected one of {choices}")
        else:
            name = msg.name or f"Computer {msg.seat + 1}"
            self.seats[msg.seat] = SeatInfo(SeatKind.BOT, name, msg.level, ready=True)
        return None

    def _set_rules(self, doc: object) -> wire.RejectedMsg | None:
        try:
            rules = rules_from_mapping(doc, where="rules")
            rules.deck_for(len(self.seats))
        except RatscrewError as exc:
            return refused(Refusal.BAD_VALUE, str(exc))
        self.rules = rules
        for info in self.seats:
            info.ready = info.kind is SeatKind.BOT  # new rules need every person's agreement again
        return None

    def not_ready(self) -> wire.RejectedMsg | None:
        """Why the game cannot start yet (an empty seat, a person not ready), or None."""
        empty = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.EMPTY]
        if empty:
            return refused(Refusal.NOT_READY, f"seat {empty[0] + 1} is empty: someone must sit there, or a computer")
        waiting = [s for s in self.seats if s.kind is SeatKind.HUMAN and not s.ready]
        if waiting:
            return refused(Refusal.NOT_READY, f"{waiting[0].name} has not pressed ready")
        return None

    def back_to_lobby(self, asked_by: Iterable[int] = ()) -> None:
        """After a game, a rematch asked for by the seats ``asked_by``: everyone keeps their seat, whoever asked
        has agreed to it (ready) and every other person is asked again; nobody is held by a computer."""
        asked = sorted(asked_by)
        self.rematch_by = asked[0] if asked else None
        for index, seat in enumerate(self.seats):
            seat.ready = seat.kind is SeatKind.BOT or index in asked
            seat.standin = False
            seat.stood_in = False
            seat.away_since = None

    def standins(self, present: set[int], now: Millis) -> list[tuple[int, str | None]]:
        """During a game: each seat whose person came back (None: they play again) or has been away longer
        than the grace (the level of the computer that holds it, where the room allows it)."""
        changes: list[tuple[int, str | None]] = []
        for index, seat in enumerate(self.seats):
            if seat.kind is not SeatKind.HUMAN:
                continue
            if index in present:
                if seat.standin:
                    seat.standin = False
                    changes.append((index, None))
                seat.away_since = None
            elif (
                self.options.standins
                and seat.away_since is not None
                and not seat.standin
                and now - seat.away_since >= GRACE_MS
            ):
                seat.standin = seat.stood_in = True
                changes.append((index, STANDIN_LEVEL))
        return changes

    def seat_specs(self) -> list[SeatSpec]:
        """The seats as the table takes them; a ``match`` computer copies the first person's speed."""
        people = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN]
        specs = []
        for seat in self.seats:
            if seat.kind is SeatKind.BOT:
                match_seat = people[0] if seat.level == MATCH and people else None
                specs.append(SeatSpec(seat.name, seat.level, match_seat))
            else:
                specs.append(SeatSpec(seat.name))
        return specs
