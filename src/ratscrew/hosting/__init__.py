"""Hosting for the public (``ratscrew serve``): room workers behind a reverse proxy, a shared store, metrics."""
