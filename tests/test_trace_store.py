"""The trace as an assessment keeps it (issue 30, item 3): "not tried" stated once.

A 5,000-impact pipeline wrote 49,000 "not tried" exemption steps (about half of
``assessed.gpkg``); the steps of the exemptions whose facts are absent are one
project-level step per exemption, and nothing the engine decided is lost.
"""

from __future__ import annotations

import warnings

import geopandas as gpd
import pytest
from hypothesis import example, given, strategies as st
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.commands import read_assessed
from wetland_gis.errors import WetlandGISWarning
from wetland_gis.io.trace_store import (
    LARGE_PROJECT_IMPACTS,
    PROJECT_PART_POINTER,
    compact_steps,
    is_not_tried,
)
from wetland_gis.rules import TRACE_COLUMNS
from wetland_gis.rules.registry import EXEMPTION_ONE

FT = 0.3048
AS_OF = "2024-05-01"
DUCK = "exemption.wildlife.10_2"  # a clause whose defining fact is "a duck blind"


def _layer(sample_data, n: int, **columns) -> gpd.GeoDataFrame:
    c1 = gpd.read_file(sample_data.path("projects/crow_wing/impacts.gpkg")).geometry.iloc[0]
    x, y = c1.centroid.x, c1.centroid.y
    side = 3000**0.5 * FT
    at = [(x + 60 * (k % 16), y + 60 * (k // 16)) for k in range(n)]  # a grid, 60 m apart
    geoms = [box(a, b, a + side, b + side) for a, b in at]
    data = {"impact_id": [f"I-{k + 1}" for k in range(n)], "circ39": ["2"] * n, **columns}
    return gpd.GeoDataFrame({**data, "geometry": geoms}, crs="EPSG:26915")


def _assess(sample_data, gdf):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return wg.assess(gdf, sample_data.context, as_of=AS_OF)


def _cols(rows):
    """Trace columns from (impact id, rule id, outcome, reason) rows of project P."""
    return {
        "project": ["P"] * len(rows),
        "impact_id": [r[0] for r in rows],
        "seq": list(range(len(rows))),
        "rule_id": [r[1] for r in rows],
        "citation": ["Minn. Stat. § 103G.2241, subd. 10(2)"] * len(rows),
        "outcome": [r[2] for r in rows],
        "value": [None] * len(rows),
        "reason": [r[3] for r in rows],
        "verify": [["check"] for _ in rows],
        "inputs": [
            {
                "duck_blind": None,
                "conditions": [
                    {
                        "facts": ["duck_blind"],
                        "text": "The activity is a duck blind.",
                        "status": "unknown",
                        "citation": "Minn. Stat. § 103G.2241, subd. 10(2)",
                        "defining": True,
                    }
                ],
            }
            for _ in rows
        ],
        "parameters": [{} for _ in rows],
    }


@pytest.mark.parametrize(
    ("rows", "kept"),
    [
        pytest.param(
            [("A", DUCK, "not_applied", "Not tried."), ("B", DUCK, "not_applied", "Not tried.")],
            [("", DUCK, "not_applied")],
            id="subd. 10(2) not tried on two impacts: one project step",
        ),
        pytest.param(
            [("A", DUCK, "not_applied", "Not tried."), ("B", DUCK, "not_exempt", "Not met.")],
            [("", DUCK, "not_applied"), ("B", DUCK, "not_exempt")],
            id="subd. 10(2) tried on one impact: its step kept",
        ),
        pytest.param(
            [("A", DUCK, "not_applied", "Not tried."), ("B", DUCK, "not_applied", "Other.")],
            [("", DUCK, "not_applied"), ("", DUCK, "not_applied")],
            id="two reasons: two project steps, no reason lost",
        ),
        pytest.param(
            [("A", "replacement.ratio", "not_applied", "R."), ("", DUCK, "exempt", "E.")],
            [("A", "replacement.ratio", "not_applied"), ("", DUCK, "exempt")],
            id="not an exemption, or a project step: kept as written",
        ),
    ],
)
def test_not_tried_steps_are_folded_per_exemption(rows, kept):
    out = compact_steps(_cols(rows))
    assert list(zip(out["impact_id"], out["rule_id"], out["outcome"], strict=True)) == kept
    assert out["seq"] == list(range(len(kept)))
    for k, (iid, _, outcome) in enumerate(kept):
        if iid == "" and outcome == "not_applied":
            ids = out["inputs"][k]["impact_ids"]
            assert out["inputs"][k]["impacts"] == len(ids)
            assert out["inputs"][k]["not_given"] == ["duck_blind"]
            assert out["reason"][k].startswith(f"Not tried on {len(ids)} ")
            assert out["verify"][k] == []


def test_conditions_keep_facts_and_status_and_a_failed_exemption_no_verify():
    out = compact_steps(_cols([("B", DUCK, "not_exempt", "Not met.")]))
    assert out["inputs"][0]["conditions"] == [{"facts": ["duck_blind"], "status": "unknown"}]
    assert out["inputs"][0]["duck_blind"] is None  # the facts read stay
    assert out["verify"][0] == []  # moot: a failed condition decides it


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["A", "B", "C", ""]),
            st.sampled_from([DUCK, EXEMPTION_ONE, "replacement.ratio"]),
            st.sampled_from(["not_applied", "exempt", "not_exempt", "conditional"]),
            st.sampled_from(["Not tried.", "Other."]),
        ),
        max_size=12,
    )
)
@example([("A", DUCK, "not_applied", "Not tried.")] * 3)
def test_every_step_is_kept_or_counted_once(rows):
    out = compact_steps(_cols(rows))
    tried = [r for r in rows if not (r[0] and is_not_tried(r[1], r[2]))]
    assert len(out["project"]) == len(tried) + len(
        {(r[1], r[3]) for r in rows if r[0] and is_not_tried(r[1], r[2])}
    )
    counted = sum(
        i["impacts"]
        for i, iid in zip(out["inputs"], out["impact_id"], strict=True)
        if "impacts" in i
    )
    assert counted == len(rows) - len(tried)
    assert all(len(v) == len(out["project"]) for v in out.values())


def test_an_assessment_stores_no_not_tried_step_per_impact(sample_data, tmp_path):
    # utility work given on every row: every other exemption is tried; most are "not given"
    a = _assess(sample_data, _layer(sample_data, 3, utility=["yes"] * 3))
    trace = a.trace
    per_impact = trace[(trace["impact_id"] != "") & (trace["outcome"] == "not_applied")]
    assert per_impact[per_impact["rule_id"].str.startswith("exemption.")].empty
    folded = trace[(trace["impact_id"] == "") & (trace["outcome"] == "not_applied")]
    assert len(folded) > 5
    assert all(i["impact_ids"] == ["I-1", "I-2", "I-3"] for i in folded["inputs"])
    assert list(trace.columns) == list(TRACE_COLUMNS)
    # written and read back as stored
    a.write(tmp_path / "out.gpkg")
    back = read_assessed(tmp_path / "out.gpkg")["trace"]
    assert len(back) == len(trace)
    assert back["inputs"].tolist() == trace["inputs"].tolist()


def test_a_project_without_exemption_facts_has_one_not_tried_step(sample_data):
    a = _assess(sample_data, _layer(sample_data, 3))
    steps = a.trace[a.trace["rule_id"] == EXEMPTION_ONE]
    assert steps["impact_id"].tolist() == [""]
    assert steps["inputs"].iloc[0]["impacts"] == 3


@pytest.mark.slow
def test_a_large_project_states_its_own_part_once(sample_data):
    n = LARGE_PROJECT_IMPACTS + 1
    a = _assess(sample_data, _layer(sample_data, n))
    reasons = a.impacts["reasons"].dropna()
    assert len(reasons) == n
    assert all(PROJECT_PART_POINTER["reasons"] in r for r in reasons)
    project_reasons = a.projects["reasons"].iloc[0]
    assert project_reasons and not any(project_reasons in r for r in reasons)


@pytest.mark.parametrize(
    ("step_citation", "condition_citation", "kept"),
    [
        pytest.param(
            "Minn. Stat. § 103G.2241, subd. 10(2)",
            "Minn. Stat. § 103G.2241, subd. 10(2)",
            False,
            id="subd. 10(2): the rule's own citation is not repeated per condition",
        ),
        pytest.param(
            "Minn. Stat. § 103G.2241, subd. 1(1); Minn. Stat. § 103G.2241, subd. 10(2)",
            "Minn. Stat. § 103G.2241, subd. 1(1)",
            True,
            id="the step's citation text is not split: the spec says what the rule's own is",
        ),
    ],
)
def test_a_condition_keeps_its_citation_unless_it_is_the_rules_own(
    step_citation, condition_citation, kept
):
    cols = _cols([("B", DUCK, "not_exempt", "Not met.")])
    cols["citation"] = [step_citation]
    cols["inputs"][0]["conditions"][0]["citation"] = condition_citation
    (condition,) = compact_steps(cols)["inputs"][0]["conditions"]
    assert ("citation" in condition) is kept
