"""The house rules tables play beyond the classic ones, case by case: Big Mac, flushes, a wildcard rank,
six-nine, top-bottom tens, lockouts, giving the pile away, penalties from the bottom of the stack, one
penalty per card, challenges of 0 to 5 cards and the Slapjack preset.

The tables use the notation of harness/casebook.py. Each case is a worked example of docs/rules.md.
"""

from __future__ import annotations

import pytest

from harness.casebook import GameCase, check_game_case, check_pattern_case, game_case, pattern_case, step
from ratscrew.cards import parse_cards
from ratscrew.engine import Flip, Game, Slap
from ratscrew.engine.events import DismissReason, SlapDismissed
from ratscrew.engine.view import view_for
from ratscrew.record import state_json
from ratscrew.rules import Rules

BIGMAC = {"slaps.bigmac": True}
FLUSH3 = {"slaps.flush": 3}
FLUSH4 = {"slaps.flush": 4}
TEN_WILD = {"slaps.wildcard": 10}
SIX_NINE = {"slaps.six_nine": True}
TB_TEN = {"slaps.ten": "numbers", "slaps.top_bottom_ten": True}

PATTERN_CASES = [
    # Big Mac: the top card and the fourth from the top, two cards between.
    pattern_case("standard", BIGMAC, "7 2 K 7", ["bigmac"]),
    pattern_case("standard", BIGMAC, "9 7 2 K 7", ["bigmac"], "only the top four count"),
    pattern_case("standard", BIGMAC, "7 2 7", ["sandwich"], "one card between is a sandwich"),
    pattern_case("standard", BIGMAC, "7 2 K Q 7", [], "three cards between is nothing"),
    pattern_case("standard", BIGMAC, "7 2 K 7 3", [], "a covered Big Mac is gone"),
    pattern_case("standard", BIGMAC, "7 7 7 7", ["double", "sandwich", "bigmac"]),
    pattern_case("standard", {}, "7 2 K 7", [], "off by default"),
    pattern_case("standard", BIGMAC, "X 2 K X", ["joker"], "two jokers make no Big Mac"),
    # Flushes: suits, for once.
    pattern_case("standard", FLUSH3, "2H 7H 9H", ["flush"]),
    pattern_case("standard", FLUSH3, "KS 2H 7H 9H", ["flush"], "the top three only"),
    pattern_case("standard", FLUSH3, "2H 7H 9D", []),
    pattern_case("standard", FLUSH3, "7H 9H", [], "a flush of three needs three cards"),
    pattern_case("standard", FLUSH3, "2 7 9", [], "bare ranks have no suit"),
    pattern_case("standard", FLUSH3, "2H X 9H", [], "a joker has no suit"),
    pattern_case("standard", FLUSH4, "KS 2H 7H 9H", [], "a flush of four needs four"),
    pattern_case("standard", FLUSH4, "KH 2H 7H 9H", ["flush"]),
    pattern_case("standard", {**FLUSH3, "slaps.run": 3}, "4H 5H 6H", ["run", "flush"], "a straight flush is both"),
    pattern_case("standard", FLUSH3, "7H 7D 7S", ["double", "sandwich"], "ranks alike, suits not"),
    # A wildcard rank: that rank on top.
    pattern_case("standard", TEN_WILD, "5 10", ["wildcard"]),
    pattern_case("standard", TEN_WILD, "10", ["wildcard"], "a lone 10 is enough"),
    pattern_case("standard", TEN_WILD, "10 5", [], "a covered 10 is gone"),
    pattern_case("standard", {**TEN_WILD, "slaps.ten": "numbers"}, "10", ["wildcard"], "and still no ten"),
    pattern_case("standard", {"slaps.wildcard": "T"}, "2 T", ["wildcard"], "T is 10"),
    pattern_case("standard", {"slaps.wildcard": "Q"}, "4 Q", ["wildcard"]),
    pattern_case("standard", {"slaps.wildcard": "Q"}, "Q Q", ["double", "wildcard"]),
    pattern_case("slapjack", {}, "5 J", ["wildcard"]),
    pattern_case("slapjack", {}, "J", ["wildcard"]),
    pattern_case("slapjack", {}, "7 7", [], "Slapjack has no doubles"),
    pattern_case("slapjack", {}, "J 5", [], "a covered Jack is gone"),
    pattern_case("slapjack", {}, "5 X", [], "no joker slap either"),
    # Six-nine: a 6 and a 9 side by side.
    pattern_case("standard", SIX_NINE, "6 9", ["six_nine"]),
    pattern_case("standard", SIX_NINE, "4 9 6", ["six_nine"], "either order"),
    pattern_case("standard", SIX_NINE, "6 5 9", [], "side by side only"),
    pattern_case("standard", SIX_NINE, "9 9", ["double"]),
    pattern_case("standard", {**SIX_NINE, "slaps.ten": "numbers"}, "6 9", ["six_nine"], "15 is no ten"),
    # Top-bottom ten: the top card and the first face-up card add up to 10, on a pile of three or more.
    pattern_case("standard", TB_TEN, "3 5 K 7", ["top_bottom_ten"]),
    pattern_case("standard", TB_TEN, "3 5 7", ["top_bottom_ten"]),
    pattern_case("standard", TB_TEN, "3 7", ["ten"], "two cards are a plain ten"),
    pattern_case("standard", TB_TEN, "5 2 5", ["sandwich", "top_bottom_ten"]),
    pattern_case("standard", TB_TEN, "A 5 K 9", [], "an Ace is no number"),
    pattern_case("standard", {**TB_TEN, "slaps.ten": "ace-one"}, "A 5 K 9", ["top_bottom_ten"], "unless it counts 1"),
    pattern_case("standard", TB_TEN, "K 5 2 K", [], "Kings have no value"),
    pattern_case("standard", TB_TEN, "X 5 2 X", ["joker"], "nor jokers"),
    pattern_case("standard", {**TB_TEN, "slaps.top_bottom": True}, "3 5 K 3", ["top_bottom"]),
    pattern_case("standard", {**TB_TEN, "slaps.top_bottom": True}, "3 5 K 7", ["top_bottom_ten"]),
]


@pytest.mark.parametrize(("preset", "changes", "pile", "expected"), PATTERN_CASES)
def test_pattern_case(preset: str, changes: dict[str, object], pile: str, expected: list[str]) -> None:
    check_pattern_case(preset, changes, pile, expected)


LOCKOUT4 = {"slapping.penalty": "lockout", "slapping.lockout_cards": 4}
PILE_LOCK = {"slapping.penalty": "lockout-pile"}
GIVE_PILE = {"slapping.penalty": "give-pile"}

GAME_CASES = [
    # ---- challenges of 0 to 5 cards
    game_case(
        "a Jack demanding 0 is played like a number card",
        ["JS 2S", "4H 5H"],
        step("flip", "0 turns JS", turn=1, owed=0),
        step("flip", "1 turns 4H", turn=0, owed=0),
        changes={"challenge.J": 0},
    ),
    game_case(
        "a Jack demanding 0 does not cancel a debt being paid",
        ["KS 2S", "JH 4H 5H 6H"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns JH", owed=2, turn=1),
        step("flip", "1 turns 4H", owed=1, turn=1),
        step("flip", "1 turns 5H", "0 wins the challenge (paid)", collect_pending=0),
        changes={"challenge.J": 0},
    ),
    game_case(
        "a joker may demand 5",
        ["X 2S", "3H 4H 5H 6H 7H 8H"],
        step("flip", "0 turns X", "1 owes 5 to 0", owed=5),
        changes={"deck.jokers": 1, "challenge.joker": 5, "slaps.joker": False},
    ),
    game_case(
        "an Ace may demand 5: the fifth number card loses the challenge",
        ["AS 2S", "3H 4H 5H 6H 7H 8H"],
        step("flip", "0 turns AS", "1 owes 5 to 0"),
        step("flip", "1 turns 3H"),
        step("flip", "1 turns 4H"),
        step("flip", "1 turns 5H"),
        step("flip", "1 turns 6H", owed=1),
        step("flip", "1 turns 7H", "0 wins the challenge (paid)"),
        changes={"challenge.A": 5, "slaps.run": 0},
    ),
    # ---- Slapjack
    game_case(
        "slapjack: a Jack on top takes the pile, court cards demand nothing",
        ["5S JS 2S", "KH 4H 6H"],
        step("flip", "0 turns 5S"),
        step("flip", "1 turns KH", owed=0, turn=0),
        step("flip", "0 turns JS"),
        step("slap 1", "1 slaps wildcard", "1 takes 5S KH JS by slap", hands=[["2S"], ["4H", "6H", "5S", "KH", "JS"]]),
        preset="slapjack",
    ),
    game_case(
        "slapjack: a slap on anything else burns a card",
        ["5S JS 2S", "KH 4H 6H"],
        step("flip", "0 turns 5S"),
        step("flip", "1 turns KH"),
        step("slap 0", "0 wrong slap, burns JS", burned=["JS"]),
        preset="slapjack",
    ),
    game_case(
        "slapjack: an empty player who lets a Jack go is out",
        ["5S JS 2S", "KH", "4C 6C 7C"],
        step("flip", "0 turns 5S"),
        step("flip", "1 turns KH"),
        step("flip", "2 turns 4C"),
        step("flip", "0 turns JS"),
        step("slap 2", "2 slaps wildcard", "1 out (missed_slap)", "2 takes 5S KH 4C JS by slap", out=[1]),
        preset="slapjack",
    ),
    # ---- lockouts
    game_case(
        "lockout: a wrong slap costs no card, and a locked-out slap on a pattern does not count",
        ["2S 7S 4S 8S", "3H 7H 9H 5H"],
        step("flip", "0 turns 2S"),
        step(
            "slap 1", "1 wrong slap", burned=[], hands=[["7S", "4S", "8S"], ["3H", "7H", "9H", "5H"]], locked=[None, 4]
        ),
        step("flip", "1 turns 3H", locked=[None, 3]),
        step("flip", "0 turns 7S"),
        step("flip", "1 turns 7H", locked=[None, 1]),
        step("slap 1", "1 slap dismissed (locked_out)", pile=["2S", "3H", "7S", "7H"], locked=[None, 1]),
        step("slap 0", "0 slaps double", "0 takes 2S 3H 7S 7H by slap", locked=[None, 1]),
        step("flip", "0 turns 4S", locked=[None, None]),
        step("slap 1", "1 wrong slap", locked=[None, 4]),
        changes=LOCKOUT4,
    ),
    game_case(
        "lockout: a late slap is late before it is locked out",
        ["7S 2S 3S", "7H 4H 5H"],
        step("flip", "0 turns 7S"),
        step("slap 1", "1 wrong slap", locked=[None, 4]),
        step("flip", "1 turns 7H"),
        step("slap 0 #2", "0 slaps double", "0 takes 7S 7H by slap"),
        step("slap 1 #2", "1 slap dismissed (late)"),
        step("slap 1", "1 slap dismissed (locked_out)", locked=[None, 3]),
        changes=LOCKOUT4,
    ),
    game_case(
        "lockout: a wrong slap with no cards still puts the slapper out",
        ["2S 3S", "4H"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 4H"),
        step("slap 1", "1 wrong slap", "1 out (wrong_slap)", "0 takes 2S 4H by last_in", "game over: win 0"),
        changes=LOCKOUT4,
    ),
    game_case(
        "lockout-pile: locked out until any pile is won",
        ["2S 5S 7S", "3H 5H 9H"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap", locked=[None, "pile"]),
        step("flip", "1 turns 3H"),
        step("flip", "0 turns 5S"),
        step("flip", "1 turns 5H"),
        step("slap 1", "1 slap dismissed (locked_out)"),
        step("slap 0", "0 slaps double", "0 takes 2S 3H 5S 5H by slap", locked=[None, None]),
        step("flip", "0 turns 7S"),
        step("slap 1", "1 wrong slap", locked=[None, "pile"]),
        changes=PILE_LOCK,
    ),
    game_case(
        "lockout-pile: a pile won by challenge ends the lockout too",
        ["JS 2S", "3H 4H 5H"],
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("slap 1", "1 wrong slap", locked=[None, "pile"]),
        step("flip", "1 turns 3H", "0 wins the challenge (paid)", locked=[None, "pile"]),
        step("wait", "0 takes JS 3H by challenge", locked=[None, None]),
        changes=PILE_LOCK,
    ),
    # ---- giving the pile away
    game_case(
        "give-pile: the pile goes to the slapper's left, who leads",
        ["2S 4S", "3H 5H", "6C 7C"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 3H"),
        step(
            "slap 2",
            "2 wrong slap",
            "0 is given 2S 3H",
            hands=[["4S", "2S", "3H"], ["5H"], ["6C", "7C"]],
            pile=[],
            turn=0,
            tricks=1,
        ),
        changes=GIVE_PILE,
    ),
    game_case(
        "give-pile: with two players the opponent takes it",
        ["2S 4S", "3H 5H"],
        step("flip", "0 turns 2S"),
        step("slap 0", "0 wrong slap", "1 is given 2S", hands=[["4S"], ["3H", "5H", "2S"]], turn=1),
        changes=GIVE_PILE,
    ),
    game_case(
        "give-pile: with an empty pile nothing happens",
        ["2S 4S", "3H 5H"],
        step("slap 1", "1 wrong slap", hands=[["2S", "4S"], ["3H", "5H"]], tricks=0, turn=0),
        changes=GIVE_PILE,
    ),
    game_case(
        "give-pile: the leader rule applies, as for a pile won",
        ["2S 4S", "3H 5H", "6C 7C"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap", "2 is given 2S", turn=0),
        changes={**GIVE_PILE, "players.leader": "left"},
    ),
    game_case(
        "give-pile: a pile given during a challenge ends it",
        ["KS 2S", "3H 4H 5H", "6C"],
        step("flip", "0 turns KS", "1 owes 3 to 0"),
        step("flip", "1 turns 3H"),
        step(
            "slap 2",
            "2 wrong slap",
            "0 is given KS 3H",
            owed=0,
            turn=0,
            hands=[["2S", "KS", "3H"], ["4H", "5H"], ["6C"]],
        ),
        changes=GIVE_PILE,
    ),
    game_case(
        "give-pile: a wrong slap by the winner of a waiting pile gives it away",
        ["JS 2S", "3H 4H", "6C 7C"],
        step("flip", "0 turns JS", "1 owes 1 to 0"),
        step("flip", "1 turns 3H", "0 wins the challenge (paid)", collect_pending=0),
        step("slap 0", "0 wrong slap", "1 is given JS 3H", collect_pending=None, turn=1, tricks=1),
        changes=GIVE_PILE,
    ),
    game_case(
        "give-pile: a player who is out is passed over",
        ["2S", "3H 5H", "4C 6C"],
        step("flip", "0 turns 2S"),
        step("flip", "1 turns 3H"),
        step("flip", "2 turns 4C", "0 out (empty)", turn=1),
        step("slap 2", "2 wrong slap", "1 is given 2S 3H 4C", hands=[[], ["5H", "2S", "3H", "4C"], ["6C"]]),
        changes={**GIVE_PILE, "players.slap_in": False},
    ),
    # ---- penalties from the bottom of the stack
    game_case(
        "penalty_from=bottom: the bottom card is burned",
        ["2S 3S 4S", "5H 6H 7H"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap, burns 7H", burned=["7H"], hands=[["3S", "4S"], ["5H", "6H"]]),
        changes={"slapping.penalty_from": "bottom"},
    ),
    game_case(
        "penalty_from=bottom: two cards, the bottom one first",
        ["2S 3S 4S", "5H 6H 7H"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap, burns 7H 6H", burned=["7H", "6H"], hands=[["3S", "4S"], ["5H"]]),
        changes={"slapping.penalty_from": "bottom", "slapping.penalty_cards": 2},
    ),
    game_case(
        "penalty_from=bottom: given cards come from the bottom too, going round from the left",
        ["2S 3S 4S", "5H", "6C"],
        step("slap 0", "0 wrong slap, gives 1:4S 2:3S", hands=[["2S"], ["5H", "4S"], ["6C", "3S"]]),
        changes={"slapping.penalty_from": "bottom", "slapping.penalty": "give-each"},
    ),
    # ---- one penalty per card
    game_case(
        "once_per_card: a second wrong slap on the same card is dismissed; the next card costs again",
        ["2S 3S 4S", "5H 6H 7H 8H"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap, burns 5H"),
        step("slap 1", "1 slap dismissed (once_per_card)", burned=["5H"], hands=[["3S", "4S"], ["6H", "7H", "8H"]]),
        step("slap 0", "0 wrong slap, burns 3S", burned=["5H", "3S"]),
        step("flip", "1 turns 6H"),
        step("slap 1", "1 wrong slap, burns 7H"),
        changes={"slapping.once_per_card": True},
    ),
    game_case(
        "without once_per_card every wrong slap pays",
        ["2S 3S 4S", "5H 6H 7H 8H"],
        step("flip", "0 turns 2S"),
        step("slap 1", "1 wrong slap, burns 5H"),
        step("slap 1", "1 wrong slap, burns 6H"),
    ),
]


@pytest.mark.parametrize("case", GAME_CASES)
def test_game_case(case: GameCase) -> None:
    check_game_case(case)


def test_a_dismissed_slap_changes_nothing_but_the_events() -> None:
    rules = Rules.build("standard", LOCKOUT4)
    game = Game(rules, [parse_cards("2S 7S 4S"), parse_cards("3H 7H 9H")])
    game.apply(Flip())
    game.apply(Slap(1))
    before = state_json(game), view_for(game).as_dict()
    assert game.apply(Slap(1)) == (SlapDismissed(1, DismissReason.LOCKED_OUT),)
    assert (state_json(game), view_for(game).as_dict()) == before
    assert view_for(game).as_dict()["locked"] == [None, 4]


def test_the_view_shows_every_kind_of_lockout() -> None:
    game = Game(Rules.build("standard", PILE_LOCK), [parse_cards("2S 7S"), parse_cards("3H 7H")])
    game.apply(Flip())
    game.apply(Slap(0))
    assert view_for(game).locked == ("pile", None)
    assert view_for(game, 1).as_dict()["locked"] == ["pile", None]
