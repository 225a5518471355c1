"""Passwords: what one may be, and how it is kept (an Argon2id hash, never the password).

The hash is argon2-cffi's, with its default parameters (RFC 9106's second choice: 64 MiB, three passes, four
lanes), written in the PHC string form that names them, so that a hash made with older parameters is still
checked and is made again at the next sign-in. A hash costs tens of milliseconds of one core and 64 MiB:
the web layer runs it in a worker thread, at most ``HASHING_AT_ONCE`` at a time, so that the rooms' event
loop never waits on one and a burst of sign-ins cannot take all the memory.

A name nobody has is checked against a hash made for nobody (``NOBODY``), so that a wrong password
costs the same time whether the name exists or not.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ratscrew.errors import BadRequest

MIN_PASSWORD = 8
MAX_PASSWORD = 128
HASHING_AT_ONCE = 2
_hashing = threading.BoundedSemaphore(HASHING_AT_ONCE)  # a thread waits here, never the event loop


class BadPassword(BadRequest):
    """A password that cannot be one; ``extra`` tells the page which field, and which rule (in its language)."""

    def __init__(self, message: str, code: str, field: str = "password") -> None:
        super().__init__(message)
        self.extra = {"field": field, "code": code}


def check_password(value: object, field: str = "password") -> str:
    """``value`` as the password it is (Unicode in its composed form, so the same letters typed on another
    keyboard are the same password), or BadPassword saying what is wrong."""
    if not isinstance(value, str) or not value:
        raise BadPassword(
            f"{field}: a password of {MIN_PASSWORD} to {MAX_PASSWORD} characters", "password_missing", field
        )
    password = unicodedata.normalize("NFC", value)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadPassword(
            f"{field}: a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long, got {min(len(password), 9999)}",
            "password_length",
            field,
        )
    return password


@cache
def hasher() -> PasswordHasher:
    return PasswordHasher()  # Argon2id, RFC 9106's low-memory parameters


def hash_password(password: str) -> str:
    with _hashing:
        return hasher().hash(password)


def verify(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (a hash that cannot be read: no)."""
    try:
        with _hashing:
            return hasher().verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with other parameters than today's (then it is made again)."""
    try:
        return hasher().check_needs_rehash(stored)
    except InvalidHashError:
        return True


# The hash of a random password nobody was told, made with today's parameters (a test holds it to them, so
# that checking against it costs what checking a real account's does).
NOBODY = "$argon2id$v=19$m=65536,t=3,p=4$uhfFVljc23PIJZEqy0J/ZA$n20qd9mveKuYRPSUID6z3v5XzWCFtM5K9I+pkNIvdfE"


def verify_nobody(password: str) -> bool:
    """The work of checking a password, for a name nobody has: always false."""
    verify(NOBODY, password)
    return False
