"""The decision register (issue 22) on both back ends: schema, append-only, version, add,
import, query, export, summary, and `assess --register` (§ 103G.2241, subd. 9(f))."""

# ruff: noqa: F811  (the fixtures are imported from register_fixtures)
from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
import sqlalchemy as sa
from helpers import CONTEXT, assess_cli, run_cli
from register_fixtures import (  # noqa: F401
    decision_record,
    new_postgis_db,
    postgis_server,
    register_url,
)
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.errors import InputError, WetlandGISWarning
from wetland_gis.register import (
    CreditRecord,
    ImpactRecord,
    Register,
    RegisterError,
    RegisterVersionError,
)
from wetland_gis.register.records import (
    annual_summary,
    default_valid_until,
    read_decisions_csv,
    summary_html,
)
from wetland_gis.register.store import SLEEP_HOOK_ENV

ROOT = Path(__file__).resolve().parents[1]
CROW_WING = ROOT / "sample_data" / "projects" / "crow_wing" / "impacts.gpkg"
AS_OF = "2024-05-01"
FT = 0.3048
HOSTILE = [
    "{{ 7*7 }}{% include '/etc/passwd' %}",
    "<script>alert(1)</script>",
    '=HYPERLINK("http://x","y")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "'; DROP TABLE decisions; --",
    "é ü 中文 \u202e",
    "x" * 20_000,
]


def _decision(**kw):
    return decision_record(
        **{"kind": "exemption", "decision_date": dt.date(2020, 6, 1), "lgu": "Crow Wing SWCD", **kw}
    )


def _impact(iid="old", area=2000.0, date=dt.date(2003, 6, 1), **kw):
    return ImpactRecord(
        impact_id=iid,
        landowner=kw.pop("landowner", "X"),
        wetland_id=kw.pop("wetland_id", "w1"),
        area_sqft=area,
        impact_date=date,
        **kw,
    )


def test_a_decision_round_trips_with_impacts_credits_and_geometry(register_url):
    reg = Register(register_url).init()
    wet = box(400_000, 5_100_000, 400_100, 5_100_100)
    uid = reg.add(
        _decision(
            landowner="X",
            wetland_id="w1",
            geometry=wet,
            citations=["Minn. Stat. § 103G.2241, subd. 9"],
            trace=[{"rule_id": "de_minimis.total", "value": 9000.0}],
            manifest_sha256="ab" * 32,
            impacts=[_impact(geometry=box(400_000, 5_100_000, 400_010, 5_100_010))],
            credits=[CreditRecord(bank="B-1", account="07", credits_acres=0.25)],
        )
    )
    d = reg.decisions().iloc[0]
    assert d["decision_uid"] == uid and d["decision_date"] == dt.date(2020, 6, 1)
    assert d["geometry"].equals(wet.buffer(0)) or d["geometry"].area == pytest.approx(wet.area)
    assert json.loads(d["trace"])[0]["rule_id"] == "de_minimis.total"
    i = reg.impacts().iloc[0]
    assert i["area_sqft"] == 2000.0 and i["impact_date"] == dt.date(2003, 6, 1)
    assert i["geometry"].area == pytest.approx(100.0)
    assert reg.credits().iloc[0][["bank", "account"]].tolist() == ["B-1", "07"]


def test_update_and_delete_are_refused_and_a_correction_supersedes(register_url):
    reg = Register(register_url).init()
    old = reg.add(_decision(impacts=[_impact()]))
    for sql in (
        "UPDATE impacts SET area_sqft = 1",
        "DELETE FROM decisions",
        "UPDATE register_meta SET value = '9'",
    ):
        with pytest.raises(sa.exc.DBAPIError, match="append-only"):
            with reg.engine.begin() as conn:
                conn.exec_driver_sql(sql)
    new = reg.add(_decision(supersedes=old, impacts=[_impact(area=2500.0)]))
    frame = reg.decisions()
    assert frame.set_index("decision_uid").loc[old, "superseded_by"] == new
    _, impacts = reg.history("X", "w1")
    assert impacts["area_sqft"].tolist() == [2500.0]  # the corrected record counts, once
    with pytest.raises(RegisterError, match="not in the register"):
        reg.add(_decision(supersedes="nope"))


def test_a_newer_schema_version_is_refused_with_the_upgrade_command(register_url, capsys):
    from wetland_gis.register import SCHEMA_VERSION

    reg = Register(register_url).init()
    assert reg.check_version() == SCHEMA_VERSION
    newer = SCHEMA_VERSION + 1
    with reg.engine.begin() as conn:  # as a newer wetland_gis would have migrated it
        if reg.backend == "postgis":
            conn.exec_driver_sql(
                "ALTER TABLE register_meta DISABLE TRIGGER register_meta_append_only"
            )
        else:
            conn.exec_driver_sql("DROP TRIGGER register_meta_no_update")
        conn.exec_driver_sql(
            f"UPDATE register_meta SET value = '{newer}' WHERE key = 'schema_version'"
        )
    with pytest.raises(RegisterVersionError, match="wetland-gis register upgrade"):
        Register(register_url).decisions()
    with pytest.raises(RegisterVersionError):
        Register(register_url).add(_decision())
    with pytest.raises(RegisterVersionError, match="newer"):  # upgrade cannot go back
        Register(register_url).upgrade()
    assert main(["register", "query", "--register", register_url]) == 2
    assert f"newer than version {SCHEMA_VERSION}" in capsys.readouterr().err


def test_a_missing_register_is_an_error_and_no_file_is_created(tmp_path):
    path = tmp_path / "none.gpkg"
    with pytest.raises(RegisterError, match="no register at .*register init"):
        Register(path).decisions()
    assert not path.exists()


def test_init_refuses_a_file_that_is_not_a_register(tmp_path):
    other = tmp_path / "mine.gpkg"
    gpd.GeoDataFrame({"a": [1]}, geometry=[box(0, 0, 1, 1)], crs=26915).to_file(other)
    before = other.read_bytes()
    with pytest.raises(RegisterError, match="not a wetland_gis register"):
        Register(other).init()
    assert other.read_bytes() == before


@pytest.mark.qgis
def test_qgis_opens_the_geopackage_register(tmp_path):
    from test_qgis import _open_in_qgis, _require_qgis

    _require_qgis()
    path = tmp_path / "register.gpkg"
    reg = Register(path).init()
    reg.add(_decision(geometry=box(0, 0, 50, 50), impacts=[_impact(geometry=box(0, 0, 10, 10))]))
    reg.close()
    got = _open_in_qgis([(path, "decisions"), (path, "impacts"), (path, "credits")])
    assert got["decisions"]["valid"] and got["decisions"]["count"] == 1
    assert got["impacts"]["valid"] and got["impacts"]["crs"] == "EPSG:26915"
    assert got["credits"]["valid"] and got["credits"]["count"] == 0


def test_the_geopackage_register_is_read_by_gdal_as_layers_in_epsg_26915(tmp_path):
    import pyogrio

    path = tmp_path / "register.gpkg"
    Register(path).init().add(_decision(impacts=[_impact(geometry=box(0, 0, 10, 10))]))
    layers = dict(pyogrio.list_layers(path))
    assert layers["impacts"] == "MultiPolygon" and layers["decisions"] == "MultiPolygon"
    imp = gpd.read_file(path, layer="impacts")
    assert imp.crs.to_epsg() == 26915 and imp.geometry.iloc[0].area == pytest.approx(100)


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        pytest.param(
            "boundary_type_determination",
            dt.date(2025, 6, 1),
            id="§ 103G.2242 subd. 2a(d): five years",
        ),
        pytest.param("exemption", None, id="no validity in the law for an exemption"),
        pytest.param("replacement_plan_approved", None, id="no validity in the law for a plan"),
    ],
)
def test_validity_where_the_law_gives_one(kind, expected):
    assert default_valid_until(kind, dt.date(2020, 6, 1))[0] == expected


def test_a_determination_is_valid_on_its_last_day_and_not_the_next(register_url):
    reg = Register(register_url).init()
    until, _ = default_valid_until("boundary_type_determination", dt.date(2019, 5, 1))
    reg.add(
        _decision(
            kind="boundary_type_determination",
            decision_date=dt.date(2019, 5, 1),
            valid_until=until,
            wetland_id="w1",
            determined_type="3",
        )
    )
    on_day = _assess(_layer(), register=reg, as_of=until.isoformat())
    after = _assess(_layer(), register=reg, as_of=(until + dt.timedelta(days=1)).isoformat())
    assert on_day.impacts["wetland_type"].item() == "3"
    assert "the determination's type was used" in on_day.impacts["verify"].item()
    assert after.impacts["wetland_type"].item() == "2"


# -- assess --register ---------------------------------------------------------------------


def _layer(**extra):
    c1 = gpd.read_file(CROW_WING).geometry.iloc[0].centroid
    side = 9000**0.5 * FT  # 9,000 sq ft of type 2 in Crow Wing County: subd. 9(a)(1), 10,000
    cols = {
        "impact_id": ["A"],
        "circ39": ["2"],
        "owner": ["X"],
        "wetland_id": ["w1"],
        "owns_whole": ["yes"],
        "portion_sq": [20_000],
    }
    cols.update(extra)
    return gpd.GeoDataFrame(cols, geometry=[box(c1.x, c1.y, c1.x + side, c1.y + side)], crs=26915)


def _assess(gdf, context=CONTEXT, **kw):
    """Assess ``gdf`` on the sample context (its path, or the loaded ``sample_context``)."""
    kw.setdefault("as_of", AS_OF)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return wg.assess(gdf, context, fields={"portion_sqft": "portion_sq"}, **kw)


@pytest.mark.parametrize(
    ("date", "expected"),
    [
        pytest.param(
            dt.date(1992, 1, 1), "replacement_required", id="subd. 9(f): a 1992-01-01 fill counts"
        ),
        pytest.param(
            dt.date(2003, 6, 1), "replacement_required", id="subd. 9(f): a 2003 fill counts"
        ),
        pytest.param(
            dt.date(1991, 12, 31), "de_minimis_exempt", id="subd. 9(f): a 1991 fill does not count"
        ),
    ],
)
def test_assess_register_changes_the_9f_answer_only_for_fills_since_1992(
    register_url, date, expected, sample_context
):
    # 9,000 sq ft now + 2,000 sq ft before = 11,000 > 10,000, the greatest of (f)(1)-(3)
    assert _assess(_layer(), sample_context).impacts["outcome"].item() == "de_minimis_exempt"
    reg = Register(register_url).init()
    uid = reg.add(_decision(impacts=[_impact(date=date)]))
    a = _assess(_layer(), sample_context, register=reg)
    assert a.impacts["outcome"].item() == expected
    step = a.trace[a.trace["rule_id"] == "facts.register"].iloc[0]
    inputs = step["inputs"]
    used = inputs["counted"] if expected != "de_minimis_exempt" else inputs["excluded"]
    assert [r["decision_uid"] for r in used] == [uid]
    if expected == "de_minimis_exempt":
        assert "before 1992-01-01" in inputs["excluded"][0]["why"] and inputs["counted"] == []
    assert step["parameters"]["de_minimis.cumulative.since"] == "1992-01-01"


def test_another_wetland_in_the_register_is_not_counted(register_url, sample_context):
    reg = Register(register_url).init()
    reg.add(_decision(impacts=[_impact(iid="o2", wetland_id="w2")]))
    a = _assess(_layer(), sample_context, register=reg)
    assert a.impacts["outcome"].item() == "de_minimis_exempt"


def test_subd_9f_a_previous_owners_fill_of_the_portion_counts(register_url, sample_context):
    # issue 32, item 8: "the cumulative area drained or filled of the landowner's portion
    # since January 1, 1992" is the portion's history, whoever drained or filled it
    reg = Register(register_url).init()
    reg.add(_decision(impacts=[_impact(landowner="Y")]))
    a = _assess(_layer(), sample_context, register=reg)
    assert a.impacts["outcome"].item() == "replacement_required"


def test_a_layer_value_that_disagrees_with_the_register_is_a_verify_item(
    register_url, sample_context
):
    reg = Register(register_url).init()
    reg.add(_decision(impacts=[_impact()]))
    a = _assess(_layer(prior_sqft=[0]), sample_context, register=reg)
    assert a.impacts["outcome"].item() == "replacement_required"  # the larger, 2,000
    assert "the register 2,000 sq ft" in a.impacts["verify"].item()


def test_a_banked_wetland_in_the_register_has_no_exemption(register_url, sample_context):
    reg = Register(register_url).init()
    reg.add(_decision(kind="wetland_banking", wetland_id="w1", banked=True))
    a = _assess(_layer(), sample_context, register=reg)
    assert a.impacts["outcome"].item() == "replacement_required"
    b = _assess(_layer(banked=["no"]), sample_context, register=reg)
    assert b.impacts["outcome"].item() == "replacement_required"
    assert "banked: the impact layer says False, the register True" in b.impacts["verify"].item()


@pytest.mark.slow
@pytest.mark.postgis
def test_the_manifest_names_the_register_by_id_never_by_url(tmp_path, postgis_server):
    url = new_postgis_db(postgis_server).replace("not-the-password", "s3cr3t-PW")
    reg = Register(url).init()
    out = tmp_path / "out.gpkg"
    code = assess_cli(
        _write(_layer(), tmp_path), CONTEXT, out, "--as-of", AS_OF, "--register", url, "--quiet"
    )
    assert code == 0
    text = "".join(p.read_text("utf-8", errors="replace") for p in tmp_path.glob("out*.json"))
    assert reg.register_id in text
    for secret in ("s3cr3t-PW", url, "wg:"):
        assert secret not in text
    bad = url.replace("s3cr3t-PW", "s3cr3t-PW") + "&connect_timeout=1"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "wetland_gis.cli",
            "register",
            "query",
            "--register",
            bad.replace("port=", "port=1"),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert res.returncode == 2 and "s3cr3t-PW" not in res.stderr + res.stdout


def _write(gdf, folder):
    path = folder / "impacts_in.gpkg"
    gdf.to_file(path)
    return path


# -- CLI, import, export, summary --------------------------------------------------------------


def _cli(*argv, env=None, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "wetland_gis.cli", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def assessed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("assessed")
    out = folder / "cw.gpkg"
    assert assess_cli(CROW_WING, CONTEXT, out, "--as-of", AS_OF, "--quiet") == 0
    return out


@pytest.mark.slow
def test_add_from_an_assessed_geopackage_keeps_trace_and_manifest_hash(register_url, assessed):
    from wetland_gis.io.checksums import file_sha256

    assert main(["register", "init", "--register", register_url]) == 0
    assert (
        run_cli(
            "register",
            "add",
            assessed,
            "--register",
            register_url,
            "--kind",
            "replacement_plan_approved",
            "--date",
            "2024-06-01",
            "--lgu",
            "Crow Wing County",
            "--recorded-by",
            "A",
            "--landowner",
            "X",
            "--wetland",
            "w1",
            "--bank",
            "B",
            "--account",
            "1",
            "--credits-acres",
            "0.54",
        )
        == 0
    )
    reg = Register(register_url)
    d = reg.decisions().iloc[0]
    assert d["manifest_sha256"] == file_sha256(assessed.with_name("cw_manifest.json"))
    assert {s["rule_id"] for s in json.loads(d["trace"])} >= {"de_minimis.total"}
    assert len(reg.impacts()) == 2
    s = annual_summary(reg, 2024)
    assert s["decisions_replacement_plan_approved"].item() == 1
    assert s["replaced_acres"].item() == pytest.approx(0.5378, abs=1e-3)
    assert s["credits_withdrawn_acres"].item() == pytest.approx(0.54)
    assert annual_summary(reg, 2023).empty


BANKS = ROOT / "sample_data" / "synthetic_bank_credits.csv"
ADD = ["--kind", "replacement_plan_approved", "--date", "2024-06-01", "--lgu", "Crow Wing County"]


@pytest.fixture(scope="module")
def sited(assessed, tmp_path_factory):
    """The Crow Wing assessment sited on the sample bank listing (`wetland-gis site`)."""
    folder = tmp_path_factory.mktemp("sited") / "siting"
    code = main(
        ["site", str(assessed), "--banks", str(BANKS), "--context", str(CONTEXT)]
        + ["--out-dir", str(folder), "--quiet"]
    )
    assert code == 0
    return folder


def test_add_after_site_records_the_bank_credits_the_plan_allocated(assessed, sited, tmp_path):
    """Issue 30: `register add` after `site` recorded credits_withdrawn_acres 0."""
    register = str(tmp_path / "register.gpkg")
    assert main(["register", "init", "--register", register]) == 0
    argv = ["register", "add", str(assessed), "--register", register, *ADD]
    assert main([*argv, "--recorded-by", "A", "--siting", str(sited)]) == 0
    plan = pd.read_csv(sited / "allocation.csv")
    banks = plan[plan["option_kind"] == "bank"]
    assert banks["credits"].sum() > 0
    reg = Register(register)
    credits = reg.credits()
    # one record per account, with the listing's bank name and account
    listing = pd.read_csv(BANKS, dtype=str).set_index("account")
    expected = banks.groupby(banks["option_id"].astype(str))["credits"].sum()
    assert sorted(credits["account"]) == sorted(expected.index)
    for row in credits.itertuples():
        assert row.bank == listing.loc[row.account, "bank_name"]
        assert row.credits_acres == pytest.approx(expected[row.account])
    s = annual_summary(reg, 2024)
    assert s["credits_withdrawn_acres"].item() == pytest.approx(banks["credits"].sum(), abs=1e-4)
    assert s["credits_withdrawn_acres"].item() > 0
    reg.close()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            {"kind": "exemption"}, "a exemption decision withdraws none", id="an exemption"
        ),
        pytest.param({"bank": "B"}, "not both", id="--siting and --bank"),
        pytest.param({"sha256": "0" * 64}, "SHA-256 differs", id="sited another assessment"),
        pytest.param({"folder": "nowhere"}, "not a folder written by", id="not a siting"),
    ],
)
def test_add_with_siting_refuses_with_the_reason(
    assessed, sited, tmp_path, capsys, change, message
):
    import shutil

    register = str(tmp_path / "register.gpkg")
    assert main(["register", "init", "--register", register]) == 0
    folder = tmp_path / "siting"
    shutil.copytree(sited, folder)
    if "sha256" in change:
        m = json.loads((folder / "siting_manifest.json").read_text("utf-8"))
        m["inputs"][0]["sha256"] = change["sha256"]
        (folder / "siting_manifest.json").write_text(json.dumps(m), "utf-8")
    if "folder" in change:
        folder = tmp_path / change["folder"]
    add = [*ADD, "--recorded-by", "A", "--siting", str(folder)]
    if "kind" in change:
        add[1] = change["kind"]
    if "bank" in change:
        add += ["--bank", change["bank"], "--account", "1"]
    capsys.readouterr()
    assert main(["register", "add", str(assessed), "--register", register, *add]) == 2
    assert message in capsys.readouterr().err
    reg = Register(register)
    assert reg.decisions().empty  # nothing recorded
    reg.close()


CSV_OK = """\
decision,kind,decision_date,lgu,recorded_by,landowner,wetland_id,impact_id,impact_date,area_sqft,exemption
d1,exemption,2010-03-01,LGU A,clerk,X,w1,f1,1991-05-01,1500,de_minimis
d1,exemption,2010-03-01,LGU A,clerk,X,w1,f2,2003-05-01,300,de_minimis
,replacement_plan_denied,2010-04-01,LGU B,clerk,Y,w2,f3,,900,
"""


def test_import_groups_rows_into_decisions_and_the_summary_counts_them(register_url, tmp_path):
    csv = tmp_path / "past.csv"
    csv.write_text(CSV_OK, encoding="utf-8")
    assert main(["register", "init", "--register", register_url]) == 0
    assert main(["register", "import", str(csv), "--register", register_url]) == 0
    reg = Register(register_url)
    assert len(reg.decisions()) == 2 and len(reg.impacts()) == 3
    s = annual_summary(reg, 2010).set_index("lgu")
    assert s.loc["LGU A", "exempt_sqft_de_minimis"] == 1800.0
    assert s.loc["LGU B", "impacted_sqft"] == 0.0  # a denied plan drained or filled nothing
    assert "<table" in summary_html(s.reset_index(), 2010)


IMPORT_ERRORS = [
    pytest.param(
        ",exemption,2010-13-01,L,c,X,w1,f1,,10,",
        "row 2, column 'decision_date'.*YYYY-MM-DD",
        id="bad date",
    ),
    pytest.param(
        ",fill,2010-01-01,L,c,X,w1,f1,,10,", "row 2, column 'kind'.*one of", id="unknown kind"
    ),
    pytest.param(
        ",exemption,2010-01-01,L,c,X,w1,f1,,ten,",
        "row 2, column 'area_sqft'",
        id="area not a number",
    ),
    pytest.param(
        ",exemption,2010-01-01,L,c,X,w1,f1,,-1,",
        "row 2, column 'area_sqft'.*0 or more",
        id="negative area",
    ),
    pytest.param(
        ",exemption,2010-01-01,,c,X,w1,f1,,10,", "row 2, column 'lgu'.*blank", id="no LGU"
    ),
]
IMPORT_ERROR_IDS = [p.id for p in IMPORT_ERRORS]


@pytest.mark.parametrize(("row", "match"), IMPORT_ERRORS)
def test_import_errors_name_file_row_column_and_fix(tmp_path, row, match):
    csv = tmp_path / "bad.csv"
    csv.write_text(CSV_OK.splitlines()[0] + "\n" + row + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=match):
        read_decisions_csv(csv)


@pytest.mark.slow
@pytest.mark.parametrize("row", [p.values[0] for p in IMPORT_ERRORS], ids=IMPORT_ERROR_IDS)
def test_import_errors_exit_2_on_the_command_line(tmp_path, row):
    csv = tmp_path / "bad.csv"
    csv.write_text(CSV_OK.splitlines()[0] + "\n" + row + "\n", encoding="utf-8")
    assert (
        _cli("register", "import", str(csv), "--register", str(tmp_path / "r.gpkg")).returncode == 2
    )


def test_query_by_landowner_wetland_date_and_place(register_url):
    reg = Register(register_url).init()
    a = reg.add(
        _decision(landowner="X", wetland_id="w1", impacts=[_impact(geometry=box(0, 0, 10, 10))])
    )
    b = reg.add(
        _decision(
            decision_date=dt.date(2022, 1, 1),
            landowner="Y",
            wetland_id="w2",
            impacts=[_impact(landowner="Y", wetland_id="w2", geometry=box(100, 100, 110, 110))],
        )
    )
    assert reg.decisions(landowner="X")["decision_uid"].tolist() == [a]
    assert reg.decisions(wetland_id="w2")["decision_uid"].tolist() == [b]
    assert reg.decisions(since=dt.date(2021, 1, 1))["decision_uid"].tolist() == [b]
    assert reg.decisions(bbox=(5, 5, 6, 6))["decision_uid"].tolist() == [a]
    assert reg.decisions(bbox=(50, 50, 60, 60)).empty
    assert reg.decisions(place=box(105, 105, 200, 200))["decision_uid"].tolist() == [b]


def _unquote(cell: str) -> str:
    """Undo the export's apostrophe before a cell a spreadsheet would take for a formula."""
    from wetland_gis.io.csv_cells import restore

    return restore(cell)


def test_hostile_text_goes_through_add_import_and_export_as_data(register_url, tmp_path):
    reg = Register(register_url).init()
    for text in HOSTILE:
        reg.add(
            _decision(
                lgu=text, recorded_by=text, note=text, impacts=[_impact(iid=text, exemption=text)]
            )
        )
    got = reg.decisions()
    assert got["note"].tolist() == HOSTILE and len(reg.impacts()) == len(HOSTILE)
    out = tmp_path / "export.csv"
    assert main(["register", "export", "--register", register_url, "--out", str(out)]) == 0
    back = pd.read_csv(out, dtype=str, keep_default_na=False)
    for cell in back["note"]:
        assert not cell.startswith(("=", "+", "@"))  # a spreadsheet shows them as text
    assert sorted(_unquote(c) for c in back["note"]) == sorted(HOSTILE)
    assert not list(tmp_path.glob("passwd*"))
    gpkg = tmp_path / "export.gpkg"
    assert main(["register", "export", "--register", register_url, "--out", str(gpkg)]) == 0
    assert sorted(gpd.read_file(gpkg, layer="decisions")["note"]) == sorted(HOSTILE)
    # the export reads back through import: the same decisions again, as data
    again = read_decisions_csv(out)
    assert sorted(r.note for r in again if r.note) == sorted(HOSTILE)  # import restores
    with pytest.raises(RegisterError, match="NUL"):
        reg.add(_decision(note="a\x00b"))
    assert len(reg.decisions()) == len(HOSTILE)


# -- reliability --------------------------------------------------------------------------------


_ADD = [
    "register",
    "add",
    "{assessed}",
    "--register",
    "{url}",
    "--kind",
    "exemption",
    "--date",
    "2024-06-01",
    "--lgu",
    "L",
    "--recorded-by",
    "{who}",
    "--landowner",
    "X",
    "--wetland",
    "w1",
]


def _add_argv(assessed, url, who):
    return [a.format(assessed=assessed, url=url, who=who) for a in _ADD]


@pytest.mark.slow
def test_two_adds_at_the_same_moment_both_land(register_url, assessed):
    Register(register_url).init()
    n = 4
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "wetland_gis.cli", *_add_argv(assessed, register_url, f"p{k}")],
            env={**os.environ, "PYTHONPATH": str(ROOT), SLEEP_HOOK_ENV: "0.5"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(n)
    ]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * n, results
    reg = Register(register_url)
    assert sorted(reg.decisions()["recorded_by"]) == [f"p{k}" for k in range(n)]
    assert len(reg.impacts()) == 2 * n


@pytest.mark.slow
def test_kill_9_during_add_leaves_no_partial_decision(register_url, assessed):
    Register(register_url).init()
    proc = subprocess.Popen(
        [sys.executable, "-m", "wetland_gis.cli", *_add_argv(assessed, register_url, "killed")],
        env={**os.environ, "PYTHONPATH": str(ROOT), SLEEP_HOOK_ENV: "120"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    # the hook says when the decision row is written inside the open transaction
    line = proc.stderr.readline()
    assert "inside the add transaction" in line, line
    proc.kill()
    proc.wait()
    assert proc.returncode == -9
    after = Register(register_url)
    assert after.decisions().empty and after.impacts().empty
    after.add(_decision(impacts=[_impact()]))  # the register is usable after the kill
    assert len(after.decisions()) == 1


# -- properties of the fill (no database: a register stand-in) ---------------------------------

from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)

from wetland_gis.io.fields import FieldMapping  # noqa: E402
from wetland_gis.parameters import default_parameters  # noqa: E402
from wetland_gis.register.fill import fill_from_register  # noqa: E402


class _History:
    backend = "stand-in"

    def __init__(self, rows):
        self.rows = rows

    def describe(self):
        return {"register_id": "stand-in"}

    def history(self, owner, wetland, *, every_landowner=False):
        cols = [
            "decision_uid",
            "kind",
            "decision_date",
            "valid_until",
            "determined_type",
            "banked",
            "used_for_credit",
        ]
        impacts = pd.DataFrame(
            self.rows,
            columns=[
                "decision_uid",
                "impact_id",
                "impact_date",
                "area_sqft",
                "kind",
                "outcome",
                "impact_kind",
            ],
        )
        return pd.DataFrame(columns=cols), impacts


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.dates(dt.date(1970, 1, 1), dt.date(2030, 1, 1)), st.floats(0, 1e6, allow_nan=False)
        ),
        max_size=8,
    ),
    st.dates(dt.date(2018, 1, 1), dt.date(2029, 1, 1)),
)
def test_the_prior_area_is_the_sum_of_the_impacts_dated_from_1992_to_the_day_before(rows, as_of):
    register = _History(
        [(f"d{k}", f"i{k}", d, a, "exemption", None, "fill") for k, (d, a) in enumerate(rows)]
    )
    layer = pd.DataFrame(
        {"status": ["assessed"], "wetland_type": ["2"], "owner": ["X"], "wetland_id": ["w1"]}
    )
    fmap = FieldMapping(owner="owner", wetland_id="wetland_id")
    filled, fmap, steps, _ = fill_from_register(layer, fmap, register, default_parameters(), as_of)
    expected = sum(a for d, a in rows if dt.date(1992, 1, 1) <= d < as_of)
    assert filled.at[0, fmap.prior_sqft_since_1992] == pytest.approx(expected)
    inputs = steps[0][0][6]
    assert len(inputs["counted"]) + len(inputs["excluded"]) == len(rows)  # every row is listed


@pytest.mark.slow
def test_an_eligible_exemption_of_an_impact_that_needs_replacement_is_not_recorded_exempt(
    tmp_path,
):
    # the Wright sample: W-1 and W-3 are "eligible" for the subd. 10(1)(i) spoil exemption,
    # but the project needs replacement for every impact (subd. 9(e) setback zone)
    from wetland_gis.register.records import decision_from_assessed

    out = tmp_path / "wright.gpkg"
    impacts = ROOT / "sample_data" / "projects" / "wright_metro" / "impacts.shp"
    assert assess_cli(impacts, CONTEXT, out, "--as-of", AS_OF, "--quiet") == 0
    record = decision_from_assessed(
        out, kind="replacement_plan_approved", decision_date=AS_OF, lgu="L", recorded_by="r"
    )
    assert {i.outcome for i in record.impacts} <= {"replacement_required", "prohibited"}
    assert [i.exemption for i in record.impacts] == [None] * len(record.impacts)


def test_a_decision_cites_the_steps_of_its_trace_one_citation_each(tmp_path):
    """§ 103G.2242, subd. 2a: the register records the citations of the decision as data.

    They come from the trace's ``citation`` column, one per step, never from the impacts'
    rendered ``citations`` text split again (issue 33: that text joins a line per step).
    """
    from wetland_gis.io.assessed import read_assessed
    from wetland_gis.io.trace_store import is_not_tried
    from wetland_gis.register.records import decision_from_assessed
    from wetland_gis.register.schema import KIND_CITATIONS

    out = tmp_path / "wright.gpkg"
    impacts = ROOT / "sample_data" / "projects" / "wright_metro" / "impacts.shp"
    argv = ["assess", str(impacts), "--context", str(CONTEXT), "--out", str(out)]
    assert main([*argv, "--as-of", AS_OF, "--quiet"]) == 0
    record = decision_from_assessed(
        out, kind="replacement_plan_approved", decision_date=AS_OF, lgu="L", recorded_by="r"
    )
    trace = read_assessed(out)["trace"]
    of_impacts = {
        c
        for c, iid, rule, outcome in zip(
            trace["citation"], trace["impact_id"], trace["rule_id"], trace["outcome"], strict=True
        )
        if c and iid != "" and not is_not_tried(rule, outcome)
    }
    assert len(of_impacts) > 1
    assert all("\n" not in c and c.strip() == c for c in record.citations), record.citations
    assert of_impacts | {KIND_CITATIONS["replacement_plan_approved"]} <= set(record.citations)
    assert set(record.citations) <= set(trace["citation"]) | set(KIND_CITATIONS.values())
    assert record.citations == sorted(record.citations)


def test_the_command_line_offers_exactly_the_schema_kinds():
    # the CLI names the kinds without importing SQLAlchemy (fast --help): keep them equal
    from wetland_gis.register import DECISION_KINDS
    from wetland_gis.register.cli import _KINDS

    assert _KINDS == DECISION_KINDS


def test_the_register_url_is_taken_out_of_argv_before_any_traceback_can_record_it(
    tmp_path, monkeypatch
):
    from wetland_gis.register.cli import hide_register_url

    url = "postgresql://wg:s3cr3t@/db?host=/tmp"
    monkeypatch.setattr(sys, "argv", ["wetland-gis", "register", "query", "--register", url])
    hide_register_url(type("A", (), {"register": url})())
    assert "s3cr3t" not in " ".join(sys.argv) and "<register>" in sys.argv


@pytest.mark.parametrize(
    ("url", "port"),
    [
        pytest.param("postgresql://u:s3cr3t@127.0.0.1:notaport/reg", "notaport", id="words"),
        pytest.param("postgresql://u:s3cr3t@[::1]:54x2/reg", "54x2", id="IPv6 host"),
    ],
)
def test_a_register_url_with_a_bad_port_is_an_input_error_naming_the_port(url, port, capsys):
    # issue 30: SQLAlchemy's int() of the port was an internal error (exit 1)
    assert main(["register", "init", "--register", url]) == 2
    err = capsys.readouterr().err
    assert f"port {port!r} is not a number" in err and "s3cr3t" not in err
    assert err.count("\n") == 1
