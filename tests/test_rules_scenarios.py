"""Scenario tests of the decision engine written as data (tests/scenarios/*.yaml).

Each YAML file holds a list of cases in the spirit of OpenFisca's YAML tests: the facts of
a project's impacts and the analyst's claims in, the outcome, amounts and rule ids out, and
the paragraph of law the case checks (``paragraph``, part of the test id). A person can
read and extend them without reading Python.

A case::

    - name: a 9,000 sq ft type 2 fill is de minimis
      paragraph: § 103G.2241, subd. 9(a)(1)
      claims: {}                      # Claims fields (optional)
      impacts:                        # ImpactFacts fields; defaults below
        - {impact_id: A, wetland_type: 2, sqft_outside: 9000}
      expect:
        outcome: de_minimis_exempt    # the project outcome
        impacts:                      # per impact: any ImpactDecision field
          A: {outcome: de_minimis_exempt, counted_sqft: 9000}
        totals: {public_comment: null}
        rule_ids: [de_minimis.total]  # rule ids that must be in the trace
        no_rule_ids: []               # rule ids that must not be
        steps:                        # a step of a rule: outcome, citation text, verify text
          - {rule_id: impact_kind, impact_id: A, outcome: regulated, cites: "subd. 1(a)"}

A step may also say ``not_cites`` (citation text it must not hold) or ``absent: true``.

Impact defaults: ``cedar_tamarack: false``, zone areas 0, ``pct_class:
greater_than_80_percent``, ``metro: false``, ``impact_kind: fill``,
``owns_whole_wetland: true``. Dates: ``as_of`` (default 2024-05-01).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import yaml_cases

from wetland_gis.rules import Claims, ImpactFacts, decide_project
from wetland_gis.rules.exempt import ExemptionClaims, ExemptionFacts, RoadFacts

HERE = Path(__file__).parent / "scenarios"
DEFAULTS: dict[str, Any] = {
    "cedar_tamarack": False,
    "sqft_setback": 0.0,
    "sqft_protection": 0.0,
    "sqft_outside": 0.0,
    "pct_class": "greater_than_80_percent",
    "metro": False,
    "impact_kind": "fill",
    "owns_whole_wetland": True,
}
CASE_KEYS = {"name", "paragraph", "claims", "impacts", "expect", "as_of"}
EXPECT_KEYS = {"outcome", "impacts", "totals", "rule_ids", "no_rule_ids", "steps"}
STEP_KEYS = {"rule_id", "impact_id", "outcome", "cites", "not_cites", "verify", "value", "absent"}


CASES = yaml_cases(HERE)


def test_the_scenario_files_hold_cases():
    assert len(CASES) >= 10, "tests/scenarios/*.yaml should hold the engine's scenarios"


def _value(obj: Any) -> Any:
    return getattr(obj, "value", obj)


def _same(got: Any, want: Any) -> bool:
    got = _value(got)
    if isinstance(want, float) or (isinstance(want, int) and isinstance(got, float)):
        return got is not None and got == pytest.approx(want)
    if isinstance(want, list) and isinstance(got, tuple):
        return list(got) == want
    return got == want


def _nested(row: dict) -> dict:
    """Return an impact row with its ``exemption`` and ``road`` mappings as their facts."""
    out = dict(row)
    if "exemption" in out:
        out["exemption"] = ExemptionFacts(**out["exemption"])
    if "road" in out:
        out["road"] = RoadFacts(**out["road"])
    return out


@pytest.mark.parametrize("case", CASES)
def test_scenario(case):
    unknown = set(case) - CASE_KEYS
    assert not unknown, f"unknown keys {sorted(unknown)}"
    assert case.get("paragraph"), "each scenario names the paragraph it checks"
    expect = case["expect"]
    assert set(expect) <= EXPECT_KEYS, f"unknown expect keys {sorted(set(expect) - EXPECT_KEYS)}"
    impacts = [ImpactFacts(**{**DEFAULTS, **_nested(row)}) for row in case["impacts"]]
    claims = dict(case.get("claims") or {})
    if "exemptions" in claims:
        claims["exemptions"] = ExemptionClaims(**claims["exemptions"])
    d = decide_project(impacts, Claims(**claims), as_of=case.get("as_of", "2024-05-01"))
    problems = []
    if "outcome" in expect and d.outcome.value != expect["outcome"]:
        problems.append(f"project outcome {d.outcome.value!r}, expected {expect['outcome']!r}")
    by_id = d.by_impact
    for iid, fields in (expect.get("impacts") or {}).items():
        got = by_id[iid]
        for name, want in fields.items():
            if not _same(getattr(got, name), want):
                problems.append(
                    f"impact {iid!r} {name} {_value(getattr(got, name))!r}, expected {want!r}"
                )
    for name, want in (expect.get("totals") or {}).items():
        if not _same(d.totals[name], want):
            problems.append(f"totals {name} {d.totals[name]!r}, expected {want!r}")
    steps = d.steps()
    ids = {s["rule_id"] for s in steps}
    for rule in expect.get("rule_ids") or ():
        if rule not in ids:
            problems.append(f"rule {rule!r} not in the trace ({sorted(ids)})")
    for rule in expect.get("no_rule_ids") or ():
        if rule in ids:
            problems.append(f"rule {rule!r} is in the trace")
    for want in expect.get("steps") or ():
        assert set(want) <= STEP_KEYS, f"unknown step keys {sorted(set(want) - STEP_KEYS)}"
        found = [
            s
            for s in steps
            if s["rule_id"] == want["rule_id"]
            and ("impact_id" not in want or s["impact_id"] == str(want["impact_id"]))
        ]
        if want.get("absent"):
            if found:
                problems.append(f"step {want['rule_id']!r} should be absent")
            continue
        if not found:
            problems.append(f"no step {want['rule_id']!r} for {want.get('impact_id', '')!r}")
            continue
        s = found[0]
        if "outcome" in want and s["outcome"] != want["outcome"]:
            problems.append(
                f"{want['rule_id']} outcome {s['outcome']!r}, expected {want['outcome']!r}"
            )
        if "value" in want and not _same(s["value"], want["value"]):
            problems.append(f"{want['rule_id']} value {s['value']!r}, expected {want['value']!r}")
        for text in (
            [want["cites"]] if isinstance(want.get("cites"), str) else want.get("cites", ())
        ):
            if text not in s["citation"]:
                problems.append(f"{want['rule_id']} citation {s['citation']!r} lacks {text!r}")
        for text in (
            [want["not_cites"]]
            if isinstance(want.get("not_cites"), str)
            else want.get("not_cites", ())
        ):
            if text in s["citation"]:
                problems.append(f"{want['rule_id']} citation {s['citation']!r} cites {text!r}")
        for text in (
            [want["verify"]] if isinstance(want.get("verify"), str) else want.get("verify", ())
        ):
            if not any(text in v for v in s["verify"]):
                problems.append(f"{want['rule_id']} verify {s['verify']!r} lacks {text!r}")
    assert not problems, "\n".join(problems)
