"""Card notation, decks, the seeded shuffle and the rules value: reading, checking and writing them back."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from harness.rules_md import DEFAULTS, PRESET_CHANGES, settled
from ratscrew.cards import FULL_DECK, JOKER, Card, DeckSpec, Rank, Suit, format_cards, parse_cards
from ratscrew.errors import NotationError, RulesError
from ratscrew.patterns import enabled_patterns
from ratscrew.rules import (
    OPTIONS,
    OPTIONS_BY_KEY,
    PRESETS,
    SECTIONS,
    Rules,
    load_rules,
    parse_set,
    rules_from_mapping,
    rules_from_toml,
    rules_to_mapping,
    rules_to_toml,
)
from ratscrew.rules.options import Value
from ratscrew.shuffle import SeededRandom, seeded_shuffle

# ---------------------------------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "short"),
    [
        pytest.param("7S", "7S", id="plain"),
        pytest.param("TD", "TD", id="T for ten"),
        pytest.param("10D", "TD", id="10 for ten"),
        pytest.param("10♦", "TD", id="10 with a glyph"),
        pytest.param("t♠", "TS", id="lower t with a glyph"),
        pytest.param("qh", "QH", id="lower case"),
        pytest.param("kC", "KC", id="mixed case"),
        pytest.param("A♣", "AC", id="club glyph"),
        pytest.param("J♥", "JH", id="heart glyph"),
        pytest.param("7♤", "7S", id="outline spade"),
        pytest.param("9♡", "9H", id="outline heart"),
        pytest.param(" 2c ", "2C", id="surrounding spaces"),
        pytest.param("X", "X", id="joker"),
        pytest.param("x", "X", id="lower-case joker"),
    ],
)
def test_card_notation(text: str, short: str) -> None:
    card = Card.parse(text)
    assert str(card) == short
    assert Card.parse(short) is card


def test_every_card_round_trips_through_its_short_and_pretty_forms() -> None:
    assert len(set(FULL_DECK)) == 52
    for card in FULL_DECK:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.pretty) is card
        assert Card.parse(str(card).lower()) is card
    assert Card.parse(str(JOKER)) is JOKER


def test_card_fields_and_pretty_forms() -> None:
    assert Card.parse("10♦") == Card(Rank.TEN, Suit.DIAMONDS)
    assert Card.parse("10♦").pretty == "10♦"
    assert Card.parse("QS").pretty == "Q♠"
    assert JOKER.pretty == "Joker"
    assert JOKER.is_joker
    assert JOKER.suit is None
    assert not Card.parse("AS").is_joker
    assert [Rank(r).is_court for r in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)] == [
        False,
        True,
        True,
        True,
        True,
    ]


def test_bare_ranks_only_where_asked() -> None:
    seven = Card.parse("7", bare_rank=True)
    assert seven.rank is Rank.SEVEN
    assert seven.suit is None
    assert str(seven) == "7"
    assert str(Card.parse("10", bare_rank=True)) == "T"
    assert Card.parse("t", bare_rank=True) is Card.parse("10", bare_rank=True)
    with pytest.raises(NotationError, match="'7' is not a card"):
        Card.parse("7")


def test_parse_cards_accepts_spaces_commas_and_lists() -> None:
    expected = ["7S", "KD", "2C", "TH"]
    assert [str(c) for c in parse_cards("7S KD 2C 10H")] == expected
    assert [str(c) for c in parse_cards("7s,kd, 2c,T♥")] == expected
    assert [str(c) for c in parse_cards(["7S", "KD", "2C", "10H"])] == expected
    assert parse_cards("") == []
    assert format_cards(parse_cards("7♠ 10♦ X")) == "7S TD X"


@pytest.mark.parametrize("text", ["1S", "11H", "7Z", "", "XX", "10", "K♠♠", "JOKER", "10 S", "S7", "Q"])
def test_bad_cards_raise_notation_error_naming_the_input(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "expected" in message
    assert "\n" not in message


def test_a_bad_card_among_many_is_named() -> None:
    with pytest.raises(NotationError, match="'ZZ' is not a card"):
        parse_cards("7S ZZ 2C")


# ---------------------------------------------------------------------------------------------------- decks


def test_deck_spec_copies() -> None:
    seven, bare_seven = Card.parse("7S"), Card.parse("7", bare_rank=True)
    one, two = DeckSpec(), DeckSpec(decks=2)
    assert (one.copies(seven), one.copies(bare_seven), one.copies(JOKER)) == (1, 4, 0)
    assert (two.copies(seven), two.copies(bare_seven), two.copies(JOKER)) == (2, 8, 0)
    assert DeckSpec(1, 2).copies(JOKER) == 2
    assert DeckSpec(2, 1).copies(JOKER) == 2
    assert DeckSpec(2, 2).copies(JOKER) == 4


@pytest.mark.parametrize(("decks", "jokers", "size"), [(1, 0, 52), (1, 1, 53), (1, 2, 54), (2, 0, 104), (2, 2, 108)])
def test_deck_spec_cards(decks: int, jokers: int, size: int) -> None:
    spec = DeckSpec(decks, jokers)
    cards = spec.cards()
    assert spec.size == size
    assert len(cards) == size
    counts = Counter(cards)
    assert counts[JOKER] == decks * jokers
    assert all(counts[c] == decks for c in FULL_DECK)
    spec.check_counts(cards)  # the whole shoe is fine


@pytest.mark.parametrize(
    ("spec", "cards", "message"),
    [
        pytest.param(DeckSpec(), "7S 7S", "7S 2 times, but one deck holds it 1 time", id="one deck, 7S twice"),
        pytest.param(DeckSpec(2), "7S 7S 7S", "7S 3 times, but 2 decks holds it 2 times", id="two decks, 7S thrice"),
        pytest.param(DeckSpec(), "X", "X 1 times, but one deck holds it 0 times", id="joker without jokers"),
        pytest.param(DeckSpec(1, 2), "X X X", "X 3 times", id="three jokers, two in the deck"),
        pytest.param(DeckSpec(2, 1), "X X X", "X 3 times", id="three jokers, two decks of one"),
        pytest.param(DeckSpec(), "7 7 7 7 7", "7 5 times, but one deck holds it 4 times", id="five bare sevens"),
        pytest.param(DeckSpec(), "7 7 7 7S 7H", "5 cards of rank 7, but one deck holds 4", id="bare and suited sevens"),
    ],
)
def test_check_counts_rejects_too_many_copies(spec: DeckSpec, cards: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        spec.check_counts(parse_cards(cards, bare_rank=True))


@pytest.mark.parametrize(
    ("spec", "cards"),
    [
        pytest.param(DeckSpec(2), "7S 7S", id="two decks, 7S twice"),
        pytest.param(DeckSpec(1, 2), "X X", id="two jokers"),
        pytest.param(DeckSpec(2, 1), "X X", id="two decks of one joker"),
        pytest.param(DeckSpec(), "7 7 7 7", id="four bare sevens"),
        pytest.param(DeckSpec(), "7 7 7S", id="bare and suited sevens"),
        pytest.param(DeckSpec(2), "7 7 7 7 7S 7S 7H 7D", id="eight sevens in two decks"),
    ],
)
def test_check_counts_accepts_what_the_shoe_holds(spec: DeckSpec, cards: str) -> None:
    spec.check_counts(parse_cards(cards, bare_rank=True))


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (6, 1), (7, 2), (12, 2)])
def test_auto_decks(players: int, decks: int) -> None:
    assert Rules.build().deck_for(players) == DeckSpec(decks, 0)
    assert Rules.build("standard", {"deck.decks": 2}).deck_for(players) == DeckSpec(2, 0)
    assert Rules.build("standard", {"deck.decks": 1, "deck.jokers": 2}).deck_for(players) == DeckSpec(1, 2)


# ---------------------------------------------------------------------------------------------------- shuffle


def test_splitmix64_reference_values() -> None:
    # SplitMix64 seeded with 0 starts 0xE220A8397B1DCDAF, the published reference output.
    rng = SeededRandom(0)
    assert [rng.next_u64() for _ in range(3)] == [16294208416658607535, 7960286522194355700, 487617019471545679]
    assert SeededRandom(1).next_u64() == 10451216379200822465


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (0, [6, 3, 2, 9, 8, 1, 4, 7, 0, 5]),
        (1, [4, 2, 8, 1, 9, 3, 0, 6, 7, 5]),
        (42, [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]),
        (2**64 - 1, [3, 4, 2, 7, 5, 0, 8, 1, 9, 6]),
    ],
)
def test_seeded_shuffle_is_pinned(seed: int, expected: list[int]) -> None:
    items = list(range(10))
    assert seeded_shuffle(items, seed) == expected
    assert items == list(range(10))  # a copy is shuffled, not the argument


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (
            7,
            "5H 6S QD 4C 5D JD AC 7H 5C 8D TH 3S AH QC JS 3D 8S 5S 8C 3C JC TC 4S KD 3H 9H 7C 2S TS QH 7D 4H 4D 9D "
            "2D AD 7S 2C 8H 6D TD 6C KC 2H AS JH 9S QS 6H 9C KH KS",
        ),
        (
            2024,
            "2S 8H 6C QH KD AC 8D 7H JC 4H 8S 4D JD TC 9H QS AH 9S 7C 5C 7D 4S 6D QD 2H 5S AD 9C 6S KH TD 5H AS KS "
            "3H 3C JH QC 3S 3D JS 4C 6H KC 5D 7S 2C 2D 9D TH TS 8C",
        ),
    ],
)
def test_seeded_deck_shuffle_is_pinned(seed: int, expected: str) -> None:
    assert format_cards(seeded_shuffle(DeckSpec().cards(), seed)) == expected


def test_seeded_shuffle_of_a_deck_with_jokers_is_pinned() -> None:
    shuffled = seeded_shuffle(DeckSpec(1, 2).cards(), 3)
    assert format_cards(shuffled) == (
        "7S 2C 8D 4S 3D X 8S KS AD 5D AC 2H 4D AH QH 7H QC 2D 6C 3C TH 6H 6D JS 9S 5S 9D TC KD X 9C 8H 2S JD QD KC JH "
        "4C JC AS 7D QS 9H 6S 5C TD 3H KH 4H 5H 7C 3S TS 8C"
    )


def test_seeded_shuffle_keeps_every_item_and_rejects_negative_seeds() -> None:
    deck = DeckSpec(2, 1).cards()
    assert Counter(seeded_shuffle(deck, 99)) == Counter(deck)
    assert seeded_shuffle(deck, 99) == seeded_shuffle(deck, 99)
    assert seeded_shuffle(deck, 99) != seeded_shuffle(deck, 100)
    with pytest.raises(ValueError, match="non-negative"):
        SeededRandom(-1)


def test_seeded_below_stays_in_range() -> None:
    rng = SeededRandom(5)
    draws = [rng.below(3) for _ in range(300)]
    assert set(draws) == {0, 1, 2}
    floats = [rng.random() for _ in range(100)]
    assert all(0.0 <= f < 1.0 for f in floats)
    with pytest.raises(ValueError, match="positive"):
        rng.below(0)


# ---------------------------------------------------------------------------------------------------- rules


def test_defaults_are_those_of_rules_md() -> None:
    assert Rules.build().values() == DEFAULTS
    assert Rules() == Rules.build("standard")
    assert [o.key for o in OPTIONS] == list(DEFAULTS)


@pytest.mark.parametrize("name", list(PRESET_CHANGES))
def test_every_preset_builds_as_rules_md_says(name: str) -> None:
    rules = Rules.build(name)
    assert rules.preset == name
    values = rules.values()
    assert {k: v for k, v in values.items() if DEFAULTS[k] != v} == PRESET_CHANGES[name]
    assert rules.changes_from_preset() == {}


def test_every_preset_is_covered() -> None:
    assert set(PRESETS) == set(PRESET_CHANGES)


def test_preset_details() -> None:
    assert Rules.build("bicycle").slaps.run_wrap is True
    assert Rules.build("bicycle").slaps.joker is True
    assert not Rules.build("beggar").any_slap_enabled(jokers_in_play=True)
    assert Rules.build("standard").any_slap_enabled(jokers_in_play=False)
    assert Rules.build("BICYCLE") == Rules.build("bicycle")
    one_chance = Rules.build("one-chance")
    assert [one_chance.demand(Card.parse(c)) for c in ("JS", "QS", "KS", "AS", "TS")] == [1, 1, 1, 1, 0]
    standard = Rules.build()
    assert [standard.demand(Card.parse(c)) for c in ("JS", "QS", "KS", "AS", "2S", "X")] == [1, 2, 3, 4, 0, 0]
    assert Rules.build("standard", {"challenge.joker": 3}).demand(JOKER) == 3


def bad(key: str, value: object, named: str, allowed: str, case_id: str, *, as_text: bool = True) -> object:
    """A bad value (or key): the error must name ``named`` and say ``allowed``.

    ``as_text`` is False when the same value written on the command line is fine (``--set slaps.double=1``).
    """
    return pytest.param(key, value, named, allowed, as_text, id=case_id)


@pytest.mark.parametrize(
    ("key", "value", "named", "allowed", "as_text"),
    [
        bad("slaps.nope", 1, "'slaps.nope'", "known keys are challenge.J", "unknown key"),
        bad("slap.double", True, "'slap.double'", "slaps.double", "misspelt section"),
        bad("slaps.run", 5, "slaps.run", "allowed values are 0, 3, 4", "run of 5"),
        bad("slaps.run", True, "slaps.run", "allowed values are 0, 3, 4", "run as a boolean"),
        bad("slaps.double", "maybe", "slaps.double", "true or false", "bool as odd text"),
        bad("slaps.double", 1, "slaps.double", "true or false", "bool as a number", as_text=False),
        bad("slaps.ten", "eleven", "slaps.ten", "off, numbers, ace-one", "ten choice"),
        bad("slapping.penalty", "spank", "slapping.penalty", "burn, give-each, none", "penalty choice"),
        bad("slapping.penalty_cards", 4, "slapping.penalty_cards", "1, 2, 3", "penalty cards"),
        bad("slapping.tie_window_ms", 5000, "slapping.tie_window_ms", "from 0 to 1000", "window range"),
        bad("end.max_cards", -1, "end.max_cards", "from 0 to 100000000", "negative"),
        bad("end.max_cards", 1.5, "end.max_cards", "an integer", "a float"),
        bad("challenge.J", 6, "challenge.J", "from 0 to 5", "a Jack demanding six"),
        bad("challenge.joker", -1, "challenge.joker", "from 0 to 5", "a joker demanding less than nothing"),
        bad(
            "slapping.penalty",
            "spank",
            "slapping.penalty",
            "burn, give-each, none, lockout, lockout-pile, give-pile",
            "every penalty named",
        ),
        bad("slapping.lockout_cards", 0, "slapping.lockout_cards", "from 1 to 20", "a lockout of no cards"),
        bad("slapping.lockout_cards", 21, "slapping.lockout_cards", "from 1 to 20", "a lockout too long"),
        bad("slapping.penalty_from", "middle", "slapping.penalty_from", "top, bottom", "cards from the middle"),
        bad("slapping.once_per_card", "twice", "slapping.once_per_card", "true or false", "once per card"),
        bad("slaps.bigmac", "hamburger", "slaps.bigmac", "true or false", "bigmac"),
        bad("slaps.flush", 5, "slaps.flush", "0, 3, 4", "a flush of five"),
        bad("slaps.wildcard", "1", "slaps.wildcard", "off, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A", "rank 1"),
        bad("slaps.wildcard", "X", "slaps.wildcard", "10, J, Q, K, A", "the joker is no wildcard rank"),
        bad("slaps.six_nine", 69, "slaps.six_nine", "true or false", "six-nine", as_text=False),
        bad("slaps.top_bottom_ten", True, "slaps.top_bottom_ten", "numbers or ace-one", "top-bottom ten alone"),
        bad("deck.decks", 3, "deck.decks", "auto, 1, 2", "three decks"),
        bad("deck.jokers", "many", "deck.jokers", "0, 1, 2", "jokers as text"),
        bad("players.out_when", "sometimes", "players.out_when", "wrong-slap, missed-slap, never", "out_when choice"),
        bad("slaps.ten_gap", "court", "slaps.ten_gap", "numbers or ace-one", "ten_gap without ten"),
    ],
)
def test_bad_rules_name_the_key_and_what_is_allowed(
    key: str, value: object, named: str, allowed: str, as_text: bool
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.build("standard", {key: value})
    message = str(info.value)
    assert named in message
    assert allowed in message
    assert "\n" not in message
    # The same mistake in a rules document or on the command line reads the same way.
    with pytest.raises(RulesError, match=re.escape(named)):
        rules_from_mapping({"preset": "standard", key: value})
    section, name = key.split(".", 1)
    if section in SECTIONS:
        with pytest.raises(RulesError, match=re.escape(named)):
            rules_from_mapping({"preset": "standard", section: {name: value}})
    if as_text:
        text = json.dumps(value) if isinstance(value, bool) else str(value)
        with pytest.raises(RulesError, match=re.escape(named)):
            load_rules("standard", [f"{key}={text}"])


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError, match=r"unknown preset 'ratscrew'.*standard, bicycle, one-chance"):
        Rules.build("ratscrew")
    with pytest.raises(RulesError, match="standard, bicycle"):
        rules_from_mapping({"preset": "house"})


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        pytest.param(
            {"slaps": 3}, r"\[slaps\] must be a table of keys such as slaps\.double", id="section not a table"
        ),
        pytest.param({"preset": 3}, "preset must be a name, one of standard", id="preset not a name"),
        pytest.param(42, "must be a preset name or an object", id="not a mapping"),
        pytest.param({"foo": {"bar": 1}}, "unknown rules key 'foo'", id="unknown section"),
        pytest.param({"slaps": {"run": 4, "nope": 1}}, "unknown rules key 'slaps.nope'", id="unknown key in a table"),
    ],
)
def test_bad_rules_documents(doc: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_from_mapping(doc)


def test_text_values_are_read_as_the_command_line_writes_them() -> None:
    rules = load_rules(
        "standard",
        [
            "slaps.top_bottom=on",
            "slaps.double=no",
            "slaps.run=4",
            "deck.decks=AUTO",
            "slapping.penalty= give-each ",
            "deck.jokers=2",
            "slaps.marriage=1",
            "slaps.sandwich=False",
        ],
    )
    assert rules.slaps.top_bottom is True
    assert rules.slaps.double is False
    assert rules.slaps.sandwich is False
    assert rules.slaps.marriage is True
    assert rules.slaps.run == 4
    assert rules.deck.decks == "auto"
    assert rules.deck.jokers == 2
    assert rules.slapping.penalty == "give-each"
    assert load_rules(None, ["deck.decks=2"]).deck.decks == 2


@pytest.mark.parametrize(
    ("written", "value"),
    [("10", 10), ("T", 10), ("t", 10), (" 7 ", 7), ("j", "J"), ("J", "J"), ("a", "A"), ("OFF", "off")],
)
def test_a_wildcard_rank_is_read_as_people_write_it(written: str, value: Value) -> None:
    assert load_rules("standard", [f"slaps.wildcard={written}"]).slaps.wildcard == value
    assert rules_from_mapping({"slaps": {"wildcard": value}}).slaps.wildcard == value


def test_house_rules_from_the_command_line() -> None:
    rules = load_rules(
        "standard",
        [
            "slapping.penalty=lockout",
            "slapping.lockout_cards=3",
            "slapping.penalty_from=bottom",
            "slapping.once_per_card=yes",
            "slaps.bigmac=true",
            "slaps.flush=4",
            "slaps.six_nine=on",
            "slaps.ten=numbers",
            "slaps.top_bottom_ten=true",
            "challenge.J=0",
            "challenge.joker=5",
        ],
    )
    assert (rules.slapping.penalty, rules.slapping.lockout_cards, rules.slapping.penalty_from) == (
        "lockout",
        3,
        "bottom",
    )
    assert rules.slapping.once_per_card and rules.slaps.bigmac and rules.slaps.six_nine and rules.slaps.top_bottom_ten
    assert rules.slaps.flush == 4
    assert (rules.challenge.J, rules.challenge.joker) == (0, 5)
    assert rules.demand(Card.parse("JS")) == 0 and rules.demand(JOKER) == 5
    # A lockout's length is kept whatever the penalty: it only counts under a lockout.
    assert load_rules("standard", ["slapping.lockout_cards=9"]).slapping.lockout_cards == 9


def test_slapjack_has_no_challenges_and_slaps_only_jacks() -> None:
    rules = Rules.build("slapjack")
    assert [rules.demand(Card.parse(c)) for c in ("JS", "QS", "KS", "AS", "X")] == [0, 0, 0, 0, 0]
    assert [p.key for p in enabled_patterns(rules)] == ["wildcard"]
    assert rules.slaps.wildcard == "J"
    assert (rules.slapping.penalty, rules.slapping.penalty_cards, rules.players.out_when) == ("burn", 1, "missed-slap")


def test_set_strings_must_be_key_value() -> None:
    assert parse_set(["slaps.run=4", " slapping.tie = split"]) == {"slaps.run": "4", "slapping.tie": "split"}
    with pytest.raises(RulesError, match=re.escape("'slaps.run' is not key=value")):
        parse_set(["slaps.run"])
    with pytest.raises(RulesError, match="not key=value"):
        parse_set(["=4"])
    with pytest.raises(RulesError, match=re.escape("unknown rules key 'slaps.runs'")):
        parse_set(["slaps.runs=4"])


def test_set_strings_apply_on_top_of_a_preset() -> None:
    rules = load_rules("bicycle", ["slaps.run=3", "slapping.penalty=give-each", "slapping.penalty_cards=2"])
    assert rules.preset == "bicycle"
    assert rules.slaps.run == 3
    assert rules.slaps.ten == "ace-one"  # the rest of the preset stays
    assert rules.slapping.penalty_cards == 2
    assert rules.changes_from_preset() == {"slaps.run": 3, "slapping.penalty": "give-each", "slapping.penalty_cards": 2}
    assert load_rules("Bicycle") == Rules.build("bicycle")
    assert load_rules() == Rules.build()
    # Turning ten off on bicycle leaves its court gap with nothing to gap: that is an error, not a silent change.
    with pytest.raises(RulesError, match=re.escape("slaps.ten_gap needs slaps.ten")):
        load_rules("bicycle", ["slaps.ten=off"])
    assert load_rules("bicycle", ["slaps.ten=off", "slaps.ten_gap=off"]).slaps.ten == "off"


def _random_rules(rng: random.Random) -> Rules:
    preset = rng.choice(sorted(PRESETS))
    changes: dict[str, Value] = {}
    for opt in rng.sample(OPTIONS, rng.randint(1, 8)):
        if opt.kind == "bool":
            changes[opt.key] = rng.choice([True, False])
        elif opt.kind == "choice":
            changes[opt.key] = rng.choice(opt.choices)
        else:
            changes[opt.key] = rng.choice([opt.minimum, opt.maximum, rng.randint(opt.minimum, opt.maximum)])
    return Rules.build(preset, settled(preset, changes))


ROUND_TRIP_RULES = [pytest.param(Rules.build(name), id=name) for name in PRESETS] + [
    pytest.param(_random_rules(random.Random(seed)), id=f"random-{seed}") for seed in range(25)
]


@pytest.mark.parametrize("rules", ROUND_TRIP_RULES)
def test_rules_round_trip_through_toml_and_json(rules: Rules) -> None:
    text = rules_to_toml(rules)
    back = rules_from_toml(text)
    assert back == rules
    assert back.preset == rules.preset
    assert back.values() == rules.values()
    for opt in OPTIONS:  # every key is written, with what it means
        assert f"{opt.name} = " in text
        assert opt.summary in text

    mapping = rules_to_mapping(rules)
    assert mapping["preset"] == rules.preset
    assert rules_from_mapping(mapping) == rules
    assert rules_from_mapping(json.loads(json.dumps(mapping))) == rules
    full = rules_to_mapping(rules, full=True)
    assert rules_from_mapping(json.loads(json.dumps(full))) == rules
    assert sum(len(v) for k, v in full.items() if isinstance(v, dict)) == len(OPTIONS)


@pytest.mark.parametrize("rules", ROUND_TRIP_RULES)
def test_load_rules_from_files_and_set_strings(rules: Rules, tmp_path: Path) -> None:
    toml_file = tmp_path / "house.toml"
    toml_file.write_text(rules_to_toml(rules), encoding="utf-8")
    json_file = tmp_path / "house.json"
    json_file.write_text(json.dumps(rules_to_mapping(rules)), encoding="utf-8")
    assert load_rules(str(toml_file)) == rules
    assert load_rules(str(json_file)) == rules
    # The same rules as a preset plus one --set per changed key.
    sets = [f"{k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in rules.changes_from_preset().items()]
    assert load_rules(rules.preset, sets) == rules
    # And a --set on top of a file.
    changed = load_rules(str(toml_file), ["slapping.tie_window_ms=250"])
    assert changed.slapping.tie_window_ms == 250
    assert changed.values() == rules.values() | {"slapping.tie_window_ms": 250}


def test_mapping_only_writes_what_differs_from_the_preset() -> None:
    rules = Rules.build("bicycle", {"slapping.penalty_cards": 2, "slaps.run": 4})
    assert rules_to_mapping(rules) == {"preset": "bicycle", "slapping": {"penalty_cards": 2}}
    assert rules_to_mapping(Rules.build("beggar")) == {"preset": "beggar"}


def test_rules_documents_accept_dotted_keys_and_preset_names() -> None:
    assert rules_from_mapping({"preset": "standard", "slaps.run": 4}).slaps.run == 4
    assert rules_from_mapping("everything") == Rules.build("everything")
    assert rules_from_mapping({}) == Rules.build()
    assert rules_from_toml('preset = "one-chance"\n[slaps]\nrun = 3\n') == Rules.build("one-chance", {"slaps.run": 3})


def test_handwritten_rules_files(tmp_path: Path) -> None:
    toml_file = tmp_path / "table.toml"
    toml_file.write_text(
        'preset = "standard"\n\n[slaps]\ntop_bottom = true\nrun = 4\n\n[slapping]\npenalty = "give-each"\n',
        encoding="utf-8",
    )
    rules = load_rules(str(toml_file))
    assert rules.changes_from_preset() == {"slapping.penalty": "give-each", "slaps.top_bottom": True, "slaps.run": 4}
    json_file = tmp_path / "table.json"
    json_file.write_text(
        '{"preset": "bataille-corse", "players": {"leader": "left"}, "deck": {"jokers": 1}}', encoding="utf-8"
    )
    rules = load_rules(str(json_file))
    assert rules.preset == "bataille-corse"
    assert rules.players.leader == "left"
    assert rules.deck.jokers == 1
    assert rules.slapping.penalty == "give-each"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        pytest.param("bad.toml", "[slaps\nrun = 4\n", "is not valid TOML", id="broken TOML"),
        pytest.param("bad.json", '{"preset": "standard",', "is not valid JSON", id="broken JSON"),
        pytest.param(
            "run.toml",
            "[slaps]\nrun = 5\n",
            "slaps.run cannot be 5: allowed values are 0, 3, 4",
            id="TOML with a bad value",
        ),
        pytest.param("key.json", '{"slaps": {"runs": 4}}', "unknown rules key 'slaps.runs'", id="JSON with a bad key"),
        pytest.param(
            "type.toml",
            '[slaps]\ndouble = "yes please"\n',
            "slaps.double cannot be yes please",
            id="TOML with a bad type",
        ),
    ],
)
def test_bad_rules_files(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RulesError, match=message):
        load_rules(str(path))


def test_rules_argument_that_is_neither_preset_nor_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(RulesError, match=r"neither a preset .*standard.* nor a readable TOML or JSON file"):
        load_rules(str(missing))


def test_option_table_is_consistent() -> None:
    for opt in OPTIONS:
        assert OPTIONS_BY_KEY[opt.key] is opt
        assert opt.parse(opt.default) == opt.default
        assert opt.allowed_text()
