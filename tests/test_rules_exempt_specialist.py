"""The exemptions and road projects as a wetland specialist reads them (issue 32, part A).

Each case names the paragraph it checks; each failed on the code before issue 32.
"""

from __future__ import annotations

import pytest

from wetland_gis.rules import Claims, ImpactFacts, decide_project
from wetland_gis.rules.exempt import ExemptionFacts, decide_exemptions, spec_of

AS_OF = "2024-05-01"
GT80 = "greater_than_80_percent"
CLEAN = {
    "calcareous_fen": False,
    "banked": False,
    "used_for_replacement_credit": False,
    "remainder_newly_qualifies": False,
}
ONE = spec_of(decide_exemptions).rule_id


def fact(iid, sqft=15_000.0, wtype=2, *, exemption=None, road=None, **kw):
    kw.setdefault("impact_kind", "fill")
    kw.setdefault("owns_whole_wetland", True)
    return ImpactFacts(
        impact_id=iid,
        wetland_type=wtype,
        cedar_tamarack=False,
        sqft_setback=0.0,
        sqft_protection=0.0,
        sqft_outside=sqft,
        pct_class=GT80,
        metro=False,
        exemption=exemption,
        road=road,
        **kw,
    )


def ex(**kw):
    return ExemptionFacts(**{**CLEAN, **kw})


def decide(*impacts, **claims):
    return decide_project(list(impacts), Claims(**claims), as_of=AS_OF)


def steps_of(d, rule_id, impact_id=None):
    return [
        s
        for s in d.steps()
        if s["rule_id"] == rule_id and (impact_id is None or s["impact_id"] == impact_id)
    ]


# --- citations (issue items 16, 17) -----------------------------------------------------------


def test_subp_1a_is_cited_for_any_one_exemption_not_for_replacing_the_entire_amount():
    """Minn. R. 8420.0420, subp. 1 A is the "any one exemption" rule (subd. 11(b)); the
    "entire amount of impact must be replaced" sentence is the general standard of subp. 1."""
    d = decide(fact("A", exemption=ex(duck_blind=True)), fact("B"))
    (project,) = steps_of(d, ONE, "")
    assert "Minn. R. 8420.0420, subp. 1 A" in project["citation"]
    for step in steps_of(d, "replacement.credits"):
        assert "subp. 1 A" not in step["citation"]
        assert "Minn. R. 8420.0420, subp. 1" in step["citation"]
