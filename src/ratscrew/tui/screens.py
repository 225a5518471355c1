"""The screens over the table: the help (``?``) and the end-of-game summary, as the page's summary shows it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ratscrew.rooms.wire import GameSummary
from ratscrew.tui.words import Words

HELP_KEYS = ("turn", "slap", "pause", "lobby", "again", "help", "quit")
NARROW_COLUMNS = 100  # below this width the summary takes the whole width


class HelpScreen(ModalScreen[None]):
    """The keys, and what the table shows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, words: Words, preset: str = "", house_rules: Sequence[str] = ()) -> None:
        super().__init__()
        self.words = words
        self.preset = preset  # the rule set's name, and what it changes from it (the top line has the start)
        self.house_rules = tuple(house_rules)

    def compose(self) -> ComposeResult:
        t = self.words.t
        body = Text()
        if self.house_rules:
            body.append(self.words.tn("learn.ui.table_summary", len(self.house_rules), preset=self.preset) + "\n")
            for rule in self.house_rules:
                body.append("• " + rule + "\n")
            body.append("\n")
        body.append(t("tui.help.title") + "\n\n", Style(bold=True))
        for key in HELP_KEYS:
            body.append("• " + t(f"tui.help.{key}") + "\n")
        body.append("\n" + t("tui.help.table") + "\n\n" + t("tui.help.window") + "\n\n")
        body.append(t("tui.keys.back"), Style(dim=True))
        with VerticalScroll(id="help-box"):
            yield Static(body, id="help")

    def action_close(self) -> None:
        self.dismiss()


class SummaryScreen(ModalScreen[str]):
    """The end of a game: who won and how, its length, each player's figures, where its record is."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("n", "again", show=False),
        Binding("q", "quit_table", show=False),
    ]

    def __init__(
        self, words: Words, summary: GameSummary, yours: Sequence[int], saved: str | None, online: bool
    ) -> None:
        super().__init__()
        self.words = words
        self.summary = summary
        self.yours = tuple(yours)
        self.saved = saved
        self.online = online

    def on_resize(self, event: events.Resize) -> None:
        # At 80 columns every column needs the room the box's margins would take (German headings, many seats).
        self.set_class(event.size.width < NARROW_COLUMNS, "narrow")

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary-box"):
            # Docked: the keys stay in sight while a long summary (many seats, a small terminal) scrolls.
            yield Static(self.keys(), id="summary-keys")
            yield Static(self.body(), id="summary")

    def body(self) -> RenderableType:
        words, summary = self.words, self.summary
        t = words.t
        parts: list[RenderableType] = [
            Text(words.headline(summary, self.yours), Style(bold=True)),
            Text(words.length(summary)),
        ]
        if summary.how is not None:
            parts.append(Text(t(f"game.summary.how.{summary.how}"), Style(dim=True)))
        parts.append(self.players())
        if summary.races:
            parts.append(Text(t("room.races.title", n=len(summary.races))))
        if self.saved:
            parts.append(Text(self.saved, Style(dim=True)))
        return Group(*parts)

    def keys(self) -> Text:
        t = self.words.t
        keys = [t("tui.keys.rematch" if self.online else "tui.keys.again")] if self.yours else []
        keys += [t("tui.keys.back"), t("tui.keys.quit")]
        return Text(" · ".join(keys), Style(bold=True))

    def players(self) -> PlayersTable:
        t = self.words.t
        rows: list[list[str]] = []
        for player in self.summary.players:
            name = player.name
            if player.bot:
                name += f" ({t(f'level.{player.bot}')})"
            median = player.median_reaction_ms
            shown = "–" if median is None else t("game.summary.ms", n=round(median))
            if player.reaction_ms:
                shown += f" ({len(player.reaction_ms)})"
            figures = (player.cards, player.piles_by_slap, player.piles_by_challenge, player.wrong_slaps)
            rows.append([name, *(str(n) for n in figures), shown])
        heads = [t(f"game.summary.{key}") for key in SUMMARY_COLUMNS]
        winner = next((i for i, p in enumerate(self.summary.players) if p.seat == self.summary.winner), None)
        return PlayersTable(heads, rows, winner)

    def action_close(self) -> None:
        self.dismiss("close")

    def action_again(self) -> None:
        if self.yours:
            self.dismiss("again")

    def action_quit_table(self) -> None:
        self.dismiss("quit")


SUMMARY_COLUMNS = ("player", "cards", "by_slap", "by_challenge", "wrong", "reaction")


class PlayersTable:
    """The summary's row per player, laid out for the width it is given: each figure's column at least as wide
    as its longest heading word or figure, then as wide as its heading while there is room, and the player's
    name in what is left, wrapping. Rich's own sharing of a narrow width cut German headings with "…"
    or pushed the last column off the edge."""

    def __init__(self, heads: Sequence[str], rows: Sequence[Sequence[str]], winner: int | None) -> None:
        self.heads, self.rows, self.winner = heads, rows, winner

    def widths(self, width: int) -> list[int]:
        """The width of each figure's column."""
        figures = range(1, len(self.heads))
        least = [max(*(len(w) for w in self.heads[c].split()), *(len(row[c]) for row in self.rows)) for c in figures]
        best = [max(low, len(self.heads[c])) for low, c in zip(least, figures, strict=True)]
        name = max(len(self.heads[0]), *(len(row[0]) for row in self.rows))
        spare = max(0, width - (len(self.heads) - 1) - name - sum(least))  # a space between columns
        widths = list(least)
        # The headings that need the least room to fit on one line get it first.
        for i in sorted(range(len(widths)), key=lambda i: best[i] - least[i]):
            more = min(spare, best[i] - widths[i])
            widths[i] += more
            spare -= more
        return widths

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = Table(expand=True, box=None, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False)
        table.add_column(self.heads[0], justify="left")
        for head, width in zip(self.heads[1:], self.widths(options.max_width), strict=True):
            table.add_column(head, justify="right", width=width)
        for number, row in enumerate(self.rows):
            table.add_row(*row, style=Style(bold=True) if number == self.winner else None)
        yield table
