"""Accounts: a name and a password (an Argon2id hash), and the sessions a browser signs in with.

``names.py`` says what an account may be called, ``passwords.py`` what a password may be and how it is
hashed, ``store.py`` keeps both, with the sessions, in the server's SQLite file. The web layer
(``web/accounts.py``, ``web/session.py``) serves them, limits the guesses and guards against requests from
other sites; ``web.session.account_of`` is how any route learns who is signed in.
"""

from __future__ import annotations

from ratscrew.accounts.store import Account, AccountStore, Session

__all__ = ["Account", "AccountStore", "Session"]
