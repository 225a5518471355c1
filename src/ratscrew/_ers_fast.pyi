# cards, ms, piles by slap, piles by challenge, wrong slaps, players out by a wrong slap, result, winner or -1,
# event hash or 0, tricks, then per seat: piles by slap, piles by challenge, wrong slaps.
KernelRow = tuple[int, int, int, int, int, int, int, int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]

def play(config: bytes, seed: int, want_hash: bool, deck: bytes = ..., /) -> KernelRow: ...

CONFIG_FIELDS: tuple[str, ...]
SEAT_FIELDS: tuple[str, ...]
RULE_VALUES: dict[str, tuple[int, int] | tuple[str, ...]]
ENUMS: dict[str, tuple[str, ...]]
ROW_FIELDS: tuple[str, ...]
