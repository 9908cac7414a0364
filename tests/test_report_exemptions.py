"""The report's "exemptions tried" part, read from the trace (issue 20, section 1)."""

from __future__ import annotations

import pandas as pd
from helpers import fill_fact

from wetland_gis.mapping.report import render_report
from wetland_gis.rules import Claims, decide_project
from wetland_gis.rules.exempt import ExemptionFacts, RoadFacts

CLEAN = {
    "calcareous_fen": False,
    "banked": False,
    "used_for_replacement_credit": False,
    "remainder_newly_qualifies": False,
}


def _fact(iid, exemption=None, road=None):
    return fill_fact(iid, 2, 30_000, exemption=exemption, road=road)


def _report(*facts):
    d = decide_project(list(facts), Claims(), as_of="2024-05-01")
    impacts = pd.DataFrame(
        {
            "impact_id": [i.impact_id for i in d.impacts],
            "outcome": [i.outcome.value for i in d.impacts],
        }
    )
    return render_report(None, impacts, trace=d.trace)


def test_the_report_lists_every_exemption_tried_and_the_one_that_carries():
    text = _report(
        _fact("A", ExemptionFacts(duck_blind=True, **CLEAN)),
        _fact("B", ExemptionFacts(duck_blind=True, **CLEAN)),
    )
    assert 'id="exemptions"' in text
    assert "Duck blinds" in text
    assert "exempt under one exemption, Duck blinds" in text
    # issue 30: an exemption whose facts were not given was not tried, and is not listed
    assert "Normal farming practices" not in text
    assert "Not applied" not in text and "Not tried" not in text


def test_the_report_names_a_refused_combination_and_the_road_answer():
    road = RoadFacts(
        project_kind="reconstruction",
        road_authority="county",
        currently_serviceable=True,
        design_safety_necessary=True,
    )
    text = _report(
        _fact("A", ExemptionFacts(duck_blind=True, **CLEAN), road),
        _fact("B", ExemptionFacts(sewage_system_repair=True, **CLEAN)),
    )
    assert "may not be combined" in text
    assert "Public road project: replacement by the board" in text


def test_a_project_without_exemption_facts_has_no_exemptions_part():
    assert 'id="exemptions"' not in _report(_fact("A"))


def _large(n, outcome="replacement_required", special=()):
    """A large project's impacts and trace: every impact tried under subd. 10(2)."""
    facts = [_fact(f"I-{k}", ExemptionFacts(duck_blind=False, **CLEAN)) for k in range(n)]
    d = decide_project(facts, Claims(), as_of="2024-05-01")
    impacts = pd.DataFrame(
        {
            "impact_id": [i.impact_id for i in d.impacts],
            "outcome": [special[k] if k < len(special) else outcome for k in range(n)],
        }
    )
    return render_report(None, impacts, trace=d.trace, summarise_above=5), d.trace


def test_a_large_project_counts_the_exemptions_tried_and_lists_no_impact_table():
    text, trace = _large(8)
    assert "not tried" in " ".join(trace["reason"]).lower()  # the engine's steps are there
    assert "Duck blinds" in text  # counted
    assert "<caption>Impact I-3</caption>" not in text  # no per-impact exemption table
    assert "Not applied" not in text and "Normal farming practices" not in text


def test_a_large_project_lists_the_impacts_that_need_a_closer_look():
    text, _ = _large(8, special=("prohibited", "exempt_conditional"))
    assert "<caption>Impact I-0</caption>" in text and "<caption>Impact I-1</caption>" in text
    assert "<caption>Impact I-2</caption>" not in text
    assert "2 of 8" in text
