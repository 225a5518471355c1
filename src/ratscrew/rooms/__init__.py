"""Online rooms: the lobby, seats and tokens, fair slaps over a network, and a journal that survives restarts."""
