"""Federal approvals, Minn. Stat. § 103G.2241, subd. 3 (rules/exempt/federal.py)."""

from __future__ import annotations

from exempt_helpers import both_sides_test, flip_cases

from wetland_gis.rules.exempt import federal

CASES = flip_cases(
    "subd. 3",
    federal.federal_approval,
    {"federal_authorization": True, "federal_rules_state_approved": True},
    [("federal_authorization", False), ("federal_rules_state_approved", False)],
    defining=("federal_authorization",),
)


test_each_condition_on_both_sides = both_sides_test(CASES)
