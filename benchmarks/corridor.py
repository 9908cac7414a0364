"""A SYNTHETIC road corridor of N impacts for the large-project benchmark (issue 21).

The impacts are small boxes (8-60 m a side) strung along a 120 km line across Wright and
Hennepin counties, over the synthetic context of ``sample_data/`` (the same context the
sample projects use), with the attribute forms of the Wright sample (types written as a
person types them, fill / drain / excavate, land use), all in one project. Seeded: the
same arguments always give the same file. Made up; never for a real decision.

``python benchmarks/corridor.py --n 5000 --out /tmp/corridor.gpkg``; then the benchmark
(``benchmarks/README.md``, "A 5,000-impact corridor") runs ``assess``, ``map`` and
``report --pdf`` on it under ``/usr/bin/time -v``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely

ROOT = Path(__file__).resolve().parents[1]
CONTEXT = ROOT / "sample_data" / "synthetic_context.gpkg"
CRS = "EPSG:26915"
SEED = 21
#: The corridor's ends (EPSG:26915): west of the Wright sample to east of Minneapolis.
START = (400_000.0, 4_995_000.0)
END = (500_000.0, 5_050_000.0)
TYPES = ("1", "2", "Type 3", "T7", "type 3/4", "6", "5", "8", "")
KINDS = ("fill", "fill", "fill", "drain", "excavate")
LAND = ("nonagricultural", "nonagricultural", "agricultural")
CODES = ("PEM1B", "PEM1C", "PFO1B", "PEM1F", "PSS1C", "PUBH")


def corridor(n: int, seed: int = SEED) -> gpd.GeoDataFrame:
    """Return ``n`` SYNTHETIC impacts along the corridor, ids ``R-1`` ... ``R-n``."""
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(0.0, 1.0, n))
    x = START[0] + t * (END[0] - START[0])
    y = START[1] + t * (END[1] - START[1])
    # a gently winding road, impacts either side of it within 80 m
    y = y + 3_000.0 * np.sin(t * 9.0) + rng.normal(0.0, 40.0, n)
    x = x + rng.normal(0.0, 40.0, n)
    w = rng.uniform(8.0, 60.0, n)
    h = rng.uniform(8.0, 60.0, n)
    geoms = shapely.box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    return gpd.GeoDataFrame(
        {
            "impact_id": [f"R-{i + 1}" for i in range(n)],
            "project": "SYNTHETIC corridor",
            "circ39": rng.choice(TYPES, n),
            "attribute": rng.choice(CODES, n),
            "cedar_tam": 0,
            "impact": rng.choice(KINDS, n),
            "land_use": rng.choice(LAND, n),
            "wetland_ac": np.round(rng.uniform(0.5, 8.0, n), 1),
        },
        geometry=geoms,
        crs=CRS,
    )


def main(argv: list[str] | None = None) -> int:
    """Write the corridor GeoPackage; return 0."""
    parser = argparse.ArgumentParser(prog="python benchmarks/corridor.py")
    parser.add_argument("--n", type=int, default=5_000)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    from wetland_gis.io.layers import write_layer

    args.out.unlink(missing_ok=True)
    write_layer(corridor(args.n), args.out, layer="impacts")
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
