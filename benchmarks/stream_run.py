"""Run the streamed ``assess`` of ``make bench-scale`` once, optionally under cProfile.

``partitioned.stream_assess`` (chunks of 50,000 whole projects: read, classify, decide,
write GeoParquet) on ``WORLD/impacts_N.parquet`` with the context ``WORLD/context``,
writing ``OUT/a.parquet`` and its siblings; prints wall and CPU seconds and the peak
resident memory (``ru_maxrss`` of this process, started from a shell)::

    python benchmarks/world.py --n 50000 200000 --out /tmp/w
    PYTHONPATH=$PWD python benchmarks/stream_run.py 50000 OUT --world /tmp/w [--profile s.prof]
    PYTHONPATH=$PWD python benchmarks/stream_run.py 200000 OUT --world /tmp/w --steps

``--steps`` prints the CPU seconds of each stage (:data:`STEPS`, summed over the chunks;
the stages inside ``_apply_engine`` are part of its figure).

Compare two runs' outputs with ``benchmarks/compare_outputs.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import resource
import time
import warnings
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The stages timed by ``--steps``: module, function names.
STEPS = {
    "wetland_gis.assess": (
        "clean_and_type",
        "classify_impacts",
        "flag_overlaps",
        "_apply_engine",
        "impact_facts",
        "decide_projects",
        "_trace_table",
        "_render_by_impact",
        "summary_table",
        "as_context",  # the request loads the context (AssessRequest.loaded_context)
    ),
    "wetland_gis.partitioned": ("_read", "_arrow", "disk_table", "write_csv"),
}


def _time_steps() -> dict[str, float]:
    """Wrap the :data:`STEPS` with CPU timers; return the totals (filled as they run)."""
    import importlib

    totals: dict[str, float] = defaultdict(float)

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                totals[name] += time.process_time() - t

        return run

    for module, names in STEPS.items():
        mod = importlib.import_module(module)
        for name in names:
            if hasattr(mod, name):
                setattr(mod, name, timed(name, getattr(mod, name)))
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--world", type=Path, default=Path("outputs/bench_world"))
    parser.add_argument("--chunk-size", type=int, default=50_000)
    parser.add_argument("--profile", type=Path, help="write cProfile statistics here")
    parser.add_argument("--steps", action="store_true", help="print CPU seconds by stage")
    args = parser.parse_args(argv)
    totals = _time_steps() if args.steps else {}
    from wetland_gis.partitioned import stream_assess

    args.out.mkdir(parents=True, exist_ok=True)
    warnings.simplefilter("ignore")
    wall, cpu = time.perf_counter(), time.process_time()
    profile = cProfile.Profile() if args.profile else None
    if profile:
        profile.enable()
    stream_assess(
        args.world / f"impacts_{args.n}.parquet",
        args.out / "a.parquet",
        args.world / "context",
        chunk_size=args.chunk_size,
        as_of="2024-05-01",
        progress_bar=False,
        overwrite=True,
    )
    if profile:
        profile.disable()
        profile.dump_stats(args.profile)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(
        f"wall {time.perf_counter() - wall:.1f} s, cpu {time.process_time() - cpu:.1f} s, "
        f"peak {peak:.2f} GiB"
    )
    for name, seconds in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {name:20s} {seconds:6.2f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
