"""Wetland restoration, Minn. Stat. § 103G.2241, subd. 4 (rules/exempt/restoration.py)."""

from __future__ import annotations

from exempt_helpers import both_sides_test, flip_cases

from wetland_gis.rules.exempt import restoration

CASES = [
    *flip_cases(
        "subd. 4(1)",
        restoration.conservation_restoration,
        {"restored_for_conservation": True, "contract_right_to_drain": True},
        [("restored_for_conservation", False), ("contract_right_to_drain", False)],
        defining=("restored_for_conservation",),
    ),
    *flip_cases(
        "subd. 4(2)",
        restoration.landowner_restoration,
        {
            "restored_by_landowner": True,
            "restored_without_assistance": True,
            "used_for_replacement_credit": False,
            "banked": False,
        },
        [
            ("restored_by_landowner", False),
            ("restored_without_assistance", False),
            ("used_for_replacement_credit", True),
            ("banked", True),
        ],
        defining=("restored_by_landowner",),
    ),
]


test_each_condition_on_both_sides = both_sides_test(CASES)
