"""Game records (``ratscrew-record/1``): a whole game as the deal plus its actions, replayable exactly.

>>> doc = {"format": "ratscrew-record/1", "rules": "standard", "players": ["Ann", "Bob"],
...        "hands": [["7S", "KD"], ["7H", "2C"]], "actions": ["flip", "flip", {"slap": 1}]}
>>> record = Record.from_json(doc)
>>> game = record.replay()
>>> state_json(game)["hands"]
[['KD'], ['2C', '7S', '7H']]
>>> Record.from_json(record.to_json()).to_json() == record.to_json()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypedDict

from ratscrew.cards import Card
from ratscrew.engine.actions import Action, Flip, Slap, Wait
from ratscrew.engine.game import Game, seeded_deal
from ratscrew.errors import IllegalAction, NotationError, RatscrewError, RecordError, RulesError
from ratscrew.rules.io import rules_from_mapping, rules_to_mapping
from ratscrew.rules.model import MAX_PLAYERS, MIN_PLAYERS, Rules

FORMAT = "ratscrew-record/1"


@dataclass(frozen=True)
class Record:
    """The deal (explicit ``hands`` or a ``seed``), the rules, who sat where and every action in order."""

    rules: Rules
    seats: int
    hands: tuple[tuple[Card, ...], ...] | None = None
    seed: int | None = None
    players: tuple[str, ...] | None = None
    first: int = 0
    actions: tuple[Action, ...] = ()
    extra: Mapping[str, object] = field(default_factory=dict)

    def dealt_hands(self) -> list[list[Card]]:
        if self.hands is not None:
            return [list(h) for h in self.hands]
        assert self.seed is not None
        return seeded_deal(self.rules, self.seats, self.seed)

    def new_game(self) -> Game:
        """The game as dealt, before any action."""
        return Game(self.rules, self.dealt_hands(), self.first)

    def replay(self, game: Game | None = None) -> Game:
        """Apply every action to a new game; an action the rules do not allow is named by its index."""
        game = game or self.new_game()
        for index, action in enumerate(self.actions):
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(f"action {index} ({describe_action(action)}): {exc}") from None
        return game

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {"format": FORMAT}
        changes = rules_to_mapping(self.rules)
        doc["rules"] = self.rules.preset if len(changes) == 1 else changes
        if self.players is not None:
            doc["players"] = list(self.players)
        else:
            doc["seats"] = self.seats
        if self.hands is not None:
            doc["hands"] = [[str(c) for c in h] for h in self.hands]
        else:
            doc["seed"] = self.seed
        doc["first"] = self.first
        doc["actions"] = [action_to_json(a) for a in self.actions]
        doc.update(self.extra)
        return doc

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @staticmethod
    def from_json(doc: object) -> Record:
        if not isinstance(doc, Mapping):
            raise RecordError(f'a record must be a JSON object with "format": "{FORMAT}"')
        if doc.get("format") != FORMAT:
            raise RecordError(f'format must be "{FORMAT}", got {json.dumps(doc.get("format"))}')
        try:
            rules = rules_from_mapping(doc.get("rules", "standard"), where="record rules")
        except RulesError as exc:
            raise RecordError(f"record rules: {exc}") from None
        players, seats = _read_players(doc)
        hands: tuple[tuple[Card, ...], ...] | None = None
        seed: int | None = None
        if "hands" in doc:
            hands = _read_hands(doc["hands"])
            if seats is not None and seats != len(hands):
                raise RecordError(f"the record names {seats} players but deals {len(hands)} hands")
            seats = len(hands)
        elif "seed" in doc:
            seed = _read_int(doc["seed"], "seed", minimum=0)
            if seats is None:
                raise RecordError('a record with a seed needs "players" (names) or "seats" (a number)')
        else:
            raise RecordError('a record needs "hands" (each stack, top card first) or a "seed"')
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise RecordError(f"a record needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {seats}")
        first = _read_int(doc.get("first", 0), "first", minimum=0)
        if first >= seats:
            raise RecordError(f"first must be a seat from 0 to {seats - 1}, got {first}")
        raw_actions = doc.get("actions", [])
        if not isinstance(raw_actions, list):
            raise RecordError('actions must be a list such as ["flip", {"slap": 1}, "wait"]')
        actions = tuple(action_from_json(a, i) for i, a in enumerate(raw_actions))
        known = {"format", "rules", "players", "seats", "hands", "seed", "first", "actions"}
        extra = {k: v for k, v in doc.items() if k not in known}
        record = Record(rules, seats, hands, seed, players, first, actions, extra)
        try:
            record.new_game()
        except NotationError as exc:
            raise RecordError(f"record hands: {exc}") from None
        return record

    @staticmethod
    def load(path: str | Path) -> Record:
        """Read a record file (``-`` is standard input is handled by the caller)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(
                f"cannot read record {path}: {exc.strerror if isinstance(exc, OSError) else exc}"
            ) from None
        return Record.loads(text, where=str(path))

    @staticmethod
    def loads(text: str, where: str = "record") -> Record:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{where} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}): "
                f"expected a {FORMAT} object"
            ) from None
        return Record.from_json(doc)


def _read_players(doc: Mapping[str, object]) -> tuple[tuple[str, ...] | None, int | None]:
    if "players" in doc:
        names = doc["players"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RecordError('players must be a list of names, e.g. ["Ann", "Bob"]')
        return tuple(names), len(names)
    if "seats" in doc:
        return None, _read_int(doc["seats"], "seats", minimum=0)
    return None, None


def _read_hands(raw: object) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(raw, list) or not all(isinstance(h, list) for h in raw):
        raise RecordError('hands must be a list of stacks, each a list of cards top first, e.g. [["7S"], ["KD"]]')
    hands = []
    for seat, hand in enumerate(raw):
        cards = []
        for item in hand:
            if not isinstance(item, str):
                raise RecordError(f'hands[{seat}] holds {json.dumps(item)}: expected a card such as "7S"')
            try:
                cards.append(Card.parse(item))
            except NotationError as exc:
                raise RecordError(f"hands[{seat}]: {exc}") from None
        hands.append(tuple(cards))
    return tuple(hands)


def _read_int(raw: object, name: str, *, minimum: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < minimum:
        raise RecordError(f"{name} must be an integer of at least {minimum}, got {json.dumps(raw)}")
    return raw


_ACTION_HELP = 'expected "flip", "wait", {"slap": SEAT} or {"act": "slap", "seat": SEAT, "t": MS, "card": N}'


def action_from_json(raw: object, index: int) -> Action:
    """One action in either form; errors name the action's index."""
    where = f"action {index}"
    if raw == "flip":
        return Flip()
    if raw == "wait":
        return Wait()
    if not isinstance(raw, Mapping):
        raise RecordError(f"{where} is {json.dumps(raw)}: {_ACTION_HELP}")
    act = raw.get("act", "slap" if "slap" in raw else None)
    unknown = set(raw) - {"act", "slap", "seat", "t", "card"}
    if unknown:
        raise RecordError(f"{where} has unknown field {sorted(unknown)[0]!r}: {_ACTION_HELP}")
    t = raw.get("t")
    if t is not None:
        t = _action_int(t, f"{where}: t")
    if act == "flip":
        return Flip(t)
    if act == "wait":
        return Wait(t)
    if act == "slap":
        seat = raw.get("seat", raw.get("slap"))
        card = raw.get("card")
        card_number = None if card is None else _action_int(card, f"{where}: card")
        return Slap(_action_int(seat, f"{where}: seat"), t, card_number)
    raise RecordError(f"{where} is {json.dumps(raw)}: {_ACTION_HELP}")


def _action_int(raw: object, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise RecordError(f"{where} must be a non-negative integer, got {json.dumps(raw)}")
    return raw


def action_to_json(action: Action) -> object:
    """The short form when nothing but the kind (and seat) is known, the long form otherwise."""
    if isinstance(action, Slap):
        if action.t is None and action.card is None:
            return {"slap": action.seat}
        doc: dict[str, object] = {"act": "slap", "seat": action.seat}
        if action.t is not None:
            doc["t"] = action.t
        if action.card is not None:
            doc["card"] = action.card
        return doc
    kind = "flip" if isinstance(action, Flip) else "wait"
    return kind if action.t is None else {"act": kind, "t": action.t}


def describe_action(action: Action) -> str:
    if isinstance(action, Slap):
        return f"slap by seat {action.seat}"
    return "flip" if isinstance(action, Flip) else "wait"


class StateJson(TypedDict):
    """The state after a record's last action, as ``ratscrew replay --json`` prints it."""

    status: Literal["over", "playing"]
    result: str | None
    winner: int | None
    hands: list[list[str]]
    pile: list[str]
    burned: list[str]
    out: list[int]
    turn: int
    owed: int
    collect_pending: int | None
    cards: int
    tricks: int


def state_json(game: Game) -> StateJson:
    """The state after the last action, in the shape ``ratscrew replay --json`` prints."""
    outcome = game.outcome
    return {
        "status": "over" if outcome else "playing",
        "result": outcome.result.value if outcome else None,
        "winner": outcome.winner if outcome else None,
        "hands": [[str(c) for c in s] for s in game.stacks],
        "pile": [str(c) for c in game.pile],
        "burned": [str(c) for c in game.burned],
        "out": [s for s in range(game.players) if game.out[s]],
        "turn": game.turn,
        "owed": game.owed,
        "collect_pending": game.collect_pending,
        "cards": game.cards,
        "tricks": game.tricks,
    }


def play_out(game: Game) -> Game:
    """Keep flipping, with no more slaps, until the game ends, loops or reaches ``end.max_cards``."""
    game.enable_loop_detection()
    while not game.over:
        game.apply(Flip(game.now))
    return game


__all__ = ["FORMAT", "RatscrewError", "Record", "action_from_json", "action_to_json", "play_out", "state_json"]
