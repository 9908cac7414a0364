"""The layers the impacts were cut from, on the map, in the report and in compare (issue 35)."""

from __future__ import annotations

import json
import re
import warnings

import geopandas as gpd
import pytest
import shapely
from helpers import footprint_assess_cli, run_cli
from hostile import CANARY, MATH, TEMPLATE_PAYLOADS

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.commands import footprint_notes, one_project, read_assessed
from wetland_gis.errors import InputError
from wetland_gis.mapping import tep_map

X0, Y0 = 430_000.0, 5_150_000.0
AS_OF = "2024-05-01"
SCRIPT = "<img src=x onerror=alert(1)>"


def box(x0, y0, x1, y1):
    return shapely.box(X0 + x0, Y0 + y0, X0 + x1, Y0 + y1)


def footprint(part_ids=("P-1", "P-2", "P-3"), projects=("Road",) * 3) -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {
            "part_id": list(part_ids),
            "project": list(projects),
            "impact": ["fill"] * 3,
            "duration": ["permanent", "temporary", "permanent"],
        },
        geometry=[box(0, 0, 100, 30), box(50, 20, 150, 60), box(500, 500, 510, 510)],
        crs=26915,
    )


def wetlands(**columns) -> gpd.GeoDataFrame:
    data = {"wetland_id": ["W-1", "W-2"], "circ39": ["3", "2"], **columns}
    return gpd.GeoDataFrame(data, geometry=[box(20, -20, 80, 80), box(100, 0, 200, 100)], crs=26915)


def titles(html: str) -> dict[str, int]:
    """Return the layer-control titles of the map with their feature counts."""
    found = re.findall(
        r'"((?:Footprint|Wetland delineation|NWI wetlands|Parcels|Existing'
        r'|Drainage)[^"]*) \((\d+)\)"',
        html,
    )
    return {name: int(n) for name, n in found}


def _map(result, **kwargs) -> str:
    impacts = result.impacts.assign(outcome="replacement_required")
    m = tep_map(impacts, project_layers=result.layers, **kwargs)
    return m.get_root().render()


def test_the_map_draws_each_source_layer_as_a_layer_to_switch_on_and_off():
    existing = gpd.GeoDataFrame(geometry=[box(0, 10, 200, 14)], crs=26915)
    parcels = gpd.GeoDataFrame({"owner": ["A"]}, geometry=[box(-100, -100, 300, 200)], crs=26915)
    result = wg.impacts(footprint(), wetlands(), existing=existing, parcels=parcels)
    html = _map(result)
    assert titles(html) == {
        "Parcels (owners)": 1,
        "Wetland delineation": 2,
        "Existing developed ground (no new impact)": 1,
        "Footprint (construction limits)": 3,
    }
    assert "L.control.layers" in html


def test_on_nwi_the_map_names_the_wetlands_a_screening():
    nwi = wetlands(ATTRIBUTE=["PEM1C", "PSS1C"], WETLAND_TYPE=["x", "y"]).drop(
        columns=["wetland_id", "circ39"]
    )
    html = _map(wg.impacts(footprint(), nwi))
    assert titles(html)["NWI wetlands (a screening, not a delineation)"] == 2


@pytest.mark.parametrize("text", [SCRIPT, *TEMPLATE_PAYLOADS[:5]], ids=range(6))
def test_source_layer_text_is_data_on_the_map(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = wg.impacts(footprint(part_ids=(text, "P-2", "P-3")), wetlands())
    html = _map(result)
    assert SCRIPT not in html
    assert MATH not in html or "12345000" not in html
    assert not (tmp_path / CANARY).exists()


def test_one_project_keeps_its_impacts_and_its_parts():
    result = wg.impacts(footprint(projects=("North", "North", "South")), wetlands())
    read = {
        "impacts": result.impacts,
        "trace": None,
        "projects": None,
        "footprint_layers": result.layers,
        "path": "x.gpkg",
    }
    north = one_project(read, "North")
    assert set(north["impacts"]["project"]) == {"North"}
    assert list(north["footprint_layers"]["footprint"]["part_id"]) == ["P-1", "P-2"]
    assert set(north["footprint_layers"]["delineation"]["wetland_id"]) == {"W-1", "W-2"}
    with pytest.raises(
        InputError, match="'East' is not a project of x.gpkg: its projects are 'North'$"
    ):
        one_project(read, "East")


def test_the_report_lists_the_source_layers_and_the_idle_parts():
    result = wg.impacts(footprint(), wetlands())
    notes = footprint_notes({"impacts": result.impacts, "footprint_layers": result.layers})
    assert notes[0].startswith("The impacts were cut from the construction limits")
    assert "Footprint (construction limits): 3 feature(s)" in notes[0]
    assert notes[1] == "Footprint parts with no impact: P-3 (no_wetland)."
    assert footprint_notes({"impacts": result.impacts, "footprint_layers": {}}) == []


@pytest.mark.slow
def test_map_project_and_report_on_nwi_from_the_command_line(tmp_path, sample_data):
    fp = footprint(projects=("North", "North", "South"))
    fp.to_file(tmp_path / "limits.gpkg")
    nwi = wetlands(ATTRIBUTE=["PEM1C", "PSS1C"], WETLAND_TYPE=["x", "y"]).drop(
        columns=["wetland_id", "circ39"]
    )
    nwi.to_file(tmp_path / "nwi.gpkg")
    out = tmp_path / "assessed.gpkg"
    assert (
        footprint_assess_cli(
            tmp_path / "limits.gpkg", tmp_path / "nwi.gpkg", sample_data.context, out
        )
        == 0
    )
    assert main(["map", str(out), "--project", "North", "--out", str(tmp_path / "m.html")]) == 0
    html = (tmp_path / "m.html").read_text()
    assert titles(html)["Footprint (construction limits)"] == 2
    assert "<title>SCREENING ON NWI, NOT A DELINEATION: TEP review map: North</title>" in html
    manifest = json.loads((tmp_path / "m_map_manifest.json").read_text())
    assert manifest["settings"]["project"] == "North"
    assert main(["report", str(out), "--out", str(tmp_path / "r.html")]) == 0
    report = (tmp_path / "r.html").read_text()
    assert "SCREENING ON NWI, NOT A DELINEATION" in report
    assert "The impacts were cut from the construction limits" in report
    assert "footprint" in read_assessed(out)["footprint_layers"]


@pytest.mark.slow
def test_compare_takes_alternatives_as_footprints(tmp_path, sample_data):
    reduced = footprint().iloc[[0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        comparison = wg.compare(
            [wg.impacts(footprint(), wetlands()), wg.impacts(reduced, wetlands()), "no-build"],
            sample_data.context,
            names=["preferred", "reduced", "no-build"],
            as_of=AS_OF,
        )
    table = comparison.table.set_index("alternative")
    assert table.loc["preferred", "impacts"] == 3
    assert table.loc["reduced", "impacts"] == 1
    assert table.loc["reduced", "source"] == "footprint <footprint GeoDataFrame>"
    assert table.loc["reduced", "wetland_sqft"] < table.loc["preferred", "wetland_sqft"]
    # and from the command line: with --wetlands every alternative is construction limits
    footprint().to_file(tmp_path / "preferred.gpkg")
    reduced.to_file(tmp_path / "reduced.gpkg")
    wetlands().to_file(tmp_path / "wetlands.gpkg")
    code = run_cli(
        "compare",
        tmp_path / "preferred.gpkg",
        tmp_path / "reduced.gpkg",
        "no-build",
        "--wetlands",
        tmp_path / "wetlands.gpkg",
        "--context",
        sample_data.context,
        "--as-of",
        AS_OF,
        "--out",
        tmp_path / "cmp",
        "--quiet",
    )
    assert code == 0
    html = (tmp_path / "cmp" / "preferred_map.html").read_text()
    assert titles(html)["Footprint (construction limits)"] == 3
