"""Binding rules of the exemptions (rules/exempt/binding.py).

§ 103G.2241, subd. 11(b): exempt if any one exemption applies; Minn. R. 8420.0420, subp. 1 B
(no exemption for fens, banked or credited wetlands, or a remainder that newly qualifies)
and subp. 1 C (exemptions may not be combined on a project).
"""

from __future__ import annotations

import dataclasses
import itertools
import json

import pytest
from exempt_helpers import CLEAN, DAY, FACTS
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules.exempt import (
    EXEMPTION_RULES,
    RULES_BY_ID,
    ExemptionClaims,
    ExemptionFacts,
    binding_exclusions,
    decide_exemptions,
)
from wetland_gis.rules.exempt.facts import LATER_EVENT_FACTS
from wetland_gis.rules.trace import TraceLog, encode_trace_value

#: One impact exempt under exactly one exemption, for each kind of exemption.
ONLY: dict[str, dict] = {
    "exemption.agriculture.1_3": {"normal_farming": True, "impact_kind": "fill"},
    "exemption.drainage.2_d": {
        "impact_kind": "fill",
        "drainage_maintenance": True,
        "public_drainage_system": False,
    },
    "exemption.federal.3": {"federal_authorization": True, "federal_rules_state_approved": True},
    "exemption.restoration.4_1": {
        "restored_for_conservation": True,
        "contract_right_to_drain": True,
    },
    "exemption.incidental.5_1": {"created_by": frozenset({"beaver_dam"})},
    "exemption.utilities.6_a_3": {"sewage_system_repair": True},
    "exemption.forestry.7_1": {
        "silviculture_crossing": True,
        "limits_impact": True,
        "dikes_ditches_tile": False,
        "buildings": False,
        "results_in_drainage": False,
    },
    "exemption.wildlife.10_2": {"duck_blind": True},
}


def impact(impact_id: str, rule_id: str, **extra) -> ExemptionFacts:
    return ExemptionFacts(impact_id=impact_id, **{**CLEAN, **ONLY[rule_id], **extra})


@pytest.mark.parametrize("rule_id", sorted(ONLY))
def test_each_base_is_exempt_under_its_exemption_only(rule_id):
    answer = decide_exemptions([impact("A", rule_id)], day=DAY)
    assert answer.outcome is Outcome.EXEMPT
    assert answer.carrying == rule_id
    assert answer.impacts[0].exempt_under == (rule_id,)
    assert answer.impacts[0].conditional_under == ()


PAIRS = list(itertools.permutations(sorted(ONLY), 2))


@pytest.mark.parametrize(
    ("first", "second"),
    [pytest.param(a, b, id=f"8420.0420 subp. 1 C: {a} + {b}") for a, b in PAIRS],
)
def test_two_exemptions_for_two_impacts_are_not_combined(first, second):
    answer = decide_exemptions([impact("A", first), impact("B", second)], day=DAY)
    assert answer.outcome is Outcome.NOT_EXEMPT
    assert answer.carrying is None
    assert answer.partial in (first, second)
    other = second if answer.partial == first else first
    assert answer.refused_combination == (other,)
    assert any("may not be combined" in r for r in answer.reasons)
    assert len(answer.covered) == 1


@pytest.mark.parametrize("rule_id", sorted(ONLY))
def test_one_exemption_for_every_impact_carries_the_project(rule_id):
    answer = decide_exemptions([impact("A", rule_id), impact("B", rule_id)], day=DAY)
    assert answer.outcome is Outcome.EXEMPT and answer.carrying == rule_id
    assert answer.covered == ("A", "B")
    assert any("subd. 9(g)" in v for v in answer.verify)


def test_any_one_exemption_is_enough_subd_11b():
    # A is exempt under 6(a)(3) and also a duck blind; B only under 6(a)(3): 6(a)(3) carries
    a = impact("A", "exemption.utilities.6_a_3", duck_blind=True)
    b = impact("B", "exemption.utilities.6_a_3")
    answer = decide_exemptions([a, b], day=DAY)
    assert answer.outcome is Outcome.EXEMPT
    assert answer.carrying == "exemption.utilities.6_a_3"
    assert set(answer.impacts[0].exempt_under) == {
        "exemption.utilities.6_a_3",
        "exemption.wildlife.10_2",
    }
    assert answer.refused_combination == ()


@pytest.mark.parametrize(
    "fact",
    ["calcareous_fen", "banked", "used_for_replacement_credit", "remainder_newly_qualifies"],
)
def test_no_exemption_for_an_excluded_wetland_subp_1b(fact):
    f = impact("A", "exemption.wildlife.10_2", **{fact: True})
    assert binding_exclusions(f, None, DAY).outcome is Outcome.EXCLUDED
    answer = decide_exemptions([f], day=DAY)
    assert answer.outcome is Outcome.NOT_EXEMPT
    assert all(r.outcome is not Outcome.EXEMPT for r in answer.impacts[0].tried)
    blind = answer.impacts[0].by_rule("exemption.wildlife.10_2")
    assert blind.outcome is Outcome.NOT_EXEMPT
    assert "Minn. R. 8420.0420, subp. 1 B" in blind.citations


@pytest.mark.parametrize(
    "fact",
    ["calcareous_fen", "banked", "used_for_replacement_credit", "remainder_newly_qualifies"],
)
def test_an_unknown_exclusion_makes_the_answer_conditional(fact):
    values = {**CLEAN, fact: None}
    f = ExemptionFacts(impact_id="A", duck_blind=True, **values)
    answer = decide_exemptions([f], day=DAY)
    assert answer.outcome is Outcome.CONDITIONAL
    assert answer.carrying == "exemption.wildlife.10_2"
    assert fact in answer.impacts[0].by_rule("exemption.wildlife.10_2").unknown
    assert any(fact in v for v in answer.verify)


def test_the_project_area_is_summed_for_the_utility_half_acre():
    util = {"utility_work": True, "avoided_minimized": True}
    a = ExemptionFacts(impact_id="A", impact_sqft=15_000.0, **util, **CLEAN)
    b = ExemptionFacts(impact_id="B", impact_sqft=15_000.0, **util, **CLEAN)
    alone = decide_exemptions([a], day=DAY)
    both = decide_exemptions([a, b], day=DAY)
    assert alone.outcome is Outcome.EXEMPT
    assert both.outcome is Outcome.NOT_EXEMPT
    assert both.impacts[0].by_rule("exemption.utilities.6_a_1").inputs["project_sqft"] == 30_000


def test_the_type_2_6_drained_area_is_summed_for_the_five_acres():
    base = {
        "impact_kind": "drain",
        "incorporated": False,
        "drainage_benefits": True,
        "system_expenditure": True,
        "drained_for_conversion": False,
        **CLEAN,
    }
    acre = 43_560.0
    a = ExemptionFacts(impact_id="A", wetland_type=2, impact_sqft=3 * acre, **base)
    b = ExemptionFacts(impact_id="B", wetland_type=6, impact_sqft=2 * acre, **base)
    c = ExemptionFacts(impact_id="C", wetland_type=1, impact_sqft=50 * acre, **base)
    assert decide_exemptions([a, b, c], day=DAY).outcome is Outcome.EXEMPT
    d = ExemptionFacts(impact_id="D", wetland_type=2, impact_sqft=1.0, **base)
    assert decide_exemptions([a, b, c, d], day=DAY).outcome is Outcome.NOT_EXEMPT


def test_claims_fill_unknown_facts_but_never_overrule_an_impact():
    a = ExemptionFacts(impact_id="A", utility_work=True, impact_sqft=100.0, **CLEAN)
    b = ExemptionFacts(
        impact_id="B", utility_work=True, impact_sqft=100.0, avoided_minimized=False, **CLEAN
    )
    assert decide_exemptions([a], day=DAY).outcome is Outcome.CONDITIONAL
    claims = ExemptionClaims(avoided_minimized=True)
    assert decide_exemptions([a], claims, day=DAY).outcome is Outcome.EXEMPT
    assert decide_exemptions([b], claims, day=DAY).outcome is Outcome.NOT_EXEMPT


def test_nothing_known_is_not_exempt_and_offers_no_exemption():
    answer = decide_exemptions([ExemptionFacts(impact_id="A")], day=DAY)
    assert answer.outcome is Outcome.NOT_EXEMPT
    assert answer.carrying is None and answer.partial is None


def test_the_trace_has_every_exemption_tried_for_every_impact():
    answer = decide_exemptions(
        [impact("A", "exemption.wildlife.10_2"), impact("B", "exemption.utilities.6_a_3")],
        day=DAY,
    )
    steps = answer.trace_steps()
    exemptions = [s for s in EXEMPTION_RULES if s.kind == "exemption"]
    assert len(steps) == 2 * (1 + len(exemptions)) + 1
    log = TraceLog()
    for step in steps:
        assert step["rule_id"] in RULES_BY_ID
        log.add(project="P", **step)
        for name in ("verify", "inputs", "parameters"):
            encode_trace_value(step[name])
    assert log.reasons()[-1] == steps[-1]["reason"]
    json.dumps(answer.to_dict())
    for step in steps[:-1]:
        assert step["inputs"]["conditions"], "each tried exemption says why"


def test_bad_projects_are_refused():
    with pytest.raises(RulesInputError, match="at least one impact"):
        decide_exemptions([], day=DAY)
    with pytest.raises(RulesInputError, match="unique"):
        decide_exemptions([ExemptionFacts(impact_id="A"), ExemptionFacts(impact_id="A")])
    with pytest.raises(RulesInputError, match="must be ExemptionFacts"):
        decide_exemptions([{"impact_id": "A"}])  # type: ignore[list-item]


@settings(max_examples=60, deadline=None)
@given(st.lists(FACTS, min_size=1, max_size=3))
def test_a_project_is_exempt_only_under_one_exemption_for_every_impact(impacts):
    impacts = [ExemptionFacts(**{**vars(f), "impact_id": f"I{i}"}) for i, f in enumerate(impacts)]
    answer = decide_exemptions(impacts, day=DAY)
    if answer.outcome is Outcome.EXEMPT:
        assert all(i.by_rule(answer.carrying).outcome is Outcome.EXEMPT for i in answer.impacts)
    if answer.outcome is Outcome.CONDITIONAL:
        assert all(
            i.by_rule(answer.carrying).outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL)
            for i in answer.impacts
        )
    if answer.carrying is None:
        assert answer.outcome is Outcome.NOT_EXEMPT
    for i in answer.impacts:
        if i.exclusion.outcome is Outcome.EXCLUDED:
            assert not i.exempt_under and not i.conditional_under


@settings(max_examples=60, deadline=None)
@given(st.lists(FACTS, min_size=1, max_size=3), st.data())
def test_forgetting_a_fact_never_makes_a_project_exempt(impacts, data):
    impacts = [dataclasses.replace(f, impact_id=f"I{i}") for i, f in enumerate(impacts)]
    which = data.draw(st.integers(0, len(impacts) - 1))
    name = data.draw(
        st.sampled_from(
            [
                f.name
                for f in dataclasses.fields(ExemptionFacts)
                # a later event not given is not recorded, not unknown (LATER_EVENT_FACTS)
                if f.name != "impact_id" and f.name not in LATER_EVENT_FACTS
            ]
        )
    )
    forgotten = list(impacts)
    forgotten[which] = dataclasses.replace(impacts[which], **{name: None})
    known = decide_exemptions(impacts, day=DAY).outcome
    unknown = decide_exemptions(forgotten, day=DAY).outcome
    if known is not Outcome.EXEMPT:
        assert unknown is not Outcome.EXEMPT, name


@pytest.mark.parametrize(
    ("other", "want"),
    [
        pytest.param({"wetland_type": 3, "impact_kind": None}, 43_560.0, id="type 3, kind unknown"),
        pytest.param({"wetland_type": 2, "impact_kind": "fill"}, 43_560.0, id="type 2 fill"),
        pytest.param({"wetland_type": 2, "impact_kind": None}, None, id="type 2, kind unknown"),
        pytest.param({"wetland_type": None, "impact_kind": "drain"}, None, id="drain of no type"),
        pytest.param({"wetland_type": 6, "impact_kind": "drain"}, 87_120.0, id="type 6 drain"),
    ],
)
def test_the_subd_2b_project_area_counts_what_may_count(other, want):
    base = {"impact_kind": "drain", "drainage_benefits": True, **CLEAN}
    a = ExemptionFacts(impact_id="A", wetland_type=2, impact_sqft=43_560.0, **base)
    b = ExemptionFacts(**{**base, "impact_id": "B", "impact_sqft": 43_560.0, **other})
    answer = decide_exemptions([a, b], day=DAY)
    got = (
        answer.impacts[0]
        .by_rule("exemption.drainage.2_b")
        .inputs.get("project_type_2_6_drained_sqft")
    )
    assert got == want
