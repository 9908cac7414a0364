"""Drainage, Minn. Stat. § 103G.2241, subd. 2 (b)-(e) (rules/exempt/drainage.py)."""

from __future__ import annotations

import pytest
from exempt_helpers import SQFT_PER_ACRE, both_sides_test, clause, flip_cases, outcome_test, run

from wetland_gis.enums import Outcome
from wetland_gis.rules.exempt import drainage as dr

BASE_2B = {
    "wetland_type": 2,
    "impact_kind": "drain",
    "impact_sqft": 10_000.0,
    "project_type_2_6_drained_sqft": 10_000.0,
    "incorporated": False,
    "drainage_benefits": True,
    "system_expenditure": True,
    "system_repaired": False,
    "no_repair_required": False,
    "drained_for_conversion": False,
}
BASE_2C = {
    "wetland_type": 3,
    "impact_kind": "drain",
    "drainage_maintenance": True,
    "public_drainage_system": True,
    "wetland_existence_years": 25,
}
BASE_2E = {
    "impact_kind": "drain",
    "land_use": "agricultural",
    "years_annual_crops": 8,
    "years_rotation_or_fallow": 0,
    "conservation_program": False,
}

CASES = [
    *flip_cases(
        "subd. 2(b)",
        dr.assessed_drainage_benefits,
        BASE_2B,
        [
            ("impact_kind", "fill"),
            ("wetland_type", 3),
            ("incorporated", True),
            ("drainage_benefits", False),
            ("drained_for_conversion", True),
        ],
        defining=("drainage_benefits",),
    ),
    *flip_cases(
        "subd. 2(c)",
        dr.public_drainage_maintenance,
        BASE_2C,
        [
            ("drainage_maintenance", False),
            ("public_drainage_system", False),
            ("wetland_existence_years", 26),
            ("impact_kind", "excavate"),
        ],
        defining=("drainage_maintenance",),
    ),
    *flip_cases(
        "subd. 2(d)",
        dr.private_drainage_maintenance,
        {**BASE_2C, "public_drainage_system": False, "wetland_type": 2},
        [
            ("drainage_maintenance", False),
            ("public_drainage_system", True),
            ("wetland_existence_years", 26),
        ],
        defining=("drainage_maintenance",),
    ),
    *flip_cases(
        "subd. 2(e)(1)",
        dr.agricultural_land_drainage,
        BASE_2E,
        [("impact_kind", "fill"), ("land_use", "nonagricultural"), ("years_annual_crops", 7)],
    ),
]


test_each_condition_on_both_sides = both_sides_test(CASES)


@pytest.mark.parametrize(
    ("clause", "want"),
    [
        pytest.param({"system_expenditure": True}, Outcome.EXEMPT, id="subd. 2(b)(1)(i)"),
        pytest.param({"system_repaired": True}, Outcome.EXEMPT, id="subd. 2(b)(1)(ii)"),
        pytest.param({"no_repair_required": True}, Outcome.EXEMPT, id="subd. 2(b)(1)(iii)"),
        pytest.param({}, Outcome.NOT_EXEMPT, id="subd. 2(b)(1): none of (i)-(iii)"),
        pytest.param(
            {"system_repaired": None}, Outcome.CONDITIONAL, id="subd. 2(b)(1): one unknown"
        ),
    ],
)
def test_the_20_year_period_clauses_are_alternatives(clause, want):
    values = {
        **BASE_2B,
        "system_expenditure": False,
        "system_repaired": False,
        "no_repair_required": False,
        **clause,
    }
    result = run(dr.assessed_drainage_benefits, **values)
    assert result.outcome is want
    assert result.parameters["exemptions.drainage_benefit_period_years"] == 20
    assert result.parameters["exemptions.drainage_benefit_period_end"] == "1992-01-01"


FIVE_ACRES = 5 * SQFT_PER_ACRE


@pytest.mark.parametrize(
    ("impact", "project", "want"),
    [
        pytest.param(FIVE_ACRES, FIVE_ACRES, Outcome.EXEMPT, id="subd. 2(b): exactly five acres"),
        pytest.param(
            FIVE_ACRES, FIVE_ACRES + 1, Outcome.NOT_EXEMPT, id="subd. 2(b): one sq ft over"
        ),
        pytest.param(
            1_000.0, FIVE_ACRES + 1, Outcome.NOT_EXEMPT, id="subd. 2(b): the project is over"
        ),
        pytest.param(
            1_000.0, None, Outcome.CONDITIONAL, id="subd. 2(b): project area unknown, impact in"
        ),
        pytest.param(FIVE_ACRES + 1, None, Outcome.NOT_EXEMPT, id="subd. 2(b): impact alone over"),
    ],
)
def test_five_acres_of_type_2_or_6(impact, project, want):
    values = {**BASE_2B, "impact_sqft": float(impact), "project_type_2_6_drained_sqft": project}
    result = run(dr.assessed_drainage_benefits, **values)
    assert result.outcome is want, result.reasons


def test_type_1_drains_whatever_its_size():
    values = {**BASE_2B, "wetland_type": 1, "project_type_2_6_drained_sqft": None}
    result = run(dr.assessed_drainage_benefits, **{**values, "impact_sqft": 10.0 * FIVE_ACRES})
    assert result.outcome is Outcome.EXEMPT


def test_drainage_benefits_answers_carry_the_conversion_and_use_restriction_items():
    result = run(dr.assessed_drainage_benefits, **BASE_2B)
    text = " ".join(result.verify)
    assert "10-year period following drainage" in text
    assert "8420.0420, subp. 1 D" in text
    assert "deed restriction" in text


@pytest.mark.parametrize(
    ("wtype", "kind", "years", "want"),
    [
        pytest.param(3, "drain", 25, Outcome.EXEMPT, id="subd. 2(c): type 3, 25 years"),
        pytest.param(4, "drain", 26, Outcome.NOT_EXEMPT, id="subd. 2(c): type 4, 26 years"),
        pytest.param(5, "fill", 60, Outcome.EXEMPT, id="subd. 2(c): filling is not excepted"),
        pytest.param(2, "drain", 60, Outcome.EXEMPT, id="subd. 2(c): type 2 is not excepted"),
        pytest.param(3, "drain", None, Outcome.CONDITIONAL, id="subd. 2(c): age unknown"),
        pytest.param(None, "drain", 60, Outcome.CONDITIONAL, id="subd. 2(c): type unknown"),
        pytest.param(None, "drain", 10, Outcome.EXEMPT, id="subd. 2(c): young, type moot"),
        pytest.param(3, "unknown", 60, Outcome.CONDITIONAL, id="subd. 2(c): kind unknown"),
    ],
)
def test_public_maintenance_25_year_exception(wtype, kind, years, want):
    values = {
        **BASE_2C,
        "wetland_type": wtype,
        "impact_kind": kind,
        "wetland_existence_years": years,
    }
    result = run(dr.public_drainage_maintenance, **values)
    assert result.outcome is want, result.reasons


@pytest.mark.parametrize(
    ("kind", "years", "want"),
    [
        pytest.param("drain", 25, Outcome.EXEMPT, id="subd. 2(d): 25 years"),
        pytest.param("drain", 26, Outcome.NOT_EXEMPT, id="subd. 2(d): 26 years, any type"),
        pytest.param("fill", 80, Outcome.EXEMPT, id="subd. 2(d): filling is not excepted"),
    ],
)
def test_private_maintenance_25_year_exception(kind, years, want):
    values = {
        "wetland_type": 2,
        "impact_kind": kind,
        "drainage_maintenance": True,
        "public_drainage_system": False,
        "wetland_existence_years": years,
    }
    assert run(dr.private_drainage_maintenance, **values).outcome is want


crops = clause(dr.agricultural_land_drainage, {"impact_kind": "drain", "land_use": "agricultural"})

test_eight_of_ten_years = outcome_test(
    [
        crops("subd. 2(e)(1): 8 of 10", Outcome.EXEMPT, years_annual_crops=8),
        crops(
            "subd. 2(e)(1): 7 of 10, neither other clause",
            Outcome.NOT_EXEMPT,
            years_annual_crops=7,
            years_rotation_or_fallow=0,
            conservation_program=False,
        ),
        crops("subd. 2(e)(2): 8 of 10", Outcome.EXEMPT, years_rotation_or_fallow=8),
        crops(
            "subd. 2(e): 5 cropped and 3 in rotation meet neither clause",
            Outcome.NOT_EXEMPT,
            years_annual_crops=5,
            years_rotation_or_fallow=3,
            conservation_program=False,
        ),
        crops(
            "subd. 2(e): 7 cropped, clauses (2) and (3) unknown",
            Outcome.CONDITIONAL,
            years_annual_crops=7,
        ),
        crops(
            "subd. 2(e)(3): enrolled, met before",
            Outcome.EXEMPT,
            conservation_program=True,
            met_before_enrollment=True,
        ),
        crops(
            "subd. 2(e)(3): enrolled, before-enrollment claim missing",
            Outcome.CONDITIONAL,
            conservation_program=True,
        ),
        crops("subd. 2(e): no year fact given", Outcome.NOT_APPLIED),
    ]
)
