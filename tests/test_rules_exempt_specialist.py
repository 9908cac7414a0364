"""The exemptions and road projects as a wetland specialist reads them (issue 32, part A).

Each case names the paragraph it checks; each failed on the code before issue 32.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
from exempt_helpers import clause, clean_facts as ex
from helpers import decide, fill_fact, steps_of
from hypothesis import example, given, settings, strategies as st

from wetland_gis.rules.exempt import ExemptionFacts, decide_exemptions, spec_of

ONE = spec_of(decide_exemptions).rule_id


def fact(iid, sqft=15_000.0, wtype=2, **kw):
    return fill_fact(iid, wtype, sqft, **kw)


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
PASTURE = {
    "land_use": "pasture",
    "pasture_same_use": True,
    "bottomland_hardwood": False,
    "wetland_type": 1,
}
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


agriculture_1_7 = clause("exemption.agriculture.1_7", SWAMPBUSTER)
pasture_1_2 = clause("exemption.agriculture.1_2", PASTURE)
forest_road_7_2 = clause("exemption.forestry.7_2", FOREST_ROAD)
silviculture_7_1 = clause("exemption.forestry.7_1", SILVICULTURE)
PASTURE_14A = "subd. 1(2), § 103G.005 subd. 14a"


@pytest.mark.parametrize(
    ("rule", "facts", "want"),
    [
        # subd. 1(7): "agricultural activities on agricultural land"
        agriculture_1_7(
            "subd. 1(7): a house pad on swampbuster land is not an agricultural activity",
            "not_exempt",
            agricultural_activity=False,
        ),
        agriculture_1_7(
            "subd. 1(7): the land use alone leaves the activity unknown: conditional", "conditional"
        ),
        agriculture_1_7(
            "subd. 1(7): an agricultural activity on swampbuster land",
            "exempt",
            agricultural_activity=True,
        ),
        # subd. 1(2) and § 103G.005, subd. 14a: pasture is a state before January 1, 1991
        pasture_1_2(f"{PASTURE_14A}: the 1991 state unknown blocks exempt", "conditional"),
        pasture_1_2(
            f"{PASTURE_14A}: labelled pasture, not pasture in 1991",
            "not_exempt",
            pasture_1991=False,
        ),
        pasture_1_2(
            f"{PASTURE_14A}: pasture before 1991 in the same use", "exempt", pasture_1991=True
        ),
        # subd. 7(2), 7(1): "there is no drainage of the wetland"
        forest_road_7_2(
            "subd. 7(2): a forest road that drains is not exempt (not conditional)",
            "not_exempt",
            impact_kind="drain",
        ),
        forest_road_7_2(
            "subd. 7(2): a drain impact is drainage whatever the flag says",
            "not_exempt",
            impact_kind="drain",
            results_in_drainage=False,
        ),
        forest_road_7_2(
            "subd. 7(2): a forest road fill without drainage",
            "exempt",
            impact_kind="fill",
            results_in_drainage=False,
        ),
        forest_road_7_2(
            "subd. 7(2): a fill whose drainage is not known is conditional",
            "conditional",
            impact_kind="fill",
        ),
        silviculture_7_1(
            "subd. 7(1): a silvicultural crossing that drains is not exempt",
            "not_exempt",
            impact_kind="drain",
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


# --- clauses of one subdivision on one project (issue item 1) ---------------------------------

ROUTINE = {"utility_operation": True, "additional_intrusion": False}  # subd. 6(a)(2)
NEW_LINE = {"utility_work": True, "avoided_minimized": True}  # subd. 6(a)(1)
UNIT = "reading.exemption_unit_reading"


@pytest.mark.parametrize(
    ("impacts", "reading", "want", "clauses"),
    [
        pytest.param(
            [("A", 3_000.0, ROUTINE), ("B", 15_000.0, NEW_LINE)],
            "each_clause",
            "replacement_required",
            None,
            id="subd. 11(b), subp. 1 C: 6(a)(2) and 6(a)(1) are two exemptions (default)",
        ),
        pytest.param(
            [("A", 3_000.0, ROUTINE), ("B", 15_000.0, NEW_LINE)],
            "whole_subdivision",
            "exempt",
            {"A": "exemption.utilities.6_a_2", "B": "exemption.utilities.6_a_1"},
            id="subd. 11(b): the clauses of subd. 6 read as one exemption",
        ),
        pytest.param(
            [
                ("A", 3_000.0, {"normal_farming": True, "land_use": "agricultural"}),
                ("B", 15_000.0, {"soil_water_practice": True, "land_use": "agricultural"}),
            ],
            "whole_subdivision",
            "exempt_conditional",
            {"A": "exemption.agriculture.1_3", "B": "exemption.agriculture.1_4"},
            id="subd. 1(3), 1(4): one subdivision, the SWCD approval unknown: conditional",
        ),
        pytest.param(
            [("A", 3_000.0, {"duck_blind": True}), ("B", 15_000.0, {"sewage_system_repair": True})],
            "whole_subdivision",
            "replacement_required",
            None,
            id="subp. 1 C: subd. 10(2) and 6(a)(3) are two subdivisions under either reading",
        ),
    ],
)
def test_the_clauses_of_one_subdivision(impacts, reading, want, clauses):
    facts = [fact(iid, sqft, exemption=ex(**e)) for iid, sqft, e in impacts]
    d = decide(*facts, exemption_unit_reading=reading)
    assert d.outcome.value == want
    if clauses is not None:
        assert {i.impact_id: i.exemptions for i in d.impacts} == {
            k: (v,) for k, v in clauses.items()
        }


def test_the_flip_of_a_6a1_impact_is_named_in_the_trace_with_the_other_reading_beside_it():
    """Subd. 6(a)(1) alone is exempt; with a 6(a)(2) impact beside it the project needs
    one exemption (subp. 1 C): the answer flips, and the trace says why, per impact, and
    names the reading with the alternative's result beside it."""
    alone = decide(fact("B", 15_000.0, exemption=ex(**NEW_LINE)))
    assert alone.outcome.value == "exempt"
    assert not steps_of(alone, UNIT)
    both = decide(
        fact("A", 3_000.0, exemption=ex(**ROUTINE)),
        fact("B", 15_000.0, exemption=ex(**NEW_LINE)),
    )
    assert both.by_impact["B"].outcome.value == "replacement_required"
    (why,) = steps_of(both, ONE, "B")
    assert why["outcome"] == "not_exempt"
    assert why["inputs"]["exempt_alone_under"] == ["exemption.utilities.6_a_1"]
    assert "may not be combined" in why["reason"] and "each_clause" in why["reason"]
    (step,) = steps_of(both, UNIT)
    assert step["inputs"]["reading"] == "each_clause"
    assert step["inputs"]["differs"] is True
    assert step["inputs"]["alternative_outcome"] == "exempt"
    assert step["inputs"]["alternative_exempt_sqft"] == 18_000.0
    assert any("Claims.exemption_unit_reading" in v for v in step["verify"])


_CLAUSE_FACTS = [
    ROUTINE,
    NEW_LINE,
    {"sewage_system_repair": True},
    {"duck_blind": True},
    {"normal_farming": True, "land_use": "agricultural"},
    {"soil_water_practice": True, "land_use": "agricultural"},
    {"utility_work": True},
    {},
]


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(st.sampled_from(range(len(_CLAUSE_FACTS))), st.sampled_from([300.0, 9_000.0])),
        min_size=1,
        max_size=4,
    )
)
@example([(0, 9_000.0), (1, 9_000.0)])
def test_the_default_unit_reading_never_exempts_what_the_other_replaces(rows):
    facts = [
        fact(str(i), sqft, exemption=ex(**_CLAUSE_FACTS[k])) for i, (k, sqft) in enumerate(rows)
    ]
    default = decide(*facts)
    other = decide(*facts, exemption_unit_reading="whole_subdivision")
    assert default.totals["exempt_sqft"] <= other.totals["exempt_sqft"]
    assert default.totals["replace_acres"] >= other.totals["replace_acres"] - 1e-12
    # every impact that is not exempt in its project but exempt alone says why
    if default.totals["de_minimis"] in ("exempt", "conditional"):
        return
    for i in default.impacts:
        if i.outcome.value == "replacement_required" and _exempt_alone(rows[int(i.impact_id)]):
            assert steps_of(default, ONE, i.impact_id), i.impact_id


_ALONE: dict[tuple[int, float], bool] = {}


def _exempt_alone(row: tuple[int, float]) -> bool:
    if row not in _ALONE:
        d = decide(fact("A", row[1], exemption=ex(**_CLAUSE_FACTS[row[0]])))
        _ALONE[row] = d.outcome.value == "exempt"
    return _ALONE[row]


@pytest.mark.parametrize("command", ["assess", "compare"])
def test_the_unit_reading_is_a_cli_option_with_the_default_first(command, capsys):
    from wetland_gis.cli import build_parser
    from wetland_gis.commands import _reading_claims

    parser = build_parser()
    head = ["assess", "x.gpkg", "--out", "o"] if command == "assess" else ["compare", "x.gpkg"]
    head = head if command == "assess" else [*head, "--out", "o"]
    assert _reading_claims(parser.parse_args(head)).exemption_unit_reading == "each_clause"
    args = parser.parse_args([*head, "--reading", "exemption_unit=whole_subdivision"])
    assert _reading_claims(args).exemption_unit_reading == "whole_subdivision"
    with pytest.raises(SystemExit):
        parser.parse_args([*head, "--reading", "exemption_unit=per_subdivision"])
    assert "each_clause" in capsys.readouterr().err


# --- § 103G.222, subd. 1(m): no replacement plan, and its conditions decided (item 3) ---------

ROAD_1M = {
    "project_kind": "reconstruction",
    "road_authority": "county",
    "currently_serviceable": True,
    "design_safety_necessary": True,
    "minor_or_emergency": False,
}
DAY_REPORT, DAY_BUILD = dt.date(2024, 3, 1), dt.date(2024, 3, 31)  # exactly 30 days


@pytest.mark.parametrize(
    ("duties", "by", "plan"),
    [
        pytest.param(
            {"minimized": True, "report_date": DAY_REPORT, "construction_date": DAY_BUILD},
            "board",
            False,
            id="subd. 1(m)(1), (2): minimized, reported 30 days before: no plan, no comment",
        ),
        pytest.param(
            {"minimized": True, "annual_meeting": True},
            "board",
            False,
            id="subd. 1(m)(2): the annual meeting instead of the reports",
        ),
        pytest.param(
            {"minimized": False, "annual_meeting": True},
            None,
            True,
            id="subd. 1(m)(1): not minimized: the ordinary replacement plan",
        ),
        pytest.param(
            {
                "minimized": True,
                "report_date": DAY_REPORT + dt.timedelta(days=1),
                "construction_date": DAY_BUILD,
                "annual_meeting": False,
            },
            None,
            True,
            id="subd. 1(m)(2): reported 29 days before: the ordinary replacement plan",
        ),
        pytest.param(
            {"report_date": DAY_REPORT, "construction_date": DAY_BUILD},
            None,
            True,
            id="subd. 1(m)(1): minimization unknown: conditional, never not required",
        ),
    ],
)
def test_a_road_the_board_replaces_has_no_replacement_plan_procedure(duties, by, plan):
    from wetland_gis.rules.exempt import RoadFacts

    d = decide(fact("A", 30_000.0, road=RoadFacts(**ROAD_1M, **duties)))
    assert d.by_impact["A"].replacement_by == by
    (road,) = steps_of(d, "road.board_replacement", "")
    if by is None:
        assert road["outcome"] in ("required", "conditional")
    comment = steps_of(d, "procedure.public_comment")
    sequencing = steps_of(d, "procedure.sequencing")
    no_plan = steps_of(d, "procedure.no_replacement_plan")
    if plan:
        assert comment and sequencing and not no_plan
        assert d.totals["public_comment"] == "required"
    else:
        assert not comment and not sequencing
        assert d.totals["public_comment"] is None and d.totals["sequencing_on_site"] is None
        (step,) = no_plan
        assert "subd. 1(m)" in step["citation"] and "not required" in step["reason"]


def test_the_comparison_says_a_board_road_has_no_sequencing_of_a_plan():
    import pandas as pd

    from wetland_gis.compare import sequencing_findings
    from wetland_gis.rules.exempt import RoadFacts

    duties = {"minimized": True, "annual_meeting": True}
    d = decide(fact("A", 30_000.0, road=RoadFacts(**ROAD_1M, **duties)))
    projects = pd.DataFrame({"sequencing_on_site": [None]})
    alternative = SimpleNamespace(assessment=SimpleNamespace(decisions=[d], projects=projects))
    table = pd.DataFrame(
        {
            "alternative": ["preferred"],
            "wetland_sqft": [30_000.0],
            "outcome": ["replacement_required"],
            "replace_credits": [0.69],
            "credits_allocated": [float("nan")],
            "cost_usd": [float("nan")],
        }
    )
    found = {f["principle"]: f for f in sequencing_findings([alternative], table)}
    assert any("subd. 1(m)" in s and "not required" in s for s in found["replace"]["shows"])
    assert any("subd. 1(m)(1)" in v for v in found["minimize"]["verify"])
    assert not any("Before approving a replacement plan" in v for v in found["replace"]["verify"])


# --- subd. 2(b), last sentence: the later conversion decided (issue item 7) -------------------

ASSESSED = {
    "wetland_type": 1,
    "impact_kind": "drain",
    "incorporated": False,
    "drainage_benefits": True,
    "system_expenditure": True,
    "drained_for_conversion": False,
}
DRAINED = dt.date(2014, 6, 1)


@pytest.mark.parametrize(
    ("later", "want"),
    [
        pytest.param(
            {"later_use": "platted_lots", "later_use_date": dt.date(2020, 5, 1)},
            "not_exempt",
            id="subd. 2(b): platted lots six years after drainage: replaced",
        ),
        pytest.param(
            {"later_use": "commercial", "later_use_date": dt.date(2024, 6, 1)},
            "not_exempt",
            id="subd. 2(b): converted on the tenth anniversary: within the period, replaced",
        ),
        pytest.param(
            {"later_use": "commercial", "later_use_date": dt.date(2024, 6, 2)},
            "exempt",
            id="subd. 2(b): converted one day after the ten-year period: not replaced",
        ),
        pytest.param(
            {"later_use": "agricultural", "later_use_date": dt.date(2016, 1, 1)},
            "exempt",
            id="subd. 2(b): a use clause (2) does not prohibit",
        ),
        pytest.param(
            {"later_use": "residential_density"},
            "conditional",
            id="subd. 2(b): a prohibited use whose date is not known: conditional",
        ),
        pytest.param(
            {"later_use_date": dt.date(2016, 1, 1)},
            "conditional",
            id="subd. 2(b): a conversion within ten years to a use not known: conditional",
        ),
    ],
)
def test_a_conversion_within_ten_years_of_drainage_must_be_replaced(later, want):
    facts = ex(**ASSESSED, drainage_date=DRAINED, **later)
    d = decide(fact("A", exemption=facts, impact_kind="drain"))
    (step,) = steps_of(d, "exemption.drainage.2_b", "A")
    assert step["outcome"] == want, step["reason"]
    if want == "not_exempt":
        assert "last sentence" in step["citation"] or "2(b)" in step["citation"]
        assert d.by_impact["A"].outcome.value == "replacement_required"
    assert step["parameters"]["exemptions.drainage_conversion_years"] == 10


def test_a_conversion_before_the_drainage_is_an_input_error():
    from wetland_gis.errors import RulesInputError

    facts = ex(
        **ASSESSED,
        drainage_date=DRAINED,
        later_use="commercial",
        later_use_date=dt.date(2013, 1, 1),
    )
    with pytest.raises(RulesInputError, match="before drainage_date"):
        decide(fact("A", exemption=facts, impact_kind="drain"))


def test_a_later_use_outside_the_list_is_refused_naming_the_allowed():
    from wetland_gis.errors import RulesInputError

    with pytest.raises(RulesInputError, match="later_use 'houses' is not one of"):
        ExemptionFacts(later_use="houses")


def test_the_conversion_and_road_dates_are_read_from_their_columns():
    """The 10-character columns a shapefile keeps: ``dr_date``, ``later_use``,
    ``later_date``, ``road_rep_d``, ``road_con_d`` (dates written YYYY-MM-DD)."""
    import pandas as pd

    from wetland_gis.io.exemption_columns import (
        attach_exemption_facts,
        resolve_exemption_columns,
    )

    frame = pd.DataFrame(
        {
            "dr_date": ["2014-06-01"],
            "later_use": ["Commercial"],
            "later_date": ["2024-06-01"],
            "road_rep_d": ["2024-03-01"],
            "road_con_d": ["2024-04-15"],
            "road_minim": ["yes"],
            "road_meet": [""],
        }
    )
    columns = resolve_exemption_columns(frame.columns)
    assert all(len(c) <= 10 for _, c in columns)
    groups = attach_exemption_facts({"P": [fact("A")]}, {("P", "A"): 0}, frame, columns)
    (got,) = groups["P"]
    assert got.exemption.drainage_date == dt.date(2014, 6, 1)
    assert got.exemption.later_use == "commercial"
    assert got.exemption.later_use_date == dt.date(2024, 6, 1)
    assert got.road.report_date == dt.date(2024, 3, 1)
    assert got.road.construction_date == dt.date(2024, 4, 15)
    assert got.road.minimized is True and got.road.annual_meeting is None


def test_without_a_recorded_conversion_the_future_event_is_a_verify_item():
    """No conversion recorded (``LATER_EVENT_FACTS`` all blank): the drainage is exempt and
    the ten-year rule is a verify item; once a conversion is recorded, its date is needed."""
    d = decide(fact("A", exemption=ex(**ASSESSED), impact_kind="drain"))
    (step,) = steps_of(d, "exemption.drainage.2_b", "A")
    assert step["outcome"] == "exempt"
    assert any("10-year period following drainage" in v for v in step["verify"])
    d = decide(fact("A", exemption=ex(**ASSESSED, later_use="industrial"), impact_kind="drain"))
    (step,) = steps_of(d, "exemption.drainage.2_b", "A")
    assert step["outcome"] == "conditional"
