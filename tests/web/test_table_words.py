"""The table's words in every language: the player's own seat spoken to in the second person wherever a line is
about it, and French in one register (vous) throughout."""

from __future__ import annotations

import re

import pytest

from ratscrew.engine.events import ChallengeWin, DismissReason, OutReason, StopReason, WonBy
from ratscrew.i18n import LANGUAGES, catalog

# Every line the table says about one seat (format.js `describe`, table/verdicts.js, table/status.js...), by its
# key: each has a `.you` form for the player's own seat; those marked (pay) a `.you_pay` form too, for the
# player who pays; those marked (n) are counted (`.one`, `.other`).
ABOUT_A_SEAT: list[tuple[str, str]] = [
    ("event.card_turned", ""),
    ("event.challenge_opened", "pay"),
    ("event.challenge_passed", "pay"),
    ("event.debt_passed", "pay"),
    *[(f"event.challenge_won.{how}", "") for how in ChallengeWin],
    *[(f"event.challenge_stopped.{why}", "") for why in StopReason if why != StopReason.TEN],
    ("event.slap_correct", ""),
    ("event.wrong_slap_burned", ""),
    ("event.wrong_slap_given", ""),
    ("event.wrong_slap_free", ""),
    ("event.wrong_slap_none", ""),
    ("event.wrong_slap_lockout", "n"),
    ("event.wrong_slap_lockout_pile", ""),
    *[(f"event.slap_dismissed.{why}", "") for why in DismissReason],
    ("access.event.pile_won.slap", "n"),
    ("access.event.pile_won.challenge", "n"),
    ("event.pile_won.last_in", ""),
    ("event.pile_won.given", ""),
    *[(f"event.player_out.{why}", "") for why in OutReason],
    ("event.game_over.win", ""),
    ("game.over.win", ""),
    ("verdict.pile_won_slap", "n"),
    ("verdict.challenge_paid", "n pay"),
    ("access.say.challenge", "n pay"),
    *[(f"access.say.pile_won.{how}", "n") for how in WonBy],
    ("access.window_open", ""),
    ("access.say.window", ""),
    ("game.status.waiting", ""),
    ("game.status.owes_cards", "n"),
    ("game.rejected.waiting", ""),
    ("game.rejected.cannot_slap", ""),
]


def present(texts: dict[str, str], key: str, counted: bool) -> bool:
    return f"{key}.other" in texts if counted else key in texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_about_a_seat_has_a_second_person_form(lang: str) -> None:
    texts = catalog(lang)
    missing = []
    for key, marks in ABOUT_A_SEAT:
        counted = "n" in marks
        assert present(texts, key, counted), f"{lang}: {key} itself is missing"
        forms = [f"{key}.you"] + ([f"{key}.you_pay"] if "pay" in marks else [])
        missing += [form for form in forms if not present(texts, form, counted)]
    assert not missing, f"{lang} has no second person for {missing}"
    # Two people on one screen are spoken to by name, in the second person too.
    assert present(texts, "game.status.waiting.named", False) and present(texts, "game.status.owes_cards.named", True)


# French says "vous" to the player everywhere (i18n/__init__.py says why): no "tu", "toi", "ton"..., and no
# imperative in the tu form at the start of a sentence ("Retourne une carte", "Attends :").
TU = re.compile(r"\b(tu|toi|ton|ta|tes|tien|tienne|tiens)\b|(?<![\w'’])t[’'](?=[aeiouyàâéèêh])", re.IGNORECASE)
TU_IMPERATIVE = re.compile(
    r"(?:^|[.:!?;]\s+|«\s*)(Retourne|Tape(?! à tort)|Appuie|Attends|Lance|Donne|Garde|Pose|Reprends|Choisis|Essaie"
    r"|Regarde|Clique|Touche|Lis|Ouvre|Joue|Ajoute|Vérifie|Prends)(?=\s*:|-|\s+(?:une?|le|la|les|l[’']|des|sur|vite)\b)",
    re.IGNORECASE,
)


def test_french_says_vous_throughout() -> None:
    found = [f"{key}: {text}" for key, text in catalog("fr").items() if TU.search(text) or TU_IMPERATIVE.search(text)]
    assert not found, "\n".join(found)
