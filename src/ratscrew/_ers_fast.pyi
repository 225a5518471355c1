def play(
    config: bytes, seed: int, want_hash: bool, deck: bytes = ..., /
) -> tuple[int, int, int, int, int, int, int, int, int]: ...

CONFIG_FIELDS: tuple[str, ...]
SEAT_FIELDS: tuple[str, ...]
RULE_VALUES: dict[str, tuple[int, int] | tuple[str, ...]]
ENUMS: dict[str, tuple[str, ...]]
