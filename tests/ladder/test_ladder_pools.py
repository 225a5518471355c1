"""The Play-now matchmaker on virtual time: who is seated with whom and when, the gap that widens with the
wait, computers after 20 s, leaving, and never being in two places at once.

The cases are in ``harness/pool_cases.py``, through the interface the web layer uses: the pools kept in Redis
(``tests/hosting/test_hosting_matchpool.py``) pass the very same ones."""

from __future__ import annotations

import pytest

from harness.pool_cases import CASES, local_pools, run
from ratscrew.ladder.matching import accepted_gap
from ratscrew.table.clock import VirtualClock


def test_the_accepted_gap_widens_with_the_wait() -> None:
    assert accepted_gap(0) == 100
    assert accepted_gap(10_000) == 200
    assert accepted_gap(20_000) == 300
    assert accepted_gap(60_000) == 700


@pytest.mark.parametrize("case", list(CASES))
def test_the_pools_of_one_process(case: str) -> None:
    pools = local_pools(VirtualClock())
    run(lambda: CASES[case](pools))
