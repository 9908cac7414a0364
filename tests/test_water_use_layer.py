"""The water-use screening of a layer of points and the `wetland-gis water-use` command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
import shapely
from helpers import assert_writes

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.errors import FieldMappingError, MissingCRSError
from wetland_gis.rules.trace import TRACE_COLUMNS
from wetland_gis.water_use import geodesic_miles, water_use, water_use_map

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data" / "water_use"
POINTS = SAMPLE / "appropriations.gpkg"
CSV = SAMPLE / "appropriations.csv"
AQUIFER = SAMPLE / "synthetic_mt_simon_hinckley.gpkg"
E2018, E2025, GAP = "2018-06-01", "2026-06-01", "2022-06-01"


@pytest.fixture(scope="module")
def r2025():
    return water_use(POINTS, as_of=E2025, aquifer=AQUIFER)


@pytest.fixture(scope="module")
def r2018():
    return water_use(POINTS, as_of=E2018, aquifer=AQUIFER)


def _row(result, pid):
    return result.points.set_index("permit_id").loc[pid]


def test_python_api_is_exported():
    assert wg.water_use is water_use and "water_use" in wg.__all__


def test_every_input_row_is_in_the_output_with_a_status(r2025):
    source = gpd.read_file(POINTS)
    assert len(r2025.points) == len(source)
    assert list(r2025.points["permit_id"]) == list(source["permit_id"])
    assert r2025.points["status"].isin(["assessed", "not_assessed"]).all()
    bad = _row(r2025, "WU-16")
    assert bad["status"] == "not_assessed" and "annual_gallons 'lots'" in bad["status_reason"]
    assert "row 16" in bad["status_reason"] and bad["outcome"] == "not_assessed"


@pytest.mark.parametrize(
    ("pid", "outcome_2018", "outcome_2025"),
    [
        pytest.param("WU-01", "permit_not_required", "permit_not_required", id="1(b)(1)"),
        pytest.param("WU-02", "permit_not_required", "permit_not_required", id="4(a)"),
        pytest.param("WU-03", "permit_required", "permit_required", id="4(a) boundary gpd"),
        pytest.param("WU-06", "verify", "verify", id="4a aquifer layer, alternative unknown"),
        pytest.param("WU-07", "permit_required", "prohibited", id="4b bulk sale 2025 only"),
        pytest.param("WU-09", "must_be_terminated", "must_be_terminated", id="5(b)"),
        pytest.param("WU-10", "prohibited", "prohibited", id="5a seven-county area"),
        pytest.param("WU-11", "permit_required", "permit_conditions_apply", id="5b 2025 only"),
    ],
)
def test_sample_outcomes_by_edition(r2018, r2025, pid, outcome_2018, outcome_2025):
    assert _row(r2018, pid)["outcome"] == outcome_2018
    assert _row(r2025, pid)["outcome"] == outcome_2025


def test_each_rule_outcome_has_its_column_beside_the_input_columns(r2025):
    row = _row(r2025, "WU-07")
    assert row["bulk_out"] == "prohibited" and row["permit_out"] == "permit_required"
    assert str(row["bulk_sale"]).lower() == "true"  # the input column is kept as given


def test_spatial_facts_are_computed_from_the_layers(r2025):
    assert _row(r2025, "WU-04")["county"] == "Hennepin"
    assert bool(_row(r2025, "WU-04")["metro_county"]) is True
    assert bool(_row(r2025, "WU-12")["metro_county"]) is False
    assert _row(r2025, "WU-06")["in_msh"] is True  # inside the synthetic extent
    assert _row(r2025, "WU-06")["msh_source"] == "aquifer layer"
    assert _row(r2025, "WU-07")["in_msh"] is False  # the aquifer column wins
    assert _row(r2025, "WU-07")["msh_source"] == "aquifer column"


def test_destination_distance_is_geodesic_not_planar(r2025):
    row = _row(r2025, "WU-07")
    p = gpd.GeoSeries([row.geometry], crs=r2025.points.crs).to_crs("EPSG:4326").iloc[0]
    expected = geodesic_miles(p.x, p.y, -87.63, 41.88)[0]
    assert row["dest_miles"] == pytest.approx(expected)
    # one degree of latitude is about 69 miles; planar degrees would say 1
    assert geodesic_miles(-93, 45, -93, 46)[0] == pytest.approx(69.06, abs=0.05)


def test_fees_and_caps_on_the_sample(r2018, r2025):
    city18, city25 = _row(r2018, "WU-04"), _row(r2025, "WU-04")
    assert city18["fee_usd"] == 280_000 and city18["cap_usd"] == 250_000
    assert city25["fee_usd"] == 525_000 and city25["cap_usd"] == 325_000
    assert city18["surch_usd"] == 90_000 and city25["surch_usd"] == 250_000
    assert bool(_row(r2025, "WU-06")["fee_bound"]) is True


def test_between_the_editions_the_fee_table_names_both_figures():
    r = water_use(POINTS, as_of=GAP, aquifer=AQUIFER)
    fees = r.fees.set_index("permit_id")
    assert fees.loc["WU-12", "fee_outcome"] == "indeterminate"
    assert pd.isna(fees.loc["WU-12", "fee_usd"])
    assert fees.loc["WU-12", "fee_2018_usd"] == 750 and fees.loc["WU-12", "fee_2025_usd"] == 1500


def test_the_trace_table_follows_the_contract(r2025):
    d = r2025.decisions
    assert list(d.columns[: len(TRACE_COLUMNS)]) == list(TRACE_COLUMNS)
    assert (d["citation"].str.startswith("Minn. Stat. §")).all()
    assert d.groupby("project")["seq"].apply(lambda s: list(s) == list(range(1, len(s) + 1))).all()
    assert set(d.loc[d["impact_id"] == "WU-07", "rule_id"]) >= {
        "water_use.permit_required",
        "water_use.bulk_sale",
        "water_use.fee",
    }
    cap = d[(d["rule_id"] == "water_use.fee.cap") & (d["project"] == "Synthetic Falls")]
    assert len(cap) == 1 and cap["impact_id"].iloc[0] == ""


def test_csv_with_lon_lat_gives_the_same_answers(r2025):
    r = water_use(CSV, as_of=E2025, aquifer=AQUIFER)
    assert list(r.points["outcome"]) == list(r2025.points["outcome"])
    assert any("WGS 84" in rec for rec in r.manifest.records)


def test_write_outputs_a_geopackage_with_points_decisions_and_fees(tmp_path, r2025):
    suffixes = (".gpkg", "_fees.csv", "_schedules.csv", "_decisions.json", "_manifest.json")
    assert_writes(r2025, tmp_path / "wu.gpkg", *suffixes)
    layers = {name for name, _ in pyogrio.list_layers(tmp_path / "wu.gpkg")}
    # layer_styles is QGIS's style table (every GeoPackage carries the default styles)
    assert layers == {"appropriations", "decisions", "fees", "layer_styles"}
    dec = pyogrio.read_dataframe(tmp_path / "wu.gpkg", layer="decisions")
    assert isinstance(json.loads(dec["verify"].iloc[0]), list)
    assert isinstance(json.loads(dec["parameters"].iloc[0]), dict)
    manifest = json.loads((tmp_path / "wu_manifest.json").read_text("utf-8"))
    assert manifest["command"] == "water-use" and manifest["as_of"] == E2025
    assert {i["role"] for i in manifest["inputs"]} == {"appropriations", "aquifer"}
    assert any("not effective dates" in a for a in manifest["assumptions"])
    fees = pd.read_csv(tmp_path / "wu_fees.csv")
    assert len(fees) == int((r2025.points["status"] == "assessed").sum())


def test_map_is_offline_with_rings_for_bulk_sale(tmp_path, r2025):
    page = water_use_map(r2025).get_root().render()
    from wetland_gis.mapping import save_map

    path = save_map(water_use_map(r2025), tmp_path / "m.html")
    html = path.read_text("utf-8")
    assert not re.search(r"<script\b[^>]*\bsrc\s*=\s*[\"']?(https?:)?//", html, re.I)
    assert "50 miles (geodesic)" in page and "100 miles (geodesic)" in page
    assert "WU-07" in page and "prohibited" in page


def test_a_layer_without_permit_id_is_refused_naming_the_file(tmp_path):
    gdf = gpd.GeoDataFrame(
        {"name": ["a"]}, geometry=[shapely.Point(480000, 4980000)], crs="EPSG:26915"
    )
    path = tmp_path / "p.gpkg"
    gdf.to_file(path, layer="pts")
    with pytest.raises(FieldMappingError, match=r"p\.gpkg.*permit_id"):
        water_use(path)


def test_a_csv_without_lon_lat_is_refused(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("permit_id,x_coord\nA,1\n", "utf-8")
    with pytest.raises(FieldMappingError, match="longitude and latitude"):
        water_use(path)


def test_a_shapefile_without_crs_is_refused(tmp_path):
    gdf = gpd.GeoDataFrame({"permit_id": ["a"]}, geometry=[shapely.Point(480000, 4980000)])
    path = tmp_path / "p.shp"
    with pytest.warns(UserWarning, match="crs"):
        gdf.to_file(path)
    with pytest.raises(MissingCRSError, match="assume-crs"):
        water_use(path)


def test_rows_that_cannot_be_read_are_kept_with_reasons(tmp_path):
    rows = pd.DataFrame(
        {
            "permit_id": ["A", "A", "", "D", "E", "F"],
            "source": ["groundwater", "groundwater", "surface", "lake", "surface", "surface"],
            "annual_gallons": ["2000000", "1", "1", "1", "1", "1"],
            "potable": ["", "", "", "", "maybe", ""],
            "lon": ["-93.5", "-93.5", "-93.5", "-93.5", "-93.5", ""],
            "lat": ["45.0", "45.0", "45.0", "45.0", "45.0", ""],
        }
    )
    path = tmp_path / "p.csv"
    rows.to_csv(path, index=False)
    r = water_use(path, as_of=E2025)
    reasons = list(r.points["status_reason"])
    assert list(r.points["status"]) == ["assessed"] + ["not_assessed"] * 5
    assert "repeats row 1" in reasons[1]
    assert "permit_id is blank" in reasons[2]
    assert "source 'lake'" in reasons[3]
    assert "potable 'maybe'" in reasons[4]
    assert "row 6 (line 7 of the CSV): lon is blank" in reasons[5]


@pytest.mark.parametrize(
    ("value", "signed", "expected"),
    [
        ("1500", False, 1500.0),
        ("0", False, 0.0),
        ("", False, None),
        ("-93.25", True, -93.25),
        ("-1", False, "must be a finite number 0 or more"),
        ("many", False, "(write digits, e.g. 1500000)"),
        ("west", True, "(decimal degrees)"),
    ],
    ids=[
        "count",
        "zero",
        "blank-unknown",
        "longitude-signed",
        "negative-count",
        "text",
        "text-lon",
    ],
)
def test_a_row_number_is_read_or_refused_with_the_fix(value, signed, expected):
    from wetland_gis.water_use.screening import _row_number, _RowError

    if isinstance(expected, str):
        with pytest.raises(_RowError, match=re.escape(expected)):
            _row_number(value, "dest_lon" if signed else "annual_gallons", signed=signed)
    else:
        assert _row_number(value, "annual_gallons", signed=signed) == expected


def test_cli_water_use_writes_everything(tmp_path, capsys):
    out = tmp_path / "o" / "wu.gpkg"
    code = main(
        ["water-use", str(POINTS), "--out", str(out), "--as-of", E2025, "--aquifer", str(AQUIFER)]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "wu_map.html" in printed and out.exists()
    assert (tmp_path / "o" / "wu_fees.csv").exists()


def test_cli_water_use_bad_input_exits_2_with_the_fix(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text("permit_id\nA\n", "utf-8")
    code = main(["water-use", str(path), "--out", str(tmp_path / "x.gpkg")])
    assert code == 2
    assert "longitude and latitude" in capsys.readouterr().err


def test_cli_water_use_date_before_the_editions_exits_2(tmp_path, capsys):
    code = main(
        ["water-use", str(POINTS), "--out", str(tmp_path / "x.gpkg"), "--as-of", "2017-01-01"]
    )
    assert code == 2
    assert "no edition" in capsys.readouterr().err


def test_write_refuses_a_format_that_cannot_hold_the_tables(tmp_path, r2025):
    from wetland_gis.errors import OutputError

    with pytest.raises(OutputError, match=r"\.gpkg"):
        r2025.write(tmp_path / "wu.csv")


def test_the_docstring_examples_run(monkeypatch):
    import doctest

    # `import wetland_gis.water_use.rules as m` would take the attribute water_use of the
    # package, which is the function wg.water_use: import the modules by their package
    from wetland_gis.water_use import (
        amounts,
        editions,
        framework,
        restrictions,
        rules as rules_module,
        screening as layer_module,
    )

    monkeypatch.chdir(ROOT)
    for module in (rules_module, layer_module, editions, framework, amounts, restrictions):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


@pytest.mark.pdf
@pytest.mark.slow
def test_demo_screens_the_sample_under_both_editions(demo_run):
    table = demo_run.water_use  # demo.run_water_use_demo's table (tests/session_fixtures.py)
    assert table.loc["WU-07", "outcome 2018-06-01"] == "permit_required"
    assert table.loc["WU-07", "outcome 2026-06-01"] == "prohibited"
    assert (demo_run.out / "water_use" / "water_use_2026_map.html").exists()
    assert (demo_run.out / "water_use" / "water_use_2018_fees.csv").exists()


def test_a_shapefile_with_10_character_names_gives_the_same_answers(tmp_path, r2025):
    from wetland_gis.io.layers import write_layer

    write_layer(gpd.read_file(POINTS), tmp_path / "a.shp")
    r = water_use(tmp_path / "a.shp", as_of=E2025, aquifer=AQUIFER)
    assert list(r.points["outcome"]) == list(r2025.points["outcome"])
    assert list(r.points["total_usd"].fillna(-1)) == list(r2025.points["total_usd"].fillna(-1))


def test_without_an_aquifer_layer_a_new_groundwater_permit_asks_to_verify_in_2025():
    r = water_use(POINTS, as_of=E2025)
    row = _row(r, "WU-01")
    assert row["msh_out"] == "verify" and row["msh_source"] == "unknown"
    assert "Mt. Simon-Hinckley" in row["verify"]


def test_water_use_writes_into_an_existing_geopackage_keeping_its_other_layers(tmp_path):
    """Issue 9 for water-use: only its own layers are replaced, the input is never written."""
    out = tmp_path / "county_work.gpkg"
    notes = gpd.GeoDataFrame(
        {"note": ["field visit"]}, geometry=[shapely.Point(430_000, 5_000_000)], crs="EPSG:26915"
    )
    notes.to_file(out, layer="analyst_notes", driver="GPKG")
    code = main(
        ["water-use", str(POINTS), "--aquifer", str(AQUIFER), "--as-of", E2025, "--out", str(out)]
    )
    assert code == 0
    layers = {name for name, _ in pyogrio.list_layers(out)}
    assert {"analyst_notes", "appropriations", "decisions", "fees"} <= layers
    assert pyogrio.read_dataframe(out, layer="analyst_notes")["note"].tolist() == ["field visit"]
    assert main(["water-use", str(POINTS), "--as-of", E2025, "--out", str(POINTS)]) == 2


@pytest.mark.parametrize(
    ("edition", "fee", "floor"),
    [
        pytest.param("2018", 20.0, 140.0, id="6(f)(1) 2018 sample WU-13 pays $20, floor $140"),
        pytest.param("2025", 100.0, 200.0, id="6(f)(1) 2025 sample WU-13 pays $100, floor $200"),
    ],
)
def test_the_fee_table_names_the_6f_reading_and_shows_floor_beside_it(
    r2018, r2025, edition, fee, floor
):
    result = r2018 if edition == "2018" else r2025
    row = result.fees.set_index("permit_id").loc["WU-13"]
    assert row["fee_usd"] == fee and row["fee_irrigation_other_usd"] == floor
    assert row["irrigation_reading"] == "paragraph_f"
    assert row["irrigation_other_reading"] == "floor" and bool(row["irrigation_reading_differs"])
    other = result.fees.set_index("permit_id").loc["WU-12"]  # 280,000,000 gallons: no (f) year
    assert pd.isna(other["irrigation_reading"]) and not bool(other["irrigation_reading_differs"])
    assert result.manifest.settings["irrigation_minimum_reading"] == "paragraph_f"
