"""``ratscrew replay``: apply a game record and show where it stands."""

from __future__ import annotations

import sys

import click

from ratscrew.cli.common import json_option, print_json
from ratscrew.engine.game import Lockout
from ratscrew.record import Record, play_out, state_json


@click.command()
@click.argument("record_path", metavar="RECORD")
@click.option(
    "--play-out", "play_out_flag", is_flag=True, help="Then keep flipping, with no more slaps, until the game ends."
)
@json_option
def replay(record_path: str, play_out_flag: bool, as_json: bool) -> None:
    """Replay a ratscrew-record/1 file (- for standard input) and print the state after its last action."""
    record = Record.loads(sys.stdin.read(), "standard input") if record_path == "-" else Record.load(record_path)
    game = record.replay()
    if play_out_flag:
        play_out(game)
    state = state_json(game)
    if as_json:
        print_json(state)
        return
    names = list(record.players) if record.players else [f"seat {s}" for s in range(record.seats)]
    if game.outcome is None:
        click.echo(
            f"playing: {_count(game.cards, 'card')} turned, {_count(game.tricks, 'pile')} won; "
            f"{names[game.turn]} is due" + (f" and owes {game.owed}" if game.owed else "")
        )
    else:
        who = f", {names[game.outcome.winner]} wins" if game.outcome.winner is not None else ""
        click.echo(
            f"over: {game.outcome.result.value}{who} ({game.outcome.reason}) after {_count(game.cards, 'card')} "
            f"and {_count(game.tricks, 'pile')}"
        )
    for seat, name in enumerate(names):
        out = " (out)" if game.out[seat] else _locked_text(game.lockout(seat))
        click.echo(f"  {name}{out}: {_count(len(game.stacks[seat]), 'card')}")
    click.echo(
        f"  pile: {' '.join(c.pretty for c in game.pile) or '(empty)'}"
        + (f"; {len(game.burned)} burned underneath" if game.burned else "")
    )


def _locked_text(lockout: Lockout) -> str:
    if lockout is None:
        return ""
    if lockout == "pile":
        return " (locked out until a pile is won)"
    return f" (locked out for {_count(lockout, 'more card')})"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
