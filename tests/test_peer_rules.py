"""Rules other ERS programs play that the engine once could not express, case by case, as docs/rules.md gives
them: which King and Queen make a marriage (``slaps.marriage_suits``), who leads after a pile is won
(``players.leader`` = ``next``) and whose wrong slaps one penalty per card spares
(``slapping.once_per_card_scope``).

The tables use the notation of harness/casebook.py. Each rule's default leaves every game as it was: the golden
records and every other case replay unchanged under it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.casebook import GameCase, action, check_game_case, check_pattern_case, game_case, pattern_case, step
from ratscrew.cards import parse_cards
from ratscrew.cli import main
from ratscrew.engine import Game
from ratscrew.record import Record, state_json
from ratscrew.rules import Rules

ROYALS = {"slaps.marriage": True, "slaps.divorce": True}
SAME_SUIT = {**ROYALS, "slaps.marriage_suits": "same-suit"}
SAME_COLOUR = {**ROYALS, "slaps.marriage_suits": "same-colour"}

PATTERN_CASES = [
    # Which King and Queen marry: any (the default), both red or both black, or one suit.
    pattern_case("standard", ROYALS, "KH QS", ["marriage"], "any King and Queen by default"),
    pattern_case("standard", SAME_SUIT, "KH QH", ["marriage"]),
    pattern_case("standard", SAME_SUIT, "QS KS", ["marriage"], "either order"),
    pattern_case("standard", SAME_SUIT, "KH QD", [], "one colour is not one suit"),
    pattern_case("standard", SAME_COLOUR, "KH QD", ["marriage"], "both red"),
    pattern_case("standard", SAME_COLOUR, "QS KC", ["marriage"], "both black"),
    pattern_case("standard", SAME_COLOUR, "KH QS", [], "one red, one black"),
    pattern_case("standard", SAME_SUIT, "KS 5D QS", ["divorce"], "a divorce too"),
    pattern_case("standard", SAME_SUIT, "KS 5S QC", [], "the card between does not make the suit"),
    pattern_case("standard", SAME_COLOUR, "KD 5S QH", ["divorce"]),
    pattern_case("standard", SAME_COLOUR, "KD 5S QC", []),
    pattern_case("standard", SAME_SUIT, "K Q", [], "a bare rank has no suit to share"),
    pattern_case("bicycle", {"slaps.marriage_suits": "same-suit"}, "KH QC", [], "with a preset's marriage"),
    pattern_case("bicycle", {"slaps.marriage_suits": "same-suit"}, "KC QC", ["marriage"]),
]


@pytest.mark.parametrize(("preset", "changes", "pile", "expected"), PATTERN_CASES)
def test_pattern_case(preset: str, changes: dict[str, object], pile: str, expected: list[str]) -> None:
    check_pattern_case(preset, changes, pile, expected)


GAME_CASES = [
    # ---- slaps.marriage_suits: the same King of Hearts and Queen of Diamonds, three ways
    game_case(
        "marriage_suits=any: a King and a Queen are a marriage",
        ["KH 4S 5C 7S", "QD 6H 8D 9C"],
        step("flip", "0 turns KH", "1 owes 3 to 0"),
        step("flip", "1 turns QD", "0 owes 2 to 1 (passed on)"),
        step(
            "slap 0",
            "0 slaps marriage",
            "0 takes KH QD by slap",
            hands=[["4S", "5C", "7S", "KH", "QD"], ["6H", "8D", "9C"]],
        ),
        changes={"slaps.marriage": True},
    ),
    game_case(
        "marriage_suits=same-colour: a red King and a red Queen are a marriage",
        ["KH 4S 5C 7S", "QD 6H 8D 9C"],
        step("flip", "0 turns KH", "1 owes 3 to 0"),
        step("flip", "1 turns QD", "0 owes 2 to 1 (passed on)"),
        step("slap 0", "0 slaps marriage", "0 takes KH QD by slap"),
        changes={"slaps.marriage": True, "slaps.marriage_suits": "same-colour"},
    ),
    game_case(
        "marriage_suits=same-suit: a King of Hearts and a Queen of Diamonds are a wrong slap",
        ["KH 4S 5C 7S", "QD 6H 8D 9C"],
        step("flip", "0 turns KH", "1 owes 3 to 0"),
        step("flip", "1 turns QD", "0 owes 2 to 1 (passed on)"),
        step("slap 0", "0 wrong slap, burns 4S", burned=["4S"], pile=["KH", "QD"], owed=2, turn=0),
        changes={"slaps.marriage": True, "slaps.marriage_suits": "same-suit"},
    ),
    # ---- players.leader = next: play goes on from the player after the one who turned the last card
    game_case(
        "leader=next: whoever slaps, the player after the last card's leads",
        ["7S 2C 4H", "7H 3D 5S", "9C 6D 8H"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0", "0 slaps double", "0 takes 7S 7H by slap", turn=2),
        step("flip", "2 turns 9C", turn=0),
        changes={"players.leader": "next"},
    ),
    game_case(
        "leader=winner: the same slap, and the winner leads",
        ["7S 2C 4H", "7H 3D 5S", "9C 6D 8H"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0", "0 slaps double", "0 takes 7S 7H by slap", turn=0),
    ),
    game_case(
        "leader=next: a challenge won, and the player after the payer leads (shown as due while the pile waits)",
        ["KS 2C 4H", "3H 5D 6S 8C", "9C 6H 8H"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 3H"),
        step("flip", "1 turns 5D"),
        step("flip", "1 turns 6S", "0 wins the challenge (paid)", collect_pending=0, turn=2),
        step(
            "wait",
            "0 takes KS 3H 5D 6S by challenge",
            turn=2,
            hands=[["2C", "4H", "KS", "3H", "5D", "6S"], ["8C"], ["9C", "6H", "8H"]],
        ),
        step("flip", "2 turns 9C", turn=0),
        changes={"players.leader": "next"},
    ),
    game_case(
        "leader=next skips a player with no cards, as play always does",
        ["4S 7S 2C", "9D 7H 3D", "5C"],
        step("flip", "0 turns 4S"),
        step("flip", "1 turns 9D"),
        step("flip", "2 turns 5C", turn=0),
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 1", "1 slaps double", "1 takes 4S 9D 5C 7S 7H by slap", turn=0, out=[]),
        step("flip", "0 turns 2C", turn=1),
        changes={"players.leader": "next"},
    ),
    game_case(
        "leader=next under give-pile: the player given the pile does not lead, play goes on",
        ["4S 7S 2C", "9D 7H 3D", "5C 8C"],
        step("flip", "0 turns 4S"),
        step("flip", "1 turns 9D"),
        step("slap 2", "2 wrong slap", "0 is given 4S 9D", turn=2),
        step("flip", "2 turns 5C", turn=0),
        changes={"players.leader": "next", "slapping.penalty": "give-pile"},
    ),
    # ---- slapping.once_per_card_scope: each player's first wrong slap on a card, or the table's first
    game_case(
        "once_per_card for the table: the first wrong slap on a card pays, anyone's later ones are set aside",
        ["4S 8S 2S", "5H 9H 3H", "6D TD 7D"],
        step("flip", "0 turns 4S"),
        step("slap 1", "1 wrong slap, burns 5H"),
        step(
            "slap 2",
            "2 slap dismissed (once_per_card)",
            burned=["5H"],
            hands=[["8S", "2S"], ["9H", "3H"], ["6D", "TD", "7D"]],
        ),
        step("slap 1", "1 slap dismissed (once_per_card)", burned=["5H"]),
        step("flip", "1 turns 9H"),
        step("slap 2", "2 wrong slap, burns 6D", burned=["5H", "6D"]),
        step("slap 0", "0 slap dismissed (once_per_card)"),
        changes={"slapping.once_per_card": True, "slapping.once_per_card_scope": "table"},
    ),
    game_case(
        "once_per_card for each player (the default): another player's wrong slap on the same card pays",
        ["4S 8S 2S", "5H 9H 3H", "6D TD 7D"],
        step("flip", "0 turns 4S"),
        step("slap 1", "1 wrong slap, burns 5H"),
        step("slap 2", "2 wrong slap, burns 6D"),
        step("slap 1", "1 slap dismissed (once_per_card)", burned=["5H", "6D"]),
        changes={"slapping.once_per_card": True},
    ),
    game_case(
        "the table scope does nothing without once_per_card: every wrong slap pays",
        ["4S 8S 2S", "5H 9H 3H", "6D TD 7D"],
        step("flip", "0 turns 4S"),
        step("slap 1", "1 wrong slap, burns 5H"),
        step("slap 2", "2 wrong slap, burns 6D"),
        step("slap 1", "1 wrong slap, burns 9H"),
        changes={"slapping.once_per_card_scope": "table"},
    ),
    game_case(
        "once_per_card for the table under lockout-pile: the second slapper is not locked out",
        ["4S 8S 2S", "5H 9H 3H", "6D TD 7D"],
        step("flip", "0 turns 4S"),
        step("slap 1", "1 wrong slap", locked=[None, "pile", None]),
        step("slap 2", "2 slap dismissed (once_per_card)", locked=[None, "pile", None]),
        step("flip", "1 turns 5H"),
        step("slap 2", "2 wrong slap", locked=[None, "pile", "pile"]),
        changes={
            "slapping.once_per_card": True,
            "slapping.once_per_card_scope": "table",
            "slapping.penalty": "lockout-pile",
        },
    ),
]


@pytest.mark.parametrize("case", GAME_CASES)
def test_game_case(case: GameCase) -> None:
    check_game_case(case)


# ---------------------------------------------------------------------------------------------------- the commands


def _sets(changes: dict[str, object]) -> list[str]:
    out: list[str] = []
    for key, value in changes.items():
        out += ["--set", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    return out


@pytest.mark.parametrize(("preset", "changes", "pile", "expected"), PATTERN_CASES)
def test_ratscrew_check_gives_each_pattern_case(
    preset: str, changes: dict[str, object], pile: str, expected: list[str]
) -> None:
    done = CliRunner().invoke(main, ["check", "--rules", preset, *_sets(changes), "--json", *pile.split()])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["patterns"] == expected


@pytest.mark.parametrize("case", GAME_CASES)
def test_ratscrew_replay_ends_each_game_case_as_the_engine_does(case: GameCase, tmp_path: Path) -> None:
    rules = Rules.build(case.preset, case.changes)
    hands = [parse_cards(h) for h in case.hands]
    record = Record(rules, len(hands), hands=tuple(map(tuple, hands)), first=case.first)
    record = replace(record, actions=tuple(action(s.action) for s in case.steps))
    path = tmp_path / "case.json"
    path.write_text(record.dumps(), encoding="utf-8")
    done = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert done.exit_code == 0, done.output
    game = Game(rules, hands, case.first)
    for s in case.steps:
        game.apply(action(s.action))
    assert json.loads(done.output) == json.loads(json.dumps(state_json(game)))
