"""The game a room is playing: its table, the players' inputs, the numbered events, and what the game leaves.

A game is its seed plus its actions: a new one is dealt from a seed, one resumed after a restart replays
the actions its journal kept (``table.replay``) and goes on from the last. Its table runs on the room's clock,
shifted to the game's own time and stopped while the game is paused.

A person's flip or slap is put to the table once the room has checked the seat is theirs; a slap is
credited first with the lag of its page's link (``fairness.credit``), and its figures (``adjudications``)
wait for the verdict that ends it. The table says no in one way, whether at once or when a held input's
landing time comes; the page that asked, or every page holding that seat, is told why. What the table
publishes is numbered into the room's feed, sent with the state after it, and its actions journaled. A slap
on a card is timed from when the first message showing it left for the page (``sent``), which may be a
while after the table turned it: the journal holds what pages are sent until it has kept what made it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ratscrew.engine.events import CardTurned, EventKind, SlapCorrect, SlapDismissed, WrongSlap
from ratscrew.engine.game import Game
from ratscrew.engine.view import view_for
from ratscrew.record import Record, action_from_json, action_to_json
from ratscrew.rooms import wire
from ratscrew.rooms.document import Journal
from ratscrew.rooms.fairness import Adjudication, credit
from ratscrew.rooms.outbox import Feed, Outbox, Shows
from ratscrew.rooms.pages import Page, Pages
from ratscrew.rooms.seating import Seating
from ratscrew.rooms.summary import game_id, public, summarize
from ratscrew.table.clock import Clock, OffsetClock, PausableClock
from ratscrew.table.table import Rejected, Table, TableConfig, TableEvent, replay

_VERDICTS: dict[EventKind, wire.Verdict] = {
    EventKind.SLAP_CORRECT: "slap_correct",
    EventKind.WRONG_SLAP: "wrong_slap",
    EventKind.SLAP_DISMISSED: "slap_dismissed",
}


class Play:
    def __init__(
        self,
        code: str,
        game_no: int,
        seed: int,
        *,
        clock: Clock,
        seating: Seating,
        pages: Pages,
        outbox: Outbox,
        feed: Feed,
        journal: Journal,
        paused: bool,
        reactions: dict[int, list[int]],
        actions: Sequence[object] = (),
    ) -> None:
        self.code = code
        self.game_no = game_no
        self.seed = seed
        self.id = game_id(code, game_no)
        self.seating, self.pages, self.outbox, self.feed, self.journal = seating, pages, outbox, feed, journal
        game = self.game = Game.from_seed(seating.rules, len(seating.seats), seed)
        history = replay(game, [action_from_json(raw, index) for index, raw in enumerate(actions)])
        self.clock = PausableClock(OffsetClock(clock, game.now))
        if paused:
            self.clock.pause()  # a paused game resumed from the journal stays paused
        hold = pages.window()
        self.table = Table(
            game,
            seating.seat_specs(),
            self.clock,
            seed=seed ^ len(game.actions),
            config=TableConfig(hold_ms=hold, bot_pace=seating.options.bot_pace, sight_ms=pages.sight(hold)),
            reactions=reactions,
            history=history,
        )
        self.pending: list[TableEvent] = []  # published by the table, not yet numbered and sent
        self.table.listeners.append(self.pending.append)
        self.table.refusals.append(self._refused)
        self.adjudications: list[Adjudication] = []
        self._journaled = len(game.actions)
        self._asking: Page | None = None  # the page whose input the table is being asked about
        self._refused_now = False
        for page in pages.values():
            page.sent_cards.clear()  # this game numbers its cards from 1 again

    # ------------------------------------------------------------------ inputs from people

    def flip(self, page: Page, seat: int) -> None:
        self._ask(page, lambda: self.table.flip(seat))

    def slap(self, page: Page, msg: wire.SlapMsg) -> None:
        table = self.table
        judged = credit(
            received=table.clock.now(),
            sent=page.sent_cards.get(msg.card) if msg.card is not None else None,
            reaction=msg.rt,
            lag=page.link,
            quota=self.seating.seats[msg.seat].quota,
            window=table.hold_ms,
        )
        if self._ask(page, lambda: table.slap(msg.seat, card=msg.card, landed=judged.landed)):
            tcp_rtt = None if page.tcp_ms is None else round(page.tcp_ms)
            self.adjudications.append(
                Adjudication(msg.seat, msg.card, judged, echo_rtt=page.echo.rounded, tcp_rtt=tcp_rtt)
            )
            page.seen.add(judged, page.link.allowance())
            table.sight_ms = self.pages.sight(table.hold_ms)

    def retime(self) -> None:
        """The table's hold and its computers' sight follow what was measured of the players' links."""
        self.table.hold_ms = self.pages.window()
        self.table.sight_ms = self.pages.sight(self.table.hold_ms)

    def _ask(self, page: Page, ask: Callable[[], None]) -> bool:
        """Put one of ``page``'s inputs to the table: True if it was taken."""
        self._asking, self._refused_now = page, False
        try:
            ask()
        finally:
            self._asking = None
        return not self._refused_now

    def _refused(self, no: Rejected) -> None:
        """The table said no: to the page asking now, or, for a held input it could no longer play when its
        landing time came, to every page holding the seat it was sent for."""
        message = wire.RejectedMsg(no.code, no.reason, no.seat)
        if self._asking is not None:
            self._refused_now = True
            self.outbox.refuse(self._asking.id, message)
        else:
            self.outbox.send_all(self.pages.holding(no.by), message)

    # ------------------------------------------------------------------ what the table published

    def publish(self) -> bool:
        """Number what the table published, send it with the state after it, and journal its actions; True
        when that ended the game."""
        if not self.pending:
            return False
        items = []
        cards = []
        for published in self.pending:
            event = published.event
            self._judge(published)
            items.append(self.feed.add(self.game_no, published.t, public(event, self.game), published.seen))
            if isinstance(event, CardTurned):
                cards.append(event.number)
                # A slow player who slaps every card never runs dry: each card refills what the server allows them.
                for info, ms in zip(self.seating.seats, self.pages.allowances(len(self.seating.seats)), strict=True):
                    info.quota.refill(ms)
        self.pending.clear()
        # Each page's slap on these cards is timed from when this message leaves for it (``RoomCore.sent``).
        shows = Shows(self.game_no, tuple(cards)) if cards else None
        self.outbox.broadcast(self.pages.values(), self.events(items), shows)
        actions = self.game.actions
        if len(actions) > self._journaled:
            docs = [action_to_json(a) for a in actions[self._journaled :]]
            self.journal.actions(self.code, self.game_no, self._journaled, docs, self.feed.seq)
            self._journaled = len(actions)
        return self.game.over

    def _judge(self, published: TableEvent) -> None:
        """Attach a slap's verdict to the figures that timed it."""
        event = published.event
        if not isinstance(event, SlapCorrect | WrongSlap | SlapDismissed):
            return
        for adjudication in self.adjudications:
            fits = adjudication.seat == event.seat and adjudication.credit.landed <= published.t
            if adjudication.verdict is None and fits:
                adjudication.verdict = _VERDICTS[event.kind]
                return

    # ------------------------------------------------------------------ what pages see, and what is kept

    def state(self) -> wire.TableState:
        """The table as every page may see it, with its time, its windows and whether it is paused."""
        return wire.TableState.at(
            view_for(self.game),
            now=self.clock.now(),
            collect_delay_ms=self.game.rules.slapping.collect_delay_ms,
            hold_ms=self.table.hold_ms,
            paused=self.clock.paused,
        )

    def showing(self) -> Shows | None:
        """The card on top of what the state shows, for a message that carries the state (None: none yet)."""
        return Shows(self.game_no, (self.game.cards,)) if self.game.cards else None

    def sent(self, page: Page, shows: Shows) -> None:
        """A message showing ``shows`` left for ``page`` now: a slap on one of its cards is timed from now
        (from the first message that showed it; a card of an earlier game is not this game's)."""
        if shows.game == self.game_no:
            now = self.clock.now()
            for card in shows.cards:
                page.card_sent(card, now)

    def events(self, items: Sequence[wire.EventItem]) -> wire.Events:
        return wire.Events(tuple(items), self.state())

    def record(self) -> Record:
        names = tuple(s.name for s in self.seating.seats)
        extra: dict[str, object] = {"adjudications": [a.to_dict() for a in self.adjudications]}
        game = self.game
        return Record(game.rules, len(names), seed=self.seed, players=names, actions=tuple(game.actions), extra=extra)

    def summary(self) -> wire.GameSummary:
        return summarize(self.id, self.table, self.seating.seats, self.adjudications)
