"""Every house rule the engine knows, declared once: each field below is a rules key (``slapping.penalty``),
with its allowed values (its type), its default and its meaning (``declare``, see ``rules/option.py``).

The table of options (``rules/options.py``), the rules value, ``ratscrew rules``, the settings forms, the rules
pages, the C kernel's lists (``_ers_rules.h``) and docs/rules.md are all read from these declarations, so none of
them can disagree with the engine. CONTRIBUTING.md lists what else a new rule needs (and which test names it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ratscrew.rules.option import Needs, declare

EmptyPayer = Literal["loses", "next_pays"]
Penalty = Literal["burn", "give-each", "none", "lockout", "lockout-pile", "give-pile"]
PenaltyCards = Literal[1, 2, 3]
PenaltyFrom = Literal["top", "bottom"]
OnceScope = Literal["player", "table"]
Tie = Literal["first", "split"]
OutWhen = Literal["wrong-slap", "missed-slap", "never"]
Leader = Literal["winner", "left", "next"]
MarriageSuits = Literal["any", "same-colour", "same-suit"]
RunLength = Literal[0, 3, 4]
TenRule = Literal["off", "numbers", "ace-one"]
TenGap = Literal["off", "court", "any"]
FlushLength = Literal[0, 3, 4]
# A rank for slaps.wildcard: the numbers as integers (like slaps.run), the court cards by their letters.
Wildcard = Literal["off", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A"]
Decks = Literal["auto", 1, 2]
Jokers = Literal[0, 1, 2]

PAYING: tuple[Penalty, ...] = ("burn", "give-each")  # the penalties that take cards from the slapper's stack
LOCKING: tuple[Penalty, ...] = ("lockout", "lockout-pile")  # the penalties that stop the slapper slapping
# Where a second wrong slap on the same card would cost something: cards, a lockout (with scope table, another
# player's slap that would have locked them out), or a new lockout once a pile won in between has ended the first.
# Under none and give-pile it could only spare a player put out by a wrong slap, so both engines leave it unused.
_ONCE_MATTERS: tuple[Penalty, ...] = (*PAYING, *LOCKING)
_JOKERS_IN: tuple[Jokers, ...] = (1, 2)  # deck.jokers values that put jokers in the deck
_TEN_ON: tuple[TenRule, ...] = ("numbers", "ace-one")


def _demand(default: int, card: str) -> int:
    return declare(
        default,
        f"cards {card} demands from the next player (0: played like a number card)",
        minimum=0,
        maximum=5,
        hint=False,
    )


@dataclass(frozen=True, slots=True)
class ChallengeRules:
    J: int = _demand(1, "a Jack")
    Q: int = _demand(2, "a Queen")
    K: int = _demand(3, "a King")
    A: int = _demand(4, "an Ace")
    empty_payer: EmptyPayer = declare(
        "loses",
        "a payer who runs out of cards loses the challenge, or the next player with cards pays the rest",
    )
    ten_stops: bool = declare(False, "a 10 turned while paying ends the challenge and nobody wins the pile")
    joker: int = declare(
        0,
        "cards a joker demands (0: a joker is not a court card)",
        minimum=0,
        maximum=5,
        needs=Needs("deck.jokers", _JOKERS_IN),
        hint=False,
    )


@dataclass(frozen=True, slots=True)
class SlappingRules:
    collect_delay_ms: int = declare(
        1000,
        "how long a pile won by challenge waits before it moves, so a slap can still take it",
        minimum=0,
        maximum=10_000,
        table=False,
    )
    penalty: Penalty = declare(
        "burn",
        "what a wrong slap costs: burn cards under the pile, give cards to each other player, nothing, "
        "a lockout from slapping (for some cards, or until a pile is won), or the whole pile to the next player",
    )
    penalty_cards: PenaltyCards = declare(
        1,
        "cards a wrong slap burns, or gives to each other player",
        needs=Needs("slapping.penalty", PAYING),
    )
    lockout_cards: int = declare(
        5,
        "under a lockout, cards that must be turned before the slapper's slaps count again",
        minimum=1,
        maximum=20,
        needs=Needs("slapping.penalty", ("lockout",)),
    )
    penalty_from: PenaltyFrom = declare(
        "top",
        "burned or given cards come from the top or from the bottom of the slapper's stack",
        needs=Needs("slapping.penalty", PAYING),
    )
    once_per_card: bool = declare(
        False,
        "a player pays at most one penalty per card turned: a second wrong slap on the same card is ignored",
        needs=Needs("slapping.penalty", _ONCE_MATTERS),
    )
    once_per_card_scope: OnceScope = declare(
        "player",
        "with one penalty per card: each player pays once per card, or only the first wrong slap on a card is "
        "punished, whoever makes it",
        needs=Needs("slapping.once_per_card", (True,)),
    )
    tie_window_ms: int = declare(
        0,
        "slaps this close to the first correct one count as simultaneous",
        minimum=0,
        maximum=1000,
        table=False,
    )
    tie: Tie = declare("first", "simultaneous correct slaps: the earliest wins, or they split the pile")

    @property
    def locks_out(self) -> bool:
        """A wrong slap stops the slapper slapping for a while (``lockout``, ``lockout-pile``)."""
        return self.penalty in LOCKING

    @property
    def pays_in_cards(self) -> bool:
        """A wrong slap costs cards from the slapper's stack (``burn``, ``give-each``)."""
        return self.penalty in PAYING


@dataclass(frozen=True, slots=True)
class PlayerRules:
    slap_in: bool = declare(True, "a player with no cards stays in and may win a pile back by slapping")
    out_when: OutWhen = declare(
        "wrong-slap",
        "when an empty player is out: after a wrong slap, after missing a slap, or never",
        needs=Needs("players.slap_in", (True,)),
    )
    leader: Leader = declare(
        "winner",
        "who plays first after a pile is won: the winner, the player on their left, or the player after the one "
        "who turned the last card (play goes on, whoever won)",
    )


@dataclass(frozen=True, slots=True)
class SlapRules:
    """The slap patterns' switches and what changes them; ``patterns.PATTERNS`` says which key turns which on."""

    double: bool = declare(True, "slap two cards of the same rank in a row (7 7)")
    sandwich: bool = declare(True, "slap two cards of the same rank with one card between them (7 K 7)")
    top_bottom: bool = declare(False, "slap when the top card matches the bottom card of the pile")
    marriage: bool = declare(False, "slap a King and a Queen next to each other, either order")
    divorce: bool = declare(False, "slap a King and a Queen with exactly one card between them")
    marriage_suits: MarriageSuits = declare(
        "any",
        "which King and Queen make a marriage or a divorce: any, both red or both black, or the same suit",
        needs=Needs("slaps.marriage", (True,), or_keys=("slaps.divorce",)),
    )
    run: RunLength = declare(0, "slap 3 or 4 cards in sequence, up or down (0: off)")
    run_wrap: bool = declare(
        True, "runs may go round the corner: Q K A 2, K A 2, A 2 3", needs=Needs("slaps.run", (3, 4))
    )
    ten: TenRule = declare("off", "slap two number cards that add up to 10 (optionally an Ace counts 1)")
    ten_gap: TenGap = declare(
        "off",
        "with ten on, also slap a ten made by the top card and the third, with a court card (or any card) between",
        needs=Needs("slaps.ten", _TEN_ON, off="off"),
    )
    joker: bool = declare(True, "slap whenever a joker is the top card", needs=Needs("deck.jokers", _JOKERS_IN))
    # Only the burn penalty puts cards under the pile.
    burned_count: bool = declare(
        False, "burned cards under the pile take part in patterns", needs=Needs("slapping.penalty", ("burn",))
    )
    bigmac: bool = declare(False, "slap two cards of the same rank with two cards between them (7 2 K 7), a Big Mac")
    flush: FlushLength = declare(0, "slap when the top 3 or 4 cards are all of one suit (0: off)")
    wildcard: Wildcard = declare(
        "off",
        "slap whenever a card of this rank is on top (off, or a rank: 10 is the usual choice)",
        aliases=(("T", 10),),
    )
    six_nine: bool = declare(False, "slap a 6 and a 9 next to each other, either order")
    top_bottom_ten: bool = declare(
        False,
        "with ten on, also slap when the top card and the bottom card of the pile add up to 10",
        needs=Needs("slaps.ten", _TEN_ON, off=False),
    )


@dataclass(frozen=True, slots=True)
class EndRules:
    time_limit_s: int = declare(
        0,
        "seconds until the game ends and the most cards win (0: no limit)",
        minimum=0,
        maximum=24 * 3600,
        table=False,
    )
    max_cards: int = declare(
        0,
        "stop after this many cards are turned, with the result 'limit' (0: no limit)",
        minimum=0,
        maximum=100_000_000,
        table=False,
    )


@dataclass(frozen=True, slots=True)
class DeckRules:
    decks: Decks = declare("auto", "decks in play (automatic: one up to 6 players, two above)", hint=False)
    jokers: Jokers = declare(0, "jokers added to each deck", hint=False)


Section = ChallengeRules | SlappingRules | PlayerRules | SlapRules | EndRules | DeckRules

# The sections in the order of docs/rules.md (and of every key list read from them).
SECTION_TYPES: tuple[tuple[str, type[Section]], ...] = (
    ("challenge", ChallengeRules),
    ("slapping", SlappingRules),
    ("players", PlayerRules),
    ("slaps", SlapRules),
    ("end", EndRules),
    ("deck", DeckRules),
)
# The score keeper's form asks about the sections people agree on at a real table in the order they usually
# talk them through: what can be slapped first. (The end section only holds what a computer guards.)
TABLE_SECTIONS: tuple[str, ...] = ("slaps", "challenge", "slapping", "players", "deck")
