"""`wetland-gis impacts` / `wg.impacts`: from construction limits to an impact layer (issue 35).

Hand-made layers near the Crow Wing sample (EPSG:26915), whose areas are obvious: a road
part crossing two wetlands over an existing road, a temporary pad, a part in no wetland.
"""

from __future__ import annotations

import json
import warnings

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from helpers import footprint_assess_cli, run_cli

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.errors import (
    FieldMappingError,
    InputError,
    InputRepairWarning,
    MissingCRSError,
    MissingLateralEffectError,
    OverlappingWetlandsError,
    SmallImpactWarning,
)
from wetland_gis.impacts import NWI_SCREENING_NOTE, OUTPUT_NAMES, impacts
from wetland_gis.units import FOOT_M, SQFT_PER_SQM

X0, Y0 = 430_000.0, 5_150_000.0
AS_OF = "2024-05-01"


def box(x0, y0, x1, y1):
    return shapely.box(X0 + x0, Y0 + y0, X0 + x1, Y0 + y1)


def sqft(m2: float) -> float:
    return m2 * SQFT_PER_SQM


def footprint(**extra) -> gpd.GeoDataFrame:
    frame = gpd.GeoDataFrame(
        {
            "part_id": ["P-1", "P-2", "P-3"],
            "project": ["County road"] * 3,
            "impact": ["fill", "fill", "fill"],
            "duration": ["permanent", "temporary", "permanent"],
            "road_kind": ["reconstruction"] * 3,
            "sheet": ["C-101", "C-102", "C-103"],
        },
        geometry=[box(0, 0, 100, 30), box(50, 20, 150, 60), box(500, 500, 510, 510)],
        crs=26915,
    )
    for k, v in extra.items():
        frame[k] = v
    return frame


def delineation(**extra) -> gpd.GeoDataFrame:
    frame = gpd.GeoDataFrame(
        {"wetland_id": ["W-1", "W-2"], "circ39": ["3", "2"]},
        geometry=[box(20, -20, 80, 80), box(100, 0, 200, 100)],
        crs=26915,
    )
    for k, v in extra.items():
        frame[k] = v
    return frame


EXISTING = gpd.GeoDataFrame({"name": ["CSAH 3"]}, geometry=[box(0, 10, 200, 14)], crs=26915)


def by_id(result) -> dict[str, dict]:
    frame = result.impacts
    rows = frame.drop(columns="geometry").to_dict("records")
    for row, geom in zip(rows, frame.geometry, strict=True):
        row["sqft"] = sqft(shapely.area(geom))
    return {r["impact_id"]: r for r in rows}


# ------------------------------------------------------------------ the cut and its columns


def test_each_part_within_each_wetland_minus_the_existing_road():
    assert wg.impacts is impacts  # the public name
    got = by_id(wg.impacts(footprint(), delineation(), existing=EXISTING))
    assert sorted(got) == ["P-1/W-1", "P-2/W-1", "P-2/W-2"]
    # P-1 in W-1: 60 m x 30 m, less the existing road's 60 m x 4 m
    assert got["P-1/W-1"]["sqft"] == pytest.approx(sqft(60 * 26))
    # the temporary P-2 counts only where the permanent P-1 does not lie
    assert got["P-2/W-1"]["sqft"] == pytest.approx(sqft(30 * 30))
    assert got["P-2/W-2"]["sqft"] == pytest.approx(sqft(50 * 40))


def test_the_impact_carries_the_part_and_the_wetland_and_points_at_both_rows():
    row = by_id(impacts(footprint(), delineation(), existing=EXISTING))["P-2/W-2"]
    assert row["project"] == "County road"
    assert row["impact"] == "fill"
    assert row["duration"] == "temporary"
    assert row["road_kind"] == "reconstruction"  # an exemption/road fact, under its default
    assert row["sheet"] == "C-102"  # the footprint's own columns, as they are
    assert row["circ39"] == "2"
    assert row["wetland_id"] == "W-2"
    assert row["wetland_ac"] == pytest.approx(sqft(100 * 100) / 43_560)
    assert (row["part_id"], row["part_layer"], row["part_row"], row["wetl_rows"]) == (
        "P-2",
        "footprint",
        2,
        "2",
    )
    assert row["wl_source"] == "delineation"


def test_the_size_of_the_wetland_is_every_polygon_sharing_its_id():
    wl = gpd.GeoDataFrame(
        {"wetland_id": ["W-1", "W-1"], "circ39": ["3", "3"]},
        geometry=[box(20, -20, 80, 80), box(80, -20, 90, 80)],
        crs=26915,
    )
    got = by_id(impacts(footprint(), wl))
    assert got["P-1/W-1"]["sqft"] == pytest.approx(sqft(70 * 30))  # one impact, two polygons
    assert got["P-1/W-1"]["wetl_rows"] == "1; 2"
    assert got["P-1/W-1"]["wetland_ac"] == pytest.approx(sqft(70 * 100) / 43_560)


@pytest.mark.parametrize(
    "side_m",
    [
        pytest.param(
            21.03, id="found on a 200,000-polygon NWI run: 0.10934445 ac written 0.109344"
        ),
        pytest.param(10.0, id="a round size"),
        pytest.param(33.3333, id="a recurring decimal"),
    ],
)
def test_a_wetland_the_footprint_covers_whole_is_never_smaller_than_its_impact(side_m):
    wl = gpd.GeoDataFrame(
        {"wetland_id": ["W-9"], "circ39": ["3"]}, geometry=[box(0, 0, side_m, side_m)], crs=26915
    )
    fpt = footprint().iloc[[0]].set_geometry([box(-5, -5, side_m + 5, side_m + 5)], crs=26915)
    row = by_id(impacts(fpt, wl))["P-1/W-9"]
    assert row["sqft"] == pytest.approx(sqft(side_m * side_m))
    # what assess compares: the impact's acres never exceed the whole wetland's written size
    assert row["sqft"] / 43_560 <= row["wetland_ac"] < row["sqft"] / 43_560 + 1e-6


def test_a_part_touching_no_wetland_gives_no_impact_and_is_listed_in_the_tally():
    result = impacts(footprint(), delineation())
    parts = result.parts.set_index("part_id")
    assert parts.loc["P-3", "status"] == "no_wetland"
    assert parts.loc["P-3", "impacts"] == 0
    assert result.tally().outcomes["parts no_wetland"] == 1


def test_a_part_on_existing_ground_only_is_listed_as_such():
    fpt = footprint()
    fpt.loc[2, "geometry"] = box(30, 10, 40, 14)  # on the existing road inside W-1
    parts = impacts(fpt, delineation(), existing=EXISTING).parts.set_index("part_id")
    assert parts.loc["P-3", "status"] == "all_existing"


def test_a_footprint_row_that_is_not_a_polygon_is_listed_not_used_with_its_reason():
    fpt = footprint()
    fpt.loc[2, "geometry"] = shapely.Point(X0, Y0)
    with pytest.warns(InputRepairWarning, match="expected a polygon, got Point"):
        result = impacts(fpt, delineation())
    parts = result.parts.set_index("part_id")
    assert parts.loc["P-3", "status"] == "not_used"
    assert "expected a polygon, got Point" in parts.loc["P-3", "reason"]
    assert result.tally().not_assessed_rows == 1


@pytest.mark.parametrize(
    ("side_sqft", "warns"),
    [(0.99, True), (1.01, False)],
    ids=["0.99 sq ft: kept, warned", "1.01 sq ft: kept, no warning"],
)
def test_a_piece_under_one_square_foot_is_kept_and_warned_about(side_sqft, warns):
    side = (side_sqft**0.5) * FOOT_M
    wl = gpd.GeoDataFrame(
        {"wetland_id": ["W-9"], "circ39": ["2"]},
        geometry=[box(99.0, 5, 99 + side, 5 + side)],  # inside P-1 (x 0-100)
        crs=26915,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = impacts(footprint(), wl)
    small = [w for w in caught if issubclass(w.category, SmallImpactWarning)]
    assert len(result.impacts) == 1
    assert sqft(shapely.area(result.impacts.geometry.iloc[0])) == pytest.approx(side_sqft)
    assert bool(small) is warns
    assert any("smaller than 1 sq ft" in r for r in result.manifest.records) is warns


def test_facts_the_footprint_and_the_wetlands_give_differently_are_unknown():
    result = impacts(
        footprint(land_use=["agricultural"] * 3), delineation(land_use=["nonagricultural"] * 2)
    )
    assert result.impacts["land_use"].isna().all()
    assert any("left unknown" in r for r in result.manifest.records)


# ------------------------------------------------------------------ parcels


def test_owner_portion_and_whole_wetland_from_the_parcels():
    parcels = gpd.GeoDataFrame(
        {"owner": ["Smith", "Jones", "Lee"]},
        # Smith holds all of W-1; W-2 is split between Jones and Lee
        geometry=[box(-100, -100, 90, 200), box(90, -100, 150, 200), box(150, -100, 300, 200)],
        crs=26915,
    )
    got = by_id(impacts(footprint(), delineation(), parcels=parcels))
    assert got["P-1/W-1"]["owner"] == "Smith"
    assert got["P-1/W-1"]["owns_whole"] == "yes"
    assert got["P-1/W-1"]["portion_sf"] == pytest.approx(round(sqft(60 * 100), 1))
    assert got["P-2/W-2"]["owner"] == "Jones"
    assert got["P-2/W-2"]["owns_whole"] == "no"
    assert got["P-2/W-2"]["portion_sf"] == pytest.approx(round(sqft(50 * 100), 1))


def test_each_impact_carries_the_parcel_of_its_landowners_portion_for_the_register():
    """§ 103G.2241, subd. 9(f): the register reads the portion's history by wetland and parcel."""
    parcels = gpd.GeoDataFrame(
        {"owner": ["Smith", "Smith", "Jones"], "pin": ["P-10", "P-11", "P-20"]},
        # Smith's two parcels split W-1 (x 0-80) at x 20; P-1/W-1 lies most on P-11
        geometry=[box(-100, -100, 20, 200), box(20, -100, 90, 200), box(90, -100, 300, 200)],
        crs=26915,
    )
    got = by_id(impacts(footprint(), delineation(), parcels=parcels))
    assert got["P-1/W-1"]["owner"] == "Smith"
    assert got["P-1/W-1"]["parcel_id"] == "P-11"
    assert got["P-2/W-2"]["parcel_id"] == "P-20"
    without = by_id(impacts(footprint(), delineation(), parcels=parcels.drop(columns="pin")))
    assert "parcel_id" not in without["P-1/W-1"]  # no parcel column: none is made up


def test_whole_wetland_ownership_is_unknown_when_part_of_the_wetland_lies_on_no_parcel():
    parcels = gpd.GeoDataFrame({"owner": ["Smith"]}, geometry=[box(-100, -100, 70, 200)], crs=26915)
    got = by_id(impacts(footprint(), delineation(), parcels=parcels))
    assert got["P-1/W-1"]["owner"] == "Smith"
    assert got["P-1/W-1"]["owns_whole"] is None  # W-1 reaches x 80, the parcel x 70


# ------------------------------------------------------------------ bad input


def test_overlapping_wetlands_are_an_error_naming_both_rows_and_the_area():
    wl = delineation()
    wl.loc[1, "geometry"] = box(70, 0, 200, 100)  # W-2 overlaps W-1 by 10 m x 80 m
    with pytest.raises(
        OverlappingWetlandsError,
        match=r"row 1 \(wetland W-1\) and row 2 "
        r"\(wetland W-2\) overlap by 8,611\.1 sq ft",
    ):
        impacts(footprint(), wl)


def test_a_seam_below_the_tolerance_is_recorded_not_an_error():
    wl = delineation()
    wl.loc[1, "geometry"] = box(79.9999, 0, 200, 100)  # 0.0001 m x 80 m = 0.086 sq ft
    wl.loc[1, "geometry"] = box(79.99999, 0, 200, 100)  # 0.008 sq ft
    result = impacts(footprint(), wl)
    assert any("floating-point seam" in r for r in result.manifest.records)


@pytest.mark.parametrize("role", ["footprint", "wetlands", "existing", "parcels"])
def test_a_layer_without_a_crs_is_an_error(role):
    layers = {
        "footprint": footprint(),
        "wetlands": delineation(),
        "existing": EXISTING.copy(),
        "parcels": gpd.GeoDataFrame({"owner": ["A"]}, geometry=[box(0, 0, 9, 9)], crs=26915),
    }
    layers[role] = layers[role].set_crs(None, allow_override=True)
    with pytest.raises(MissingCRSError, match=f"the {role} GeoDataFrame has no CRS"):
        impacts(
            layers["footprint"],
            layers["wetlands"],
            existing=layers["existing"],
            parcels=layers["parcels"],
        )


def test_layers_in_other_crss_are_reprojected_and_recorded(tmp_path):
    path = tmp_path / "wetlands.gpkg"
    delineation().to_crs(4269).to_file(path)
    # P-1 and W-2 share the line x = 100: after the round trip through degrees they overlap
    # by a few billionths of a square foot, an impact kept and warned about (issue 35)
    with pytest.warns(SmallImpactWarning, match="P-1/W-2"):
        result = impacts(footprint(), path, existing=EXISTING)
    assert any("reprojected from EPSG:4269 to EPSG:26915" in r for r in result.manifest.records)
    assert by_id(result)["P-1/W-1"]["sqft"] == pytest.approx(sqft(60 * 26), rel=1e-6)


def test_an_invalid_wetland_polygon_is_repaired_and_recorded():
    wl = delineation()
    x, y = X0, Y0
    # a bow tie over W-2's square: make_valid keeps both triangles
    wl.loc[1, "geometry"] = shapely.Polygon(
        [(x + 100, y), (x + 200, y + 100), (x + 200, y), (x + 100, y + 100)]
    )
    with pytest.warns(InputRepairWarning):
        result = impacts(footprint(), wl)
    assert any("repaired with make_valid" in r for r in result.manifest.records)
    assert "P-2/W-2" in by_id(result)


def test_a_named_column_no_layer_has_is_an_error():
    with pytest.raises(FieldMappingError, match="'kind' is in none of the input layers"):
        impacts(footprint(), delineation(), fields={"impact_kind": "kind"})


def test_a_named_column_is_found_in_the_layer_that_has_it():
    fpt = footprint().rename(columns={"impact": "work"})
    wl = delineation().rename(columns={"wetland_id": "WL_NO"})
    got = by_id(impacts(fpt, wl, fields={"impact_kind": "work", "wetland_id": "WL_NO"}))
    assert got["P-1/W-1"]["impact"] == "fill"


# ------------------------------------------------------------------ drainage


def _ditch(**extra) -> gpd.GeoDataFrame:
    frame = gpd.GeoDataFrame(
        {"line_id": ["D-1"]},
        geometry=[shapely.LineString([(X0 + 150, Y0 + 70), (X0 + 190, Y0 + 70)])],
        crs=26915,
    )
    for k, v in extra.items():
        frame[k] = v
    return frame


def test_a_drainage_line_without_a_lateral_effect_distance_is_an_error_naming_the_option():
    with pytest.raises(MissingLateralEffectError, match="--lateral-effect-ft"):
        impacts(footprint(), delineation(), drainage=_ditch())


@pytest.mark.parametrize(
    ("ditch", "option", "feet"),
    [(_ditch(), 10.0, 10.0), (_ditch(lat_eff_ft=[20.0]), 10.0, 20.0)],
    ids=["the option for a line without a value", "the line's own column first"],
)
def test_the_drained_area_is_the_lines_buffer_within_the_wetland(ditch, option, feet):
    result = impacts(footprint(), delineation(), drainage=ditch, lateral_effect_ft=option)
    got = by_id(result)
    drained = [r for r in got.values() if r["part_layer"] == "drainage"]
    assert len(drained) == 1
    assert drained[0]["impact"] == "drain"
    assert drained[0]["wetland_id"] == "W-2"
    r = feet * FOOT_M
    exact = 40 * 2 * r + np.pi * r * r  # wholly inside W-2
    assert drained[0]["sqft"] == pytest.approx(sqft(exact), rel=1e-3)
    assert result.manifest.settings["lateral_effect_ft"] == option
    assert result.manifest.settings["drainage"]["lines_using_option"] == (0 if feet == 20 else 1)


# ------------------------------------------------------------------ NWI


def nwi() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {
            "ATTRIBUTE": ["PEM1C", "PSS1C"],
            "WETLAND_TYPE": ["Freshwater Emergent Wetland", "Freshwater Forested/Shrub Wetland"],
            "ACRES": [2.5, 2.5],
        },
        geometry=[box(20, -20, 80, 80), box(100, 0, 200, 100)],
        crs=26915,
    )


@pytest.mark.slow
def test_on_nwi_every_output_says_it_is_a_screening(sample_data):
    result = impacts(footprint(), nwi())
    assert result.screening_on_nwi
    assert set(result.impacts["wl_source"]) == {"nwi"}
    assert result.manifest.assumptions[0] == NWI_SCREENING_NOTE
    assert result.manifest.settings["wetlands_source"] == "nwi"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        a = result.assess(sample_data.context, as_of=AS_OF)
    verify = a.impacts.set_index("impact_id")["verify"]
    assert all(NWI_SCREENING_NOTE.split(":")[0] in v for v in verify)
    assert NWI_SCREENING_NOTE in a.manifest.assumptions


@pytest.mark.slow
def test_a_delineation_says_no_such_thing(sample_data):
    result = impacts(footprint(), delineation())
    assert not result.screening_on_nwi
    a = result.assess(sample_data.context, as_of=AS_OF)
    assert not any("NWI" in str(v) for v in a.impacts["verify"])


def test_the_source_can_be_said(sample_data):
    assert impacts(footprint(), nwi(), wetlands_source="delineation").wetlands_source == (
        "delineation"
    )
    assert impacts(footprint(), delineation(), wetlands_source="nwi").screening_on_nwi
    with pytest.raises(InputError, match="wetlands_source"):
        impacts(footprint(), delineation(), wetlands_source="lidar")


# ------------------------------------------------------------------ assess reads it as it is


@pytest.mark.slow
def test_assess_reads_the_written_layer_with_no_column_added(tmp_path, sample_data):
    written = impacts(footprint(), delineation(), existing=EXISTING).write(tmp_path / "i.gpkg")
    assert tmp_path / "i_parts.csv" in written
    a = wg.assess(tmp_path / "i.gpkg", sample_data.context, as_of=AS_OF)
    assert (a.impacts["status"] == "assessed").all()
    f = a.fields
    assert (f.impact_id, f.wetland_type, f.project, f.impact_kind, f.duration, f.wetland_id) == (
        "impact_id",
        "circ39",
        "project",
        "impact",
        "duration",
        "wetland_id",
    )
    assert f.wetland_acres == OUTPUT_NAMES["wetland_acres"]
    assert dict(f.exemption_columns)["road_project_kind"] == "road_kind"
    # the source layers travel with the assessment, for the map
    assert {"footprint", "existing", "delineation"} <= set(a.footprint_layers)


def test_the_file_geodatabase_is_read_with_its_layer(tmp_path):
    gdb = tmp_path / "project.gdb"
    footprint().to_file(gdb, layer="limits", driver="OpenFileGDB")
    delineation().to_file(gdb, layer="wetlands", driver="OpenFileGDB")
    result = impacts(gdb, gdb, layers={"footprint": "limits", "wetlands": "wetlands"})
    assert sorted(by_id(result)) == ["P-1/W-1", "P-2/W-1", "P-2/W-2"]
    inputs = {i.role: i for i in result.manifest.inputs}
    assert inputs["footprint"].layer == "limits"
    assert len(inputs["footprint"].sha256) == 64


# ------------------------------------------------------------------ the command line


def _files(tmp_path):
    footprint().to_file(tmp_path / "limits.gpkg", layer="limits")
    delineation().to_file(tmp_path / "wetlands.gpkg")
    EXISTING.to_file(tmp_path / "existing.gpkg")
    return tmp_path / "limits.gpkg", tmp_path / "wetlands.gpkg", tmp_path / "existing.gpkg"


@pytest.mark.slow
def test_the_impacts_command_writes_the_layer_assess_reads(tmp_path, sample_data, capsys):
    limits, wetlands, existing = _files(tmp_path)
    out = tmp_path / "impacts.gpkg"
    code = run_cli(
        "impacts", limits, "--wetlands", wetlands, "--existing", existing, "--out", out, "--quiet"
    )
    assert code == 0
    manifest = json.loads((tmp_path / "impacts_manifest.json").read_text())
    assert {i["role"] for i in manifest["inputs"]} == {"footprint", "wetlands", "existing"}
    parts = pd.read_csv(tmp_path / "impacts_parts.csv")
    assert parts["status"].tolist() == ["impacts", "impacts", "no_wetland"]
    code = run_cli(
        "assess",
        out,
        "--context",
        sample_data.context,
        "--as-of",
        AS_OF,
        "--out",
        tmp_path / "assessed.gpkg",
        "--quiet",
    )
    assert code == 0


@pytest.mark.slow
def test_assess_with_a_footprint_does_both_in_one_run(tmp_path, sample_data):
    limits, wetlands, existing = _files(tmp_path)
    out = tmp_path / "assessed.gpkg"
    code = footprint_assess_cli(limits, wetlands, sample_data.context, out, "--existing", existing)
    assert code == 0
    read = wg.read_layer(out, "impacts").gdf
    assert sorted(read["impact_id"]) == ["P-1/W-1", "P-2/W-1", "P-2/W-2"]
    manifest = json.loads((tmp_path / "assessed_manifest.json").read_text())
    roles = {i["role"] for i in manifest["inputs"]}
    assert {"footprint", "wetlands", "existing"} <= roles
    assert "impacts" not in roles  # the in-memory cut is not an input; its sources are
    assert manifest["settings"]["footprint"]["wetlands_source"] == "delineation"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["assess", "x.gpkg", "--footprint", "f.gpkg", "--wetlands", "w.gpkg"], "both"),
        (["assess", "--footprint", "f.gpkg"], "needs --wetlands"),
        (["assess", "x.gpkg", "--wetlands", "w.gpkg"], "only work with --footprint"),
        (["assess"], "needs an impact layer"),
    ],
    ids=["impacts and footprint", "footprint alone", "wetlands alone", "nothing"],
)
def test_assess_refuses_contradicting_footprint_options(tmp_path, capsys, argv, message):
    code = main([*argv, "--out", str(tmp_path / "o.gpkg")])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert len([line for line in err.splitlines() if "error" in line]) == 1


def test_a_bad_input_exits_2_with_one_line(tmp_path, capsys):
    limits, wetlands, _ = _files(tmp_path)
    _ditch().to_file(tmp_path / "ditch.gpkg")
    code = run_cli(
        "impacts",
        limits,
        "--wetlands",
        wetlands,
        "--drainage",
        tmp_path / "ditch.gpkg",
        "--out",
        tmp_path / "o.gpkg",
        "--quiet",
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "--lateral-effect-ft" in err
    assert not (tmp_path / "o.gpkg").exists()


# ------------------------------------------------------------------ the county road sample

SAMPLE_LAYERS = {
    "footprint": "construction_limits",
    "wetlands": "delineation",
    "existing": "existing_road",
    "parcels": "parcels",
}


def _county_road(sample_data):
    gpkg = sample_data.path("projects/county_road/footprint.gpkg")
    return wg.impacts(gpkg, gpkg, existing=gpkg, parcels=gpkg, layers=SAMPLE_LAYERS)


def test_the_county_road_sample_is_cut_into_its_three_impacts(sample_data):
    result = _county_road(sample_data)
    got = by_id(result)
    assert sorted(got) == ["CL-2/W-A", "CL-3/W-B", "TP-1/W-B"]
    assert got["CL-3/W-B"]["circ39"] == "3/2"  # the marsh and its fringe: one wetland
    assert got["TP-1/W-B"]["duration"] == "temporary"
    assert got["CL-2/W-A"]["road_auth"] == "county"
    parts = result.parts.set_index("part_id")["status"].to_dict()
    assert parts == {
        "CL-1": "no_wetland",
        "CL-2": "impacts",
        "CL-3": "impacts",
        "TP-1": "impacts",
        "ST-1": "no_wetland",
    }
    assert result.parts.set_index("part_id").loc["TP-1", "overlap_sqft"] > 0


def test_the_sample_script_is_seeded_and_the_shipped_file_is_current(tmp_path, sample_data):
    import importlib.util

    script = sample_data.root / "make_footprints.py"
    spec = importlib.util.spec_from_file_location("make_footprints", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    first = module.main(tmp_path / "a")[0]
    second = module.main(tmp_path / "b")[0]
    shipped = sample_data.path("projects/county_road/footprint.gpkg")
    assert first.read_bytes() == second.read_bytes()
    for layer in module.LAYERS:
        made, kept = (gpd.read_file(p, layer=layer) for p in (first, shipped))
        assert made.geom_equals_exact(kept.geometry, tolerance=1e-6).all(), layer
        pd.testing.assert_frame_equal(made.drop(columns="geometry"), kept.drop(columns="geometry"))
    assert shipped.read_bytes()[60:64] == (10200).to_bytes(4, "big")  # GeoPackage 1.2


@pytest.mark.slow
def test_make_demo_derives_the_county_road_impacts(tmp_path):
    from wetland_gis import demo

    project = next(p for p in demo.SAMPLE_PROJECTS if p.name == "county_road")
    assert project.footprint is not None
    row = demo.run_project(project, demo._repo_root(), tmp_path)
    assert row["features"] == 3
    assessed = gpd.read_file(tmp_path / "county_road" / "assessed.gpkg", layer="impacts")
    assert sorted(assessed["impact_id"]) == ["CL-2/W-A", "CL-3/W-B", "TP-1/W-B"]
    assert set(assessed["replacement_by"]) == {"board"}
    assert (tmp_path / "county_road" / "impacts_parts.csv").is_file()


@pytest.mark.parametrize("suffix", [".gpkg", ".shp"])
def test_only_the_wetlands_near_the_footprint_and_their_other_polygons_are_read(tmp_path, suffix):
    far = 5_000
    wl = gpd.GeoDataFrame(
        {"wetland_id": ["W-1", "W-2", "W-1", "W-8", "W-9"], "circ39": ["3", "2", "3", "2", "2"]},
        geometry=[
            box(20, -20, 80, 80),
            box(100, 0, 200, 100),
            box(far, far, far + 10, far + 10),  # W-1's other polygon, far away
            box(2 * far, 0, 2 * far + 50, 50),  # two far wetlands overlapping each other:
            box(2 * far + 40, 0, 2 * far + 90, 50),  # not the project's concern
        ],
        crs=26915,
    )
    path = tmp_path / f"wetlands{suffix}"
    wl.to_file(path)
    result = impacts(footprint(), path)
    got = by_id(result)
    assert got["P-1/W-1"]["wetland_ac"] == pytest.approx(sqft(60 * 100 + 10 * 10) / 43_560)
    assert got["P-1/W-1"]["wetl_rows"] == "1"
    assert got["P-2/W-2"]["wetl_rows"] == "2"
    assert any("3 of 5 polygons read" in r for r in result.manifest.records)
    assert {i.role: i.features for i in result.manifest.inputs}["wetlands"] == 5


def test_a_footprint_row_with_coordinates_that_are_not_numbers_is_listed_not_used():
    fpt = footprint()
    fpt.loc[2, "geometry"] = shapely.Polygon([(X0, Y0), (np.inf, Y0), (X0 + 1, Y0 + 1)])
    with pytest.warns(InputRepairWarning):
        result = impacts(fpt, delineation())
    parts = result.parts.set_index("part_id")
    assert parts.loc["P-3", "status"] == "not_used"
    assert "not finite" in parts.loc["P-3", "reason"]
