"""The account pages in Debian's Chromium, on a phone and on a laptop, in French and in German: sign up, sign
out, sign in, change the password and delete the account, each mistake said beside its field, by keyboard
where a player would type, and nothing axe-core finds serious on any of the pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.browser import open_page, serious_violations
from harness.server import Server
from ratscrew.i18n import text

PASSWORD = "cheval correct"
NEW_PASSWORD = "agrafe de batterie"


def mistake(page: Page, field: str) -> str:
    """The mistake said beside a field, once it is part of the field's description and the field is invalid."""
    box = page.locator(f"#{field}")
    expect(box).to_have_attribute("aria-invalid", "true")
    described = box.get_attribute("aria-describedby") or ""
    assert f"{field}-error" in described.split(), described
    return page.locator(f"#{field}-error").inner_text()


def no_serious_violations(page: Page, where: str) -> None:
    found = serious_violations(page)
    assert not found, (where, found)


def fits(page: Page) -> None:
    wide = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen"


@pytest.mark.parametrize(
    ("width", "height", "lang", "touch"), [(390, 844, "fr", True), (1280, 800, "de", False)], ids=["phone", "laptop"]
)
def test_sign_up_out_in_change_and_delete(
    browser: Browser, live_server: Server, width: int, height: int, lang: str, touch: bool
) -> None:
    page, errors = open_page(browser, live_server.url, lang=lang, width=width, height=height, touch=touch)

    def say(key: str, **values: object) -> str:
        return text(lang, key, **values)

    limits = {"min_name": 3, "max_name": 20, "min_password": 8, "max_password": 128}
    name = f"Ann_{width}"
    try:
        link = page.locator("#account-link")
        expect(link).to_have_text(say("nav.sign_in"))
        link.click()
        expect(page.locator("#account-title")).to_have_text(say("account.sign_in.title"))
        no_serious_violations(page, "sign in")
        page.click("#to-sign-up")
        expect(page.locator("#account-title")).to_have_text(say("account.sign_up.title"))
        fits(page)
        no_serious_violations(page, "sign up")

        # Each mistake beside its field: nothing typed, a computer's name, two passwords that differ, a name taken.
        page.click("#signup-form-submit")
        assert mistake(page, "signup-name") == say("account.error.name_missing", **limits)
        expect(page.locator("#signup-name")).to_be_focused()
        no_serious_violations(page, "sign up, with a mistake shown")
        # Three mistakes at once are said at once, each beside its field, the focus on the first.
        page.fill("#signup-name", "ab")
        page.fill("#signup-password", "short")
        page.fill("#signup-repeat", "shorx")
        page.click("#signup-form-submit")
        assert mistake(page, "signup-name") == say("account.error.name_length", **limits)
        assert mistake(page, "signup-password") == say("account.error.password_length", **limits)
        assert mistake(page, "signup-repeat") == say("account.error.repeat_differs")
        expect(page.locator("#signup-name")).to_be_focused()
        no_serious_violations(page, "sign up, with three mistakes shown")
        page.fill("#signup-name", "Medium")
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-repeat", PASSWORD)
        page.click("#signup-form-submit")
        assert mistake(page, "signup-name") == say("account.error.name_computer")
        page.fill("#signup-name", name)
        page.fill("#signup-password", "short")
        page.fill("#signup-repeat", "short")
        page.click("#signup-form-submit")
        assert mistake(page, "signup-password") == say("account.error.password_length", **limits)
        expect(page.locator("#signup-name")).not_to_have_attribute("aria-invalid", "true")
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-repeat", PASSWORD + "!")
        page.click("#signup-form-submit")
        assert mistake(page, "signup-repeat") == say("account.error.repeat_differs")
        # The last of them by keyboard alone: the repeat typed again, and Enter sends the form.
        page.fill("#signup-repeat", "")
        page.locator("#signup-repeat").press_sequentially(PASSWORD)
        page.keyboard.press("Enter")
        expect(page.locator("#account-name")).to_have_text(say("account.signed_in_as", name=name))
        expect(link).to_have_text(name)
        fits(page)
        no_serious_violations(page, "account")
        (cookie,) = page.context.cookies()
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and not cookie["secure"]  # served over HTTP

        # Signed out, and in again: a wrong password is said beside the password, whoever's name it is.
        page.click("#sign-out")
        expect(page.locator("#account-title")).to_have_text(say("account.sign_in.title"))
        expect(link).to_have_text(say("nav.sign_in"))
        assert page.context.cookies() == []
        page.fill("#signin-name", name.upper())
        page.fill("#signin-password", "not the password")
        page.click("#signin-form-submit")
        assert mistake(page, "signin-password") == say("account.error.wrong_sign_in")
        page.fill("#signin-password", PASSWORD)
        page.press("#signin-password", "Enter")
        expect(page.locator("#account-name")).to_have_text(say("account.signed_in_as", name=name))

        # A new password: the current one is asked for.
        page.fill("#change-current", "not the password")
        page.fill("#change-password", NEW_PASSWORD)
        page.fill("#change-repeat", NEW_PASSWORD)
        page.click("#change-form-submit")
        assert mistake(page, "change-current") == say("account.error.wrong_password")
        page.fill("#change-current", PASSWORD)
        page.click("#change-form-submit")
        expect(page.locator("#account-status")).to_have_text(say("account.change.done"))
        expect(page.locator("#change-current")).to_have_value("")
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("#account-name")).to_have_text(say("account.signed_in_as", name=name))

        # Deleted: the password is asked for, the page says it is done, and the name signs nobody in any more.
        page.fill("#delete-password", PASSWORD)
        page.click("#delete-form-submit")
        assert mistake(page, "delete-password") == say("account.error.wrong_password")
        page.fill("#delete-password", NEW_PASSWORD)
        page.click("#delete-form-submit")
        expect(page.locator("#account-deleted")).to_have_text(say("account.delete.done"))
        expect(page.locator("#account-title")).to_have_text(say("account.sign_up.title"))
        expect(link).to_have_text(say("nav.sign_in"))
        assert live_server.post("/api/account/sign-in", {"name": name, "password": NEW_PASSWORD})[0] == 403
        # Playing needs no account: the Play page is there as before.
        page.goto(live_server.url + "#/")
        page.wait_for_selector("#start-game")
    finally:
        page.context.close()
    assert not errors, errors
