"""The lab: many complete games between computer players on virtual time, and what they show.

From Python, use :mod:`ratscrew.lab.api` (``from ratscrew.lab import api``): ``api.simulate``, ``api.sweep``,
``api.random_deals`` and ``api.hunt`` return result objects with one row per game beside the totals, and
``to_pandas()`` / ``to_arrow()``. The functions are not re-exported here: ``ratscrew.lab.simulate`` and
``ratscrew.lab.sweep`` are this package's modules, and a function of the same name would shadow them.
"""
