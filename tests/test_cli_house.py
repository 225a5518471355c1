"""The house rules through the command line, as docs/commands.md describes it: ``check`` names every new
pattern, ``replay`` plays every new penalty, ``rules show slapjack`` prints the preset, and bad values name
the allowed ones with exit 2. In process, through Click's runner (tests/test_cli.py runs the commands as
real subprocesses; these only add house rules to them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from harness.rules_md import DEFAULTS, PRESET_CHANGES
from ratscrew.cli import main
from tests.test_cli import write_record


def ok(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, f"ratscrew {' '.join(args)} exited {result.exit_code}: {result.stderr}"
    return result.stdout


def ok_json(*args: str) -> dict[str, Any]:
    doc = json.loads(ok(*args, "--json"))
    assert isinstance(doc, dict)
    return doc


def bad(*args: str) -> str:
    """A command that must fail on bad input: exit 2 and one line on stderr, which is returned."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ratscrew: error:"), lines
    return lines[0]


def test_check_names_every_house_pattern() -> None:
    assert ok_json("check", "--set", "slaps.bigmac=true", "7", "2", "K", "7")["patterns"] == ["bigmac"]
    assert ok_json("check", "--set", "slaps.flush=3", "2H", "7H", "9H")["patterns"] == ["flush"]
    assert ok_json("check", "--set", "slaps.flush=3", "2", "7", "9")["slappable"] is False
    assert ok_json("check", "--set", "slaps.wildcard=10", "5", "10")["patterns"] == ["wildcard"]
    assert ok_json("check", "--set", "slaps.six_nine=true", "9", "6")["patterns"] == ["six_nine"]
    tens = ("--set", "slaps.ten=numbers", "--set", "slaps.top_bottom_ten=true")
    assert ok_json("check", *tens, "3", "5", "K", "7")["patterns"] == ["top_bottom_ten"]
    assert ok_json("check", "--rules", "slapjack", "4", "J")["patterns"] == ["wildcard"]
    assert "slappable: wildcard: J is on top" in ok("check", "--rules", "slapjack", "4", "J")


def test_rules_show_slapjack() -> None:
    doc = ok_json("rules", "show", "slapjack")
    flat = {f"{s}.{k}": v for s, table in doc.items() if isinstance(table, dict) for k, v in table.items()}
    assert doc["preset"] == "slapjack"
    assert flat == DEFAULTS | PRESET_CHANGES["slapjack"]
    assert 'wildcard = "J"' in ok("rules", "show", "slapjack")


def test_rules_explain_in_another_language() -> None:
    out = ok("rules", "explain", "slapping.penalty", "--lang", "de")
    assert "lockout: für einige Karten gesperrt" in out
    doc = ok_json("rules", "explain", "slapping.lockout_cards")
    assert doc["needs"] == {"key": "slapping.penalty", "values": ["lockout"]}


def test_replay_a_lockout_and_a_given_pile(tmp_path: Path) -> None:
    record = {
        "format": "ratscrew-record/1",
        "rules": {"preset": "standard", "slapping": {"penalty": "lockout", "lockout_cards": 3}},
        "players": ["Ann", "Bob"],
        "hands": [["7S", "KD", "2C"], ["9H", "7H"]],
        "actions": ["flip", {"slap": 1}, "flip", {"slap": 1}],
    }
    state = ok_json("replay", write_record(tmp_path, record))
    # Bob's wrong slap cost nothing; his second slap, locked out, changed nothing.
    assert (state["hands"], state["pile"], state["burned"]) == ([["KD", "2C"], ["7H"]], ["7S", "9H"], [])
    assert "Bob (locked out for 2 more cards): 1 card\n" in ok("replay", write_record(tmp_path, record))
    # Under give-pile each of Bob's wrong slaps hands Ann the pile (7S, then her KD), and she leads again.
    record["rules"] = {"slapping": {"penalty": "give-pile"}}
    given = ok_json("replay", write_record(tmp_path, record))
    assert given["hands"] == [["2C", "7S", "KD"], ["9H", "7H"]] and given["tricks"] == 2 and given["turn"] == 0


def test_replay_penalties_from_the_bottom_once_per_card(tmp_path: Path) -> None:
    record = {
        "format": "ratscrew-record/1",
        "rules": {"slapping": {"penalty_from": "bottom", "once_per_card": True}},
        "seats": 2,
        "hands": [["2S", "3S"], ["5H", "6H", "7H"]],
        "actions": ["flip", {"slap": 1}, {"slap": 1}],
    }
    state = ok_json("replay", write_record(tmp_path, record))
    assert (state["hands"], state["burned"]) == ([["3S"], ["5H", "6H"]], ["7H"])


def test_bad_house_values_name_the_allowed_ones() -> None:
    assert "burn, give-each, none, lockout, lockout-pile, give-pile" in bad(
        "check", "--set", "slapping.penalty=lock", "7"
    )
    assert "an integer from 1 to 20" in bad("check", "--set", "slapping.lockout_cards=0", "7")
    assert "off, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A" in bad("check", "--set", "slaps.wildcard=1", "7")
    assert "set slaps.ten to numbers or ace-one" in bad("check", "--set", "slaps.top_bottom_ten=true", "7")
    assert "an integer from 0 to 5" in bad("check", "--set", "challenge.A=6", "7")
