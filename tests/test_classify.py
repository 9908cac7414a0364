"""Geometric classification of impacts: areas, counties, classes, watersheds, shoreland."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
from shapely.geometry import box

from wetland_gis.context import COUNTY_PCT_SOURCE, load_context
from wetland_gis.enums import PercentageArea, ShorelandZone
from wetland_gis.errors import InputError
from wetland_gis.geometry.classify import GEOMETRIC_COLUMNS, classify_impacts

FT = 0.3048
CRS = "EPSG:26915"
AS_OF = "2024-05-01"
X0, Y0 = 420000.0, 5150000.0
ACRE_SIDE_FT = 43560**0.5


def fbox(x0, y0, x1, y1):
    return box(X0 + x0 * FT, Y0 + y0 * FT, X0 + x1 * FT, Y0 + y1 * FT)


def gdf(geoms, **cols):
    return gpd.GeoDataFrame(cols, geometry=list(geoms), crs=CRS)


def impacts(*geoms, status=None):
    n = len(geoms)
    return gdf(
        geoms,
        impact_id=[f"I{i}" for i in range(n)],
        wg_row=list(range(n)),
        status=status or ["assessed"] * n,
    )


TWO_COUNTIES = gdf(
    [fbox(-10000, -10000, 0, 10000), fbox(0, -10000, 10000, 10000)],
    NAME=["Wright", "Hennepin"],
)


@pytest.fixture(scope="module")
def shipped():
    return load_context(as_of=AS_OF)


def square_in(ctx, county: str, side_ft: float = 100.0):
    poly = ctx.counties.set_index("NAME").geometry.loc[county]
    p = poly.representative_point()
    half = side_ft * FT / 2
    return box(p.x - half, p.y - half, p.x + half, p.y + half)


@pytest.mark.parametrize(
    ("county", "metro", "pct_class"),
    [
        pytest.param(
            "Wright",
            True,
            PercentageArea.LESS_THAN_50,
            id="8420.0117 subp. 1, subd. 9(d): a Wright County impact is metro and less than 50",
        ),
        pytest.param(
            "Crow Wing",
            False,
            PercentageArea.GREATER_THAN_80,
            id="8420.0117 subp. 1: a Crow Wing impact is greater than 80 and not metro",
        ),
    ],
)
def test_an_impact_in_one_county_takes_its_class_and_metro_flag(shipped, county, metro, pct_class):
    out = classify_impacts(impacts(square_in(shipped, county)), shipped, as_of=AS_OF).gdf
    row = out.iloc[0]
    assert row["county"] == county
    assert bool(row["metro"]) is metro
    assert row["pct_class"] == pct_class.value
    assert row["pct_source"] == COUNTY_PCT_SOURCE
    assert row["counties"] is None


def test_area_is_in_international_feet_and_acres():
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    s = ACRE_SIDE_FT
    out = classify_impacts(impacts(fbox(-s - 10, 0, -10, s)), ctx, as_of=AS_OF).gdf
    assert out["area_sqft"].iloc[0] == pytest.approx(43560.0, rel=1e-9)
    assert out["area_acres"].iloc[0] == pytest.approx(1.0, rel=1e-9)


def test_a_square_straddling_two_counties_lists_both_and_takes_the_larger():
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    res = classify_impacts(impacts(fbox(-40, 0, 10, 30)), ctx, as_of=AS_OF)
    row = res.gdf.iloc[0]
    assert row["county"] == "Wright"
    assert row["counties"] == "Wright: 1200.0 sq ft; Hennepin: 300.0 sq ft"
    assert bool(row["metro"]) is True
    assert row["pct_class"] == PercentageArea.LESS_THAN_50.value
    assert any("straddle county lines" in r for r in res.records)


@pytest.mark.parametrize(
    ("square", "names"),
    [
        pytest.param(
            fbox(-40, 0, 10, 30), ("Wright", "Hennepin"), id="straddles: both, larger first"
        ),
        pytest.param(fbox(-10, 0, 40, 30), ("Hennepin", "Wright"), id="straddles the other way"),
        pytest.param(fbox(-40, 0, -10, 30), None, id="one county: none (its county is county)"),
        pytest.param(
            fbox(-10, 9990, 10, 10010),
            ("Wright", "Hennepin"),
            id="part outside every county: the counties only",
        ),
    ],
)
def test_the_counties_straddled_are_given_as_data_beside_the_text(square, names):
    """``counties`` is text for people; the classification gives the same counties as data."""
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    res = classify_impacts(impacts(fbox(-5000, -5000, -4990, -4990), square), ctx, as_of=AS_OF)
    assert res.county_names is not None
    assert list(res.county_names.index) == list(res.gdf.index)
    assert res.county_names.iloc[0] is None
    assert res.county_names.iloc[1] == names
    assert (res.gdf["counties"].iloc[1] is None) == (names is None)


def test_a_row_not_assessed_has_no_counties_as_data():
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    res = classify_impacts(
        impacts(fbox(-40, 0, 10, 30), fbox(-40, 0, 10, 30), status=["not_assessed", "assessed"]),
        ctx,
        as_of=AS_OF,
    )
    assert res.county_names is not None
    assert res.county_names.tolist() == [None, ("Wright", "Hennepin")]


def test_straddling_counties_of_different_class_is_flagged():
    counties = TWO_COUNTIES.assign(NAME=["Wright", "Crow Wing"])
    ctx = load_context(layers={"counties": counties}, as_of=AS_OF)
    res = classify_impacts(impacts(fbox(-10, 0, 40, 30)), ctx, as_of=AS_OF)
    assert res.gdf["county"].iloc[0] == "Crow Wing"
    assert any("different percentage class or metro" in r for r in res.records)


OVERRIDE = gdf(
    [fbox(-10000, 0, 10000, 10000)],
    pct_class=["greater_than_80"],
    citation=["BWSR Board Order 21-05 (reclassified part of major watershed 18)"],
    major=[18],
)


def test_an_override_covering_most_of_the_impact_changes_the_class():
    ctx = load_context(
        layers={"counties": TWO_COUNTIES, "percentage_overrides": OVERRIDE}, as_of=AS_OF
    )
    res = classify_impacts(impacts(fbox(-200, -10, -100, 90)), ctx, as_of=AS_OF)
    row = res.gdf.iloc[0]
    assert row["pct_class"] == PercentageArea.GREATER_THAN_80.value
    assert row["pct_source"].startswith("BWSR Board Order 21-05")
    assert row["county"] == "Wright"  # the county itself is unchanged


def test_an_override_covering_the_smaller_part_keeps_the_county_class():
    ctx = load_context(
        layers={"counties": TWO_COUNTIES, "percentage_overrides": OVERRIDE}, as_of=AS_OF
    )
    res = classify_impacts(impacts(fbox(-200, -90, -100, 10)), ctx, as_of=AS_OF)
    assert res.gdf["pct_class"].iloc[0] == PercentageArea.LESS_THAN_50.value
    assert res.gdf["pct_source"].iloc[0] == COUNTY_PCT_SOURCE
    assert any("partly in a reclassified area" in r for r in res.records)


def full_context(**extra):
    layers = {
        "counties": TWO_COUNTIES,
        "major_watersheds": gdf(
            [fbox(-10000, -10000, 10000, 10000)], major=[18], major_name=["Crow Wing River"]
        ),
        "minor_watersheds": gdf(
            [fbox(-10000, -10000, 0, 10000), fbox(0, -10000, 10000, 10000)],
            minor=["18012", "18013"],
        ),
        "bank_service_areas": gdf([fbox(-10000, -10000, 10000, 10000)], bsa=[5]),
        "incorporated_areas": gdf([fbox(0, 0, 5000, 5000)], name=["Baxter"]),
        "calcareous_fens": gdf([fbox(-3000, -3000, -2900, -2900)], fen_name=["Fen A"]),
        "lgus": gdf(
            [fbox(-10000, -10000, 10000, 10000)], lgu_name=["County"], shoreland_ordinance=[True]
        ),
        "public_water_basins": gdf(
            [fbox(-10000, -10000, 10000, -2000)],
            pw_id=["18-0001"],
            shore_class=["natural_environment"],
        ),
    }
    layers.update(extra)
    return load_context(layers=layers, as_of=AS_OF)


def test_watersheds_bank_service_area_city_and_fen():
    ctx = full_context()
    res = classify_impacts(
        impacts(fbox(100, 100, 200, 200), fbox(-2950, -2950, -2800, -2800)), ctx, as_of=AS_OF
    )
    a, b = res.gdf.iloc[0], res.gdf.iloc[1]
    assert (a["major"], a["major_name"], a["minor"], a["bsa"]) == (
        18,
        "Crow Wing River",
        "18013",
        5,
    )
    assert str(res.gdf["major"].dtype) == "Int64"
    assert bool(a["incorporated"]) is True and bool(b["incorporated"]) is False
    assert bool(a["calcareous_fen"]) is False and bool(b["calcareous_fen"]) is True
    assert b["minor"] == "18012"


def test_shoreland_columns_sum_to_the_area():
    ctx = full_context()
    res = classify_impacts(impacts(fbox(-50, -1900, 50, -1000)), ctx, as_of=AS_OF)
    row = res.gdf.iloc[0]
    # 100 ft wide, 100 to 1,000 ft from the lake: 50 ft in the 150 ft setback
    assert row["sqft_setback"] == pytest.approx(50 * 100)
    assert row["sqft_protection"] == pytest.approx(850 * 100)
    assert row["sqft_outside"] == pytest.approx(0, abs=1e-6)
    assert row["sqft_setback"] + row["sqft_protection"] + row["sqft_outside"] == pytest.approx(
        row["area_sqft"], rel=1e-12
    )
    assert row["zone"] == ShorelandZone.BUILDING_SETBACK.value
    assert row["nearest_pw"] == "18-0001"
    assert row["nearest_pw_ft"] == pytest.approx(100)


def test_rows_not_assessed_pass_through_empty():
    ctx = full_context()
    imp = impacts(
        fbox(100, 100, 200, 200), fbox(300, 300, 400, 400), status=["assessed", "not_assessed"]
    )
    out = classify_impacts(imp, ctx, as_of=AS_OF).gdf
    kept = out.iloc[1]
    assert kept["impact_id"] == "I1"
    assert np.isnan(kept["area_sqft"]) and kept["county"] is None
    assert pd.isna(kept["metro"]) and pd.isna(kept["major"]) and kept["zone"] is None
    assert out.iloc[0]["county"] == "Hennepin"


def test_missing_optional_layers_give_empty_columns_and_records():
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    res = classify_impacts(impacts(fbox(100, 100, 200, 200)), ctx, as_of=AS_OF)
    row = res.gdf.iloc[0]
    for col in (
        "major",
        "major_name",
        "minor",
        "bsa",
        "incorporated",
        "calcareous_fen",
        "sqft_setback",
        "zone",
        "nearest_pw",
    ):
        assert pd.isna(row[col]), col
    text = " | ".join(res.records)
    for layer in (
        "major_watersheds",
        "minor_watersheds",
        "bank_service_areas",
        "incorporated_areas",
        "calcareous_fens",
        "public_water_basins",
    ):
        assert layer in text


def test_output_columns_follow_the_input_columns_in_schema_order():
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    out = classify_impacts(impacts(fbox(100, 100, 200, 200)), ctx, as_of=AS_OF).gdf
    assert list(out.columns) == ["impact_id", "wg_row", "status", *GEOMETRIC_COLUMNS, "geometry"]
    assert out.crs.to_epsg() == 26915


def test_impacts_in_another_crs_are_an_error():
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    imp = impacts(fbox(100, 100, 200, 200)).to_crs("EPSG:4326")
    with pytest.raises(InputError, match="to_crs"):
        classify_impacts(imp, ctx, as_of=AS_OF)


def test_impacts_without_status_are_an_error():
    ctx = load_context(layers={"counties": TWO_COUNTIES}, as_of=AS_OF)
    with pytest.raises(InputError, match="no 'status' column"):
        classify_impacts(gdf([fbox(0, 0, 1, 1)], wg_row=[0]), ctx)
