"""The French and German catalogs keep the conventions a native reader checked them against: one typography in
French, du (never Sie) in German, and one word per concept in each (the rejected synonyms are listed here with
the word chosen instead, so a new line that brings one back says what to write)."""

from __future__ import annotations

import re

import pytest

from ratscrew.i18n import catalog

# French puts a no-break space (U+00A0) before : ; ! ? and », and after «: a plain space lets a line break leave
# the mark alone at the start of the next line. The apostrophe is the straight one the run-time elision inserts.
FRENCH_SPACING = re.compile(r"[ \u202f][:;!?»]|«[ \u202f]|(?<=[^\s\u00a0(«\[{])[;!?»]|’")

# Rejected word -> the word every line uses instead.
FRENCH_WORDS: dict[str, str] = {
    r"\bmains? (?:à tort|posées?)": "tape à tort / tapes simultanées",
    r"\bhors jeu\b": "éliminé",
    r"\bquitte(?:z)? la partie\b": "est éliminé",
    r"\bminuteur\b": "chrono",
    r"\bmarqueur de points\b": "compteur de points",
    r"\bcelui qui répond\b": "le payeur",
    r"\brègles de la maison\b": "règles maison",
    r"\btotal de 10\b|\b(?:un|le|les|des) dix\b": "total de dix",
    r"\bpass\w* le coin\b": "faire le tour",
    r"\bcompte rendu\b": "enregistrement",
    r"\bvaleur choisie\b": "valeur désignée (the pattern is « Carte désignée »)",
    r"\(s\)|\(e\)": "a line without a count form rephrased, or the .one/.other forms",
}
GERMAN_WORDS: dict[str, str] = {
    r"\b(?:die|der) Forderung\b": "Herausforderung (Forderung is what a court card demands)",
    r"\bSchl(?:a|ä)g(?:e|en|liste)?\b": "Klatscher / Klatschen",
    r"\b(?:Karten)?[Bb]l(?:a|ä)tt(?:er)?\b": "Kartenspiel",
    r"\bRegelsatz\b": "Regelwerk",
    r"\bKartengrenze\b|\bkeine Grenze\b": "Kartenlimit / kein Limit",
    r"\bbeklatsch|\babklatsch": "auf ... klatschen (beklatschen is to applaud, abklatschen a high five)",
    r"(?<!der )\bSumme (?:10|zehn)\b": 'Zehnersumme ("mit der Summe 10" describes one, and stays)',
    r"\bnochmal\b": "noch mal",
}
# German says du to the player (ihr to a table in the score keeper): a formal pronoun mid-sentence is Sie-speech.
GERMAN_SIE = re.compile(r"(?<=[a-zäöüß,] )(?:Sie|Ihnen|Ihre?[mnrs]?)\b")


def offending(lang: str, rules: dict[str, str]) -> list[str]:
    found = []
    for key, text in catalog(lang).items():
        for pattern, instead in rules.items():
            match = re.search(pattern, text, re.IGNORECASE if lang == "fr" else 0)
            if match:
                found.append(f"{key}: {match.group(0)!r} -> {instead}")
    return found


def test_french_typography_is_one_convention() -> None:
    found = []
    for key, text in catalog("fr").items():
        for match in FRENCH_SPACING.finditer(text):
            found.append(f"{key}: {text[max(0, match.start() - 12) : match.end() + 4]!r}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("lang", "rules"), [("fr", FRENCH_WORDS), ("de", GERMAN_WORDS)])
def test_each_concept_has_one_word(lang: str, rules: dict[str, str]) -> None:
    found = offending(lang, rules)
    assert not found, "\n".join(found)


def test_german_says_du_never_sie() -> None:
    found = [f"{key}: {text}" for key, text in catalog("de").items() if GERMAN_SIE.search(text)]
    assert not found, "\n".join(found)


def test_french_words_beside_a_pattern_name_fit_every_pattern() -> None:
    """The profile says how often a pattern was missed beside its name. French names are of both genders (la
    Paire, le Sandwich) and the catalog keeps none, so the words must not agree with the name: they speak of
    the piles let go, in the plural ("manqués : 1 sur 13"), never "manquée" after a masculine name."""
    line = catalog("fr")["profile.missed.count"]
    assert not re.search(r"\bmanquée?\b", line), line
