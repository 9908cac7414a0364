"""Utilities, Minn. Stat. § 103G.2241, subd. 6 (a)(1)-(3), (b) (rules/exempt/utilities.py)."""

from __future__ import annotations

import pytest
from exempt_helpers import SQFT_PER_ACRE, both_sides_test, clause, flip_cases, outcome_test, run

from wetland_gis.enums import Outcome
from wetland_gis.rules.exempt import utilities as ut

HALF_ACRE = SQFT_PER_ACRE // 2  # 21,780 sq ft
BASE_1 = {"utility_work": True, "avoided_minimized": True, "project_sqft": 5_000.0}

CASES = [
    *flip_cases(
        "subd. 6(a)(1)",
        ut.utility_service,
        BASE_1,
        [("utility_work", False), ("avoided_minimized", False), ("project_sqft", HALF_ACRE)],
        defining=("utility_work",),
    ),
    *flip_cases(
        "subd. 6(a)(2)",
        ut.utility_operation_maintenance,
        {"utility_operation": True, "additional_intrusion": False},
        [("utility_operation", False), ("additional_intrusion", True)],
        defining=("utility_operation",),
    ),
    *flip_cases(
        "subd. 6(a)(3)",
        ut.sewage_treatment_update,
        {"sewage_system_repair": True},
        [("sewage_system_repair", False)],
        defining=("sewage_system_repair",),
    ),
]


test_each_condition_on_both_sides = both_sides_test(CASES)


@pytest.mark.parametrize(
    ("impact", "project", "want"),
    [
        pytest.param(100.0, HALF_ACRE - 1, Outcome.EXEMPT, id="subd. 6(a)(1)(ii): one under"),
        pytest.param(100.0, HALF_ACRE, Outcome.NOT_EXEMPT, id="subd. 6(a)(1)(ii): exactly"),
        pytest.param(100.0, None, Outcome.CONDITIONAL, id="subd. 6(a)(1)(ii): project unknown"),
        pytest.param(
            HALF_ACRE, None, Outcome.NOT_EXEMPT, id="subd. 6(a)(1)(ii): the impact alone fails"
        ),
        pytest.param(None, None, Outcome.CONDITIONAL, id="subd. 6(a)(1)(ii): no area at all"),
    ],
)
def test_less_than_one_half_acre_of_the_project(impact, project, want):
    values = {**BASE_1, "impact_sqft": impact, "project_sqft": project}
    result = run(ut.utility_service, **values)
    assert result.outcome is want, result.reasons
    assert result.parameters["exemptions.utility_max_acres"] == 0.5


certification = clause(ut.utility_certification, {"utility_maintenance": True})

test_certification_procedure = outcome_test(
    [
        certification(
            "subd. 6(b): best management practices", Outcome.NOT_REQUIRED, utility_bmp=True
        ),
        certification(
            "subd. 6(b): seasonal or annual certification",
            Outcome.NOT_REQUIRED,
            lgu_certification=True,
        ),
        certification("subd. 6(b): emergency work proceeds", Outcome.NOT_REQUIRED, emergency=True),
        certification(
            "subd. 6(b): none of the three",
            Outcome.REQUIRED,
            utility_bmp=False,
            emergency=False,
            lgu_certification=False,
        ),
        certification("subd. 6(b): claims unknown", Outcome.CONDITIONAL),
        certification(
            "subd. 6(b): not maintenance, repair or replacement",
            Outcome.REQUIRED,
            utility_maintenance=False,
            utility_bmp=True,
        ),
    ]
)


def test_emergency_work_is_addressed_with_the_lgu_afterwards():
    result = run(ut.utility_certification, utility_maintenance=True, emergency=True)
    assert any("after the emergency work" in v for v in result.verify)
