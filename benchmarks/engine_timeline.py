"""When each phase of a ``wetland-gis assess --engine chunks|dask`` run to GeoParquet ends.

Runs the CLI in this process with the client's phases of :mod:`wetland_gis.partitioned`
wrapped (reading the layer, the partitions' tasks, putting the files together, each
file's assembly) and prints to standard error, seconds from the start, when each begins
and ends and when each partition's task is done (issue 23: where a 2-worker run spends
the time its workers do not share)::

    PYTHONPATH=$PWD python benchmarks/engine_timeline.py assess /tmp/w/impacts_1000000.parquet \\
        --context /tmp/w/context --as-of 2024-05-01 --out OUT/a.parquet --engine dask \\
        --chunk-size 50000 --quiet

A write run on a worker (the summary and the trace with ``--engine dask``) is not
wrapped here: its time is the part of ``_assemble`` that the client's own writes do not
cover.
"""

from __future__ import annotations

import functools
import importlib
import sys
import time
from typing import Any

T0 = time.perf_counter()
PHASES = (
    "_read",
    "_run_dask_to_parts",
    "_assemble",
    "_merged_projects",
    "_assemble_impacts",
    "_assemble_summary",
    "_assemble_trace",
)


def _say(text: str) -> None:
    print(f"[{time.perf_counter() - T0:7.1f}] {text}", file=sys.stderr, flush=True)


class _Bar:
    """Stands for the progress bar: a line when each partition's task is done."""

    def __init__(self) -> None:
        self.done = 0

    def update(self, n: int) -> None:
        self.done += 1
        _say(f"partition {self.done} done ({n} impacts)")

    def close(self) -> None:
        pass


def _wrap(module: Any, name: str) -> None:
    func = getattr(module, name)

    @functools.wraps(func)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        _say(f"{name} starts")
        out = func(*args, **kwargs)
        _say(f"{name} ends ({time.perf_counter() - start:.1f} s)")
        return out

    setattr(module, name, timed)


def main() -> int:
    module = importlib.import_module("wetland_gis.partitioned")
    module._progress = lambda *_a, **_k: _Bar()  # type: ignore[attr-defined]
    for name in PHASES:
        _wrap(module, name)
    from wetland_gis.cli import main as cli

    code = cli(sys.argv[1:])
    _say(f"end (exit {code})")
    return code


if __name__ == "__main__":  # the dask workers start by importing this file: run once
    raise SystemExit(main())
