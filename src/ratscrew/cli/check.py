"""``ratscrew check``: the referee. Is this pile slappable, and why?"""

from __future__ import annotations

import click

from ratscrew.cards import parse_cards
from ratscrew.cli.common import json_option, print_json, rules_from_options, rules_options
from ratscrew.errors import NotationError
from ratscrew.patterns import find_matches


@click.command()
@rules_options
@click.option(
    "--burned",
    "burned_text",
    multiple=True,
    metavar="CARD",
    help="A burned card under the pile, first burned first (they count only with slaps.burned_count).",
)
@click.option(
    "--players",
    type=click.IntRange(2, 12),
    default=None,
    help="Players at the table (decides the deck under deck.decks=auto; default: one deck).",
)
@json_option
@click.argument("cards", nargs=-1)
def check(
    rules_name: str | None,
    sets: tuple[str, ...],
    burned_text: tuple[str, ...],
    players: int | None,
    as_json: bool,
    cards: tuple[str, ...],
) -> None:
    """Is the pile CARDS slappable? Cards bottom first, top last, e.g. `ratscrew check 9 7 9`."""
    rules = rules_from_options(rules_name, sets)
    pile = parse_cards(" ".join(cards), bare_rank=True)
    if not pile:
        raise NotationError("no cards given: expected the pile bottom first, top last, e.g. ratscrew check 9 7 9")
    burned = parse_cards(" ".join(burned_text), bare_rank=True)
    rules.deck_for(players or 2).check_counts(pile + burned, "the cards")
    looked_at = burned[::-1] + pile if rules.slaps.burned_count else pile
    matches = find_matches(looked_at, rules, face_up=len(pile))
    if as_json:
        print_json(
            {"slappable": bool(matches), "patterns": [m.pattern for m in matches], "why": [m.why for m in matches]}
        )
    elif matches:
        click.echo("slappable: " + "; ".join(m.why for m in matches))
    else:
        click.echo(
            f"not slappable under these rules ({rules.preset}"
            f"{' with changes' if rules.changes_from_preset() else ''}): a slap here is a wrong slap"
        )
