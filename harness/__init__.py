"""What the tests and the benchmarks both start and drive, beside the tests themselves: a real server, Debian's
Chromium, a whole hosted site behind real proxies with a real redis-server, players over real websockets,
simulated pages on virtual time, and the cases, corpora and fuzzers the tests and the benchmarks share.

``bench/`` imports from here, never from ``tests/``; ``tests/conftest.py`` turns what pytest needs of it into
fixtures.
"""
