"""A SYNTHETIC pipeline right of way of N impacts across four counties (issue 30).

What a real linear project brings, unlike the bundled samples: one project of thousands of
impacts, a 30 m right of way, every row with the exemption facts a pipeline's consultant
fills in (``utility=yes``, ``duration=temporary``, the kind of work, the wetland and its
size), and far more replacement demand than the bank credits of the sample context.

The right of way follows a line from western Wright County through Hennepin and Ramsey to
Washington County (EPSG:26915, over the SYNTHETIC context of ``sample_data/``). Each impact
is one 30 m wide cut of the right of way, 5 to 60 m long before the cuts are scaled to fit
70 % of the route (the part of a delineated wetland
the trench and its working strip cross), with a gap before the next. A few rows are given
a degenerate geometry on purpose (``--slivers``): a zero-width cut and a cut of under one
square foot, as a careless edit in QGIS leaves them. Seeded: the same arguments always give
the same file. Made up; never for a real decision.

``python benchmarks/pipeline.py --n 5000 --out /tmp/pipeline.gpkg``, then the commands of
``benchmarks/README.md`` ("Issue 30: the 5,000-impact pipeline").
"""

from __future__ import annotations

import argparse
from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely

CRS = "EPSG:26915"
SEED = 30
#: The route (EPSG:26915): Wright -> Hennepin -> Ramsey -> Washington (the four counties).
ROUTE = ((420_000.0, 5_030_000.0), (470_000.0, 4_995_000.0), (512_000.0, 4_965_000.0))
WIDTH_M = 30.0
TYPES = ("1", "2", "3", "3", "6", "2", "7", "5", "Type 3/4")
KINDS = ("excavate", "excavate", "fill", "excavate")
LAND = ("agricultural", "nonagricultural", "nonagricultural")


def pipeline(n: int, seed: int = SEED, slivers: bool = False) -> gpd.GeoDataFrame:
    """Return ``n`` SYNTHETIC pipeline impacts, ids ``P-1`` ... ``P-n``, in one project.

    Parameters
    ----------
    n : int
        Number of impacts (at least 1).
    seed : int, optional
        Seed of the random generator.
    slivers : bool, optional
        Make row 2 a zero-width cut and row 3 a cut of about half a square foot.

    Returns
    -------
    geopandas.GeoDataFrame
        The impacts in EPSG:26915 with the attribute columns a pipeline project carries.
    """
    if n < 1:
        raise ValueError(f"n was {n} but must be at least 1")
    rng = np.random.default_rng(seed)
    route = shapely.LineString(ROUTE)
    length = rng.uniform(5.0, 60.0, n)
    # the cuts take at most 70 % of the route, the rest is gaps between them
    length = length * min(1.0, 0.7 * route.length / length.sum())
    gap = rng.uniform(0.0, 1.0, n)
    gap = gap / gap.sum() * (route.length - length.sum())
    start = np.cumsum(np.concatenate([[0.0], (length + gap)[:-1]]))
    end = np.minimum(start + length, route.length)
    segments = [shapely.ops.substring(route, a, b) for a, b in zip(start, end, strict=True)]
    geoms = shapely.buffer(np.asarray(segments), WIDTH_M / 2.0, cap_style="flat")
    if slivers and n >= 3:
        x, y = shapely.get_coordinates(geoms[1])[0]
        geoms[1] = shapely.Polygon([(x, y), (x + 10.0, y), (x + 20.0, y), (x, y)])
        x, y = shapely.get_coordinates(geoms[2])[0]
        geoms[2] = shapely.box(x, y, x + 0.2, y + 0.2)
    wetland = np.round(rng.uniform(0.2, 12.0, n), 2)
    return gpd.GeoDataFrame(
        {
            "impact_id": [f"P-{i + 1}" for i in range(n)],
            "project": "SYNTHETIC pipeline",
            "wetland_id": [f"PW-{i + 1}" for i in range(n)],
            "circ39": rng.choice(TYPES, n),
            "cedar_tam": "no",
            "impact": rng.choice(KINDS, n),
            "duration": "temporary",
            "utility": "yes",
            "land_use": rng.choice(LAND, n),
            "wetland_ac": wetland,
            "owner": [f"Owner {i // 7 + 1}" for i in range(n)],
        },
        geometry=geoms,
        crs=CRS,
    )


def main(argv: list[str] | None = None) -> int:
    """Write the pipeline GeoPackage; return 0."""
    parser = argparse.ArgumentParser(prog="python benchmarks/pipeline.py")
    parser.add_argument("--n", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--slivers", action="store_true", help="two degenerate rows")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    from wetland_gis.io.layers import write_layer

    args.out.unlink(missing_ok=True)
    write_layer(pipeline(args.n, args.seed, args.slivers), args.out, layer="impacts")
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
