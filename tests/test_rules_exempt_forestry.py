"""Forestry, Minn. Stat. § 103G.2241, subd. 7 (rules/exempt/forestry.py)."""

from __future__ import annotations

from exempt_helpers import both_sides_test, flip_cases, run

from wetland_gis.rules.exempt import forestry

CASES = [
    *flip_cases(
        "subd. 7(1)",
        forestry.silviculture_temporary_crossing,
        {
            "silviculture_crossing": True,
            "limits_impact": True,
            "dikes_ditches_tile": False,
            "buildings": False,
            "results_in_drainage": False,
        },
        [
            ("silviculture_crossing", False),
            ("limits_impact", False),
            ("dikes_ditches_tile", True),
            ("buildings", True),
            ("results_in_drainage", True),
        ],
        defining=("silviculture_crossing",),
    ),
    *flip_cases(
        "subd. 7(2)",
        forestry.forest_road_access,
        {
            "forest_road": True,
            "limits_impact": True,
            "dikes_ditches_tile": False,
            "filling_avoided": True,
            "results_in_drainage": False,
        },
        [
            ("forest_road", False),
            ("limits_impact", False),
            ("dikes_ditches_tile", True),
            ("filling_avoided", False),
            ("results_in_drainage", True),
        ],
        defining=("forest_road",),
    ),
]


test_each_condition_on_both_sides = both_sides_test(CASES)


def test_forestry_answers_carry_no_agricultural_use_restriction():
    result = run(
        forestry.forest_road_access,
        forest_road=True,
        limits_impact=True,
        dikes_ditches_tile=False,
        filling_avoided=True,
        results_in_drainage=False,
    )
    assert result.outcome.value == "exempt"
    assert not any("8420.0420, subp. 1 D" in v for v in result.verify)
