"""Play now's texts (playnow.json): every key its scripts ask for, in English, French and German, with the same
placeholders, and each refusal code the routes send has the words the page says it in."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from ratscrew.i18n import LANGUAGES, catalog

STATIC = Path(str(resources.files("ratscrew.web").joinpath("static", "js")))
SCRIPTS = ("pages/setup/playnow.js", "pages/room.js", "pages/room/messages.js", "pages/room/lobby.js")
# The routes, and the shared queue behind them under `ratscrew serve` (its refusals carry their own code).
SOURCE = "\n".join(
    (Path(str(resources.files(package))) / name).read_text(encoding="utf-8")
    for package, name in (("ratscrew.web", "playnow.py"), ("ratscrew.hosting", "matchpool.py"))
)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def playnow_catalog(lang: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads(
        resources.files("ratscrew.i18n").joinpath(lang, "playnow.json").read_text("utf-8")
    )
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_play_now_scripts_ask_for_is_there(lang: str) -> None:
    texts = catalog(lang)
    asked = set()
    for name in SCRIPTS:
        source = (STATIC / name).read_text(encoding="utf-8")
        asked |= set(re.findall(r"[\"`](playnow\.[a-z_.]+[a-z])[\"`]", source))
    assert len(asked) > 20
    for key in asked:  # a counted key is looked up by its plural forms, `.other` always there
        assert key in texts or f"{key}.other" in texts, f"{key} missing in {lang}"
    assert set(playnow_catalog(lang)) == set(playnow_catalog("en"))
    for key, english in playnow_catalog("en").items():
        assert set(PLACEHOLDER.findall(playnow_catalog(lang)[key])) == set(PLACEHOLDER.findall(english)), (lang, key)


def test_the_codes_the_page_says_in_words_are_codes_the_routes_send() -> None:
    page = (STATIC / "pages/setup/playnow.js").read_text(encoding="utf-8")
    for code in re.findall(r'code === "(\w+)"', page):
        assert f'"{code}"' in SOURCE, f"the page reads a code the routes never send: {code}"
        if code != "already_playing":  # answered by showing where the player stands, not by words
            assert f"playnow.error.{code}" in catalog("en")


def test_french_calls_a_rating_cote_as_the_profile_does_and_keeps_classement_for_the_leaderboard() -> None:
    for name in ("playnow", "room", "game"):
        texts = json.loads(resources.files("ratscrew.i18n").joinpath("fr", f"{name}.json").read_text("utf-8"))
        said = [key for key, text in texts.items() if "classement" in text.lower()]
        assert said == [], f"fr/{name}.json calls a rating 'classement': {said}"
    texts = playnow_catalog("fr")
    assert texts["playnow.rating.title"] == "Cotes"  # the summary's heading over the rating changes
    assert "votre cote bouge" in texts["playnow.rated"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_now_again_is_a_button_label_a_player_would_say(lang: str) -> None:
    """The summary's button after a Play-now game names one action, as a phrase: German once read "Noch mal:
    Jetzt spielen" (the Play-now button's words behind a colon). It stays apart from a rematch's "Play again",
    which queues nobody."""
    texts = catalog(lang)
    again = texts["playnow.again"]
    assert ":" not in again and again.strip() == again
    assert again != texts["game.summary.again"]
    assert again != texts["playnow.go"]
