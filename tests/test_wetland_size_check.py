"""An impact larger than the ``wetland_ac`` given for its wetland is flagged (issue 19).

A data check, not a rule: a domain warning (:class:`ImpactExceedsWetlandWarning`), a
manifest record, and a verify item on the impact.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import geopandas as gpd
import pytest
from helpers import CONTEXT
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.errors import ImpactExceedsWetlandWarning
from wetland_gis.io.fields import impact_exceeds_wetland
from wetland_gis.units import SQFT_PER_ACRE

AS_OF = "2024-05-01"
SQFT_PER_SQM = 10.763910416709722


@pytest.mark.parametrize(
    ("impact_sqft", "wetland_acres", "flagged"),
    [
        pytest.param(SQFT_PER_ACRE, 1.0, False, id="impact exactly the wetland's size"),
        pytest.param(SQFT_PER_ACRE + 1, 1.0, True, id="one sq ft over the wetland's size"),
        pytest.param(SQFT_PER_ACRE - 1, 1.0, False, id="one sq ft under"),
        pytest.param(5000.0, None, False, id="no wetland_ac given: nothing to check"),
        pytest.param(1.0, 0.0, True, id="a wetland of 0 ac"),
    ],
)
def test_impact_exceeds_wetland_both_sides(impact_sqft, wetland_acres, flagged):
    got = impact_exceeds_wetland(impact_sqft, wetland_acres)
    assert (got is not None) == flagged
    if flagged:
        assert got.startswith("wetland size: the impact") and "wetland_ac" in got


def _layer(tmp_path: Path, wetland_ac: list[float | None]) -> Path:
    n = len(wetland_ac)
    layer = gpd.GeoDataFrame(
        {
            "impact_id": [f"W-{i + 1}" for i in range(n)],
            "circ39_class": ["3"] * n,
            "project": ["P"] * n,
            "wetland_ac": wetland_ac,
        },
        geometry=[box(420000 + 100 * i, 5090000, 420020 + 100 * i, 5090020) for i in range(n)],
        crs="EPSG:26915",
    )
    path = tmp_path / "impacts.gpkg"
    layer.to_file(path, layer="impacts")
    return path


def test_assess_flags_the_impact_larger_than_its_wetland(tmp_path):
    impact_ac = 400 * SQFT_PER_SQM / SQFT_PER_ACRE  # a 20 m square: 0.0988 ac
    path = _layer(tmp_path, [impact_ac / 2, impact_ac * 2, None])
    options = wg.AssessOptions(assume_no_public_waters=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = wg.assess(path, CONTEXT, as_of=AS_OF, options=options)
    mine = [w for w in caught if issubclass(w.category, ImpactExceedsWetlandWarning)]
    assert len(mine) == 1 and str(mine[0].message).startswith("1 impact(s) larger than the")
    assert "(W-1)" in str(mine[0].message)
    impacts = result.impacts.set_index("impact_id")
    assert "wetland size: the impact" in impacts.loc["W-1", "verify"]
    for other in ("W-2", "W-3"):
        assert "wetland size" not in (impacts.loc[other, "verify"] or "")
    assert any("larger than the wetland_ac" in r for r in result.manifest.records)
    trace = result.trace
    items = [v for vs in trace[trace["impact_id"] == "W-1"]["verify"] for v in vs]
    assert any(v.startswith("wetland size:") for v in items)
