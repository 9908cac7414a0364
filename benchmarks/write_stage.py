"""Time and peak memory of ``wg.assess`` in memory and of its ``write()`` (issue 23).

Prints one JSON line: wall and CPU seconds and the peak resident memory of the assess
call, then of ``write()`` alone (the kernel's peak counter ``VmHWM`` is reset between
them through ``/proc/self/clear_refs``), so a checkout's figures can be compared with
another's on the same world (``benchmarks/README.md``, issue 23)::

    python benchmarks/world.py --n 50000 --out /tmp/world
    PYTHONPATH=$PWD python benchmarks/write_stage.py 50000 --world /tmp/world --out /tmp/a/a.parquet
    python benchmarks/write_stage.py --compare /tmp/a/a.parquet /tmp/b/b.parquet
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

AS_OF = "2024-05-01"


def _hwm_gib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 2**20, 2)
    return float("nan")


def _reset_hwm() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def run(n: int, world: Path, out: Path) -> dict[str, object]:
    """Assess ``impacts_<n>.parquet`` of ``world`` in memory, then write it to ``out``."""
    import inspect

    import wetland_gis as wg

    warnings.simplefilter("ignore")
    res: dict[str, object] = {"n": n}
    t0, c0 = time.perf_counter(), time.process_time()
    ctx = wg.load_context(world / "context", as_of=AS_OF)
    kw = (
        {"check_memory": False} if "check_memory" in inspect.signature(wg.assess).parameters else {}
    )
    result = wg.assess(world / f"impacts_{n}.parquet", ctx, as_of=AS_OF, **kw)
    res["assess"] = [round(time.perf_counter() - t0, 1), round(time.process_time() - c0, 1)]
    res["assess_peak_gib"] = _hwm_gib()
    _reset_hwm()
    t0, c0 = time.perf_counter(), time.process_time()
    out.parent.mkdir(parents=True, exist_ok=True)
    result.write(out, overwrite=True)
    res["write"] = [round(time.perf_counter() - t0, 1), round(time.process_time() - c0, 1)]
    res["write_peak_gib"] = _hwm_gib()
    res["load"] = Path("/proc/loadavg").read_text().split()[:3]
    return res


def compare(a: Path, b: Path) -> list[str]:
    """Return the outputs of two ``write()`` calls that differ (empty when all agree)."""
    import geopandas as gpd
    import pandas as pd

    bad = []
    ga, gb = gpd.read_parquet(a), gpd.read_parquet(b)
    if not (ga.drop(columns="geometry").equals(gb.drop(columns="geometry"))):
        bad.append(f"{a.name}: attributes")
    if not ga.geometry.geom_equals_exact(gb.geometry, 0).all():
        bad.append(f"{a.name}: geometry")
    for suffix in ("_summary.csv", "_projects.csv"):
        fa, fb = (Path(f"{p.with_suffix('')}{suffix}") for p in (a, b))
        if not pd.read_csv(fa).equals(pd.read_csv(fb)):
            bad.append(suffix)
    for suffix in ("_decisions.parquet", "_decisions.json"):  # the trace, as written
        ja, jb = (Path(f"{p.with_suffix('')}{suffix}") for p in (a, b))
        if ja.exists() or jb.exists():
            if not (ja.exists() and jb.exists()) or ja.read_bytes() != jb.read_bytes():
                bad.append(f"{suffix} (bytes)")
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?")
    parser.add_argument("--world", type=Path, default=Path("outputs/bench_world"))
    parser.add_argument("--out", type=Path, default=Path("outputs/write_stage/a.parquet"))
    parser.add_argument("--compare", type=Path, nargs=2, default=None)
    args = parser.parse_args()
    if args.compare:
        bad = compare(*args.compare)
        print("identical" if not bad else "differ: " + ", ".join(bad))
        return 1 if bad else 0
    print(json.dumps(run(args.n, args.world, args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
