"""The account routes: sign up, sign in, sign out, change the password, delete the account.

Every answer is the browser's state (``AccountAnswer``): who is signed in and the CSRF token a change must
carry. Every refusal is one line with, for the page, the field it is about and a code it says in the
player's language (``{"error", "field", "code"}``). A password is checked only after the address and the
name have attempts left (``limits``); a wrong one uses an attempt, a right one gives it back. An unknown name
costs the same hashing as a known one, and gets the same words.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ratscrew.accounts import Account
from ratscrew.accounts.names import check_name, name_key
from ratscrew.accounts.passwords import check_password, hash_password, needs_rehash, verify, verify_nobody
from ratscrew.accounts.store import NameTaken, Opened
from ratscrew.errors import BadRequest
from ratscrew.limits import Grant
from ratscrew.shapes import Shape
from ratscrew.web.bodies import read_body
from ratscrew.web.lookups import client_of, limits_of
from ratscrew.web.session import (
    Current,
    Refused,
    accounts_of,
    clear_session_cookie,
    current,
    guard,
    not_signed_in,
    set_session_cookie,
)

T = TypeVar("T")
NAME_AND_PASSWORD = '{"name": "ann", "password": "at least 8 characters"}'


@dataclass(frozen=True, slots=True)
class SignedIn(Shape):
    """The account a browser is signed in to, as its own pages show it."""

    name: str


@dataclass(frozen=True, slots=True)
class AccountAnswer(Shape):
    """``GET /api/account`` and every account route: who is signed in (null: nobody), and the token each change
    for that account must carry in its X-CSRF-Token header."""

    account: SignedIn | None
    csrf: str | None


def wrong_password(field: str) -> Refused:
    return Refused("wrong password", "wrong_password", field)


def wrong_sign_in() -> Refused:
    """The same words whether the name is someone's or nobody's."""
    return Refused("wrong name or password", "wrong_sign_in", "password")


def answer(opened: Current | Opened | None) -> JSONResponse:
    doc = AccountAnswer(None, None)
    if opened is not None:
        doc = AccountAnswer(SignedIn(opened.session.account.name), opened.session.csrf)
    return JSONResponse(doc.to_json(), headers={"Cache-Control": "no-store"})


def only(doc: dict[str, Any], fields: tuple[str, ...], example: str) -> None:
    extra = sorted(set(doc) - set(fields))
    if extra:
        raise BadRequest(f"unknown field {extra[0][:40]!r}: expected {example}")


async def in_thread(work: Callable[..., Any], *args: Any) -> Any:
    """Argon2 work off the event loop (the rooms' slaps never wait on it)."""
    return await run_in_threadpool(work, *args)


async def checked(request: Request, account: str, check: Callable[[], Awaitable[T]], *, costs: bool = False) -> T:
    """``check()`` (which hashes) once the address and the account name have an attempt left; the attempt is
    used if it raises or answers False (or whatever it answers, if it ``costs``), and given back otherwise."""
    grant: Grant = await limits_of(request).password(client_of(request), account)
    try:
        result = await check()
        if costs or result is False:
            grant.use()
        return result
    except BaseException:
        grant.use()
        raise
    finally:
        grant.settle()


async def state(request: Request) -> Response:
    return answer(current(request))


async def sign_up(request: Request) -> Response:
    guard(request, None)
    doc = await read_body(request, NAME_AND_PASSWORD)
    only(doc, ("name", "password"), NAME_AND_PASSWORD)
    name = check_name(doc.get("name"))
    password = check_password(doc.get("password"))
    store = accounts_of(request)
    if store.find(name) is not None:  # said before any hashing
        raise NameTaken(name)

    async def make() -> Account:
        made: Account = store.create(name, await in_thread(hash_password, password))
        return made

    # Hashing is work: each account made costs its address an attempt (counted apart from the name's sign-ins).
    account = await checked(request, f"new:{name_key(name)}", make, costs=True)
    return signed_in_answer(request, store.open_session(account))


async def sign_in(request: Request) -> Response:
    guard(request, None)
    doc = await read_body(request, NAME_AND_PASSWORD)
    only(doc, ("name", "password"), NAME_AND_PASSWORD)
    name = check_name(doc.get("name"))
    password = check_password(doc.get("password"))
    store = accounts_of(request)

    found = store.find(name)

    async def check() -> bool:
        right: bool = await in_thread(verify, found[1], password) if found else await in_thread(verify_nobody, password)
        return right

    if not await checked(request, name_key(name), check) or found is None:
        raise wrong_sign_in()
    account, stored = found
    if needs_rehash(stored):  # made with older parameters: made again with today's
        store.rehash(account, await in_thread(hash_password, password))
    return signed_in_answer(request, store.open_session(account))


def signed_in_answer(request: Request, opened: Opened) -> Response:
    before = current(request)
    if before is not None:  # the session this browser had before ends: one browser, one session
        accounts_of(request).close_session(before.token)
    response = answer(opened)
    set_session_cookie(response, request, opened)
    return response


async def sign_out(request: Request) -> Response:
    found = current(request)
    if found is not None:
        guard(request, found.session)
        accounts_of(request).close_session(found.token)
    response = answer(None)
    clear_session_cookie(response, request)
    return response


def signed_in(request: Request) -> Current:
    found = current(request)
    if found is None:
        raise not_signed_in()
    guard(request, found.session)
    return found


async def confirm_password(request: Request, account: Account, password: str, field: str) -> None:
    """The signed-in account's own password asked again (to change it, or to delete the account): counted as a
    guess by the limits like a sign-in, and refused in ``field``'s words when wrong."""

    async def check() -> bool:
        stored = accounts_of(request).password_of(account)
        ok: bool = await in_thread(verify, stored, password) if stored else False
        return ok

    if not await checked(request, name_key(account.name), check):
        raise wrong_password(field)


async def change_password(request: Request) -> Response:
    found = signed_in(request)
    example = '{"current": "the password now", "password": "the new one"}'
    doc = await read_body(request, example)
    only(doc, ("current", "password"), example)
    now = check_password(doc.get("current"), "current")
    new = check_password(doc.get("password"))
    store, account = accounts_of(request), found.session.account
    await confirm_password(request, account, now, "current")
    store.set_password(account, await in_thread(hash_password, new), keep=found.token)
    return answer(found)


async def delete_account(request: Request) -> Response:
    found = signed_in(request)
    example = '{"password": "the password now"}'
    doc = await read_body(request, example)
    only(doc, ("password",), example)
    password = check_password(doc.get("password"))
    store, account = accounts_of(request), found.session.account
    await confirm_password(request, account, password, "password")
    store.delete(account)
    response = answer(None)
    clear_session_cookie(response, request)
    return response


SHAPES = (SignedIn, AccountAnswer)

routes: list[BaseRoute] = [
    Route("/api/account", state, methods=["GET"]),
    Route("/api/account/sign-up", sign_up, methods=["POST"]),
    Route("/api/account/sign-in", sign_in, methods=["POST"]),
    Route("/api/account/sign-out", sign_out, methods=["POST"]),
    Route("/api/account/password", change_password, methods=["POST"]),
    Route("/api/account/delete", delete_account, methods=["POST"]),
]
