"""The C kernel and the Python modules agree on every rules key and every value, one by one, and on the
names by which they exchange the configuration, the events and the results.

The values are enumerated, not drawn: a key or a value added to the rules that the kernel was not taught
either sends the games to Python, with the reason in the summary, or (if the kernel played it without
knowing it) makes the two sides disagree here.
"""

from __future__ import annotations

import importlib
import zlib

import pytest

from ratscrew import kernels
from ratscrew.lab import kernel
from ratscrew.lab.simulate import game_seed, simulate
from ratscrew.rules import OPTIONS, Rules
from ratscrew.rules.options import Option, Value, needs_met

LEVELS = ["easy", "medium:risk-3", "hard", "easy:risk-faces"]
MAX_CARDS = 300


@pytest.fixture(autouse=True)
def kernel_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(kernels.PURE_PYTHON_ENV, raising=False)


def values_of(opt: Option) -> list[Value]:
    """Every value a key takes, or its ends and default for a range (card limits kept low for Python)."""
    if opt.key == "end.max_cards":
        return [1, 2, MAX_CARDS]
    if opt.kind == "bool":
        return [True, False]
    if opt.kind == "choice":
        return list(opt.choices)
    return sorted({opt.minimum, int(opt.default), (opt.minimum + opt.maximum) // 2, opt.maximum})


def rules_with(opt: Option, value: Value) -> Rules:
    """Standard with ``opt`` set to ``value``, and what it needs set so that it applies."""
    changes: dict[str, object] = {"end.max_cards": MAX_CARDS, opt.key: value}
    if opt.needs is not None and not needs_met(opt, Rules.build().values()):
        changes[opt.needs.key] = opt.needs.values[0]
    return Rules.build("standard", changes)


CASES = [pytest.param(opt, value, id=f"{opt.key}={value}") for opt in OPTIONS for value in values_of(opt)]


@pytest.mark.parametrize(("opt", "value"), CASES)
def test_every_rules_value_plays_the_same_games_or_goes_to_python(opt: Option, value: Value) -> None:
    rules = rules_with(opt, value)
    reason = kernel.covers(rules, LEVELS)
    if reason is not None:
        # The kernel does not play it: that must be said, and the lab must fall back to Python.
        assert opt.key in reason
        assert kernel.player(rules, LEVELS).fallback == reason
        return
    for i in range(2):
        seed = game_seed(zlib.crc32(f"{opt.key}={value}".encode()), i)
        python = kernel.play_python(rules, LEVELS, seed, want_hash=True)
        assert kernel.play_c(rules, LEVELS, seed, want_hash=True) == python, (opt.key, value, seed)


def test_the_kernel_plays_every_rules_key_and_value_there_is() -> None:
    not_played = [f"{o.key}={v}" for o in OPTIONS for v in values_of(o) if kernel.covers(rules_with(o, v), LEVELS)]
    assert not_played == []


def test_a_key_the_kernel_does_not_know_sends_the_lab_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module(kernel.MODULE)
    known = {k: v for k, v in module.RULE_VALUES.items() if k != "slaps.flush"}
    monkeypatch.setattr(module, "RULE_VALUES", known)
    reason = "rules key slaps.flush (the kernel does not know it)"
    assert kernel.covers(Rules.build("standard"), LEVELS) == reason  # even at its default: it was never taught
    summary = simulate(Rules.build("standard"), ["medium", "easy"], 2, seed=5, workers=1)
    assert (summary.kernel, summary.kernel_fallback) == ("python", reason)


def test_a_value_the_kernel_does_not_play_sends_the_lab_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module(kernel.MODULE)
    narrower = dict(module.RULE_VALUES) | {"slapping.penalty": ("burn", "give-each", "none")}
    monkeypatch.setattr(module, "RULE_VALUES", narrower)
    assert kernel.covers(Rules.build("standard"), LEVELS) is None
    lockout = Rules.build("standard", {"slapping.penalty": "lockout"})
    assert kernel.covers(lockout, LEVELS) == "slapping.penalty = lockout (the kernel does not play it)"
    narrower["challenge.A"] = (1, 4)
    assert kernel.covers(Rules.build("standard", {"challenge.A": 5}), LEVELS) == (
        "challenge.A = 5 (the kernel does not play it)"
    )


def test_the_kernel_lists_what_it_reads_by_name() -> None:
    module = importlib.import_module(kernel.MODULE)
    rule_keys = [o.key for o in OPTIONS]
    assert list(module.CONFIG_FIELDS[: len(rule_keys)]) == rule_keys == list(module.RULE_VALUES)
    assert kernel.kernel_mismatch(module) is None
    packed = kernel.config(Rules.build("standard"), ["medium"] * 3)
    assert len(packed) == 8 * (len(module.CONFIG_FIELDS) + 3 * len(module.SEAT_FIELDS))


@pytest.mark.parametrize(
    ("attribute", "change", "says"),
    [
        ("ENUMS", lambda e: e | {"DismissReason": ("late", "already_sharing")}, "numbers DismissReason"),
        ("ENUMS", lambda e: e | {"patterns": tuple(reversed(e["patterns"]))}, "numbers patterns"),
        ("RULE_VALUES", lambda v: v | {"slaps.rainbow": (0, 1)}, "rules key slaps.rainbow"),
    ],
)
def test_a_kernel_built_from_other_sources_is_named_not_misread(
    monkeypatch: pytest.MonkeyPatch, attribute: str, change: object, says: str
) -> None:
    module = importlib.import_module(kernel.MODULE)
    assert callable(change)
    monkeypatch.setattr(module, attribute, change(getattr(module, attribute)))
    reason = kernel.covers(Rules.build("standard"), LEVELS)
    assert reason is not None and says in reason
    with pytest.raises(kernel.KernelMismatch, match=says):
        kernel.config(Rules.build("standard"), LEVELS)


@pytest.mark.parametrize("attribute", ["CONFIG_FIELDS", "SEAT_FIELDS"])
def test_a_field_either_side_lacks_is_named(monkeypatch: pytest.MonkeyPatch, attribute: str) -> None:
    module = importlib.import_module(kernel.MODULE)
    fields = getattr(module, attribute)
    monkeypatch.setattr(module, attribute, (*fields[:-1], "something_new"))
    with pytest.raises(kernel.KernelMismatch, match="something_new"):
        kernel.config(Rules.build("standard"), LEVELS)


@pytest.mark.parametrize(
    "changes",
    [
        {"slapping.penalty": "lockout", "slapping.lockout_cards": 2, "slapping.once_per_card": True},
        {"slapping.penalty": "lockout-pile", "slaps.burned_count": True, "slaps.wildcard": "Q"},
        {"slapping.penalty": "give-pile", "players.leader": "left", "slaps.bigmac": True, "slaps.flush": 3},
        {"slapping.penalty_from": "bottom", "slapping.penalty_cards": 3, "slaps.six_nine": True},
        {"slapping.penalty": "give-each", "slapping.penalty_from": "bottom", "slapping.once_per_card": True},
        {"slaps.ten": "ace-one", "slaps.top_bottom_ten": True, "challenge.A": 5, "challenge.J": 0},
    ],
    ids=["lockout", "lockout-pile", "give-pile", "bottom-burn", "bottom-give", "tens-and-demands"],
)
def test_house_rule_mixes_many_seeds(changes: dict[str, object]) -> None:
    rules = Rules.build("standard", {**changes, "end.max_cards": 600})
    for i in range(8):
        levels = LEVELS[: 2 + i % 3] if i % 2 else ["easy:risk-2", "medium", "expert", "easy"]
        python = kernel.play_python(rules, levels, game_seed(29, i), want_hash=True)
        assert kernel.play_c(rules, levels, game_seed(29, i), want_hash=True) == python, (changes, i)


def test_slapjack_plays_the_same_games() -> None:
    rules = Rules.build("slapjack", {"end.max_cards": 800})
    for i in range(6):
        python = kernel.play_python(rules, LEVELS, game_seed(31, i), want_hash=True)
        assert kernel.play_c(rules, LEVELS, game_seed(31, i), want_hash=True) == python


# The rules other programs play (tests/test_peer_rules.py), each value against its default on the same seeds, in
# games where it comes up: the kernel plays them exactly, and they change some game (else nothing was proved).
PEER_RULES = (
    [
        pytest.param(
            {"slaps.marriage": True, "slaps.divorce": True}, "slaps.marriage_suits", v, id=f"marriage_suits={v}"
        )
        for v in ("same-colour", "same-suit")
    ]
    + [
        pytest.param({}, "players.leader", "next", id="leader=next"),
        pytest.param({"slapping.penalty": "give-pile"}, "players.leader", "next", id="leader=next,give-pile"),
        pytest.param({"players.slap_in": False}, "players.leader", "next", id="leader=next,out-is-out"),
    ]
    + [
        pytest.param(
            {"slapping.once_per_card": True, **penalty}, "slapping.once_per_card_scope", "table", id=f"table,{name}"
        )
        for name, penalty in (
            ("burn", {}),
            ("give-each", {"slapping.penalty": "give-each"}),
            ("lockout-pile", {"slapping.penalty": "lockout-pile"}),
        )
    ]
)


@pytest.mark.parametrize(("base", "key", "value"), PEER_RULES)
def test_the_peer_rules_play_the_same_games_in_c(base: dict[str, object], key: str, value: object) -> None:
    # Players who slap on what the pile holds (risk-*) slap wrong often, several on one card: what the table scope
    # of one penalty per card is about.
    levels = ["easy:risk-faces", "medium", "easy:risk-2", "hard", "easy"]
    changed = Rules.build("standard", {**base, key: value, "end.max_cards": 600})
    default = Rules.build("standard", {**base, "end.max_cards": 600})
    differs = 0
    for i in range(6):
        seed = game_seed(zlib.crc32(f"{key}={value}".encode()), i)
        python = kernel.play_python(changed, levels, seed, want_hash=True)
        assert kernel.play_c(changed, levels, seed, want_hash=True) == python, (key, value, seed)
        differs += python != kernel.play_python(default, levels, seed, want_hash=True)
    assert differs, f"{key}={value} changed none of these games: they prove nothing about it"
