"""The lab counts its own figures of a game from the events the table published (the table keeps no tallies)."""

from __future__ import annotations

from collections import Counter

from ratscrew.lab.game import play_one
from ratscrew.rules import Rules
from ratscrew.table import TableEvent


def test_a_games_figures_are_what_its_published_events_say() -> None:
    rules = Rules.build("standard", {"end.max_cards": 3000})
    knockouts = 0
    for seed in range(6):
        heard: list[TableEvent] = []
        stats = play_one(rules, ["medium"] * 4, seed, on_event=heard.append)
        # Read as a program reads the log: by each event's kind and fields in its plain form.
        docs = [published.event.to_dict() for published in heard]
        kinds = Counter(doc["kind"] for doc in docs)
        piles = Counter(doc["how"] for doc in docs if doc["kind"] == "pile_won")
        knocked = sum(1 for doc in docs if doc["kind"] == "player_out" and doc["reason"] == "wrong_slap")
        figures = (stats.piles_by_slap, stats.piles_by_challenge, stats.wrong_slaps, stats.out_by_wrong_slap)
        assert figures == (piles["slap"], piles["challenge"], kinds["wrong_slap"], knocked)
        assert stats.cards == sum(1 for doc in docs if doc["kind"] == "card_turned")
        knockouts += knocked
    assert knockouts  # the seeds do knock someone out with a wrong slap
