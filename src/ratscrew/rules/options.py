"""Every house rule the engine knows: its key, allowed values, default and meaning.

This table is the single source the rules value, the ``ratscrew rules`` command, the settings panel and
the rules pages are built from, so none of them can disagree with the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ratscrew.errors import RulesError

Value = bool | int | str

_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


@dataclass(frozen=True, slots=True)
class Needs:
    """An option that only means something while ``key`` holds one of ``values``.

    ``off`` is the value the option must keep otherwise (a rule set that asks for it anyway is refused, since
    it could never apply); None means any value is accepted and simply not used.
    """

    key: str
    values: tuple[Value, ...]
    off: Value | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """One rules key. ``choices`` lists the allowed values; integer options without choices use a range.

    ``aliases`` are other spellings of a choice (``T`` for the rank 10); ``needs`` says which other key
    this one depends on, for the checks of the rules value and for the settings forms.
    """

    key: str
    default: Value
    summary: str
    choices: tuple[Value, ...] = ()
    minimum: int = 0
    maximum: int = 0
    aliases: tuple[tuple[str, Value], ...] = ()
    needs: Needs | None = None

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.key.split(".", 1)[1]

    @property
    def kind(self) -> str:
        """``bool``, ``int`` or ``choice`` (a fixed set, possibly of mixed strings and integers)."""
        if isinstance(self.default, bool):
            return "bool"
        if self.choices:
            return "choice"
        return "int"

    def allowed_text(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return ", ".join(_show(c) for c in self.choices)
        return f"an integer from {self.minimum} to {self.maximum}"

    def parse(self, raw: object) -> Value:
        """Check a value from a file (already typed) or from ``--set`` (text); return it normalised."""
        value = self._coerce(raw)
        if value is None:
            raise RulesError(f"{self.key} cannot be {_show(raw)}: allowed values are {self.allowed_text()}")
        return value

    def _coerce(self, raw: object) -> Value | None:
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                return raw.strip().lower() in _TRUE
            return None
        if self.kind == "int":
            number = _as_int(raw)
            if number is not None and self.minimum <= number <= self.maximum:
                return number
            return None
        text = raw.strip().lower() if isinstance(raw, str) else None
        for alias, value in self.aliases:
            if text == alias.lower():
                return value
        for choice in self.choices:
            if isinstance(choice, int) and _as_int(raw) == choice:
                return choice
            if isinstance(choice, str) and text == choice.lower():
                return choice
        return None


def _as_int(raw: object) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        digits = raw.strip().removeprefix("-")
        # ASCII digits only (str.isdigit also takes "²" and "①", which int() refuses), and few enough of them
        # that int() is quick: every integer option is far below 10**18.
        if 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit():
            return int(raw.strip())
    return None


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return (value if len(value) <= 40 else value[:40] + "...") if value else '""'
    if isinstance(value, int) and value.bit_length() > 64:
        return "a number too large for any rule"
    return repr(value)[:40] if not isinstance(value, int) else str(value)


_PENALTIES: tuple[Value, ...] = ("burn", "give-each", "none", "lockout", "lockout-pile", "give-pile")
PAYING: tuple[Value, ...] = ("burn", "give-each")  # the penalties that take cards from the slapper's stack
LOCKING: tuple[Value, ...] = ("lockout", "lockout-pile")  # the penalties that stop the slapper slapping
# Where a second wrong slap on the same card would cost something: cards, or a new lockout once a pile won in
# between has ended the first one. Under none, lockout and give-pile it could only be set aside for another
# reason (a lockout still running, an empty pile to give), so once_per_card changes nothing there.
_ONCE_MATTERS: tuple[Value, ...] = (*PAYING, "lockout-pile")
_JOKERS_IN: tuple[Value, ...] = (1, 2)  # deck.jokers values that put jokers in the deck
_TEN_ON: tuple[Value, ...] = ("numbers", "ace-one")
# A rank for slaps.wildcard: the numbers as integers (like slaps.run), the court cards by their letters.
_WILDCARDS: tuple[Value, ...] = ("off", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A")


def _demand(key: str, default: int, card: str) -> Option:
    return Option(
        key,
        default,
        f"cards {card} demands from the next player (0: played like a number card)",
        minimum=0,
        maximum=5,
    )


OPTIONS: tuple[Option, ...] = (
    _demand("challenge.J", 1, "a Jack"),
    _demand("challenge.Q", 2, "a Queen"),
    _demand("challenge.K", 3, "a King"),
    _demand("challenge.A", 4, "an Ace"),
    Option(
        "challenge.empty_payer",
        "loses",
        "a payer who runs out of cards loses the challenge, or the next player with cards pays the rest",
        choices=("loses", "next_pays"),
    ),
    Option("challenge.ten_stops", False, "a 10 turned while paying ends the challenge and nobody wins the pile"),
    Option(
        "challenge.joker",
        0,
        "cards a joker demands (0: a joker is not a court card)",
        minimum=0,
        maximum=5,
        needs=Needs("deck.jokers", _JOKERS_IN),
    ),
    Option(
        "slapping.collect_delay_ms",
        1000,
        "how long a pile won by challenge waits before it moves, so a slap can still take it",
        minimum=0,
        maximum=10_000,
    ),
    Option(
        "slapping.penalty",
        "burn",
        "what a wrong slap costs: burn cards under the pile, give cards to each other player, nothing, "
        "a lockout from slapping (for some cards, or until a pile is won), or the whole pile to the next player",
        choices=_PENALTIES,
    ),
    Option(
        "slapping.penalty_cards",
        1,
        "cards a wrong slap burns, or gives to each other player",
        choices=(1, 2, 3),
        needs=Needs("slapping.penalty", PAYING),
    ),
    Option(
        "slapping.lockout_cards",
        5,
        "under a lockout, cards that must be turned before the slapper's slaps count again",
        minimum=1,
        maximum=20,
        needs=Needs("slapping.penalty", ("lockout",)),
    ),
    Option(
        "slapping.penalty_from",
        "top",
        "burned or given cards come from the top or from the bottom of the slapper's stack",
        choices=("top", "bottom"),
        needs=Needs("slapping.penalty", PAYING),
    ),
    Option(
        "slapping.once_per_card",
        False,
        "a player pays at most one penalty per card turned: a second wrong slap on the same card is ignored",
        needs=Needs("slapping.penalty", _ONCE_MATTERS),
    ),
    Option(
        "slapping.tie_window_ms",
        0,
        "slaps this close to the first correct one count as simultaneous",
        minimum=0,
        maximum=1000,
    ),
    Option(
        "slapping.tie",
        "first",
        "simultaneous correct slaps: the earliest wins, or they split the pile",
        choices=("first", "split"),
    ),
    Option("players.slap_in", True, "a player with no cards stays in and may win a pile back by slapping"),
    Option(
        "players.out_when",
        "wrong-slap",
        "when an empty player is out: after a wrong slap, after missing a slap, or never",
        choices=("wrong-slap", "missed-slap", "never"),
        needs=Needs("players.slap_in", (True,)),
    ),
    Option(
        "players.leader",
        "winner",
        "who plays first after a pile is won: the winner or the player on their left",
        choices=("winner", "left"),
    ),
    Option("slaps.double", True, "slap two cards of the same rank in a row (7 7)"),
    Option("slaps.sandwich", True, "slap two cards of the same rank with one card between them (7 K 7)"),
    Option("slaps.top_bottom", False, "slap when the top card matches the bottom card of the pile"),
    Option("slaps.marriage", False, "slap a King and a Queen next to each other, either order"),
    Option("slaps.divorce", False, "slap a King and a Queen with exactly one card between them"),
    Option("slaps.run", 0, "slap 3 or 4 cards in sequence, up or down (0: off)", choices=(0, 3, 4)),
    Option(
        "slaps.run_wrap",
        True,
        "runs may go round the corner: Q K A 2, K A 2, A 2 3",
        needs=Needs("slaps.run", (3, 4)),
    ),
    Option(
        "slaps.ten",
        "off",
        "slap two number cards that add up to 10 (ace-one: an Ace counts 1)",
        choices=("off", *_TEN_ON),
    ),
    Option(
        "slaps.ten_gap",
        "off",
        "with ten on, also slap a ten made by the top card and the third, with a court card (or any card) between",
        choices=("off", "court", "any"),
        needs=Needs("slaps.ten", _TEN_ON, off="off"),
    ),
    Option("slaps.joker", True, "slap whenever a joker is the top card", needs=Needs("deck.jokers", _JOKERS_IN)),
    # Only the burn penalty puts cards under the pile.
    Option(
        "slaps.burned_count",
        False,
        "burned cards under the pile take part in patterns",
        needs=Needs("slapping.penalty", ("burn",)),
    ),
    Option(
        "slaps.bigmac",
        False,
        "slap two cards of the same rank with two cards between them (7 2 K 7), a Big Mac",
    ),
    Option("slaps.flush", 0, "slap when the top 3 or 4 cards are all of one suit (0: off)", choices=(0, 3, 4)),
    Option(
        "slaps.wildcard",
        "off",
        "slap whenever a card of this rank is on top (off, or a rank: 10 is the usual choice)",
        choices=_WILDCARDS,
        aliases=(("T", 10),),
    ),
    Option("slaps.six_nine", False, "slap a 6 and a 9 next to each other, either order"),
    Option(
        "slaps.top_bottom_ten",
        False,
        "with ten on, also slap when the top card and the bottom card of the pile add up to 10",
        needs=Needs("slaps.ten", _TEN_ON, off=False),
    ),
    Option(
        "end.time_limit_s",
        0,
        "seconds until the game ends and the most cards win (0: no limit)",
        minimum=0,
        maximum=24 * 3600,
    ),
    Option(
        "end.max_cards",
        0,
        "stop after this many cards are turned, with the result 'limit' (0: no limit)",
        minimum=0,
        maximum=100_000_000,
    ),
    Option("deck.decks", "auto", "decks in play (auto: one up to 6 players, two above)", choices=("auto", 1, 2)),
    Option("deck.jokers", 0, "jokers added to each deck", choices=(0, 1, 2)),
)

OPTIONS_BY_KEY: dict[str, Option] = {o.key: o for o in OPTIONS}
SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(o.section for o in OPTIONS))


def needs_met(opt: Option, values: Mapping[str, Value]) -> bool:
    """Whether ``opt`` applies under ``values`` (every key to its value): what it depends on is set so."""
    return opt.needs is None or values[opt.needs.key] in opt.needs.values


def check_needs(values: Mapping[str, Value]) -> None:
    """Refuse a rule set that turns on an option which could never apply (``slaps.ten_gap`` without a ten)."""
    for opt in OPTIONS:
        needs = opt.needs
        if needs is None or needs.off is None or needs_met(opt, values) or values[opt.key] == needs.off:
            continue
        wanted = " or ".join(_show(v) for v in needs.values)
        raise RulesError(
            f"{opt.key} needs {needs.key} on ({wanted}): set {needs.key} to {wanted}, "
            f"or {opt.key} to {_show(needs.off)}"
        )


def option(key: str) -> Option:
    """The option for a key such as ``slaps.run``; an unknown key is an error that lists the known ones."""
    found = OPTIONS_BY_KEY.get(key)
    if found is None:
        raise RulesError(f"unknown rules key {key!r}: known keys are {', '.join(OPTIONS_BY_KEY)}")
    return found
