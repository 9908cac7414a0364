"""Statewide scale benchmark (issue 14): ``wetland_gis`` against geopandas baselines.

Run ``make bench-scale`` (N = 20,000 and 200,000) or
``python benchmarks/scale.py --n 20000 200000 1000000``. For each N it:

1. builds the synthetic Minnesota-sized world (``benchmarks/world.py``, deterministic);
2. checks, before timing anything, that ``wetland_gis.classify_impacts`` and the careful
   geopandas baseline agree on the first 2,000 impacts (zone areas within 0.01 sq ft;
   identical county, major, minor, bank service area and incorporated), and stops if not;
3. times, each in its own subprocess (wall time, and peak memory ``VmHWM`` of each subprocess):
   the bare STRtree query floor; ``wetland_gis`` assess streamed in chunks of 50,000
   impacts (``partitioned.stream_assess``: read, classify, decide, write GeoParquet) and
   its spatial side alone on the whole layer (read + clean + classify); ``wg.assess`` in
   memory on the whole layer (its peak is issue 23's in-memory target; ``--no-in-memory``
   leaves it out); with ``--engines`` the command line with ``--engine chunks`` and
   ``--engine dask`` (a local cluster of 2 workers; the client's peak, and the workers');
   the careful baseline; the obvious baseline (buffer, union, overlay) only up to
   ``--obvious-max`` impacts and with a time-out, its absence recorded;
4. prints a Markdown table with the ratios (``assess / careful script`` as "1.6x slower"
   or "1.2x faster") and the fitted exponent of the cost in N.

The baselines buffer as a geopandas script does (``quad_segs=32``, vertices on the
circle). ``wetland_gis`` restores the round joins of the zones (issue 14, section 3), so
the agreement check to 0.01 sq ft runs it with that correction off
(``shoreland.ARC_QUAD_SEGS = 0``, the same geometry as the baseline) and then reports how
far the exact zones are from the baseline's (the baseline is short, never over).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parent))
import world  # noqa: E402

AS_OF = "2024-05-01"
CHECK_N = 2_000
CHUNK = 50_000  # impacts per streamed chunk of whole projects
ZONE_TOL_SQFT = 0.01
JOIN_FIELDS = ("county", "major", "minor", "bsa", "incorporated")
ZONE_FIELDS = ("sqft_setback", "sqft_protection", "sqft_outside")


# ----------------------------------------------------------------------------- the runs


def read_impacts(path: Path, limit: int | None = None) -> gpd.GeoDataFrame:
    gdf = gpd.read_parquet(path)
    return gdf.iloc[:limit].copy() if limit else gdf


def _waters(ctx_dir: Path):
    """Return the public waters with their setback and protection distances (metres)."""
    import wetland_gis as wg
    from wetland_gis.geometry.shoreland import public_waters

    ctx = wg.load_context(ctx_dir, as_of=AS_OF)
    return ctx, public_waters(ctx, as_of=AS_OF)


def run_floor(impacts_path: Path, ctx_dir: Path) -> dict:
    """Time the bare STRtree queries: one per context layer, all impacts at once."""
    from wetland_gis.units import FOOT_M

    imp = read_impacts(impacts_path)
    ctx, waters = _waters(ctx_dir)
    geoms = imp.geometry.to_numpy()
    t0 = time.perf_counter()
    pairs = 0
    for name in (
        "counties",
        "major_watersheds",
        "minor_watersheds",
        "bank_service_areas",
        "incorporated_areas",
        "calcareous_fens",
    ):
        layer = ctx.get(name)
        tree = shapely.STRtree(layer.geometry.to_numpy())
        pairs += tree.query(geoms, predicate="intersects").shape[1]
    reach = float(np.max(np.maximum(waters["protection_ft"], waters["state_setback_ft"])))
    tree = shapely.STRtree(waters.geometry.to_numpy())
    pairs += tree.query(geoms, predicate="dwithin", distance=reach * FOOT_M).shape[1]
    return {"seconds": time.perf_counter() - t0, "pairs": int(pairs)}


def run_assess(impacts_path: Path, ctx_dir: Path, out: Path, spatial_only: bool) -> dict:
    """Time ``wetland_gis`` from the file: spatial side only, or the whole ``assess``."""

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if spatial_only:
            table = spatial_side(impacts_path, ctx_dir)
            table.to_parquet(out)
        else:
            from wetland_gis.partitioned import stream_assess

            stream_assess(
                impacts_path,
                out,
                ctx_dir,
                chunk_size=CHUNK,
                as_of=AS_OF,
                progress_bar=False,
                overwrite=True,
            )
    return {"seconds": time.perf_counter() - t0}


def run_in_memory(impacts_path: Path, ctx_dir: Path) -> dict:
    """Time ``wg.assess`` on the whole layer in memory (read, classify, decide; no write)."""
    import wetland_gis as wg

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = wg.assess(
            gpd.read_parquet(impacts_path),
            wg.load_context(ctx_dir, as_of=AS_OF),
            as_of=AS_OF,
            check_memory=False,
        )
    return {"seconds": time.perf_counter() - t0, "impacts": len(result.impacts)}


def run_engine(engine: str, impacts_path: Path, ctx_dir: Path, out: Path) -> dict:
    """Time ``wetland-gis assess --engine ENGINE --chunk-size CHUNK`` to GeoParquet.

    The peak is the client's (this process); the dask workers' peak is reported apart
    (``workers_peak_gib``: the largest of the child processes, from ``RUSAGE_CHILDREN``,
    an upper bound: Linux carries a peak over ``fork``).
    """
    from wetland_gis.cli import main as cli

    argv = [
        "assess",
        str(impacts_path),
        "--context",
        str(ctx_dir),
        "--as-of",
        AS_OF,
        "--out",
        str(out),
        "--engine",
        engine,
        "--chunk-size",
        str(CHUNK),
        "--quiet",
        "--overwrite",
    ]
    t0 = time.perf_counter()
    code = cli(argv)
    res = {"seconds": time.perf_counter() - t0, "exit": code}
    res["workers_peak_gib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    return res


def spatial_side(impacts_path: Path | gpd.GeoDataFrame, ctx_dir: Path) -> pd.DataFrame:
    """Read, clean and classify with ``wetland_gis`` (no rules); return the columns compared."""
    import wetland_gis as wg
    from wetland_gis.geometry.classify import classify_impacts
    from wetland_gis.geometry.cleaning import clean_polygons
    from wetland_gis.geometry.crs import to_working_crs

    gdf = (
        impacts_path
        if isinstance(impacts_path, gpd.GeoDataFrame)
        else gpd.read_parquet(impacts_path)
    )
    gdf, _ = to_working_crs(gdf, source="bench")
    gdf = clean_polygons(gdf, source="bench", id_field="impact_id").gdf
    ctx = wg.load_context(ctx_dir, as_of=AS_OF)
    out = classify_impacts(gdf, ctx, as_of=AS_OF).gdf
    return pd.DataFrame(out[["impact_id", "area_sqft", *JOIN_FIELDS, *ZONE_FIELDS]])


def _plain_buffer(geoms, distance):
    from wetland_gis.geometry.shoreland import QUAD_SEGS

    return shapely.buffer(geoms, distance, quad_segs=QUAD_SEGS)


def careful(impacts: gpd.GeoDataFrame, ctx_dir: Path) -> pd.DataFrame:
    """The careful geopandas script: overlay per layer, buffer each water per zone, groupby."""
    from wetland_gis.units import FOOT_M, SQFT_PER_SQM

    ctx, waters = _waters(ctx_dir)
    imp = impacts[["impact_id", "geometry"]].reset_index(drop=True)
    out = pd.DataFrame({"impact_id": imp["impact_id"]})
    out["area_sqft"] = imp.area.to_numpy() * SQFT_PER_SQM
    for layer_name, field, col in (
        ("counties", "NAME", "county"),
        ("major_watersheds", "major", "major"),
        ("minor_watersheds", "minor", "minor"),
        ("bank_service_areas", "bsa", "bsa"),
    ):
        layer = ctx.get(layer_name)[[field, "geometry"]]
        ov = gpd.overlay(imp, layer, how="intersection", keep_geom_type=True)
        ov["a"] = ov.area
        best = ov.sort_values(["impact_id", "a"], ascending=[True, False]).drop_duplicates(
            "impact_id"
        )
        out[col] = out["impact_id"].map(best.set_index("impact_id")[field])
    cities = ctx.get("incorporated_areas")[["geometry"]]
    ov = gpd.overlay(imp, cities, how="intersection", keep_geom_type=True)
    inside = ov.dissolve("impact_id").area
    share = (
        out["impact_id"].map(inside).fillna(0.0).to_numpy()
        * SQFT_PER_SQM
        / out["area_sqft"].to_numpy()
    )
    out["incorporated"] = share >= 0.5

    def zone_sqft(distance_m: np.ndarray) -> np.ndarray:
        pieces = []
        for d in np.unique(distance_m):
            sel = waters.loc[distance_m == d, ["geometry"]]
            buf = gpd.GeoDataFrame(
                geometry=_plain_buffer(sel.geometry.to_numpy(), float(d)), crs=waters.crs
            )
            pieces.append(gpd.overlay(imp, buf, how="intersection", keep_geom_type=True))
        allp = pd.concat(pieces, ignore_index=True)
        merged = allp.dissolve("impact_id").area
        return out["impact_id"].map(merged).fillna(0.0).to_numpy() * SQFT_PER_SQM

    setback_m = waters["state_setback_ft"].to_numpy() * FOOT_M
    prot_m = waters["protection_ft"].to_numpy() * FOOT_M
    s = zone_sqft(setback_m)
    # within the protection or the setback distance of any water
    d = zone_sqft(np.maximum(setback_m, prot_m))
    out["sqft_setback"] = np.minimum(s, out["area_sqft"])
    out["sqft_protection"] = np.clip(d, out["sqft_setback"], out["area_sqft"]) - out["sqft_setback"]
    out["sqft_outside"] = np.maximum(
        out["area_sqft"] - out["sqft_setback"] - out["sqft_protection"], 0.0
    )
    return out


def obvious(impacts: gpd.GeoDataFrame, ctx_dir: Path) -> pd.DataFrame:
    """The obvious script: buffer every water, union them all, overlay the impacts."""
    from wetland_gis.units import FOOT_M, SQFT_PER_SQM

    _, waters = _waters(ctx_dir)
    imp = impacts[["impact_id", "geometry"]].reset_index(drop=True)
    setback_m = waters["state_setback_ft"].to_numpy() * FOOT_M
    zone = shapely.union_all(_plain_buffer(waters.geometry.to_numpy(), setback_m))
    ov = gpd.overlay(imp, gpd.GeoDataFrame(geometry=[zone], crs=waters.crs), how="intersection")
    out = pd.DataFrame({"impact_id": imp["impact_id"]})
    out["sqft_setback"] = out["impact_id"].map(ov.set_index("impact_id").area) * SQFT_PER_SQM
    return out


def run_baseline(kind: str, impacts_path: Path, ctx_dir: Path, out: Path) -> dict:
    imp = read_impacts(impacts_path)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = careful(imp, ctx_dir) if kind == "careful" else obvious(imp, ctx_dir)
    seconds = time.perf_counter() - t0
    table.to_parquet(out)
    return {"seconds": seconds}


# ------------------------------------------------------------------------ the agreement


def compare(ours: pd.DataFrame, theirs: pd.DataFrame) -> list[str]:
    """Return the disagreements between ``wetland_gis`` and the careful baseline."""
    a = ours.set_index("impact_id").sort_index()
    b = theirs.set_index("impact_id").sort_index()
    problems = []
    for col in ZONE_FIELDS:
        diff = np.abs(a[col].to_numpy(float) - b[col].to_numpy(float))
        if np.nanmax(diff, initial=0.0) > ZONE_TOL_SQFT:
            worst = a.index[int(np.nanargmax(diff))]
            problems.append(f"{col}: max difference {np.nanmax(diff):.4f} sq ft ({worst})")
    for col in JOIN_FIELDS:
        x = [_norm(v) for v in a[col]]
        y = [_norm(v) for v in b[col]]
        bad = np.array([u != v for u, v in zip(x, y, strict=True)], dtype=bool)
        if bad.any():
            problems.append(f"{col}: {int(bad.sum())} differ (e.g. {a.index[bad][0]})")
    return problems


def _norm(v):
    if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)):
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    try:
        return int(v)
    except (TypeError, ValueError):
        return str(v)


def check_agreement(impacts_path: Path, ctx_dir: Path, n: int = CHECK_N) -> str:
    """Stop unless wetland_gis (plain buffers) and the careful baseline agree on ``n`` impacts."""
    from wetland_gis.geometry import shoreland

    imp = read_impacts(impacts_path, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = careful(imp, ctx_dir)
        exact = spatial_side(imp, ctx_dir)
        arc, shoreland.ARC_QUAD_SEGS = shoreland.ARC_QUAD_SEGS, 0
        try:
            plain = spatial_side(imp, ctx_dir)
        finally:
            shoreland.ARC_QUAD_SEGS = arc
    problems = compare(plain, theirs)
    if problems:
        raise SystemExit("wetland_gis and the careful baseline disagree: " + "; ".join(problems))
    b = theirs.set_index("impact_id").loc[plain["impact_id"]]
    same = max(
        float(np.nanmax(np.abs(plain[c].to_numpy(float) - b[c].to_numpy(float)), initial=0.0))
        for c in ZONE_FIELDS
    )
    gap_s = exact["sqft_setback"].to_numpy() - b["sqft_setback"].to_numpy()
    gap_d = (exact["sqft_setback"] + exact["sqft_protection"]).to_numpy() - (
        b["sqft_setback"] + b["sqft_protection"]
    ).to_numpy()
    return (
        f"agree on {len(imp)} impacts: max zone difference {same:.5f} sq ft with the same "
        f"buffers; the exact zones exceed the baseline's by up to {gap_s.max():.2f} sq ft "
        f"(setback) and {gap_d.max():.2f} sq ft (protection reach), never less "
        f"(min {min(gap_s.min(), gap_d.min()):.4f})"
    )


# ------------------------------------------------------------------------------ driver


def _child(args: list[str], timeout: float | None) -> dict | None:
    cmd = [sys.executable, __file__, "_run", *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _fmt(res: dict | None, what: str = "seconds") -> str:
    if res is None:
        return "timed out"
    if res.get("skipped"):
        return res["skipped"]
    return f"{res[what]:.1f} s, {res['peak_gib']:.2f} GiB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="statewide scale benchmark (issue 14)")
    parser.add_argument("--n", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--world", type=Path, default=Path("outputs/bench_world"))
    parser.add_argument("--obvious-max", type=int, default=2_000)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument(
        "--skip-full", action="store_true", help="time the spatial side only, not the whole assess"
    )
    parser.add_argument(
        "--no-in-memory",
        action="store_true",
        help="leave out the in-memory wg.assess run (its time and peak)",
    )
    parser.add_argument(
        "--engines",
        action="store_true",
        help="also time the CLI with --engine chunks and --engine dask (2 local workers)",
    )
    args = parser.parse_args(argv)
    paths = world.write(args.world, sorted({*args.n, CHECK_N}))
    ctx = paths["context"]
    print(check_agreement(paths[f"impacts_{CHECK_N}"], ctx), flush=True)
    rows = []
    for n in args.n:
        p = str(paths[f"impacts_{n}"])
        res = {"n": n}
        res["floor"] = _child(["floor", p, str(ctx)], args.timeout)
        res["spatial"] = _child(["spatial", p, str(ctx)], args.timeout)
        res["assess"] = (
            {"skipped": "not run"} if args.skip_full else _child(["assess", p, str(ctx)], None)
        )
        res["memory"] = (
            {"skipped": "not run"} if args.no_in_memory else _child(["memory", p, str(ctx)], None)
        )
        for engine in ("chunks", "dask"):
            res[engine] = (
                _child([engine, p, str(ctx)], None) if args.engines else {"skipped": "not run"}
            )
        res["careful"] = _child(["careful", p, str(ctx)], args.timeout)
        res["obvious"] = (
            _child(["obvious", p, str(ctx)], args.timeout)
            if n <= args.obvious_max
            else {"skipped": f"not run (> {args.obvious_max:,} impacts)"}
        )
        ours = pd.read_parquet(args.world / f"out_spatial_{n}.parquet")
        theirs = pd.read_parquet(args.world / f"out_careful_{n}.parquet")
        # the full runs differ only by the restored round joins (exact zones >= baseline)
        joins = [p for p in compare(ours, theirs) if not p.startswith("sqft_")]
        res["agree"] = joins or ["same joins"]
        rows.append(res)
        print(json.dumps(res), flush=True)
    print(table(rows))
    return 0


def _times(ours: float, theirs: float) -> str:
    """Say how ``ours`` compares with ``theirs``: ``1.6x slower`` or ``1.2x faster``."""
    if not (ours > 0 and theirs > 0):
        return ""
    return f"{ours / theirs:.1f}x slower" if ours > theirs else f"{theirs / ours:.1f}x faster"


def _secs(res: dict | None) -> float:
    return res.get("seconds", float("nan")) if res else float("nan")


def table(rows: list[dict]) -> str:
    """Return the Markdown table of issue 23 (and the exponents of time in N)."""
    lines = [
        "| impacts | `assess` streamed (whole, GeoParquet) | `wg.assess` in memory | "
        "`--engine chunks` | `--engine dask` (client; workers) | spatial side | bare index floor "
        "| careful geopandas | obvious geopandas | assess / floor | assess / careful script "
        "| agreement |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        floor = _secs(r["floor"])
        asx = _secs(r["assess"])
        dask = _fmt(r.get("dask"))
        if r.get("dask") and "workers_peak_gib" in r["dask"]:
            dask += f"; {r['dask']['workers_peak_gib']:.2f} GiB"
        lines.append(
            f"| {r['n']:,} | {_fmt(r['assess'])} | {_fmt(r.get('memory'))} | "
            f"{_fmt(r.get('chunks'))} | {dask} | {_fmt(r['spatial'])} | {_fmt(r['floor'])} | "
            f"{_fmt(r['careful'])} | {_fmt(r['obvious'])} | {asx / floor:.1f}x | "
            f"{_times(asx, _secs(r['careful']))} | {'; '.join(r['agree'])} |"
        )
    if len(rows) >= 2:
        ns = np.log([r["n"] for r in rows])
        for key in ("spatial", "assess", "memory"):
            ts = [r[key].get("seconds") if r[key] else None for r in rows]
            if all(t for t in ts):
                k = np.polyfit(ns, np.log(ts), 1)[0]
                lines.append(f"\nMeasured exponent of `{key}` time in N: {k:.2f}")
    return "\n".join(lines)


def peak_gib() -> float:
    """Return this process's peak resident memory in GiB (``VmHWM``).

    Not ``ru_maxrss``: on Linux that survives ``fork`` and ``exec``, so a child run would
    report at least the benchmark driver's own peak (the world it holds).
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 2**20
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def _run(argv: list[str]) -> int:
    what, impacts_path, ctx_dir = argv[0], Path(argv[1]), Path(argv[2])
    n = impacts_path.stem.split("_")[-1]
    out = impacts_path.parent / f"out_{what}_{n}.parquet"
    if what == "floor":
        res = run_floor(impacts_path, ctx_dir)
    elif what in ("spatial", "assess"):
        res = run_assess(impacts_path, ctx_dir, out, spatial_only=what == "spatial")
    elif what == "memory":
        res = run_in_memory(impacts_path, ctx_dir)
    elif what in ("chunks", "dask"):
        res = run_engine(what, impacts_path, ctx_dir, out)
    else:
        res = run_baseline(what, impacts_path, ctx_dir, out)
    res["peak_gib"] = peak_gib()
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    if len(sys.argv) > 1 and sys.argv[1] == "_run":
        raise SystemExit(_run(sys.argv[2:]))
    raise SystemExit(main())
