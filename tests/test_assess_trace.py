"""The decision trace through every output (issue 13): one source, nothing parsed back.

A reason that holds a semicolon must reach the impacts layer's text columns, the
GeoPackage ``decisions`` table, ``*_decisions.json`` and the map popup whole.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import geopandas as gpd
import pyogrio
import pytest
from helpers import CONTEXT
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.commands import read_assessed
from wetland_gis.errors import WetlandGISWarning
from wetland_gis.mapping.popups import impact_popup_html
from wetland_gis.rules import TRACE_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
CROW_WING = ROOT / "sample_data" / "projects" / "crow_wing"
AS_OF = "2024-05-01"
FT = 0.3048
IMPACT = "north; lot 2"  # an id with a semicolon: the engine's reasons quote it


def _square(sqft: float, x: float, y: float):
    side = sqft**0.5 * FT
    return box(x, y, x + side, y + side)


@pytest.fixture(scope="module")
def assessed():
    c1 = gpd.read_file(CROW_WING / "impacts.gpkg").geometry.iloc[0].centroid
    gdf = gpd.GeoDataFrame(
        {
            "impact_id": [IMPACT, "south"],
            "circ39": ["2", "2"],
            "impact": ["fill", "fill"],
            "owns_whole_wetland": ["yes", "yes"],
            "geometry": [_square(3000, c1.x, c1.y), _square(2000, c1.x + 80, c1.y)],
        },
        crs="EPSG:26915",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return wg.assess(gdf, CONTEXT, as_of=AS_OF)


def _reason(trace) -> str:
    rows = trace[(trace["impact_id"] == IMPACT) & (trace["rule_id"] == "de_minimis.impact")]
    (reason,) = rows["reason"]
    assert ";" in reason
    return reason


def test_the_trace_has_the_contract_columns(assessed):
    trace = assessed.trace
    assert list(trace.columns) == list(TRACE_COLUMNS)
    assert (trace["impact_id"] == "").any()  # project-level steps
    for _, rows in trace.groupby("project"):
        assert list(rows["seq"]) == list(range(len(rows)))


def test_a_semicolon_reason_survives_in_the_impacts_layer_columns(assessed):
    reason = _reason(assessed.trace)
    row = assessed.impacts.set_index("impact_id").loc[IMPACT]
    assert reason in row["reasons"]
    assert row["outcome"] == "de_minimis_exempt"


def test_a_semicolon_reason_survives_in_the_geopackage_and_json(assessed, tmp_path):
    reason = _reason(assessed.trace)
    out = tmp_path / "out.gpkg"
    assessed.write(out)
    table = pyogrio.read_dataframe(out, layer="decisions", read_geometry=False)
    assert reason in list(table["reason"])
    assert all(isinstance(json.loads(v), list) for v in table["verify"])
    records = json.loads((tmp_path / "out_decisions.json").read_text("utf-8"))
    assert reason in [r["reason"] for r in records]
    back = read_assessed(out)["trace"]
    assert _reason(back) == reason
    assert isinstance(back["parameters"].iloc[0], dict)
    impacts = gpd.read_file(out, layer="impacts").set_index("impact_id")
    assert reason in impacts.loc[IMPACT, "reasons"]


def test_a_semicolon_reason_survives_in_the_popup(assessed):
    reason = _reason(assessed.trace)
    row = assessed.impacts.set_index("impact_id", drop=False).loc[IMPACT].drop("geometry")
    steps = assessed.trace[assessed.trace["impact_id"] == IMPACT]
    popup = impact_popup_html(row.to_dict(), impact_id=IMPACT, steps=steps)
    assert f"<li>{reason.replace(chr(39), '&#x27;')}</li>" in popup
