"""Finished games as the store keeps them: a whole record, and a summary, for the history and lookups tests."""

from __future__ import annotations

from typing import Any

from ratscrew.engine.actions import Flip, Slap
from ratscrew.engine.game import Game
from ratscrew.record import Record, play_out
from ratscrew.rooms.wire import GameSummary
from ratscrew.rules import Rules


def played_record(seed: int = 5, max_cards: int = 60) -> dict[str, Any]:
    """A whole game: flips to the end of ``end.max_cards``, with one slap by seat 1 on the way."""
    rules = Rules.build("standard").with_changes({"end.max_cards": max_cards})
    game = Game.from_seed(rules, 2, seed)
    for _ in range(10):
        game.apply(Flip())
    game.apply(Slap(1, game.now, game.cards))
    play_out(game)
    record = Record(rules, 2, seed=seed, players=("Ann", "Bob"), actions=tuple(game.actions))
    return record.to_json()


def summary_for(game_id: str, reactions: list[int]) -> GameSummary:
    """A finished game's summary, as a room keeps it with the record."""
    return GameSummary.from_json(
        {
            "game": game_id,
            "result": "win",
            "winner": 0,
            "reason": "last player with cards",
            "how": None,
            "cards": 312,
            "tricks": 41,
            "ms": 185_000,
            "players": [
                {
                    "seat": 0,
                    "name": "<b>Ann</b>",
                    "bot": None,
                    "cards": 52,
                    "piles_by_slap": 3,
                    "piles_by_challenge": 9,
                    "wrong_slaps": 1,
                    "reaction_ms": reactions,
                    "median_reaction_ms": 410,
                },
                {
                    "seat": 1,
                    "name": "Computer 2",
                    "bot": "expert",
                    "cards": 0,
                    "piles_by_slap": 5,
                    "piles_by_challenge": 8,
                    "wrong_slaps": 0,
                    "reaction_ms": [],
                    "median_reaction_ms": None,
                },
            ],
            "out_order": [1],
            "races": [],
        }
    )
