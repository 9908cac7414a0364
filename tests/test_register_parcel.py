"""§ 103G.2241, subd. 9(f) read by the landowner's portion (issue 32, item 8): the parcel id.

"This exemption no longer applies to a landowner's portion of a wetland when the cumulative
area drained or filled of the landowner's portion since January 1, 1992, is the greatest of:
(1) the applicable area listed in paragraph (a), (b), or (c), if the landowner owns the
entire wetland; (2) five percent of the landowner's portion of the wetland; or (3) 400
square feet."

The portion's history counts whoever drained or filled it (a previous owner's fills count);
fills on another landowner's parcel of the same wetland do not. Where the impact or a
register row has no parcel id, the whole-wetland reading counts them (never fewer square
feet), with a verify item. The register's schema version 2 holds the parcel id; the
migration from version 1 keeps every row and the append-only protection.
"""

# ruff: noqa: F811  (the fixtures are imported from register_fixtures)
from __future__ import annotations

import datetime as dt
import itertools
import threading
import warnings

import geopandas as gpd
import pytest
import sqlalchemy as sa
from helpers import AS_OF, CONTEXT, FT, ROOT, fill_fact
from hypothesis import example, given, strategies as st
from register_fixtures import (  # noqa: F401
    STEP_FIELDS,
    classified_frame,
    decisions_from_csv,
    new_postgis_db,
    postgis_server,
    register_url,
)
from shapely.geometry import box

from wetland_gis.cli import main
from wetland_gis.register import (
    SCHEMA_VERSION,
    DecisionRecord,
    ImpactRecord,
    Register,
    RegisterUpgradeRequired,
    schema as s,
)
from wetland_gis.register.fill import PORTION_BASES, portion_basis


def _decision(wetland, rows, **kw):
    """One decision of 2003 with impacts ``(landowner, parcel, sq ft)`` on ``wetland``."""
    base = dict(kind="exemption", decision_date=dt.date(2003, 6, 1), lgu="L", recorded_by="R")
    base.update(kw)
    return DecisionRecord(
        **base,
        impacts=[
            ImpactRecord(
                impact_id=f"{wetland}-{n}",
                landowner=owner,
                wetland_id=wetland,
                parcel_id=parcel,
                area_sqft=float(area),
                impact_date=dt.date(2003, 6, 1),
                impact_kind="fill",
            )
            for n, (owner, parcel, area) in enumerate(rows)
        ],
    )


def _fill(register, as_of=AS_OF, **columns):
    """Run the register fill on a classified layer; return (layer, {row: step})."""
    from wetland_gis.io.fields import resolve_fields
    from wetland_gis.parameters import default_parameters
    from wetland_gis.register.fill import fill_from_register

    rows = len(next(iter(columns.values())))
    frame = classified_frame(rows, **columns)
    out, _, steps, _ = fill_from_register(
        frame, resolve_fields(frame), register, default_parameters(), dt.date.fromisoformat(as_of)
    )
    return out, {i: dict(zip(STEP_FIELDS, steps[i][0], strict=True)) for i in steps}


@pytest.fixture(scope="module")
def register(tmp_path_factory):
    """One GeoPackage register for the module (append-only: each case its own wetland)."""
    return Register(tmp_path_factory.mktemp("reg") / "register.gpkg").init()


# --- the portion: which register rows count (subd. 9(f)) -----------------------------------

#: The register rows of the cases (landowner, parcel, sq ft): a previous owner's fill on
#: parcel P-1 and another landowner's (Y) on parcel P-2 of the same wetland.
PREVIOUS_ON_P1 = ("Previous owner", "P-1", 2000)
Y_ON_P2 = ("Y", "P-2", 5000)
#: The impact of most cases: landowner X on parcel P-1, not the owner of the whole wetland.
X_ON_P1 = dict(owner="X", parcel="P-1", owns="no")

PORTION_CASES = [
    pytest.param(
        [PREVIOUS_ON_P1],
        X_ON_P1,
        2000.0,
        {"same_parcel"},
        None,
        id="9(f): a previous owner's fill on the same parcel counts",
    ),
    pytest.param(
        [Y_ON_P2],
        X_ON_P1,
        0.0,
        set(),
        "with them the prior area would be 5,000 sq ft",
        id="9(f): another landowner's fill on another parcel of the same wetland does not count",
    ),
    pytest.param(
        [PREVIOUS_ON_P1, Y_ON_P2],
        dict(owner="X", parcel=None, owns="no"),
        7000.0,
        {"no_parcel_on_impact"},
        "the impact has no parcel id (column parcel_id)",
        id="9(f): an impact without a parcel id counts every fill of the wetland",
    ),
    pytest.param(
        [("Y", None, 700), Y_ON_P2],
        X_ON_P1,
        700.0,
        {"no_parcel_on_row"},
        "register drains or fills without a parcel id were counted",
        id="9(f): a register row without a parcel id (schema version 1) counts",
    ),
    pytest.param(
        [("X", "P-3", 600)],
        X_ON_P1,
        600.0,
        {"same_landowner"},
        "confirm the landowner still owns them",
        id="9(f): the landowner's own fill on another parcel of the wetland counts",
    ),
    pytest.param(
        [Y_ON_P2],
        dict(owner="X", parcel="P-1", owns="yes"),
        5000.0,
        {"owns_whole"},
        None,
        id="9(f)(1): the landowner owns the whole wetland: a fill on any parcel counts",
    ),
    pytest.param(
        [PREVIOUS_ON_P1, Y_ON_P2],
        dict(owner=None, parcel="P-1", owns=None),
        2000.0,
        {"same_parcel"},
        "with them the prior area would be 7,000 sq ft",
        id="9(f): no owner on the impact: the parcel still decides the portion",
    ),
]


@pytest.mark.parametrize(("rows", "impact", "prior", "bases", "said"), PORTION_CASES)
def test_subd_9f_the_portion_is_the_landowners_parcel_whoever_filled_it(
    register, request, rows, impact, prior, bases, said
):
    wetland = f"W{request.node.callspec.id[:40]}"
    register.add(_decision(wetland, rows))
    out, steps = _fill(
        register,
        wetland_id=[wetland],
        owner=[impact["owner"]],
        parcel_id=[impact["parcel"]],
        owns_whole=[impact["owns"]],
    )
    step = steps[0]
    assert out.at[0, "register_prior_sqft_since_1992"] == prior
    assert {r["basis"] for r in step["inputs"]["counted"]} == bases
    excluded = {r["basis"] for r in step["inputs"]["excluded"]}
    assert excluded <= {"other_portion"}
    assert step["inputs"]["whole_wetland_sqft"] == sum(float(a) for _, _, a in rows)
    verify = " ".join(step["verify"])
    if said is None:
        assert "parcel" not in verify
    else:
        assert said in verify
    reading = "whole_wetland" if impact["owns"] == "yes" or impact["parcel"] is None else "parcel"
    assert step["inputs"]["portion_by"] == reading
    assert ("on the landowner's portion (parcel P-1)" in step["reason"]) is (reading == "parcel")


def test_subd_9f_another_parcels_fill_is_listed_with_the_split_warning_of_9h(register):
    register.add(_decision("W-9h", [Y_ON_P2]))
    _, steps = _fill(register, wetland_id=["W-9h"], owner=["X"], parcel_id=["P-1"])
    (item,) = [v for v in steps[0]["verify"] if "other landowners' parcels" in v]
    assert "W-9h-0 of Y on parcel P-2" in item and "subd. 9(h)" in item
    (row,) = steps[0]["inputs"]["excluded"]
    assert row["parcel_id"] == "P-2" and row["why"] == PORTION_BASES["other_portion"]


def test_subd_9f_one_landowner_on_two_parcels_of_a_wetland_counts_both_parcels(register):
    # the engine decides 9(f) per landowner and wetland: the portion is every parcel of the
    # landowner's impacts on it, so each impact carries the fills of both (never the larger
    # parcel's only)
    register.add(_decision("W-two", [("Prev", "P-1", 300), ("Z", "P-2", 200), ("Y", "P-9", 5000)]))
    out, steps = _fill(
        register,
        wetland_id=["W-two", "W-two"],
        owner=["X", "X"],
        parcel_id=["P-1", "P-2"],
    )
    assert out["register_prior_sqft_since_1992"].tolist() == [500.0, 500.0]
    assert steps[1]["inputs"]["parcel_ids"] == ["P-1", "P-2"]


def test_subd_9f_a_pin_read_as_a_number_matches_the_register(register):
    # a PIN column QGIS typed as real: 123400000001.0 is the parcel "123400000001"
    register.add(_decision("W-pin", [("Prev", "123400000001", 900)]))
    out, _ = _fill(register, wetland_id=["W-pin"], owner=["X"], PIN=[123400000001.0])
    assert out.at[0, "register_prior_sqft_since_1992"] == 900.0


# --- exactly at the (f)(2) and (f)(3) limits, with the portion reading ----------------------


def each_side_of(paragraph, portion_sqft, limit_sqft, limit):
    """Return the cases of the 100 sq ft fill one sq ft under, exactly at and one sq ft
    over ``limit_sqft`` in all: (portion, the previous owner's sq ft on P-1, outcome)."""
    return [
        pytest.param(
            portion_sqft,
            limit_sqft + step - 100,
            "de_minimis_exempt" if step < 0 else "replacement_required",
            id=f"{paragraph}: {label} {limit}",
        )
        for step, label in (
            (-1, f"{limit_sqft - 1:,} sq ft is under"),
            (0, "exactly"),
            (1, "one sq ft over"),
        )
    ]


@pytest.mark.parametrize(
    ("portion_sqft", "same_parcel_sqft", "expected"),
    [
        *each_side_of("9(f)(3)", 4_000, 400, "400 sq ft"),
        *each_side_of("9(f)(2)", 10_000, 500, "5 percent of 10,000"),
    ],
)
def test_subd_9f_limits_are_reached_by_the_portions_history_not_the_wetlands(
    register, request, portion_sqft, same_parcel_sqft, expected
):
    """A 100 sq ft fill on parcel P-1 of a shared wetland; a previous owner filled part of
    P-1, another landowner filled 5,000 sq ft of P-2 (which would end the exemption if it
    counted). Default reading ``reached``: exactly at the limit is not exempt."""
    from wetland_gis.rules import decide_project
    from wetland_gis.rules.exempt.facts import ExemptionFacts

    wetland = f"L{request.node.callspec.id[:40]}"
    register.add(_decision(wetland, [("Previous owner", "P-1", same_parcel_sqft), Y_ON_P2]))
    out, steps = _fill(
        register, wetland_id=[wetland], owner=["X"], parcel_id=["P-1"], owns_whole=["no"]
    )
    prior = out.at[0, "register_prior_sqft_since_1992"]
    assert prior == same_parcel_sqft
    facts = fill_fact(
        "A",
        2,
        100,
        owner="X",
        wetland_id=wetland,
        owns_whole_wetland=False,
        portion_sqft=portion_sqft,
        prior_sqft_since_1992=prior,
        exemption=ExemptionFacts(remainder_newly_qualifies=False),
    )
    assert decide_project([facts], as_of=AS_OF).impacts[0].outcome.value == expected
    # the whole wetland's history would have ended the exemption in every case
    assert steps[0]["inputs"]["whole_wetland_sqft"] == same_parcel_sqft + 5000


# --- the invariant: an unknown parcel never counts fewer square feet -----------------------

_PARCELS = st.sampled_from([None, "P-1", "P-2", "P-3"])
_OWNERS = st.sampled_from([None, "X", "Y"])
_PORTIONS = st.sampled_from([None, frozenset({"P-1"}), frozenset({"P-1", "P-2"})])


@given(
    row_parcel=_PARCELS,
    row_owner=_OWNERS,
    parcels=_PORTIONS,
    owner=_OWNERS,
    owns=st.sampled_from([None, True, False]),
)
@example(row_parcel="P-2", row_owner="Y", parcels=frozenset({"P-1"}), owner="X", owns=None)
def test_subd_9f_blanking_a_parcel_id_never_uncounts_a_row(
    row_parcel, row_owner, parcels, owner, owns
):
    def counted(rp, ps):
        basis = portion_basis(rp, row_owner, parcels=ps, owner=owner, owns_whole=owns)
        assert basis in PORTION_BASES
        return basis != "other_portion"

    now = counted(row_parcel, parcels)
    assert counted(None, parcels) >= now  # the register row's parcel unknown
    assert counted(row_parcel, None) >= now  # the impact's parcel unknown
    if row_parcel is not None and parcels is not None and row_parcel in parcels:
        assert now  # a fill of the portion always counts, whoever made it
    if owns is True:
        assert now


# --- the schema: version 2 and the migration from version 1 ---------------------------------

#: The columns of schema version 1 (docs/register.md before version 2), written out.
V1_COLUMNS = {
    "register_meta": ("fid", "key", "value"),
    "decisions": (
        "fid",
        "decision_uid",
        "kind",
        "decision_date",
        "lgu",
        "recorded_by",
        "recorded_at",
        "valid_until",
        "supersedes",
        "landowner",
        "wetland_id",
        "project",
        "determined_type",
        "banked",
        "used_for_credit",
        "citations",
        "trace",
        "manifest_sha256",
        "source",
        "note",
        "geom",
    ),
    "impacts": (
        "fid",
        "decision_uid",
        "impact_id",
        "landowner",
        "wetland_id",
        "impact_date",
        "area_sqft",
        "wetland_type",
        "impact_kind",
        "outcome",
        "exemption",
        "replace_acres",
        "geom",
    ),
    "credits": ("fid", "decision_uid", "bank", "account", "credits_acres"),
}


def _v1_metadata():
    md = sa.MetaData()
    for table in s.TABLES:
        sa.Table(
            table.name,
            md,
            *[
                sa.Column(
                    c.name,
                    c.type,
                    *[sa.ForeignKey(fk.target_fullname) for fk in c.foreign_keys],
                    primary_key=c.primary_key,
                    nullable=c.nullable,
                    unique=c.unique,
                )
                for c in (table.c[name] for name in V1_COLUMNS[table.name])
            ],
        )
    return md


def _make_v1(url):
    """Create a schema version 1 register at ``url`` holding decisions, impacts and credits."""
    md = _v1_metadata()
    mp = pytest.MonkeyPatch()
    with mp.context() as m:  # init() as version 1 of the package ran it
        m.setattr(s, "metadata", md)
        m.setattr(s, "SCHEMA_VERSION", 1)
        reg = Register(url).init()
        assert reg.check_version() == 1
    d, i, c = (md.tables[n] for n in ("decisions", "impacts", "credits"))
    common = dict(kind="exemption", lgu="L", recorded_by="R", citations="[]", source="test")
    with reg.engine.begin() as conn:
        conn.execute(
            d.insert(),
            [
                dict(
                    common,
                    decision_uid="a" * 32,
                    decision_date=dt.date(2003, 6, 1),
                    recorded_at="2003-06-02T00:00:00.000000Z",
                    landowner="Previous owner",
                    wetland_id="W-1",
                    trace='[{"rule_id": "de_minimis.total"}]',
                    manifest_sha256="ab" * 32,
                    geom=box(0, 0, 50, 50),
                    supersedes=None,
                ),
                dict(
                    common,
                    decision_uid="b" * 32,
                    decision_date=dt.date(2004, 6, 1),
                    recorded_at="2004-06-02T00:00:00.000000Z",
                    landowner="Previous owner",
                    wetland_id="W-1",
                    trace="[]",
                    manifest_sha256="cd" * 32,
                    geom=None,
                    supersedes="a" * 32,
                ),
            ],
        )
        conn.execute(
            i.insert(),
            [
                dict(
                    decision_uid=uid,
                    impact_id="old",
                    landowner="Previous owner",
                    wetland_id="W-1",
                    impact_date=dt.date(2003, 6, 1),
                    area_sqft=area,
                    impact_kind="fill",
                    geom=box(0, 0, 5, 5),
                )
                for uid, area in (("a" * 32, 300.0), ("b" * 32, 350.0))
            ],
        )
        conn.execute(c.insert(), [dict(decision_uid="b" * 32, bank="B", account="07")])
    return Register(url)


def _rows(reg):
    """Every row of every register table, as the database holds it."""
    with reg.engine.connect() as conn:
        return {
            t.name: [
                dict(r._mapping)
                for r in conn.exec_driver_sql(f"SELECT * FROM {t.name} ORDER BY fid")  # noqa: S608
            ]
            for t in s.TABLES
        }


@pytest.fixture(params=["geopackage", pytest.param("postgis", marks=pytest.mark.postgis)])
def v1_url(request, tmp_path):
    """A schema version 1 register of each back end."""
    if request.param == "geopackage":
        url = str(tmp_path / "register_v1.gpkg")
    else:
        url = new_postgis_db(request.getfixturevalue("postgis_server"))
    _make_v1(url).close()
    return url


def test_the_frozen_version_1_is_version_2_without_the_parcel_columns():
    from wetland_gis.register.migrate import MIGRATIONS

    added = {pair for m in MIGRATIONS for pair in m.text_columns}
    now = {(t.name, c.name) for t in s.TABLES for c in t.columns}
    then = {(t, c) for t, cols in V1_COLUMNS.items() for c in cols}
    assert now - then == added == {("decisions", "parcel_id"), ("impacts", "parcel_id")}
    assert then <= now and SCHEMA_VERSION == MIGRATIONS[-1].to_version == 2


def test_a_version_1_register_is_refused_until_upgraded(v1_url, capsys):
    reg = Register(v1_url)
    for call in (
        reg.decisions,
        lambda: reg.history("X", "W-1"),
        lambda: reg.add(_decision("W", [])),
    ):
        with pytest.raises(RegisterUpgradeRequired, match="wetland-gis register upgrade"):
            call()
    assert main(["register", "query", "--register", v1_url]) == 2
    err = capsys.readouterr().err
    assert "older than version 2" in err and len(err.strip().splitlines()) == 1
    assert reg.describe()["schema_version"] == 1  # the manifest can still name it


def test_the_upgrade_keeps_every_row_and_the_append_only_protection(v1_url, capsys):
    reg = Register(v1_url)
    before = _rows(reg)
    assert main(["register", "upgrade", "--register", v1_url]) == 0
    assert "upgraded from schema version 1 to 2, every row kept" in capsys.readouterr().err
    after = _rows(reg)
    assert reg.check_version() == 2
    for table in ("decisions", "impacts", "credits"):
        # every old row, byte for byte (manifest hashes, trace, geometry), parcel unknown
        assert [{k: v for k, v in r.items() if k != "parcel_id"} for r in after[table]] == (
            before[table]
        )
        if table != "credits":
            assert [r["parcel_id"] for r in after[table]] == [None] * len(before[table])
    meta_before = {r["key"]: r["value"] for r in before["register_meta"]}
    meta_after = {r["key"]: r["value"] for r in after["register_meta"]}
    assert meta_after.pop("schema_version") == "2" and meta_before.pop("schema_version") == "1"
    assert set(meta_after) - set(meta_before) == {"upgraded_to_2_at"}
    assert {k: meta_after[k] for k in meta_before} == meta_before
    # append-only on every table, the register_meta trigger put back
    statements = [f"UPDATE {t.name} SET fid = fid" for t in s.TABLES]
    statements += [f"DELETE FROM {t.name}" for t in s.TABLES]
    if reg.backend == "postgis":
        statements += [f"TRUNCATE {t.name} CASCADE" for t in s.TABLES]
    for sql in statements:
        with pytest.raises(sa.exc.DBAPIError, match="append-only"):
            with reg.engine.begin() as conn:
                conn.exec_driver_sql(sql)
    assert _rows(reg) == after
    # the superseded decision is still superseded; the old rows read with parcel unknown
    _, impacts = reg.history("X", "W-1", every_landowner=True)
    assert impacts["area_sqft"].tolist() == [350.0]
    assert impacts["portion_parcel"].isna().all()
    # and a version 2 decision lands beside them
    reg.add(_decision("W-1", [Y_ON_P2]))
    assert main(["register", "upgrade", "--register", v1_url]) == 0
    assert "nothing to upgrade" in capsys.readouterr().err


def test_old_rows_without_a_parcel_count_for_the_portion_after_the_upgrade(v1_url):
    reg = Register(v1_url)
    reg.upgrade()
    reg.add(_decision("W-1", [Y_ON_P2]))
    out, steps = _fill(reg, wetland_id=["W-1"], owner=["X"], parcel_id=["P-1"])
    assert out.at[0, "register_prior_sqft_since_1992"] == 350.0  # the 2004 correction
    assert {r["basis"] for r in steps[0]["inputs"]["counted"]} == {"no_parcel_on_row"}
    assert any("without a parcel id were counted" in v for v in steps[0]["verify"])


def test_a_failed_upgrade_leaves_version_1_whole(v1_url, monkeypatch):
    from wetland_gis.register import migrate

    real = migrate.set_version

    def power_cut(conn, backend, version):
        real(conn, backend, version)  # the version moved and the trigger put back ...
        raise RuntimeError("power cut")  # ... then the process dies before the commit

    reg = Register(v1_url)
    before = _rows(reg)
    monkeypatch.setattr(migrate, "set_version", power_cut)
    with pytest.raises(RuntimeError, match="power cut"):
        reg.upgrade()
    assert _rows(reg) == before and reg.describe()["schema_version"] == 1
    with reg.engine.connect() as conn:
        assert "parcel_id" not in conn.exec_driver_sql("SELECT * FROM impacts").keys()
    with pytest.raises(sa.exc.DBAPIError, match="append-only"):
        with reg.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE register_meta SET value = '2'")
    monkeypatch.undo()
    assert reg.upgrade()[:2] == (1, 2)


def test_a_geopackage_upgrade_stopped_with_the_trigger_off_puts_it_back(tmp_path, monkeypatch):
    from wetland_gis.register import schema

    url = str(tmp_path / "register_v1.gpkg")
    reg = _make_v1(url)

    def fail(table, op):
        raise RuntimeError("stopped between DROP TRIGGER and CREATE TRIGGER")

    monkeypatch.setattr(schema, "sqlite_trigger_sql", fail)
    with pytest.raises(RuntimeError, match="stopped"):
        reg.upgrade()
    monkeypatch.undo()
    with pytest.raises(sa.exc.DBAPIError, match="append-only"):
        with reg.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE register_meta SET value = '2'")
    assert reg.describe()["schema_version"] == 1


def test_two_upgrades_at_once_migrate_once(v1_url):
    results, errors = [], []

    def run():
        try:
            with Register(v1_url) as reg:
                results.append(reg.upgrade())
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    assert sorted(len(done) for _, _, done in results) == [0, 1]
    assert Register(v1_url).meta()["schema_version"] == "2"


# --- parcel ids in and out: add, import, export, query ---------------------------------------


def test_a_csv_with_parcel_ids_imports_exports_and_imports_again(tmp_path):
    from wetland_gis.register.records import export_register, read_decisions_csv

    d1, d2 = decisions_from_csv(
        tmp_path / "past.csv",
        "decision,kind,decision_date,lgu,recorded_by,landowner,wetland_id,parcel_id,impact_id,"
        "impact_date,area_sqft,impact_kind\n"
        "d1,exemption,2003-06-01,L,R,Prev,W-1,P-1,i1,2003-06-01,300,fill\n"
        "d1,exemption,2003-06-01,L,R,Prev,W-1,P-2,i2,2003-06-01,200,fill\n"
        "d2,exemption,2005-06-01,L,R,Y,W-1,0712,i3,2005-06-01,50,fill\n",
    )
    assert [i.parcel_id for i in d1.impacts] == ["P-1", "P-2"] and d1.parcel_id is None
    assert d2.parcel_id == "0712"  # leading zeros kept: an id, not a number
    reg = Register(tmp_path / "r.gpkg").init()
    reg.add_many([d1, d2])
    assert reg.decisions(parcel_id="P-2")["decision_uid"].tolist() == [
        reg.decisions()["decision_uid"].iloc[0]
    ]
    (out,) = export_register(reg, tmp_path / "export.csv")
    again = read_decisions_csv(out)
    assert [[i.parcel_id for i in d.impacts] for d in again] == [["P-1", "P-2"], ["0712"]]
    # a CSV of version 1 (no parcel_id column) still imports, the parcel unknown
    (rec,) = decisions_from_csv(
        tmp_path / "old.csv",
        "kind,decision_date,lgu,recorded_by,wetland_id,impact_id,area_sqft\n"
        "exemption,2003-06-01,L,R,W-1,i1,300\n",
    )
    assert rec.parcel_id is None and rec.impacts[0].parcel_id is None


def test_query_by_parcel_on_the_command_line(tmp_path, capsys):
    reg = Register(tmp_path / "r.gpkg").init()
    reg.add(_decision("W-1", [("Prev", "P-1", 300)]))
    reg.add(_decision("W-1", [("Y", "P-2", 300)], parcel_id="P-2"))
    assert (
        main(["register", "query", "--register", str(tmp_path / "r.gpkg"), "--parcel", "P-1"]) == 0
    )
    out = capsys.readouterr()
    assert "1 decision(s)" in out.err and "P-2" not in out.out


def test_the_parcel_role_reads_parcel_id_or_pin():
    from wetland_gis.io.fields import resolve_fields

    assert resolve_fields(["PARCEL_ID", "owner"]).parcel_id == "PARCEL_ID"
    assert resolve_fields(["PIN"]).parcel_id == "PIN"
    assert resolve_fields(["owner"]).parcel_id is None


# --- end to end: assess --register and register add with the parcel column -----------------

CROW_WING = ROOT / "sample_data" / "projects" / "crow_wing" / "impacts.gpkg"


def _layer(**extra):
    """9,000 sq ft of type 2 in Crow Wing County on parcel P-1 of a wetland shared with
    other landowners: subd. 9(a)(1) 10,000; the 9(f) limit is 5 percent of the 200,000 sq
    ft portion, 10,000."""
    c1 = gpd.read_file(CROW_WING).geometry.iloc[0].centroid
    side = 9000**0.5 * FT
    cols = {
        "impact_id": ["A"],
        "circ39": ["2"],
        "owner": ["X"],
        "wetland_id": ["w1"],
        "parcel_id": ["P-1"],
        "owns_whole": ["no"],
        "portion_sq": [200_000],
    }
    cols.update(extra)
    return gpd.GeoDataFrame(cols, geometry=[box(c1.x, c1.y, c1.x + side, c1.y + side)], crs=26915)


def _assess(gdf, **kw):
    import wetland_gis as wg
    from wetland_gis.errors import WetlandGISWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return wg.assess(gdf, CONTEXT, fields={"portion_sqft": "portion_sq"}, as_of=AS_OF, **kw)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("owner", "parcel", "expected"),
    [
        pytest.param(
            "Previous owner",
            "P-1",
            "replacement_required",
            id="9(f): a previous owner's 2,000 sq ft on the parcel: 11,000 is over 10,000",
        ),
        pytest.param(
            "Y",
            "P-2",
            "de_minimis_exempt",
            id="9(f): another landowner's 2,000 sq ft on another parcel does not count",
        ),
    ],
)
def test_assess_register_reads_the_portion_by_parcel(register_url, owner, parcel, expected):
    reg = Register(register_url).init()
    reg.add(_decision("w1", [(owner, parcel, 2000)]))
    a = _assess(_layer(), register=reg)
    assert a.impacts["outcome"].item() == expected
    step = a.trace[a.trace["rule_id"] == "facts.register"].iloc[0]
    assert step["inputs"]["portion_by"] == "parcel"
    assert step["inputs"]["parcel_ids"] == ["P-1"]


@pytest.mark.slow
def test_register_add_records_each_impacts_parcel(tmp_path):
    assessed = tmp_path / "a.gpkg"
    layer = tmp_path / "in.gpkg"
    _layer().to_file(layer)
    argv = ["assess", str(layer), "--context", str(CONTEXT), "--out", str(assessed)]
    assert main([*argv, "--as-of", AS_OF, "--field", "portion_sqft=portion_sq", "--quiet"]) == 0
    url = str(tmp_path / "r.gpkg")
    assert main(["register", "init", "--register", url]) == 0
    add = ["register", "add", str(assessed), "--register", url, "--kind", "exemption"]
    add += ["--date", "2024-06-01", "--lgu", "L", "--recorded-by", "R"]
    assert main(add) == 0
    reg = Register(url)
    assert reg.impacts()["parcel_id"].tolist() == ["P-1"]
    assert reg.decisions()["parcel_id"].tolist() == ["P-1"]  # the one parcel of its impacts
    # a layer without the column: --parcel gives it
    _layer().drop(columns=["parcel_id"]).to_file(layer)
    assert main([*argv, "--as-of", AS_OF, "--overwrite", "--quiet"]) == 0
    assert main([*add, "--parcel", "P-7"]) == 0
    assert reg.impacts()["parcel_id"].tolist() == ["P-1", "P-7"]


def test_the_bases_cover_every_combination():
    # every combination of the facts gives one of the documented bases
    seen = {
        portion_basis(rp, ro, parcels=ps, owner=o, owns_whole=w)
        for rp, ro, ps, o, w in itertools.product(
            [None, "P-1", "P-2"],
            [None, "X", "Y"],
            [None, frozenset({"P-1"})],
            [None, "X"],
            [None, True, False],
        )
    }
    assert seen == set(PORTION_BASES)
