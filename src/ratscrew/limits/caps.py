"""How much one client address may do, and what it is told when it has done it."""

from __future__ import annotations

from dataclasses import dataclass

from ratscrew.errors import TooMany

HOUR_MS = 3_600_000
MINUTE_MS = 60_000
GUESS_MS = 15 * MINUTE_MS  # the window password attempts are counted in


@dataclass(frozen=True)
class Caps:
    rooms_per_hour: int = 60
    # Room codes and game ids asked for that turned out unknown, on every route that tells a live one from an
    # unknown one. A room code has 31**6 values: at 20 a minute, one address finds a given room in 85 years.
    misses_per_minute: int = 20
    sockets: int = 48  # room websockets open at once (a club behind one address: a dozen tables of four)
    # Passwords checked and found wrong (and accounts made) in GUESS_MS: by one address, and on one account
    # name whoever asks. A guesser gets 10 tries at an account each quarter of an hour; a family or a club
    # behind one address, thirty mistakes.
    guesses_per_address: int = 30
    guesses_per_account: int = 10

    def share(self, workers: int) -> Caps:
        """One worker's share of each cap, for when the workers cannot count together (Redis away): together
        they allow no more than the caps (at least one of each, so that nobody is locked out)."""
        workers = max(1, workers)
        return Caps(
            rooms_per_hour=max(1, self.rooms_per_hour // workers),
            misses_per_minute=max(1, self.misses_per_minute // workers),
            sockets=max(1, self.sockets // workers),
            guesses_per_address=max(1, self.guesses_per_address // workers),
            guesses_per_account=max(1, self.guesses_per_account // workers),
        )


def too_many_rooms(made: int, cap: int) -> TooMany:
    return TooMany(f"you created {made} rooms in the last hour: at most {cap}")


def too_many_misses(cap: int) -> TooMany:
    return TooMany(
        f"too many wrong room codes or game ids from your address (at most {cap} a minute): "
        "wait a minute and check the code"
    )


def too_many_sockets(cap: int) -> TooMany:
    return TooMany(f"too many open connections from your address: at most {cap}")


class TooManyGuesses(TooMany):
    """The same words whichever limit was reached, and whether the account exists or not; ``extra`` tells the
    page which field to say it beside."""

    def __init__(self) -> None:
        super().__init__(
            f"too many wrong passwords: wait {GUESS_MS // MINUTE_MS} minutes, then try again "
            "(counted from this address, and on this name)"
        )
        self.extra = {"field": "password", "code": "too_many_guesses"}


def too_many_guesses() -> TooMany:
    return TooManyGuesses()
