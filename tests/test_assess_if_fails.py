"""The impacts layer's ``replace_acres_if_fails`` column (issue 32, "Also").

For an impact exempt only if a missing fact holds (outcome ``de_minimis_conditional`` or
``exempt_conditional``), the replacement owed if the fact fails, as the engine decided it
(Minn. R. 8420.0420, subp. 1; § 103G.222, subd. 1(f), (g)); NaN for every other outcome.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import geopandas as gpd
import pytest
from helpers import CONTEXT
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.units import SQFT_PER_ACRE

ROOT = Path(__file__).resolve().parents[1]
CROW_WING = ROOT / "sample_data" / "projects" / "crow_wing" / "impacts.gpkg"
FT = 0.3048


@pytest.mark.slow  # assess on sample data
def test_replace_acres_if_fails_is_the_engines_and_nan_when_not_conditional():
    c = gpd.read_file(CROW_WING).geometry.iloc[0].centroid
    side = (9_000**0.5) * FT  # 9,000 sq ft of type 2 in Crow Wing County (> 80 percent)
    big = (20_000**0.5) * FT
    impacts = gpd.GeoDataFrame(
        {
            "impact_id": ["cond", "repl"],
            "project": ["P1", "P2"],
            "circ39": ["2", "2"],
            "prior_sqft": [0, 0],
        },
        geometry=[
            box(c.x, c.y, c.x + side, c.y + side),
            box(c.x + 80, c.y, c.x + 80 + big, c.y + big),
        ],
        crs="EPSG:26915",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        a = wg.assess(
            impacts, CONTEXT, as_of="2024-05-01", fields={"prior_sqft_since_1992": "prior_sqft"}
        )
    rows = a.impacts.set_index("impact_id")
    assert rows.loc["cond", "outcome"] == "de_minimis_conditional"  # ownership unknown, 9(f)
    decided = {d.impact_id: d for p in a.decisions for d in p.impacts}
    assert rows.loc["cond", "replace_acres_if_fails"] == decided["cond"].replace_acres_if_fails
    assert math.isclose(
        rows.loc["cond", "replace_acres_if_fails"],
        rows.loc["cond", "counted_sqft"] / SQFT_PER_ACRE * 1.0,  # subd. 1(g): 1:1 here
    )
    assert rows.loc["repl", "outcome"] == "replacement_required"
    assert math.isnan(rows.loc["repl", "replace_acres_if_fails"])
    assert a.impacts["replace_acres_if_fails"].dtype == "float64"
