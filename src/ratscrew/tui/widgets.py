"""The parts of the terminal table: the top line, the seats, the pile with its slap window, the status and the
banner, the feed, the keys; and the lobby of an online room. Each draws what the table's model holds (``view``
gives the widget what it needs of the app), sized to the room it has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ratscrew.rooms import wire
from ratscrew.tui.cards import pile_text, size_for
from ratscrew.tui.model import Line, TableModel, Tone
from ratscrew.tui.words import Words, clock_text

if TYPE_CHECKING:
    from ratscrew.tui.keys import Keys

TONES = {
    Tone.GOOD: Style(color="green", bold=True),
    Tone.BAD: Style(color="red", bold=True),
    Tone.INFO: Style(color="cyan"),
    Tone.MUTED: Style(color="yellow"),
    Tone.PLAIN: Style(),
}
DUE = "▶"
WINDOW_BAR = 12


class TableView(Protocol):
    """What the table's parts need of the app."""

    model: TableModel
    words: Words
    plain: bool
    keys: Keys

    def now(self) -> float:
        """The frame clock, in seconds."""
        ...

    def game_ms(self) -> int:
        """The game's time on its clock, as the page's clock shows it."""
        ...


def tone_style(tone: Tone, plain: bool) -> Style:
    if plain:
        return Style(bold=tone in (Tone.GOOD, Tone.BAD))
    return TONES[tone]


class Part(Widget):
    """A part of the table, drawn from the app's model."""

    @property
    def view(self) -> TableView:
        app: object = self.app
        return app  # type: ignore[return-value]  # the app is a TableView (app.TableApp)


class TopLine(Part):
    """What is played where: the rules, the room (online), the connection, the clock or the pause."""

    def render(self) -> RenderableType:
        view = self.view
        model, words = view.model, view.words
        room = model.room
        parts = ["ratscrew"]
        changed: tuple[str, ...] = ()
        if room is not None:
            parts.append(words.t(f"preset.{room.preset}.name"))
            changed = words.house_rules(room.rules)
            if view.keys.online:
                parts.append(words.t("tui.title.room", code=room.code))
                parts.append(words.t("room.net.online" if model.connected else "room.net.reconnecting"))
            elif any(seat.kind == "bot" for seat in room.seats):
                parts.append(words.t("tui.title.local"))
            else:
                parts.append(words.t("tui.title.shared"))
        table = model.table
        if table is not None and table.paused and not table.over:
            right = words.t("access.paused_title")
        elif table is not None:
            limit = _rules_int(room, "end", "time_limit_s") * 1000 if room is not None else 0
            ms = view.game_ms()
            label = words.t("game.time_left" if limit else "game.time")
            right = f"{label} {clock_text(max(0, limit - ms) if limit else ms)}"
        else:
            right = ""
        text = Text(" · ".join(parts))
        if changed:
            text = self._with_house_rules(parts, changed, len(right))
        gap = max(1, self.size.width - text.cell_len - len(right))
        text.append(" " * gap + right, Style(bold=True))
        return text

    def _with_house_rules(self, parts: list[str], changed: tuple[str, ...], right: int) -> Text:
        """The house rules after the preset's name, in brackets: as many whole as fit beside the clock (leaving
        out the word "ratscrew" if that lets more in), then how many more (``+2``); the help lists them all."""
        best: tuple[int, list[str], str] | None = None
        for shown_parts in (parts, parts[1:]):
            room_left = self.size.width - len(" · ".join(shown_parts)) - right - 1 - len(" ()")
            count = len(changed)
            while count and len(_house_text(changed, count)) > room_left:
                count -= 1
            if best is None or count > best[0]:
                best = (count, shown_parts, _house_text(changed, count))
        assert best is not None
        _, shown_parts, said = best
        preset = shown_parts.index(parts[1])
        return Text(" · ".join([*shown_parts[:preset], f"{parts[1]} ({said})", *shown_parts[preset + 1 :]]))


def _house_text(changed: tuple[str, ...], count: int) -> str:
    """The first ``count`` house rules and how many more: ``Run: 4 cards; +1``."""
    more = len(changed) - count
    return "; ".join([*changed[:count], *([f"+{more}"] if more else [])])


def _rules_int(room: wire.RoomView | None, section: str, key: str) -> int:
    if room is None:
        return 0
    part = room.rules.get(section)
    value = part.get(key) if isinstance(part, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


class Seats(Part):
    """Every seat: whose turn it is, who plays it, its cards, what the game asks of it, its connection."""

    def render(self) -> RenderableType:
        view = self.view
        model, words = view.model, view.words
        room = model.room
        if room is None:
            return Text("")
        table = model.table
        lobby = room.phase is wire.Phase.LOBBY or table is None
        online = view.keys.online
        width = self.size.width
        two_lines = self.size.height >= 2 * len(room.seats)
        lines: list[Text] = []
        for index, seat in enumerate(room.seats):
            due = (
                table is not None
                and not lobby
                and not table.over
                and table.turn == index
                and table.collect_pending is None
            )
            mine = index in model.yours
            head = Text(f"{DUE if due else ' '} ", Style(bold=True))
            name_style = Style(bold=True, underline=mine) if not view.plain else Style(bold=mine, underline=mine)
            head.append(seat.name, name_style)
            badge = words.badge(seat.kind, seat.level, index, model.yours)
            if badge != seat.name:  # two people left unnamed are "Player 1" and "Player 2": said once
                head.append(f" ({badge})")
            tail = Text(style=Style(bold=True))
            detail: list[str] = []
            if lobby or table is None:
                if seat.kind is not wire.SeatKind.EMPTY:
                    detail.append(words.t("room.ready_yes" if seat.ready else "room.ready_no"))
            else:
                sizes = table.stack_sizes
                tail.append("  " + words.tn("access.cards", sizes[index] if index < len(sizes) else 0))
                said = words.seat_state(table, index, model.yours)
                if said:
                    detail.append(said)
            if online:
                net = words.connection(seat.kind, seat.connected, seat.standin, seat.latency_ms)
                if net:
                    detail.append(net)
            if two_lines:
                lines.append(fitted(head, tail, width))
                lines.append(fitted(Text("    " + " · ".join(detail), Style(dim=True)), Text(), width))
            else:
                if detail:
                    tail.append(" · " + " · ".join(detail), Style(dim=True))
                lines.append(fitted(head, tail, width))
        return Group(*lines)


NAME_KEPT = 12  # a seat's name and badge keep this many cells before its cards and state are cut


def fitted(head: Text, tail: Text, width: int) -> Text:
    """``head`` then ``tail`` on one line of ``width`` cells: the head (who plays the seat) is shortened first,
    so its cards and what the game asks of it stay in sight with twelve seats at 80 columns."""
    room = max(NAME_KEPT, width - tail.cell_len)
    if head.cell_len > room:
        head.truncate(room, overflow="ellipsis")
    line = Text.assemble(head, tail)
    line.truncate(width, overflow="ellipsis")
    return line


class Pile(Part):
    """The pile's top cards, fanned, with its count and the cards burned under it; the slap window after a
    won challenge, draining. Each card's reaction clock starts when it is first drawn here."""

    def render(self) -> RenderableType:
        view = self.view
        model, words = view.model, view.words
        table = model.table
        if table is None:
            return Text("")
        pile = [str(card) for card in table.pile]
        rows = max(3, self.size.height - 2)
        drawn = pile_text(pile, words, plain=view.plain, height=rows, width=max(8, self.size.width))
        top = model.top_card()
        if top is not None and model.drawn(top):
            # The page counts a reaction from the frame that painted the card: here, from the refresh that
            # put it on the terminal.
            self.app.call_after_refresh(model.shown, top)
        info = Text(words.t("game.pile_count", n=len(pile)) if pile else words.t("game.pile_empty"))
        if table.burned_count:
            info.append(" · " + words.t("game.burned", n=table.burned_count))
        drawn_rows = drawn.plain.count("\n") + 1 if pile else 0
        shown = Text()
        shown.append_text(drawn)
        shown.append("\n" * max(1, size_for(rows).height - drawn_rows + (1 if pile else 0)))
        shown.append_text(info)
        shown.append("\n")
        shown.append_text(self._window(table))
        return shown

    def _window(self, table: wire.TableState) -> Text:
        view = self.view
        model, words = view.model, view.words
        collecting = table.collect_pending
        if collecting is None or table.over:
            return Text("")
        total = max(0, table.collect_delay_ms) / 1000
        left = 0.0 if total == 0 else max(0.0, total - (view.now() - model.state_at)) / total
        if table.paused:
            left = model.window_left
        model.window_left = left
        # The bar first, so it shows at any width; the words after it are cut to the room left.
        full = round(left * WINDOW_BAR)
        style = Style(bold=True) if view.plain else Style(color="yellow", bold=True)
        text = Text("█" * full + "░" * (WINDOW_BAR - full), style)
        text.append(" " + words.t("access.window_open", name=words.seat_name(model.names(), collecting)))
        text.truncate(max(WINDOW_BAR, self.size.width), overflow="ellipsis")
        return text


class Status(Part):
    """Whose turn it is (or who owes, or who collects), and the last verdict or refusal as a banner."""

    def render(self) -> RenderableType:
        view = self.view
        model, words = view.model, view.words
        lines: list[Text] = []
        if model.table is not None:
            lines.append(Text(words.status(model.table, model.names(), model.yours), Style(bold=True)))
        elif model.room is not None:
            lines.append(Text(lobby_words(view), Style(bold=True)))
        banner: Line | None = model.banner
        if banner is not None:
            lines.append(Text(banner.text, tone_style(banner.tone, view.plain)))
        return Group(*lines)


def lobby_words(view: TableView) -> str:
    """What a page in an online room's lobby may do now."""
    model, words = view.model, view.words
    room = model.room
    assert room is not None
    phase = words.t(f"room.phase.{room.phase}")
    if room.phase is not wire.Phase.LOBBY:
        said = words.t("game.watching") if not model.yours else ""
        return f"{phase}. {said}".strip()
    if not model.yours:
        free = any(seat.kind is wire.SeatKind.EMPTY for seat in room.seats)
        return f"{phase}. " + (
            words.t("tui.lobby.sit") if free and not view.keys.watching else words.t("game.watching")
        )
    seat = min(model.yours)
    said = words.t("room.seated", n=seat + 1)
    ask = words.t("tui.lobby.host") if model.host else words.t("tui.lobby.waiting")
    return f"{phase}. {said} {ask}"


class Feed(Part):
    """What happened, newest first: each event in words, a verdict saying why."""

    def render(self) -> RenderableType:
        view = self.view
        width, rows_left = max(1, self.size.width), self.size.height
        lines: list[Text] = []
        for line in view.model.feed:
            text = Text(line.text, tone_style(line.tone, view.plain) if line.tone is not Tone.PLAIN else Style())
            rows = len(text.wrap(self.app.console, width))  # a long verdict wraps over several rows
            if rows > rows_left:
                break  # whole lines only: a verdict cut after its first rows would not say why
            lines.append(text)
            rows_left -= rows
        return Group(*lines)


class KeyBar(Part):
    """The keys that do something now."""

    def render(self) -> RenderableType:
        view = self.view
        text = Text(" · ".join(view.keys.hints()), Style(dim=not view.plain))
        text.truncate(max(1, self.size.width), overflow="ellipsis")
        return text
