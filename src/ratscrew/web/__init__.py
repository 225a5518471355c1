"""The browser game: a Starlette app, one websocket per player page, an embedded SQLite store."""
