"""Loading and validating the context (reference) layers."""

from __future__ import annotations

import geopandas as gpd
import pandas as pd
import pytest
from shapely.geometry import LineString, Point, box

from wetland_gis.context import (
    COUNTY_PCT_SOURCE,
    DEFAULT_COUNTIES_PATH,
    LAYER_SPECS,
    Context,
    load_context,
    validate_layer,
)
from wetland_gis.enums import PercentageArea
from wetland_gis.errors import ContextError, LayerNotFoundError, MissingCRSError
from wetland_gis.io.values import normalise_county
from wetland_gis.rules.counties import county_classes

CRS = "EPSG:26915"
AS_OF = "2024-05-01"
X0, Y0 = 420000.0, 5150000.0


def gdf(geoms, crs=CRS, **cols) -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(cols, geometry=list(geoms), crs=crs)


def basins(**cols) -> gpd.GeoDataFrame:
    base = {"pw_id": ["18-0001"], "shore_class": ["natural_environment"]}
    base.update(cols)
    return gdf([box(X0, Y0, X0 + 100, Y0 + 100)], **base)


COUNTY = gdf([box(X0 - 1e4, Y0 - 1e4, X0 + 1e4, Y0 + 1e4)], NAME=["Crow Wing"])


@pytest.fixture(scope="module")
def shipped() -> Context:
    return load_context(as_of=AS_OF)


def test_the_shipped_county_layer_is_used_and_recorded_when_none_is_given(shipped):
    assert len(shipped.counties) == 87
    assert shipped.counties.crs.to_epsg() == 26915
    assert any("shipped" in r and DEFAULT_COUNTIES_PATH.name in r for r in shipped.records)
    assert any("reprojected from EPSG:4269" in r for r in shipped.records)
    assert shipped.sources[0].layer == "counties"
    assert len(shipped.sources[0].sha256) == 64
    assert shipped.sources[0].crs == "EPSG:4269"
    assert list(shipped.layers) == ["counties"]


def test_every_shipped_county_has_a_percentage_class(shipped):
    assert shipped.counties["pct_class"].notna().all()
    assert (shipped.counties["pct_source"] == COUNTY_PCT_SOURCE).all()
    assert int(shipped.counties["metro"].sum()) == 11


@pytest.mark.parametrize(
    ("county", "pct", "metro"),
    [
        ("Wright", PercentageArea.LESS_THAN_50, True),
        ("Crow Wing", PercentageArea.GREATER_THAN_80, False),
        ("Anoka", PercentageArea.FROM_50_TO_80, True),
        ("St. Louis", PercentageArea.GREATER_THAN_80, False),
        ("Lac qui Parle", PercentageArea.LESS_THAN_50, False),
    ],
)
def test_shipped_counties_join_class_and_metro_by_name(shipped, county, pct, metro):
    row = shipped.counties.set_index("NAME").loc[county]
    assert row["pct_class"] == pct.value
    assert bool(row["metro"]) is metro


def test_county_names_are_matched_loosely():
    assert normalise_county("Saint Louis County") == normalise_county("St. Louis")
    assert county_classes("SAINT LOUIS COUNTY", as_of=AS_OF) == (
        PercentageArea.GREATER_THAN_80,
        False,
    )
    assert county_classes("Atlantis", as_of=AS_OF) == (None, None)


def test_a_county_on_no_list_is_recorded():
    ctx = load_context(layers={"counties": COUNTY.assign(NAME=["Atlantis"])}, as_of=AS_OF)
    assert ctx.counties["pct_class"].iloc[0] is None
    assert any("Atlantis" in r for r in ctx.records)


def test_field_names_are_matched_case_insensitively_and_values_normalised():
    layer = gdf(
        [box(X0, Y0, X0 + 100, Y0 + 100)],
        PW_ID=[18001],
        Shore_Class=["Recreational Development"],
        SEWERED=["Y"],
        ACRES=["12.5"],
    )
    ctx = load_context(layers={"counties": COUNTY, "public_water_basins": layer}, as_of=AS_OF)
    b = ctx.public_water_basins
    assert {"pw_id", "shore_class", "sewered", "acres"} <= set(b.columns)
    assert b["pw_id"].iloc[0] == "18001"
    assert b["shore_class"].iloc[0] == "recreational_development"
    assert bool(b["sewered"].iloc[0]) is True
    assert b["acres"].iloc[0] == 12.5


def test_dnr_class_abbreviations_are_accepted():
    out, records = validate_layer(basins(shore_class=["GD"]), "public_water_basins")
    assert out["shore_class"].iloc[0] == "general_development"
    assert any("normalised" in r for r in records)


def test_a_shapefile_cut_field_name_is_recognised():
    layer = basins().rename(columns={"shore_class": "SHORE_CLAS"})
    out, _ = validate_layer(layer, "public_water_basins")
    assert out["shore_class"].iloc[0] == "natural_environment"


def test_missing_required_field_names_file_layer_field_and_fix(tmp_path):
    path = tmp_path / "public_water_basins.geojson"
    basins().drop(columns=["shore_class"]).to_file(path)
    with pytest.raises(
        ContextError,
        match=r"'public_water_basins' \(.*public_water_basins\.geojson\) is missing the "
        r"required field 'shore_class'; it has \['pw_id'\].*rename",
    ):
        load_context(tmp_path)


def test_wrong_geometry_kind_is_an_error():
    points = gdf([Point(X0, Y0)], pw_id=["1"], shore_class=["natural_environment"])
    with pytest.raises(ContextError, match=r"must hold polygon geometries.*\['Point'\]"):
        validate_layer(points, "public_water_basins")
    polys = basins(shore_class=["remote"])
    with pytest.raises(ContextError, match="must hold line geometries"):
        validate_layer(polys, "public_watercourses")


def test_unknown_shore_class_lists_the_allowed_values():
    with pytest.raises(
        ContextError,
        match=r"unknown shore_class value\(s\) \['lakeshore'\]; allowed: "
        r"\['natural_environment', 'recreational_development', 'general_development'\]",
    ):
        validate_layer(basins(shore_class=["lakeshore"]), "public_water_basins")


def test_watercourse_classes_are_not_basin_classes():
    line = gdf([LineString([(X0, Y0), (X0 + 10, Y0)])], pw_id=["M-1"], shore_class=["NE"])
    with pytest.raises(ContextError, match="allowed: \\['remote'"):
        validate_layer(line, "public_watercourses")


def test_unknown_percentage_class_is_an_error():
    layer = gdf([box(0, 0, 1, 1)], pct_class=["about half"], citation=["BWSR order"])
    with pytest.raises(ContextError, match="unknown pct_class"):
        validate_layer(layer, "percentage_overrides")


def test_no_crs_is_a_missing_crs_error_with_the_fix():
    with pytest.raises(MissingCRSError, match=r"no coordinate reference system.*Set CRS"):
        validate_layer(basins().set_crs(None, allow_override=True), "public_water_basins")


def test_a_bad_boolean_names_the_row_and_the_accepted_values():
    layer = gdf([box(0, 0, 1, 1)], lgu_name=["Baxter"], shoreland_ordinance=["maybe"])
    with pytest.raises(ContextError, match=r"'shoreland_ordinance' must be true/false.*'maybe'"):
        validate_layer(layer, "lgus")


def test_a_bad_number_is_an_error():
    with pytest.raises(ContextError, match="'acres' must be a number"):
        validate_layer(basins(acres=["big"]), "public_water_basins")


def test_an_empty_required_value_is_an_error():
    layer = gdf(
        [box(0, 0, 1, 1), box(1, 1, 2, 2)],
        lgu_name=["Baxter", None],
        shoreland_ordinance=[True, False],
    )
    with pytest.raises(ContextError, match=r"required field 'lgu_name' is empty in 1 row"):
        validate_layer(layer, "lgus")


def test_major_watershed_numbers_are_checked():
    layer = gdf([box(0, 0, 1, 1)], major=[99], major_name=["Nowhere"])
    with pytest.raises(ContextError, match="must be 1-81"):
        validate_layer(layer, "major_watersheds")


def test_unknown_layer_name_is_an_error():
    with pytest.raises(ContextError, match=r"'lakes' is not a context layer; the layers are"):
        load_context(layers={"lakes": basins()})


def test_rows_without_geometry_are_dropped_and_recorded():
    layer = gdf([box(0, 0, 1, 1), None], lgu_name=["A", "B"], shoreland_ordinance=[1, 0])
    out, records = validate_layer(layer, "lgus")
    assert len(out) == 1
    assert any("dropped 1 row" in r for r in records)


@pytest.mark.filterwarnings("ignore:Column names longer than 10")
@pytest.mark.filterwarnings("ignore:Normalized/laundered field name")
def test_a_folder_of_files_is_read_by_layer_name(tmp_path):
    COUNTY.to_crs("EPSG:4326").to_file(tmp_path / "Counties.geojson")
    basins().to_parquet(tmp_path / "public_water_basins.parquet")
    line = gdf([LineString([(X0, Y0), (X0 + 10, Y0)])], pw_id=["M-1"], shore_class=["urban"])
    line.to_file(tmp_path / "public_watercourses.shp")
    gdf([box(0, 0, 1, 1)], fen_name=["Seminary Fen"]).to_file(
        tmp_path / "calcareous_fens.gpkg", layer="whatever"
    )
    ctx = load_context(tmp_path, as_of=AS_OF)
    assert sorted(ctx.layers) == sorted(
        ["counties", "public_water_basins", "public_watercourses", "calcareous_fens"]
    )
    assert ctx.public_watercourses["shore_class"].iloc[0] == "urban"
    assert all(len(s.sha256) == 64 for s in ctx.sources)
    assert not any("shipped" in r for r in ctx.records)
    assert ctx.counties.crs.to_epsg() == 26915
    assert ctx.get("lgus") is None and not ctx.has("lgus")
    inputs = ctx.manifest_inputs()
    assert inputs[0].role == "context:counties"


def test_a_geopackage_with_named_layers(tmp_path):
    path = tmp_path / "context.gpkg"
    COUNTY.to_file(path, layer="COUNTIES")
    basins().to_file(path, layer="public_water_basins")
    gdf([box(0, 0, 1, 1)], x=[1]).to_file(path, layer="something_else")
    ctx = load_context(path, as_of=AS_OF)
    assert sorted(ctx.layers) == ["counties", "public_water_basins"]
    assert ctx.sources[0].source_layer == "COUNTIES"


def test_a_geopackage_without_context_layers_lists_what_it_has(tmp_path):
    path = tmp_path / "other.gpkg"
    gdf([box(0, 0, 1, 1)], x=[1]).to_file(path, layer="roads")
    with pytest.raises(LayerNotFoundError, match=r"none of the context layers.*\['roads'\]"):
        load_context(path)


def test_explicit_layers_win_over_the_source(tmp_path):
    basins().to_file(tmp_path / "public_water_basins.geojson")
    other = basins(pw_id=["99-9999"])
    ctx = load_context(tmp_path, layers={"public_water_basins": other}, as_of=AS_OF)
    assert ctx.public_water_basins["pw_id"].iloc[0] == "99-9999"


def test_a_missing_source_is_an_error(tmp_path):
    with pytest.raises(ContextError, match="does not exist"):
        load_context(tmp_path / "nope.gpkg")


def test_the_schema_matches_the_documented_layers():
    assert LAYER_SPECS["counties"].required == ("NAME",)  # order: test_context_layers.py
    assert LAYER_SPECS["public_watercourses"].geometry == "line"
    assert LAYER_SPECS["drainage_systems"].geometry == "line or polygon"
    assert LAYER_SPECS["lgus"].required == ("lgu_name", "shoreland_ordinance")


def test_minor_ids_keep_their_text_form():
    layer = gdf([box(0, 0, 1, 1), box(1, 1, 2, 2)], minor=[12034.0, "07010101"])
    out, _ = validate_layer(layer, "minor_watersheds")
    assert out["minor"].tolist() == ["12034", "07010101"]
    assert pd.api.types.is_object_dtype(out["minor"])


def test_an_unreadable_context_geopackage_is_a_context_error_naming_it(tmp_path):
    bad = tmp_path / "context.gpkg"
    bad.write_text("not a GeoPackage")
    with pytest.raises(ContextError, match=r"context source .*context\.gpkg: cannot read"):
        load_context(bad)
