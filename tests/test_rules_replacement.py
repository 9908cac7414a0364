"""Replacement ratio and acres, Minn. Stat. § 103G.222, subd. 1(c), (f), (g), (n)."""

from __future__ import annotations

import math

import pytest
from helpers import PERCENTAGE_CLASSES, paragraph_params
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import Outcome, PercentageArea
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import Adjustments, RatioAdjustment, load_adjustments
from wetland_gis.rules import SQFT_PER_ACRE, replacement_ratio, replacement_required

AS_OF = "2024-05-01"
GT80, MID, LT50 = PERCENTAGE_CLASSES

# (sentence, class, agricultural, ratio, citation)
RATIOS = [
    (
        "§ 103G.222 subd. 1(f): nonagricultural land in a less than 50 percent area is 2:1",
        LT50,
        False,
        2.0,
        "Minn. Stat. § 103G.222, subd. 1(f)",
    ),
    (
        "§ 103G.222 subd. 1(f): nonagricultural land in a 50 to 80 percent area is 2:1",
        MID,
        False,
        2.0,
        "Minn. Stat. § 103G.222, subd. 1(f)",
    ),
    (
        "§ 103G.222 subd. 1(g): agricultural land in a less than 50 percent area is 1:1",
        LT50,
        True,
        1.0,
        "Minn. Stat. § 103G.222, subd. 1(g)",
    ),
    (
        "§ 103G.222 subd. 1(g): nonagricultural land in a greater than 80 percent area is 1:1",
        GT80,
        False,
        1.0,
        "Minn. Stat. § 103G.222, subd. 1(g)",
    ),
    (
        "§ 103G.222 subd. 1(g): agricultural land in a greater than 80 percent area is 1:1",
        GT80,
        True,
        1.0,
        "Minn. Stat. § 103G.222, subd. 1(g)",
    ),
]


@pytest.mark.parametrize(
    ("pct", "agricultural", "ratio", "citation"),
    paragraph_params(RATIOS),
)
def test_base_ratios(pct, agricultural, ratio, citation):
    d = replacement_ratio(pct, agricultural, as_of=AS_OF)
    assert d.value == ratio
    assert d.citations == (citation,)
    assert any("8420.0522" in v for v in d.verify)


# (sentence, multiplier, ratio)
AFTER_THE_FACT = [
    ("§ 103G.222 subd. 1(n): after the fact, twice the 2:1 ratio is 4:1", 2.0, 4.0),
    ("§ 103G.222 subd. 1(n): after the fact, 1.5 times the 2:1 ratio is 3:1", 1.5, 3.0),
    ("§ 103G.222 subd. 1(n): after the fact, the LGU may keep the ratio", 1.0, 2.0),
]


@pytest.mark.parametrize(("multiplier", "ratio"), paragraph_params(AFTER_THE_FACT))
def test_after_the_fact(multiplier, ratio):
    d = replacement_ratio(
        LT50, False, after_the_fact=True, after_the_fact_multiplier=multiplier, as_of=AS_OF
    )
    assert d.value == ratio
    assert "Minn. Stat. § 103G.222, subd. 1(n)" in d.citations


def test_after_the_fact_multiplier_above_the_max_is_refused():
    with pytest.raises(RulesInputError, match=r"outside 1 to 2.*subd. 1\(n\)"):
        replacement_ratio(
            LT50, False, after_the_fact=True, after_the_fact_multiplier=2.01, as_of=AS_OF
        )
    with pytest.raises(RulesInputError, match="outside 1 to 2"):
        replacement_ratio(
            LT50, False, after_the_fact=True, after_the_fact_multiplier=0.5, as_of=AS_OF
        )
    with pytest.raises(RulesInputError, match="after_the_fact is False"):
        replacement_ratio(LT50, False, after_the_fact_multiplier=1.5, as_of=AS_OF)


ADJ = Adjustments(
    ratio=(
        RatioAdjustment("outside_bank_service_area", 0.5, "Minn. R. 8420.0522, subp. 4 (user)"),
        RatioAdjustment("in_advance", -0.25, "Minn. R. 8420.0522, subp. 7 (user)"),
    ),
    source="test",
)


def test_user_adjustments_apply_only_when_their_condition_holds():
    none = replacement_ratio(LT50, False, adjustments=ADJ, as_of=AS_OF)
    assert none.value == 2.0
    one = replacement_ratio(
        LT50, False, adjustments=ADJ, conditions={"outside_bank_service_area"}, as_of=AS_OF
    )
    assert one.value == 2.5
    assert "Minn. R. 8420.0522, subp. 4 (user)" in one.citations
    assert any("user-supplied" in v for v in one.verify)
    assert one.parameters["adjustment.outside_bank_service_area"] == 0.5
    both = replacement_ratio(
        LT50,
        False,
        adjustments=ADJ,
        conditions=("outside_bank_service_area", "in_advance"),
        after_the_fact=True,
        after_the_fact_multiplier=2.0,
        as_of=AS_OF,
    )
    assert both.value == (2.0 + 0.5 - 0.25) * 2


def test_adjusted_ratio_is_never_below_zero():
    big_credit = Adjustments(ratio=(RatioAdjustment("in_kind", -5.0, "TEP finding (user)"),))
    d = replacement_ratio(GT80, False, adjustments=big_credit, conditions="in_kind", as_of=AS_OF)
    assert d.value == 0.0


def test_shipped_adjustments_are_empty_and_unknown_conditions_refused():
    shipped = load_adjustments()
    assert shipped.ratio == ()
    d = replacement_ratio(LT50, False, adjustments=shipped, conditions={"in_kind"}, as_of=AS_OF)
    assert d.value == 2.0
    assert any("No adjustment" in r for r in d.reasons)
    with pytest.raises(RulesInputError, match="not known"):
        replacement_ratio(LT50, False, conditions={"far_away"}, as_of=AS_OF)


def test_replacement_required():
    ratio = replacement_ratio(LT50, False, as_of=AS_OF)
    d = replacement_required(SQFT_PER_ACRE, ratio)
    assert d.value == 2.0
    assert d.outcome is Outcome.REQUIRED
    assert "Minn. Stat. § 103G.222, subd. 1(f)" in d.citations
    assert d.as_of == AS_OF
    zero = replacement_required(0, ratio)
    assert zero.outcome is Outcome.NOT_REQUIRED


def test_cultivated_field_is_restoration_only():
    ratio = replacement_ratio(LT50, True, as_of=AS_OF)
    d = replacement_required(10_000, ratio, cultivated_field=True)
    assert "Minn. Stat. § 103G.222, subd. 1(c)" in d.citations
    assert any("restoration only" in r for r in d.reasons)
    plain = replacement_required(10_000, ratio)
    assert any("cultivated field" in v for v in plain.verify)


def test_replacement_required_errors():
    ratio = replacement_ratio(LT50, False, as_of=AS_OF)
    with pytest.raises(RulesInputError, match="same date"):
        replacement_required(10, ratio, as_of="2025-01-01")
    with pytest.raises(RulesInputError, match="replacement_ratio"):
        replacement_required(10, 2.0)  # type: ignore[arg-type]
    with pytest.raises(RulesInputError, match="0 or more"):
        replacement_required(-10, ratio)


@settings(max_examples=200, deadline=None)
@given(
    st.floats(min_value=0, max_value=1e8, allow_nan=False),
    st.sampled_from(list(PercentageArea)),
    st.booleans(),
    st.floats(min_value=1, max_value=2),
)
def test_replacement_acres_are_area_times_ratio(area, pct, agricultural, multiplier):
    ratio = replacement_ratio(
        pct, agricultural, after_the_fact=True, after_the_fact_multiplier=multiplier, as_of=AS_OF
    )
    acres = replacement_required(area, ratio).value
    assert math.isclose(acres, area / SQFT_PER_ACRE * ratio.value, rel_tol=1e-12, abs_tol=1e-12)
