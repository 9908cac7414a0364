"""Benchmark of ``wetland_gis.assess`` on many impacts (run: ``make bench``).

Impacts are random squares (100 to 20,000 sq ft) scattered over the Wright County sample
area, against the synthetic context (watersheds, lakes, river, fen). Not run by ``make test``.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
from shapely import box

import wetland_gis as wg

ROOT = Path(__file__).resolve().parents[1]
CONTEXT = ROOT / "sample_data" / "synthetic_context.gpkg"
FT = 0.3048


def _impacts(n: int, seed: int = 1) -> gpd.GeoDataFrame:
    wright = gpd.read_file(ROOT / "sample_data" / "projects" / "wright_metro" / "impacts.gpkg")
    x0, y0, x1, y1 = wright.total_bounds
    rng = np.random.default_rng(seed)
    cx = rng.uniform(x0 - 3000, x1 + 3000, n)
    cy = rng.uniform(y0 - 3000, y1 + 3000, n)
    side = np.sqrt(rng.uniform(100, 20_000, n)) * FT
    types = rng.choice(["1", "2", "3", "4", "5", "6", "7", "8", "Type 3/4"], n)
    return gpd.GeoDataFrame(
        {
            "impact_id": [f"B-{i}" for i in range(n)],
            "circ39": types,
            "project": [f"P-{i // 20}" for i in range(n)],
        },
        geometry=box(cx, cy, cx + side, cy + side),
        crs="EPSG:26915",
    )


@pytest.fixture(scope="module")
def context():
    return wg.load_context(CONTEXT)


@pytest.mark.parametrize("n", [200, 2000])
def test_assess_many_impacts(benchmark, context, n):
    impacts = _impacts(n)

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", wg.WetlandGISWarning)
            return wg.assess(impacts, context, as_of="2024-05-01")

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    assert len(result.impacts) == n
