"""Issue 35's speed target: a 100 km pipeline right of way against 200,000 NWI-like wetlands.

Writes (seeded, SYNTHETIC, EPSG:26915) a right of way 30 m wide along a gently winding
100 km route, split into parts every 100 m (1,000 parts; each part ends where the next
begins), and 200,000 NWI-like wetland polygons (``ATTRIBUTE``, ``WETLAND_TYPE``, ``ACRES``;
irregular outlines of 24 vertices, 0.05 to 8 acres, one to a cell of a jittered grid, so none
overlaps another) over a 140 km square around the route (about 10 polygons a square
kilometre, the density of the Minnesota NWI update). Then times ``wetland-gis impacts`` on
them (reading both layers, the cut, writing the impact layer, its source layers, the parts
table and the manifest) in a fresh process, the command as a user runs it.

``python benchmarks/footprint.py --out /tmp/fp35`` (add ``--wetlands 20000`` for a quick
look). The figures are in ``benchmarks/README.md`` ("Issue 35"). Made up; never for a real
decision.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely

CRS = "EPSG:26915"
SEED = 35
ORIGIN = (380_000.0, 4_980_000.0)  # south-west corner of the square (central Minnesota)
SIDE_M = 140_000.0
ROUTE_KM = 100.0
WIDTH_M = 30.0
PART_M = 100.0
VERTICES = 24
CODES = ("PEM1C", "PEM1A", "PEM1F", "PSS1C", "PFO1A", "PUBF", "PEM1B", "PSS1B", "PFO1C", "PABG")
NWI_TYPES = {
    "PEM": "Freshwater Emergent Wetland",
    "PSS": "Freshwater Forested/Shrub Wetland",
    "PFO": "Freshwater Forested/Shrub Wetland",
    "PUB": "Freshwater Pond",
    "PAB": "Freshwater Pond",
}


def route(seed: int = SEED) -> shapely.LineString:
    """Return the 100 km centre line: a diagonal across the square with gentle bends."""
    rng = np.random.default_rng(seed)
    n = 201
    t = np.linspace(0.0, 1.0, n)
    x0, y0 = ORIGIN[0] + 20_000, ORIGIN[1] + 20_000
    x = x0 + t * 70_000 + 1_500 * np.sin(6 * t + rng.uniform(0, 6))
    y = y0 + t * 70_000 + 1_500 * np.sin(9 * t + rng.uniform(0, 6))
    line = shapely.LineString(np.column_stack([x, y]))
    return shapely.affinity.scale(
        line, ROUTE_KM * 1000 / line.length, ROUTE_KM * 1000 / line.length, origin=(x0, y0)
    )


def right_of_way(seed: int = SEED) -> gpd.GeoDataFrame:
    """Return the right of way as 1,000 parts of 100 m (flat ends), one project, temporary."""
    line = route(seed)
    starts = np.arange(0.0, line.length, PART_M)
    pieces = [shapely.ops.substring(line, a, min(a + PART_M, line.length)) for a in starts]
    parts = shapely.buffer(np.array(pieces, dtype=object), WIDTH_M / 2, cap_style="flat")
    n = len(parts)
    return gpd.GeoDataFrame(
        {
            "part_id": [f"ROW-{i + 1:04d}" for i in range(n)],
            "project": "Synthetic pipeline (issue 35 benchmark)",
            "impact": "excavate",
            "duration": "temporary",
            "utility": "yes",
        },
        geometry=parts,
        crs=CRS,
    )


def wetlands(n: int, seed: int = SEED) -> gpd.GeoDataFrame:
    """Return ``n`` NWI-like polygons, one to a cell of a jittered grid (none overlapping)."""
    rng = np.random.default_rng(seed + 1)
    per_side = math.ceil(math.sqrt(n))
    cell = SIDE_M / per_side
    k = np.arange(n)
    cx = ORIGIN[0] + (k % per_side + 0.5) * cell
    cy = ORIGIN[1] + (k // per_side + 0.5) * cell
    acres = np.clip(rng.lognormal(mean=math.log(0.8), sigma=1.0, size=n), 0.05, 8.0)
    radius = np.sqrt(acres * 4046.8564224 / math.pi)
    radius = np.minimum(radius, 0.42 * cell)  # inside its cell: no overlap
    slack = 0.45 * cell - radius
    cx += rng.uniform(-1, 1, n) * slack * 0.8
    cy += rng.uniform(-1, 1, n) * slack * 0.8
    angle = np.linspace(0, 2 * math.pi, VERTICES, endpoint=False)
    phase = rng.uniform(0, 2 * math.pi, (n, 1))
    wobble = 1.0 + 0.12 * np.sin(3 * angle + phase) + 0.06 * np.sin(5 * angle + 2 * phase)
    aspect = rng.uniform(0.5, 1.0, (n, 1))
    xs = cx[:, None] + radius[:, None] * wobble * np.cos(angle)
    ys = cy[:, None] + radius[:, None] * wobble * aspect * np.sin(angle)
    ring = np.stack([xs, ys], axis=-1)
    ring = np.concatenate([ring, ring[:, :1]], axis=1)
    polygons = shapely.polygons(np.round(ring, 2))
    codes = np.array(CODES)[rng.integers(0, len(CODES), n)]
    return gpd.GeoDataFrame(
        {
            "ATTRIBUTE": codes,
            "WETLAND_TYPE": [NWI_TYPES[c[:3]] for c in codes],
            "ACRES": np.round(shapely.area(polygons) / 4046.8564224, 2),
        },
        geometry=polygons,
        crs=CRS,
    )


def main(argv: list[str] | None = None) -> int:
    """Write the two layers (once) and time ``wetland-gis impacts`` on them."""
    parser = argparse.ArgumentParser(prog="python benchmarks/footprint.py")
    parser.add_argument("--out", type=Path, required=True, help="folder for the layers and outputs")
    parser.add_argument("--wetlands", type=int, default=200_000, help="NWI-like polygons")
    parser.add_argument("--runs", type=int, default=3, help="timed runs")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    row = args.out / "pipeline_row.gpkg"
    nwi = args.out / f"nwi_like_{args.wetlands}.gpkg"
    if not row.exists():
        right_of_way().to_file(row)
    if not nwi.exists():
        t = time.perf_counter()
        wetlands(args.wetlands).to_file(nwi)
        print(f"wrote {nwi} in {time.perf_counter() - t:.1f} s")
    exe = Path(sys.executable).with_name("wetland-gis")
    command = [
        str(exe),
        "impacts",
        str(row),
        "--wetlands",
        str(nwi),
        "--out",
        str(args.out / "impacts.gpkg"),
        "--overwrite",
        "--quiet",
    ]
    print(" ".join(command))
    times = []
    for _ in range(args.runs):
        t = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if done.returncode:
            print(done.stderr)
            return done.returncode
    print(done.stderr.strip())
    print(f"wall seconds: {', '.join(f'{s:.2f}' for s in times)} (min {min(times):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
