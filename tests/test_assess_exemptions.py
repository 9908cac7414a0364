"""The exemption and road columns of the impact layer, read by assess (issue 20, 1-3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from layer_helpers import assess_quietly, crow_wing_squares

import wetland_gis as wg
from wetland_gis.cli import build_parser
from wetland_gis.commands import _fields
from wetland_gis.errors import FieldMappingError, ValueParseError
from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES, resolve_exemption_columns
from wetland_gis.rules.exempt import CLAIMS, FACT_COLUMNS, ExemptionClaims

ROOT = Path(__file__).resolve().parents[1]


#: The subp. 1 B exclusions answered for two rows (the fen screen is the context's).
CLEAN = {"banked": ["no", "no"], "used_for_c": ["no", "no"], "remainder": ["no", "no"]}


_layer = crow_wing_squares
_assess = assess_quietly


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        pytest.param(["yes", "yes"], "exempt", id="subd. 6(a)(3): both SSTS repairs"),
        pytest.param(["yes", ""], "replacement_required", id="subp. 1 C: one only"),
        pytest.param(["", ""], "replacement_required", id="no facts: the fast path"),
    ],
)
def test_an_exemption_column_carries_the_project(cells, expected):
    a = _assess(_layer(impact_id=["A", "B"], ssts=cells, **CLEAN))
    assert set(a.impacts["outcome"]) == {expected}
    if expected == "exempt":
        assert all("subd. 6(a)(3)" in t for t in a.impacts["other_exemptions"])


@pytest.mark.parametrize(
    "missing",
    [
        pytest.param("banked", id="subp. 1 B: banked not given"),
        pytest.param("used_for_c", id="subp. 1 B: used for credit not given"),
        pytest.param("remainder", id="subp. 1 B: remainder not given"),
    ],
)
def test_an_unknown_exclusion_leaves_it_conditional(missing):
    given = {k: v for k, v in CLEAN.items() if k != missing}
    a = _assess(_layer(impact_id=["A", "B"], ssts=["yes", "yes"], **given))
    assert set(a.impacts["outcome"]) == {"exempt_conditional"}


def test_a_banked_wetland_is_never_exempt():
    a = _assess(
        _layer(impact_id=["A", "B"], ssts=["yes", "yes"], **{**CLEAN, "banked": ["yes", "no"]})
    )
    assert set(a.impacts["outcome"]) == {"replacement_required"}


def test_a_fields_mapping_names_a_renamed_exemption_column():
    gdf = _layer(impact_id=["A", "B"], abwasser=["ja", "ja"], **CLEAN)
    with pytest.raises(FieldMappingError, match="abwasser2"):
        _assess(gdf, fields={"sewage_system_repair": "abwasser2"})
    gdf["abwasser"] = ["yes", "yes"]
    a = _assess(gdf, fields={"sewage_system_repair": "abwasser"})
    assert set(a.impacts["outcome"]) == {"exempt"}


def test_a_claim_in_the_options_fills_the_claim_facts():
    gdf = _layer(impact_id=["A", "B"], sw_prac=["yes", "yes"], **CLEAN)
    gdf["land_use"] = "agricultural"
    none = _assess(gdf)
    claimed = _assess(
        gdf, options=wg.AssessOptions(exemption_claims=ExemptionClaims(swcd_approved_practice=True))
    )
    assert set(none.impacts["outcome"]) == {"exempt_conditional"}
    assert set(claimed.impacts["outcome"]) == {"exempt"}


@pytest.mark.parametrize(
    ("kind", "by"),
    [
        pytest.param("reconstruction", "board", id="§ 103G.222, subd. 1(m): the board replaces"),
        pytest.param("new_road", None, id="§ 103G.222, subd. 1(l): a new road"),
    ],
)
def test_a_road_project_says_who_replaces(kind, by):
    gdf = _layer(
        impact_id=["A", "B"],
        road_kind=[kind, kind],
        road_auth=["county", "county"],
        road_serv=["yes", "yes"],
        road_std=["yes", "yes"],
        airport=["no", "no"],
        # subd. 1(m)(1), (2): minimized, reported 45 days before construction (issue 32)
        road_minim=["yes", "yes"],
        road_minor=["no", "no"],
        road_rep_d=["2024-03-01", "2024-03-01"],
        road_con_d=["2024-04-15", "2024-04-15"],
    )
    a = _assess(gdf)
    assert set(a.impacts["outcome"]) == {"replacement_required"}
    got = {None if v is None or v != v else v for v in a.impacts["replacement_by"]}
    assert got == {by}


def test_a_road_report_date_that_is_not_a_date_names_the_row():
    gdf = _layer(impact_id=["A"], road_kind=["repair"], road_rep_d=["March 1"])
    with pytest.raises(ValueParseError, match=r"row 1.*road_rep_d.*YYYY-MM-DD"):
        _assess(gdf)


def test_a_bad_road_kind_names_the_row():
    gdf = _layer(impact_id=["A"], road_kind=["widening"])
    with pytest.raises(ValueParseError, match="row 1"):
        _assess(gdf)


def test_every_exemption_role_has_a_cli_option_and_a_default_column():
    parser = build_parser()
    for role, column in EXEMPTION_FIELD_ROLES.items():
        assert len(column) <= 10, column  # a shapefile keeps it
        args = parser.parse_args(["assess", "x.gpkg", "--out", "o", "--field", f"{role}=c"])
        assert dict(_fields(args)) == {role: "c"}
    assert resolve_exemption_columns([FACT_COLUMNS["duck_blind"]]) == (
        ("duck_blind", FACT_COLUMNS["duck_blind"]),
    )
    args = parser.parse_args(["assess", "x.gpkg", "--out", "o", "--claim", CLAIMS[0]])
    assert args.claim == [(CLAIMS[0], True)]  # NAME alone still means yes


@pytest.mark.parametrize(
    ("folder", "outcome", "by", "carrying"),
    [
        pytest.param("crow_wing_farm", "exempt", None, "subd. 2(e)", id="subd. 2(e): the farm"),
        pytest.param(
            "county_road", "replacement_required", "board", None, id="§ 103G.222, subd. 1(m): road"
        ),
    ],
)
def test_the_sample_projects_exercise_the_exemptions(folder, outcome, by, carrying):
    for ext in ("gpkg", "shp"):
        a = _assess(ROOT / "sample_data" / "projects" / folder / f"impacts.{ext}")
        assert set(a.impacts["outcome"]) == {outcome}
        got = {None if v is None or v != v else v for v in a.impacts["replacement_by"]}
        assert got == {by}
        if carrying:
            assert all(carrying in t for t in a.impacts["other_exemptions"])


def test_the_manifest_records_the_claims_made(tmp_path):
    gdf = _layer(impact_id=["A", "B"], ssts=["yes", "yes"], **CLEAN)
    options = wg.AssessOptions(exemption_claims=ExemptionClaims(corps_404_permit=True))
    a = _assess(gdf, options=options)
    assert a.manifest.to_dict()["settings"]["exemption_claims"] == {"corps_404_permit": True}
