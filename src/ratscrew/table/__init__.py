"""The real-time table shared by every way of playing: timers, slap arbitration and computer players."""

from ratscrew.table.clock import Clock, LoopClock, VirtualClock
from ratscrew.table.table import MATCH, Rejected, SeatSpec, Table, TableConfig, TableEvent, run_virtual

__all__ = [
    "MATCH",
    "Clock",
    "LoopClock",
    "Rejected",
    "SeatSpec",
    "Table",
    "TableConfig",
    "TableEvent",
    "VirtualClock",
    "run_virtual",
]
