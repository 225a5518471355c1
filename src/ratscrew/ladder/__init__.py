"""Play with strangers: ratings that move after each rated game, and the Play-now matchmaker.

- ``ratings``: OpenSkill's Plackett-Luce model, one rating per size class, the number people see.
- ``places``: a finished game's places (finishing order, cards held, stand-ins last) and who of it counts.
- ``store``: the ratings and their history in the server's SQLite file, the leaderboards.
- ``matching``: who sits down with whom, as pure functions of who waits and for how long.
- ``matchmaker``: the pools of one process on an injected clock, and the interface a Redis pool shares.

``docs/ratings.md`` says how it works for players, with the numbers chosen.
"""
