"""Play with strangers: ratings that move after each rated game, players' profiles, and the Play-now matchmaker.

- ``ratings``: OpenSkill's Plackett-Luce model, one rating per size class, the number people see.
- ``places``: a finished game's places (finishing order, cards held, stand-ins last) and who of it counts.
- ``store``: the ratings and their history in the server's SQLite file, the leaderboards.
- ``chances``: a finished game's slappable piles, read from its record by the engine, and who let each go.
- ``stats``: each signed-in player's figures of each game (``note_game``), added up for their profile.
- ``matching``: who sits down with whom, as pure functions of who waits and for how long.
- ``matchmaker``: the pools of one process on an injected clock, and the interface a Redis pool shares.

``docs/ratings.md`` says how it works for players, with the numbers chosen.
"""
