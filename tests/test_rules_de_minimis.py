"""De minimis exemption, Minn. Stat. § 103G.2241, subd. 9."""

from __future__ import annotations

import dataclasses
import itertools
import json
from typing import Any

import pytest
from helpers import UNKNOWN_OWNER_FLOOR, impact_fact, paragraph_params
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import Outcome, PercentageArea, ShorelandZone, WetlandType
from wetland_gis.errors import ParameterNotInForce, RulesInputError
from wetland_gis.parameters import default_parameters
from wetland_gis.rules import (
    DeMinimisResult,
    ImpactFacts,
    de_minimis,
    de_minimis_allowance,
    in_metropolitan_area,
    percentage_area_of_county,
)

AS_OF = "2024-05-01"
SUBD9 = "Minn. Stat. § 103G.2241, subd. 9"
GT80, MID, LT50 = (
    PercentageArea.GREATER_THAN_80,
    PercentageArea.FROM_50_TO_80,
    PercentageArea.LESS_THAN_50,
)
SETBACK, PROTECTION, OUTSIDE = (
    ShorelandZone.BUILDING_SETBACK,
    ShorelandZone.PROTECTION,
    ShorelandZone.OUTSIDE,
)


def place(county: str) -> tuple[PercentageArea, bool]:
    """Class and metro flag of a county, through the rules themselves."""
    pct = percentage_area_of_county(county, as_of=AS_OF).value
    metro = in_metropolitan_area(county, as_of=AS_OF).value
    return pct, metro


def impact(
    area: float,
    *,
    zone: ShorelandZone = OUTSIDE,
    wetland_type: int = 2,
    county: str = "Crow Wing",
    cedar: bool = False,
    impact_id: str = "A",
    **flags: bool,
) -> ImpactFacts:
    pct, metro = place(county)
    split = {SETBACK: 0.0, PROTECTION: 0.0, OUTSIDE: 0.0}
    split[zone] = float(area)
    return impact_fact(
        impact_id,
        WetlandType(wetland_type),
        split[OUTSIDE],
        protection=split[PROTECTION],
        setback=split[SETBACK],
        pct=pct,
        metro=metro,
        cedar=cedar,
        **flags,
    )


def one_fill(
    county: str,
    wetland_type: int,
    zone: ShorelandZone,
    area: float,
    *,
    cedar: bool = False,
    **options: Any,
) -> DeMinimisResult:
    """Return ``de_minimis`` of the one fill :func:`impact` builds, with ``options``."""
    return de_minimis(
        [impact(area, zone=zone, wetland_type=wetland_type, county=county, cedar=cedar)],
        as_of=AS_OF,
        **options,
    )


# --- scenario table: one fill, both sides of every amount ---------------------------------

# (sentence, county, type, cedar, zone, square feet, exempt)
SINGLE_FILL = [
    (
        "§ 103G.2241 subd. 9(a)(1): a 10,000 sq ft type 2 fill in Crow Wing County outside the "
        "shoreland zone is de minimis",
        "Crow Wing",
        2,
        False,
        OUTSIDE,
        10_000,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(a)(1): a 10,001 sq ft type 2 fill in Crow Wing County outside the "
        "shoreland zone is not",
        "Crow Wing",
        2,
        False,
        OUTSIDE,
        10_001,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(a)(1): a 10,000 sq ft type 6 fill in Isanti County (metro, greater "
        "than 80) outside the shoreland zone is de minimis: (d) does not reach it",
        "Isanti",
        6,
        False,
        OUTSIDE,
        10_000,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(a)(1): a 10,001 sq ft type 6 fill in Isanti County outside the "
        "shoreland zone is not",
        "Isanti",
        6,
        False,
        OUTSIDE,
        10_001,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(a)(2): a 5,000 sq ft type 1 fill in Morrison County outside the "
        "shoreland zone is de minimis",
        "Morrison",
        1,
        False,
        OUTSIDE,
        5_000,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(a)(2): a 5,001 sq ft type 1 fill in Morrison County outside the "
        "shoreland zone is not",
        "Morrison",
        1,
        False,
        OUTSIDE,
        5_001,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(a)(3): a 2,000 sq ft type 7 fill in Stearns County outside the "
        "shoreland zone is de minimis",
        "Stearns",
        7,
        False,
        OUTSIDE,
        2_000,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(a)(3): a 2,001 sq ft type 7 fill in Stearns County outside the "
        "shoreland zone is not",
        "Stearns",
        7,
        False,
        OUTSIDE,
        2_001,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(a)(4): a 100 sq ft type 3 fill in Crow Wing County outside the "
        "shoreland zone is de minimis",
        "Crow Wing",
        3,
        False,
        OUTSIDE,
        100,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(a)(4): a 101 sq ft type 3 fill in Crow Wing County outside the "
        "shoreland zone is not",
        "Crow Wing",
        3,
        False,
        OUTSIDE,
        101,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(a)(4): a 100 sq ft type 5 fill in Hennepin County (metro) outside "
        "the shoreland zone is de minimis",
        "Hennepin",
        5,
        False,
        OUTSIDE,
        100,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(a)(4): a 101 sq ft type 5 fill in Hennepin County outside the "
        "shoreland zone is not",
        "Hennepin",
        5,
        False,
        OUTSIDE,
        101,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(a)(4): a 100 sq ft white cedar type 7 fill in Crow Wing County "
        "outside the shoreland zone is de minimis",
        "Crow Wing",
        7,
        True,
        OUTSIDE,
        100,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(a)(4): a 101 sq ft white cedar type 7 fill in Crow Wing County "
        "outside the shoreland zone is not",
        "Crow Wing",
        7,
        True,
        OUTSIDE,
        101,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(b)(1): a 400 sq ft type 2 fill in Crow Wing County in the shoreland "
        "wetland protection zone is de minimis",
        "Crow Wing",
        2,
        False,
        PROTECTION,
        400,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(b)(1): a 401 sq ft type 2 fill in Crow Wing County in the shoreland "
        "wetland protection zone is not",
        "Crow Wing",
        2,
        False,
        PROTECTION,
        401,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(b)(1): a 400 sq ft type 7 fill in Hennepin County in the shoreland "
        "wetland protection zone is de minimis",
        "Hennepin",
        7,
        False,
        PROTECTION,
        400,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(b)(1): a 401 sq ft type 7 fill in Hennepin County in the shoreland "
        "wetland protection zone is not",
        "Hennepin",
        7,
        False,
        PROTECTION,
        401,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(b)(2): a 100 sq ft type 4 fill in Stearns County in the shoreland "
        "wetland protection zone is de minimis",
        "Stearns",
        4,
        False,
        PROTECTION,
        100,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(b)(2): a 101 sq ft type 4 fill in Stearns County in the shoreland "
        "wetland protection zone is not",
        "Stearns",
        4,
        False,
        PROTECTION,
        101,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(b)(2): a 100 sq ft tamarack type 8 fill in Itasca County in the "
        "shoreland wetland protection zone is de minimis",
        "Itasca",
        8,
        True,
        PROTECTION,
        100,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(b)(2): a 101 sq ft tamarack type 8 fill in Itasca County in the "
        "shoreland wetland protection zone is not",
        "Itasca",
        8,
        True,
        PROTECTION,
        101,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(c): a 20 sq ft type 2 fill in Hennepin County in the building "
        "setback zone is de minimis",
        "Hennepin",
        2,
        False,
        SETBACK,
        20,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(c): a 21 sq ft type 2 fill in Hennepin County in the building "
        "setback zone is not",
        "Hennepin",
        2,
        False,
        SETBACK,
        21,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(c): a 20 sq ft type 3 fill in Crow Wing County in the building "
        "setback zone is de minimis",
        "Crow Wing",
        3,
        False,
        SETBACK,
        20,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(c): a 21 sq ft type 3 fill in Crow Wing County in the building "
        "setback zone is not",
        "Crow Wing",
        3,
        False,
        SETBACK,
        21,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(d)(1): a 2,500 sq ft type 2 fill in Anoka County outside the "
        "shoreland zone is de minimis",
        "Anoka",
        2,
        False,
        OUTSIDE,
        2_500,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(d)(1): a 2,501 sq ft type 2 fill in Anoka County outside the "
        "shoreland zone is not",
        "Anoka",
        2,
        False,
        OUTSIDE,
        2_501,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(d)(1): a 2,500 sq ft type 7 fill in Sherburne County outside the "
        "shoreland zone is de minimis",
        "Sherburne",
        7,
        False,
        OUTSIDE,
        2_500,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(d)(1): a 2,501 sq ft type 7 fill in Sherburne County outside the "
        "shoreland zone is not",
        "Sherburne",
        7,
        False,
        OUTSIDE,
        2_501,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(d)(2): a 1,000 sq ft type 6 fill in Hennepin County outside the "
        "shoreland zone is de minimis",
        "Hennepin",
        6,
        False,
        OUTSIDE,
        1_000,
        True,
    ),
    (
        "§ 103G.2241 subd. 9(d)(2): a 1,001 sq ft type 6 fill in Hennepin County outside the "
        "shoreland zone is not",
        "Hennepin",
        6,
        False,
        OUTSIDE,
        1_001,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(d)(2): a 1 sq ft type 7 fill in Dakota County outside the "
        "shoreland zone is not de minimis: type 7 is not listed",
        "Dakota",
        7,
        False,
        OUTSIDE,
        1,
        False,
    ),
    (
        "§ 103G.2241 subd. 9(d)(2): a 0 sq ft type 7 impact in Dakota County has no amount at "
        "all, so it is not de minimis (as the engine decides: a no-amount total is never within)",
        "Dakota",
        7,
        False,
        OUTSIDE,
        0,
        False,
    ),
]


@pytest.mark.parametrize(
    ("county", "wetland_type", "cedar", "zone", "area", "exempt"),
    paragraph_params(SINGLE_FILL),
)
def test_single_fill_scenarios(county, wetland_type, cedar, zone, area, exempt):
    result = one_fill(county, wetland_type, zone, area, cedar=cedar)
    expected = Outcome.EXEMPT if exempt else Outcome.NOT_EXEMPT
    assert result.project.outcome is expected
    assert result.by_impact["A"].outcome is expected
    assert result.exempt is exempt
    assert result.by_impact["A"].amounts["not_exempt_sqft"] == (0 if exempt else area)


# (sentence, county, type, zone, square feet, keyword arguments, exempt)
WITH_OPTIONS = [
    (
        "§ 103G.2241 subd. 9(b): with the increase, a 1,000 sq ft type 2 fill of an isolated "
        "wetland in Crow Wing County's protection zone is de minimis",
        "Crow Wing",
        2,
        PROTECTION,
        1_000,
        {"shoreland_increase": True},
        True,
    ),
    (
        "§ 103G.2241 subd. 9(b): with the increase, a 1,001 sq ft type 2 fill in Crow Wing "
        "County's protection zone is not",
        "Crow Wing",
        2,
        PROTECTION,
        1_001,
        {"shoreland_increase": True},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(b): the increase is not available in Morrison County (50 to 80), so "
        "a 401 sq ft type 2 fill in the protection zone is not de minimis",
        "Morrison",
        2,
        PROTECTION,
        401,
        {"shoreland_increase": True},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(b): the increase is for clause (1) types only, so a 101 sq ft type 3 "
        "fill in Crow Wing County's protection zone is not de minimis",
        "Crow Wing",
        3,
        PROTECTION,
        101,
        {"shoreland_increase": True},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(c): with approved retention, a 100 sq ft fill in the setback zone is "
        "de minimis",
        "Stearns",
        2,
        SETBACK,
        100,
        {"setback_increase": True},
        True,
    ),
    (
        "§ 103G.2241 subd. 9(c): with approved retention, a 101 sq ft fill in the setback zone is "
        "not",
        "Stearns",
        2,
        SETBACK,
        101,
        {"setback_increase": True},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(i): under a 500 sq ft local standard, a 500 sq ft type 2 fill in "
        "Crow Wing County is de minimis",
        "Crow Wing",
        2,
        OUTSIDE,
        500,
        {"local_limit_sqft": 500},
        True,
    ),
    (
        "§ 103G.2241 subd. 9(i): under a 500 sq ft local standard, a 501 sq ft type 2 fill in "
        "Crow Wing County is not",
        "Crow Wing",
        2,
        OUTSIDE,
        501,
        {"local_limit_sqft": 500},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(i): a local standard larger than the statute does not raise the "
        "amount: 10,001 sq ft in Crow Wing County is not de minimis",
        "Crow Wing",
        2,
        OUTSIDE,
        10_001,
        {"local_limit_sqft": 20_000},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(f); Minn. R. 8420.0420, subp. 1 B(4): 9,000 sq ft filled since 1992 "
        "plus a 1,000 sq ft type 2 fill in Crow Wing County reaches the 10,000 sq ft limit and "
        "is de minimis only if the earlier fill left no remainder newly qualifying "
        "(conditional)",
        "Crow Wing",
        2,
        OUTSIDE,
        1_000,
        {"cumulative_sqft_since_1992": 9_000},
        "conditional",
    ),
    (
        "§ 103G.2241 subd. 9(f): 9,000 sq ft filled since 1992 plus a 1,001 sq ft fill exceeds "
        "the applicable amount: exempt only if the portion's 20 percent is larger (conditional)",
        "Crow Wing",
        2,
        OUTSIDE,
        1_001,
        {"cumulative_sqft_since_1992": 9_000},
        "conditional",
    ),
    (
        "§ 103G.2241 subd. 9(f)(2): a landowner of 20,000 sq ft of a shared wetland may fill "
        "999 sq ft (under 5 percent)",
        "Crow Wing",
        2,
        OUTSIDE,
        999,
        {"owns_entire_wetland": False, "landowner_portion_sqft": 20_000},
        True,
    ),
    (
        "§ 103G.2241 subd. 9(f)(2): a landowner of 20,000 sq ft of a shared wetland may not fill "
        "1,000 sq ft (it reaches 5 percent: cumulative_limit_reading 'reached')",
        "Crow Wing",
        2,
        OUTSIDE,
        1_000,
        {"owns_entire_wetland": False, "landowner_portion_sqft": 20_000},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(f)(2): under the cumulative_limit_reading 'exceeded' a landowner "
        "of 20,000 sq ft of a shared wetland may fill 1,000 sq ft (5 percent)",
        "Crow Wing",
        2,
        OUTSIDE,
        1_000,
        {
            "owns_entire_wetland": False,
            "landowner_portion_sqft": 20_000,
            "cumulative_limit_reading": "exceeded",
        },
        True,
    ),
    (
        "§ 103G.2241 subd. 9(f)(2): a landowner of 20,000 sq ft of a shared wetland may not fill "
        "1,001 sq ft",
        "Crow Wing",
        2,
        OUTSIDE,
        1_001,
        {"owns_entire_wetland": False, "landowner_portion_sqft": 20_000},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(f)(3): a landowner of 4,000 sq ft of a shared wetland may fill "
        "399 sq ft (the floor is greater than 5 percent)",
        "Crow Wing",
        2,
        OUTSIDE,
        399,
        {"owns_entire_wetland": False, "landowner_portion_sqft": 4_000},
        True,
    ),
    (
        "§ 103G.2241 subd. 9(f)(3): a landowner of 4,000 sq ft of a shared wetland may not fill "
        "400 sq ft (it reaches the floor: cumulative_limit_reading 'reached')",
        "Crow Wing",
        2,
        OUTSIDE,
        400,
        {"owns_entire_wetland": False, "landowner_portion_sqft": 4_000},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(f)(3): under the cumulative_limit_reading 'exceeded' a landowner "
        "of 4,000 sq ft of a shared wetland may fill 400 sq ft",
        "Crow Wing",
        2,
        OUTSIDE,
        400,
        {
            "owns_entire_wetland": False,
            "landowner_portion_sqft": 4_000,
            "cumulative_limit_reading": "exceeded",
        },
        True,
    ),
    (
        "§ 103G.2241 subd. 9(f)(3): a landowner of 4,000 sq ft of a shared wetland may not fill "
        "401 sq ft",
        "Crow Wing",
        2,
        OUTSIDE,
        401,
        {"owns_entire_wetland": False, "landowner_portion_sqft": 4_000},
        False,
    ),
    (
        "§ 103G.2241 subd. 9(f)(2)-(3): without the portion's size, a landowner not owning the "
        "whole wetland with 401 sq ft is over the 400 sq ft floor: exempt only if the portion's "
        "20 percent is larger (conditional)",
        "Crow Wing",
        2,
        OUTSIDE,
        401,
        {"owns_entire_wetland": False},
        "conditional",
    ),
    (
        "§ 103G.2241 subd. 9(g): a 50 sq ft type 2 fill is not de minimis when another exemption "
        "is claimed on the project",
        "Crow Wing",
        2,
        OUTSIDE,
        50,
        {"other_exemption_claimed": True},
        False,
    ),
]


@pytest.mark.parametrize(
    ("county", "wetland_type", "zone", "area", "options", "exempt"),
    paragraph_params(WITH_OPTIONS),
)
def test_scenarios_with_options(county, wetland_type, zone, area, options, exempt):
    result = one_fill(county, wetland_type, zone, area, **options)
    expected = {True: Outcome.EXEMPT, False: Outcome.NOT_EXEMPT}.get(exempt, exempt)
    assert result.project.outcome is Outcome(expected)


# --- the allowance table ----------------------------------------------------------------

# (sentence, type, cedar, zone, class, metro, options, square feet, citation)
ALLOWANCES = [
    (
        "(a)(1): type 1 outside, greater than 80",
        1,
        False,
        OUTSIDE,
        GT80,
        False,
        {},
        10_000,
        "9(a)(1)",
    ),
    (
        "(a)(1): type 7 outside, greater than 80, metro",
        7,
        False,
        OUTSIDE,
        GT80,
        True,
        {},
        10_000,
        "9(a)(1)",
    ),
    (
        "(a)(2): type 2 outside, 50 to 80, not metro",
        2,
        False,
        OUTSIDE,
        MID,
        False,
        {},
        5_000,
        "9(a)(2)",
    ),
    (
        "(a)(3): type 6 outside, less than 50, not metro",
        6,
        False,
        OUTSIDE,
        LT50,
        False,
        {},
        2_000,
        "9(a)(3)",
    ),
    ("(a)(4): type 8 outside, greater than 80", 8, False, OUTSIDE, GT80, False, {}, 100, "9(a)(4)"),
    (
        "(a)(4): type 4 outside, less than 50, metro",
        4,
        False,
        OUTSIDE,
        LT50,
        True,
        {},
        100,
        "9(a)(4)",
    ),
    (
        "(a)(4): white cedar type 7 outside, less than 50, metro",
        7,
        True,
        OUTSIDE,
        LT50,
        True,
        {},
        100,
        "9(a)(4)",
    ),
    ("(d)(1): type 7 outside, 50 to 80, metro", 7, False, OUTSIDE, MID, True, {}, 2_500, "9(d)(1)"),
    (
        "(d)(2): type 1 outside, less than 50, metro",
        1,
        False,
        OUTSIDE,
        LT50,
        True,
        {},
        1_000,
        "9(d)(2)",
    ),
    (
        "(d)(2): type 7 outside, less than 50, metro has none",
        7,
        False,
        OUTSIDE,
        LT50,
        True,
        {},
        0,
        "9(d)(2)",
    ),
    ("(b)(1): type 6 in the protection zone", 6, False, PROTECTION, LT50, True, {}, 400, "9(b)(1)"),
    (
        "(b)(2): type 5 in the protection zone",
        5,
        False,
        PROTECTION,
        GT80,
        False,
        {},
        100,
        "9(b)(2)",
    ),
    (
        "(b)(2): white cedar in the protection zone, even with the increase",
        7,
        True,
        PROTECTION,
        GT80,
        False,
        {"shoreland_increase": True},
        100,
        "9(b)(2)",
    ),
    (
        "(b): increase, type 1 in the protection zone, greater than 80",
        1,
        False,
        PROTECTION,
        GT80,
        False,
        {"shoreland_increase": True},
        1_000,
        "9(b)",
    ),
    (
        "(b): no increase in a less than 50 area",
        1,
        False,
        PROTECTION,
        LT50,
        False,
        {"shoreland_increase": True},
        400,
        "9(b)(1)",
    ),
    ("(c): any wetland in the setback zone", 4, False, SETBACK, GT80, False, {}, 20, "9(c)"),
    (
        "(c): increase in the setback zone",
        2,
        False,
        SETBACK,
        LT50,
        True,
        {"setback_increase": True},
        100,
        "9(c)",
    ),
    (
        "(i): a smaller local standard wins",
        2,
        False,
        OUTSIDE,
        GT80,
        False,
        {"local_limit_sqft": 3_000},
        3_000,
        "9(i)",
    ),
]


@pytest.mark.parametrize(
    ("wetland_type", "cedar", "zone", "pct", "metro", "options", "sqft", "clause"),
    [pytest.param(*row[1:], id=f"§ 103G.2241 subd. 9{row[0]}") for row in ALLOWANCES],
)
def test_allowance_table(wetland_type, cedar, zone, pct, metro, options, sqft, clause):
    d = de_minimis_allowance(
        wetland_type, zone, pct, metro, cedar_tamarack=cedar, as_of=AS_OF, **options
    )
    assert d.value == sqft
    assert d.amounts["allowance_sqft"] == sqft
    assert f"{SUBD9.replace(' subd. 9', ' subd. ')}{clause}" in d.citations
    assert d.outcome is (Outcome.ELIGIBLE if sqft > 0 else Outcome.NOT_ELIGIBLE)
    assert d.as_of == AS_OF
    assert d.parameters  # the keys and values used are recorded


def test_allowance_records_the_parameter_used():
    d = de_minimis_allowance(2, OUTSIDE, GT80, False, as_of=AS_OF)
    assert d.parameters["de_minimis.outside_zone.types_1_2_6_7_greater_than_80"] == 10_000


def test_increases_are_flagged_for_approval():
    d = de_minimis_allowance(2, PROTECTION, GT80, False, shoreland_increase=True, as_of=AS_OF)
    assert any("no direct surficial connection" in v for v in d.verify)
    d = de_minimis_allowance(2, SETBACK, GT80, False, setback_increase=True, as_of=AS_OF)
    assert any("shoreland management authority" in v for v in d.verify)


# --- the statute's traps, one test each -------------------------------------------------


def test_type_7_in_a_metro_less_than_50_percent_area_has_no_de_minimis():
    d = de_minimis_allowance(WetlandType.TYPE_7, OUTSIDE, LT50, True, as_of=AS_OF)
    assert d.value == 0
    assert d.outcome is Outcome.NOT_ELIGIBLE
    assert f"{SUBD9}(d)(2)" in d.citations
    assert any("lists types 1, 2, 6 only" in r for r in d.reasons)
    # Minn. R. 8420.0420, subp. 1: the type 7 fill has no amount, so the project is not
    # exempt and its type 2 fill, within its own (d)(2) amount, is replaced with it
    result = de_minimis(
        [
            impact(500, wetland_type=2, county="Hennepin", impact_id="t2"),
            impact(50, wetland_type=7, county="Hennepin", impact_id="t7"),
        ],
        as_of=AS_OF,
    )
    assert result.by_impact["t2"].value == 1000
    assert result.by_impact["t2"].outcome is Outcome.NOT_EXEMPT
    assert result.by_impact["t7"].outcome is Outcome.NOT_EXEMPT
    assert result.project.outcome is Outcome.NOT_EXEMPT


def test_white_cedar_is_never_the_10000_sq_ft_amount():
    larger = {10_000, 5_000, 2_000, 2_500, 1_000, 400}
    for wtype, zone, pct, metro, inc in itertools.product(
        WetlandType, ShorelandZone, PercentageArea, (False, True), (False, True)
    ):
        d = de_minimis_allowance(
            wtype, zone, pct, metro, cedar_tamarack=True, shoreland_increase=inc, as_of=AS_OF
        )
        assert d.value not in larger, (wtype, zone, pct, metro)
        assert d.value <= 100


def test_d_replaces_a2_and_a3_inside_the_metro_only():
    assert de_minimis_allowance(2, OUTSIDE, MID, True, as_of=AS_OF).value == 2_500
    assert de_minimis_allowance(2, OUTSIDE, MID, False, as_of=AS_OF).value == 5_000
    assert de_minimis_allowance(2, OUTSIDE, LT50, True, as_of=AS_OF).value == 1_000
    assert de_minimis_allowance(2, OUTSIDE, LT50, False, as_of=AS_OF).value == 2_000
    # (a)(4) for types 3, 4, 5, 8 applies metro or not
    for metro in (False, True):
        assert de_minimis_allowance(3, OUTSIDE, LT50, metro, as_of=AS_OF).value == 100


def test_exceeding_the_allowance_makes_the_whole_impact_non_exempt():
    result = de_minimis(
        [
            impact(6_000, impact_id="north"),
            impact(4_001, impact_id="south"),
        ],
        as_of=AS_OF,
    )
    assert result.project.outcome is Outcome.NOT_EXEMPT
    for name, area in (("north", 6_000), ("south", 4_001)):
        d = result.by_impact[name]
        assert d.outcome is Outcome.NOT_EXEMPT
        assert d.amounts["not_exempt_sqft"] == area  # all of it, not the 1 sq ft excess
        # the general exemption standard of subp. 1 (subp. 1 A is "any one exemption")
        assert "Minn. R. 8420.0420, subp. 1" in d.citations
        assert any("not only the excess" in r for r in d.reasons)
    assert result.project.amounts["not_exempt_sqft"] == 10_001
    (group,) = result.groups
    assert group.total_sqft == 10_001 and group.allowance_sqft == 10_000
    assert not group.within_allowance and not group.exempt


def test_amounts_of_a_b_c_are_not_combined_on_a_project():
    fills = [
        impact(9_000, zone=OUTSIDE, impact_id="upland"),
        impact(300, zone=PROTECTION, impact_id="shore"),
    ]
    strict = de_minimis(fills, as_of=AS_OF)
    # (a)(1) 10,000 and (b)(1) 400 are not added: every type 2 impact is held to 400.
    assert strict.project.outcome is Outcome.NOT_EXEMPT
    assert strict.by_impact["upland"].outcome is Outcome.NOT_EXEMPT
    assert strict.by_impact["shore"].outcome is Outcome.NOT_EXEMPT
    assert f"{SUBD9}(e)" in strict.by_impact["upland"].citations
    assert strict.groups[0].allowance_sqft == 400
    # The per_zone reading, which added (a) and (b) together, was removed (issue 13).
    with pytest.raises(RulesInputError, match="most_restrictive"):
        de_minimis(fills, multi_zone_reading="per_zone", as_of=AS_OF)


def test_setback_amount_is_one_total_for_every_type():
    result = de_minimis(
        [
            impact(15, zone=SETBACK, wetland_type=2, impact_id="meadow"),
            impact(10, zone=SETBACK, wetland_type=3, impact_id="marsh"),
        ],
        as_of=AS_OF,
    )
    (group,) = result.groups
    assert group.name == "setback_zone" and group.total_sqft == 25
    assert result.project.outcome is Outcome.NOT_EXEMPT


def test_one_impact_straddling_zones_is_held_to_the_most_restrictive():
    pct, metro = place("Crow Wing")
    straddle = impact_fact("X", 2, 5_000, protection=300, pct=pct, metro=metro)
    result = de_minimis([straddle], as_of=AS_OF)
    assert result.by_impact["X"].value == 400
    assert result.project.outcome is Outcome.NOT_EXEMPT


def test_type_groups_are_totalled_separately():
    result = de_minimis(
        [
            impact(9_000, wetland_type=2, impact_id="meadow"),
            impact(100, wetland_type=3, impact_id="marsh"),
        ],
        clause_reading="per_clause",
        as_of=AS_OF,
    )
    assert result.project.outcome is Outcome.EXEMPT
    assert {g.name for g in result.groups} == {"types_1_2_6_7", "types_3_4_5_8_cedar"}


def test_a_project_across_classes_is_held_to_the_smaller_amount():
    result = de_minimis(
        [
            impact(4_000, county="Crow Wing", impact_id="north"),
            impact(1_001, county="Morrison", impact_id="south"),
        ],
        as_of=AS_OF,
    )
    (group,) = result.groups
    assert group.allowance_sqft == 5_000 and group.total_sqft == 5_001
    assert result.project.outcome is Outcome.NOT_EXEMPT
    assert any("the smallest of its impacts' amounts" in r for r in result.project.reasons)


def test_calcareous_fen_is_never_exempt():
    result = de_minimis([impact(10, calcareous_fen=True)], as_of=AS_OF)
    d = result.by_impact["A"]
    assert d.outcome is Outcome.PROHIBITED
    assert "Minn. Stat. § 103G.223" in d.citations
    assert result.project.outcome is Outcome.NOT_EXEMPT


@pytest.mark.parametrize(
    "flag",
    [
        pytest.param("banked", id="Minn. R. 8420.0420 subp. 1: a banked wetland is not exempt"),
        pytest.param(
            "used_for_replacement_credit",
            id="Minn. R. 8420.0420 subp. 1: a wetland used for replacement credit is not exempt",
        ),
    ],
)
def test_bank_and_credit_wetlands_are_not_exempt(flag):
    result = de_minimis([impact(10, **{flag: True})], as_of=AS_OF)
    d = result.by_impact["A"]
    assert d.outcome is Outcome.NOT_EXEMPT
    assert "Minn. R. 8420.0420, subp. 1" in d.citations


def test_ineligible_impacts_count_in_the_totals():
    result = de_minimis(
        [impact(9_950, impact_id="ok"), impact(60, impact_id="fen", calcareous_fen=True)],
        as_of=AS_OF,
    )
    assert result.by_impact["ok"].outcome is Outcome.NOT_EXEMPT
    assert any("no exemption applies" in r for r in result.project.reasons)


def test_public_waters_wetland_is_out_of_scope_and_not_counted():
    result = de_minimis(
        [
            impact(50_000, wetland_type=3, impact_id="pww", public_waters_wetland=True),
            impact(100, wetland_type=3, impact_id="marsh"),
        ],
        as_of=AS_OF,
    )
    assert result.by_impact["pww"].outcome is Outcome.OUT_OF_SCOPE
    assert any("subd. 19(b)" in c for c in result.by_impact["pww"].citations)
    assert result.by_impact["marsh"].outcome is Outcome.EXEMPT
    only = de_minimis([impact(10, public_waters_wetland=True)], as_of=AS_OF)
    assert only.project.outcome is Outcome.NOT_APPLIED  # the engine: no impact in scope


def test_other_exemption_is_not_combined():
    result = de_minimis([impact(10)], other_exemption_claimed=True, as_of=AS_OF)
    assert any("subd. 9(g)" in r for r in result.by_impact["A"].reasons)
    assert result.project.outcome is Outcome.NOT_EXEMPT


def test_property_division_and_local_standards_are_left_to_verify():
    result = de_minimis([impact(10)], as_of=AS_OF)
    verify = " ".join(result.project.verify)
    assert "subd. 9(h)" in verify
    assert "subd. 9(i)" in verify
    assert "subd. 14d" in verify
    assert "subd. 11(a)" in verify
    local = de_minimis([impact(10)], local_limit_sqft=5, as_of=AS_OF)
    assert local.project.outcome is Outcome.NOT_EXEMPT
    assert f"{SUBD9}(i)" in local.by_impact["A"].citations


def test_cumulative_limit_cites_paragraph_f():
    result = de_minimis([impact(1_001)], cumulative_sqft_since_1992=9_000, as_of=AS_OF)
    d = result.by_impact["A"]
    assert f"{SUBD9}(f)" in d.citations
    assert d.amounts["cumulative_total_sqft"] == 10_001
    assert d.parameters["de_minimis.cumulative.since"] == "1992-01-01"


def test_decisions_are_immutable_and_plain():
    result = de_minimis([impact(10), impact(20, impact_id="B", wetland_type=7)], as_of=AS_OF)
    for d in (result.project, *result.by_impact.values()):
        json.dumps(d.to_dict())
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.project.outcome = Outcome.NOT_EXEMPT  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.by_impact["C"] = result.project  # type: ignore[index]
    assert result.project.to_dict()["outcome"] == "exempt"
    assert "de_minimis" in result.project.explain()


# --- input errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        pytest.param({"sqft_outside": -1.0}, "0 or more", id="a negative area is refused"),
        pytest.param({"sqft_outside": float("nan")}, "finite", id="a NaN area is refused"),
        pytest.param({"wetland_type": 9}, "Circular 39", id="type 9 is refused"),
        pytest.param({"pct_class": "eighty"}, "percentage class", id="an unknown class"),
        pytest.param({"metro": "yes"}, "True or False", id="a non-boolean flag is refused"),
        pytest.param({"impact_id": ["a"]}, "hashable", id="an unhashable id is refused"),
    ],
)
def test_impact_facts_are_validated(kwargs, match):
    base = dict(
        impact_id="A",
        wetland_type=2,
        cedar_tamarack=False,
        sqft_setback=0.0,
        sqft_protection=0.0,
        sqft_outside=10.0,
        pct_class=GT80,
        metro=False,
    )
    base.update(kwargs)
    with pytest.raises(RulesInputError, match=match):
        ImpactFacts(**base)


def test_impact_facts_convert_plain_values():
    f = impact_fact("A", 3, 3, protection=2, setback=1, pct="less_than_50_percent", metro=True)
    assert f.wetland_type is WetlandType.TYPE_3
    assert f.pct_class is LT50
    assert f.area_sqft == 6
    assert f.zones == (SETBACK, PROTECTION, OUTSIDE)


def test_project_errors():
    with pytest.raises(RulesInputError, match="no impacts"):
        de_minimis([], as_of=AS_OF)
    with pytest.raises(RulesInputError, match="appears twice"):
        de_minimis([impact(1), impact(2)], as_of=AS_OF)
    with pytest.raises(RulesInputError, match=r"expected to be one of \['most_restrictive'"):
        de_minimis([impact(1)], multi_zone_reading="sum", as_of=AS_OF)
    with pytest.raises(RulesInputError, match="cumulative_sqft_since_1992"):
        de_minimis([impact(1)], cumulative_sqft_since_1992=-5, as_of=AS_OF)
    with pytest.raises(RulesInputError, match="shoreland zone"):
        de_minimis_allowance(2, "lake", GT80, False, as_of=AS_OF)


def test_a_date_before_the_known_law_is_refused():
    with pytest.raises(ParameterNotInForce, match="earliest recorded value is in force from"):
        de_minimis_allowance(2, OUTSIDE, GT80, False, as_of="2017-12-31")


# --- properties -------------------------------------------------------------------------

types = st.sampled_from(list(WetlandType))
classes = st.sampled_from(list(PercentageArea))
flags = st.booleans()
local_limits = st.one_of(st.none(), st.integers(min_value=0, max_value=20_000))


@settings(max_examples=200, deadline=None)
@given(types, flags, classes, flags, flags, flags, local_limits)
def test_zone_amounts_are_ordered_setback_protection_outside(
    wtype, cedar, pct, metro, shore_inc, setback_inc, local
):
    """setback <= protection <= outside, as the law holds it.

    The exception the statute makes: a type 7 wetland (not white cedar or tamarack) in a
    metropolitan less than 50 percent area has no amount outside the protection zone
    (subd. 9(d)(2) lists types 1, 2, 6), while the protection zone gives it the (b)(1)
    amount and the setback zone the (c) amount. There the outside amount is 0.
    """

    def amount(zone):
        return de_minimis_allowance(
            wtype,
            zone,
            pct,
            metro,
            cedar_tamarack=cedar,
            shoreland_increase=shore_inc,
            setback_increase=setback_inc,
            local_limit_sqft=local,
            as_of=AS_OF,
        ).value

    setback, protection, outside = amount(SETBACK), amount(PROTECTION), amount(OUTSIDE)
    assert setback <= protection
    if wtype is WetlandType.TYPE_7 and not cedar and metro and pct is LT50:
        assert outside == 0
    else:
        assert protection <= outside


@st.composite
def projects(draw):
    count = draw(st.integers(min_value=1, max_value=4))
    out = []
    for i in range(count):
        zones = [draw(st.integers(min_value=0, max_value=12_000)) for _ in range(3)]
        out.append(
            impact_fact(
                i,
                draw(types),
                float(zones[2]),
                cedar=draw(flags),  # drawn in the order the strategy always drew them
                setback=float(zones[0]),
                protection=float(zones[1]),
                pct=draw(classes),
                metro=draw(flags),
            )
        )
    return out


@settings(max_examples=150, deadline=None)
@given(
    projects(),
    st.floats(min_value=0, max_value=1),
    st.sampled_from(["most_restrictive"]),
)
def test_outcome_is_monotone_in_area(impacts, factor, reading):
    """If a project is exempt at area A, it is exempt at every smaller area."""
    big = de_minimis(impacts, multi_zone_reading=reading, as_of=AS_OF)
    small_impacts = [
        dataclasses.replace(
            f,
            sqft_setback=f.sqft_setback * factor,
            sqft_protection=f.sqft_protection * factor,
            sqft_outside=f.sqft_outside * factor,
        )
        for f in impacts
    ]
    small = de_minimis(small_impacts, multi_zone_reading=reading, as_of=AS_OF)
    if big.exempt:
        assert small.exempt
    for f in impacts:
        if big.by_impact[f.impact_id].outcome is Outcome.EXEMPT:
            assert small.by_impact[f.impact_id].outcome is Outcome.EXEMPT


KEY_A1 = "de_minimis.outside_zone.types_1_2_6_7_greater_than_80"
FIRST_A1 = default_parameters()[KEY_A1].values[0][0]


@settings(max_examples=100, deadline=None)
@given(
    st.dates(min_value=FIRST_A1),
    st.dates(),
    st.integers(min_value=0, max_value=50_000),
)
def test_a_dated_override_changes_the_answer_only_from_its_date(start, asked, new_amount):
    key = KEY_A1
    params = default_parameters().with_values({key: new_amount}, start)
    first = FIRST_A1
    if asked < first:
        with pytest.raises(ParameterNotInForce):
            de_minimis_allowance(2, OUTSIDE, GT80, False, params=params, as_of=asked)
        return
    got = de_minimis_allowance(2, OUTSIDE, GT80, False, params=params, as_of=asked).value
    expected = new_amount if asked >= start else 10_000
    assert got == expected


def test_most_restrictive_holds_a_protection_zone_type_7_to_the_outside_zone_in_metro_lt50():
    """The default reading's consequence of the (d)(2) gap, documented in docs/rules.md."""
    result = de_minimis(
        [
            impact(300, zone=PROTECTION, wetland_type=7, county="Hennepin", impact_id="swamp"),
            impact(200, zone=OUTSIDE, wetland_type=2, county="Hennepin", impact_id="meadow"),
        ],
        as_of=AS_OF,
    )
    assert result.by_impact["swamp"].outcome is Outcome.NOT_EXEMPT
    # held to (b)(1) 400, and the swamp's 300 sq ft of type 7 wetland counts in that total
    assert result.by_impact["meadow"].outcome is Outcome.NOT_EXEMPT


# --- totals exactly at the amount --------------------------------------------------------


@pytest.mark.parametrize(
    ("areas", "exempt"),
    [
        pytest.param(
            (652.2, 1_101.9, 101.1, 144.8),
            True,
            id="§ 103G.2241 subd. 9(a)(3): fills of 652.2, 1,101.9, 101.1 and 144.8 sq ft in "
            "Stearns County total exactly 2,000 sq ft and are de minimis",
        ),
        pytest.param(
            (652.2, 1_101.9, 101.1, 144.8, 1),
            False,
            id="§ 103G.2241 subd. 9(a)(3): the same fills and one more square foot are not",
        ),
        pytest.param(
            (1_027.13, 46.28, 926.59),
            True,
            id="§ 103G.2241 subd. 9(a)(3): fills of 1,027.13, 46.28 and 926.59 sq ft total "
            "exactly 2,000 sq ft and are de minimis",
        ),
        pytest.param(
            (0.1,) * 20_000,
            True,
            id="§ 103G.2241 subd. 9(a)(3): 20,000 fills of 0.1 sq ft total exactly 2,000 sq ft "
            "and are de minimis",
            marks=pytest.mark.slow,  # 20,000 impacts through the engine: make test, not check
        ),
    ],
)
def test_many_fills_totalling_exactly_the_amount_are_de_minimis(areas, exempt):
    pct, metro = place("Stearns")
    fills = [impact_fact(i, 2, a, pct=pct, metro=metro) for i, a in enumerate(areas)]
    for reading in ("most_restrictive",):
        result = de_minimis(fills, multi_zone_reading=reading, as_of=AS_OF)
        assert result.exempt is exempt
        assert result.groups[0].within_allowance is exempt


def test_subd_9f_cumulative_total_exactly_at_the_limit_in_decimals_is_exempt():
    """564.1 sq ft since 1992 plus fills of 4,796.6 and 4,639.3 sq ft is exactly 10,000."""
    from wetland_gis.rules.exempt import ExemptionFacts

    known = ExemptionFacts(remainder_newly_qualifies=False)  # subp. 1 B(4) answered
    fills = [
        impact(4_796.6, impact_id="a", exemption=known),
        impact(4_639.3, impact_id="b", exemption=known),
    ]
    result = de_minimis(fills, cumulative_sqft_since_1992=564.1, as_of=AS_OF)
    assert result.exempt
    (group,) = result.groups
    assert group.cumulative_total_sqft == 10_000


# --- subd. 9(e) across zones and type groups ------------------------------------------


def test_subd_9c_a_type_7_area_in_the_setback_zone_counts_in_the_one_setback_total():
    """Subd. 9(c) allows 20 sq ft "of wetland" of any type: in Hennepin County a type 7
    fill of 15 sq ft in the setback zone (and 5 sq ft outside the protection zone, where
    type 7 has no amount) and a type 2 fill of 10 sq ft in the setback zone put 25 sq ft in
    the setback zone. The type 2 fill is not de minimis under either reading."""
    pct, metro = place("Hennepin")
    fills = [
        impact_fact("swamp", 7, 5, setback=15, pct=pct, metro=metro),
        impact_fact("meadow", 2, 0, setback=10, pct=pct, metro=metro),
    ]
    for reading in ("most_restrictive",):
        result = de_minimis(fills, multi_zone_reading=reading, as_of=AS_OF)
        assert result.by_impact["swamp"].outcome is Outcome.NOT_EXEMPT, reading
        assert result.by_impact["meadow"].outcome is Outcome.NOT_EXEMPT, reading
        # no_amount_reading "own_zone" (the default): the type 7 impact has no amount
        # outside the protection zone and keeps none; the setback total is the meadow's
        none = next(g for g in result.groups if g.name == "no_amount")
        assert "swamp" in none.impact_ids and not none.within_allowance, reading


def test_subd_9b1_a_type_7_area_in_the_protection_zone_counts_in_the_type_1_2_6_7_total():
    """Subd. 9(b)(1) allows 400 sq ft "of type 1, 2, 6, or 7 wetland". In Hennepin County a
    300 sq ft type 7 fill in the protection zone and a 200 sq ft type 2 fill outside it:
    under the default reading the type 2 fill is held to the (b)(1) amount, and the
    project's type 1, 2, 6, 7 wetland is 500 sq ft, over it. (With a type 2 fill in place
    of the type 7 one the answer is the same.)"""
    pct, metro = place("Hennepin")
    for swamp_type in (7, 2):
        result = de_minimis(
            [
                impact_fact("swamp", swamp_type, 0, protection=300, pct=pct, metro=metro),
                impact_fact("meadow", 2, 200, pct=pct, metro=metro),
            ],
            as_of=AS_OF,
        )
        assert result.by_impact["meadow"].outcome is Outcome.NOT_EXEMPT, swamp_type
        assert result.by_impact["meadow"].amounts["not_exempt_sqft"] == 200
        group = next(g for g in result.groups if "meadow" in g.impact_ids)
        assert group.total_sqft == 500 and group.allowance_sqft == 400, swamp_type


@settings(max_examples=300, deadline=None)
@given(projects())
def test_a_project_is_exempt_only_if_every_impact_is(impacts):
    """Minn. R. 8420.0420, subp. 1 and subd. 9(e): no impact stays exempt while another
    impact of the project is not de minimis (a fen excepted: it is prohibited)."""
    result = de_minimis(impacts, as_of=AS_OF)
    answers = {d.outcome for d in result.by_impact.values()} - {Outcome.OUT_OF_SCOPE}
    if Outcome.NOT_EXEMPT in answers or Outcome.PROHIBITED in answers:
        assert Outcome.EXEMPT not in answers


@pytest.mark.parametrize("wetland_type", [1, 2, 6])
def test_subd_9d2_does_not_repeat_the_cedar_exclusion_and_the_decision_says_so(wetland_type):
    """Subd. 9(d)(2) gives 1,000 sq ft of "type 1, 2, or 6 wetland" without excluding white
    cedar and tamarack wetlands; the tool keeps them at the (a)(4) amount (docs/rules.md,
    ambiguities). The reasons must not say that (d) gives them no amount, and the reading
    is a verify item."""
    d = de_minimis_allowance(wetland_type, OUTSIDE, LT50, True, cedar_tamarack=True, as_of=AS_OF)
    assert d.value == 100
    assert not any("gives no amount" in r for r in d.reasons)
    assert any("(d)(2)" in r and "white cedar" in r for r in d.reasons)
    assert any("(d)(2)" in v for v in d.verify)
    # where (d) really gives none, the sentence stays
    for wtype, pct in ((3, LT50), (7, LT50), (2, MID)):
        d = de_minimis_allowance(wtype, OUTSIDE, pct, True, cedar_tamarack=True, as_of=AS_OF)
        assert any("gives no amount" in r for r in d.reasons), (wtype, pct)


def test_subd_9b_increase_is_up_to_the_amount_and_the_verify_item_says_so():
    """Subd. 9(b): the clause (1) amount "may be increased up to 1,000 square feet"; the
    amount approved may be smaller, which a person must check."""
    d = de_minimis_allowance(2, PROTECTION, GT80, False, shoreland_increase=True, as_of=AS_OF)
    assert d.value == 1_000
    assert any("up to 1,000 sq ft" in v and "local_limit_sqft" in v for v in d.verify)


# --- de_minimis() is a view of the engine ---------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    projects(),
    st.sampled_from([True, False, None]),
    st.sampled_from([0.0, 300.0, 9_000.0]),
    st.booleans(),
    st.sampled_from(["one_clause", "per_clause"]),
)
def test_de_minimis_and_decide_project_agree_exactly(impacts, owns, prior, other, clause):
    """Subd. 9: ``de_minimis()`` is a view of ``decide_project``; on every generated project
    and claims their answers are the same, project and impact, with no tolerance."""
    from wetland_gis.rules import Claims, decide_project

    got = de_minimis(
        impacts,
        owns_entire_wetland=owns,
        cumulative_sqft_since_1992=prior,
        other_exemption_claimed=other,
        clause_reading=clause,
        as_of=AS_OF,
    )
    claims = Claims(
        owns_whole_wetland=owns,
        prior_sqft_since_1992=prior,
        other_exemption_claimed=other,
        clause_reading=clause,
    )
    engine = decide_project(impacts, claims, as_of=AS_OF)
    assert got.project.outcome.value == engine.totals["de_minimis"]
    for d in engine.impacts:
        if d.de_minimis is not None:
            assert got.by_impact[d.impact_id].outcome is d.de_minimis
            assert got.by_impact[d.impact_id].value == d.allowance_sqft
    assert [(g.impact_ids, g.total_sqft, g.allowance_sqft) for g in got.groups] == [
        (t.impact_ids, t.total_sqft, t.allowance_sqft) for t in engine.de_minimis_totals
    ]


@pytest.mark.parametrize(
    ("sqft", "expected"),
    [
        *UNKNOWN_OWNER_FLOOR,
        pytest.param(
            10_001, "not_exempt", id="subd. 9(a)(1): 10,001 sq ft is over the amount anyway"
        ),
    ],
)
def test_unknown_ownership_is_conditional_as_in_the_engine(sqft, expected):
    from wetland_gis.rules import Claims, decide_project

    one = impact(sqft)
    got = de_minimis([one], owns_entire_wetland=None, as_of=AS_OF)
    assert got.project.outcome.value == expected
    if expected == "conditional":
        assert any("owns_whole_wetland" in v for v in got.project.verify)
        assert got.by_impact["A"].outcome.value == "conditional"
    unknown = impact(sqft, owns_whole_wetland=None, prior_sqft_since_1992=0.0)
    engine = decide_project([unknown], Claims(), as_of=AS_OF).totals["de_minimis"]
    assert engine == expected
