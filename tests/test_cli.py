"""The command line: a thin layer over the library, with clear errors and exit codes."""

from __future__ import annotations

import json
import warnings
import zipfile
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
from helpers import assess_cli, run_cli
from shapely.geometry import LineString, MultiPolygon, Point, box

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
            assess_cli(
                CROW_WING / "impacts.shp",
                CONTEXT,
                out / "assessed.gpkg",
                "--as-of",
                "2024-05-01",
                "--quiet",
            ),
            run_cli(
                "site",
                out / "assessed.gpkg",
                "--sites",
                CROW_WING / "candidate_sites.gpkg",
                "--banks",
                DATA / "synthetic_bank_credits.csv",
                "--context",
                CONTEXT,
                "--dem",
                DATA / "crow_wing_lidar_dem_1m.tif",
                "--out-dir",
                out / "siting",
            ),
            run_cli(
                "map",
                out / "assessed.gpkg",
                "--siting",
                out / "siting",
                "--context",
                CONTEXT,
                "--out",
                out / "map.html",
            ),
            run_cli(
                "report",
                out / "assessed.gpkg",
                "--siting",
                out / "siting",
                "--map",
                out / "map.html",
                "--out",
                out / "report.html",
            ),
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
    assert 'src="http' not in html and 'href="http' not in html.replace(
        'href="https://leafletjs.com"', ""
    )


def test_report_has_the_impacts_and_citations(run):
    out, _ = run
    html = (out / "report.html").read_text()
    assert "C-2" in html
    assert "103G.222, subd. 1(g)" in html


def _shapefile_without_crs(tmp_path):
    """Write ``nocrs.shp``: one type 2 square in Wright County, no .prj (no CRS)."""
    gdf = gpd.GeoDataFrame(
        {"impact_id": ["A"], "circ39": ["2"]},
        geometry=[box(430_000, 5_010_000, 430_010, 5_010_010)],
    )
    gdf.to_file(tmp_path / "nocrs.shp")
    (tmp_path / "nocrs.prj").unlink(missing_ok=True)


@pytest.mark.filterwarnings("ignore:.crs. was not provided")
def test_missing_crs_exits_2_with_the_fix(tmp_path, capsys):
    _shapefile_without_crs(tmp_path)
    code = main(
        ["assess", str(tmp_path / "nocrs.shp"), "--out", str(tmp_path / "o.gpkg"), "--quiet"]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "nocrs" in err and "--assume-crs" in err


@pytest.mark.filterwarnings("ignore:.crs. was not provided")
def test_assume_crs_makes_it_run(tmp_path):
    _shapefile_without_crs(tmp_path)
    code = run_cli(
        "assess",
        tmp_path / "nocrs.shp",
        "--out",
        tmp_path / "o.gpkg",
        "--assume-crs",
        "EPSG:26915",
        "--quiet",
    )
    assert code == 0
    manifest = json.loads((tmp_path / "o_manifest.json").read_text())
    assert any("assume" in r.lower() for r in manifest["records"])
    # no context: the shoreland zone is unknown, so the row is not assessed (never guessed)
    out = gpd.read_file(tmp_path / "o.gpkg", layer="impacts")
    assert out["status"].item() == "not_assessed"
    assert "--assume-no-public-waters" in out["status_reason"].item()


def test_assume_no_public_waters_is_recorded_and_flagged(tmp_path):
    gdf = gpd.GeoDataFrame(
        {"impact_id": ["A"], "circ39": ["2"]},
        geometry=[box(430_000, 5_010_000, 430_010, 5_010_010)],
        crs="EPSG:26915",
    )
    gdf.to_file(tmp_path / "a.gpkg")
    code = run_cli(
        "assess",
        tmp_path / "a.gpkg",
        "--out",
        tmp_path / "o.gpkg",
        "--assume-no-public-waters",
        "--quiet",
    )
    assert code == 0
    out = gpd.read_file(tmp_path / "o.gpkg", layer="impacts")
    # 1,076 sq ft of type 2 in Wright County: over the 1,000 sq ft of subd. 9(d)(2)
    assert out["outcome"].item() == "replacement_required"
    assert "1,000 ft" in out["verify"].item()
    manifest = json.loads((tmp_path / "o_manifest.json").read_text())
    assert any("assume_no_public_waters" in r for r in manifest["records"])


def test_warnings_are_printed_not_raised(tmp_path, capsys):
    code = assess_cli(
        DATA / "projects" / "wright_metro" / "impacts.gpkg", CONTEXT, tmp_path / "w.gpkg", "--quiet"
    )
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


# --- nothing lost: safe writes ------------------------------------------------------------

X0, Y0 = 423_400.0, 5_002_300.0  # Wright County, unincorporated, outside the shoreland zone
ST_CROIX = (518_745.0, 4_985_679.0)  # a point on the Minnesota / Wisconsin state line
BANKS = DATA / "synthetic_bank_credits.csv"
SITES = DATA / "projects" / "wright_metro" / "candidate_sites.gpkg"


def _layer(geoms, **columns) -> gpd.GeoDataFrame:
    n = len(geoms)
    data = {"impact_id": [f"i{k}" for k in range(n)], "circ39": ["3"] * n}
    data.update(columns)
    return gpd.GeoDataFrame(data, geometry=list(geoms), crs="EPSG:26915")


def _cli(*argv: str) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return run_cli(*argv)


def _site(assessed, out_dir, *options) -> int:
    """Run ``site`` of ``assessed`` with ``options`` on the synthetic context into ``out_dir``."""
    return _cli("site", assessed, *options, "--context", CONTEXT, "--out-dir", out_dir)


def test_assess_into_a_geopackage_keeps_its_other_layers(tmp_path, capsys):
    project = tmp_path / "project.gpkg"
    notes = _layer([box(X0, Y0, X0 + 5, Y0 + 5)], note=["keep me"])
    notes.to_file(project, layer="analyst_notes")
    _layer([box(X0, Y0, X0 + 20, Y0 + 20)]).to_file(tmp_path / "impacts.gpkg")
    for _ in range(2):  # the second run replaces its own layers, without --overwrite
        assert (
            _cli(
                "assess",
                tmp_path / "impacts.gpkg",
                "--context",
                CONTEXT,
                "--out",
                project,
                "--quiet",
            )
            == 0
        )
    # the trace table and QGIS's style table are written beside the impacts
    assert sorted(pyogrio.list_layers(project)[:, 0]) == [
        "analyst_notes",
        "decisions",
        "impacts",
        "layer_styles",
    ]
    assert gpd.read_file(project, layer="analyst_notes")["note"].tolist() == ["keep me"]
    assert len(gpd.read_file(project, layer="impacts")) == 1
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".wetland-gis-tmp-")]


def test_out_naming_the_input_is_refused_and_the_input_kept(tmp_path, capsys):
    path = tmp_path / "impacts.gpkg"
    _layer([box(X0, Y0, X0 + 20, Y0 + 20)]).to_file(path, layer="impacts")
    before = path.read_bytes()
    code = _cli("assess", path, "--context", CONTEXT, "--out", path, "--quiet")
    assert code == 2
    err = capsys.readouterr().err
    assert "impacts.gpkg: it is an input of this run" in err
    assert path.read_bytes() == before


def test_replacing_a_file_of_another_kind_needs_overwrite(tmp_path, capsys):
    _layer([box(X0, Y0, X0 + 20, Y0 + 20)]).to_file(tmp_path / "impacts.gpkg")
    page = tmp_path / "assessed.parquet"
    page.write_text("someone else's file")
    args = ["assess", tmp_path / "impacts.gpkg", "--context", CONTEXT, "--out", page, "--quiet"]
    assert _cli(*args) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert page.read_text() == "someone else's file"
    assert _cli(*args, "--overwrite") == 0
    assert len(gpd.read_parquet(page)) == 1


# --- every command on every degenerate input -----------------------------------------------


def _degenerate(name: str, folder: Path) -> tuple[Path, list[str]]:
    """Write the input of a degenerate case; return it and extra assess options."""
    x, y = X0, Y0
    path = folder / f"{name}.gpkg"
    extra: list[str] = ["--context", str(CONTEXT)]
    if name == "zero_features":
        _layer([box(x, y, x + 20, y + 20)]).iloc[:0].to_file(path)
    elif name == "all_not_assessed":
        _layer(
            [Point(x, y), LineString([(x, y), (x + 5, y + 5)]), None], circ39=["3", "bogus", "3"]
        ).to_file(path)
    elif name == "no_replacement_needed":
        _layer([box(x, y, x + 2, y + 2)], circ39=["1"]).to_file(path)
    elif name == "counties_only":
        _layer([box(x, y, x + 20, y + 20)]).to_file(path)
        extra = []
    elif name == "counties_only_assume_no_waters":
        _layer([box(x, y, x + 20, y + 20)]).to_file(path)
        extra = ["--assume-no-public-waters"]
    elif name == "straddles_state_line":
        sx, sy = ST_CROIX
        _layer([box(sx - 100, sy - 100, sx + 100, sy + 100)]).to_file(path)
    elif name == "absurd_coordinates":
        _layer([box(1e300, 1e300, 2e300, 2e300), box(x, y, x + 20, y + 20)]).to_file(path)
    elif name == "outside_minnesota":
        _layer([box(600_000, 4_985_000, 600_100, 4_985_100)]).to_file(path)
    elif name == "mixed_geometry_types":
        _layer(
            [
                box(x, y, x + 20, y + 20),
                Point(x, y),
                MultiPolygon([box(x + 50, y, x + 60, y + 10), box(x + 70, y, x + 80, y + 10)]),
            ]
        ).to_file(path)
    else:  # pragma: no cover
        raise AssertionError(name)
    return path, extra


DEGENERATE = [
    "zero_features",
    "all_not_assessed",
    "no_replacement_needed",
    "counties_only",
    "counties_only_assume_no_waters",
    "straddles_state_line",
    "absurd_coordinates",
    "outside_minnesota",
    "mixed_geometry_types",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", DEGENERATE)
def test_every_command_on_a_degenerate_input_writes_valid_outputs(tmp_path, capsys, name):
    impacts, extra = _degenerate(name, tmp_path)
    out = tmp_path / "assessed.gpkg"
    assert _cli("assess", impacts, *extra, "--out", out, "--quiet") == 0
    layer = gpd.read_file(out, layer="impacts")
    assert len(layer) == len(gpd.read_file(impacts))
    assert layer.crs.to_epsg() == 26915
    assert pyogrio.read_info(out, layer="impacts")["geometry_type"] in ("Polygon", "MultiPolygon")
    assert len(pd.read_csv(tmp_path / "assessed_projects.csv").columns)  # never 1 byte
    for sites, banks in ((SITES, BANKS), (None, BANKS), (SITES, None), (None, None)):
        opts = [*(["--sites", sites] if sites else []), *(["--banks", banks] if banks else [])]
        assert _site(out, tmp_path / "siting", *opts) == 0
    assert (
        _cli(
            "map",
            out,
            "--siting",
            tmp_path / "siting",
            "--context",
            CONTEXT,
            "--out",
            tmp_path / "map.html",
        )
        == 0
    )
    assert (
        _cli(
            "report",
            out,
            "--siting",
            tmp_path / "siting",
            "--map",
            tmp_path / "map.html",
            "--out",
            tmp_path / "report.html",
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert err.count("row(s) read") == 7  # a tally at the end of every command
    report = (tmp_path / "report.html").read_text()
    if name in ("zero_features", "all_not_assessed", "outside_minnesota", "counties_only"):
        assert "no impact could be assessed" in report


def _broken(name: str, folder: Path) -> Path:
    x, y = X0, Y0
    if name == "zip_slip":
        path = folder / "slip.zip"
        with zipfile.ZipFile(path, "w") as handle:
            handle.writestr("../../evil.shp", b"x")
    elif name == "corrupt_geopackage":
        path = folder / "broken.gpkg"
        path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    elif name == "no_crs":
        path = folder / "nocrs.gpkg"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            gpd.GeoDataFrame({"impact_id": ["a"]}, geometry=[box(x, y, x + 1, y + 1)]).to_file(path)
    elif name == "several_layers":
        path = folder / "three.gpkg"
        for layer in ("a", "b", "c"):
            _layer([box(x, y, x + 20, y + 20)]).to_file(path, layer=layer)
    elif name == "wrong_crs":
        path = folder / "wrong.shp"
        _layer([box(x, y, x + 20, y + 20)]).set_crs(4326, allow_override=True).to_file(path)
    elif name == "table_without_geometry":
        path = folder / "table.gpkg"
        pyogrio.write_dataframe(pd.DataFrame({"impact_id": ["a"]}), path, driver="GPKG")
    elif name == "missing_file":
        path = folder / "none.gpkg"
    elif name == "unsupported_format":
        path = folder / "impacts.dwg"
        path.write_bytes(b"AC1032")
    else:  # pragma: no cover
        raise AssertionError(name)
    return path


BROKEN = [
    "zip_slip",
    "corrupt_geopackage",
    "no_crs",
    "several_layers",
    "wrong_crs",
    "table_without_geometry",
    "missing_file",
    "unsupported_format",
]


@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_layer_is_one_line_naming_the_file_and_exit_2(tmp_path, capsys, name):
    path = _broken(name, tmp_path)
    code = _cli("assess", path, "--context", CONTEXT, "--out", tmp_path / "o.gpkg", "--quiet")
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("wetland-gis assess: error: ")
    assert path.name in err[0]
    assert not (tmp_path / "o.gpkg").exists()


@pytest.mark.parametrize("command", ["site", "map", "report"])
def test_the_later_commands_on_a_file_that_is_not_an_assessment_exit_2(tmp_path, capsys, command):
    other = tmp_path / "other.gpkg"
    _layer([box(X0, Y0, X0 + 20, Y0 + 20)]).to_file(other, layer="roads")
    out = ["--out-dir", tmp_path / "s"] if command == "site" else ["--out", tmp_path / "x.html"]
    assert _cli(command, other, *out) == 2
    err = capsys.readouterr().err
    assert "no layer 'impacts'" in err and "wetland-gis assess" in err


# --- tally, --strict and internal errors -------------------------------------------------


def test_the_tally_counts_rows_by_status_reason_and_outcome(tmp_path, capsys):
    path = tmp_path / "impacts.gpkg"
    _layer(
        [box(X0, Y0, X0 + 20, Y0 + 20), box(X0 + 50, Y0, X0 + 70, Y0 + 20), Point(X0, Y0), None],
        circ39=["3", "bogus", "3", "3"],
    ).to_file(path)
    code = _cli("assess", path, "--context", CONTEXT, "--out", tmp_path / "o.gpkg")
    assert code == 0
    err = capsys.readouterr().err
    assert "4 features read, 1 assessed, 3 not assessed" in err  # was "assessed 4 features"
    assert "wetland-gis assess: 4 row(s) read, 1 assessed, 3 not assessed" in err
    assert "not assessed: wetland type: 1" in err
    assert "not assessed: not a polygon: 1" in err
    assert "not assessed: empty or null geometry: 1" in err
    assert "outcomes: not_assessed 3, replacement_required 1" in err
    assert "replacement required: 0.1977 ac" in err  # 400 m² = 0.0988 ac, at 2:1


def test_site_tally_has_credits_cost_and_unmet(run, capsys, tmp_path):
    out, _ = run
    code = _site(out / "assessed.gpkg", tmp_path / "siting", "--banks", BANKS)
    assert code == 0
    err = capsys.readouterr().err
    # Crow Wing: C-2 exceeds its amount, so the whole project is replaced (Minn. R. 8420.0420)
    # issue 30: one unit throughout, named (was "allocated: 0.5378 credits ... unmet 0.0 ac")
    assert (
        "siting, in credits (replacement acres): 0.5378 required, 0.5378 met, 0.0000 unmet; "
        "0.5378 allocated, cost $"
    ) in err
    assert "unmet 0.0000 ac" not in err


def test_site_takes_the_siting_reading_and_weights_records_and_names_them(run, tmp_path):
    """Issue 30: `site` had no option for the readings the Python API takes."""
    out, _ = run
    folder = tmp_path / "siting"
    code = _site(
        out / "assessed.gpkg",
        folder,
        "--banks",
        BANKS,
        "--siting-reading",
        "single_order",
        "--weights",
        "cost=1,distance=0.5",
        "--quiet",
    )
    assert code == 0
    settings = json.loads((folder / "siting_manifest.json").read_text("utf-8"))["settings"]
    assert settings["siting_reading"] == "single_order"
    assert settings["weights"] == "cost=1, distance=0.5, out_of_kind=0"
    for name in ("allocation.csv", "unmet.csv"):
        table = pd.read_csv(folder / name)
        assert {"siting_reading", "weights"} <= set(table.columns), name
    plan = pd.read_csv(folder / "allocation.csv")
    assert set(plan["siting_reading"]) == {"single_order"}
    assert set(plan["weights"]) == {"cost=1, distance=0.5, out_of_kind=0"}
    assert set(pd.read_csv(folder / "ranking.csv")["siting_reading"]) == {"single_order"}


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--weights", "dist=1", "weight 'dist' is not one of ['cost', 'distance', 'out_of_kind']"),
        ("--weights", "cost=-1", "weight 'cost' must be a finite number >= 0"),
        ("--weights", "cost", "'cost' is not KEY=NUMBER"),
        ("--siting-reading", "bank_first", "invalid choice: 'bank_first'"),
    ],
)
def test_site_refuses_a_bad_reading_or_weight_naming_it(
    run, tmp_path, capsys, option, value, message
):
    out, _ = run
    try:  # argparse refuses a malformed value (SystemExit 2); site refuses a bad key or number
        code = _cli("site", out / "assessed.gpkg", "--out-dir", tmp_path / "siting", option, value)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "siting" / "allocation.csv").exists()


def test_strict_exits_3_when_a_row_is_not_assessed_and_still_writes(tmp_path, capsys):
    path = tmp_path / "impacts.gpkg"
    _layer([box(X0, Y0, X0 + 20, Y0 + 20), Point(X0, Y0)]).to_file(path)
    args = ["assess", path, "--context", CONTEXT, "--out", tmp_path / "o.gpkg", "--quiet"]
    assert _cli(*args) == 0
    assert _cli(*args, "--strict") == 3
    assert "--strict: 1 row(s) not assessed" in capsys.readouterr().err
    assert len(gpd.read_file(tmp_path / "o.gpkg", layer="impacts")) == 2
    assert _cli("map", tmp_path / "o.gpkg", "--out", tmp_path / "m.html", "--strict") == 3
    _layer([box(X0, Y0, X0 + 20, Y0 + 20)]).to_file(tmp_path / "good.gpkg")
    assert (
        _cli(
            "assess",
            tmp_path / "good.gpkg",
            "--context",
            CONTEXT,
            "--out",
            tmp_path / "g.gpkg",
            "--quiet",
            "--strict",
        )
        == 0
    )


def test_an_internal_error_prints_a_short_message_and_saves_the_traceback(
    tmp_path, capsys, monkeypatch
):
    from wetland_gis import commands

    def broken(args):
        raise ValueError("a defect deep inside")

    monkeypatch.setattr(commands, "run_command", broken)
    monkeypatch.setenv("WETLAND_GIS_TRACEBACK_DIR", str(tmp_path / "tb"))
    code = _cli("map", tmp_path / "a.gpkg", "--out", tmp_path / "m.html")
    assert code == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "internal error (ValueError: a defect deep inside)" in err
    saved = list((tmp_path / "tb").iterdir())
    assert len(saved) == 1 and str(saved[0]) in err
    assert "Traceback (most recent call last)" in saved[0].read_text()
    assert "a defect deep inside" in saved[0].read_text()


def test_an_unwritable_output_is_an_input_error_naming_the_path(tmp_path, capsys, monkeypatch):
    from wetland_gis import commands

    def denied(args):
        raise PermissionError(13, "Permission denied", str(tmp_path / "locked.gpkg"))

    monkeypatch.setattr(commands, "run_command", denied)
    assert _cli("map", tmp_path / "a.gpkg", "--out", tmp_path / "m.html") == 2
    err = capsys.readouterr().err
    assert "locked.gpkg: Permission denied" in err


@pytest.mark.parametrize(
    ("option", "content", "message"),
    [
        ("--banks", "", "is empty"),
        ("--banks", "foo,bar\n1,2\n", "lacks column"),
        ("--adjustments", "foo,bar\n1,2\n", "not in the format of"),
        ("--dem", "foo,bar\n", "cannot read raster"),
    ],
    ids=[
        "empty-bank-csv",
        "bank-csv-without-columns",
        "adjustments-not-yaml-tables",
        "dem-not-a-raster",
    ],
)
def test_site_on_a_hostile_option_file_is_one_line_and_exit_2(
    run, tmp_path, capsys, option, content, message
):
    out, _ = run
    bad = tmp_path / "bad.csv"
    bad.write_text(content)
    extra = ["--sites", CROW_WING / "candidate_sites.gpkg"] if option == "--dem" else []
    code = _site(out / "assessed.gpkg", tmp_path / "siting", option, bad, *extra)
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.csv" in err[0] and message in err[0]


def test_site_tells_apart_impacts_with_a_repeated_or_blank_id(tmp_path, capsys):
    # found by the fuzz suite: assess decides every row of repeated ids (flagged), then
    # site refused them with "give a unique id field (id_field=...)", an option it lacks
    path = tmp_path / "impacts.gpkg"
    _layer(
        [box(X0 + 100 * k, Y0, X0 + 100 * k + 20, Y0 + 20) for k in range(3)],
        impact_id=["A", "A", None],
    ).to_file(path)
    assert _cli("assess", path, "--context", CONTEXT, "--out", tmp_path / "a.gpkg", "--quiet") == 0
    assert _site(tmp_path / "a.gpkg", tmp_path / "siting", "--banks", BANKS) == 0
    plan = pd.read_csv(tmp_path / "siting" / "allocation.csv")
    trace = json.loads((tmp_path / "a_decisions.json").read_text())
    decided = {step["impact_id"] for step in trace if step["impact_id"]}
    assert sorted(set(plan["impact_id"])) == sorted(decided) == ["#3", "A#1", "A#2"]
    manifest = json.loads((tmp_path / "siting" / "siting_manifest.json").read_text())
    assert any("repeated or blank id" in r for r in manifest["records"])


def test_ctrl_c_exits_130_saying_no_output_was_changed(tmp_path, capsys, monkeypatch):
    from wetland_gis import commands

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(commands, "run_command", interrupted)
    assert _cli("report", tmp_path / "a.gpkg", "--out", tmp_path / "r.html") == 130
    assert "interrupted; no output was changed" in capsys.readouterr().err


def test_run_options_are_one_reusable_piece():
    import argparse

    from wetland_gis.cli import add_run_options, run_guarded
    from wetland_gis.commands import CommandResult, Tally

    parser = argparse.ArgumentParser()
    add_run_options(parser)
    args = parser.parse_args(["--strict", "--overwrite"])
    assert args.strict and args.overwrite
    tally = Tally("water-use", rows_read=2, assessed=1, not_assessed={"no well id": 1})
    assert run_guarded("water-use", lambda: CommandResult([], tally), strict=True) == 3
    assert run_guarded("water-use", lambda: CommandResult([], tally)) == 0


@pytest.mark.parametrize("ext", [".gpkg", ".shp"])
def test_rows_with_absurd_coordinates_are_written_as_wkt_and_mapped_without_a_crash(
    tmp_path, capsys, ext
):
    # found by the fuzz suite: a shapefile refused the row ("non-finite values are not
    # allowed") and the map died in GEOS ("Non-finite envelope bounds")
    path = tmp_path / "impacts.gpkg"
    _layer(
        [box(1e300, 1e300, 2e300, 2e300), Point(1e300, 1e300), box(X0, Y0, X0 + 20, Y0 + 20)]
    ).to_file(path)
    out = tmp_path / f"assessed{ext}"
    assert _cli("assess", path, "--context", CONTEXT, "--out", out, "--quiet") == 0
    back = gpd.read_file(out, layer="impacts" if ext == ".gpkg" else None)
    assert back.geometry.isna().tolist() == [True, True, False]
    wkt = back["wg_input_wkt" if ext == ".gpkg" else "wg_input_w"]
    assert wkt.iloc[0].startswith("POLYGON ((2e+300") and wkt.iloc[1].startswith("POINT")
    if ext == ".gpkg":
        assert _cli("map", out, "--out", tmp_path / "m.html") == 0
        assert _cli("report", out, "--out", tmp_path / "r.html") == 0
    assert "Traceback" not in capsys.readouterr().err
