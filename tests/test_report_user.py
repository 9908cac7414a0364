"""What the issue 30 user met in the report: units, rounding, siting not run, what is owed.

Each test names the item of issue 30 ("smaller things the same user met") it checks.
"""

from __future__ import annotations

import html
import re

import map_fixtures as fx
import pandas as pd
import pytest
from hypothesis import example, given, strategies as st

from wetland_gis.mapping import render_report
from wetland_gis.mapping._format import fmt
from wetland_gis.units import display_number, round_half_up


def _answer(text: str) -> str:
    part = text.split('<section id="answer"')[1].split("</section>")[0]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", part)).split())


def _report(**kwargs) -> str:
    return render_report(fx.summary(), fx.impacts(), **{**fx.report_tables(), **kwargs})


# --------------------------------------------------------------- one unit in the answer


def test_the_answer_states_every_replacement_amount_in_credits() -> None:
    # the siting result gives the shortfall in credits and in impact acres (docs/siting.md)
    unmet = pd.DataFrame(
        {"impact_id": ["I-2"], "credits_short": [0.2], "acres_short": [0.1], "reason": ["x"]}
    )
    answer = _answer(_report(unmet=unmet))
    assert "0.89 credits required (a credit is an acre of replacement wetland)" in answer
    assert "met by 0.80 credits" in answer
    assert "0.20 credits unmet" in answer  # not the 0.10 impact acres
    assert "acres unmet" not in answer


def test_an_unmet_table_without_credits_names_its_unit() -> None:
    unmet = pd.DataFrame({"impact_id": ["I-2"], "acres_short": [0.1], "reason": ["x"]})
    assert "0.10 impact acres unmet" in _answer(_report(unmet=unmet))


def test_without_siting_the_answer_says_siting_was_not_run_and_nothing_about_unmet() -> None:
    answer = _answer(render_report(fx.summary(), fx.impacts()))
    assert "replacement siting was not run" in answer
    assert "unmet" not in answer


def test_with_siting_and_no_shortfall_the_answer_says_nothing_is_unmet() -> None:
    answer = _answer(_report(unmet=fx.unmet().iloc[0:0]))
    assert "nothing unmet" in answer


# --------------------------------------------------------------- rounding, once, half up


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        pytest.param(2.615, 2, "2.62", id="half up at the hundredth (not binary 2.6149...)"),
        pytest.param(2.625, 2, "2.63", id="half up, not half to even"),
        pytest.param(0.005, 2, "0.01", id="the smallest reported acre"),
        pytest.param(0.00499, 2, "0.00", id="just under half"),
        pytest.param(435.5, 0, "436", id="whole square feet, half up"),
        pytest.param(12_345.5, 0, "12,346", id="thousands separators"),
        pytest.param(-0.001, 2, "0.00", id="no negative zero"),
    ],
)
def test_display_number_rounds_half_up_as_written(value, places, text) -> None:
    assert display_number(value, places) == text


def test_a_value_reads_the_same_in_every_table_of_the_report() -> None:
    impacts = fx.impacts()
    impacts["replace_acres"] = impacts["replace_acres"].astype(float)
    impacts.loc[impacts["replace_acres"] > 0, "replace_acres"] = 2.615
    n = int((impacts["replace_acres"] > 0).sum())
    text = render_report(None, impacts)
    assert "2.62" in text and "2.61" not in text
    assert f"{display_number(2.615 * n, 2)} credits required" in _answer(text)


@given(st.floats(min_value=0, max_value=1e7, allow_nan=False, allow_infinity=False))
@example(2.615)
@example(1.005)
def test_fmt_and_display_number_agree(value) -> None:
    # fmt (maps, popups, report cells) and the report's amounts round the same way
    assert fmt(value) == display_number(value, 2, trim=True)
    assert round_half_up(value, 2) == round_half_up(
        float(display_number(value, 2).replace(",", "")), 2
    )


# --------------------------------------------------------------- what is owed if it fails


def _conditional(if_fails=None, *, column=True):
    """fx.impacts() with I-2 exempt only if a fact holds; the engine's owed figure or not."""
    impacts = fx.impacts()
    impacts["outcome"] = "de_minimis_exempt"
    impacts["replace_acres"] = 0.0
    impacts.loc[impacts["impact_id"] == "I-2", "outcome"] = "de_minimis_conditional"
    if column:
        impacts["replace_acres_if_fails"] = float("nan")
        impacts.loc[impacts["impact_id"] == "I-2", "replace_acres_if_fails"] = if_fails
    return impacts


def test_the_answer_says_what_is_owed_if_the_missing_fact_fails(tmp_path) -> None:
    from wetland_gis.commands import run_report

    impacts = _conditional(0.615)
    answer = _answer(render_report(None, impacts))
    assert "no replacement is needed" in answer
    assert "1 impact exempt only if a missing fact holds; if it fails, 0.62 credits" in answer
    # a hand-made assessed layer carrying the engine's column, through the command
    impacts.to_file(tmp_path / "a.gpkg", layer="impacts")
    page = run_report(tmp_path / "a.gpkg", tmp_path / "r.html")[0].read_text("utf-8")
    assert "if it fails, 0.62 credits would be required" in _answer(page)
    row = re.search(r"<td>I-2</td>(.*?)</tr>", page, re.S)[1]
    assert "0.62 if the fact fails" in html.unescape(row)


def test_an_older_file_without_the_column_says_not_computed() -> None:
    answer = _answer(render_report(None, _conditional(column=False)))
    assert "if it fails, the replacement owed is not computed" in answer
    assert "no replacement is needed" in answer


def test_a_conditional_impact_without_a_figure_is_not_counted_as_zero() -> None:
    answer = _answer(render_report(None, _conditional(None)))
    assert "if it fails, the replacement owed is not computed" in answer
    assert "0.00 credits" not in answer


def test_a_large_projects_plan_is_one_row_per_option_and_shortfalls_per_reason() -> None:
    impacts = fx.impacts()
    ids = impacts["impact_id"].tolist()
    allocation = pd.DataFrame(
        {
            "impact_id": ids,
            "option_id": ["B-1"] * len(ids),
            "option_kind": ["bank"] * len(ids),
            "tier": [3] * len(ids),
            "ratio": [1.0] * len(ids),
            "acres": [0.5] * len(ids),
            "credits": [0.5] * len(ids),
            "cost": [100.0] * len(ids),
        }
    )
    unmet = pd.DataFrame(
        {"impact_id": ids[:3], "credits_short": [0.25] * 3, "reason": ["no option listed"] * 3}
    )
    text = render_report(None, impacts, allocation=allocation, unmet=unmet, summarise_above=2)
    plan = html.unescape(text.split('<section id="plan"')[1].split("</section>")[0])
    assert plan.count("<td>B-1</td>") == 1 and f"{len(ids)} impacts" in plan
    assert "3 impacts: 0.75 credits short (no option listed)" in plan
