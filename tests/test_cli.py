"""The command line: a thin layer over the library, with clear errors and exit codes."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from shapely.geometry import box

from wetland_gis.cli import main
from wetland_gis.errors import WetlandGISWarning

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "sample_data"
CONTEXT = DATA / "synthetic_context.gpkg"
CROW_WING = DATA / "projects" / "crow_wing"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Run assess, site, map and report on the Crow Wing sample once."""
    out = tmp_path_factory.mktemp("cli")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        codes = [
            main(["assess", str(CROW_WING / "impacts.shp"), "--context", str(CONTEXT),
                  "--out", str(out / "assessed.gpkg"), "--as-of", "2024-05-01", "--quiet"]),
            main(["site", str(out / "assessed.gpkg"), "--sites",
                  str(CROW_WING / "candidate_sites.gpkg"), "--banks",
                  str(DATA / "synthetic_bank_credits.csv"), "--context", str(CONTEXT),
                  "--dem", str(DATA / "crow_wing_lidar_dem_1m.tif"),
                  "--out-dir", str(out / "siting")]),
            main(["map", str(out / "assessed.gpkg"), "--siting", str(out / "siting"),
                  "--context", str(CONTEXT), "--out", str(out / "map.html")]),
            main(["report", str(out / "assessed.gpkg"), "--siting", str(out / "siting"),
                  "--map", str(out / "map.html"), "--out", str(out / "report.html")]),
        ]
    return out, codes


def test_all_four_commands_succeed(run):
    _, codes = run
    assert codes == [0, 0, 0, 0]


def test_assess_writes_layer_tables_and_manifest(run):
    out, _ = run
    impacts = gpd.read_file(out / "assessed.gpkg", layer="impacts")
    assert list(impacts["impact_id"]) == ["C-1", "C-2"]
    manifest = json.loads((out / "assessed_manifest.json").read_text())
    assert manifest["command"] == "assess"
    assert manifest["as_of"] == "2024-05-01"
    assert any(i["role"] == "impacts" and i["sha256"] for i in manifest["inputs"])


def test_site_writes_ranking_plan_and_layers(run):
    out, _ = run
    ranking = pd.read_csv(out / "siting" / "ranking.csv")
    # Minn. R. 8420.0420, subp. 1: C-2 exceeds its amount, so the project is not de minimis
    # and C-1 (6,000 sq ft at 1:1) is replaced with it: 0.4 + 0.1377 acres
    assert set(ranking["impact_id"]) == {"C-1", "C-2"}
    plan = pd.read_csv(out / "siting" / "allocation.csv")
    assert plan["credits"].sum() == pytest.approx(0.5378, abs=0.005)
    manifest = json.loads((out / "siting" / "siting_manifest.json").read_text())
    assert {i["role"] for i in manifest["inputs"]} >= {"sites", "banks", "dem"}
    sites = gpd.read_file(out / "siting" / "siting.gpkg", layer="sites")
    assert "best_tier" in sites.columns


def test_map_is_self_contained(run):
    out, _ = run
    html = (out / "map.html").read_text()
    assert "C-2" in html
    assert 'src="http' not in html and "href=\"http" not in html.replace(
        'href="https://leafletjs.com"', "")


def test_report_has_the_impacts_and_citations(run):
    out, _ = run
    html = (out / "report.html").read_text()
    assert "C-2" in html
    assert "103G.222, subd. 1(g)" in html


@pytest.mark.filterwarnings("ignore:.crs. was not provided")
def test_missing_crs_exits_2_with_the_fix(tmp_path, capsys):
    gdf = gpd.GeoDataFrame({"impact_id": ["A"], "circ39": ["2"]},
                           geometry=[box(430_000, 5_010_000, 430_010, 5_010_010)])
    gdf.to_file(tmp_path / "nocrs.shp")
    (tmp_path / "nocrs.prj").unlink(missing_ok=True)
    code = main(["assess", str(tmp_path / "nocrs.shp"), "--out", str(tmp_path / "o.gpkg"),
                 "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert "nocrs" in err and "--assume-crs" in err


@pytest.mark.filterwarnings("ignore:.crs. was not provided")
def test_assume_crs_makes_it_run(tmp_path):
    gdf = gpd.GeoDataFrame({"impact_id": ["A"], "circ39": ["2"]},
                           geometry=[box(430_000, 5_010_000, 430_010, 5_010_010)])
    gdf.to_file(tmp_path / "nocrs.shp")
    (tmp_path / "nocrs.prj").unlink(missing_ok=True)
    code = main(["assess", str(tmp_path / "nocrs.shp"), "--out", str(tmp_path / "o.gpkg"),
                 "--assume-crs", "EPSG:26915", "--quiet"])
    assert code == 0
    manifest = json.loads((tmp_path / "o_manifest.json").read_text())
    assert any("assume" in r.lower() for r in manifest["records"])
    # no context: the shoreland zone is unknown, so the row is not assessed (never guessed)
    out = gpd.read_file(tmp_path / "o.gpkg", layer="impacts")
    assert out["status"].item() == "not_assessed"
    assert "--assume-no-public-waters" in out["status_reason"].item()


def test_assume_no_public_waters_is_recorded_and_flagged(tmp_path):
    gdf = gpd.GeoDataFrame({"impact_id": ["A"], "circ39": ["2"]},
                           geometry=[box(430_000, 5_010_000, 430_010, 5_010_010)],
                           crs="EPSG:26915")
    gdf.to_file(tmp_path / "a.gpkg")
    code = main(["assess", str(tmp_path / "a.gpkg"), "--out", str(tmp_path / "o.gpkg"),
                 "--assume-no-public-waters", "--quiet"])
    assert code == 0
    out = gpd.read_file(tmp_path / "o.gpkg", layer="impacts")
    # 1,076 sq ft of type 2 in Wright County: over the 1,000 sq ft of subd. 9(d)(2)
    assert out["outcome"].item() == "replacement_required"
    assert "1,000 ft" in out["verify"].item()
    manifest = json.loads((tmp_path / "o_manifest.json").read_text())
    assert any("assume_no_public_waters" in r for r in manifest["records"])


def test_warnings_are_printed_not_raised(tmp_path, capsys):
    code = main(["assess", str(DATA / "projects" / "wright_metro" / "impacts.gpkg"),
                 "--context", str(CONTEXT), "--out", str(tmp_path / "w.gpkg"), "--quiet"])
    assert code == 0
    assert "inferred" in capsys.readouterr().err


def test_map_of_a_missing_file_exits_2(tmp_path, capsys):
    code = main(["map", str(tmp_path / "none.gpkg"), "--out", str(tmp_path / "m.html")])
    assert code == 2
    assert "wetland-gis assess" in capsys.readouterr().err


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for command in ("assess", "site", "map", "report"):
        assert command in text
