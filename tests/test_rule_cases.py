"""The rule cases people argue about at the table, each with the answer docs/rules.md gives.

Two tables, in the notation of harness/casebook.py: ``PATTERN_CASES`` asks the referee about a pile, bottom card
first; ``GAME_CASES`` drives the engine action by action, with every event each action must produce. The
house rules added later (Big Mac, flushes, lockouts...) have their own tables in tests/test_house_rules.py.
"""

from __future__ import annotations

import pytest

from harness.casebook import GameCase, check_game_case, check_pattern_case, game_case, pattern_case, step
from ratscrew.cards import FULL_DECK, deal, parse_cards
from ratscrew.engine import Flip, Game, Slap, Wait
from ratscrew.engine.events import ChallengeOpened, ChallengeWin, ChallengeWon, PileWon, WonBy, WrongSlap
from ratscrew.errors import IllegalAction, NotationError
from ratscrew.rules import Rules
from ratscrew.shuffle import seeded_shuffle

# ---------------------------------------------------------------------------------------------------- patterns

RUN3 = {"slaps.run": 3}
RUN3_NO_WRAP = {"slaps.run": 3, "slaps.run_wrap": False}
NUMBERS = {"slaps.ten": "numbers"}
ACE_ONE = {"slaps.ten": "ace-one"}
MARRIAGE_DIVORCE = {"slaps.marriage": True, "slaps.divorce": True}
TOP_BOTTOM = {"slaps.top_bottom": True}


PATTERN_CASES = [
    # Doubles and sandwiches.
    pattern_case("standard", {}, "7 7", ["double"]),
    pattern_case("standard", {}, "7 7 3", [], "a covered double is gone"),
    pattern_case("standard", {}, "7 7 7", ["double", "sandwich"]),
    pattern_case("standard", {}, "9 7 9", ["sandwich"]),
    pattern_case("standard", {}, "9 7 6 9", [], "two cards between is no sandwich"),
    pattern_case("standard", {}, "7S 7H", ["double"], "ranks, not suits"),
    pattern_case("standard", {}, "7S 8S", [], "same suit is nothing"),
    pattern_case("standard", {}, "K Q", [], "marriage is off by default"),
    pattern_case("standard", {}, "4 6", [], "ten is off by default"),
    # Top-bottom.
    pattern_case("standard", TOP_BOTTOM, "7", [], "top-bottom needs 2 face-up cards"),
    pattern_case("standard", TOP_BOTTOM, "7 3 4 7", ["top_bottom"]),
    pattern_case("standard", TOP_BOTTOM, "7 3 4 8", []),
    pattern_case("standard", TOP_BOTTOM, "7 7", ["double", "top_bottom"]),
    # Marriage and divorce.
    pattern_case("standard", MARRIAGE_DIVORCE, "K Q", ["marriage"]),
    pattern_case("standard", MARRIAGE_DIVORCE, "Q K", ["marriage"], "either order"),
    pattern_case("standard", MARRIAGE_DIVORCE, "K 5 Q", ["divorce"], "a divorce, not a marriage"),
    pattern_case("standard", MARRIAGE_DIVORCE, "Q 5 K", ["divorce"]),
    pattern_case("standard", {"slaps.marriage": True}, "K 5 Q", [], "one card between is no marriage"),
    pattern_case("standard", {"slaps.divorce": True}, "K Q", [], "side by side is no divorce"),
    pattern_case("standard", MARRIAGE_DIVORCE, "K J Q", ["divorce"]),
    pattern_case("standard", MARRIAGE_DIVORCE, "K 5 6 Q", []),
    # Runs.
    pattern_case("standard", RUN3, "7 8 9", ["run"]),
    pattern_case("standard", RUN3, "9 8 7", ["run"], "a run of 3 down"),
    pattern_case("standard", RUN3, "8 9 7", [], "one direction only"),
    pattern_case("standard", RUN3, "5 6 8 7", []),
    pattern_case("standard", RUN3_NO_WRAP, "Q K A", ["run"], "no corner to turn"),
    pattern_case("standard", RUN3_NO_WRAP, "K A 2", [], "without wrap A and 2 are not neighbours"),
    pattern_case("standard", RUN3_NO_WRAP, "A 2 3", [], "without wrap A and 2 are not neighbours"),
    pattern_case("standard", RUN3, "K A 2", ["run"]),
    pattern_case("standard", RUN3, "A 2 3", ["run"]),
    pattern_case("standard", RUN3, "3 2 A", ["run"], "down round the corner"),
    pattern_case("standard", {"slaps.run": 4}, "Q K A 2", ["run"], "a run of 4 round the corner"),
    pattern_case("standard", {"slaps.run": 4, "slaps.run_wrap": False}, "Q K A 2", [], "only with run_wrap"),
    pattern_case("standard", {"slaps.run": 4}, "5 6 8 7", [], "not in order"),
    pattern_case("standard", {"slaps.run": 4}, "5 6 7", [], "a run of 4 needs 4 cards"),
    pattern_case("standard", {"slaps.run": 4}, "7 6 5 4", ["run"]),
    pattern_case("standard", {"slaps.run": 4}, "3 4 5 6 8", [], "the top 4 must run"),
    # Tens.
    pattern_case("standard", NUMBERS, "4 6", ["ten"]),
    pattern_case("standard", NUMBERS, "A 9", [], "an Ace is no number"),
    pattern_case("standard", ACE_ONE, "A 9", ["ten"], "an Ace counts 1"),
    pattern_case("standard", ACE_ONE, "9 A", ["ten"], "either order"),
    pattern_case("standard", NUMBERS, "10", [], "a lone 10 is never a ten"),
    pattern_case("standard", ACE_ONE, "10", [], "a lone 10 is never a ten"),
    pattern_case("standard", ACE_ONE, "2 10", []),
    pattern_case("standard", NUMBERS, "K Q", [], "K Q is never a ten"),
    pattern_case("standard", ACE_ONE, "K Q", [], "K Q is never a ten"),
    pattern_case("standard", {"slaps.ten": "ace-one", "slaps.ten_gap": "any"}, "K 5 Q", [], "J Q K have no value"),
    pattern_case("standard", {"slaps.ten": "ace-one", "slaps.ten_gap": "court"}, "A K 9", ["ten_gap"]),
    pattern_case("standard", {"slaps.ten": "numbers", "slaps.ten_gap": "court"}, "A K 9", [], "an Ace is no number"),
    pattern_case(
        "standard",
        {"slaps.ten": "numbers", "slaps.ten_gap": "court"},
        "3 A 7",
        ["ten_gap"],
        "an Ace between is a court card",
    ),
    pattern_case(
        "standard",
        {"slaps.ten": "numbers", "slaps.ten_gap": "court"},
        "3 5 7",
        [],
        "court gap needs a court card between",
    ),
    pattern_case("standard", {"slaps.ten": "numbers", "slaps.ten_gap": "any"}, "3 5 7", ["ten_gap"]),
    pattern_case("standard", {"slaps.ten": "numbers", "slaps.ten_gap": "court"}, "5 J 5", ["sandwich", "ten_gap"]),
    # Jokers: no rank, no value; only the joker pattern.
    pattern_case("standard", {}, "X X", ["joker"], "two jokers are no double"),
    pattern_case("standard", {}, "7 X", ["joker"]),
    pattern_case("standard", {}, "X 7", [], "a covered joker is gone"),
    pattern_case("standard", {"slaps.joker": False}, "7 X", []),
    pattern_case("standard", {}, "X 5 X", ["joker"], "two jokers make no sandwich"),
    pattern_case("everything", {}, "X 5 X", ["joker"], "nor a top-bottom"),
    pattern_case("everything", {}, "3 4 X", ["joker"], "a joker breaks a run"),
    pattern_case("everything", {}, "X 4 6", ["ten"]),
    pattern_case("everything", {}, "5 X", ["joker"], "a joker breaks a ten"),
    pattern_case("bicycle", {}, "3 X 7", [], "a joker is not a court card"),
    pattern_case("bicycle", {}, "A X 9", []),
    # The presets as wholes.
    pattern_case("everything", {}, "2 5 5", ["double", "ten"]),
    pattern_case("everything", {}, "5 5", ["double", "top_bottom", "ten"]),
    pattern_case("everything", {}, "5 3 5", ["sandwich", "top_bottom"]),
    pattern_case("everything", {}, "9 8 7", ["run"]),
    pattern_case("everything", {}, "Q K", ["marriage"]),
    pattern_case("everything", {}, "A 9", [], "everything adds tens of numbers only"),
    pattern_case("bicycle", {}, "A 9", ["ten"]),
    pattern_case("bicycle", {}, "A K 9", ["ten_gap"]),
    pattern_case("bicycle", {}, "K Q", ["marriage"], "a marriage, never a ten"),
    pattern_case("bicycle", {}, "Q K A 2", ["run"]),
    pattern_case("bicycle", {}, "5 6 8 7", []),
    pattern_case("bicycle", {}, "K A 2 3", ["run"]),
    pattern_case("bicycle", {}, "3 2 A K", ["run"]),
    pattern_case("bicycle", {}, "4 J 6", ["ten_gap"]),
    pattern_case("bicycle", {}, "4 5 6", [], "bicycle gaps are court only"),
    pattern_case("bicycle", {}, "X", ["joker"]),
    pattern_case("beggar", {}, "7 7", [], "beggar has no slaps"),
    pattern_case("beggar", {}, "9 7 9", []),
]


@pytest.mark.parametrize(("preset", "changes", "pile", "expected"), PATTERN_CASES)
def test_pattern_case(preset: str, changes: dict[str, object], pile: str, expected: list[str]) -> None:
    check_pattern_case(preset, changes, pile, expected)


# ---------------------------------------------------------------------------------------------------- the engine


WORKED_EXAMPLE = (
    # A plays Q; B plays 6, J; A plays A; B plays 3, 7, K; A plays 10, 4, 6: B takes the pile.
    step("flip", "0 turns QH", "1 owes 2 to 0"),
    step("flip", "1 turns 6S"),
    step("flip", "1 turns JD", "0 owes 1 to 1 (passed on)"),
    step("flip", "0 turns AC", "1 owes 4 to 0 (passed on)"),
    step("flip", "1 turns 3D"),
    step("flip", "1 turns 7C"),
    step("flip", "1 turns KS", "0 owes 3 to 1 (passed on)"),
    step("flip", "0 turns TC"),
    step("flip", "0 turns 4S"),
    step("flip", "0 turns 6H", "1 wins the challenge (paid)", collect_pending=1, turn=1, owed=0, hands=[["2C"], []]),
    step(
        "wait",
        "1 takes QH 6S JD AC 3D 7C KS TC 4S 6H by challenge",
        hands=[["2C"], ["QH", "6S", "JD", "AC", "3D", "7C", "KS", "TC", "4S", "6H"]],
        pile=[],
        turn=1,
        collect_pending=None,
        tricks=1,
        result=None,
    ),
)

GAME_CASES = [
    # ---- doubles and sandwiches at the table
    game_case(
        "double 7 7 slapped takes the pile",
        ["7S 3C 5D", "7H 4D 9H"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step(
            "slap 1",
            "1 slaps double",
            "1 takes 7S 7H by slap",
            hands=[["3C", "5D"], ["4D", "9H", "7S", "7H"]],
            pile=[],
            turn=1,
            tricks=1,
        ),
    ),
    game_case(
        "covered double 7 7 3 is a wrong slap and burns a card",
        ["7S 3C 5D", "7H 4D 9H"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("flip", "0 turns 3C"),
        step(
            "slap 1",
            "1 wrong slap, burns 4D",
            hands=[["5D"], ["9H"]],
            pile=["7S", "7H", "3C"],
            burned=["4D"],
            turn=1,
            out=[],
        ),
    ),
    game_case(
        "9 7 6 9 is no sandwich: wrong slap",
        ["9S 6S 2S", "7H 9H 3H"],
        step("flip", "0 turns 9S"),
        step("flip", "1 turns 7H"),
        step("flip", "0 turns 6S"),
        step("flip", "1 turns 9H"),
        step("slap 0", "0 wrong slap, burns 2S", burned=["2S"], pile=["9S", "7H", "6S", "9H"], turn=1),
    ),
    game_case(
        "two wrong slaps are both burned; the winner gets the last burned first",
        ["2S 5S 6S", "3H 6H 9H"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap, burns 3H"),
        step("slap 0", "0 wrong slap, burns 5S", burned=["3H", "5S"], turn=1),
        step("flip", "1 turns 6H"),
        step("flip", "0 turns 6S"),
        step(
            "slap 1",
            "1 slaps double",
            "1 takes 5S 3H 2S 6H 6S by slap",
            "game over: win 1",
            hands=[[], ["9H", "5S", "3H", "2S", "6H", "6S"]],
            pile=[],
            burned=[],
            result="win",
            winner=1,
        ),
    ),
    # ---- burned cards and top-bottom
    game_case(
        "a burned card under the pile does not make top-bottom",
        ["4S 9D 5S", "9C 2H 3H"],
        step("flip", "0 turns 4S"),
        step("slap 1", "1 wrong slap, burns 9C", burned=["9C"], turn=1),
        step("flip", "1 turns 2H"),
        step("flip", "0 turns 9D"),
        step("slap 0", "0 wrong slap, burns 5S", pile=["4S", "2H", "9D"], burned=["9C", "5S"]),
        changes={"slaps.top_bottom": True},
    ),
    game_case(
        "with burned_count the burned card is the bottom for top-bottom",
        ["4S 9D 5S", "9C 2H 3H"],
        step("flip", "0 turns 4S"),
        step("slap 1", "1 wrong slap, burns 9C"),
        step("flip", "1 turns 2H"),
        step("flip", "0 turns 9D"),
        step(
            "slap 0",
            "0 slaps top_bottom",
            "0 takes 9C 4S 2H 9D by slap",
            hands=[["5S", "9C", "4S", "2H", "9D"], ["3H"]],
            pile=[],
            burned=[],
            turn=0,
        ),
        changes={"slaps.top_bottom": True, "slaps.burned_count": True},
    ),
    game_case(
        "with burned_count one face-up card on a burned card of its rank is no top-bottom",
        ["9D 5S", "9C 2H 3H"],
        step("slap 1", "1 wrong slap, burns 9C", burned=["9C"]),
        step("flip", "0 turns 9D", pile=["9D"]),
        step("slap 1", "1 wrong slap, burns 2H", burned=["9C", "2H"], hands=[["5S"], ["3H"]]),
        changes={"slaps.top_bottom": True, "slaps.burned_count": True, "slaps.double": False},
    ),
    # ---- the window after a won challenge
    game_case(
        "a slap in the window after a won challenge takes the pile",
        ["2S JS 8S", "4C 4D 9D"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 4C"),
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step(
            "flip",
            "1 turns 4D",
            "0 wins the challenge (paid)",
            collect_pending=0,
            turn=0,
            owed=0,
            pile=["2S", "4C", "JS", "4D"],
        ),
        step(
            "slap 1",
            "1 slaps sandwich",
            "1 takes 2S 4C JS 4D by slap",
            hands=[["8S"], ["9D", "2S", "4C", "JS", "4D"]],
            collect_pending=None,
            turn=1,
            pile=[],
            tricks=1,
        ),
    ),
    game_case(
        "a won challenge pile moves on the next wait",
        ["2S JS 8S", "4C 4D 9D"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 4C"),
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("flip", "1 turns 4D", "0 wins the challenge (paid)"),
        step(
            "wait",
            "0 takes 2S 4C JS 4D by challenge",
            hands=[["8S", "2S", "4C", "JS", "4D"], ["9D"]],
            collect_pending=None,
            turn=0,
            pile=[],
        ),
        step("slap 1", "1 wrong slap, burns 9D", burned=["9D"], hands=[["8S", "2S", "4C", "JS", "4D"], []]),
    ),
    game_case(
        "a flip collects a won challenge pile first, then the winner leads",
        ["2S JS 8S", "4C 4D 9D"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 4C"),
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("flip", "1 turns 4D", "0 wins the challenge (paid)"),
        step("flip", "0 takes 2S 4C JS 4D by challenge", "0 turns 8S", pile=["8S"], turn=1),
    ),
    game_case(
        "a correct slap during a challenge cancels the debt",
        ["KS 9S", "2H 2D 8D"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 2H"),
        step("flip", "1 turns 2D", owed=1, turn=1),
        step("slap 1", "1 slaps double", "1 takes KS 2H 2D by slap", owed=0, turn=1, collect_pending=None),
        step("flip", "1 turns 8D", owed=0, turn=0),
    ),
    # ---- the face-card challenge
    game_case("worked example: B takes the pile", ["QH AC TC 4S 6H 2C", "6S JD 3D 7C KS"], *WORKED_EXAMPLE),
    game_case(
        "one-chance: a King demands one card",
        ["KS 2S", "3H 4H"],
        step("flip", "0 turns KS", "1 owes 1 to 0"),
        step("flip", "1 turns 3H", "0 wins the challenge (paid)"),
        preset="one-chance",
    ),
    game_case(
        "K and J swapped: a Jack demands three",
        ["JS 2S", "3H 4H 5H 6H"],
        step("flip", "0 turns JS", "1 owes 3 to 0"),
        step("flip", "1 turns 3H", owed=2),
        changes={"challenge.J": 3, "challenge.K": 1},
    ),
    game_case(
        "a payer who runs out loses the challenge",
        ["KS 5S", "2H 3H"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 2H"),
        step("flip", "1 turns 3H", "0 wins the challenge (ran_out)", collect_pending=0, owed=0),
        step(
            "wait",
            "0 takes KS 2H 3H by challenge",
            "game over: win 0",
            hands=[["5S", "KS", "2H", "3H"], []],
            result="win",
            winner=0,
        ),
    ),
    game_case(
        "3 players: a payer who runs out loses (empty_payer=loses)",
        ["KS 9S", "2H", "3C 4C 5C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 2H", "0 wins the challenge (ran_out)", collect_pending=0, turn=0),
        step("wait", "0 takes KS 2H by challenge", hands=[["9S", "KS", "2H"], [], ["3C", "4C", "5C"]], turn=0),
    ),
    game_case(
        "empty_payer=next_pays: the next player pays the rest",
        ["KS 9S", "2H", "3C 4C 5C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 2H", "2 pays the 2 1 still owed", turn=2, owed=2),
        step("flip", "2 turns 3C", turn=2, owed=1),
        step("flip", "2 turns 4C", "0 wins the challenge (paid)"),
        step("wait", "0 takes KS 2H 3C 4C by challenge", hands=[["9S", "KS", "2H", "3C", "4C"], [], ["5C"]]),
        changes={"challenge.empty_payer": "next_pays"},
    ),
    game_case(
        "empty_payer=next_pays: when the rest would fall to the challenger, the challenger wins",
        ["KS 9S", "2H", "3C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 2H", "2 pays the 2 1 still owed"),
        step("flip", "2 turns 3C", "0 wins the challenge (ran_out)", collect_pending=0, owed=0),
        changes={"challenge.empty_payer": "next_pays"},
    ),
    game_case(
        "a court card with nobody else holding cards wins at once",
        ["2S KS", "3H"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 3H", turn=0),
        step("flip", "0 turns KS", "0 wins the challenge (unopposed)", collect_pending=0),
        step("wait", "0 takes 2S 3H KS by challenge", "game over: win 0", hands=[["2S", "3H", "KS"], []]),
    ),
    game_case(
        "everyone empty: whoever turned the last card wins the pile",
        ["2S", "3H"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 3H", "1 wins the challenge (last_card)", collect_pending=1),
        step("wait", "1 takes 2S 3H by challenge", "game over: win 1"),
    ),
    game_case(
        "ten_stops: a 10 while paying ends the challenge and the next player plays",
        ["KS 2S", "TH 3H", "4C 5C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step(
            "flip",
            "1 turns TH",
            "challenge of 0 stopped (ten)",
            owed=0,
            turn=2,
            collect_pending=None,
            pile=["KS", "TH"],
        ),
        step("flip", "2 turns 4C", owed=0, turn=0, pile=["KS", "TH", "4C"]),
        changes={"challenge.ten_stops": True},
    ),
    game_case(
        "without ten_stops a 10 is just a payment",
        ["KS 2S", "TH 3H", "4C 5C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns TH", owed=2, turn=1),
    ),
    game_case(
        "challenge.joker=2: a joker demands two cards",
        ["X 5S", "2H 3H 4H"],
        step("flip", "0 turns X", "1 owes 2 to 0"),
        step("wait", turn=1, owed=2),
        changes={"deck.jokers": 1, "challenge.joker": 2},
    ),
    game_case(
        "challenge.joker=0: a joker is no court card, but a joker on top is slappable",
        ["X 5S", "2H 3H 4H"],
        step("flip", "0 turns X", turn=1, owed=0),
        step("slap 1", "1 slaps joker", "1 takes X by slap", hands=[["5S"], ["2H", "3H", "4H", "X"]]),
        changes={"deck.jokers": 1},
    ),
    game_case(
        "slaps.joker=false: a joker on top is a wrong slap",
        ["X 5S", "2H 3H 4H"],
        step("flip", "0 turns X"),
        step("slap 1", "1 wrong slap, burns 2H"),
        changes={"deck.jokers": 1, "slaps.joker": False},
    ),
    game_case(
        "a wrong slap in the window burns under the won pile, and the winner gets it",
        ["2S JS 8S", "4C 5D 9D"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 4C"),
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("flip", "1 turns 5D", "0 wins the challenge (paid)"),
        step("slap 1", "1 wrong slap, burns 9D", collect_pending=0, burned=["9D"]),
        step(
            "wait",
            "0 takes 9D 2S 4C JS 5D by challenge",
            "game over: win 0",
            hands=[["8S", "9D", "2S", "4C", "JS", "5D"], []],
        ),
    ),
    game_case(
        "a court card while paying passes the debt to the next player, not back",
        ["KS 2S", "QH 3H", "4C 5C 6C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns QH", "2 owes 2 to 1 (passed on)", turn=2, owed=2),
        step("flip", "2 turns 4C"),
        step("flip", "2 turns 5C", "1 wins the challenge (paid)", turn=1, collect_pending=1),
    ),
    game_case(
        "an empty player is skipped as payer",
        ["JS 2S", "", "3C 4C"],
        step("flip", "0 turns JS", "2 owes 1 to 0", turn=2),
    ),
    game_case(
        "next_pays: the debt passes on to the next player with cards, whoever they are",
        ["KS 2S 3S", "QH 5H", "4C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns QH", "2 owes 2 to 1 (passed on)"),
        step("flip", "2 turns 4C", "0 pays the 1 2 still owed", turn=0, owed=1),
        step("flip", "0 turns 2S", "1 wins the challenge (paid)"),
        changes={"challenge.empty_payer": "next_pays"},
    ),
    game_case(
        "a penalty that empties the payer makes them run out of the challenge",
        ["KS 5S", "2H 3H"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 2H"),
        step("slap 1", "1 wrong slap, burns 3H", "0 wins the challenge (ran_out)", collect_pending=0, turn=0),
    ),
    game_case(
        "a penalty that leaves everyone empty: whoever turned the last card wins the pile",
        ["2S", "3H"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap, burns 3H", "0 wins the challenge (last_card)"),
        step("wait", "0 takes 3H 2S by challenge", "game over: win 0"),
    ),
    game_case(
        "a pattern stays slappable while time passes",
        ["7S 2S", "7H 3H"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("wait"),
        step("wait @5000"),
        step("slap 1", "1 slaps double", "1 takes 7S 7H by slap"),
    ),
    game_case(
        "a record may say who plays first",
        ["2S 3S", "4H 5H"],
        step("flip", "1 turns 4H"),
        step("flip", "0 turns 2S"),
        first=1,
    ),
    game_case(
        "an empty first seat is settled at the deal",
        ["", "4H 5H", "6C"],
        step("flip", "1 turns 4H"),
    ),
    # ---- who leads after a pile
    game_case(
        "leader=winner: the slapper leads",
        ["7S 2S", "7H 3H", "4C 5C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0", "0 slaps double", "0 takes 7S 7H by slap", turn=0),
    ),
    game_case(
        "leader=left: the player on the winner's left leads",
        ["7S 2S", "7H 3H", "4C 5C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0", "0 slaps double", "0 takes 7S 7H by slap", turn=1),
        step("flip", "1 turns 3H"),
        changes={"players.leader": "left"},
    ),
    game_case(
        "leader=left skips an empty player",
        ["7S 2S", "7H", "4C 5C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0", "0 slaps double", "0 takes 7S 7H by slap", turn=2),
        changes={"players.leader": "left"},
    ),
    game_case(
        "leader=left: while a won challenge waits, the seat due is the next leader",
        ["JS 2S", "4H 3H", "5C 6C"],
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("flip", "1 turns 4H", "0 wins the challenge (paid)", turn=1, collect_pending=0),
        step("wait", "0 takes JS 4H by challenge", turn=1),
        changes={"players.leader": "left"},
    ),
    game_case(
        "leader=left: a penalty in the window that empties the next leader moves the seat due on",
        ["JS 2S", "4H 3H", "5C 6C"],
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("flip", "1 turns 4H", "0 wins the challenge (paid)", turn=1),
        step("slap 1", "1 wrong slap, burns 3H", collect_pending=0, turn=2),
        step("wait", "0 takes 3H JS 4H by challenge", turn=2),
        changes={"players.leader": "left"},
    ),
    # ---- wrong slaps and penalties
    game_case(
        "a wrong slap by an empty player puts them out (out_when=wrong-slap)",
        ["5S 6S", "7H 4H", "8C 9C"],
        step("flip", "0 turns 5S"),
        step("flip", "1 turns 7H"),
        step("slap 1", "1 wrong slap, burns 4H", out=[], hands=[["6S"], [], ["8C", "9C"]], turn=2),
        step("slap 1", "1 wrong slap", "1 out (wrong_slap)", out=[1], burned=["4H"], turn=2),
    ),
    game_case(
        "2 players: the empty wrong slapper is out and the other takes the pile and the game",
        ["5S 6S", "7H"],
        step("flip", "0 turns 5S"),
        step("flip", "1 turns 7H", turn=0),
        step(
            "slap 1",
            "1 wrong slap",
            "1 out (wrong_slap)",
            "0 takes 5S 7H by last_in",
            "game over: win 0",
            out=[1],
            hands=[["6S", "5S", "7H"], []],
            result="win",
            winner=0,
        ),
    ),
    game_case(
        "out_when=never: an empty wrong slapper stays in",
        ["5S 6S", "7H", "8C 9C"],
        step("flip", "0 turns 5S"),
        step("flip", "1 turns 7H"),
        step("slap 1", "1 wrong slap", out=[]),
        changes={"players.out_when": "never"},
    ),
    game_case(
        "penalty=none: a wrong slap costs nothing",
        ["5S 6S", "7H 8H"],
        step("flip", "0 turns 5S"),
        step("slap 1", "1 wrong slap", hands=[["6S"], ["7H", "8H"]], burned=[]),
        changes={"slapping.penalty": "none"},
    ),
    game_case(
        "penalty_cards=2 burns two",
        ["5S 6S", "7H 8H 9H"],
        step("flip", "0 turns 5S"),
        step("slap 1", "1 wrong slap, burns 7H 8H", hands=[["6S"], ["9H"]], burned=["7H", "8H"]),
        changes={"slapping.penalty_cards": 2},
    ),
    game_case(
        "penalty_cards=2 with one card burns what the slapper has",
        ["5S 6S", "7H"],
        step("slap 1", "1 wrong slap, burns 7H", hands=[["5S", "6S"], []], burned=["7H"], out=[]),
        changes={"slapping.penalty_cards": 2},
    ),
    game_case(
        "give-each with too few cards: the slapper gives what they have, from their left",
        ["5S 6S", "7H 8H", "9C TC", "2D 3D"],
        step(
            "slap 1",
            "1 wrong slap, gives 2:7H 3:8H",
            hands=[["5S", "6S"], [], ["9C", "TC", "7H"], ["2D", "3D", "8H"]],
            burned=[],
            out=[],
        ),
        changes={"slapping.penalty": "give-each"},
    ),
    game_case(
        "give-each skips players who are out",
        ["5S 6S", "7H 8H 9H", "9C TC", ""],
        step("slap 3", "3 wrong slap", "3 out (wrong_slap)"),
        step(
            "slap 1",
            "1 wrong slap, gives 2:7H 0:8H",
            hands=[["5S", "6S", "8H"], ["9H"], ["9C", "TC", "7H"], []],
            out=[3],
        ),
        changes={"slapping.penalty": "give-each"},
    ),
    # ---- empty players
    game_case(
        "slap_in=false: an empty player is out as soon as play passes to them",
        ["2S 5S 6S", "3H", "4C 7C"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 3H", turn=2, out=[]),
        step("flip", "2 turns 4C"),
        step("flip", "0 turns 5S", "1 out (empty)", out=[1], turn=2),
        preset="out-is-out",
    ),
    game_case(
        "beggar: a player who must pay with no card loses",
        ["KS 2S", "3H"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step(
            "flip",
            "1 turns 3H",
            "1 out (empty)",
            "0 takes KS 3H by last_in",
            "game over: win 0",
            hands=[["2S", "KS", "3H"], []],
            result="win",
            winner=0,
        ),
        preset="beggar",
    ),
    game_case(
        "missed-slap: an empty player is out when the slappable pile is covered",
        ["7S 2S 9S", "7H", "4C 5C 6C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("flip", "1 out (missed_slap)", "2 turns 4C", out=[1]),
        changes={"players.out_when": "missed-slap"},
    ),
    game_case(
        "missed-slap: an empty player is out when someone else wins the slappable pile",
        ["7S 2S 9S", "7H", "4C 5C 6C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0", "0 slaps double", "1 out (missed_slap)", "0 takes 7S 7H by slap", out=[1]),
        changes={"players.out_when": "missed-slap"},
    ),
    game_case(
        "missed-slap: an empty player who slaps the pattern wins it back and stays in",
        ["7S 2S 9S", "7H", "4C 5C 6C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step(
            "slap 1",
            "1 slaps double",
            "1 takes 7S 7H by slap",
            out=[],
            hands=[["2S", "9S"], ["7S", "7H"], ["4C", "5C", "6C"]],
        ),
        changes={"players.out_when": "missed-slap"},
    ),
    game_case(
        "out_when=wrong-slap: missing a slap does not put an empty player out",
        ["7S 2S 9S", "7H", "4C 5C 6C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("flip", "2 turns 4C", out=[]),
    ),
    game_case(
        "slap_in=false: a penalty that empties the player due puts them out",
        ["2S 5S", "3H", "4C 6C"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap, burns 3H", "1 out (empty)", out=[1], turn=2),
        preset="out-is-out",
    ),
    game_case(
        "slap_in=false, 2 players: the empty player is out and the other takes the pile",
        ["2S", "3H 4H"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 3H", "0 out (empty)", "1 takes 2S 3H by last_in", "game over: win 1"),
        preset="out-is-out",
    ),
    game_case(
        "missed-slap: an empty player is out when a slappable pile is collected after a challenge",
        ["4S JS 8S", "7H 5D 9D", "5C"],
        step("flip", "0 turns 4S"),
        step("flip", "1 turns 7H"),
        step("flip", "2 turns 5C"),
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("flip", "1 turns 5D", "0 wins the challenge (paid)"),
        step("wait", "2 out (missed_slap)", "0 takes 4S 7H 5C JS 5D by challenge", out=[2]),
        changes={"players.out_when": "missed-slap"},
    ),
    game_case(
        "bataille-corse: a wrong slap gives a card to each other player, going round from the left",
        ["7S 2S", "7H 3H", "4C"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 2", "2 slaps double", "2 takes 7S 7H by slap"),
        step("slap 2", "2 wrong slap, gives 0:4C 1:7S", hands=[["2S", "4C"], ["3H", "7S"], ["7H"]]),
        preset="bataille-corse",
    ),
    # ---- simultaneous and late slaps
    game_case(
        "tie=split: slappers inside the window share the pile, earliest first",
        ["7S 2S", "4D 3D", "7H 5H"],
        step("flip @0", "0 turns 7S"),
        step("flip @1000", "1 turns 4D"),
        step("flip @2000", "2 turns 7H"),
        step("slap 1 @2300 #3", "1 slaps sandwich", pile=["7S", "4D", "7H"]),
        step("slap 0 @2350 #3", "0 slaps sandwich"),
        step("slap 1 @2360 #3", "1 slap dismissed (already_sharing)"),
        step(
            "slap 2 @2450 #3",
            "1 takes 7S 4D 7H by slap, shares 1:2 0:1",
            "2 slap dismissed (late)",
            hands=[["2S", "7H"], ["3D", "7S", "4D"], ["5H"]],
            pile=[],
            burned=[],
            turn=1,
            tricks=1,
        ),
        changes={"slapping.tie": "split", "slapping.tie_window_ms": 100},
    ),
    game_case(
        "tie=split: a wait after the window hands out the shares",
        ["7S 2S", "4D 3D", "7H 5H"],
        step("flip @0", "0 turns 7S"),
        step("flip @1000", "1 turns 4D"),
        step("flip @2000", "2 turns 7H"),
        step("slap 2 @2300", "2 slaps sandwich"),
        step("slap 0 @2400", "0 slaps sandwich"),
        step(
            "wait @3000",
            "2 takes 7S 4D 7H by slap, shares 2:2 0:1",
            hands=[["2S", "7H"], ["3D"], ["5H", "7S", "4D"]],
            turn=2,
        ),
        changes={"slapping.tie": "split", "slapping.tie_window_ms": 100},
    ),
    game_case(
        "tie=first: the earliest correct slap takes the pile at once",
        ["7S 2S", "4D 3D", "7H 5H"],
        step("flip @0", "0 turns 7S"),
        step("flip @1000", "1 turns 4D"),
        step("flip @2000", "2 turns 7H"),
        step("slap 1 @2300 #3", "1 slaps sandwich", "1 takes 7S 4D 7H by slap"),
        step("slap 0 @2350 #3", "0 slap dismissed (late)", hands=[["2S"], ["3D", "7S", "4D", "7H"], ["5H"]]),
        changes={"slapping.tie_window_ms": 100},
    ),
    game_case(
        "a slap whose card belongs to an already-won pile is dismissed without penalty",
        ["7S 2S 3S", "7H 4H 5H"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0 #2", "0 slaps double", "0 takes 7S 7H by slap"),
        step("slap 1 #2", "1 slap dismissed (late)", hands=[["2S", "3S", "7S", "7H"], ["4H", "5H"]], burned=[]),
        step("flip", "0 turns 2S"),
        step("slap 1 #3", "1 wrong slap, burns 4H", burned=["4H"]),
    ),
    game_case(
        "a slap without a card number after the pile moved is judged on the new pile",
        ["7S 2S 3S", "7H 4H 5H"],
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H"),
        step("slap 0", "0 slaps double", "0 takes 7S 7H by slap"),
        step("slap 1", "1 wrong slap, burns 4H"),
    ),
    # ---- the end
    game_case(
        "time_limit_s: the first action past the limit ends the game, most cards wins",
        ["7S 2S 3S 4S", "7H 5H"],
        step("flip @0", "0 turns 7S"),
        step("flip @1000", "1 turns 7H"),
        step("slap 0 @2000", "0 slaps double", "0 takes 7S 7H by slap"),
        step("flip @10000", "0 turns 2S"),
        step("flip @10001", "game over: win 0", cards=3, pile=["2S"], result="win", winner=0),
        changes={"end.time_limit_s": 10},
    ),
    game_case(
        "time_limit_s: equal stacks are a draw",
        ["2S 3S", "4H 5H"],
        step("flip @10001", "game over: draw", cards=0, result="draw", winner=None),
        changes={"end.time_limit_s": 10},
    ),
    game_case(
        "time_limit_s: a slap past the limit ends the game too",
        ["7S 2S", "7H 5H 6H"],
        step("flip @0", "0 turns 7S"),
        step("flip @100", "1 turns 7H"),
        step("slap 0 @20000", "game over: win 1", pile=["7S", "7H"], result="win", winner=1),
        changes={"end.time_limit_s": 10},
    ),
    game_case(
        "end.max_cards: the game stops with the result limit",
        ["2S 3S 4S", "5H 6H 7H"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 5H"),
        step("flip", "0 turns 3S", "game over: limit", cards=3, result="limit", winner=None),
        changes={"end.max_cards": 3},
    ),
]


@pytest.mark.parametrize("case", GAME_CASES)
def test_game_case(case: GameCase) -> None:
    check_game_case(case)


# ---------------------------------------------------------------------------------------------------- the rest


def test_worked_example_events_are_exact() -> None:
    """The worked example once more, against the event objects themselves rather than their summaries."""
    a, b = parse_cards("QH AC TC 4S 6H 2C"), parse_cards("6S JD 3D 7C KS")
    game = Game(Rules.build(), [a, b])
    events = [e for _ in range(10) for e in game.apply(Flip())]
    assert events[-1] == ChallengeWon(1, ChallengeWin.PAID)
    assert [e for e in events if isinstance(e, ChallengeOpened)] == [
        ChallengeOpened(0, a[0], 1, 2, False),
        ChallengeOpened(1, b[1], 0, 1, True),
        ChallengeOpened(0, a[1], 1, 4, True),
        ChallengeOpened(1, b[4], 0, 3, True),
    ]
    assert game.collect_pending == 1
    pile = list(game.pile)
    assert game.apply(Wait()) == (PileWon(1, WonBy.CHALLENGE, tuple(pile), ((1, 10),)),)
    assert list(game.stacks[1]) == pile
    assert list(game.stacks[0]) == parse_cards("2C")


@pytest.mark.parametrize("seed", [0, 1, 42, 2024])
def test_three_players_get_18_17_17_from_a_seeded_deal(seed: int) -> None:
    rules = Rules.build()
    game = Game.from_seed(rules, 3, seed)
    assert [len(s) for s in game.stacks] == [18, 17, 17]
    shuffled = seeded_shuffle(list(FULL_DECK), seed)
    assert [list(s) for s in game.stacks] == deal(shuffled, 3)
    # One card at a time from seat 0: the first three cards of the shuffle top seats 0, 1 and 2.
    assert [s[0] for s in game.stacks] == shuffled[:3]
    assert sorted(map(str, (c for s in game.stacks for c in s))) == sorted(map(str, FULL_DECK))
    assert game.turn == 0


def test_deal_gives_the_extra_cards_to_the_first_seats() -> None:
    assert [len(h) for h in deal(FULL_DECK, 3)] == [18, 17, 17]
    assert [len(h) for h in deal(FULL_DECK, 5)] == [11, 11, 10, 10, 10]
    assert [len(h) for h in deal(FULL_DECK, 2)] == [26, 26]
    hands = deal(FULL_DECK, 3)
    assert hands[0][:2] == [FULL_DECK[0], FULL_DECK[3]]
    assert hands[2][-1] == FULL_DECK[50]
    assert hands[0][-1] == FULL_DECK[51]


def test_seven_players_play_with_two_decks() -> None:
    game = Game.from_seed(Rules.build(), 7, 5)
    assert sum(len(s) for s in game.stacks) == 104
    assert [len(s) for s in game.stacks] == [15, 15, 15, 15, 15, 15, 14]


def test_give_each_two_cards_to_each_other_player() -> None:
    rules = Rules.build("standard", {"slapping.penalty": "give-each", "slapping.penalty_cards": 2})
    game = Game(rules, [parse_cards("5S 6S"), parse_cards("7H 8H 9H JH QH"), parse_cards("9C TC")])
    (event,) = game.apply(Slap(1))
    assert isinstance(event, WrongSlap)
    assert sorted(seat for seat, _ in event.given) == [0, 0, 2, 2]
    assert [str(c) for c in game.stacks[1]] == ["QH"]
    assert len(game.stacks[0]) == len(game.stacks[2]) == 4
    # Received cards go under the receiver's stack.
    assert [str(c) for c in list(game.stacks[0])[:2]] == ["5S", "6S"]
    assert [str(c) for c in list(game.stacks[2])[:2]] == ["9C", "TC"]


def test_no_action_after_the_game_is_over() -> None:
    game = Game(Rules.build("standard", {"end.max_cards": 1}), [parse_cards("2S"), parse_cards("3H")])
    game.apply(Flip())
    assert game.over
    with pytest.raises(IllegalAction, match="over"):
        game.apply(Flip())


def test_a_seat_that_is_out_cannot_slap() -> None:
    game = Game(Rules.build(), [parse_cards("5S 6S"), parse_cards("7H"), parse_cards("8C")])
    game.apply(Flip())
    game.apply(Flip())
    game.apply(Slap(1))
    assert game.out == [False, True, False]
    with pytest.raises(IllegalAction, match="out"):
        game.apply(Slap(1))
    with pytest.raises(IllegalAction, match="does not exist"):
        game.apply(Slap(3))


def test_times_must_not_go_back_and_slaps_cannot_react_to_unturned_cards() -> None:
    game = Game(Rules.build(), [parse_cards("7S 2S"), parse_cards("7H 3H")])
    game.apply(Flip(1000))
    with pytest.raises(IllegalAction, match="earlier"):
        game.apply(Flip(999))
    with pytest.raises(IllegalAction, match="before that card was turned"):
        game.apply(Slap(1, 1000, 2))
    assert game.cards == 1
    assert len(game.actions) == 1  # refused actions leave no trace


@pytest.mark.parametrize(
    ("hands", "changes", "message"),
    [
        pytest.param(["7S 2S", "7S"], {}, "7S 2 times", id="a card twice in one deck"),
        pytest.param(["X 2S", "3H"], {}, "X 1 times", id="a joker without jokers in the deck"),
        pytest.param(["X X X", "3H"], {"deck.jokers": 2}, "X 3 times", id="three jokers, two in the deck"),
        pytest.param(["7 2S", "3H"], {}, "7 has no suit", id="a bare rank"),
        pytest.param(["", ""], {}, "no cards", id="nothing dealt"),
        pytest.param(["2S"], {}, "2 to 12 players", id="one player"),
        pytest.param(["2S"] + [""] * 12, {}, "2 to 12 players", id="thirteen players"),
    ],
)
def test_bad_deals_are_refused(hands: list[str], changes: dict[str, object], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Game(Rules.build("standard", changes), [parse_cards(h, bare_rank=True) for h in hands])


def test_seven_seats_deal_from_two_decks_so_a_card_may_come_twice() -> None:
    hands = [parse_cards("7S 7S"), *(parse_cards(f"{r}C") for r in "23456"), []]
    game = Game(Rules.build(), hands)  # 7 seats: two decks
    assert game.deck.decks == 2
    with pytest.raises(NotationError, match="7S 2 times"):
        Game(Rules.build(), hands[:6])  # 6 seats: one deck
