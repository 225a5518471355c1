"""The real-time table shared by every way of playing: timers, slap arbitration and computer players."""

from ratscrew.table.clock import Clock, LoopClock, VirtualClock
from ratscrew.table.seen import SlapSeen
from ratscrew.table.table import (
    MATCH,
    RejectCode,
    Rejected,
    SeatSpec,
    Table,
    TableConfig,
    TableEvent,
    TimerKind,
    replay,
    run_virtual,
)

__all__ = [
    "MATCH",
    "Clock",
    "LoopClock",
    "RejectCode",
    "Rejected",
    "SeatSpec",
    "SlapSeen",
    "Table",
    "TableConfig",
    "TableEvent",
    "TimerKind",
    "VirtualClock",
    "replay",
    "run_virtual",
]
