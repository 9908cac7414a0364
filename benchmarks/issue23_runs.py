"""Step runs of issue 23: classification, in-memory assess, cProfile of the classification.

Each prints one JSON line: wall seconds, CPU seconds (``time.process_time``), peak
resident memory (``ru_maxrss``) and the load average, so that main and a branch can be
compared one after the other on a shared machine (``benchmarks/README.md``, issue 23)::

    python benchmarks/world.py --n 50000 200000 --out /tmp/world
    PYTHONPATH=$PWD python benchmarks/issue23_runs.py classify 50000 --world /tmp/world
    PYTHONPATH=$PWD python benchmarks/issue23_runs.py assess 50000 --world /tmp/world
    PYTHONPATH=$PWD python benchmarks/issue23_runs.py profile 200000 --world /tmp/world
    PYTHONPATH=$PWD python benchmarks/issue23_runs.py steps 50000 --world /tmp/world

``steps`` times ``classify_impacts`` and ``flag_overlaps`` alone (after reading, cleaning
and loading the context), ``--repeat`` times, and prints the CPU seconds of each run.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import time
import warnings
from pathlib import Path

AS_OF = "2024-05-01"


def _classify(impacts: Path, ctx_dir: Path) -> None:
    import geopandas as gpd

    import wetland_gis as wg
    from wetland_gis.geometry.classify import classify_impacts
    from wetland_gis.geometry.cleaning import clean_polygons
    from wetland_gis.geometry.crs import to_working_crs

    gdf, _ = to_working_crs(gpd.read_parquet(impacts), source="bench")
    gdf = clean_polygons(gdf, source="bench", id_field="impact_id").gdf
    classify_impacts(gdf, wg.load_context(ctx_dir, as_of=AS_OF), as_of=AS_OF)


def _assess(impacts: Path, ctx_dir: Path) -> None:
    import inspect

    import wetland_gis as wg

    ctx = wg.load_context(ctx_dir, as_of=AS_OF)
    kw = (
        {"check_memory": False} if "check_memory" in inspect.signature(wg.assess).parameters else {}
    )
    wg.assess(impacts, ctx, as_of=AS_OF, **kw)


def _steps(impacts: Path, ctx_dir: Path, repeat: int) -> dict[str, list[float]]:
    import geopandas as gpd

    import wetland_gis as wg
    from wetland_gis.geometry.classify import classify_impacts
    from wetland_gis.geometry.cleaning import clean_polygons
    from wetland_gis.geometry.crs import to_working_crs
    from wetland_gis.geometry.overlay import flag_overlaps

    gdf, _ = to_working_crs(gpd.read_parquet(impacts), source="bench")
    gdf = clean_polygons(gdf, source="bench", id_field="impact_id").gdf
    ctx = wg.load_context(ctx_dir, as_of=AS_OF)
    out: dict[str, list[float]] = {"classify_cpu_s": [], "flag_overlaps_cpu_s": []}
    for _ in range(repeat):
        c0 = time.process_time()
        classify_impacts(gdf, ctx, as_of=AS_OF)
        out["classify_cpu_s"].append(round(time.process_time() - c0, 2))
        frame = gdf.copy()
        c0 = time.process_time()
        flag_overlaps(frame, "impact_id", [])
        out["flag_overlaps_cpu_s"].append(round(time.process_time() - c0, 2))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["classify", "assess", "profile", "steps"])
    parser.add_argument("n", type=int)
    parser.add_argument("--world", type=Path, default=Path("outputs/bench_world"))
    parser.add_argument("--stats", type=Path, default=None, help="cProfile output (profile)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step (steps)")
    args = parser.parse_args()
    impacts = args.world / f"impacts_{args.n}.parquet"
    ctx_dir = args.world / "context"
    warnings.simplefilter("ignore")
    t0, c0 = time.perf_counter(), time.process_time()
    steps: dict[str, list[float]] = {}
    if args.what == "steps":
        steps = _steps(impacts, ctx_dir, args.repeat)
    elif args.what == "profile":
        prof = cProfile.Profile()
        prof.runcall(_classify, impacts, ctx_dir)
    else:
        (_classify if args.what == "classify" else _assess)(impacts, ctx_dir)
    res = {
        "what": args.what,
        "n": args.n,
        "wall_s": round(time.perf_counter() - t0, 1),
        "cpu_s": round(time.process_time() - c0, 1),
        "peak_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
        "load": Path("/proc/loadavg").read_text().split()[:3],
        **steps,
    }
    print(json.dumps(res))
    if args.what == "profile":
        stats = pstats.Stats(prof)
        if args.stats:
            stats.dump_stats(args.stats)
        stats.sort_stats("cumulative").print_stats(40)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
