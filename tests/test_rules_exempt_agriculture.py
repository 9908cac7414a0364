"""Agricultural activities, Minn. Stat. § 103G.2241, subd. 1 (1)-(7) (rules/exempt/agriculture)."""

from __future__ import annotations

import pytest
from exempt_helpers import CLEAN, DAY, both_sides_test, flip_cases, run

from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules.exempt import ExemptionFacts, agriculture as ag, drainage as dr
from wetland_gis.rules.exempt.model import sized_type, start

CASES = [
    *flip_cases(
        "subd. 1(1)",
        ag.cropped_before_1991,
        {"years_cropped_before_1991": 6, **CLEAN},
        [("years_cropped_before_1991", 5)],
        defining=("years_cropped_before_1991",),
    ),
    *flip_cases(
        "subd. 1(2) type 1",
        ag.pasture_land,
        {
            "wetland_type": 1,
            "land_use": "pasture",
            "pasture_same_use": True,
            "pasture_1991": True,
            "bottomland_hardwood": False,
        },
        [
            ("land_use", "agricultural"),
            ("pasture_same_use", False),
            ("bottomland_hardwood", True),
            ("pasture_1991", False),
        ],
        defining=("land_use",),
    ),
    *flip_cases(
        "subd. 1(2) type 6",
        ag.pasture_land,
        {
            "wetland_type": 6,
            "land_use": "pasture",
            "pasture_same_use": True,
            "pasture_1991": True,
            "wetland_acres": 1.9,
        },
        [("wetland_acres", 2.0), ("wetland_type", 3), ("pasture_1991", False)],
    ),
    *flip_cases(
        "subd. 1(3)",
        ag.normal_farming_practice,
        {"normal_farming": True, "impact_kind": "fill"},
        [("normal_farming", False), ("impact_kind", "drain")],
        defining=("normal_farming",),
    ),
    *flip_cases(
        "subd. 1(4)",
        ag.conservation_practice,
        {"soil_water_practice": True, "swcd_approved_practice": True},
        [("soil_water_practice", False), ("swcd_approved_practice", False)],
        defining=("soil_water_practice",),
    ),
    *flip_cases(
        "subd. 1(5)",
        ag.aquaculture_activity,
        {"aquaculture": True, "corps_404_permit": True, "buildings": False},
        [("aquaculture", False), ("corps_404_permit", False), ("buildings", True)],
        defining=("aquaculture",),
    ),
    *flip_cases(
        "subd. 1(6)",
        ag.wild_rice_production,
        {"wild_rice": True, "corps_404_permit": True},
        [("wild_rice", False), ("corps_404_permit", False)],
        defining=("wild_rice",),
    ),
    *flip_cases(
        "subd. 1(7)",
        ag.swampbuster_land,
        {"land_use": "agricultural", "swampbuster": True, "agricultural_activity": True},
        [("land_use", "nonagricultural"), ("swampbuster", False), ("agricultural_activity", False)],
        defining=("swampbuster",),
    ),
]


test_each_condition_on_both_sides = both_sides_test(CASES)


@pytest.mark.parametrize(
    ("years", "want"),
    [
        pytest.param(0, Outcome.NOT_EXEMPT, id="subd. 1(1): 0 of 10 years"),
        pytest.param(5, Outcome.NOT_EXEMPT, id="subd. 1(1): 5 of 10 years, one short"),
        pytest.param(6, Outcome.EXEMPT, id="subd. 1(1): exactly 6 of 10 years"),
        pytest.param(10, Outcome.EXEMPT, id="subd. 1(1): all 10 years"),
    ],
)
def test_six_of_ten_years_before_1991(years, want):
    result = run(ag.cropped_before_1991, years_cropped_before_1991=years)
    assert result.outcome is want
    assert result.parameters["exemptions.agriculture_cropped_min_years"] == 6
    assert result.parameters["exemptions.agriculture_cropped_before"] == "1991-01-01"


def test_more_years_than_the_lookback_is_refused():
    with pytest.raises(RulesInputError, match="at most 10 years"):
        run(ag.cropped_before_1991, years_cropped_before_1991=11)


@pytest.mark.parametrize(
    ("wtype", "acres", "want"),
    [
        pytest.param(2, 1.999, Outcome.EXEMPT, id="subd. 1(2): type 2 under two acres"),
        pytest.param(2, 2.0, Outcome.NOT_EXEMPT, id="subd. 1(2): type 2 exactly two acres"),
        pytest.param(6, 2.001, Outcome.NOT_EXEMPT, id="subd. 1(2): type 6 over two acres"),
        pytest.param(2, None, Outcome.CONDITIONAL, id="subd. 1(2): type 2 of unknown size"),
        pytest.param(1, 500.0, Outcome.EXEMPT, id="subd. 1(2): type 1 whatever its size"),
        pytest.param(7, 0.1, Outcome.NOT_EXEMPT, id="subd. 1(2): type 7 not covered"),
        pytest.param(None, 1.0, Outcome.CONDITIONAL, id="subd. 1(2): type unknown"),
    ],
)
def test_pasture_size_limit(wtype, acres, want):
    result = run(
        ag.pasture_land,
        wetland_type=wtype,
        wetland_acres=acres,
        land_use="pasture",
        pasture_same_use=True,
        pasture_1991=True,
        bottomland_hardwood=False,
    )
    assert result.outcome is want, result.reasons


def test_agricultural_answers_carry_the_ten_year_use_restriction():
    result = run(ag.wild_rice_production, wild_rice=True, corps_404_permit=True)
    assert result.outcome is Outcome.EXEMPT
    restriction = [v for v in result.verify if v.startswith("Minn. R. 8420.0420, subp. 1 D")]
    assert len(restriction) == 1 and "10 years" in restriction[0]
    assert "Minn. R. 8420.0420, subp. 1 D" in result.citations
    assert result.parameters["exemptions.use_restriction_years"] == 10


def test_wild_rice_without_the_permit_claim_is_conditional_naming_it():
    result = run(ag.wild_rice_production, wild_rice=True)
    assert result.outcome is Outcome.CONDITIONAL
    assert result.unknown == ("corps_404_permit",)


def test_normal_farming_of_unknown_kind_is_conditional():
    result = run(ag.normal_farming_practice, normal_farming=True, impact_kind="unknown")
    assert result.outcome is Outcome.CONDITIONAL
    assert "impact_kind" in result.unknown


def test_a_failed_clause_names_its_unknown_conditions_as_moot_without_their_words():
    """subd. 1(2): a type 3 wetland fails the clause, so the 1991 pasture and same-use
    conditions left unknown cannot change the answer (issue 30: a 5,000-impact pipeline
    stored every such condition's words for every impact). They are named, not worded, and
    are no verify item."""
    result = run(
        ag.pasture_land,
        wetland_type=3,
        land_use="pasture",
        pasture_same_use=None,
        pasture_1991=None,
    )
    assert result.outcome is Outcome.NOT_EXEMPT
    assert any(r.startswith("Not met (subd. 1(2))") for r in result.reasons)
    assert not any(r.startswith("Not known (") for r in result.reasons)
    moot = [r for r in result.reasons if r.startswith("Not known, and moot")]
    assert moot and "pasture_same_use" in moot[0] and "pasture_1991" in moot[0]
    assert not any("pasture_1991" in v for v in result.verify)


_PASTURE = (
    ag.pasture_land,
    (
        "exemptions.pasture_any_size_types",
        "exemptions.pasture_small_types",
        "exemptions.pasture_small_max_acres",
        "clause",
    ),
    {"any_note": " (not bottomland hardwood)", "limited_words": "of less than"},
)
_ASSESSED = (
    dr.assessed_drainage_benefits,
    (
        "exemptions.drainage_any_size_types",
        "exemptions.drainage_limited_types",
        "exemptions.drainage_limited_max_acres",
        "paragraph",
    ),
    {"limited_words": "drained up to"},
)


@pytest.mark.parametrize(
    ("clause", "wtype", "want", "texts", "limit_read"),
    [
        pytest.param(_PASTURE, 1, 1, [], False, id="subd. 1(2): type 1, any size"),
        pytest.param(_PASTURE, 6, 6, [], False, id="subd. 1(2): type 6, size limited"),
        pytest.param(
            _PASTURE,
            3,
            None,
            ["The clause covers type 1, 2 or 6 wetlands only, not a type 3 wetland."],
            False,
            id="subd. 1(2): type 3 not covered",
        ),
        pytest.param(
            _PASTURE,
            None,
            None,
            [
                "The wetland is type 1 (not bottomland hardwood), or type 2 or 6 of less "
                "than 2 acres."
            ],
            True,
            id="subd. 1(2): type unknown",
        ),
        pytest.param(_ASSESSED, 2, 2, [], False, id="subd. 2(b): type 2, size limited"),
        pytest.param(
            _ASSESSED,
            5,
            None,
            ["The paragraph covers type 1, 2 or 6 wetlands only, not a type 5 wetland."],
            False,
            id="subd. 2(b): type 5 not covered",
        ),
        pytest.param(
            _ASSESSED,
            None,
            None,
            ["The wetland is type 1, or type 2 or 6 drained up to 5 acres."],
            True,
            id="subd. 2(b): type unknown",
        ),
    ],
)
def test_sized_type_reads_the_type_lists_of_the_clause(clause, wtype, want, texts, limit_read):
    """Subd. 1(2) and 2(b): some types at any size, others up to an acreage (one helper)."""
    function, keys, words = clause
    recorder = start(function, ExemptionFacts(wetland_type=wtype), None, DAY)
    got, any_size, limited = sized_type(recorder, *keys, **words)
    assert (got, any_size, limited) == (want, [1], [2, 6])
    assert [c.text for c in recorder.conditions] == texts
    # the acreage is a parameter of the answer only where the reason names it
    assert (keys[2] in recorder.used) is limit_read
