"""The screens over the table: the help (``?``) and the end-of-game summary, as the page's summary shows it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ratscrew.rooms.wire import GameSummary
from ratscrew.tui.words import Words

HELP_KEYS = ("turn", "slap", "pause", "lobby", "again", "help", "quit")


class HelpScreen(ModalScreen[None]):
    """The keys, and what the table shows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, words: Words) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        t = self.words.t
        body = Text()
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

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary-box"):
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
        keys = [t("tui.keys.rematch" if self.online else "tui.keys.again")] if self.yours else []
        keys += [t("tui.keys.back"), t("tui.keys.quit")]
        parts.append(Text(" · ".join(keys), Style(bold=True)))
        return Group(*parts)

    def players(self) -> Table:
        t = self.words.t
        table = Table(expand=True, box=None, padding=(0, 1), show_edge=False)
        for key in ("player", "cards", "by_slap", "by_challenge", "wrong", "reaction"):
            table.add_column(t(f"game.summary.{key}"), justify="left" if key == "player" else "right")
        winner = self.summary.winner
        for player in self.summary.players:
            name = player.name
            if player.bot:
                name += f" ({t(f'level.{player.bot}')})"
            median = player.median_reaction_ms
            shown = "–" if median is None else t("game.summary.ms", n=round(median))
            if player.reaction_ms:
                shown += f" ({len(player.reaction_ms)})"
            table.add_row(
                name,
                str(player.cards),
                str(player.piles_by_slap),
                str(player.piles_by_challenge),
                str(player.wrong_slaps),
                shown,
                style=Style(bold=True) if player.seat == winner else None,
            )
        return table

    def action_close(self) -> None:
        self.dismiss("close")

    def action_again(self) -> None:
        if self.yours:
            self.dismiss("again")

    def action_quit_table(self) -> None:
        self.dismiss("quit")
