"""Tables of the lab's results, column by column, and their ways out: pandas, Arrow, Parquet and CSV.

A table here is a dict of equally long columns of plain Python values (None for a missing one), so the lab
needs neither pandas nor pyarrow to build one or to write it as CSV; ``to_arrow``, ``to_pandas`` and Parquet
import them when called and say how to install them when they are missing (``pip install 'ratscrew[lab]'``).
Whole numbers stay whole numbers in pandas, nulls and all (its nullable integer types).
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ratscrew.errors import MalformedInput

Table = dict[str, list[Any]]
INSTALL = "pip install 'ratscrew[lab]'"
FORMATS = {".parquet": "Parquet", ".csv": "CSV"}
# Columns whose Arrow type cannot be guessed from their values: a game's seed is a 64-bit unsigned number.
UNSIGNED = frozenset({"seed"})


class LabExtraMissing(ImportError):
    """pandas or pyarrow is needed for this and is not installed."""


def _pyarrow(what: str) -> Any:
    try:
        import pyarrow
    except ImportError:
        raise LabExtraMissing(f"{what} needs pyarrow: {INSTALL}") from None
    return pyarrow


def to_arrow(table: Mapping[str, Sequence[Any]]) -> Any:
    """The table as a ``pyarrow.Table``: each column's type from its values (64-bit unsigned for seeds)."""
    pa = _pyarrow("to_arrow()")
    columns = {
        name: pa.array(list(values), type=pa.uint64() if name in UNSIGNED else None) for name, values in table.items()
    }
    return pa.table(columns)


def to_pandas(table: Mapping[str, Sequence[Any]]) -> Any:
    """The table as a ``pandas.DataFrame``, whole numbers and yes/no values in pandas' nullable types so a
    missing value (a seat a smaller table lacks) does not turn a column of counts into floats."""
    try:
        import pandas as pd
    except ImportError:
        raise LabExtraMissing(f"to_pandas() needs pandas: {INSTALL}") from None
    pa = _pyarrow("to_pandas()")
    nullable = {pa.int64(): pd.Int64Dtype(), pa.uint64(): pd.UInt64Dtype(), pa.bool_(): pd.BooleanDtype()}
    return to_arrow(table).to_pandas(types_mapper=nullable.get)


def check_table_path(path: Path, option: str) -> str:
    """The format ``path`` asks for by its extension, checked before a run: Parquet (which needs pyarrow) or
    CSV; anything else is one clear error."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise MalformedInput(
            f"{option} {str(path)!r}: give a file ending in .parquet or .csv (the extension says the format)"
        )
    if fmt == "Parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise MalformedInput(
                f"{option} {str(path)!r}: Parquet needs pyarrow ({INSTALL}); or give a .csv file"
            ) from None
    if path.is_dir():
        raise MalformedInput(f"{option} {str(path)!r} is a folder: give a file name")
    return fmt


def write_table(path: Path, table: Mapping[str, Sequence[Any]], option: str = "--games-out") -> None:
    """Write the table as Parquet or CSV, as the extension says (a missing value is an empty CSV field)."""
    fmt = check_table_path(path, option)
    try:
        if fmt == "Parquet":
            import pyarrow.parquet as pq

            pq.write_table(to_arrow(table), str(path))
            return
        with path.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            names = list(table)
            writer.writerow(names)
            writer.writerows(zip(*(table[name] for name in names), strict=True))
    except OSError as exc:
        raise MalformedInput(f"cannot write {option} {str(path)!r}: {exc.strerror}") from None


def from_rows(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Columns from rows that may lack some names (missing values become None), in the order first seen."""
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    return {name: [row.get(name) for row in rows] for name in names}
