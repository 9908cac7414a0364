"""Resident memory by step of an in-memory ``wg.assess`` (issue 23).

Wraps the stages of :mod:`wetland_gis.assess` (read, clean, classify, facts, decide, trace
table, text columns, summary) and prints, for each, ``VmRSS`` before and after, ``VmHWM``
(the peak so far) and its wall time; then what freeing parts of the result gives back::

    PYTHONPATH=$PWD python benchmarks/assess_probe.py 50000 --world /tmp/h13/world
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import sys
import time
import warnings
from pathlib import Path
from typing import Any

AS_OF = "2024-05-01"
STEPS = (
    "read_impacts",
    "clean_and_type",
    "classify_impacts",
    "flag_overlaps",
    "_apply_engine",
    "impact_facts",
    "decide_projects",
    "_trace_table",
    "_render_by_impact",
    "summary_table",
)


def _status(key: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return round(int(line.split()[1]) / 2**20, 2)
    return float("nan")


def _wrap(module: Any, name: str) -> None:
    func = getattr(module, name)

    @functools.wraps(func)
    def probed(*args: Any, **kwargs: Any) -> Any:
        before, t0 = _status("VmRSS:"), time.perf_counter()
        out = func(*args, **kwargs)
        print(
            f"{name}: rss {before} -> {_status('VmRSS:')} GiB, peak {_status('VmHWM:')} GiB, "
            f"{time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        return out

    setattr(module, name, probed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("--world", type=Path, default=Path("outputs/bench_world"))
    args = parser.parse_args()
    import wetland_gis as wg

    importlib.import_module("wetland_gis.assess")
    module = sys.modules["wetland_gis.assess"]  # the package binds the function's name
    for name in STEPS:
        if hasattr(module, name):
            _wrap(module, name)
    warnings.simplefilter("ignore")
    ctx = wg.load_context(args.world / "context", as_of=AS_OF)
    gc.collect()
    print("context loaded: rss", _status("VmRSS:"), "GiB")
    result = wg.assess(
        args.world / f"impacts_{args.n}.parquet", ctx, as_of=AS_OF, check_memory=False
    )
    gc.collect()
    print("result: rss", _status("VmRSS:"), "GiB, peak", _status("VmHWM:"), "GiB")
    result.decisions.clear()
    gc.collect()
    print("decisions freed: rss", _status("VmRSS:"))
    result.trace = None  # type: ignore[assignment]
    gc.collect()
    print("trace freed: rss", _status("VmRSS:"))
    result.impacts = None  # type: ignore[assignment]
    gc.collect()
    print("impacts freed: rss", _status("VmRSS:"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
