"""End-to-end tests of ``wetland_gis.assess``: layers in, classified and decided impacts out."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
import shapely
from helpers import assert_writes
from shapely.geometry import LineString, Point, box

import wetland_gis as wg
from wetland_gis.assess import DECISION_COLUMNS
from wetland_gis.errors import (
    FieldMappingError,
    InferredWetlandTypeWarning,
    InputRepairWarning,
    LayerNotFoundError,
    MissingCRSError,
    OutputTruncationWarning,
    ThresholdToleranceWarning,
    WetlandGISWarning,
)
from wetland_gis.geometry.classify import GEOMETRIC_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "sample_data"
CONTEXT = DATA / "synthetic_context.gpkg"
WRIGHT = DATA / "projects" / "wright_metro"
CROW_WING = DATA / "projects" / "crow_wing"
AS_OF = "2024-05-01"
FT = 0.3048


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return func(*args, **kwargs)


@pytest.fixture(scope="module")
def wright():
    return _quiet(wg.assess, WRIGHT / "impacts.shp", CONTEXT, as_of=AS_OF)


@pytest.fixture(scope="module")
def crow_wing():
    return _quiet(wg.assess, CROW_WING / "impacts.gpkg", CONTEXT, as_of=AS_OF)


# --- the sample projects ------------------------------------------------------------------


def test_every_wright_input_row_is_in_the_output_once(wright):
    source = gpd.read_file(WRIGHT / "impacts.shp")
    assert len(wright.impacts) == len(source)
    assert sorted(wright.impacts["wg_row"]) == list(range(1, len(source) + 1))
    assert list(wright.impacts["impact_id"]) == list(source["impact_id"])


def test_every_input_attribute_survives(wright):
    source = gpd.read_file(WRIGHT / "impacts.shp")
    for col in source.columns.drop("geometry"):
        assert col in wright.impacts.columns


def test_output_has_the_documented_columns_in_order(wright):
    cols = list(wright.impacts.columns)
    for name in (*GEOMETRIC_COLUMNS, *DECISION_COLUMNS, "wg_row", "status"):
        assert name in cols
    assert cols.index("area_sqft") < cols.index("outcome")


def test_crow_wing_whole_project_goes_to_replacement_at_one_to_one(crow_wing):
    rows = crow_wing.impacts.set_index("impact_id")
    # § 103G.2241 subd. 9(a)(1): C-1, 6,000 sq ft of type 2, is within its 10,000 sq ft,
    # but Minn. R. 8420.0420 subp. 1: the project exceeds the (a)(4) amount with C-2, so it
    # is not de minimis and the entire amount of impact, C-1 too, is replaced
    assert rows.loc["C-1", "de_minimis_sqft"] == 10_000
    assert rows.loc["C-1", "outcome"] == "replacement_required"
    assert rows.loc["C-1", "replace_acres"] == pytest.approx(rows.loc["C-1", "area_acres"])
    # subd. 9(a)(4) 100 sq ft exceeded; § 103G.222 subd. 1(g): 1:1 in a >80 percent area
    assert rows.loc["C-2", "outcome"] == "replacement_required"
    assert rows.loc["C-2", "ratio"] == 1
    assert rows.loc["C-2", "replace_acres"] == pytest.approx(rows.loc["C-2", "area_acres"])
    assert "Minn. Stat. § 103G.222, subd. 1(g)" in rows.loc["C-2", "citations"]


def test_wright_classification_matches_the_sample_situations(wright):
    rows = wright.impacts.set_index("impact_id")
    assert set(rows["county"]) == {"Wright"}
    assert rows["metro"].all()
    assert set(rows["pct_class"]) == {"less_than_50_percent"}
    # W-5 lies within 40 ft of the lake: all of it in the building setback zone
    assert rows.loc["W-5", "zone"] == "building_setback_zone"
    assert rows.loc["W-5", "sqft_setback"] == pytest.approx(rows.loc["W-5", "area_sqft"])
    # W-4 straddles the 1,000 ft line
    assert 0 < rows.loc["W-4", "sqft_protection"] < rows.loc["W-4", "area_sqft"]
    # W-6 lies in the calcareous fen: prohibited, § 103G.223
    assert rows.loc["W-6", "outcome"] == "prohibited"
    assert "Minn. Stat. § 103G.223" in rows.loc["W-6", "citations"]
    # W-7 had only a Cowardin code: inferred and flagged
    assert rows.loc["W-7", "type_source"] == "inferred"
    assert rows.loc["W-7", "type_verify"]
    assert "wetland type" in rows.loc["W-7", "verify"]


def test_split_sums_to_area(wright):
    assessed = wright.impacts[wright.impacts["status"] == "assessed"]
    total = assessed[["sqft_setback", "sqft_protection", "sqft_outside"]].sum(axis=1)
    assert total.to_numpy() == pytest.approx(assessed["area_sqft"].to_numpy(), rel=1e-9)


def test_mixed_polygon_is_held_to_its_most_restrictive_type(wright):
    row = wright.impacts.set_index("impact_id").loc["W-4"]
    assert row["wetland_type"] == "3/4"
    assert row["type_verify"]


def test_subd_9e_holds_the_whole_wright_project_to_the_setback_amount(wright):
    # W-5 lies in the shoreland building setback zone: subd. 9(e) forbids combining (a),
    # (b) and (c) on a project. W-3 (type 7, outside, Wright is in the 11-county metro area,
    # a less than 50 percent area) has no amount in its own zone (subd. 9(a)(3), (d)(2)):
    # under the default no_amount_reading "own_zone" it keeps none (issue 18, section 3)
    row = wright.impacts.set_index("impact_id").loc["W-3"]
    assert row["wetland_type"] == "7"
    assert row["outcome"] == "replacement_required"
    assert row["de_minimis_sqft"] == 0
    steps = wright.trace[wright.trace["rule_id"] == "de_minimis.paragraph"]
    assert len(steps) == 1 and steps["citation"].iloc[0].endswith("subd. 9(e)")
    reading = wright.trace[wright.trace["rule_id"] == "reading.no_amount_reading"]
    assert len(reading) == 1 and reading["inputs"].iloc[0]["reading"] == "own_zone"


def test_per_zone_reading_was_removed():
    with pytest.raises(wg.errors.RulesInputError, match="per_zone reading was removed"):
        wg.AssessOptions(multi_zone_reading="per_zone")


def test_joint_application_summary(crow_wing):
    s = crow_wing.summary.set_index("Aquatic resource ID")
    assert s.loc["C-2", "Size of impact"] == "0.40 ac"
    assert s.loc["C-1", "County, Major Watershed #, Bank Service Area #"].startswith("Crow Wing")


def test_project_level_procedure(crow_wing):
    row = crow_wing.projects.iloc[0]
    # § 103G.2242 subd. 8: 23,425 sq ft is not less than 10,000 sq ft
    assert row["public_comment"] == "required"
    assert "Minn. Stat. § 103G.2242, subd. 8" in row["citations"]


def test_manifest_records_inputs_hashes_and_parameters(wright):
    m = wright.manifest.to_dict()
    assert m["as_of"] == AS_OF
    assert m["parameters"]["sha256"]
    impacts = [i for i in m["inputs"] if i["role"] == "impacts"][0]
    assert impacts["sha256"] and impacts["crs"]
    assert any("inferred" in r for r in m["records"])


def test_write_round_trip_geopackage(tmp_path, wright):
    suffixes = (".gpkg", "_summary.csv", "_projects.csv", "_decisions.json", "_manifest.json")
    assert_writes(wright, tmp_path / "out.gpkg", *suffixes)
    back = gpd.read_file(tmp_path / "out.gpkg", layer="impacts")
    assert len(back) == len(wright.impacts)
    assert list(back["outcome"]) == list(wright.impacts["outcome"])
    manifest = json.loads((tmp_path / "out_manifest.json").read_text())
    assert str(tmp_path / "out.gpkg") in manifest["outputs"]
    decisions = json.loads((tmp_path / "out_decisions.json").read_text())
    assert "W-2" in {step["impact_id"] for step in decisions}
    assert all(isinstance(step["verify"], str) for step in decisions)  # JSON-encoded
    table = pyogrio.read_dataframe(tmp_path / "out.gpkg", layer="decisions", read_geometry=False)
    assert len(table) == len(wright.trace)
    assert list(table["reason"]) == list(wright.trace["reason"])


@pytest.mark.parametrize("suffix", [".parquet", ".geojson", ".csv"])
def test_write_other_formats(tmp_path, crow_wing, suffix):
    written = crow_wing.write(tmp_path / f"out{suffix}")
    assert (tmp_path / f"out{suffix}").exists()
    assert any(p.name == "out_manifest.json" for p in written)


def test_write_shapefile_keeps_field_map_and_says_what_was_cut(tmp_path, crow_wing):
    with pytest.warns(OutputTruncationWarning, match="254 bytes"):
        crow_wing.write(tmp_path / "out.shp")
    back = gpd.read_file(tmp_path / "out.shp")
    assert all(len(c) <= 10 for c in back.columns)
    fieldmap = pd.read_csv(tmp_path / "out.fieldmap.csv").set_index("full_name")
    assert fieldmap.loc["reasons", "values_truncated"] == 2
    assert fieldmap.loc["impact_id", "values_truncated"] == 0
    # the whole text stays in the decisions JSON written beside it
    assert (tmp_path / "out_decisions.json").exists()


# --- bad input: a clear error or a recorded status, and nothing lost ------------------------


def _layer(rows, crs="EPSG:26915"):
    return gpd.GeoDataFrame(rows, geometry="geometry", crs=crs)


def _broken_layer():
    x, y = 430_000.0, 5_010_000.0  # Wright County, EPSG:26915
    bowtie = shapely.Polygon([(x, y), (x + 30, y + 30), (x + 30, y), (x, y + 30)])
    return _layer(
        {
            "impact_id": [
                "ok",
                "null",
                "empty",
                "point",
                "line",
                "bowtie",
                "z",
                "dup",
                "dup",
                "badtype",
            ],
            "circ39": ["2", "2", "2", "2", "2", "3", "2", "2", "2", "type 12"],
            "geometry": [
                box(x, y, x + 20, y + 20),
                None,
                shapely.Polygon(),
                Point(x, y),
                LineString([(x, y), (x + 10, y)]),
                bowtie,
                shapely.Polygon([(x, y, 1), (x + 10, y, 1), (x + 10, y + 10, 1)]),
                box(x + 100, y, x + 110, y + 10),
                box(x + 200, y, x + 210, y + 10),
                box(x + 300, y, x + 310, y + 10),
            ],
        }
    )


def test_broken_layer_keeps_every_row_with_status_and_reason():
    with pytest.warns(InputRepairWarning):
        a = wg.assess(_broken_layer(), CONTEXT, as_of=AS_OF)
    out = a.impacts
    assert len(out) == 10
    assert list(out["wg_row"]) == list(range(1, 10 + 1))
    status = dict(zip(out["wg_row"], out["status"], strict=True))
    for row in (2, 3, 4, 5, 10):  # wg_row from 1, as QGIS numbers features
        assert status[row] == "not_assessed"
        assert out.loc[out["wg_row"] == row, "status_reason"].item()
        assert out.loc[out["wg_row"] == row, "outcome"].item() == "not_assessed"
    for row in (1, 6, 7, 8, 9):
        assert status[row] == "assessed"
    assert (
        "make_valid" in out.loc[out["wg_row"] == 6, "repairs"].item()
        or "valid" in out.loc[out["wg_row"] == 6, "repairs"].item()
    )
    assert (
        "Z" in out.loc[out["wg_row"] == 7, "repairs"].item()
        or "z" in out.loc[out["wg_row"] == 7, "repairs"].item().lower()
    )
    assert "type 12" in out.loc[out["wg_row"] == 10, "status_reason"].item()
    assert any("duplicate" in r.lower() for r in a.manifest.records)


def test_layer_without_crs_is_an_error_naming_the_fix():
    gdf = _broken_layer().iloc[[0]].set_crs(None, allow_override=True)
    with pytest.raises(MissingCRSError, match="assume_crs"):
        wg.assess(gdf, CONTEXT, as_of=AS_OF)


def test_assume_crs_is_recorded():
    gdf = _broken_layer().iloc[[0]].set_crs(None, allow_override=True)
    a = wg.assess(gdf, CONTEXT, as_of=AS_OF, assume_crs="EPSG:26915")
    assert any("assumed" in r for r in a.manifest.records)
    assert a.impacts["status"].item() == "assessed"


def test_shapefile_without_prj_is_an_error_naming_the_file(tmp_path):
    gdf = _broken_layer().iloc[[0]]
    gdf.to_file(tmp_path / "noprj.shp")
    (tmp_path / "noprj.prj").unlink()
    with pytest.raises(MissingCRSError, match="noprj"):
        wg.assess(tmp_path / "noprj.shp", CONTEXT, as_of=AS_OF)


def test_geographic_crs_is_reprojected_and_recorded():
    gdf = _broken_layer().iloc[[0]].to_crs("EPSG:4269")
    a = wg.assess(gdf, CONTEXT, as_of=AS_OF)
    assert a.impacts.crs.to_epsg() == 26915
    assert any("reprojected" in r for r in a.manifest.records)
    assert a.impacts["area_sqft"].item() == pytest.approx(400 / FT**2, rel=1e-6)


def test_wrong_geopackage_layer_lists_the_layers():
    with pytest.raises(LayerNotFoundError, match="impacts"):
        wg.assess(WRIGHT / "impacts.gpkg", CONTEXT, layer="nope", as_of=AS_OF)


def test_missing_named_field_is_an_error_listing_columns():
    with pytest.raises(FieldMappingError, match="circ39"):
        wg.assess(
            WRIGHT / "impacts.gpkg", CONTEXT, as_of=AS_OF, fields={"wetland_type": "no_such_column"}
        )


def test_input_column_named_like_an_output_column_is_kept_renamed():
    gdf = _broken_layer().iloc[[0]].assign(outcome="user value")
    a = wg.assess(gdf, CONTEXT, as_of=AS_OF)
    assert a.impacts["outcome_in"].item() == "user value"
    assert any("renamed" in r for r in a.manifest.records)


def test_polygon_outside_minnesota_is_not_assessed_with_reason():
    gdf = _layer(
        {
            "impact_id": ["far"],
            "circ39": ["2"],
            "geometry": [box(100_000, 100_000, 100_010, 100_010)],
        }
    )
    a = wg.assess(gdf, CONTEXT, as_of=AS_OF)
    assert a.impacts["status"].item() == "not_assessed"
    assert "county" in a.impacts["status_reason"].item()


def test_inferred_type_warns():
    gdf = _broken_layer().iloc[[0]].assign(circ39=None, attribute="PEM1A")
    with pytest.warns(InferredWetlandTypeWarning, match="inferred"):
        wg.assess(gdf, CONTEXT, as_of=AS_OF)


# --- thresholds: exactly at the limit, one square foot over -------------------------------


def _square_sqft(sqft: float, x: float = 430_000.0, y: float = 5_010_000.0):
    side = (sqft**0.5) * FT
    return box(x, y, x + side, y + side)


@pytest.mark.parametrize(
    ("sqft", "expected"),
    [
        pytest.param(
            1000.0,
            "de_minimis_exempt",
            id="subd. 9(d)(2): 1,000 sq ft of type 2 in Wright County is de minimis",
        ),
        pytest.param(
            1001.0,
            "replacement_required",
            id="subd. 9(d)(2): 1,001 sq ft of type 2 in Wright County is not",
        ),
    ],
)
def test_metro_less_than_50_boundary(sqft, expected):
    gdf = _layer(
        {
            "impact_id": ["A"],
            "circ39": ["2"],
            "owns_whole_wetland": ["yes"],
            "geometry": [_square_sqft(sqft)],
        }
    )
    with pytest.warns(ThresholdToleranceWarning):
        a = wg.assess(gdf, CONTEXT, as_of=AS_OF)
    row = a.impacts.iloc[0]
    assert row["area_sqft"] == pytest.approx(sqft, abs=1e-3)
    assert row["outcome"] == expected
    assert "Minn. Stat. § 103G.2241, subd. 9(d)(2)" in row["citations"]
    assert row["near_threshold"]


def test_tolerance_zero_silences_the_near_threshold_warning():
    gdf = _layer({"impact_id": ["A"], "circ39": ["2"], "geometry": [_square_sqft(1005.0)]})
    with warnings.catch_warnings():
        warnings.simplefilter("error", ThresholdToleranceWarning)
        a = wg.assess(gdf, CONTEXT, as_of=AS_OF, options=wg.AssessOptions(tolerance_percent=0.0))
    assert pd.isna(a.impacts["near_threshold"].item())


def test_as_of_before_known_values_is_refused():
    gdf = _layer({"impact_id": ["A"], "circ39": ["2"], "geometry": [_square_sqft(500)]})
    with pytest.raises(wg.ParameterNotInForce, match="2018-01-01"):
        wg.assess(gdf, CONTEXT, as_of="2010-06-01")


def test_projects_are_decided_separately():
    gdf = _layer(
        {
            "impact_id": ["A", "B"],
            "project": ["one", "two"],
            "circ39": ["2", "2"],
            "owns_whole_wetland": [1, 1],
            "geometry": [_square_sqft(800), _square_sqft(800, x=431_000)],
        }
    )
    a = wg.assess(gdf, CONTEXT, as_of=AS_OF)
    # each project alone is under the 1,000 sq ft of subd. 9(d)(2); together they would not be
    assert set(a.impacts["outcome"]) == {"de_minimis_exempt"}
    assert list(a.projects["project"]) == ["one", "two"]


# --- project-level procedure and mixed types (fixes found by the rules audit) -------------


def _crow_wing_point():
    c1 = gpd.read_file(CROW_WING / "impacts.gpkg").geometry.iloc[0].centroid
    return c1.x, c1.y


def _crow_wing_squares(sqft: list[float], **columns: list) -> gpd.GeoDataFrame:
    """Return a square of each of ``sqft`` square feet a row, with ``columns``.

    The first stands at the centroid of the first impact of the Crow Wing sample, each
    next one 60 m east of the one before.
    """
    x, y = _crow_wing_point()
    squares = [_square_sqft(area, x + 60 * k, y) for k, area in enumerate(sqft)]
    return _layer({**columns, "geometry": squares})


def test_public_waters_wetland_is_replaced_and_routed_to_the_dnr():
    gdf = _crow_wing_squares(
        [9000, 50_000],
        impact_id=["fill", "pww"],
        circ39=["2", "3"],
        wetland_ac=[1.0, 40.0],
        owns_whole_wetland=[True, True],
    )
    a = _quiet(wg.assess, gdf, CONTEXT, as_of=AS_OF)
    rows = a.impacts.set_index("impact_id")
    # § 103G.005 subd. 19(b): no de minimis for it; § 103G.222 subd. 1(g) ratio (>80 area)
    assert rows.loc["pww", "outcome"] == "replacement_required"
    assert rows.loc["pww", "permit_route"] == "DNR public waters"
    assert rows.loc["pww", "ratio"] == 1
    assert "subd. 5(b)" in rows.loc["pww", "verify"]
    # it is not a "wetland" for the de minimis totals: the fill stays de minimis
    assert rows.loc["fill", "outcome"] == "de_minimis_exempt"
    project = a.projects.iloc[0]
    assert project["total_sqft"] == pytest.approx(59_000, abs=0.5)
    assert project["public_waters_sqft"] == pytest.approx(50_000, abs=0.5)
    # § 103G.005 subd. 19(b): the public waters wetland is not "wetland" for the 10,000 sq ft
    # of § 103G.2242 subd. 8 (issue 18, item 3); the WCA fill is exempt: no WCA plan
    assert project["public_comment"] == "no_replacement_plan"


def test_public_comment_is_decided_when_a_replacement_plan_is_needed():
    gdf = _crow_wing_squares([10_000], impact_id=["A"], circ39=["3"])
    with pytest.warns(ThresholdToleranceWarning):
        a = wg.assess(gdf, CONTEXT, as_of=AS_OF)
    # § 103G.2242 subd. 8: 10,000 sq ft is not "less than 10,000"
    assert a.projects["public_comment"].item() == "required"


def test_mixed_polygon_touching_the_setback_zone_is_held_to_its_stricter_type():
    # W-5 of the sample lies in the setback zone; as "3/6" it is held to type 3, whose amounts
    # are smaller than type 6's outside the setback zone (subd. 9(a)(4), (b)(2))
    src = gpd.read_file(WRIGHT / "impacts.gpkg")
    gdf = src[src["impact_id"] == "W-5"].assign(circ39="type 3/6", project="one")
    a = _quiet(wg.assess, gdf, CONTEXT, as_of=AS_OF)
    row = a.impacts.iloc[0]
    assert row["zone"] == "building_setback_zone"
    assert "held to type 3" in row["reasons"]


def test_de_minimis_sqft_is_the_amount_of_the_trace_step():
    src = gpd.read_file(WRIGHT / "impacts.gpkg")
    w4 = src[src["impact_id"] == "W-4"].assign(circ39="2", wetland_ac=0.5, impact="fill")
    a = _quiet(wg.assess, w4, CONTEXT, as_of=AS_OF)
    row = a.impacts.iloc[0]
    assert row["sqft_protection"] > 0 and row["sqft_outside"] > 0
    step = a.trace[(a.trace["impact_id"] == "W-4") & (a.trace["rule_id"] == "de_minimis.amount")]
    # subd. 9(e): the straddling impact is held to the (b)(1) amount of the stricter zone
    assert row["de_minimis_sqft"] == step["value"].item() == 400


def test_unknown_incorporated_status_is_said_not_guessed(tmp_path):
    ctx = wg.load_context(CONTEXT)
    layers = {name: ctx.get(name) for name in ctx.layers if name != "incorporated_areas"}
    ctx2 = wg.load_context(layers=layers)
    gdf = _crow_wing_squares([2000], impact_id=["A"], circ39=["3"], wetland_ac=[5.0])
    a = _quiet(wg.assess, gdf, ctx2, as_of=AS_OF)
    row = a.impacts.iloc[0]
    assert row["outcome"] == "replacement_required"  # screened as unincorporated: 10 acres
    assert "incorporated area is unknown" in row["verify"]


# --- issue 18: the new facts reach the engine through the impact layer ---------------------


def test_an_inventory_id_column_makes_a_small_wetland_a_public_waters_wetland():
    # § 103G.201: the DNR public waters inventory is the authority, whatever the size
    gdf = _crow_wing_squares(
        [50, 50],
        impact_id=["inv", "size"],
        circ39=["3", "3"],
        wetland_ac=[1.0, 1.0],
        pw_inventory_id=["18-0001W", None],
        owns_whole_wetland=[True, True],
    )
    rows = _quiet(wg.assess, gdf, CONTEXT, as_of=AS_OF).impacts.set_index("impact_id")
    assert rows.loc["inv", "permit_route"] == "DNR public waters"
    assert bool(rows.loc["inv", "public_waters_wetland"]) is True
    assert rows.loc["size", "permit_route"] == "WCA"  # 1 acre: not by size (subd. 15a)


def test_a_partial_share_column_sets_the_counted_area():
    # Minn. R. 8420.0522 subp. 2: the TEP-assessed share; without it the 50 percent floor
    gdf = _crow_wing_squares(
        [1000, 1000],
        impact_id=["given", "floor"],
        circ39=["2", "2"],
        impact_kind=["drain", "drain"],
        partial=[True, True],
        partial_share=[0.8, None],
        project=["p1", "p2"],
        owns_whole_wetland=[True, True],
    )
    rows = _quiet(wg.assess, gdf, CONTEXT, as_of=AS_OF).impacts.set_index("impact_id")
    assert rows.loc["given", "counted_sqft"] == pytest.approx(800, abs=1)
    assert rows.loc["floor", "counted_sqft"] == pytest.approx(500, abs=1)
    assert "partial_share" in rows.loc["floor", "verify"]


def test_a_fill_below_the_ohwl_of_a_public_water_is_routed_to_the_work_permit():
    # § 103G.245 subd. 1(2): the permit route is in the headline, not one verify line
    basin = gpd.read_file(CONTEXT, layer="public_water_basins").to_crs(26915).geometry.iloc[0]
    inside = basin.representative_point()
    x, y = _crow_wing_point()
    gdf = _layer(
        {
            "impact_id": ["lake", "dry"],
            "circ39": ["2", "2"],
            "project": ["p1", "p2"],
            "owns_whole_wetland": [True, True],
            "geometry": [_square_sqft(10, inside.x, inside.y), _square_sqft(10, x, y)],
        }
    )
    rows = _quiet(wg.assess, gdf, CONTEXT, as_of=AS_OF).impacts.set_index("impact_id")
    assert rows.loc["lake", "permit_route"] == "WCA and DNR public waters"
    assert "public-waters-work permit" in rows.loc["lake", "reasons"]
    assert rows.loc["dry", "permit_route"] == "WCA"
