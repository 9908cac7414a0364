"""Scenario tests of the exemptions written as data (tests/scenarios/exemptions/*.yaml).

A project case::

    - name: a sentence stating the legal expectation
      paragraph: § 103G.2241, subd. 1(1)
      claims: {corps_404_permit: true}         # ExemptionClaims fields (optional)
      impacts:                                  # ExemptionFacts fields
        - {impact_id: A, years_cropped_before_1991: 6}
      expect:
        outcome: exempt                         # the project outcome
        carrying: exemption.agriculture.1_1     # or partial / refused
        impacts: {A: {exemption.agriculture.1_1: exempt}}
        verify_contains: ["8420.0420, subp. 1 D"]

A road case gives ``road:`` (RoadFacts fields) instead of ``impacts`` and expects
``outcome``, ``route``, ``skip_siting`` and ``verify_contains``. The subp. 1 B exclusion
facts default to false; ``created_by`` is a list. Dates: ``as_of`` (default 2024-05-01).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import yaml_cases

from wetland_gis.rules.exempt import (
    ExemptionClaims,
    ExemptionFacts,
    RoadFacts,
    decide_exemptions,
    road_replacement,
)

HERE = Path(__file__).parent / "scenarios" / "exemptions"
DEFAULTS = {
    "calcareous_fen": False,
    "banked": False,
    "used_for_replacement_credit": False,
    "remainder_newly_qualifies": False,
}
CASE_KEYS = {"name", "paragraph", "claims", "impacts", "road", "expect", "as_of"}
EXPECT_KEYS = {
    "outcome",
    "carrying",
    "partial",
    "refused",
    "impacts",
    "verify_contains",
    "route",
    "skip_siting",
}


CASES = yaml_cases(HERE)


def test_the_scenario_files_hold_cases():
    assert len(CASES) >= 25


def _facts(values: dict[str, Any]) -> ExemptionFacts:
    values = {**DEFAULTS, **values}
    if values.get("created_by") is not None:
        values["created_by"] = frozenset(values["created_by"])
    return ExemptionFacts(**values)


@pytest.mark.parametrize("case", CASES)
def test_scenario(case):
    assert set(case) <= CASE_KEYS, set(case) - CASE_KEYS
    assert case.get("paragraph"), "each case names the paragraph it checks"
    expect = case["expect"]
    assert set(expect) <= EXPECT_KEYS, set(expect) - EXPECT_KEYS
    day = str(case.get("as_of", "2024-05-01"))
    if "road" in case:
        result = road_replacement(RoadFacts(**case["road"]), None, day)
        assert result.outcome.value == expect["outcome"], result.reasons
        if "route" in expect:
            assert result.route.value == expect["route"]
        if "skip_siting" in expect:
            assert result.skip_siting is expect["skip_siting"]
        verify = result.verify
    else:
        claims = ExemptionClaims(**case.get("claims", {}))
        answer = decide_exemptions([_facts(f) for f in case["impacts"]], claims, None, day)
        assert answer.outcome.value == expect["outcome"], answer.reasons
        for key, attr in (("carrying", "carrying"), ("partial", "partial")):
            if key in expect:
                assert getattr(answer, attr) == expect[key]
        if "refused" in expect:
            assert list(answer.refused_combination) == expect["refused"]
        for impact_id, rules in expect.get("impacts", {}).items():
            impact = next(i for i in answer.impacts if i.impact_id == impact_id)
            for rule_id, outcome in rules.items():
                assert impact.by_rule(rule_id).outcome.value == outcome, rule_id
        verify = answer.verify
    for text in expect.get("verify_contains", []):
        assert any(text in v for v in verify), (text, verify)
