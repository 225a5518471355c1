"""Deals the tests play: hands written in card notation, and the published Beggar-my-neighbour deals in the
demand notation of ``ratscrew bmn`` ("-" a number card; J, Q, K, A the court cards), one string a hand."""

from __future__ import annotations

from ratscrew.cards import Card, parse_cards

# Paulhus's record: hand 1 wins after 4,791 cards and 670 tricks.
PAULHUS = ("------------KAQ----J------", "-JQQK---K----JK--QA-A-JA--")
# Mann and Wu's: hand 2 wins after 7,157 cards and 1,007 tricks.
MANN_WU = ("K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--")
# The first known endless deal (Casella et al.): a cycle of 62 tricks after 34 cards.
CASELLA_LOOP = ("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA")


def hands(*stacks: str) -> list[list[Card]]:
    """One hand per string of cards: ``hands("7S KD", "9H")``."""
    return [parse_cards(s) for s in stacks]
