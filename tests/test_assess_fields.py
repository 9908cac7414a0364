"""Per-wetland facts read from optional impact-layer columns (issue 13, section 3)."""

from __future__ import annotations

import pytest
from layer_helpers import assess_quietly, crow_wing_squares

from wetland_gis.cli import FACT_FIELD_ROLES, build_parser
from wetland_gis.commands import _fields
from wetland_gis.io.fields import DEFAULT_NAMES, read_flag, read_number, resolve_fields

_layer = crow_wing_squares
_assess = assess_quietly


@pytest.mark.parametrize(
    ("owns", "expected"),
    [
        pytest.param("yes", "de_minimis_exempt", id="subd. 9(f)(1): owns the whole wetland"),
        pytest.param("", "de_minimis_conditional", id="subd. 9(f): ownership unknown"),
        pytest.param("maybe", "de_minimis_conditional", id="subd. 9(f): unreadable is unknown"),
    ],
)
def test_ownership_column_decides_the_cumulative_limit(owns, expected):
    a = _assess(_layer(impact_id=["A"], owns_whole=[owns]))
    assert a.impacts["outcome"].item() == expected


def test_a_fields_mapping_names_a_renamed_column():
    gdf = _layer(impact_id=["A"], eigentuemer_ganz=["1"])
    a = _assess(gdf, fields={"owns_whole_wetland": "eigentuemer_ganz"})
    assert a.impacts["outcome"].item() == "de_minimis_exempt"
    assert a.manifest.settings["fields"]["owns_whole_wetland"] == "eigentuemer_ganz"


def test_different_owners_of_one_wetland_are_not_pooled():
    # subd. 9(f): 2 x 9,000 sq ft of one wetland; apart each is within (a)(1) 10,000 for
    # its owner; but the project total, 18,000 sq ft, is over (a)(1): not de minimis
    a = _assess(
        _layer(
            impact_id=["A", "B"], owner=["X", "Y"], wetland_id=["w", "w"], owns_whole=[True, True]
        )
    )
    assert set(a.impacts["outcome"]) == {"replacement_required"}
    steps = a.trace[a.trace["rule_id"] == "de_minimis.total"]
    assert steps["value"].item() == pytest.approx(18_000, abs=1)


def test_partial_drain_and_banked_columns_are_read():
    a = _assess(_layer(impact_id=["A"], impact=["drain"], partial=["yes"], owns_whole=[1]))
    assert a.impacts["counted_sqft"].item() == pytest.approx(4500, abs=1)
    b = _assess(_layer(impact_id=["A"], banked=["y"], owns_whole=[1]))
    assert b.impacts["outcome"].item() == "replacement_required"


def test_every_fact_role_has_default_names_and_a_command_line_option():
    for role in FACT_FIELD_ROLES:
        assert role in DEFAULT_NAMES
    args = build_parser().parse_args(
        [
            "assess",
            "x.gpkg",
            "--out",
            "o.gpkg",
            "--field",
            "owner=OWNER",
            "--field",
            "prior_sqft_since_1992=PRIOR",
            "--reading",
            "clause=per_clause",
        ]
    )
    assert dict(_fields(args)) == {"owner": "OWNER", "prior_sqft_since_1992": "PRIOR"}
    assert args.reading == [("clause_reading", "per_clause")]
    assert resolve_fields(["OWNS_WHOLE", "Portion_SF"]).portion_sqft == "Portion_SF"


@pytest.mark.parametrize(
    ("value", "flag"),
    [
        ("1", True),
        (1.0, True),
        ("TRUE", True),
        ("n", False),
        (0, False),
        ("", None),
        (None, None),
        ("2", None),
        (float("nan"), None),
    ],
)
def test_read_flag_has_three_answers(value, flag):
    assert read_flag(value) is flag


def test_read_number():
    assert read_number("1,200.5") == 1200.5
    assert read_number("x") is None and read_number(float("nan")) is None
