"""Reading and writing layers, shapefile field names, and the field mapping."""

from __future__ import annotations

import csv
import hashlib
import signal
import subprocess
import sys
import warnings
import zipfile
from dataclasses import fields
from enum import Enum
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import shapely
from hypothesis import given, strategies as st
from shapely.geometry import Point, box

from wetland_gis.enums import Outcome, WetlandType
from wetland_gis.errors import (
    FieldMappingError,
    InputError,
    LayerNotFoundError,
    MissingCRSError,
    OutputError,
    WetlandGISWarning,
)
from wetland_gis.io import (
    FieldMapping,
    LayerRead,
    list_layers,
    read_layer,
    resolve_fields,
    shapefile_field_names,
    write_layer,
)
from wetland_gis.io.fields import DEFAULT_NAMES
from wetland_gis.io.layers import WKT_COLUMN
from wetland_gis.io.safe_write import STAGING_PREFIX, SafeWriter
from wetland_gis.io.writers import write_frame as real_write_frame

DATA = Path(__file__).resolve().parents[1] / "sample_data"
NWI_SAMPLE = DATA / "nwi_sample_DC_wetlands.gpkg"
COUNTIES = DATA / "mn_counties_cb2016_500k.geojson"
LAC = "Lac qui Parle – Étang"


@pytest.fixture
def impacts() -> gpd.GeoDataFrame:
    """Three tiny impacts with every kind of attribute a user layer carries."""
    return gpd.GeoDataFrame(
        {
            "impact_id": ["A-1", "A-2", "B-1"],
            "circ39": ["3", "Type 2", "shallow marsh"],
            "wetland_name": [LAC, "Big Stone – Rive", "Ordinary"],
            "acres": [0.25, 1.5, 12.0],
            "count": [1, 2, 3],
            "cedar_tam": [True, False, True],
            "sqft_protection": [10.0, 20.0, 30.0],
            "sqft_protected": [1.0, 2.0, 3.0],
        },
        geometry=[box(0, 0, 10, 10), box(20, 0, 30, 10), box(0, 20, 15, 35)],
        crs="EPSG:26915",
    )


def assert_same_attributes(read: pd.DataFrame, written: gpd.GeoDataFrame) -> None:
    for column in written.columns:
        if column == written.geometry.name:
            continue
        assert column in read.columns, column
        assert list(read[column]) == list(written[column]), column


def assert_same_geometry(read: gpd.GeoDataFrame, written: gpd.GeoDataFrame) -> None:
    assert read.crs == written.crs
    left = np.asarray(read.geometry.values)
    assert shapely.equals(left, np.asarray(written.geometry.values)).all()


# --------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["impacts.gpkg", "impacts.parquet", "impacts.geojson"])
def test_round_trip_preserves_every_attribute(tmp_path, impacts, name):
    path = tmp_path / name
    assert write_layer(impacts, path) == [path]
    read = read_layer(path)
    assert isinstance(read, LayerRead)
    assert_same_attributes(read.gdf, impacts)
    assert_same_geometry(read.gdf, impacts)
    assert read.crs == "EPSG:26915"
    assert read.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert read.records == []


@pytest.mark.parametrize("values", [[10, 20, 30], ["a", "b", "c"], [0, -1, 5], [1, 1, 2]])
def test_a_fid_column_survives_a_geopackage(tmp_path, impacts, values):
    frame = impacts.assign(FID=values)
    write_layer(frame, tmp_path / "fid.gpkg")
    read = read_layer(tmp_path / "fid.gpkg").gdf
    assert list(read["FID"]) == values
    assert [c for c in read.columns if "fid" in c.lower()] == ["FID"]


def test_the_geopackage_feature_id_is_read_as_a_fid_column(tmp_path, impacts):
    write_layer(impacts, tmp_path / "plain.gpkg")
    read = read_layer(tmp_path / "plain.gpkg").gdf
    assert list(read.columns[:2]) == ["fid", "impact_id"]
    assert list(read["fid"]) == [1, 2, 3]
    assert list(read.index) == [0, 1, 2]
    assert resolve_fields(read).impact_id == "impact_id"  # impact_id is preferred to fid


def test_geopackage_layer_defaults_to_the_file_stem_and_can_hold_several(tmp_path, impacts):
    path = tmp_path / "project.gpkg"
    write_layer(impacts, path)
    write_layer(impacts.iloc[:1], path, layer="second")
    assert sorted(list_layers(path)) == ["project", "second"]
    assert len(read_layer(path, "second").gdf) == 1
    assert read_layer(path, "PROJECT").layer == "project"  # layer names are case-insensitive


def test_shapefile_round_trip_keeps_every_attribute_via_the_field_map(tmp_path, impacts):
    path = tmp_path / "impacts.shp"
    written = write_layer(impacts, path)
    names = {p.name for p in written}
    assert {"impacts.shp", "impacts.shx", "impacts.dbf", "impacts.prj", "impacts.cpg"} <= names
    assert "impacts.fieldmap.csv" in names
    assert (tmp_path / "impacts.cpg").read_text().strip().upper() in {"UTF-8", "UTF8"}

    with (tmp_path / "impacts.fieldmap.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    mapping = {row["full_name"]: row["short_name"] for row in rows}
    assert mapping["sqft_protection"] == "sqft_prote"
    assert mapping["sqft_protected"] == "sqft_pro_1"
    assert mapping["wetland_name"] == "wetland_na"

    read = read_layer(path).gdf.rename(columns={v: k for k, v in mapping.items()})
    expected = impacts.assign(cedar_tam=impacts["cedar_tam"].astype(int))
    assert_same_attributes(read, expected)
    assert_same_geometry(read, impacts)
    assert read.loc[0, "wetland_name"] == LAC
    assert set(read["cedar_tam"]) == {0, 1}  # booleans are integers 0/1 in the DBF


def test_zipped_shapefile_is_read_with_its_encoding(tmp_path, impacts):
    written = write_layer(impacts, tmp_path / "shp" / "impacts.shp")
    archive = tmp_path / "impacts.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        for path in written:
            handle.write(path, arcname=f"data/{path.name}")
    read = read_layer(archive)
    assert read.gdf.loc[0, "wetland_na"] == LAC
    assert read.crs == "EPSG:26915"
    assert read.sha256 == hashlib.sha256(archive.read_bytes()).hexdigest()
    assert list_layers(archive) == ["impacts"]


def test_folder_holding_one_shapefile_is_read(tmp_path, impacts):
    write_layer(impacts, tmp_path / "impacts.shp")
    read = read_layer(tmp_path)
    assert read.source == str(tmp_path / "impacts.shp")
    assert len(read.gdf) == 3
    assert list_layers(tmp_path) == ["impacts"]


def test_shapefile_hash_covers_its_sidecar_files(tmp_path, impacts):
    path = tmp_path / "impacts.shp"
    write_layer(impacts, path)
    before = read_layer(path).sha256
    write_layer(impacts.assign(count=[7, 8, 9]), path)  # only the .dbf changes
    assert read_layer(path).sha256 != before
    assert (tmp_path / "impacts.shp").read_bytes()  # geometry file rewritten, not removed


def test_cpg_encoding_is_honoured_for_latin1_shapefiles(tmp_path, impacts):
    path = tmp_path / "latin.shp"
    frame = impacts[["geometry"]].assign(name=["Étang", "Rivière", "Lac"])
    pyogrio.write_dataframe(frame, path, encoding="ISO-8859-1")
    assert (tmp_path / "latin.cpg").exists()
    assert list(read_layer(path).gdf["name"]) == ["Étang", "Rivière", "Lac"]


def test_csv_output_carries_the_geometry_as_wkt(tmp_path, impacts):
    path = tmp_path / "out" / "impacts.csv"
    assert write_layer(impacts, path) == [path]
    table = pd.read_csv(path)
    assert list(table.columns) == [c for c in impacts.columns if c != "geometry"] + [WKT_COLUMN]
    assert shapely.from_wkt(table.loc[0, WKT_COLUMN]).equals(impacts.geometry.iloc[0])
    assert table.loc[0, "wetland_name"] == LAC


def test_csv_accepts_a_plain_table(tmp_path):
    path = tmp_path / "t.csv"
    write_layer(pd.DataFrame({"a": [1, 2]}), path)
    assert list(pd.read_csv(path)["a"]) == [1, 2]


class Colour(Enum):
    RED = "red"


def test_lists_dicts_and_enums_are_written_as_text(tmp_path, impacts):
    frame = impacts.assign(
        citations=[["§ 103G.2241", "subd. 9"], [], ("a",)],
        params=[{"ratio": 2}, {}, {"x": [1]}],
        outcome=[Outcome.EXEMPT, Outcome.REQUIRED, None],
        colour=[Colour.RED, Colour.RED, Colour.RED],
        wtype=[WetlandType.TYPE_3, WetlandType.TYPE_4, WetlandType.TYPE_5],
        maybe=[True, None, False],
    )
    for name in ["x.gpkg", "x.shp", "x.parquet", "x.geojson"]:
        path = tmp_path / name
        write_layer(frame, path)
        read = read_layer(path).gdf
        if name.endswith(".shp"):
            read = read.rename(columns={v: k for k, v in shapefile_field_names(frame).items()})

        def get(column, read=read):
            return read[column]

        # A DBF cannot tell an empty string from a null.
        assert list(get("citations").fillna("")) == ["§ 103G.2241; subd. 9", "", "a"], name
        assert get("params")[0] == '{"ratio": 2}', name
        assert get("outcome")[0] == "exempt" and pd.isna(get("outcome")[2]), name
        assert list(get("colour")) == ["red"] * 3, name
        assert list(get("wtype")) == [3, 4, 5], name
        assert get("maybe")[0] == 1 and pd.isna(get("maybe")[1]), name


def test_mixed_geometry_types_cannot_go_to_a_shapefile(tmp_path):
    frame = gpd.GeoDataFrame({"a": [1, 2]}, geometry=[box(0, 0, 1, 1), Point(5, 5)], crs=26915)
    with pytest.raises(OutputError, match="mixes Point, Polygon; write a GeoPackage"):
        write_layer(frame, tmp_path / "mixed.shp")
    write_layer(frame, tmp_path / "mixed.gpkg")  # a GeoPackage holds them
    assert len(read_layer(tmp_path / "mixed.gpkg").gdf) == 2


def test_driver_overrides_the_extension(tmp_path, impacts):
    path = tmp_path / "impacts.json"
    assert write_layer(impacts, path, driver="GeoJSON") == [path]
    assert pyogrio.read_info(path)["driver"] == "GeoJSON"
    assert_same_attributes(read_layer(path).gdf, impacts)


WRITE_ERRORS = [
    ("x.kml", None, OutputError, r"unsupported extension \.kml"),
    ("x", None, OutputError, r"unsupported extension \(none\)"),
    ("x.gpkg", "FlatGeobuf", OutputError, r"`driver` was 'FlatGeobuf' but is expected"),
]


@pytest.mark.parametrize(("name", "driver", "error", "message"), WRITE_ERRORS)
def test_write_errors_name_the_problem(tmp_path, impacts, name, driver, error, message):
    with pytest.raises(error, match=message):
        write_layer(impacts, tmp_path / name, driver=driver)


@pytest.mark.parametrize("name", ["x.parquet", "x.geojson", "x.shp"])
def test_write_refuses_a_table_without_geometry_for_spatial_formats(tmp_path, name):
    with pytest.raises(OutputError, match="GeoDataFrame with a geometry"):
        write_layer(pd.DataFrame({"a": [1]}), tmp_path / name)


def test_a_table_without_geometry_is_a_geopackage_attribute_table(tmp_path, impacts):
    path = tmp_path / "x.gpkg"
    write_layer(impacts, path, layer="impacts")
    write_layer(
        pd.DataFrame({"rule_id": ["a", "b"], "value": [1.5, None]}), path, layer="decisions"
    )
    assert list_layers(path) == ["impacts", "decisions"]
    table = pyogrio.read_dataframe(path, layer="decisions", read_geometry=False)
    assert table["rule_id"].tolist() == ["a", "b"]


def test_write_refuses_duplicated_column_names(tmp_path, impacts):
    frame = pd.concat([impacts, impacts[["acres"]]], axis=1)
    with pytest.raises(OutputError, match=r"duplicated column names \['acres'\]"):
        write_layer(frame, tmp_path / "x.gpkg")


# --------------------------------------------------------------------------------------
# Reading real public data
# --------------------------------------------------------------------------------------


def test_reads_the_real_nwi_geopackage(sample_data):
    read = read_layer(sample_data.nwi)
    assert read.layer == "DC_Wetlands"
    assert read.crs == "EPSG:5070"
    assert len(read.gdf) == 1556
    assert {"ATTRIBUTE", "WETLAND_TY", "ACRES"} <= set(read.gdf.columns)
    assert read.sha256 == hashlib.sha256(sample_data.nwi.read_bytes()).hexdigest()
    # the file is the one sample_data/README.md lists: its source's features, converted to
    # GeoPackage 1.2 (issue 30)
    assert read.sha256 == "b96f266644bce022d950601fe952dce05b7fb895c493a2a921bcfbf051e5be37"
    assert list_layers(sample_data.nwi) == ["DC_Wetlands"]
    assert read.gdf["fid"].is_unique


def test_reads_the_real_county_geojson(sample_data):
    read = read_layer(sample_data.counties)
    assert read.crs == "EPSG:4269"
    assert len(read.gdf) == 87
    assert "Crow Wing" in set(read.gdf["NAME"])


# --------------------------------------------------------------------------------------
# Reading errors
# --------------------------------------------------------------------------------------


@pytest.fixture
def two_layer_gpkg(tmp_path, impacts) -> Path:
    path = tmp_path / "two.gpkg"
    write_layer(impacts, path, layer="impacts")
    write_layer(impacts, path, layer="sites")
    return path


def test_a_geopackage_with_several_layers_needs_a_layer_name(two_layer_gpkg):
    with pytest.raises(LayerNotFoundError, match=r"holds 2 layers \('impacts', 'sites'\)") as e:
        read_layer(two_layer_gpkg)
    assert "layer=" in str(e.value)


def test_a_wrong_layer_name_lists_the_available_layers(two_layer_gpkg):
    with pytest.raises(LayerNotFoundError, match=r"'wrong' is not in .*'impacts', 'sites'"):
        read_layer(two_layer_gpkg, "wrong")


def test_a_layer_name_for_a_single_layer_file_must_match(tmp_path, impacts):
    write_layer(impacts, tmp_path / "one.geojson")
    assert read_layer(tmp_path / "one.geojson", "one").layer is None
    with pytest.raises(LayerNotFoundError, match="'other' is not in"):
        read_layer(tmp_path / "one.geojson", "other")


def test_missing_file_is_named(tmp_path):
    with pytest.raises(InputError, match=r"input file not found: .*nowhere\.gpkg"):
        read_layer(tmp_path / "nowhere.gpkg")
    with pytest.raises(InputError, match="input file not found"):
        list_layers(tmp_path / "nowhere.gpkg")


@pytest.mark.parametrize("name", ["data.kml", "data.txt", "data.csv", "data"])
def test_unknown_formats_name_the_file_and_the_supported_formats(tmp_path, name):
    path = tmp_path / name
    path.write_text("x")
    message = r"cannot read .*unsupported format .*\.gpkg \(GeoPackage\)"
    with pytest.raises(InputError, match=message):
        read_layer(path)


def test_folder_with_several_shapefiles_lists_them(tmp_path, impacts):
    write_layer(impacts, tmp_path / "a.shp")
    write_layer(impacts, tmp_path / "b.shp")
    with pytest.raises(InputError, match=r"holds 2 shapefiles \(a\.shp, b\.shp\)"):
        read_layer(tmp_path)


def test_folder_without_shapefile_says_so(tmp_path):
    with pytest.raises(InputError, match=r"holds no shapefile \(\.shp\)"):
        read_layer(tmp_path)


def test_zip_without_or_with_several_shapefiles_is_refused(tmp_path, impacts):
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as handle:
        handle.writestr("readme.txt", "nothing here")
    with pytest.raises(InputError, match="holds no shapefile"):
        read_layer(empty)
    written = write_layer(impacts, tmp_path / "a.shp") + write_layer(impacts, tmp_path / "b.shp")
    several = tmp_path / "several.zip"
    with zipfile.ZipFile(several, "w") as handle:
        for path in written:
            handle.write(path, arcname=path.name)
    with pytest.raises(InputError, match=r"holds 2 shapefiles \(a\.shp, b\.shp\)"):
        read_layer(several)
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"not a zip")
    with pytest.raises(InputError, match="not a valid zip archive"):
        read_layer(broken)


def test_a_corrupt_file_is_an_input_error(tmp_path):
    path = tmp_path / "bad.gpkg"
    path.write_bytes(b"garbage")
    with pytest.raises(InputError, match=r"bad\.gpkg"):
        read_layer(path)
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"garbage")
    with pytest.raises(InputError, match=r"cannot read .*bad\.parquet"):
        read_layer(bad)


def test_a_plain_parquet_table_is_not_geoparquet(tmp_path):
    path = tmp_path / "plain.parquet"
    pd.DataFrame({"a": [1]}).to_parquet(path)
    with pytest.raises(InputError, match=r"plain\.parquet"):
        read_layer(path)


def test_a_geopackage_table_without_geometry_is_refused(tmp_path):
    path = tmp_path / "table.gpkg"
    pyogrio.write_dataframe(pd.DataFrame({"a": [1]}), path, layer="credits")
    with pytest.raises(InputError, match="has no geometry column"):
        read_layer(path)


@pytest.fixture
def shapefile_without_prj(tmp_path, impacts) -> Path:
    path = tmp_path / "noprj.shp"
    write_layer(impacts, path)
    (tmp_path / "noprj.prj").unlink()
    return path


def test_a_layer_without_crs_raises_with_the_fix(shapefile_without_prj):
    message = r"noprj\.shp has no coordinate reference system"
    with pytest.raises(MissingCRSError, match=message) as e:
        read_layer(shapefile_without_prj)
    assert "Layer > Set CRS" in str(e.value)
    assert "--assume-crs EPSG:26915" in str(e.value)


def test_a_geopackage_layer_without_crs_is_named_with_its_layer(tmp_path, impacts):
    path = tmp_path / "nocrs.gpkg"
    with pytest.warns(UserWarning, match="'crs' was not provided"):
        write_layer(impacts.set_crs(None, allow_override=True), path, layer="impacts")
    with pytest.raises(MissingCRSError, match=r"nocrs\.gpkg \(layer 'impacts'\)"):
        read_layer(path)


def test_assume_crs_sets_and_records_the_crs(shapefile_without_prj):
    read = read_layer(shapefile_without_prj, assume_crs="EPSG:26915")
    assert read.gdf.crs == "EPSG:26915"
    assert read.crs is None  # as read from the file
    assert read.records == [f"CRS assumed EPSG:26915 by --assume-crs for {shapefile_without_prj}"]


def test_assume_crs_is_ignored_with_a_record_when_the_layer_has_one(tmp_path, impacts):
    path = tmp_path / "x.gpkg"
    write_layer(impacts.to_crs(4269), path)
    read = read_layer(path, assume_crs=26915)
    assert read.gdf.crs == "EPSG:4269"
    assert "ignored" in read.records[0] and "EPSG:4269" in read.records[0]


def test_an_invalid_assumed_crs_is_an_input_error(shapefile_without_prj):
    with pytest.raises(InputError, match="--assume-crs 'EPSG:99999999' is not a valid CRS"):
        read_layer(shapefile_without_prj, assume_crs="EPSG:99999999")


def test_list_layers_of_an_unsupported_file_names_the_formats(tmp_path):
    path = tmp_path / "x.dxf"
    path.write_text("0")
    with pytest.raises(InputError, match="supported formats"):
        list_layers(path)


# --------------------------------------------------------------------------------------
# Shapefile field names
# --------------------------------------------------------------------------------------

FIELD_NAME_CASES = [
    (["sqft_protection"], {"sqft_protection": "sqft_prote"}),
    (
        ["sqft_protection", "sqft_protected"],
        {"sqft_protection": "sqft_prote", "sqft_protected": "sqft_pro_1"},
    ),
    (  # a name that already fits keeps its spelling, even when listed later
        ["sqft_protection", "sqft_prote"],
        {"sqft_protection": "sqft_pro_1", "sqft_prote": "sqft_prote"},
    ),
    (["ID", "id"], {"ID": "ID", "id": "id_1"}),  # DBF names are case-insensitive
    (
        ["area_sqft", "area_acres", "area_reported"],
        {"area_sqft": "area_sqft", "area_acres": "area_acres", "area_reported": "area_repor"},
    ),
    (["Étang_surface"], {"Étang_surface": "Étang_sur"}),  # 10 bytes of UTF-8
    ([""], {"": "field"}),
    ([1, 2], {"1": "1", "2": "2"}),
]


@pytest.mark.parametrize(("columns", "expected"), FIELD_NAME_CASES)
def test_shapefile_field_names_examples(columns, expected):
    assert shapefile_field_names(columns) == expected


def test_many_collisions_get_distinct_numbers():
    columns = [f"nearest_public_water_{i:02d}" for i in range(12)]
    short = shapefile_field_names(columns)
    assert short[columns[0]] == "nearest_pu"
    assert short[columns[1]] == "nearest__1"
    assert short[columns[11]] == "nearest_11"
    assert len(set(short.values())) == 12


NAMES = st.lists(
    st.text(
        alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDÉé_0123456789–"),
        min_size=0,
        max_size=25,
    ),
    max_size=30,
)


@given(NAMES)
def test_shapefile_field_names_are_short_unique_deterministic_and_idempotent(columns):
    short = shapefile_field_names(columns)
    assert list(short) == list(dict.fromkeys(columns))
    values = list(short.values())
    assert all(0 < len(v.encode("utf-8")) <= 10 for v in values)
    assert len({v.lower() for v in values}) == len(values)
    assert shapefile_field_names(columns) == short
    assert shapefile_field_names(values) == {v: v for v in values}
    for name in columns:  # names that already fit and are unique keep their spelling
        if (
            name
            and len(name.encode("utf-8")) <= 10
            and [c.lower() for c in columns].count(name.lower()) == 1
        ):
            assert short[name] == name


# --------------------------------------------------------------------------------------
# Field mapping
# --------------------------------------------------------------------------------------


def test_field_mapping_roles_match_the_default_name_table():
    # the roles with a default name, then the exemption roles (io/exemption_columns) and notes
    assert [f.name for f in fields(FieldMapping)] == [*DEFAULT_NAMES, "exemption_columns", "notes"]


RESOLVE_CASES = [
    (
        ["IMPACT_ID", "CIRC39", "ATTRIBUTE", "geometry"],
        {"impact_id": "IMPACT_ID", "wetland_type": "CIRC39", "cowardin": "ATTRIBUTE"},
    ),
    (
        [
            "id",
            "circ39_class",
            "circ39",
            "project",
            "cedar_tam",
            "activity",
            "land_use",
            "wetland_ac",
        ],
        {
            "impact_id": "id",
            "wetland_type": "circ39_class",
            "project": "project",
            "cedar_tamarack": "cedar_tam",
            "impact_kind": "activity",
            "land_use": "land_use",
            "wetland_acres": "wetland_ac",
        },
    ),
    (
        ["fid", "Wetland_Type", "attribute"],
        {"impact_id": "fid", "wetland_type": "Wetland_Type", "cowardin": "attribute"},
    ),
    (["ID", "id"], {"impact_id": "id"}),  # exact spelling wins
    (
        ["impact", "cedar_tamarack", "PROJECT"],
        {"impact_kind": "impact", "cedar_tamarack": "cedar_tamarack", "project": "PROJECT"},
    ),
    (["name", "geometry"], {}),
]


@pytest.mark.parametrize(("columns", "expected"), RESOLVE_CASES)
def test_default_names_are_recognised_case_insensitively(columns, expected):
    mapping = resolve_fields(columns)
    assert {k: v for k, v in mapping.as_dict().items() if v is not None} == expected


def test_user_names_win_and_match_case_insensitively():
    mapping = resolve_fields(
        ["impact_id", "PARCEL", "Type"], impact_id="parcel", wetland_type="Type"
    )
    assert mapping.impact_id == "PARCEL"
    assert mapping.wetland_type == "Type"


def test_a_missing_user_column_lists_the_available_columns():
    with pytest.raises(
        FieldMappingError,
        match=r"the impact id column 'PARCEL' is not in the layer; "
        r"available columns: a, b",
    ):
        resolve_fields(["a", "b"], impact_id="PARCEL")


def test_an_unknown_role_is_a_type_error():
    with pytest.raises(TypeError, match=r"unknown field role\(s\) \['colour'\]"):
        resolve_fields(["a"], colour="a")


def test_nwi_wetland_ty_is_not_taken_for_a_circular_39_type(sample_data):
    nwi = read_layer(sample_data.nwi).gdf
    mapping = resolve_fields(nwi)
    assert mapping.wetland_type is None
    assert mapping.cowardin == "ATTRIBUTE"
    assert "NWI wetland categories" in mapping.notes[0]
    by_name = resolve_fields(list(nwi.columns))
    assert by_name.wetland_type is None
    assert "WETLAND_TY" in by_name.notes[0]


def test_wetland_ty_holding_circular_39_types_is_used():
    frame = pd.DataFrame({"WETLAND_TY": ["3", "Type 2", None, "bad"]})
    assert resolve_fields(frame).wetland_type == "WETLAND_TY"


def test_wetland_type_column_of_nwi_categories_is_skipped_but_circ39_is_used():
    frame = pd.DataFrame({"wetland_type": ["Freshwater Pond"], "circ39": ["5"]})
    assert resolve_fields(frame).wetland_type == "circ39"
    frame = pd.DataFrame({"wetland_type": ["Freshwater Pond"]})
    mapping = resolve_fields(frame)
    assert mapping.wetland_type is None
    assert "Freshwater Pond" in mapping.notes[0]
    empty = resolve_fields(pd.DataFrame({"wetland_ty": [None, ""]}))
    assert empty.wetland_type is None and "empty" in empty.notes[0]
    junk = resolve_fields(pd.DataFrame({"wetland_ty": ["zzz"]}))
    assert junk.wetland_type is None and "no value reads" in junk.notes[0]


# --------------------------------------------------------------------------------------
# Safe writing: staged beside the target, moved into place, other layers kept
# --------------------------------------------------------------------------------------


def _staging_left(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(STAGING_PREFIX)]


def test_writing_into_a_geopackage_keeps_its_other_layers(tmp_path, impacts):
    path = tmp_path / "project.gpkg"
    write_layer(impacts.iloc[:1], path, layer="analyst_notes")
    write_layer(impacts, path, layer="impacts")
    write_layer(impacts.iloc[:2], path, layer="impacts")  # replaced, not appended
    assert list_layers(path) == ["analyst_notes", "impacts"]
    assert len(read_layer(path, "analyst_notes").gdf) == 1
    assert len(read_layer(path, "impacts").gdf) == 2
    assert _staging_left(tmp_path) == []


def test_an_owned_layer_with_nothing_to_write_is_removed(tmp_path, impacts):
    path = tmp_path / "project.gpkg"
    write_layer(impacts, path, layer="keep")
    write_layer(impacts, path, layer="shoreland_zones")
    with SafeWriter("assess") as writer:
        writer.layer(None, path, layer="shoreland_zones")
    assert list_layers(path) == ["keep"]


@pytest.mark.parametrize(
    "interrupt", [OSError("disk full"), KeyboardInterrupt()], ids=["error", "ctrl-c"]
)
def test_a_fault_in_the_writer_leaves_the_previous_outputs_whole(
    tmp_path, impacts, monkeypatch, interrupt
):
    path = tmp_path / "out.gpkg"
    table = tmp_path / "out_summary.csv"
    with SafeWriter("assess") as writer:
        writer.layer(impacts, path, layer="impacts")
        writer.csv(pd.DataFrame({"a": [1]}), table)
    before = (path.read_bytes(), table.read_bytes())
    calls = []

    def failing(frame, staged, **kwargs):
        calls.append(staged)
        real_write_frame(frame, staged, **kwargs)  # half the job is done ...
        raise interrupt  # ... and the run dies

    monkeypatch.setattr("wetland_gis.io.writers.write_frame", failing)
    with pytest.raises(type(interrupt)):
        with SafeWriter("assess", overwrite=True) as writer:
            writer.csv(pd.DataFrame({"a": [2, 3]}), table)
            writer.layer(impacts.iloc[:1], path, layer="impacts")
    assert calls and (path.read_bytes(), table.read_bytes()) == before
    assert len(read_layer(path, "impacts").gdf) == 3
    assert _staging_left(tmp_path) == []


def test_a_run_killed_mid_write_leaves_the_previous_output_readable(tmp_path, impacts):
    path = tmp_path / "out.gpkg"
    write_layer(impacts, path, layer="impacts")
    before = path.read_bytes()
    script = (
        "import os, signal, sys\n"
        "import geopandas as gpd\n"
        "import wetland_gis.io.writers as layers\n"
        "from wetland_gis.io.safe_write import SafeWriter\n"
        "real = layers.write_frame\n"
        "def dying(frame, staged, **kw):\n"
        "    real(frame, staged, **kw)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "layers.write_frame = dying\n"
        "frame = gpd.read_file(sys.argv[1], layer='impacts').iloc[:1]\n"
        "with SafeWriter('assess') as w:\n"
        "    w.layer(frame, sys.argv[1], layer='impacts')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, timeout=120, check=False
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert path.read_bytes() == before
    assert len(read_layer(path, "impacts").gdf) == 3
    # the staging folder of the killed run stays beside the output, named so it can go
    assert all(p.is_dir() for p in _staging_left(tmp_path))


def test_an_output_that_is_an_input_is_refused(tmp_path, impacts):
    path = tmp_path / "impacts.shp"
    write_layer(impacts, path)
    before = path.with_suffix(".dbf").read_bytes()
    for target in (path, tmp_path / "." / "impacts.shp", tmp_path / "impacts.gpkg"):
        with pytest.raises(OutputError, match="it is an input of this run"):
            with SafeWriter("assess", inputs=[path, tmp_path / "impacts.gpkg"]) as writer:
                writer.layer(impacts, target)
    with pytest.raises(OutputError, match=r"impacts\.dbf: it is an input"):  # a sidecar too
        with SafeWriter("assess", inputs=[path]) as writer:
            writer.text("x", path.with_suffix(".dbf"))
    assert path.with_suffix(".dbf").read_bytes() == before


def test_a_writer_for_a_run_protects_the_inputs_its_manifest_lists(tmp_path, impacts):
    from wetland_gis.manifest import InputRecord, Manifest

    path = tmp_path / "impacts.gpkg"
    write_layer(impacts, path)
    run = Manifest(command="assess", as_of="2024-05-01")
    run.add_input(InputRecord(role="impacts", path=str(path)))
    with pytest.raises(OutputError, match="it is an input of this run"):
        with SafeWriter.for_run("assess", run, tmp_path / "out_manifest.json") as writer:
            writer.layer(impacts, path)
    with SafeWriter.for_run("assess", run, tmp_path / "out_manifest.json") as writer:
        writer.layer(impacts, tmp_path / "out.gpkg")
    assert writer.written == [tmp_path / "out.gpkg"]


def test_another_kind_of_file_needs_overwrite(tmp_path, impacts):
    notes = tmp_path / "notes.gpkg"
    notes.write_text("not a GeoPackage: the analyst's notes")
    with pytest.raises(OutputError, match=r"notes\.gpkg.*is not a GeoPackage.*--overwrite"):
        with SafeWriter("assess") as writer:
            writer.layer(impacts, notes, layer="impacts")
    assert notes.read_text().startswith("not a GeoPackage")
    table = tmp_path / "table.parquet"
    impacts.to_parquet(table)
    with pytest.raises(OutputError, match=r"table\.parquet.*exists.*--overwrite"):
        with SafeWriter("assess") as writer:
            writer.layer(impacts, table)
    with SafeWriter("assess", overwrite=True) as writer:
        writer.layer(impacts, notes, layer="impacts")
    assert list_layers(notes) == ["impacts"]


def test_a_commands_own_earlier_outputs_are_replaced_without_overwrite(tmp_path, impacts):
    from wetland_gis.manifest import Manifest

    out = tmp_path / "out.parquet"
    for _ in range(2):
        with SafeWriter("assess", manifest=tmp_path / "out_manifest.json") as writer:
            writer.layer(impacts, out)
            writer.csv(pd.DataFrame({"a": [1]}), tmp_path / "out_summary.csv")
            writer.manifest(
                Manifest(command="assess", as_of="2024-05-01"), tmp_path / "out_manifest.json"
            )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "out.parquet",
        "out_manifest.json",
        "out_summary.csv",
    ]
    # another command's manifest does not make the files its own
    with pytest.raises(OutputError, match="was not written by `wetland-gis site`"):
        with SafeWriter("site", manifest=tmp_path / "out_manifest.json") as writer:
            writer.layer(impacts, out)


def test_a_shapefile_replaced_loses_its_stale_index(tmp_path, impacts):
    path = tmp_path / "out.shp"
    write_layer(impacts, path)
    path.with_suffix(".qix").write_bytes(b"stale spatial index")
    write_layer(impacts.iloc[:1], path)
    assert not path.with_suffix(".qix").exists()
    assert len(read_layer(path).gdf) == 1


def test_a_geopackage_with_a_write_ahead_log_is_folded_in_first(tmp_path, impacts):
    import sqlite3

    path = tmp_path / "project.gpkg"
    write_layer(impacts, path, layer="notes")
    con = sqlite3.connect(path)  # as QGIS does while editing: WAL journal, a pending change
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("CREATE TABLE qgis_edits (note TEXT)")
    con.execute("INSERT INTO qgis_edits VALUES ('edited in QGIS')")
    con.commit()
    assert Path(f"{path}-wal").stat().st_size > 0
    write_layer(impacts, path, layer="impacts")  # the edit lived only in the -wal file
    con.close()
    # the unregistered table is kept; GDAL lists it only while no attribute table is
    # registered in gpkg_contents, and the layers' QGIS style table (layer_styles) is one
    assert {"impacts", "notes"} <= set(list_layers(path))
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT note FROM qgis_edits").fetchall() == [("edited in QGIS",)]


# --------------------------------------------------------------------------------------
# Esri File Geodatabase (issue 30): read by GDAL's OpenFileGDB driver
# --------------------------------------------------------------------------------------


@pytest.fixture
def two_layer_gdb(tmp_path, impacts) -> Path:
    """A File Geodatabase written by pyogrio's OpenFileGDB driver (GDAL >= 3.6)."""
    path = tmp_path / "project.gdb"
    pro = {"TARGET_ARCGIS_VERSION": "ARCGIS_PRO_3_2_OR_LATER"}  # 64-bit integers kept
    pyogrio.write_dataframe(impacts, path, layer="impacts", driver="OpenFileGDB", **pro)
    pyogrio.write_dataframe(impacts.head(1), path, layer="sites", driver="OpenFileGDB", **pro)
    return path


def test_a_file_geodatabase_layer_is_read_whole_with_its_objectid(two_layer_gdb, impacts):
    assert list_layers(two_layer_gdb) == ["impacts", "sites"]
    read = read_layer(two_layer_gdb, "impacts")
    assert read.layer == "impacts" and read.crs == "EPSG:26915"
    assert list(read.gdf["OBJECTID"]) == [1, 2, 3]  # the feature id, as ArcGIS shows it
    assert_same_attributes(read.gdf, impacts)
    assert_same_geometry(read.gdf, impacts)


def test_a_file_geodatabase_with_several_layers_needs_a_layer_name(two_layer_gdb):
    with pytest.raises(LayerNotFoundError, match=r"holds 2 layers \('impacts', 'sites'\)"):
        read_layer(two_layer_gdb)
    with pytest.raises(LayerNotFoundError, match=r"'wrong' is not in .*'impacts', 'sites'"):
        read_layer(two_layer_gdb, "wrong")


def test_a_file_geodatabase_hash_covers_its_tables_and_not_arcgis_lock_files(two_layer_gdb):
    before = read_layer(two_layer_gdb, "impacts").sha256
    (two_layer_gdb / "timestamps.1.user.sr.lock").write_bytes(b"ArcGIS was here")
    assert read_layer(two_layer_gdb, "impacts").sha256 == before
    table = sorted(two_layer_gdb.glob("*.gdbtable"))[-1]
    table.write_bytes(table.read_bytes() + b"\0")
    assert read_layer(two_layer_gdb, "sites").sha256 != before


@pytest.mark.slow
def test_assess_reads_impacts_and_context_from_file_geodatabases(sample_data, tmp_path):
    """``assess impacts.gdb --layer impacts --context context.gdb``, as from the .gpkg."""
    from wetland_gis.cli import main

    pro = {"TARGET_ARCGIS_VERSION": "ARCGIS_PRO_3_2_OR_LATER"}  # 64-bit integers kept
    impacts = sample_data.path("projects/wright_metro/impacts.gpkg")
    gdb = tmp_path / "impacts.gdb"
    pyogrio.write_dataframe(
        read_layer(impacts).gdf, gdb, layer="impacts", driver="OpenFileGDB", **pro
    )
    pyogrio.write_dataframe(
        read_layer(impacts).gdf.head(1), gdb, layer="old", driver="OpenFileGDB", **pro
    )
    context = tmp_path / "context.gdb"
    for name in list_layers(sample_data.context):
        layer = read_layer(sample_data.context, name).gdf
        pyogrio.write_dataframe(layer, context, layer=name, driver="OpenFileGDB", **pro)
    runs = {}
    for key, source, ctx in (("gdb", gdb, context), ("gpkg", impacts, sample_data.context)):
        out = tmp_path / key / "a.gpkg"
        args = ["assess", str(source), "--context", str(ctx), "--out", str(out)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", WetlandGISWarning)
            assert main([*args, "--layer", "impacts", "--as-of", "2024-05-01", "--quiet"]) == 0
        runs[key] = read_layer(out, "impacts").gdf.set_index("impact_id")
    assert list(runs["gdb"]["outcome"]) == list(runs["gpkg"]["outcome"])
    pd.testing.assert_series_equal(runs["gdb"]["replace_acres"], runs["gpkg"]["replace_acres"])
