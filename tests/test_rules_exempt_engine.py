"""Step 5 of the engine: the exemptions of rules/exempt wired into decide_project (issue 20)."""

from __future__ import annotations

import dataclasses

import pytest
from exempt_helpers import clean_facts as ex
from helpers import decide, fill_fact, steps_of
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import ImpactOutcome, Outcome, ProjectOutcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules.exempt import (
    RULES_BY_ID,
    ExemptionClaims,
    ExemptionFacts,
    RoadFacts,
    agriculture,
    decide_exemptions,
    road_replacement,
    spec_of,
    utilities,
    wildlife,
)
from wetland_gis.rules.exempt.project import REPLACEMENT_BY_BOARD, REPLACEMENT_BY_STATE_DOT

ONE = spec_of(decide_exemptions).rule_id
ROAD = spec_of(road_replacement).rule_id
DUCK = spec_of(wildlife.duck_blinds).rule_id
SSTS = spec_of(utilities.sewage_treatment_update).rule_id
FARMING = spec_of(agriculture.normal_farming_practice).rule_id


def fact(iid, sqft=30_000.0, wtype=2, **kw):
    return fill_fact(iid, wtype, sqft, **kw)


# --- subd. 11(b): an impact is exempt by any one exemption ----------------------------------


@pytest.mark.parametrize(
    ("facts", "rule"),
    [
        pytest.param({"duck_blind": True}, DUCK, id="subd. 10(2): a duck blind"),
        pytest.param({"sewage_system_repair": True}, SSTS, id="subd. 6(a)(3): SSTS repair"),
        pytest.param(
            {"normal_farming": True, "land_use": "agricultural"},
            FARMING,
            id="subd. 1(3): normal farming practice",
        ),
    ],
)
def test_one_exemption_carries_a_project_over_the_de_minimis_amount(facts, rule):
    d = decide(fact("A", exemption=ex(**facts)))
    assert d.outcome in (ProjectOutcome.EXEMPT, ProjectOutcome.EXEMPT_CONDITIONAL)
    assert d.exemption == rule
    impact = d.by_impact["A"]
    assert impact.exemptions == (rule,) and impact.replace_acres is None
    assert d.totals["exempt_sqft"] == 30_000.0
    assert not steps_of(d, "replacement.ratio")
    # every exemption tried is a step of the impact, in registry order
    tried = [
        s["rule_id"] for s in d.steps() if s["impact_id"] == "A" and s["rule_id"] in RULES_BY_ID
    ]
    kinds = [RULES_BY_ID[r].kind for r in tried]
    assert kinds.count("exemption") == sum(s.kind == "exemption" for s in RULES_BY_ID.values())


def test_every_exempt_answer_carries_the_subd_11a_conditions_and_ag_the_use_restriction():
    d = decide(fact("A", exemption=ex(normal_farming=True, land_use="agricultural")))
    (step,) = steps_of(d, FARMING, "A")
    assert any("Subd. 11(a)(1)" in v for v in step["verify"])
    assert any("8420.0420, subp. 1 D" in v for v in step["verify"])
    (project,) = steps_of(d, ONE, "")
    assert any("8420.0420, subp. 1 D" in v for v in project["verify"])


@pytest.mark.parametrize(
    ("claim", "want"),
    [
        pytest.param(None, ImpactOutcome.EXEMPT_CONDITIONAL, id="subd. 1(4): no SWCD claim"),
        pytest.param(True, ImpactOutcome.EXEMPT, id="subd. 1(4): the SWCD approval claimed"),
        pytest.param(False, ImpactOutcome.REPLACEMENT_REQUIRED, id="subd. 1(4): not approved"),
    ],
)
def test_a_claim_only_a_person_confirms_leaves_the_answer_conditional(claim, want):
    e = ex(soil_water_practice=True, land_use="agricultural")
    d = decide(fact("A", exemption=e), exemptions=ExemptionClaims(swcd_approved_practice=claim))
    assert d.by_impact["A"].outcome is want


def test_an_impact_column_outranks_the_project_claim():
    e = ex(soil_water_practice=True, land_use="agricultural", swcd_approved_practice=False)
    d = decide(fact("A", exemption=e), exemptions=ExemptionClaims(swcd_approved_practice=True))
    assert d.by_impact["A"].outcome is ImpactOutcome.REPLACEMENT_REQUIRED


# --- 8420.0420 subp. 1 C: no combination ------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param({"duck_blind": True}, {"sewage_system_repair": True}, id="10(2) + 6(a)(3)"),
        pytest.param(
            {"normal_farming": True, "land_use": "agricultural"},
            {"duck_blind": True},
            id="1(3) + 10(2)",
        ),
    ],
)
def test_two_exemptions_for_two_impacts_do_not_make_the_project_exempt(a, b):
    d = decide(fact("A", exemption=ex(**a)), fact("B", exemption=ex(**b)))
    assert d.outcome is ProjectOutcome.REPLACEMENT_REQUIRED
    assert d.exemption is None
    assert {i.outcome for i in d.impacts} == {ImpactOutcome.REPLACEMENT_REQUIRED}
    (project,) = steps_of(d, ONE, "")
    assert project["outcome"] == Outcome.NOT_EXEMPT.value
    assert project["inputs"]["refused_combination"]
    assert "may not be combined" in project["reason"]


def test_one_exemption_covering_only_some_impacts_exempts_none_of_them():
    d = decide(fact("A", exemption=ex(duck_blind=True)), fact("B"))
    assert [i.outcome for i in d.impacts] == [ImpactOutcome.REPLACEMENT_REQUIRED] * 2
    (project,) = steps_of(d, ONE, "")
    assert project["inputs"]["partial"] == DUCK and "Reading chosen" in project["reason"]


# --- subd. 9(g): de minimis is an exemption too ----------------------------------------------


def test_de_minimis_keeps_a_project_it_covers_and_is_not_combined():
    d = decide(fact("A", 500.0, exemption=ex(duck_blind=True)))
    assert d.outcome is ProjectOutcome.DE_MINIMIS_EXEMPT and d.exemption is None
    (project,) = steps_of(d, ONE, "")
    assert project["inputs"]["carries_project"] is False
    assert "de minimis exemption already covers" in project["reason"]


def test_an_exempt_answer_carries_a_project_de_minimis_only_conditionally_covers():
    d = decide(fact("A", 500.0, owns_whole_wetland=None, exemption=ex(duck_blind=True)))
    assert d.outcome is ProjectOutcome.EXEMPT and d.exemption == DUCK


def test_de_minimis_for_one_impact_and_another_exemption_for_the_other_is_a_combination():
    d = decide(fact("A", 500.0), fact("B", 30_000.0, exemption=ex(duck_blind=True)))
    assert d.outcome is ProjectOutcome.REPLACEMENT_REQUIRED


# --- 8420.0420 subp. 1 B: the exclusions -----------------------------------------------------


@pytest.mark.parametrize(
    "flag",
    [
        pytest.param("banked", id="subp. 1 B: banked wetland"),
        pytest.param("used_for_replacement_credit", id="subp. 1 B: used for credit"),
    ],
)
def test_an_excluded_wetland_is_never_exempt_whatever_the_columns_say(flag):
    d = decide(fact("A", exemption=ex(duck_blind=True), **{flag: True}))
    assert d.by_impact["A"].outcome is ImpactOutcome.REPLACEMENT_REQUIRED
    (step,) = steps_of(d, DUCK, "A")
    assert step["outcome"] == Outcome.NOT_EXEMPT.value


def test_an_unknown_exclusion_fact_is_conditional_never_plain_exempt():
    e = dataclasses.replace(ex(duck_blind=True), remainder_newly_qualifies=None)
    d = decide(fact("A", exemption=e))
    assert d.by_impact["A"].outcome is ImpactOutcome.EXEMPT_CONDITIONAL


# --- § 103G.222, subd. 1(l), (m): road projects ---------------------------------------------

REPAIR = {
    "project_kind": "reconstruction",
    "currently_serviceable": True,
    "design_safety_necessary": True,
    # subd. 1(m)(1), (2): minimized, and the annual meeting reviewed it (issue 32)
    "minimized": True,
    "annual_meeting": True,
    "minor_or_emergency": False,
}


@pytest.mark.parametrize(
    ("road", "by", "route"),
    [
        pytest.param(
            {**REPAIR, "road_authority": "county"},
            REPLACEMENT_BY_BOARD,
            "board_replaces",
            id="subd. 1(m): a county road the board replaces",
        ),
        pytest.param(
            {**REPAIR, "road_authority": "state"},
            REPLACEMENT_BY_STATE_DOT,
            "state_dot_replaces",
            id="subd. 1(m): a state road MnDOT replaces",
        ),
        pytest.param(
            {**REPAIR, "road_authority": "county", "design_safety_necessary": None},
            None,
            "board_replaces",
            id="subd. 1(m): the authority's claim not made: conditional",
        ),
        pytest.param(
            {"project_kind": "new_road", "road_authority": "county", "airport": False},
            None,
            "credits_from_board",
            id="subd. 1(l): a new road may buy credits",
        ),
    ],
)
def test_the_road_paragraph_says_who_replaces(road, by, route):
    d = decide(fact("A", road=RoadFacts(**road)), fact("B", 2_000.0))
    assert d.road == route
    assert {i.replacement_by for i in d.impacts} == {by}
    assert d.outcome is ProjectOutcome.REPLACEMENT_REQUIRED
    (step,) = steps_of(d, ROAD, "")
    if by is not None:
        assert any("subd. 1(m)(2)" in v for v in step["verify"])


def test_road_facts_that_differ_between_impacts_are_an_error():
    a = RoadFacts(**REPAIR, road_authority="county")
    b = RoadFacts(**REPAIR, road_authority="city")
    with pytest.raises(RulesInputError, match="different road facts"):
        decide(fact("A", road=a), fact("B", road=b))


# --- the fast path: no facts, no claims, nothing changes -------------------------------------

_impact = st.builds(
    dict,
    sqft=st.sampled_from([10.0, 400.0, 9_999.0, 10_000.0, 10_001.0, 30_000.0]),
    wtype=st.integers(1, 8),
    impact_kind=st.sampled_from(["fill", "drain", "excavate", "unknown"]),
    land_use=st.sampled_from([None, "agricultural", "pasture", "nonagricultural"]),
    incorporated=st.sampled_from([None, True, False]),
    wetland_acres=st.sampled_from([None, 0.5, 3.0]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_impact, min_size=1, max_size=3))
def test_no_exemption_fact_never_gives_exempt(rows):
    # the fast path (no facts) keeps steps 1-4; empty facts try every exemption, and the
    # land use alone can only make one conditional (subd. 1(2) pasture: same use unknown)
    plain = [fact(str(i), **r) for i, r in enumerate(rows)]
    empty = [dataclasses.replace(f, exemption=ExemptionFacts()) for f in plain]
    a, b = decide(*plain), decide(*empty)
    assert a.exemption is None and all(i.exemptions == () for i in a.impacts)
    assert not {i.outcome for i in a.impacts} & {
        ImpactOutcome.EXEMPT,
        ImpactOutcome.EXEMPT_CONDITIONAL,
    }
    for x, y in zip(a.impacts, b.impacts, strict=True):
        assert y.outcome is not ImpactOutcome.EXEMPT
        assert y.outcome is x.outcome or y.outcome is ImpactOutcome.EXEMPT_CONDITIONAL
