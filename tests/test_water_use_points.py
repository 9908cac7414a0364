"""Points of appropriation that cannot be placed: blank, swapped or outside Minnesota.

Each such row is kept, not assessed, with its row (1-based, as QGIS numbers features)
and the fix; the run goes on, and ``--strict`` exits 3 (issue 19, part 2).
"""

from __future__ import annotations

import json

import geopandas as gpd
import pandas as pd
import pytest
from shapely.geometry import Point

from wetland_gis.cli import main
from wetland_gis.water_use.screening import coordinate_problem, outside_minnesota, water_use

AS_OF = "2026-06-01"
GOOD = {"lon": "-94.05", "lat": "46.45"}  # Crow Wing County
#: The rows a point cannot be placed from, as the tests below write them.
BLANK_LON = {"lon": "", "lat": "46.45"}
BLANK_LAT = {"lon": "-94.05", "lat": ""}
SWAPPED = {"lon": "46.45", "lat": "-94.05"}
#: Crow Wing County with the sign of the longitude dropped: in Asia, outside Minnesota.
SIGN_DROPPED = {"lon": "94.05", "lat": "46.45"}


def _csv(tmp_path, coords):
    rows = [
        {
            "permit_id": f"P-{i + 1}",
            "source": "groundwater",
            "annual_gallons": "400000",
            **c,
        }
        for i, c in enumerate(coords)
    ]
    path = tmp_path / "points.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


@pytest.mark.parametrize(
    ("lon", "lat", "expected"),
    [
        pytest.param("-94.05", "46.45", "", id="in Minnesota: no problem"),
        pytest.param("", "46.45", "lon is blank", id="blank longitude"),
        pytest.param("-94.05", " ", "lat is blank", id="blank latitude"),
        pytest.param("west", "46.45", "coordinate not a number: lon 'west'", id="text"),
        pytest.param("46.45", "-94.05", "longitude and latitude swapped", id="swapped"),
        pytest.param("-94.05", "90", "", id="latitude exactly 90 is a latitude"),
        pytest.param("45", "90.0001", "longitude and latitude swapped", id="lat just over 90"),
        pytest.param("-94.05", "90.0001", "coordinates out of range", id="no order fits"),
        pytest.param("-194", "46", "coordinates out of range", id="longitude over 180"),
    ],
)
def test_a_csv_coordinate_problem_names_the_fix(lon, lat, expected):
    got = coordinate_problem(lon, lat)
    if expected:
        assert got.startswith(expected) and "Minnesota lies at longitude" in got
    else:
        assert got == ""


@pytest.mark.parametrize(
    ("lon", "lat", "expected"),
    [
        pytest.param(-94.6, 46.4, "", id="in Minnesota"),
        pytest.param(94.6, 46.4, "check the sign of the longitude", id="sign of longitude"),
        pytest.param(46.4, -94.6, "swapped", id="swapped, valid as lon/lat"),
        pytest.param(-100.0, 46.4, "check the coordinates and the layer's CRS", id="N. Dakota"),
        pytest.param(-92.1, 46.5, "check the coordinates", id="Lake Superior off Duluth"),
    ],
)
def test_outside_minnesota_says_why(lon, lat, expected):
    got = outside_minnesota(lon, lat)
    if expected:
        assert got.startswith("outside Minnesota") and expected in got
    else:
        assert got == ""


def test_blank_swapped_and_outside_rows_are_kept_not_assessed_and_the_run_goes_on(tmp_path):
    path = _csv(tmp_path, [GOOD, BLANK_LON, SWAPPED, SIGN_DROPPED])
    r = water_use(path, as_of=AS_OF)
    pts = r.points.set_index("permit_id")
    assert list(pts["status"]) == ["assessed", "not_assessed", "not_assessed", "not_assessed"]
    assert pts.loc["P-1", "county"] == "Crow Wing"
    reasons = pts["status_reason"]
    assert reasons["P-2"].startswith("row 2 (line 3 of the CSV): lon is blank")
    assert reasons["P-3"].startswith("row 3 (line 4 of the CSV): longitude and latitude swapped")
    assert reasons["P-4"].startswith("row 4 (line 5 of the CSV): outside Minnesota")
    assert "check the sign of the longitude" in reasons["P-4"]
    # never assessed with a fee and an empty county
    outside = pts.loc["P-4"]
    assert outside["outcome"] == "not_assessed" and pd.isna(outside["total_usd"])
    assert "P-4" not in set(r.fees["permit_id"])


def test_a_geopackage_point_outside_minnesota_is_not_assessed(tmp_path):
    layer = gpd.GeoDataFrame(
        {"permit_id": ["IN", "OUT"], "source": ["surface", "surface"], "annual_gallons": [1, 1]},
        geometry=[Point(-94.05, 46.45), Point(94.05, 46.45)],
        crs="EPSG:4326",
    )
    path = tmp_path / "p.gpkg"
    layer.to_file(path, layer="points")
    pts = water_use(path, as_of=AS_OF).points.set_index("permit_id")
    assert pts.loc["IN", "status"] == "assessed"
    assert pts.loc["OUT", "status"] == "not_assessed"
    assert pts.loc["OUT", "status_reason"].startswith("row 2: outside Minnesota")


def test_a_point_in_no_county_of_a_user_county_layer_is_not_assessed(tmp_path):
    from wetland_gis.context import DEFAULT_COUNTIES_PATH

    counties = gpd.read_file(DEFAULT_COUNTIES_PATH)
    ctx = tmp_path / "ctx.gpkg"
    counties[counties["NAME"] == "Hennepin"].to_file(ctx, layer="counties")
    path = _csv(tmp_path, [GOOD])
    pts = water_use(path, as_of=AS_OF, context=ctx).points
    assert pts["status"].tolist() == ["not_assessed"]
    assert "no county of the county layer" in pts["status_reason"].iloc[0]


def test_cli_writes_everything_groups_the_tally_by_reason_and_strict_exits_3(tmp_path, capsys):
    path = _csv(
        tmp_path,
        [GOOD, BLANK_LON, BLANK_LAT, {"lon": "", "lat": "46.0"}, SIGN_DROPPED],
    )
    out = tmp_path / "wu.gpkg"
    args = ["water-use", str(path), "--out", str(out), "--as-of", AS_OF]
    assert main(args) == 0  # the map is written too: no crash on a row without a point
    err = capsys.readouterr().err
    # grouped by status_code, never by the sentence (the sentence names lon or lat)
    assert "not assessed: lon or lat blank: 3" in err
    assert "not assessed: outside Minnesota: 1" in err
    assert "replacement required" not in err  # no wetland in a water-use run
    assert (tmp_path / "wu_map.html").exists()
    assert main([*args, "--strict"]) == 3
    err = capsys.readouterr().err
    assert "--strict: 4 row(s) not assessed" in err
    manifest = json.loads((tmp_path / "wu_manifest.json").read_text("utf-8"))
    assert manifest["command"] == "water-use"


def test_cli_strict_passes_when_every_point_is_in_minnesota(tmp_path):
    path = _csv(tmp_path, [GOOD])
    out = tmp_path / "wu.gpkg"
    assert main(["water-use", str(path), "--out", str(out), "--as-of", AS_OF, "--strict"]) == 0


# enums.StatusCode beside status_reason: what the tally groups by (issue: a status_code
# column so no stage parses the sentence)
@pytest.mark.parametrize(
    ("coords", "code"),
    [
        (GOOD, "assessed"),
        (BLANK_LON, "coordinate_blank"),
        (BLANK_LAT, "coordinate_blank"),
        ({"lon": "west", "lat": "46.45"}, "coordinate_not_a_number"),
        (SWAPPED, "coordinates_swapped"),
        ({"lon": "500", "lat": "500"}, "coordinates_out_of_range"),
        (SIGN_DROPPED, "outside_minnesota"),
    ],
    ids=["valid", "lon-blank", "lat-blank", "not-a-number", "swapped", "out-of-range", "sign"],
)
def test_each_row_not_assessed_has_the_code_of_its_reason(tmp_path, coords, code):
    pts = water_use(_csv(tmp_path, [coords]), as_of=AS_OF).points
    assert pts["status_code"].tolist() == [code]
    assert (pts["status"] == "assessed").tolist() == [code == "assessed"]


def test_a_repeated_permit_id_and_a_point_in_no_county_have_their_codes(tmp_path):
    from wetland_gis.context import DEFAULT_COUNTIES_PATH

    path = _csv(tmp_path, [GOOD, GOOD])
    frame = pd.read_csv(path)
    frame["permit_id"] = "SAME"
    frame.to_csv(path, index=False)
    assert water_use(path, as_of=AS_OF).points["status_code"].tolist() == [
        "assessed",
        "appropriation_facts",
    ]
    counties = gpd.read_file(DEFAULT_COUNTIES_PATH)
    ctx = tmp_path / "ctx.gpkg"
    counties[counties["NAME"] == "Hennepin"].to_file(ctx, layer="counties")
    pts = water_use(_csv(tmp_path, [GOOD]), as_of=AS_OF, context=ctx).points
    assert pts["status_code"].tolist() == ["outside_counties"]


def test_every_status_code_has_a_label_and_is_in_the_data_schema():
    from pathlib import Path

    from wetland_gis.enums import StatusCode
    from wetland_gis.labels import VALUE_LABELS

    schema = (Path(__file__).resolve().parents[1] / "docs" / "data_schema.md").read_text()
    for code in StatusCode:
        assert code.value in VALUE_LABELS, code
        if code is not StatusCode.OTHER:
            assert f"`{code.value}`" in schema, code
