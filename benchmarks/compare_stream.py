"""Compare two streamed ``assess`` outputs exactly (issue 23: no result changes).

Each folder holds what ``partitioned.stream_assess`` wrote for ``a.parquet`` (the
GeoParquet impacts, ``a_decisions.parquet``, ``a_projects.csv``, ``a_summary.csv``), for
instance from two checkouts of the 50,000-impact world::

    PYTHONPATH=$PWD python benchmarks/compare_stream.py OUT_MAIN OUT_BRANCH

The Parquet tables are compared by schema (without metadata) and by ``Table.equals``
(geometry bytes included), naming each column that differs; the CSV files byte for byte.
Prints ``identical`` and exits 0, or lists the differences and exits 1.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pyarrow.parquet as pq

TABLES = ("a.parquet", "a_decisions.parquet")
CSVS = ("a_projects.csv", "a_summary.csv")


def differences(a: Path, b: Path) -> list[str]:
    """Return the differences between the outputs in folders ``a`` and ``b``."""
    out: list[str] = []
    for name in TABLES:
        ta, tb = pq.read_table(a / name), pq.read_table(b / name)
        if ta.schema.remove_metadata() != tb.schema.remove_metadata():
            out.append(f"{name}: schema differs")
        if not ta.equals(tb):
            da, db = ta.to_pandas(), tb.to_pandas()
            out += [
                f"{name}: column {c} differs" for c in da if c not in db or not da[c].equals(db[c])
            ]
            out += [f"{name}: extra column {c}" for c in db if c not in da]
            if len(da) != len(db):
                out.append(f"{name}: {len(da)} rows against {len(db)}")
    for name in CSVS:
        digest = [hashlib.sha256((d / name).read_bytes()).hexdigest() for d in (a, b)]
        if digest[0] != digest[1]:
            out.append(f"{name}: bytes differ")
    return out


def main(argv: list[str]) -> int:
    found = differences(Path(argv[0]), Path(argv[1]))
    print("\n".join(found) if found else "identical")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
