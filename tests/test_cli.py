"""The command line exactly as docs/commands.md describes it, run as a real subprocess.

Every command exits 0 on success and 2 on bad input, with one line on stderr that starts with
``ratscrew: error:`` (never a traceback), and prints JSON on stdout with ``--json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from harness.rules_md import DEFAULTS, PRESET_CHANGES
from ratscrew.bmn import random_deal
from ratscrew.cards import Card
from ratscrew.engine import Flip, Game
from ratscrew.rules import PRESETS, Rules, load_rules
from ratscrew.shuffle import SeededRandom

PAULHUS = ["------------KAQ----J------", "-JQQK---K----JK--QA-A-JA--"]
MANN_WU = ["K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--"]
CASELLA_LOOP = ["---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA"]

EXAMPLE_RECORD = {
    "format": "ratscrew-record/1",
    "rules": {"preset": "standard", "slaps": {"top_bottom": True}},
    "players": ["Ann", "Bob", "Cat"],
    "hands": [["7S", "KD", "2C"], ["9H", "QS"], ["7C", "4D"]],
    "first": 0,
    "actions": ["flip", "flip", {"slap": 2}, "flip", "wait"],
}
EXAMPLE_STATE = {
    "status": "playing",
    "result": None,
    "winner": None,
    "hands": [["KD", "2C"], ["QS"], []],
    "pile": ["7S", "9H", "4D"],
    "burned": ["7C"],
    "out": [],
    "turn": 0,
    "owed": 0,
    "collect_pending": None,
    "cards": 3,
    "tricks": 0,
}
STATE_KEYS = set(EXAMPLE_STATE)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ratscrew", *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def ok(*args: str, stdin: str | None = None) -> str:
    proc = run(*args, stdin=stdin)
    assert proc.returncode == 0, f"ratscrew {' '.join(args)} exited {proc.returncode}: {proc.stderr}"
    assert "Traceback" not in proc.stderr
    return proc.stdout


def ok_json(*args: str, stdin: str | None = None) -> dict[str, Any]:
    out = ok(*args, "--json", stdin=stdin)
    doc = json.loads(out)
    assert isinstance(doc, dict)
    return doc


def bad(*args: str, stdin: str | None = None) -> str:
    """Runs a command that must fail on bad input; returns its one error line."""
    proc = run(*args, stdin=stdin)
    assert proc.returncode == 2, f"ratscrew {' '.join(args)} exited {proc.returncode}: {proc.stdout} {proc.stderr}"
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    assert lines[0].startswith("ratscrew: error:"), lines[0]
    return lines[0]


def write_record(tmp_path: Path, doc: object, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def bmn_expected(hands: list[str]) -> dict[str, object]:
    """What the readable engine says about a deal in the published notation."""
    numbers = iter(Card.parse(f"{r}{s}") for r in "23456789T" for s in "SHDC")
    courts = {ch: iter([Card.parse(f"{ch}{s}") for s in "SHDC"]) for ch in "JQKA"}
    game = Game(Rules.build("beggar"), [[next(numbers) if ch == "-" else next(courts[ch]) for ch in h] for h in hands])
    while not game.over:
        game.apply(Flip())
    assert game.outcome is not None
    loop = game.outcome.loop
    if loop is not None:
        return {
            "result": "loop",
            "prefix_cards": loop.prefix_cards,
            "prefix_tricks": loop.prefix_tricks,
            "cycle_cards": loop.cycle_cards,
            "cycle_tricks": loop.cycle_tricks,
        }
    assert game.outcome.winner is not None
    return {"result": "win", "winner": game.outcome.winner + 1, "cards": game.cards, "tricks": game.tricks}


# ---------------------------------------------------------------------------------------------- check


def test_check_json_patterns() -> None:
    for pile in (["9", "7", "9"], ["9H", "7♠", "9♦"], ["9h", "7s", "9♣"]):
        doc = ok_json("check", *pile)
        assert (doc["slappable"], doc["patterns"]) == (True, ["sandwich"]), pile
    doc = ok_json("check", "9", "7", "6", "9")
    assert doc["slappable"] is False and doc["patterns"] == []
    assert ok_json("check", "10", "T")["patterns"] == ["double"]  # 10 and T are one rank
    assert ok_json("check", "qh", "Qs")["patterns"] == ["double"]  # case-insensitive
    assert ok_json("check", "7S")["slappable"] is False  # a single card is no pattern


def test_check_rules_and_sets() -> None:
    # Top-bottom is off by default, on in bicycle.
    assert ok_json("check", "5", "8", "2", "5H")["patterns"] == []
    assert ok_json("check", "--rules", "bicycle", "5", "8", "2", "5H")["patterns"] == ["top_bottom"]
    assert ok_json("check", "--set", "slaps.top_bottom=true", "5", "8", "2", "5H")["patterns"] == ["top_bottom"]
    # bicycle: ten with an Ace as one and a court card between, marriage, runs of 4 with wrap.
    assert ok_json("check", "--rules", "bicycle", "A", "K", "9")["patterns"] == ["ten_gap"]
    assert ok_json("check", "A", "K", "9")["slappable"] is False
    assert ok_json("check", "--rules", "bicycle", "K", "Q")["patterns"] == ["marriage"]
    assert ok_json("check", "--rules", "bicycle", "Q", "K", "A", "2")["patterns"] == ["run"]
    assert ok_json("check", "--rules", "bicycle", "Q", "K", "A", "2", "--set", "slaps.run_wrap=false")["patterns"] == []
    # Several changes at once; every matching key is listed.
    doc = ok_json(
        "check", "--set", "slaps.run=3", "--set", "slaps.ten=numbers", "--set", "slaps.top_bottom=true", "4", "6", "4"
    )
    assert sorted(doc["patterns"]) == ["sandwich", "ten", "top_bottom"]
    assert ok_json("check", "--set", "slaps.run=3", "4", "5", "6")["patterns"] == ["run"]
    assert ok_json("check", "--set", "slaps.double=false", "7", "7")["slappable"] is False
    assert ok_json("check", "--set", "deck.jokers=1", "7", "X")["patterns"] == ["joker"]
    assert ok_json("check", "--rules", "beggar", "7", "7")["slappable"] is False


def test_check_readable_line() -> None:
    out = ok("check", "9", "7", "9")
    assert len(out.splitlines()) == 1 and "sandwich" in out and not out.lstrip().startswith("{")
    out = ok("check", "9", "7", "6", "9")
    assert len(out.splitlines()) == 1 and "not slappable" in out
    assert len(ok("check", "--rules", "bicycle", "A", "K", "9").splitlines()) == 1


# ---------------------------------------------------------------------------------------------- bmn


def test_bmn_published_records() -> None:
    assert (
        ok("bmn", *PAULHUS, "--json") == json.dumps({"result": "win", "winner": 1, "cards": 4791, "tricks": 670}) + "\n"
    )
    assert (
        ok("bmn", *MANN_WU, "--json")
        == json.dumps({"result": "win", "winner": 2, "cards": 7157, "tricks": 1007}) + "\n"
    )
    assert ok_json("bmn", *CASELLA_LOOP) == {
        "result": "loop",
        "prefix_cards": 34,
        "prefix_tricks": 4,
        "cycle_cards": 440,
        "cycle_tricks": 62,
    }
    text = ok("bmn", *PAULHUS)
    assert "4791" in text and "670" in text


def test_bmn_hands_are_never_options() -> None:
    text = "".join(PAULHUS)
    three = [text[:18], text[18:35], text[35:]]
    assert all(h.startswith("-") for h in three)
    assert ok("bmn", "--json", *three) == json.dumps(bmn_expected(three)) + "\n"
    # "--" is a hand of two number cards, not the end of the options.
    four = ["--", text[2:20], text[20:36], text[36:]]
    assert four[0] == "--" and all(h.startswith("-") for h in four)
    assert ok_json("bmn", *four) == bmn_expected(four)
    # The loop deal: both hands start with '-'.
    assert ok_json("bmn", CASELLA_LOOP[0], "--json", CASELLA_LOOP[1]) == ok_json("bmn", *CASELLA_LOOP)


def test_bmn_random() -> None:
    first = ok_json("bmn", "--random", "40", "--seed", "9")
    assert set(first) == {
        *("games", "seed", "seconds", "games_per_s", "mean_cards", "max_cards", "loops", "kernel", "mean_tricks"),
        *("winner_share", "winner_share_se", "percentiles", "longest_deal"),
        *("mean_cards_se", "mean_cards_ci95", "mean_tricks_se", "mean_tricks_ci95", "winner_share_ci95"),
    }
    assert first["games"] == 40
    assert isinstance(first["seconds"], int | float) and first["seconds"] >= 0
    assert isinstance(first["games_per_s"], int | float) and first["games_per_s"] > 0
    again = ok_json("bmn", "--random", "40", "--seed", "9")
    for key in ("games", "mean_cards", "max_cards", "loops"):
        assert first[key] == again[key]
    # The same deals, played by the readable engine.
    rng = SeededRandom(9)
    results = [
        bmn_expected([h.translate(str.maketrans("01234", "-JQKA")) for h in random_deal(rng, 2)]) for _ in range(40)
    ]
    ended = [int(str(r["cards"])) for r in results if r["result"] == "win"]
    assert first["loops"] == 40 - len(ended)
    assert first["max_cards"] == max(ended)
    assert first["mean_cards"] == pytest.approx(sum(ended) / len(ended), abs=0.01)
    other = ok_json("bmn", "--random", "40", "--seed", "10")
    assert (other["mean_cards"], other["max_cards"]) != (first["mean_cards"], first["max_cards"])


# ---------------------------------------------------------------------------------------------- replay


def test_replay_contract_example(tmp_path: Path) -> None:
    path = write_record(tmp_path, EXAMPLE_RECORD)
    assert ok_json("replay", path) == EXAMPLE_STATE
    assert ok("replay", path, "--json") == json.dumps(EXAMPLE_STATE) + "\n"
    assert ok_json("replay", "-", stdin=json.dumps(EXAMPLE_RECORD)) == EXAMPLE_STATE
    # Long-form actions mean the same.
    long_form = dict(
        EXAMPLE_RECORD,
        actions=[
            {"act": "flip", "t": 100},
            {"act": "flip", "t": 900},
            {"act": "slap", "seat": 2, "t": 1200, "card": 2},
            {"act": "flip", "t": 2000},
            {"act": "wait", "t": 2500},
        ],
    )
    assert ok_json("replay", "-", stdin=json.dumps(long_form)) == EXAMPLE_STATE
    text = ok("replay", path)
    assert text.strip() and not text.lstrip().startswith("{")


def test_replay_play_out(tmp_path: Path) -> None:
    # Ann turns KD; Bob pays with QS (his last card), so Ann owes 2; she turns 2C and has no more: Bob wins
    # the pile, collects it with the next flip and holds all seven cards.
    state = ok_json("replay", write_record(tmp_path, EXAMPLE_RECORD), "--play-out")
    assert set(state) == STATE_KEYS
    assert (state["status"], state["result"], state["winner"]) == ("over", "win", 1)
    assert state["hands"] == [[], ["7C", "7S", "9H", "4D", "KD", "QS", "2C"], []]
    assert (state["pile"], state["burned"], state["cards"], state["tricks"]) == ([], [], 6, 1)
    assert (state["owed"], state["collect_pending"]) == (0, None)


def test_replay_play_out_loop_and_limit(tmp_path: Path) -> None:
    numbers = iter(f"{r}{s}" for r in "23456789T" for s in "SHDC")
    courts = {ch: iter([f"{ch}{s}" for s in "SHDC"]) for ch in "JQKA"}
    hands = [[next(numbers) if ch == "-" else next(courts[ch]) for ch in h] for h in CASELLA_LOOP]
    record = {"format": "ratscrew-record/1", "rules": "beggar", "seats": 2, "hands": hands, "actions": []}
    state = ok_json("replay", write_record(tmp_path, record, "loop.json"), "--play-out")
    assert (state["status"], state["result"], state["winner"]) == ("over", "loop", None)
    assert (state["cards"], state["tricks"]) == (34 + 440, 4 + 62)
    limited = {
        "format": "ratscrew-record/1",
        "rules": {"preset": "standard", "end": {"max_cards": 25}},
        "seats": 3,
        "seed": 42,
        "actions": ["flip"] * 5,
    }
    state = ok_json("replay", write_record(tmp_path, limited, "limit.json"))
    assert (state["status"], state["cards"]) == ("playing", 5)
    assert sum(len(h) for h in state["hands"]) + len(state["pile"]) + len(state["burned"]) == 52
    state = ok_json("replay", write_record(tmp_path, limited, "limit.json"), "--play-out")
    assert (state["status"], state["result"], state["cards"]) == ("over", "limit", 25)


def test_replay_time_limit_and_short_card_names(tmp_path: Path) -> None:
    # time_limit_s ends the game at the first action past the limit; the most cards in a stack wins.
    rules = {"preset": "standard", "end": {"time_limit_s": 1}}
    two_flips: list[object] = [{"act": "flip", "t": 0}, {"act": "flip", "t": 500}]
    timed = {**EXAMPLE_RECORD, "rules": rules, "actions": [*two_flips, {"act": "wait", "t": 1000}]}
    state = ok_json("replay", write_record(tmp_path, timed, "timed.json"))
    assert (state["status"], state["cards"]) == ("playing", 2)
    # Ann 2 cards, Bob 1, Cat 2: a tie for the most is a draw.
    timed = {**timed, "actions": [*two_flips, {"act": "wait", "t": 1000}, {"act": "wait", "t": 1001}]}
    state = ok_json("replay", write_record(tmp_path, timed, "timed.json"))
    assert (state["status"], state["result"], state["winner"]) == ("over", "draw", None)
    # Cat's wrong slap burns 7C: now Ann alone has the most.
    actions = [*two_flips, {"act": "slap", "seat": 2, "t": 600}, {"act": "flip", "t": 1500}]
    state = ok_json("replay", write_record(tmp_path, {**timed, "actions": actions}, "timed.json"))
    assert (state["status"], state["result"], state["winner"], state["cards"]) == ("over", "win", 0, 2)
    assert "action 4" in bad("replay", write_record(tmp_path, {**timed, "actions": [*actions, "wait"]}))
    # Any accepted spelling comes back in the short form.
    spelled = {
        "format": "ratscrew-record/1",
        "rules": {"preset": "standard", "deck": {"jokers": 1}},
        "seats": 2,
        "hands": [["10♦", "k♠"], ["x", "2h"]],
        "actions": [],
    }
    assert ok_json("replay", write_record(tmp_path, spelled, "spelled.json"))["hands"] == [["TD", "KS"], ["X", "2H"]]
    bare = {**spelled, "hands": [["10", "K"], ["X", "2H"]]}
    bad("replay", write_record(tmp_path, bare, "bare.json"))  # a dealt card needs a suit


# ---------------------------------------------------------------------------------------------- rules


def test_rules_list() -> None:
    lines = ok("rules").splitlines()
    for name in PRESETS:
        assert any(line.split()[0] == name for line in lines if line.strip()), name


def test_rules_show_loads_back(tmp_path: Path) -> None:
    text = ok("rules", "show", "bicycle")
    doc = tomllib.loads(text)
    assert doc["preset"] == "bicycle"
    bicycle = Rules.build("bicycle")
    flat = {
        f"{section}.{name}": value
        for section, table in doc.items()
        if isinstance(table, dict)
        for name, value in table.items()
    }
    assert flat == bicycle.values()  # every key, with bicycle's values
    path = tmp_path / "bicycle.toml"
    path.write_text(text, encoding="utf-8")
    assert load_rules(str(path)) == bicycle
    assert ok_json("rules", "show", str(path)) == ok_json("rules", "show", "bicycle")
    # --rules FILE behaves as the preset does.
    assert ok_json("check", "--rules", str(path), "A", "K", "9")["patterns"] == ["ten_gap"]
    assert ok_json("check", "--rules", str(path), "K", "Q")["patterns"] == ["marriage"]
    changed = ok("rules", "show", "bicycle", "--set", "slaps.run=3")
    assert tomllib.loads(changed)["slaps"]["run"] == 3
    json_file = tmp_path / "rules.json"
    json_file.write_text(json.dumps({"preset": "standard", "slaps": {"run": 4}}), encoding="utf-8")
    assert ok_json("check", "--rules", str(json_file), "4", "5", "6", "7")["patterns"] == ["run"]
    assert ok_json("check", "--rules", str(json_file), "5", "6", "7")["patterns"] == []


@pytest.mark.parametrize("preset", sorted(PRESET_CHANGES))
def test_rules_show_presets_are_the_rules_md_table(preset: str) -> None:
    doc = tomllib.loads(ok("rules", "show", preset))
    flat = {
        f"{section}.{name}": value
        for section, table in doc.items()
        if isinstance(table, dict)
        for name, value in table.items()
    }
    assert flat == DEFAULTS | PRESET_CHANGES[preset]


def test_rules_explain() -> None:
    out = ok("rules", "explain", "slaps.run")
    assert out.startswith("slaps.run")
    assert "0, 3, 4" in out


# ---------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args",
    [
        ["check", "7S", "1X"],
        ["check", "7S", "11"],
        ["check", "7S", "7Z"],
        ["check"],
        ["check", "7S", "7S"],  # more copies than one deck holds
        ["check", "7", "7", "7", "7", "7"],
        ["check", "7", "X"],  # no jokers in the deck
        ["check", "--rules", "no-such-preset", "7", "7"],
        ["check", "--set", "noequals", "7", "7"],
    ],
)
def test_bad_cards_and_rules_names(args: list[str]) -> None:
    bad(*args)


def test_unknown_rules_key_and_bad_values_name_the_key(tmp_path: Path) -> None:
    assert "slaps.nope" in bad("check", "--set", "slaps.nope=1", "7", "7")
    error = bad("check", "--set", "slaps.run=5", "7", "7")
    assert "slaps.run" in error and "0, 3, 4" in error
    error = bad("check", "--set", "slaps.double=maybe", "7", "7")
    assert "slaps.double" in error and "true" in error and "false" in error
    error = bad("check", "--set", "slapping.penalty=shout", "7", "7")
    assert "slapping.penalty" in error and "give-each" in error
    assert "slaps.ten_gap" in bad("check", "--set", "slaps.ten_gap=court", "7", "7")
    assert "slaps.nope" in bad("rules", "explain", "slaps.nope")
    toml_file = tmp_path / "bad.toml"
    toml_file.write_text('preset = "standard"\n[slaps]\nnope = true\n', encoding="utf-8")
    assert "nope" in bad("check", "--rules", str(toml_file), "7", "7")
    toml_file.write_text('preset = "standard"\n[slaps]\nrun = 7\n', encoding="utf-8")
    assert "slaps.run" in bad("check", "--rules", str(toml_file), "7", "7")
    toml_file.write_text("this is [not toml\n", encoding="utf-8")
    bad("check", "--rules", str(toml_file), "7", "7")


@pytest.mark.parametrize("value", ["²", "①", "٣", "9" * 5000])
def test_numbers_are_ascii_digits_of_a_sane_length(tmp_path: Path, value: str) -> None:
    """``str.isdigit`` takes superscripts and circled digits, which ``int`` then refuses with its own message."""
    error = bad("check", "--set", f"slaps.run={value}", "7", "7")
    assert "slaps.run cannot be" in error and "0, 3, 4" in error and len(error) < 200
    for suffix, body in ((".toml", f"[slaps]\nrun = {value}\n"), (".json", f'{{"slaps": {{"run": {value}}}}}')):
        if value.isascii():
            path = tmp_path / f"big{suffix}"
            path.write_text(body, encoding="utf-8")
            assert "more than 4300 digits" in bad("check", "--rules", str(path), "7", "7")


@pytest.mark.parametrize(
    "hands",
    [
        [PAULHUS[0], PAULHUS[1][:-1]],  # a card short
        [PAULHUS[0], PAULHUS[1] + "-"],  # a card too many
        [PAULHUS[0], PAULHUS[1][:-1] + "K"],  # a fifth King
        [PAULHUS[0], PAULHUS[1][:-1] + "7"],  # not the notation
        [PAULHUS[0] + PAULHUS[1]],  # one hand
        ["--json"],  # no hands at all
    ],
)
def test_bmn_bad_hands(hands: list[str]) -> None:
    bad("bmn", *hands)


def test_bmn_bad_random() -> None:
    bad("bmn", "--random", "x", "--json")
    bad("bmn", "--random", "0")


@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        ({**EXAMPLE_RECORD, "format": "ratscrew-record/2"}, "format"),
        ({key: value for key, value in EXAMPLE_RECORD.items() if key != "format"}, "format"),
        ({**EXAMPLE_RECORD, "actions": ["flip", "jump"]}, "action 1"),
        ({**EXAMPLE_RECORD, "actions": ["flip", {"slap": -1}]}, "action 1"),
        ({**EXAMPLE_RECORD, "actions": ["flip", "flip", {"act": "slap", "seat": "Cat"}]}, "action 2"),
        ({**EXAMPLE_RECORD, "actions": [{"act": "dance"}]}, "action 0"),
        ({**EXAMPLE_RECORD, "actions": ["flip", {"slap": 7}]}, "action 1"),  # no such seat
        ({**EXAMPLE_RECORD, "hands": [["7S", "KD", "2C"], ["9H", "QS"], ["7C", "1X"]]}, "1X"),
        ({**EXAMPLE_RECORD, "hands": [["7S", "KD", "2C"], ["9H", "QS"], ["7C", "7S"]]}, "7S"),
        ({**EXAMPLE_RECORD, "rules": {"preset": "standard", "slaps": {"nope": True}}}, "nope"),
        ({**EXAMPLE_RECORD, "rules": {"preset": "standard", "slaps": {"run": 5}}}, "slaps.run"),
        ({**EXAMPLE_RECORD, "rules": "no-such-preset"}, "no-such-preset"),
        ([1, 2, 3], "ratscrew-record/1"),
        ({**EXAMPLE_RECORD, "actions": [{"act": "flip", "t": 500}, {"act": "flip", "t": 100}]}, "action 1"),
        ({**EXAMPLE_RECORD, "actions": ["flip", {"act": "slap", "seat": 1, "card": 99}]}, "action 1"),
        ({**EXAMPLE_RECORD, "actions": [{"slap": True}]}, "action 0"),
    ],
)
def test_replay_broken_records(tmp_path: Path, doc: object, fragment: str) -> None:
    assert fragment in bad("replay", write_record(tmp_path, doc))


def test_replay_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "ratscrew-record/1", "hands": [', encoding="utf-8")
    bad("replay", str(path))
    bad("replay", "-", stdin="not json at all")
    assert "action 1" in bad("replay", "-", stdin=json.dumps({**EXAMPLE_RECORD, "actions": ["flip", "jump"]}))
    bad("replay", str(tmp_path / "missing.json"))


def test_replay_action_after_game_over(tmp_path: Path) -> None:
    # Ann turns KS, Bob pays his only card and runs out: Ann wins the pile, the wait collects it and she holds
    # every card. The game is over; the flip at index 3 is not allowed.
    doc = {
        "format": "ratscrew-record/1",
        "rules": "standard",
        "players": ["Ann", "Bob"],
        "hands": [["KS"], ["2C"]],
        "actions": ["flip", "flip", "wait"],
    }
    state = ok_json("replay", write_record(tmp_path, doc, "over.json"))
    assert (state["status"], state["result"], state["winner"], state["hands"]) == ("over", "win", 0, [["KS", "2C"], []])
    assert "action 3" in bad("replay", write_record(tmp_path, {**doc, "actions": ["flip", "flip", "wait", "flip"]}))
    assert "action 3" in bad(
        "replay", write_record(tmp_path, {**doc, "actions": ["flip", "flip", "wait", {"slap": 1}]})
    )


def test_replay_slap_by_a_seat_that_is_out(tmp_path: Path) -> None:
    # out-is-out: Ann turns her only card, Bob and Cat play, and when play comes back Ann is out.
    doc = {
        "format": "ratscrew-record/1",
        "rules": "out-is-out",
        "players": ["Ann", "Bob", "Cat"],
        "hands": [["7S"], ["8S", "9S"], ["2C", "3C"]],
        "actions": ["flip", "flip", "flip"],
    }
    state = ok_json("replay", write_record(tmp_path, doc, "out.json"))
    assert state["out"] == [0] and state["turn"] == 1
    assert "action 3" in bad(
        "replay", write_record(tmp_path, {**doc, "actions": ["flip", "flip", "flip", {"slap": 0}]})
    )


def test_replay_text_counts_one_card_in_the_singular(tmp_path: Path) -> None:
    record = {
        "format": "ratscrew-record/1",
        "rules": {"preset": "standard", "slapping": {"penalty": "lockout", "lockout_cards": 1}},
        "players": ["Ann", "Bob"],
        "hands": [["7S", "2C", "3D"], ["9H", "5S"]],
        "actions": ["flip", "flip", {"slap": 1}],
    }
    path = tmp_path / "one.json"
    path.write_text(json.dumps(record))
    text = ok("replay", str(path))
    assert "2 cards turned, 0 piles won" in text
    assert "Ann: 2 cards" in text
    assert "Bob (locked out for 1 more card): 1 card\n" in text
