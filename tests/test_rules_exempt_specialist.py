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


# --- likely wrong, issue items 9-12 ----------------------------------------------------------

UTILITY = {"utility_work": True, "avoided_minimized": True}
SWAMPBUSTER = {"land_use": "agricultural", "swampbuster": True}
PASTURE = {"land_use": "pasture", "pasture_same_use": True, "bottomland_hardwood": False}
FOREST_ROAD = {
    "forest_road": True,
    "limits_impact": True,
    "dikes_ditches_tile": False,
    "filling_avoided": True,
}
SILVICULTURE = {
    "silviculture_crossing": True,
    "limits_impact": True,
    "dikes_ditches_tile": False,
    "buildings": False,
}


@pytest.mark.parametrize(
    ("rule", "facts", "want"),
    [
        # subd. 1(7): "agricultural activities on agricultural land"
        pytest.param(
            "exemption.agriculture.1_7",
            {**SWAMPBUSTER, "agricultural_activity": False},
            "not_exempt",
            id="subd. 1(7): a house pad on swampbuster land is not an agricultural activity",
        ),
        pytest.param(
            "exemption.agriculture.1_7",
            SWAMPBUSTER,
            "conditional",
            id="subd. 1(7): the land use alone leaves the activity unknown: conditional",
        ),
        pytest.param(
            "exemption.agriculture.1_7",
            {**SWAMPBUSTER, "agricultural_activity": True},
            "exempt",
            id="subd. 1(7): an agricultural activity on swampbuster land",
        ),
        # subd. 1(2) and § 103G.005, subd. 14a: pasture is a state before January 1, 1991
        pytest.param(
            "exemption.agriculture.1_2",
            {**PASTURE, "wetland_type": 1},
            "conditional",
            id="subd. 1(2), § 103G.005 subd. 14a: the 1991 state unknown blocks exempt",
        ),
        pytest.param(
            "exemption.agriculture.1_2",
            {**PASTURE, "wetland_type": 1, "pasture_1991": False},
            "not_exempt",
            id="subd. 1(2), § 103G.005 subd. 14a: labelled pasture, not pasture in 1991",
        ),
        pytest.param(
            "exemption.agriculture.1_2",
            {**PASTURE, "wetland_type": 1, "pasture_1991": True},
            "exempt",
            id="subd. 1(2), § 103G.005 subd. 14a: pasture before 1991 in the same use",
        ),
        # subd. 7(2), 7(1): "there is no drainage of the wetland"
        pytest.param(
            "exemption.forestry.7_2",
            {**FOREST_ROAD, "impact_kind": "drain"},
            "not_exempt",
            id="subd. 7(2): a forest road that drains is not exempt (not conditional)",
        ),
        pytest.param(
            "exemption.forestry.7_2",
            {**FOREST_ROAD, "impact_kind": "drain", "results_in_drainage": False},
            "not_exempt",
            id="subd. 7(2): a drain impact is drainage whatever the flag says",
        ),
        pytest.param(
            "exemption.forestry.7_2",
            {**FOREST_ROAD, "impact_kind": "fill", "results_in_drainage": False},
            "exempt",
            id="subd. 7(2): a forest road fill without drainage",
        ),
        pytest.param(
            "exemption.forestry.7_2",
            {**FOREST_ROAD, "impact_kind": "fill"},
            "conditional",
            id="subd. 7(2): a fill whose drainage is not known is conditional",
        ),
        pytest.param(
            "exemption.forestry.7_1",
            {**SILVICULTURE, "impact_kind": "drain"},
            "not_exempt",
            id="subd. 7(1): a silvicultural crossing that drains is not exempt",
        ),
    ],
)
def test_items_9_to_12_one_clause(rule, facts, want):
    d = decide(fact("A", exemption=ex(**facts)))
    (step,) = steps_of(d, rule, "A")
    assert step["outcome"] == want, step["reason"]
    if want == "conditional":
        assert step["verify"], "a conditional answer names what to verify"


HALF_ACRE = 21_780.0


@pytest.mark.parametrize(
    ("others", "want"),
    [
        pytest.param(
            [fact("X", 10_000.0, 2, impact_kind="excavate")],
            "not_exempt",
            id="subd. 6(a)(1)(ii): an excavation that is not a drain or fill still alters",
        ),
        pytest.param(
            [fact("X", HALF_ACRE - 15_001.0, 2, impact_kind="excavate")],
            "exempt",
            id="subd. 6(a)(1)(ii): altered area one sq ft under one-half acre",
        ),
        pytest.param(
            [fact("X", HALF_ACRE - 15_000.0, 2, impact_kind="excavate")],
            "not_exempt",
            id="subd. 6(a)(1)(ii): altered area exactly one-half acre ('less than')",
        ),
    ],
)
def test_the_utility_area_counts_every_alteration(others, want):
    """Subd. 6(a)(1)(ii): "the proposed project significantly modifies or alters less than
    one-half acre of wetlands" counts every impact recorded, not only drains and fills."""
    d = decide(fact("A", 15_000.0, exemption=ex(**UTILITY)), *others)
    (step,) = steps_of(d, "exemption.utilities.6_a_1", "A")
    assert step["outcome"] == want, step["reason"]


def test_a_partial_drain_alters_its_whole_area_for_the_utility_limit():
    """A partial drain counts a share for replacement (Minn. R. 8420.0522, subp. 2) but
    alters its whole area (subd. 6(a)(1)(ii))."""
    drain = fact(
        "A",
        30_000.0,
        impact_kind="drain",
        partial=True,
        partial_share=0.5,
        exemption=ex(**UTILITY),
    )
    d = decide(drain)
    assert d.by_impact["A"].counted_sqft == 15_000.0
    (step,) = steps_of(d, "exemption.utilities.6_a_1", "A")
    assert step["outcome"] == "not_exempt", step["reason"]


# --- § 103G.222, subd. 1(l): board credits only for public transportation (issue item 2) -----


@pytest.mark.parametrize(
    ("road", "route"),
    [
        pytest.param(
            {"project_kind": "new_road", "road_authority": "other", "airport": False},
            "not_covered",
            id="subd. 1(l): a private developer's new road: ordinary replacement",
        ),
        pytest.param(
            {"project_kind": "new_road", "road_authority": "county", "airport": True},
            "not_covered",
            id="subd. 1(l): an airport project: ordinary replacement",
        ),
        pytest.param(
            {"project_kind": "new_road", "road_authority": "county", "airport": False},
            "credits_from_board",
            id="subd. 1(l): a county's new road may buy credits from the board",
        ),
        pytest.param(
            {"project_kind": "capacity_expansion", "airport": False},
            "unknown",
            id="subd. 1(l): authority not known: not the board's credits",
        ),
    ],
)
def test_board_credits_only_for_a_public_transportation_project(road, route):
    from wetland_gis.rules.exempt import RoadFacts

    d = decide(fact("A", 30_000.0, road=RoadFacts(**road)))
    assert d.road == route
    assert d.by_impact["A"].outcome.value == "replacement_required"
    assert d.by_impact["A"].replacement_by is None
