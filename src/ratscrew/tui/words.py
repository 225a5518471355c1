"""The terminal table's words: events, verdicts, the status line and the seats, in English, French or German.

The same sentences as the browser's table, from the same catalog keys (``event.*``, ``verdict.*``,
``game.*``): ``describe`` is the page's ``describe`` (format.js), ``verdict`` its ``verdictLine`` (the
shown form, verdicts.js), ``status`` its status line (status.js), ``seat_state`` what a seat says
(seats.js). The table's state, a wrong slap's view of the pile and a game's summary are the room's typed
values (``rooms.wire``); a game event is the engine's document of it, and one that is not what it should be
is described by its kind rather than stopping the table.

>>> words = Words("de")
>>> words.describe({"kind": "challenge_opened", "seat": 1, "card": "QH", "payer": 0, "owed": 2,
...                 "passed_on": False}, ["Ana", "Ben"])
'Ben deckt D♥ auf: Ana muss 2 legen'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ratscrew.cards import Card
from ratscrew.engine.outcome import Ending, Result
from ratscrew.errors import MalformedInput
from ratscrew.i18n import plural, text
from ratscrew.learn.summary import changes, deck_doc
from ratscrew.learn.words import Texts
from ratscrew.patterns import Match
from ratscrew.rooms.wire import GameSummary, SummaryPlayer, TableState
from ratscrew.rules.io import rules_from_mapping
from ratscrew.table.seen import SlapSeen

Doc = Mapping[str, object]


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _seat(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _doc(value: object) -> Doc:
    return value if isinstance(value, Mapping) else {}


def matches_in(value: object) -> tuple[Match, ...]:
    """The patterns an event names (``slap_correct``'s ``matches``), as the engine's matches; one whose cards
    do not read is left out."""
    found = []
    for item in _list(value):
        doc = _doc(item)
        try:
            cards = tuple(Card.parse(_str(code)) for code in _list(doc.get("cards")))
        except (MalformedInput, ValueError):
            continue
        found.append(Match(_str(doc.get("pattern")), cards, _str(doc.get("why"))))
    return tuple(found)


def you_key(key: str, you: int | None, seat: object, payer: object = None) -> str:
    """The key of a sentence about ``seat`` as the page picks it (format.js ``youKey``): with ``.you`` when the
    seat is the one this terminal plays (it plays one), ``.you_pay`` when the player is the one who pays.

    >>> you_key("event.card_turned", 0, 0), you_key("event.challenge_opened", 1, 0, 1), you_key("k", None, 0)
    ('event.card_turned.you', 'event.challenge_opened.you_pay', 'k')
    """
    if you is None:
        return key
    if seat == you:
        return f"{key}.you"
    if payer is not None and payer == you:
        return f"{key}.you_pay"
    return key


def clock_text(ms: int) -> str:
    """A length of time as a clock shows it (``0:37``, ``12:05``), as the pages write it.

    >>> clock_text(37_900), clock_text(725_000)
    ('0:37', '12:05')
    """
    seconds = max(0, ms // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


@dataclass
class Memory:
    """What a verdict needs of the events before it: the patterns of each seat's last correct slap (the pile
    is taken after them), and the challenge each seat opened last (who paid what when it is won)."""

    matches: dict[int, tuple[Match, ...]] = field(default_factory=dict)
    challenges: dict[int, Doc] = field(default_factory=dict)

    def remember(self, event: Doc) -> None:
        kind, seat = event.get("kind"), _seat(event.get("seat"))
        if kind == "slap_correct" and seat is not None:
            self.matches[seat] = matches_in(event.get("matches"))
        elif kind == "challenge_opened" and seat is not None:
            self.challenges[seat] = event
        elif kind == "pile_won":
            self.matches.clear()
            self.challenges.clear()


@dataclass(frozen=True, slots=True)
class Words:
    """The catalog of one language, with the table's sentences built from it."""

    lang: str

    def t(self, key: str, /, **values: object) -> str:
        return text(self.lang, key, **values)

    def tn(self, key: str, n: int, /, **values: object) -> str:
        """``key.one`` or ``key.other`` by the language's plural rule (``.other`` when a key has no ``.one``)."""
        exact = f"{key}.{plural(self.lang, n)}"
        shown = self.t(exact, n=n, **values)
        return self.t(f"{key}.other", n=n, **values) if shown == exact else shown

    def house_rules(self, rules: Doc) -> tuple[str, ...]:
        """Each rule a room's rule set changes from its preset, as the pages' chips say it (``Run: 4 cards``):
        the engine's own list of changes and the rules' own labels (``learn.summary.changes``)."""
        return _house_rules(self.lang, json.dumps(rules, sort_keys=True))

    def decks(self, rules: Doc, players: int) -> str | None:
        """What a game of ``players`` is dealt from, when it is more than one deck (``7 players, two decks.``):
        the engine's ``Rules.deck_for`` decides, as it does for the deal (``learn.summary.deck_doc``)."""
        return _decks(self.lang, json.dumps(rules, sort_keys=True), players)

    # ------------------------------------------------------------------ cards and names

    def card(self, code: object) -> str:
        """A card (or its code, as an event names it) as its corner shows it in this language (``K♠``, ``R♠``
        in French, ``10♦``, ``Joker``)."""
        try:
            card = code if isinstance(code, Card) else Card.parse(_str(code))
        except (MalformedInput, ValueError):
            return "?"
        if card.is_joker:
            return self.t("card.joker")
        return self.t(f"card.letter.{card.rank.symbol}") + (card.suit.glyph if card.suit else "")

    def cards(self, codes: Iterable[object]) -> str:
        return " ".join(self.card(c) for c in codes)

    def seat_name(self, names: Sequence[str], seat: object) -> str:
        index = _seat(seat)
        if index is not None and 0 <= index < len(names):
            return names[index]
        return self.t("game.seat", n=(index or 0) + 1)

    def patterns(self, matches: Iterable[Match]) -> str:
        """The patterns a slap won with, each with its cards (``sandwich (9♥ 7♣ 9♠)``)."""
        parts = []
        for match in matches:
            pattern = self.t(f"pattern.{match.pattern}")
            parts.append(self.t("game.pattern_with_cards", pattern=pattern, cards=self.cards(match.cards)))
        return "; ".join(parts)

    # ------------------------------------------------------------------ events

    def describe(self, event: Doc, names: Sequence[str], you: int | None = None, rules: Doc | None = None) -> str:
        """One sentence for an event, as the page's feed writes it: ``you``, the seat this terminal plays when it
        plays one, is spoken to in the second person; ``rules`` say what a wrong slap cost when no card moved."""
        kind, seat = _str(event.get("kind")), event.get("seat")

        def name(key: str = "seat") -> str:
            return self.seat_name(names, event.get(key))

        card = self.card(event.get("card"))
        if kind == "card_turned":
            return self.t(you_key("event.card_turned", you, seat), name=name(), card=card)
        if kind == "challenge_opened":
            key = you_key(
                "event.challenge_passed" if event.get("passed_on") else "event.challenge_opened",
                you,
                seat,
                event.get("payer"),
            )
            return self.t(key, name=name(), payer=name("payer"), owed=_int(event.get("owed")), card=card)
        if kind == "debt_passed":
            key = you_key("event.debt_passed", you, event.get("from_seat"), event.get("to_seat"))
            owed = _int(event.get("owed"))
            return self.t(key, **{"from": name("from_seat"), "to": name("to_seat"), "owed": owed})
        if kind == "challenge_won":
            return self.t(you_key(f"event.challenge_won.{_str(event.get('how'))}", you, seat), name=name())
        if kind == "challenge_stopped":
            reason = _str(event.get("reason"))
            key = (
                "event.challenge_stopped.ten"
                if reason == "ten"
                else you_key(f"event.challenge_stopped.{reason}", you, seat)
            )
            return self.t(key, name=name())
        if kind == "slap_correct":
            why = self.patterns(matches_in(event.get("matches")))
            return self.t(you_key("event.slap_correct", you, seat), name=name(), why=why)
        if kind == "wrong_slap":
            return self._wrong_slap(event, name(), you, rules)
        if kind == "slap_dismissed":
            return self.t(you_key(f"event.slap_dismissed.{_str(event.get('reason'))}", you, seat), name=name())
        if kind == "pile_won":
            return self._pile_won(event, names, you)
        if kind == "player_out":
            return self.t(you_key(f"event.player_out.{_str(event.get('reason'))}", you, seat), name=name())
        if kind == "game_over":
            return self.game_over(_doc(event.get("outcome")), names, you)
        return kind or "?"

    def _wrong_slap(self, event: Doc, name: str, you: int | None, rules: Doc | None) -> str:
        """A wrong slap and what it cost: the cards burned or given, else what the rules did instead."""

        def key(base: str) -> str:
            return you_key(base, you, event.get("seat"))

        given, burned = _list(event.get("given")), _list(event.get("burned"))
        if given:
            return self.t(key("event.wrong_slap_given"), name=name, n=len(given))
        if burned:
            return self.t(key("event.wrong_slap_burned"), name=name, n=len(burned))
        slapping = _doc(_doc(rules).get("slapping"))
        penalty = slapping.get("penalty")
        if penalty == "lockout":
            return self.tn(key("event.wrong_slap_lockout"), _int(slapping.get("lockout_cards")), name=name)
        if penalty == "lockout-pile":
            return self.t(key("event.wrong_slap_lockout_pile"), name=name)
        if penalty == "none":
            return self.t(key("event.wrong_slap_none"), name=name)
        return self.t(key("event.wrong_slap_free"), name=name)

    def _pile_won(self, event: Doc, names: Sequence[str], you: int | None) -> str:
        shares = [_list(pair) for pair in _list(event.get("shares"))]
        how, cards, seat = _str(event.get("how")), len(_list(event.get("cards"))), event.get("seat")
        name = self.seat_name(names, seat)
        if len(shares) > 1:
            parts = [
                self.t("event.share", name=self.seat_name(names, p[0]), n=_int(p[1])) for p in shares if len(p) == 2
            ]
            return self.t("event.pile_split", parts=", ".join(parts))
        if how in ("slap", "challenge"):
            return self.tn(you_key(f"access.event.pile_won.{how}", you, seat), cards, name=name)
        return self.t(you_key(f"event.pile_won.{how}", you, seat), name=name, n=cards)

    def game_over(self, outcome: Doc, names: Sequence[str], you: int | None = None) -> str:
        result = _str(outcome.get("result"))
        if result == "win":
            winner = outcome.get("winner")
            return self.t(you_key("event.game_over.win", you, winner), name=self.seat_name(names, winner))
        return self.t(f"event.game_over.{result}")

    def verdict(
        self,
        event: Doc,
        seen: SlapSeen | None,
        memory: Memory,
        names: Sequence[str],
        you: int | None = None,
        rules: Doc | None = None,
    ) -> str | None:
        """A verdict in one line that says why: a pile won with the pattern that won it, a wrong slap with what
        it landed on (and, when it came too late, what its player saw and the card that covered it), a won
        challenge with who paid what. None for any other event: its usual sentence says enough."""
        kind, seat = event.get("kind"), _seat(event.get("seat"))
        if kind == "pile_won" and event.get("how") == "slap" and len(_list(event.get("shares"))) <= 1:
            matches = memory.matches.get(seat) if seat is not None else None
            if matches is None:
                return None
            cards = len(_list(event.get("cards")))
            name = self.seat_name(names, seat)
            return self.tn(you_key("verdict.pile_won_slap", you, seat), cards, name=name, why=self.patterns(matches))
        if kind == "wrong_slap" and seen is not None:
            penalty = self.describe(event, names, you, rules)
            missed, covered = seen.missed, seen.covered_by
            if covered is not None and missed:
                return self.t("verdict.too_late", card=self.card(covered), why=self.patterns(missed), penalty=penalty)
            if not seen.pile:
                return self.t("verdict.empty_pile", penalty=penalty)
            return self.t("verdict.no_pattern", penalty=penalty, cards=self.cards(seen.pile))
        if kind == "challenge_won" and event.get("how") == "paid" and seat is not None:
            opened = memory.challenges.get(seat)
            if opened is None:
                return None
            return self.tn(
                you_key("verdict.challenge_paid", you, seat, opened.get("payer")),
                _int(opened.get("owed")),
                name=self.seat_name(names, seat),
                payer=self.seat_name(names, opened.get("payer")),
                card=self.card(opened.get("card")),
            )
        return None

    # ------------------------------------------------------------------ the table's state

    def status(self, state: TableState, names: Sequence[str], yours: Sequence[int]) -> str:
        """The status line: whose turn, who owes what, who is about to collect."""
        if state.over:
            return self.t("game.over")
        if state.paused:
            return self.t("access.status_paused")
        turn = state.turn
        due = self.seat_name(names, turn)

        def to_whom(key: str, seat: int) -> str:
            """A line about one of this terminal's seats speaks to it (by name, when it plays two)."""
            if seat not in yours:
                return key
            return f"{key}.you" if len(yours) == 1 else f"{key}.named"

        collecting = state.collect_pending
        if collecting is not None:
            return self.t(to_whom("game.status.waiting", collecting), name=self.seat_name(names, collecting))
        owed = state.owed
        if owed > 0:
            challenger = state.challenger
            by = self.seat_name(names, turn if challenger is None else challenger)
            return self.tn(to_whom("game.status.owes_cards", turn), owed, name=due, by=by)
        return self.t("game.status.you" if turn in yours else "game.status.turn", name=due)

    def seat_state(self, state: TableState, index: int, yours: Sequence[int]) -> str:
        """What the game asks of a seat now, in a few words, with its lockout ("" for nothing)."""
        out = index < len(state.out) and state.out[index]
        count = state.stack_sizes[index] if index < len(state.stack_sizes) else 0
        due = not state.over and state.turn == index and state.collect_pending is None
        owed = state.owed
        words = ""
        if out:
            words = self.t("game.out")
        elif due and owed > 0:
            words = self.t("game.owes", n=owed)
        elif due:
            words = self.t("game.your_turn" if index in yours else "game.to_play")
        elif count == 0:
            words = self.t("game.empty")
        locked = state.locked
        lock = None if out or index >= len(locked) else locked[index]
        lock_words = ""
        if isinstance(lock, int):
            lock_words = self.tn("access.locked_cards", lock)
        elif lock == "pile":
            lock_words = self.t("game.locked_pile")
        return " · ".join(w for w in (words, lock_words) if w)

    def badge(self, kind: str, level: str | None, index: int, yours: Sequence[int]) -> str:
        """Who plays a seat, in a word: a computer's level, you, player N on a shared keyboard, another person."""
        if kind == "bot":
            return self.t(f"level.{level}")
        if kind == "empty":
            return self.t("room.seat.empty")
        if index in yours:
            return self.t("game.player_n", n=list(yours).index(index) + 1) if len(yours) > 1 else self.t("game.you")
        return self.t("game.person")

    def connection(self, kind: str, connected: bool, standin: bool, latency_ms: int | None) -> str:
        """A person's link in words: their delay, or that they are away (and who holds the seat meanwhile)."""
        if kind != "human":
            return ""
        if not connected:
            return self.t("room.net.standin" if standin else "room.net.away")
        if latency_ms is None:
            return self.t("room.net.connected")
        return self.t("room.net.latency", n=latency_ms)

    def rejected(self, code: str, reason: str, seat: int | None, names: Sequence[str], lobby: bool) -> str:
        """Why an input was not taken: the table's reasons name a seat, the room's are its lobby's words."""
        if lobby:
            key = f"room.rejected.{code}"
            shown = self.t(key, n="" if seat is None else seat + 1)
        else:
            key = f"game.rejected.{code}"
            shown = self.t(key, name="" if seat is None else self.seat_name(names, seat))
        return reason or code if shown == key else shown

    # ------------------------------------------------------------------ the end of a game

    def headline(self, summary: GameSummary, yours: Sequence[int]) -> str:
        result, players = summary.result, summary.players
        if result is Result.LIMIT and summary.how is Ending.CARD_LIMIT and players:
            return self.ahead(players)
        winner = summary.winner
        if result is not Result.WIN or winner is None:
            return self.t(f"game.summary.{result}")
        name = self.seat_name([p.name for p in players], winner)
        return self.t("game.summary.you_win" if winner in yours else "game.summary.wins", name=name)

    def ahead(self, players: Sequence[SummaryPlayer]) -> str:
        """A game stopped at its card limit: who held the most cards, or who were level."""
        most = max(p.cards for p in players)
        ahead = [p.name for p in players if p.cards == most]
        if len(ahead) == 1:
            return self.t("game.summary.limit_ahead", name=ahead[0], n=most)
        return self.t("game.summary.limit_tied", names=", ".join(ahead), n=most)

    def length(self, summary: GameSummary) -> str:
        minutes, seconds = clock_text(summary.ms).split(":")
        cards = self.tn("access.summary.cards", summary.cards)
        piles = self.tn("access.summary.piles", summary.tricks)
        return self.t("access.summary.length", cards=cards, piles=piles, m=minutes, s=seconds)


@functools.lru_cache(maxsize=16)
def _house_rules(lang: str, rules: str) -> tuple[str, ...]:
    """``Words.house_rules`` for a rule set as JSON (the top line asks at every refresh); none for rules that do
    not read (they came over the network)."""
    try:
        parsed = rules_from_mapping(json.loads(rules))
    except MalformedInput:
        return ()
    return tuple(str(change["chip"]) for change in changes(Texts(lang), parsed))


@functools.lru_cache(maxsize=16)
def _decks(lang: str, rules: str, players: int) -> str | None:
    try:
        parsed = rules_from_mapping(json.loads(rules))
    except MalformedInput:
        return None
    shoe = deck_doc(Texts(lang), parsed, players)
    return str(shoe["line"]) if shoe["decks"] != 1 else None
