"""The limits each client address is held to: rooms created an hour, unknown room codes and game ids asked
for a minute, sockets open at once, wrong passwords a quarter of an hour (and on each account name, whoever
asks).

One interface (``Limits``, in ``grants.py``), answered in this process (``local.py``: ``ratscrew play``, and a
worker of ``ratscrew serve`` while Redis is away) or across every worker through Redis
(``hosting/limits.py``). A request takes what it may need before it looks (a ``Grant``: rooms, or lookups)
and gives back what it did not use; a socket holds a ``Lease`` until it closes.
"""

from __future__ import annotations

from ratscrew.limits.caps import Caps
from ratscrew.limits.grants import Grant, Lease, Limits
from ratscrew.limits.local import LocalLimits, Window

__all__ = ["Caps", "Grant", "Lease", "Limits", "LocalLimits", "Window"]
