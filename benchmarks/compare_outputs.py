"""Compare two ``assess`` outputs exactly (issue 23: no result changes).

Each folder holds what one run wrote for ``a.parquet``: the streamed path
(``partitioned.stream_assess``: ``a.parquet``, ``a_decisions.parquet``, ``a_projects.csv``,
``a_summary.csv``) or ``Assessment.write`` and the ``--engine chunks|dask`` paths
(``a.parquet``, ``a_decisions.json`` and the two CSV files). For instance, two checkouts on
the 50,000-impact world::

    PYTHONPATH=$PWD python benchmarks/compare_outputs.py OUT_MAIN OUT_BRANCH

The Parquet tables are compared by schema (without metadata) and by ``Table.equals``
(geometry bytes included), naming each column that differs; the other files byte for
byte (SHA-256). The manifest is not compared (it holds the time of the run). Prints
``identical`` and exits 0, or lists the differences and exits 1.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pyarrow.parquet as pq

STEM = "a"
FILES = ("_decisions.parquet", "_decisions.json", "_projects.csv", "_summary.csv")


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _tables(a: Path, b: Path, name: str) -> list[str]:
    ta, tb = pq.read_table(a / name), pq.read_table(b / name)
    out = []
    if ta.schema.remove_metadata() != tb.schema.remove_metadata():
        out.append(f"{name}: schema differs")
    if not ta.equals(tb):
        out += [
            f"{name}: column {c} differs"
            for c in ta.column_names
            if c not in tb.column_names or not ta[c].equals(tb[c])
        ]
        out += [f"{name}: extra column {c}" for c in tb.column_names if c not in ta.column_names]
        if ta.num_rows != tb.num_rows:
            out.append(f"{name}: {ta.num_rows} rows against {tb.num_rows}")
    return out


def differences(a: Path, b: Path) -> list[str]:
    """Return the differences between the outputs in folders ``a`` and ``b``."""
    out = _tables(a, b, f"{STEM}.parquet")
    for suffix in FILES:
        name = STEM + suffix
        there = [(d / name).exists() for d in (a, b)]
        if not any(there):
            continue
        if not all(there):
            out.append(f"{name}: only in {a if there[0] else b}")
        elif name.endswith(".parquet"):
            out += _tables(a, b, name)
        elif _digest(a / name) != _digest(b / name):
            out.append(f"{name}: bytes differ")
    return out


def main(argv: list[str]) -> int:
    found = differences(Path(argv[0]), Path(argv[1]))
    print("\n".join(found) if found else "identical")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
