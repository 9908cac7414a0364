"""Robustness of ``wetland_gis.assess`` on the data analysts really hand over.

Each test builds its input in ``tmp_path`` (or in memory) and checks the promise of the
README: every input feature comes out exactly once, assessed or with a reason; nothing is
dropped, repaired or reprojected without a record; bad input is a clear error naming the
file and the fix; areas are those of EPSG:26915 in international feet.
"""

from __future__ import annotations

import json
import warnings
import zipfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import shapely
from helpers import AS_OF, CONTEXT, FT, ROOT
from pyproj import CRS
from shapely.geometry import (
    GeometryCollection,
    LineString,
    MultiPolygon,
    Point,
    Polygon,
    box,
    mapping,
)

import wetland_gis as wg
from wetland_gis.context import load_context
from wetland_gis.errors import (
    ContextError,
    InputError,
    LayerNotFoundError,
    MissingCRSError,
    OutputError,
    WetlandGISWarning,
)
from wetland_gis.geometry.crs import crs_label
from wetland_gis.io.layers import read_layer, write_layer

SQFT_PER_SQM = 1 / FT**2
X0, Y0 = 423_400.0, 5_002_300.0  # Wright County, unincorporated, outside the shoreland zone
WRIGHT_HENNEPIN = (448_331.39, 5_000_404.86)  # a point on the Wright / Hennepin county line
ST_CROIX = (518_745.0, 4_985_679.0)  # a point on the Minnesota / Wisconsin state line


@pytest.fixture(scope="module")
def ctx():
    return load_context(CONTEXT, as_of=AS_OF)


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return func(*args, **kwargs)


def _assess(impacts, ctx, **kwargs):
    return _quiet(wg.assess, impacts, ctx, as_of=AS_OF, **kwargs)


def _sq(x: float, y: float, side: float) -> Polygon:
    return box(x, y, x + side, y + side)


def _layer(geoms, crs="EPSG:26915", **columns) -> gpd.GeoDataFrame:
    n = len(geoms)
    data = {"impact_id": [f"i{k}" for k in range(n)], "circ39": ["3"] * n}
    data.update(columns)
    return gpd.GeoDataFrame(data, geometry=list(geoms), crs=crs)


def _once(a, n: int) -> None:
    """Every input row is in the output exactly once, in order, with a status."""
    out = a.impacts
    assert len(out) == n
    assert list(out["wg_row"]) == list(range(1, n + 1))
    assert set(out["status"]) <= {"assessed", "not_assessed"}
    bad = out["status"] == "not_assessed"
    assert out.loc[bad, "status_reason"].astype(bool).all()
    assert (out.loc[bad, "outcome"] == "not_assessed").all()
    assert (out.loc[~bad, "outcome"] != "not_assessed").all()


# --- geometry -----------------------------------------------------------------------------


def test_geometry_zoo_every_row_once_with_repairs_recorded_and_exact_areas(ctx):
    x, y = X0, Y0
    holed = Polygon(
        [(x, y), (x + 40, y), (x + 40, y + 40), (x, y + 40)],
        [[(x + 10, y + 10), (x + 20, y + 10), (x + 20, y + 20), (x + 10, y + 20)]],
    )
    sliver = Polygon([(x + 50, y), (x + 90, y), (x + 90, y + 1e-7)])
    duplicate_vertices = Polygon(
        [
            (x + 100, y),
            (x + 100, y),
            (x + 120, y),
            (x + 120, y + 20),
            (x + 120, y + 20),
            (x + 100, y + 20),
        ]
    )
    self_touching = Polygon(
        [
            (x + 200, y),
            (x + 240, y),
            (x + 240, y + 40),
            (x + 220, y + 40),
            (x + 230, y + 20),
            (x + 210, y + 20),
            (x + 220, y + 40),
            (x + 200, y + 40),
        ]
    )
    bowtie = Polygon([(x + 300, y), (x + 340, y + 40), (x + 340, y), (x + 300, y + 40)])
    with_line = GeometryCollection(
        [_sq(x + 400, y, 20), LineString([(x + 400, y), (x + 500, y + 100)])]
    )
    only_line = GeometryCollection([LineString([(x + 400, y), (x + 500, y + 100)])])
    overlapping_parts = MultiPolygon([_sq(x + 600, y, 20), _sq(x + 610, y, 20)])
    geoms = [
        holed,
        sliver,
        MultiPolygon([holed, sliver]),
        duplicate_vertices,
        self_touching,
        bowtie,
        with_line,
        only_line,
        overlapping_parts,
    ]
    expected_sqm = [1500, 2e-6, 1500 + 2e-6, 400, 1400, 800, 400, None, 600]
    a = _assess(_layer(geoms), ctx)
    _once(a, len(geoms))
    out = a.impacts
    for row, sqm in enumerate(expected_sqm):
        if sqm is None:
            assert out.loc[row, "status"] == "not_assessed"
            assert "GeometryCollection" in out.loc[row, "status_reason"]
        else:
            assert out.loc[row, "status"] == "assessed"
            assert out.loc[row, "area_sqft"] == pytest.approx(
                sqm * SQFT_PER_SQM, rel=1e-9, abs=1e-6
            )
            assert out.loc[row, "area_acres"] * 43_560 == pytest.approx(out.loc[row, "area_sqft"])
    for row in (4, 5, 8):
        assert "repaired with make_valid" in out.loc[row, "repairs"]
    assert "GeometryCollection" in out.loc[6, "repairs"]
    for row in (1, 3):
        assert out.loc[row, "repairs"] == ""
    # rows 0 and 2 cover the same holed square: valid, but drawn over each other
    for row in (0, 2):
        assert out.loc[row, "repairs"].startswith("overlaps ")
    assert any("rows 5, 6, 9" in r for r in a.manifest.records)


# --- coordinate reference systems ---------------------------------------------------------

LOCAL_FEET = CRS.from_proj4(
    "+proj=tmerc +lat_0=45 +lon_0=-93.9 +k=1 +x_0=500000 +y_0=0 +ellps=GRS80 "
    "+towgs84=0,0,0 +units=us-ft +no_defs"
)


@pytest.mark.parametrize(
    "crs",
    ["EPSG:4326", "EPSG:3857", "EPSG:2811", "EPSG:26851", "ESRI:103726", LOCAL_FEET],
    ids=["wgs84", "web-mercator", "mn-central-harn", "mn-south-ftus", "county-ftus", "local-ft"],
)
@pytest.mark.parametrize("ext", [".gpkg", ".shp", ".parquet"])
def test_any_crs_is_reprojected_recorded_and_gives_the_utm_area(tmp_path, ctx, crs, ext):
    utm = _layer([_sq(X0, Y0, 20), _sq(X0 + 100, Y0, 30)])
    path = tmp_path / f"impacts{ext}"
    moved = utm.to_crs(crs)
    moved.to_parquet(path) if ext == ".parquet" else moved.to_file(path)
    a = _assess(path, ctx)
    _once(a, 2)
    assert a.impacts.crs.to_epsg() == 26915
    assert list(a.impacts["area_sqft"]) == pytest.approx(
        [400 * SQFT_PER_SQM, 900 * SQFT_PER_SQM], rel=1e-7
    )
    assert any("reprojected from" in r and "impacts" in r for r in a.manifest.records)
    assert list(a.impacts["county"]) == ["Wright", "Wright"]


def test_a_crs_without_an_authority_code_is_named_by_its_definition():
    assert "+units=us-ft" in crs_label(LOCAL_FEET)  # was "unknown"


def test_a_local_engineering_crs_is_a_clear_error_naming_the_file(tmp_path, ctx):
    site_grid = (
        'LOCAL_CS["Site grid (ft)",LOCAL_DATUM["Site datum",32767],'
        'UNIT["US survey foot",0.304800609601219],AXIS["Easting",EAST],'
        'AXIS["Northing",NORTH]]'
    )
    path = tmp_path / "cad_export.gpkg"
    _layer([_sq(1000, 1000, 50)], crs=site_grid).to_file(path)
    with pytest.raises(InputError, match=r"cad_export\.gpkg.*Site grid.*cannot be transformed"):
        _assess(path, ctx)


def test_coordinates_that_do_not_fit_the_declared_crs_are_a_clear_error(tmp_path, ctx):
    # UTM metres in a shapefile whose .prj says WGS 84: the analyst set the wrong CRS
    path = tmp_path / "wrong_prj.shp"
    _layer([_sq(X0, Y0, 20), _sq(X0 + 100, Y0, 20)], crs="EPSG:4326").to_file(path)
    with pytest.raises(InputError, match=r"wrong_prj\.shp.*rows 1, 2.*EPSG:4326.*--override-crs"):
        _assess(path, ctx)


def _feature_collection(geoms, crs_name: str | None = None) -> dict:
    fc = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"impact_id": f"g{k}", "circ39": "3"},
                "geometry": mapping(g),
            }
            for k, g in enumerate(geoms)
        ],
    }
    if crs_name:
        fc["crs"] = {"type": "name", "properties": {"name": crs_name}}
    return fc


def test_geojson_without_crs_member_is_wgs84_by_spec_and_recorded(tmp_path, ctx):
    lonlat = gpd.GeoSeries([_sq(X0, Y0, 20)], crs=26915).to_crs(4326)
    path = tmp_path / "lonlat.geojson"
    path.write_text(json.dumps(_feature_collection(lonlat)))
    a = _assess(path, ctx)
    _once(a, 1)
    assert a.impacts["area_sqft"].item() == pytest.approx(400 * SQFT_PER_SQM, rel=1e-7)
    assert any("no crs member" in r and "RFC 7946" in r for r in a.manifest.records)


def test_geojson_without_crs_member_holding_metres_is_an_error_with_the_fix(tmp_path, ctx):
    path = tmp_path / "utm_no_crs.geojson"
    path.write_text(json.dumps(_feature_collection([_sq(X0, Y0, 20)])))
    with pytest.raises(MissingCRSError, match=r"utm_no_crs\.geojson.*not degrees.*assume-crs"):
        _assess(path, ctx)
    # ... which --assume-crs can now fix, since the file declares no CRS
    a = _assess(path, ctx, assume_crs="EPSG:26915")
    _once(a, 1)
    assert a.impacts["area_sqft"].item() == pytest.approx(400 * SQFT_PER_SQM, rel=1e-9)
    assert any("CRS assumed EPSG:26915" in r for r in a.manifest.records)


def test_geojson_with_a_crs_member_is_read_in_that_crs(tmp_path, ctx):
    path = tmp_path / "utm.geojson"
    path.write_text(
        json.dumps(_feature_collection([_sq(X0, Y0, 20)], "urn:ogc:def:crs:EPSG::26915"))
    )
    a = _assess(path, ctx)
    assert a.impacts["status"].item() == "assessed"
    assert not any("crs member" in r for r in a.manifest.records)


# --- formats ------------------------------------------------------------------------------


def test_zipped_latin1_shapefile_keeps_its_accented_names(tmp_path, ctx):
    frame = _layer(
        [_sq(X0, Y0, 20), _sq(X0 + 100, Y0, 30)],
        impact_id=["Étang-1", "Rivière-2"],
        name=["Lac Clémentine", "Marais d'Été"],
    )
    folder = tmp_path / "shp"
    folder.mkdir()
    pyogrio.write_dataframe(frame, folder / "impacts.shp", encoding="ISO-8859-1")
    assert (folder / "impacts.cpg").read_text().strip() == "ISO-8859-1"
    archive = tmp_path / "impacts.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        for part in folder.iterdir():
            handle.write(part, arcname=f"export/{part.name}")
    a = _assess(archive, ctx)
    _once(a, 2)
    assert list(a.impacts["impact_id"]) == ["Étang-1", "Rivière-2"]
    assert list(a.impacts["name"]) == ["Lac Clémentine", "Marais d'Été"]
    out = tmp_path / "out.gpkg"
    _quiet(a.write, out)
    assert list(read_layer(out, layer="impacts").gdf["name"]) == ["Lac Clémentine", "Marais d'Été"]


def test_geopackage_with_three_layers_and_none_named_lists_them(tmp_path, ctx):
    path = tmp_path / "three.gpkg"
    for name in ("a", "b", "c"):
        _layer([_sq(X0, Y0, 20)]).to_file(path, layer=name)
    with pytest.raises(LayerNotFoundError, match=r"3 layers \('a', 'b', 'c'\)"):
        _assess(path, ctx)
    a = _assess(path, ctx, layer="B")  # layer names are matched without regard to case
    _once(a, 1)
    assert a.manifest.inputs[0].layer == "b"


def test_empty_layer_gives_an_empty_result_that_writes(tmp_path, ctx):
    path = tmp_path / "empty.gpkg"
    _layer([_sq(X0, Y0, 20)]).iloc[:0].to_file(path)
    a = _assess(path, ctx)
    assert len(a.impacts) == 0
    assert a.manifest.inputs[0].features == 0
    # each format in its own folder: the trace beside a GeoParquet file is
    # out_decisions.parquet, beside the others out_decisions.json, and a write replaces only
    # the files its stem's manifest lists
    for ext in (".gpkg", ".shp", ".parquet", ".csv"):
        folder = tmp_path / ext[1:]
        folder.mkdir()
        _quiet(a.write, folder / f"out{ext}")
        # tables with their header (was 1 byte), whatever the layer's format
        assert list(pd.read_csv(folder / "out_projects.csv").columns) == [
            "project",
            "impacts",
            "assessed",
        ], ext
        assert "Outcome" in pd.read_csv(folder / "out_summary.csv").columns, ext
    # a valid, empty polygon layer with its CRS
    info = pyogrio.read_info(tmp_path / "gpkg" / "out.gpkg", layer="impacts")
    assert info["features"] == 0 and info["geometry_type"] == "Polygon"
    assert info["crs"] == "EPSG:26915"
    assert pd.read_parquet(tmp_path / "parquet" / "out_decisions.parquet").empty


def test_write_into_the_input_is_refused_and_other_layers_are_kept(tmp_path, ctx):
    path = tmp_path / "project.gpkg"
    _layer([_sq(X0, Y0, 20)]).to_file(path, layer="drawn")
    a = _assess(path, ctx)
    with pytest.raises(OutputError, match="it is an input of this run"):
        _quiet(a.write, path)
    assert pyogrio.list_layers(path)[:, 0].tolist() == ["drawn"]
    out = tmp_path / "out.gpkg"
    _layer([_sq(X0, Y0, 5)]).to_file(out, layer="analyst_sketch")
    _quiet(a.write, out)
    # the trace table and QGIS's style table are written beside the impacts
    assert sorted(pyogrio.list_layers(out)[:, 0]) == [
        "analyst_sketch",
        "decisions",
        "impacts",
        "layer_styles",
    ]


def test_layer_of_only_invalid_rows_keeps_each_row_and_lists_its_project(ctx):
    geoms = [
        None,
        Polygon(),
        LineString([(X0, Y0), (X0 + 1, Y0 + 1)]),
        Polygon([(X0, Y0), (X0 + 10, Y0), (X0 + 20, Y0)]),
    ]
    a = _assess(_layer(geoms, project=["P"] * 4), ctx)
    _once(a, 4)
    assert (a.impacts["status"] == "not_assessed").all()
    assert a.impacts["status_reason"].str.len().gt(0).all()
    # the project is in the projects table, with nothing assessed (it used to vanish)
    assert a.projects.to_dict("records") == [{"project": "P", "impacts": 4, "assessed": 0}]


# --- place --------------------------------------------------------------------------------


def test_impact_straddling_wright_and_hennepin_records_both_parts(ctx):
    x, y = WRIGHT_HENNEPIN
    a = _assess(_layer([box(x - 50, y - 50, x + 50, y + 50)]), ctx)
    row = a.impacts.iloc[0]
    parts = dict(p.split(": ") for p in row["counties"].split("; "))
    assert set(parts) == {"Wright", "Hennepin"}
    assert sum(float(v.removesuffix(" sq ft")) for v in parts.values()) == pytest.approx(
        row["area_sqft"], abs=0.1
    )
    assert row["county"] == max(parts, key=lambda k: float(parts[k].removesuffix(" sq ft")))
    assert any("straddle county lines" in r for r in a.manifest.records)


def test_the_joint_application_table_reads_the_straddled_counties_as_data(ctx, monkeypatch):
    """assess hands the classification's counties (data) to the joint application's table,
    which then never reads the ``counties`` text back."""
    import wetland_gis.assessment as assessment
    import wetland_gis.io.joint_application as joint

    # no reader of the counties text is left to call (issue 33: text is never parsed back)
    assert not hasattr(joint, "county_names")
    given = []
    table = assessment.summary_table

    def summary_table(gdf, field_map, straddled=None):
        given.append(straddled)
        return table(gdf, field_map, straddled)

    monkeypatch.setattr(assessment, "summary_table", summary_table)
    x, y = WRIGHT_HENNEPIN
    a = _assess(_layer([box(x - 50, y - 50, x + 50, y + 50), _sq(x + 5000, y, 10)]), ctx)
    assert given and given[0] is not None
    counties = a.summary["Counties"].tolist()
    assert sorted(counties[0].split(", ")) == ["Hennepin", "Wright"]
    assert counties[0].split(", ")[0] == a.impacts["county"].iloc[0]
    # the trace carries them as data: the facts.context step's inputs, largest share first
    steps = a.trace[a.trace["rule_id"] == "facts.context"]
    named = [i["counties"] for i in steps["inputs"] if "counties" in i]
    assert named == [list(given[0].dropna().iloc[0])]
    assert named[0][0] == a.impacts["county"].iloc[0]


def test_impact_partly_outside_minnesota_is_recorded_with_the_part_outside(ctx):
    x, y = ST_CROIX
    a = _assess(_layer([box(x - 100, y - 100, x + 100, y + 100)]), ctx)
    row = a.impacts.iloc[0]
    assert row["county"] == "Washington"
    parts = dict(p.split(": ") for p in row["counties"].split("; "))
    assert set(parts) == {"Washington", "outside the county layer"}
    inside = float(parts["Washington"].removesuffix(" sq ft"))
    outside = float(parts["outside the county layer"].removesuffix(" sq ft"))
    assert inside + outside == pytest.approx(40_000 * SQFT_PER_SQM, abs=0.1)
    assert outside > 1000
    assert any("wg_row 1 lie partly outside every county" in r for r in a.manifest.records)


def test_impact_wholly_outside_minnesota_is_not_assessed(ctx):
    a = _assess(_layer([box(600_000, 4_985_000, 600_100, 4_985_100)]), ctx)
    _once(a, 1)
    assert "outside the county layer" in a.impacts["status_reason"].item()


def test_impacts_on_and_inside_a_lake_are_in_the_setback_zone_and_recorded(ctx):
    lake = ctx.public_water_basins.set_index("pw_id").geometry["SYN-86-0001"]
    vx, vy = lake.exterior.coords[10]
    on_ohwl = box(vx - 5, vy - 5, vx + 5, vy + 5)
    outside_touching = (
        lake.buffer(3).difference(lake).intersection(box(vx - 30, vy - 30, vx + 30, vy + 30))
    )
    inside = lake.buffer(-50).intersection(box(*lake.centroid.buffer(30).bounds))
    a = _assess(_layer([on_ohwl, outside_touching, inside]), ctx)
    _once(a, 3)
    out = a.impacts
    assert (out["zone"] == "building_setback_zone").all()
    assert list(out["sqft_setback"]) == pytest.approx(list(out["area_sqft"]))
    waterward = [r for r in a.manifest.records if "waterward of the OHWL" in r]
    assert len(waterward) == 1
    assert "wg_row 1, 3 " in waterward[0] and "SYN-86-0001" in waterward[0]
    assert "DNR jurisdiction" in waterward[0]


def test_very_large_and_very_small_impacts_have_exact_areas(ctx):
    side_100_acres = (100 * 43_560) ** 0.5 * FT
    big = _sq(X0 - 3000, Y0 - 3000, side_100_acres)
    tiny = _sq(X0, Y0, 0.1 * FT)  # 0.01 sq ft
    a = _assess(_layer([big, tiny], project=["big", "tiny"]), ctx)
    _once(a, 2)
    out = a.impacts
    assert out.loc[0, "area_acres"] == pytest.approx(100, rel=1e-9)
    assert out.loc[0, "replace_acres"] == pytest.approx(200, rel=1e-9)
    assert out.loc[1, "area_sqft"] == pytest.approx(0.01, rel=1e-6)
    assert out.loc[1, "area_reported"].endswith("sq ft")


# --- attributes ---------------------------------------------------------------------------


def test_numeric_missing_and_duplicate_ids_are_each_decided(ctx):
    geoms = [_sq(X0 + 60 * k, Y0, 20) for k in range(5)]
    a = _assess(_layer(geoms, impact_id=[1.0, np.nan, 2.0, 2.0, np.nan]), ctx)  # was an error
    _once(a, 5)
    assert (a.impacts["status"] == "assessed").all()
    assert a.impacts["outcome"].eq("replacement_required").all()
    assert sum(len(d.impacts) for d in a.decisions) == 5
    assert a.trace.loc[a.trace["impact_id"] != "", "impact_id"].nunique() == 5
    assert "no impact id" in a.impacts.loc[1, "repairs"]
    assert "duplicate impact id" in a.impacts.loc[2, "repairs"]


def test_rows_without_a_project_are_decided_and_recorded(ctx):
    geoms = [_sq(X0 + 60 * k, Y0, 20) for k in range(4)]
    a = _assess(_layer(geoms, project=["P1", None, np.nan, "P1"]), ctx)
    _once(a, 4)
    # they were skipped: status "assessed" but outcome "not_assessed" and no decision
    assert a.impacts["outcome"].eq("replacement_required").all()
    projects = a.projects.set_index("project")
    assert projects.loc["P1", "assessed"] == 2
    assert projects.loc["(no project)", "assessed"] == 2
    assert any("(wg_row 2, 3)" in r and "(no project)" in r for r in a.manifest.records)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3.0, "3"),
        ("3 ", "3"),
        ("Type III", "3"),
        ("type 3/4", "3/4"),
        (None, None),
        ("", None),
        ("type 9", None),
        ("PEM1C", None),
        (np.nan, None),
    ],
)
def test_wetland_type_values(ctx, value, expected):
    a = _assess(_layer([_sq(X0, Y0, 20)], circ39=pd.Series([value], dtype=object)), ctx)
    _once(a, 1)
    row = a.impacts.iloc[0]
    if expected is None:
        assert row["status"] == "not_assessed"
        assert row["status_reason"].startswith("wetland type:")
    else:
        assert row["status"] == "assessed"
        assert row["wetland_type"] == expected


def test_cowardin_code_in_its_own_column_is_inferred(ctx):
    a = _assess(_layer([_sq(X0, Y0, 20)], circ39=[None], attribute=["PEM1C"]), ctx)
    assert a.impacts["type_source"].item() == "inferred"
    assert a.impacts["type_verify"].item()


def test_type_column_named_wetland_type_is_read(ctx):
    # `wetland_type` and `cedar_tamarack` are documented input names and output columns:
    # the input columns were renamed before the fields were found, so every row was not
    # assessed ("no wetland type given") and fields={"wetland_type": ...} was refused
    gdf = gpd.GeoDataFrame(
        {"impact_id": ["a", "b"], "wetland_type": ["3", "2"], "cedar_tamarack": [True, False]},
        geometry=[_sq(X0, Y0, 20), _sq(X0 + 100, Y0, 30)],
        crs=26915,
    )
    for fields in (None, {"wetland_type": "wetland_type"}):
        a = _assess(gdf, ctx, fields=fields)
        _once(a, 2)
        assert list(a.impacts["wetland_type"]) == ["3", "2"]
        assert list(a.impacts["wetland_type_in"]) == ["3", "2"]
        assert list(a.impacts["cedar_tamarack"]) == [True, False]
        assert a.manifest.settings["fields"]["wetland_type"] == "wetland_type_in"


def test_input_columns_named_like_output_columns_in_any_case_are_renamed(tmp_path, ctx):
    gdf = _layer(
        [_sq(X0, Y0, 20)],
        status=["proposed"],
        geometry2=["x"],
        Status_Reason=["q"],
        AREA_SQFT=[1.0],
        Outcome=["o"],
        COUNTY=["Wright"],
    )
    a = _assess(gdf, ctx)
    _once(a, 1)
    cols = list(a.impacts.columns)
    for old in ("status", "Status_Reason", "AREA_SQFT", "Outcome", "COUNTY"):
        assert f"{old}_in" in cols
        assert old == "status" or old not in cols
        assert any(f"input column {old!r} renamed" in r for r in a.manifest.records)
    assert a.impacts["status_in"].item() == "proposed"
    assert a.impacts["geometry2"].item() == "x"
    # a GeoPackage does not tell `Outcome` from `outcome`: the write used to fail in GDAL
    _quiet(a.write, tmp_path / "out.gpkg")
    back = read_layer(tmp_path / "out.gpkg", layer="impacts").gdf
    assert (
        back["Outcome_in"].item() == "o" and back["outcome"].item() == a.impacts["outcome"].item()
    )


def test_write_layer_refuses_columns_differing_only_in_case_for_a_geopackage(tmp_path):
    frame = _layer([_sq(X0, Y0, 20)], Outcome=["o"], outcome=["p"])
    with pytest.raises(OutputError, match=r"\['Outcome', 'outcome'\] differ only in case"):
        write_layer(frame, tmp_path / "x.gpkg")
    write_layer(frame, tmp_path / "x.parquet")  # formats that keep case are fine


def test_a_repeated_index_does_not_mix_up_rows(ctx):
    # pd.concat of two layers repeats the index 0, 1: a bad type on the second "0" row
    # used to mark the first "0" row not assessed too, with the other row's reason
    first = _layer([_sq(X0, Y0, 20), _sq(X0 + 100, Y0, 30)], impact_id=["a", "b"])
    second = _layer(
        [_sq(X0 + 200, Y0, 20), _sq(X0 + 300, Y0, 30)], impact_id=["c", "d"], circ39=["bogus", "2"]
    )
    a = _assess(pd.concat([first, second]), ctx)
    _once(a, 4)
    assert list(a.impacts.index) == [0, 1, 0, 1]  # the input's index is given back
    assert list(a.impacts["status"]) == ["assessed", "assessed", "not_assessed", "assessed"]
    assert "bogus" in a.impacts["status_reason"].iloc[2]


# --- context ------------------------------------------------------------------------------


def _context_copy(path: Path, change) -> Path:
    for name in pyogrio.list_layers(CONTEXT)[:, 0]:
        layer = gpd.read_file(CONTEXT, layer=name)
        change(name, layer).to_file(path, layer=name)
    return path


def test_context_missing_a_required_field_names_file_layer_field_and_fix(tmp_path):
    path = _context_copy(
        tmp_path / "ctx.gpkg",
        lambda n, g: g.drop(columns="shore_class") if n == "public_water_basins" else g,
    )
    with pytest.raises(
        ContextError,
        match=r"ctx\.gpkg.*public_water_basins.*'shore_class'.*"
        r"rename",
    ):
        _assess(_layer([_sq(X0, Y0, 20)]), path)


def test_context_layer_without_crs_names_file_layer_and_fix(tmp_path):
    def no_crs(name, layer):
        return layer.set_crs(None, allow_override=True) if name == "lgus" else layer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # GDAL: "'crs' was not provided"
        path = _context_copy(tmp_path / "ctx.gpkg", no_crs)
    with pytest.raises(MissingCRSError, match=r"'lgus'.*ctx\.gpkg.*Set CRS"):
        _assess(_layer([_sq(X0, Y0, 20)]), path)


# --- writing and reading back -------------------------------------------------------------


def _mixed_assessment(ctx):
    geoms = [
        _sq(X0, Y0, 20),
        None,
        _sq(X0 + 100, Y0, 30),
        Polygon([(X0, Y0), (X0 + 10, Y0), (X0 + 20, Y0)]),
        GeometryCollection([_sq(X0 + 200, Y0, 10), LineString([(X0, Y0), (X0 + 5, Y0)])]),
    ]
    return _assess(
        _layer(
            geoms, impact_id=["a", "b", "c", "d", "e"], circ39=["3", "2", "bogus", "3", "Type 3/4"]
        ),
        ctx,
    )


@pytest.mark.parametrize("ext", [".gpkg", ".shp", ".parquet", ".geojson", ".csv"])
def test_write_and_read_back_keeps_every_row_once_with_its_area(tmp_path, ctx, ext):
    a = _mixed_assessment(ctx)
    _once(a, 5)
    out = tmp_path / f"assessed{ext}"
    written = _quiet(a.write, out)
    assert out in written
    if ext == ".csv":
        back = pd.read_csv(out)
    else:
        back = read_layer(out, layer="impacts" if ext == ".gpkg" else None).gdf
    assert sorted(back["wg_row"]) == list(range(1, 5 + 1))
    assert list(back["impact_id"]) == ["a", "b", "c", "d", "e"]
    assert list(back["status"]) == list(a.impacts["status"])
    np.testing.assert_allclose(
        back["area_sqft"].to_numpy(dtype=float),
        a.impacts["area_sqft"].to_numpy(dtype=float),
        rtol=1e-12,
    )
    manifest = json.loads(Path(f"{out.with_suffix('')}_manifest.json").read_text("utf-8"))
    assert manifest["outputs"][0] == str(out)


@pytest.mark.parametrize("ext", [".gpkg", ".shp"])
def test_a_line_row_is_written_with_null_geometry_and_its_wkt_in_a_polygon_layer(
    tmp_path, ctx, ext
):
    # a layer mixing polygons and a line was written as geometry type "Unknown" (QGIS split
    # it in two) and a shapefile refused it: now it is one polygon layer, nothing lost
    line = LineString([(X0, Y0), (X0 + 1, Y0 + 1)])
    a = _assess(_layer([_sq(X0, Y0, 20), line]), ctx)
    _once(a, 2)
    out = tmp_path / f"out{ext}"
    _quiet(a.write, out)
    info = pyogrio.read_info(out, layer="impacts" if ext == ".gpkg" else None)
    assert info["geometry_type"] == "Polygon"
    back = read_layer(out, layer="impacts" if ext == ".gpkg" else None).gdf
    wkt = "wg_input_wkt" if ext == ".gpkg" else "wg_input_w"
    assert back.geometry.iloc[1] is None
    assert shapely.from_wkt(back[wkt].iloc[1]).equals(line)
    reason = "status_reason" if ext == ".gpkg" else "status_rea"
    assert back[reason].iloc[1] == "expected a polygon, got LineString"
    assert shapely.get_type_id(a.impacts.geometry.iloc[1]) == 1  # in memory, kept for the map


def test_a_multipolygon_row_makes_the_layer_multipolygon(tmp_path, ctx):
    multi = MultiPolygon([_sq(X0, Y0, 10), _sq(X0 + 50, Y0, 10)])
    a = _assess(_layer([_sq(X0 + 100, Y0, 20), multi, Point(X0, Y0)]), ctx)
    _quiet(a.write, tmp_path / "out.gpkg")
    assert pyogrio.read_info(tmp_path / "out.gpkg", layer="impacts")["geometry_type"] == (
        "MultiPolygon"
    )
    assert len(gpd.read_file(tmp_path / "out.gpkg", layer="impacts")) == 3


@pytest.mark.parametrize(
    ("coords", "reason"),
    [
        ((1e300, 1e300, 2e300, 2e300), "area is not a finite number"),
        ((X0, Y0, np.inf, Y0 + 10), "not finite numbers"),
        ((np.nan, Y0, X0 + 10, Y0 + 10), "not finite numbers"),
    ],
    ids=["1e300", "inf", "nan"],
)
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_absurd_or_non_finite_coordinates_are_not_assessed_with_the_fix(ctx, coords, reason):
    # 1e300 ended in "area inf sq ft must be a finite number" with no file, row or fix
    a = _assess(_layer([_sq(X0, Y0, 20), box(*coords)]), ctx)
    _once(a, 2)
    assert a.impacts["status"].tolist() == ["assessed", "not_assessed"]
    assert reason in a.impacts["status_reason"].iloc[1]
    assert "CRS" in a.impacts["status_reason"].iloc[1]
    # nothing can measure or draw it: a null geometry, the input kept as WKT (the map died
    # in GEOS on NaN and infinite coordinates, found by the fuzz suite)
    assert a.impacts.geometry.iloc[1] is None
    assert a.impacts["wg_input_wkt"].iloc[1].startswith("POLYGON ((")
    assert a.explore() is not None


def test_a_zip_slip_archive_is_refused_with_the_fix(tmp_path, ctx):
    archive = tmp_path / "slip.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("../../evil.shp", b"x")
    with pytest.raises(
        InputError,
        match=r"slip\.zip.*outside the archive.*'\.\./\.\./evil"
        r"\.shp'.*unzip it",
    ):
        _assess(archive, ctx)


# --- found, not fixed ---------------------------------------------------------------------


def test_overlapping_impacts_are_flagged(ctx):
    # the same polygon digitised twice, and a third overlapping both: the shared area counts
    # in each impact and in the project total (the conservative screen), and every row and
    # the manifest say so
    a = _assess(_layer([_sq(X0, Y0, 20), _sq(X0, Y0, 20), _sq(X0 + 10, Y0, 20)]), ctx)
    assert a.projects["total_sqft"].item() == pytest.approx(1200 * SQFT_PER_SQM, abs=0.1)
    assert all("overlap" in r for r in a.impacts["repairs"])
    assert "by 4,305.6 sq ft" in a.impacts["repairs"].iloc[0]
    assert any("pair(s) of impact polygons overlap" in r for r in a.manifest.records)


def test_impact_inside_a_lake_gets_a_public_waters_verify_item():
    lake = gpd.read_file(
        ROOT / "sample_data" / "synthetic_context.gpkg", layer="public_water_basins"
    ).iloc[[0]]
    inside = lake.geometry.iloc[0].representative_point().buffer(5)
    a = _assess(_layer([inside]), ROOT / "sample_data" / "synthetic_context.gpkg")
    row = a.impacts.iloc[0]
    assert row["nearest_pw_ft"] == 0
    # issue 18, item 5: the public-waters-work permit is the route and in the reasons
    assert row["permit_route"] == "WCA and DNR public waters"
    assert "§ 103G.245, subd. 1(2)" in row["reasons"]
    assert "ordinary high water level" in row["verify"]


def test_empty_layer_is_recorded():
    a = _assess(_layer([]), ROOT / "sample_data" / "synthetic_context.gpkg")
    assert len(a.impacts) == 0
    assert any("no features" in r for r in a.manifest.records)
