"""Siting priority, Minn. Stat. § 103G.222, subd. 3, on plain values (no geometry).

The impact lies in minor watershed 101 of major watershed 1, bank service area 1, a less
than 50 percent area. Every option is placed so that its tier is obvious.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import Outcome, PercentageArea, SitingTier
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import RATIO_CONDITIONS, Adjustments, RatioAdjustment
from wetland_gis.rules.priority import (
    SitingPlace,
    next_tier_condition,
    normalise_action,
    replacement_action_eligibility,
    siting_tier,
)

AS_OF = "2024-05-01"
GT80 = PercentageArea.GREATER_THAN_80
MID = PercentageArea.FROM_50_TO_80
LT50 = PercentageArea.LESS_THAN_50

IMPACT = SitingPlace(minor="101", major=1, bsa=1, pct_class=LT50)


def tier(option: SitingPlace, *, is_bank: bool = False, impact: SitingPlace = IMPACT):
    return siting_tier(impact, option, is_bank=is_bank, as_of=AS_OF)


# --- subd. 3(a)(1)-(4): the four priorities for project-specific sites --------------------


def test_subd_3a1_a_site_in_the_same_minor_watershed_is_tier_1():
    d = tier(SitingPlace(minor="101", major=1, bsa=1, pct_class=LT50))
    assert d.outcome is Outcome.RANKED
    assert d.value is SitingTier.SAME_MINOR_WATERSHED
    assert "Minn. Stat. § 103G.222, subd. 3(a)(1)" in d.citations
    assert d.verify == ()


def test_subd_3a2_a_site_in_another_minor_of_the_same_major_watershed_is_tier_2():
    d = tier(SitingPlace(minor="102", major=1, bsa=1, pct_class=LT50))
    assert d.value is SitingTier.SAME_MAJOR_WATERSHED
    assert "Minn. Stat. § 103G.222, subd. 3(a)(2)" in d.citations


def test_subd_3a3_a_site_in_another_major_watershed_of_the_same_bsa_is_tier_3():
    d = tier(SitingPlace(minor="201", major=2, bsa=1, pct_class=LT50))
    assert d.value is SitingTier.SAME_BANK_SERVICE_AREA
    assert "Minn. Stat. § 103G.222, subd. 3(a)(3)" in d.citations


def test_subd_3a4_a_site_in_another_bank_service_area_is_tier_4():
    d = tier(SitingPlace(minor="901", major=9, bsa=5, pct_class=LT50))
    assert d.value is SitingTier.OTHER_BANK_SERVICE_AREA
    assert "Minn. Stat. § 103G.222, subd. 3(a)(4)" in d.citations


# --- subd. 3(a), first sentence: the greater than 80 percent exclusion ---------------------


@pytest.mark.parametrize("is_bank", [False, True])
def test_subd_3a_impact_outside_a_greater_than_80_area_cannot_be_replaced_inside_one(is_bank):
    d = tier(SitingPlace(minor="101", major=1, bsa=1, pct_class=GT80), is_bank=is_bank)
    assert d.outcome is Outcome.EXCLUDED
    assert d.value is None
    assert "Minn. Stat. § 103G.222, subd. 3(a)" in d.citations
    assert "greater than 80 percent" in d.reasons[0]


def test_subd_3a_an_impact_in_a_50_to_80_area_is_also_outside_a_greater_than_80_area():
    impact = SitingPlace(minor="101", major=1, bsa=1, pct_class=MID)
    d = tier(SitingPlace(bsa=1, pct_class=GT80), is_bank=True, impact=impact)
    assert d.outcome is Outcome.EXCLUDED


def test_subd_3a_an_impact_inside_a_greater_than_80_area_may_be_replaced_anywhere():
    impact = SitingPlace(minor="101", major=1, bsa=1, pct_class=GT80)
    for pct in (GT80, MID, LT50):
        d = tier(SitingPlace(minor="101", major=1, bsa=1, pct_class=pct), impact=impact)
        assert d.outcome is Outcome.RANKED and d.value == 1


def test_subd_3a_replacement_from_a_greater_than_80_area_into_a_lower_class_is_allowed():
    d = tier(SitingPlace(minor="901", major=9, bsa=5, pct_class=MID))
    assert d.outcome is Outcome.RANKED


def test_subd_3a_unknown_impact_class_with_option_in_greater_than_80_area_is_a_verify_item():
    impact = SitingPlace(minor="101", major=1, bsa=1, pct_class=None)
    d = tier(SitingPlace(minor="101", major=1, bsa=1, pct_class=GT80), impact=impact)
    assert d.outcome is Outcome.RANKED  # not guessed either way
    assert any("percentage-area class of the impact" in v for v in d.verify)


def test_subd_3a_unknown_option_class_is_a_verify_item():
    d = tier(SitingPlace(minor="101", major=1, bsa=1, pct_class=None))
    assert d.outcome is Outcome.RANKED
    assert any("percentage-area class of the option" in v for v in d.verify)


def test_005_subd_10b_a_bank_service_area_classed_greater_than_80_excludes_the_bank():
    # the option's class may be that of its BSA "for purposes of wetland replacement"
    d = tier(SitingPlace(bsa=1, pct_class=GT80), is_bank=True)
    assert d.outcome is Outcome.EXCLUDED
    assert "Minn. Stat. § 103G.005, subd. 10b" in d.citations


# --- subd. 3(c): banking begins at clause (3) -------------------------------------------


def test_subd_3c_a_bank_in_the_same_minor_watershed_is_only_tier_3():
    d = tier(SitingPlace(minor="101", major=1, bsa=1, pct_class=LT50), is_bank=True)
    assert d.value is SitingTier.SAME_BANK_SERVICE_AREA
    assert "Minn. Stat. § 103G.222, subd. 3(c)" in d.citations
    assert "Minn. Stat. § 103G.222, subd. 3(a)(3)" in d.citations
    assert any("tie-breaker" in r for r in d.reasons)
    assert d.amounts["same_minor_watershed"] == 1.0


def test_subd_3c_a_bank_in_the_same_major_watershed_notes_the_tie_breaker():
    d = tier(SitingPlace(minor="102", major=1, bsa=1, pct_class=LT50), is_bank=True)
    assert d.value is SitingTier.SAME_BANK_SERVICE_AREA
    assert any("same major watershed" in r for r in d.reasons)
    assert d.amounts["same_major_watershed"] == 1.0


def test_subd_3c_a_bank_in_the_same_major_watershed_but_another_bsa_is_tier_4():
    d = tier(SitingPlace(minor="102", major=1, bsa=2, pct_class=LT50), is_bank=True)
    assert d.value is SitingTier.OTHER_BANK_SERVICE_AREA


def test_subd_3c_a_bank_in_another_major_watershed_of_the_same_bsa_is_tier_3():
    d = tier(SitingPlace(major=2, bsa=1, pct_class=LT50), is_bank=True)
    assert d.value is SitingTier.SAME_BANK_SERVICE_AREA
    assert d.amounts["same_major_watershed"] == 0.0


def test_subd_3c_a_bank_in_another_bsa_is_tier_4():
    d = tier(SitingPlace(major=9, bsa=5, pct_class=LT50), is_bank=True)
    assert d.value is SitingTier.OTHER_BANK_SERVICE_AREA


# --- unknown values are not guessed -----------------------------------------------------


def test_unknown_minor_watershed_gives_the_provable_tier_2_and_names_the_missing_minor():
    d = tier(SitingPlace(minor=None, major=1, bsa=1, pct_class=LT50))
    assert d.value is SitingTier.SAME_MAJOR_WATERSHED
    assert len(d.verify) == 1
    assert "minor watershed of the option" in d.verify[0]


def test_unknown_major_and_minor_with_same_bsa_is_tier_3_with_two_verify_items():
    impact = SitingPlace(minor=None, major=None, bsa=1, pct_class=LT50)
    d = tier(SitingPlace(minor="101", major=1, bsa=1, pct_class=LT50), impact=impact)
    assert d.value is SitingTier.SAME_BANK_SERVICE_AREA
    assert any("minor watershed of the impact" in v for v in d.verify)
    assert any("major watershed of the impact" in v for v in d.verify)


def test_nothing_known_is_tier_4_with_every_missing_value_named():
    d = tier(SitingPlace(), impact=SitingPlace())
    assert d.value is SitingTier.OTHER_BANK_SERVICE_AREA
    text = " ".join(d.verify)
    for word in ("minor watershed", "major watershed", "bank service area", "percentage"):
        assert word in text


def test_a_bank_with_unknown_bsa_is_tier_4_with_a_verify_item():
    d = tier(SitingPlace(major=1, pct_class=LT50), is_bank=True)
    assert d.value is SitingTier.OTHER_BANK_SERVICE_AREA
    assert any("bank service area of the option" in v for v in d.verify)


def test_a_known_difference_is_not_a_verify_item():
    d = tier(SitingPlace(minor="901", major=9, bsa=5, pct_class=LT50))
    assert d.verify == ()


# --- SitingPlace normalisation ------------------------------------------------------------


def test_place_values_are_normalised():
    """The values of a file are read before the rules (siting.rank.siting_place)."""
    from wetland_gis.siting.rank import siting_place  # geopandas: the siting stage

    p = siting_place(minor=7001.0, major="20", bsa=7.0, pct_class="greater_than_80_percent")
    assert p == SitingPlace(minor="7001", major=20, bsa=7, pct_class=GT80)
    assert siting_place(minor=float("nan"), major=None, bsa="").bsa is None
    assert siting_place(minor="07001").minor == "07001"  # a text id keeps its zeros
    with pytest.raises(RulesInputError, match="major watershed 'twenty'"):
        siting_place(major="twenty")


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("minor", 7001.0, "minor watershed 7001.0 is not an id"),
        ("major", "20", "major watershed '20' is not a whole number"),
        ("major", True, "major watershed True is not a whole number"),
        ("bsa", 7.0, "bank service area 7.0"),
    ],
    ids=["minor as a float", "major as text", "major as a flag", "bank service area float"],
)
def test_the_rules_core_takes_parsed_place_values_only(field, value, match):
    """§ 103G.222, subd. 3 on plain values: the rules core parses no user text (issue 33)."""
    with pytest.raises(RulesInputError, match=match):
        SitingPlace(**{field: value})


def test_place_rejects_bad_values():
    with pytest.raises(RulesInputError, match="major watershed 'twenty'"):
        SitingPlace(major="twenty")
    with pytest.raises(RulesInputError, match="percentage class"):
        SitingPlace(pct_class="about 80")
    with pytest.raises(RulesInputError, match="is_bank"):
        siting_tier(IMPACT, IMPACT, is_bank="yes", as_of=AS_OF)


# --- subd. 3(d), (e): the next-tier condition -------------------------------------------


def test_subd_3d_when_tier_1_covers_the_requirement_the_next_level_is_not_open():
    d = next_tier_condition(1.0, {1: 1.5, 3: 10.0}, as_of=AS_OF)
    assert d.outcome is Outcome.NOT_ELIGIBLE
    assert d.value is SitingTier.SAME_MINOR_WATERSHED
    assert d.amounts["unmet_acres"] == 0.0
    assert "Minn. Stat. § 103G.222, subd. 3(d)" in d.citations


def test_subd_3d_a_short_tier_opens_the_next_level_for_the_remainder_only():
    d = next_tier_condition(2.0, {1: 0.5, 2: 0.25, 3: 10.0}, as_of=AS_OF)
    assert d.outcome is Outcome.ELIGIBLE
    assert d.value is SitingTier.SAME_BANK_SERVICE_AREA
    assert d.amounts["tier_1_short_acres"] == pytest.approx(1.5)
    assert d.amounts["tier_2_short_acres"] == pytest.approx(1.25)
    assert d.amounts["tier_3_short_acres"] == 0.0
    assert "short by 1.5 acres" in d.reasons[0]


def test_subd_3d_a_tier_without_opportunity_is_said_so():
    d = next_tier_condition(1.0, {4: 3.0}, options={1: 0, 2: 0, 3: 0, 4: 1}, as_of=AS_OF)
    assert d.value is SitingTier.OTHER_BANK_SERVICE_AREA
    assert sum("no replacement opportunity listed" in r for r in d.reasons) == 3


def test_subd_3d_listed_opportunities_without_credits_are_short_not_absent():
    d = next_tier_condition(1.0, {1: 0.0, 3: 1.0}, options={1: 2, 3: 1}, as_of=AS_OF)
    assert "0 acres of replacement available" in d.reasons[0]


def test_subd_3e_reasonableness_is_left_to_the_tep_as_a_verify_item():
    d = next_tier_condition(2.0, {1: 0.5, 3: 10.0}, as_of=AS_OF)
    assert "Minn. Stat. § 103G.222, subd. 3(e)" in d.citations
    assert any("3(e)(1)-(4)" in v and "TEP" in v for v in d.verify)


def test_subd_3d_nothing_anywhere_leaves_the_requirement_unmet_at_tier_4():
    d = next_tier_condition(2.0, {}, as_of=AS_OF)
    assert d.value is SitingTier.OTHER_BANK_SERVICE_AREA
    assert d.amounts["unmet_acres"] == 2.0
    assert "cannot be replaced" in d.reasons[-1]


def test_subd_3d_nothing_to_replace():
    d = next_tier_condition(0.0, {1: 1.0}, as_of=AS_OF)
    assert d.outcome is Outcome.NOT_ELIGIBLE
    assert d.value is SitingTier.SAME_MINOR_WATERSHED


def test_next_tier_condition_rejects_bad_amounts():
    with pytest.raises(RulesInputError, match="need_acres"):
        next_tier_condition(-1.0, {}, as_of=AS_OF)
    with pytest.raises(RulesInputError, match="siting tier 5"):
        next_tier_condition(1.0, {5: 1.0}, as_of=AS_OF)


# --- subd. 1(i); § 103G.2242, subd. 12(c): which actions may be used -----------------------


@pytest.mark.parametrize("action", ["restoration", "Restored", "creation", "excavation"])
def test_subd_1i_restored_and_created_wetlands_are_eligible_everywhere(action):
    d = replacement_action_eligibility(action, LT50, as_of=AS_OF)
    assert d.outcome is Outcome.ELIGIBLE
    assert "Minn. Stat. § 103G.222, subd. 1(i)" in d.citations


def test_subd_1i_other_actions_are_not_eligible_outside_a_greater_than_80_area():
    d = replacement_action_eligibility("preservation", LT50, as_of=AS_OF)
    assert d.outcome is Outcome.NOT_ELIGIBLE
    assert "credit_percentages" in d.reasons[0]


def test_subd_1i_other_actions_may_be_used_in_a_greater_than_80_area_subject_to_rule():
    d = replacement_action_eligibility("preservation", GT80, as_of=AS_OF)
    assert d.outcome is Outcome.ELIGIBLE
    assert any("8420.0526" in v for v in d.verify)


def test_subd_1i_type_conversion_of_a_natural_wetland_is_never_eligible():
    d = replacement_action_eligibility("type conversion", GT80, as_of=AS_OF)
    assert d.outcome is Outcome.NOT_ELIGIBLE


def test_2242_subd_12c5_stream_restoration_only_in_a_greater_than_80_area():
    assert replacement_action_eligibility("stream_riparian", GT80, as_of=AS_OF).value is True
    assert replacement_action_eligibility("stream_riparian", LT50, as_of=AS_OF).value is False
    assert replacement_action_eligibility("stream_riparian", None, as_of=AS_OF).value is None


def test_2242_subd_12c_an_action_established_in_rule_by_the_user_table_is_eligible():
    d = replacement_action_eligibility(
        "preservation",
        LT50,
        rule_actions={"preservation": "Minn. R. 8420.0526 (user)"},
        as_of=AS_OF,
    )
    assert d.outcome is Outcome.ELIGIBLE
    assert "Minn. Stat. § 103G.2242, subd. 12(c)" in d.citations


def test_2242_subd_12c4_storm_water_ponds_carry_their_conditions_to_verify():
    d = replacement_action_eligibility("water quality pond", LT50, as_of=AS_OF)
    assert d.outcome is Outcome.ELIGIBLE
    assert any("pretreats" in v for v in d.verify)


def test_a_missing_action_is_not_guessed():
    d = replacement_action_eligibility(None, LT50, as_of=AS_OF)
    assert d.outcome is Outcome.NOT_ASSESSED and d.value is None
    assert normalise_action("  Wetland-Restoration ") == "restoration"


# --- subd. 3(c): the level of an option in its method's own order --------------------------


@pytest.mark.parametrize(
    ("tier_", "is_bank", "reading", "level"),
    [
        pytest.param(1, False, "banking_own_order", 1, id="3(a)(1) site: level 1 of the sites"),
        pytest.param(2, False, "banking_own_order", 2, id="3(a)(2) site: level 2 of the sites"),
        pytest.param(4, False, "banking_own_order", 4, id="3(a)(4) site: level 4 of the sites"),
        pytest.param(3, True, "banking_own_order", 1, id="3(c) same-BSA bank: level 1 of banking"),
        pytest.param(4, True, "banking_own_order", 2, id="3(c) other-BSA bank: level 2 of banking"),
        pytest.param(3, True, "single_order", 3, id="3(a) single order: the tier"),
        pytest.param(2, False, "single_order", 2, id="3(a) single order: a site's tier"),
    ],
)
def test_subd_3c_siting_priority(tier_, is_bank, reading, level):
    from wetland_gis.rules.priority import siting_priority

    assert siting_priority(tier_, is_bank=is_bank, reading=reading) == level


def test_subd_3c_a_bank_is_never_tier_1_or_2_in_its_own_order():
    from wetland_gis.rules.priority import siting_priority

    with pytest.raises(RulesInputError, match="begins at clause \\(3\\)"):
        siting_priority(2, is_bank=True, reading="banking_own_order")
    with pytest.raises(RulesInputError, match="siting reading"):
        siting_priority(1, is_bank=False, reading="cheapest")


# --- the ratio of an impact for one option: the decided ratio, adjusted by relation ---------


def test_option_ratio_without_adjustments_is_the_decided_ratio():
    from wetland_gis.rules.priority import option_ratio

    d = option_ratio(4.0, after_the_fact_multiplier=2.0, conditions={"in_kind"}, as_of=AS_OF)
    assert d.value == 4.0 and d.amounts["adjustment_total"] == 0.0
    assert option_ratio(1.0, as_of=AS_OF).value == 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"decided_ratio": -1.0}, "decided_ratio", id="negative ratio"),
        pytest.param({"decided_ratio": float("nan")}, "decided_ratio", id="NaN ratio"),
        pytest.param(
            {"decided_ratio": 2.0, "after_the_fact_multiplier": 0.5},
            "multiplier",
            id="multiplier below 1",
        ),
        pytest.param(
            {"decided_ratio": 2.0, "conditions": {"far"}}, "not known", id="unknown condition"
        ),
        pytest.param({"decided_ratio": True}, "number", id="a flag is not a ratio"),
    ],
)
def test_option_ratio_rejects_bad_values(kwargs, message):
    from wetland_gis.rules.priority import option_ratio

    with pytest.raises(RulesInputError, match=message):
        option_ratio(**kwargs, as_of=AS_OF)


_ADDS = st.sampled_from([-3.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0])


@settings(max_examples=200, deadline=None)
@given(
    pct=st.sampled_from(list(PercentageArea)),
    agricultural=st.booleans(),
    multiplier=st.sampled_from([None, 1.0, 1.5, 2.0]),
    table=st.lists(st.tuples(st.sampled_from(sorted(RATIO_CONDITIONS)), _ADDS), max_size=4),
    conditions=st.sets(st.sampled_from(sorted(RATIO_CONDITIONS))),
)
def test_option_ratio_on_the_decided_ratio_equals_replacement_ratio_adjusted(
    pct, agricultural, multiplier, table, conditions
):
    """The one formula of the adjusted ratio (Minn. R. 8420.0522 on the ratio "otherwise
    required", then § 103G.222, subd. 1(n)): siting's view from the decided ratio and the
    rules' own computation agree exactly."""
    from wetland_gis.rules.priority import option_ratio
    from wetland_gis.rules.replacement import replacement_ratio

    adjustments = Adjustments(
        ratio=tuple(RatioAdjustment(w, a, "Minn. R. 8420.0522 (test)") for w, a in table)
    )
    atf = (
        {}
        if multiplier is None
        else {"after_the_fact": True, "after_the_fact_multiplier": multiplier}
    )
    decided = replacement_ratio(pct, agricultural, **atf, as_of=AS_OF)
    full = replacement_ratio(
        pct, agricultural, **atf, adjustments=adjustments, conditions=conditions, as_of=AS_OF
    )
    view = option_ratio(
        decided.value,
        after_the_fact_multiplier=1.0 if multiplier is None else multiplier,
        adjustments=adjustments,
        conditions=conditions,
        as_of=AS_OF,
    )
    assert view.value == full.value
