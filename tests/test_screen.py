"""`wetland-gis screen`: every wetland of an inventory, its class and its de minimis amount."""

from __future__ import annotations

import warnings
from pathlib import Path

import geopandas as gpd
import pyogrio
import pytest
from helpers import CONTEXT, run_cli
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.enums import PercentageArea, ShorelandZone, WetlandType
from wetland_gis.rules import de_minimis_allowance
from wetland_gis.screen import SCREEN_COLUMNS, screen

AS_OF = "2024-05-01"
CRS = "EPSG:26915"
# a point in Crow Wing County (not metro, 50 to 80 percent class) far from the sample waters
X0, Y0 = 410000.0, 5140000.0


def _inventory(**cols) -> gpd.GeoDataFrame:
    n = len(next(iter(cols.values())))
    geoms = [box(X0 + 300 * i, Y0, X0 + 300 * i + 50, Y0 + 50) for i in range(n)]
    return gpd.GeoDataFrame(cols, geometry=geoms, crs=CRS)


def _screen(gdf, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        return screen(gdf, CONTEXT, as_of=AS_OF, progress_bar=False, **kw)


def _allowance(t: int, place) -> float:
    return de_minimis_allowance(
        WetlandType(t),
        ShorelandZone.OUTSIDE,
        PercentageArea(place["pct_class"]),
        bool(place["metro"]),
        as_of=AS_OF,
    ).value


def test_a_given_type_outside_the_zone_gets_the_subd_9a_amount():
    res = _screen(_inventory(circ39_class=["2"]))
    row = res.wetlands.iloc[0]
    assert row["status"] == "assessed"
    assert row["zone"] == ShorelandZone.OUTSIDE.value
    assert row["de_minimis_sqft"] == _allowance(2, row)
    assert row["dm_outside_sqft"] == row["de_minimis_sqft"]
    assert row["dm_zone"] == ShorelandZone.OUTSIDE.value
    assert "103G.2241" in row["dm_citations"]


def test_a_cowardin_code_is_typed_and_flagged_for_verification():
    res = _screen(_inventory(attribute=["PEM1C"]))
    row = res.wetlands.iloc[0]
    assert row["type_source"] == "inferred"
    assert row["verify"].startswith("wetland type")
    assert any("inferred from the Cowardin code" in r for r in res.manifest.records)


def test_a_mixed_polygon_is_held_to_its_most_restrictive_type():
    res = _screen(_inventory(circ39_class=["2/3"]))
    row = res.wetlands.iloc[0]
    assert row["de_minimis_sqft"] == min(_allowance(2, row), _allowance(3, row))
    assert "holds types 2/3" in row["verify"]


def test_every_row_is_kept_a_lake_code_is_not_assessed_with_the_reason():
    res = _screen(_inventory(attribute=["L1UBH", "PFO1A"]))
    w = res.wetlands
    assert len(w) == 2
    assert w["status"].tolist() == ["not_assessed", "assessed"]
    assert "wetland type" in w["status_reason"].iloc[0]
    assert w["de_minimis_sqft"].isna().iloc[0]
    assert set(SCREEN_COLUMNS) <= set(w.columns)


def test_a_wetland_outside_every_county_is_not_assessed():
    far = gpd.GeoDataFrame({"circ39_class": ["2"]}, geometry=[box(0, 0, 50, 50)], crs=CRS)
    row = _screen(far).wetlands.iloc[0]
    assert row["status"] == "not_assessed"
    assert "outside the county layer" in row["status_reason"]


def test_cli_screen_writes_geoparquet_and_geopackage(tmp_path, capsys):
    src = tmp_path / "inventory.gpkg"
    _inventory(attribute=["PEM1A", "PSS1C"]).to_file(src, driver="GPKG")
    out = tmp_path / "screened.parquet"
    code = run_cli("screen", src, "--context", CONTEXT, "--out", out, "--as-of", AS_OF, "--quiet")
    assert code == 0
    assert len(gpd.read_parquet(out)) == 2
    assert pyogrio.list_layers(out.with_suffix(".gpkg"))[0][0] == "wetlands"
    assert "screened.gpkg" in capsys.readouterr().out


@pytest.mark.pdf
@pytest.mark.slow
def test_the_bundled_nwi_sample_is_screened_in_the_demo(demo_run):
    got = demo_run.screen  # demo.run_screen_demo's answer (tests/session_fixtures.py)
    assert got["wetlands"] == 1556
    assert 0 < got["with_amount"] <= got["screened"] < got["wetlands"]
    manifest = Path(got["files"][2]).read_text()
    assert "EPSG:5070" in manifest and "DEMONSTRATION ONLY" in manifest
