"""Wildlife habitat, Minn. Stat. § 103G.2241, subd. 10 (rules/exempt/wildlife.py)."""

from __future__ import annotations

import pytest
from exempt_helpers import CLEAN, DAY, SQFT_PER_ACRE, both_sides_test, flip_cases, run

from wetland_gis.enums import Outcome
from wetland_gis.rules.exempt import ExemptionFacts, decide_exemptions, wildlife as wl

BASE = {
    "wildlife_spoil": True,
    "wetland_spoil_sqft": 1_000.0,
    "wetland_acres": 10.0,
    "spoil_stabilized": True,
    "no_listed_species_effect": True,
    "swcd_habitat_certified": True,
}
HALF_ACRE = SQFT_PER_ACRE / 2

CASES = [
    *flip_cases(
        "subd. 10(1)",
        wl.wildlife_spoil_deposition,
        BASE,
        [
            ("wildlife_spoil", False),
            ("wetland_spoil_sqft", HALF_ACRE + 1),
            ("spoil_stabilized", False),
            ("no_listed_species_effect", False),
            ("swcd_habitat_certified", False),
        ],
        defining=("wildlife_spoil",),
    ),
    *flip_cases(
        "subd. 10(2)",
        wl.duck_blinds,
        {"duck_blind": True},
        [("duck_blind", False)],
        defining=("duck_blind",),
    ),
]


test_each_condition_on_both_sides = both_sides_test(CASES)


@pytest.mark.parametrize(
    ("sqft", "acres", "want"),
    [
        # 5 percent of 10 acres is one-half acre: both limits are 21,780 sq ft
        pytest.param(HALF_ACRE, 10.0, Outcome.EXEMPT, id="subd. 10(1)(i): exactly one-half acre"),
        pytest.param(HALF_ACRE + 1, 10.0, Outcome.NOT_EXEMPT, id="subd. 10(1)(i): one sq ft over"),
        # 5 percent of 1 acre is 2,178 sq ft, less than one-half acre: the percentage governs
        pytest.param(2_178.0, 1.0, Outcome.EXEMPT, id="subd. 10(1)(i): exactly five percent"),
        pytest.param(
            2_179.0, 1.0, Outcome.NOT_EXEMPT, id="subd. 10(1)(i): over five percent, under acre"
        ),
        # 5 percent of 40 acres is 2 acres: the one-half acre governs
        pytest.param(HALF_ACRE + 1, 40.0, Outcome.NOT_EXEMPT, id="subd. 10(1)(i): acre governs"),
        # 5 percent of 0.3 acre is 653.4 sq ft, of 0.7 acre 1,524.6 sq ft (non-round sizes)
        pytest.param(653.4, 0.3, Outcome.EXEMPT, id="subd. 10(1)(i): exactly 5 percent of 0.3 ac"),
        pytest.param(653.41, 0.3, Outcome.NOT_EXEMPT, id="subd. 10(1)(i): 0.01 sq ft over 5 pct"),
        pytest.param(
            1_524.6, 0.7, Outcome.EXEMPT, id="subd. 10(1)(i): exactly 5 percent of 0.7 ac"
        ),
        pytest.param(100.0, None, Outcome.CONDITIONAL, id="subd. 10(1)(i): wetland size unknown"),
        pytest.param(
            HALF_ACRE + 1, None, Outcome.NOT_EXEMPT, id="subd. 10(1)(i): over the acre, size moot"
        ),
    ],
)
def test_five_percent_or_one_half_acre_whichever_is_less(sqft, acres, want):
    result = run(
        wl.wildlife_spoil_deposition, **{**BASE, "wetland_spoil_sqft": sqft, "wetland_acres": acres}
    )
    assert result.outcome is want, result.reasons
    if want is Outcome.CONDITIONAL:
        assert result.unknown == ("wetland_acres",)


@pytest.mark.parametrize(
    ("impact", "want"),
    [
        pytest.param(1_000.0, Outcome.CONDITIONAL, id="subd. 10(1)(i): this impact alone, within"),
        pytest.param(
            HALF_ACRE + 1, Outcome.NOT_EXEMPT, id="subd. 10(1)(i): this impact alone, over"
        ),
    ],
)
def test_without_the_wetland_total_the_impact_is_a_floor(impact, want):
    values = {**BASE, "wetland_spoil_sqft": None, "impact_sqft": impact}
    result = run(wl.wildlife_spoil_deposition, **values)
    assert result.outcome is want
    if want is Outcome.CONDITIONAL:
        assert result.unknown == ("wetland_spoil_sqft",)


SPOIL = {
    "wildlife_spoil": True,
    "wetland_acres": 20.0,
    "spoil_stabilized": True,
    "no_listed_species_effect": True,
    "swcd_habitat_certified": True,
    **CLEAN,
}


@pytest.mark.parametrize(
    ("wetlands", "want"),
    [
        pytest.param(("W1", "W1"), Outcome.NOT_EXEMPT, id="subd. 10(1)(i): one wetland, summed"),
        pytest.param(("W1", "W2"), Outcome.EXEMPT, id="subd. 10(1)(i): two wetlands"),
        pytest.param(("W1", None), Outcome.CONDITIONAL, id="subd. 10(1)(i): a wetland unknown"),
    ],
)
def test_spoil_in_one_wetland_is_summed_by_the_project(wetlands, want):
    a = ExemptionFacts(impact_id="A", impact_sqft=15_000.0, wetland_id=wetlands[0], **SPOIL)
    b = ExemptionFacts(impact_id="B", impact_sqft=10_000.0, wetland_id=wetlands[1], **SPOIL)
    answer = decide_exemptions([a, b], day=DAY)
    assert answer.outcome is want, answer.reasons


def test_exemption_rules_compare_in_the_one_exact_number_type():
    """Issue 18: rules/exempt reads figures with the rules core's ``exact`` (Decimal)."""
    from decimal import Decimal

    from wetland_gis.rules import facts
    from wetland_gis.rules.exempt import model

    assert model.exact is facts.exact
    assert isinstance(model.SQFT_PER_ACRE, Decimal)
    assert model.exact(653.4) == Decimal("0.05") * Decimal("0.3") * model.SQFT_PER_ACRE
