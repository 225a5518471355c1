"""House rules in the browser, in French: a game with a Big Mac, flushes and a lockout penalty is set up on
the setup page, and a wrong slap locks the player out, which the table shows and explains. On the way, a
wrongly typed room code is explained in French beside the code's field."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from harness.browser import open_page
from harness.server import Server


def test_a_lockout_is_set_up_shown_and_explained_in_french(browser: Browser, live_server: Server) -> None:
    page, errors = open_page(browser, live_server.url, lang="fr")
    try:
        join_error = page.locator(".online-join #join-error")
        page.fill("#join-code", "!!!!!!")
        page.click("#join-room")
        expect(join_error).to_have_text(
            "Le code d'une salle a 6 lettres et chiffres : vérifiez-le auprès de votre hôte."
        )
        page.fill("#join-code", "zz zz zz")  # typed loosely, as a code read aloud is: cleaned to ZZZZZZ
        expect(join_error).to_be_hidden()  # typing again takes the old complaint away
        page.click("#join-room")
        expect(join_error).to_contain_text("Aucune salle n'a le code ZZZZZZ")
        expect(page.locator("#join-code")).to_have_attribute("aria-invalid", "true")

        page.click("details.house-rules summary")
        lockout_cards = page.locator("#opt-slapping-lockout_cards")
        expect(lockout_cards).to_be_disabled()  # a lockout's length means nothing under the default burn
        page.check("#opt-slaps-bigmac")
        page.select_option("#opt-slaps-flush", "3")
        page.select_option("#opt-slapping-penalty", "lockout")
        expect(lockout_cards).to_be_enabled()
        expect(page.locator("#opt-slapping-penalty_cards")).to_be_disabled()
        lockout_cards.fill("3")
        page.dispatch_event("#opt-slapping-lockout_cards", "change")
        # The setup page's own chips say it, from the server's summary of these rules.
        chips = page.locator(".rule-chips").first
        expect(chips).to_contain_text("Big Mac")
        expect(chips).to_contain_text("couleur de 3")
        expect(chips).to_contain_text("bloqué pendant 3 cartes")

        page.click("#start-game")
        mine = page.locator(".seat.mine")
        expect(mine).to_have_count(1)
        expect(page.locator("#table-rules")).to_contain_text("bloqué pendant 3 cartes")
        expect(mine).to_have_class(re.compile(r"\bdue\b"))  # the first seat leads, and nothing moves till it does
        page.keyboard.press("j")  # a slap on an empty table: a wrong slap, and no card is lost
        expect(mine.locator(".seat-state")).to_contain_text("bloqué encore 3 cartes")
        expect(mine.locator(".seat-count")).to_contain_text("13")
        # Slapping again while locked out, before leading: nothing moves until this seat leads, so the
        # lockout surely holds (once it leads, the computers' next two cards end it, on a busy machine
        # sometimes before a slap would land).
        page.keyboard.press("j")  # the slap is set aside, and the toast says why
        expect(page.locator(".toast")).to_contain_text("Vous êtes bloqué : la tape ne compte pas")
        page.keyboard.press("f")  # each card turned shortens the lockout
        page.wait_for_function(  # looked for at every frame: it reads so only until the computers' two cards
            "() => /bloqué encore [12] cartes?/.test(document.querySelector('.seat.mine .seat-state').textContent)"
        )
    finally:
        page.context.close()
    assert not errors, errors
