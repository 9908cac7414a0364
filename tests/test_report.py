"""The TEP report: joint application areas, sections, escaping, print layout."""

from __future__ import annotations

import html
import re

import map_fixtures as fx
import pandas as pd
import pytest

from wetland_gis.errors import InvalidAreaError
from wetland_gis.mapping import (
    MappingInputError,
    joint_application_area,
    render_report,
    write_report,
)
from wetland_gis.mapping.report import _env

SECTIONS = [
    "The answer",
    "Replacement plan",
    "Impacts",
    "Decisions step by step",
    "What a person must still verify",
    "Replacement options",
    "Map",
    "Data notes",
    "Citations",
    "Appendix: full ranking",
    "Run manifest",
]


def _report(**kwargs) -> str:
    return render_report(fx.summary(), fx.impacts(), **{**fx.report_tables(), **kwargs})


@pytest.fixture(scope="module")
def report() -> str:
    return _report()


def _impact_row(report: str, impact_id: str) -> list[str]:
    body = report.split('<table class="impacts">')[1].split("</table>")[0]
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        raw = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in raw]
        if cells and cells[0] == impact_id:
            return cells
    raise AssertionError(f"no row for {impact_id}")


# ------------------------------------------------------- joint application convention


@pytest.mark.parametrize(
    ("sqft", "expected"),
    [
        (0, "0 sq ft"),
        (1, "1 sq ft"),
        (403.6, "404 sq ft"),
        (435.4, "435 sq ft"),
        (435.59, "436 sq ft"),  # still under 0.01 acre: square feet
        (435.6, "0.01 ac"),  # exactly 0.01 acre (43,560 / 100)
        (435.61, "0.01 ac"),
        (653.4, "0.02 ac"),  # 0.015 acre rounds half up
        (653.3, "0.01 ac"),
        (43_560, "1.00 ac"),
        (435_600, "10.00 ac"),
        (4_356_000, "100.00 ac"),
    ],
)
def test_joint_application_area(sqft: float, expected: str) -> None:
    assert joint_application_area(sqft) == expected


def test_one_hundredth_of_an_acre_is_435_point_6_square_feet() -> None:
    assert joint_application_area(43_560 / 100) == "0.01 ac"
    assert joint_application_area(435.6 - 1e-9).endswith("sq ft")


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "many"])
def test_joint_application_area_refuses_impossible_areas(bad) -> None:
    with pytest.raises(InvalidAreaError, match="sq ft|square feet"):
        joint_application_area(bad)


def test_impact_table_uses_area_reported_when_present(report: str) -> None:
    assert _impact_row(report, "I-1")[2] == "404 sq ft"


def test_impact_table_computes_the_area_when_area_reported_is_absent() -> None:
    impacts = fx.impacts().drop(columns="area_reported")
    text = render_report(fx.summary(), impacts)
    sqft = impacts.loc[1, "area_sqft"]
    assert _impact_row(text, "I-2")[2] == joint_application_area(sqft) == "0.89 ac"
    assert _impact_row(text, "I-1")[2] == "404 sq ft"


def test_impact_table_gives_every_county_major_watershed_and_bank_service_area(
    report: str,
) -> None:
    cells = _impact_row(report, "I-2")
    assert cells[1] == "Type 2"
    assert cells[5] == "Replacement required"
    assert cells[6] == "Crow Wing, Cass"  # a straddling impact: every county
    assert cells[7] == "10 Mississippi River - Brainerd"
    assert cells[8] == "5"
    assert cells[9] == "Shoreland wetland protection zone"
    assert cells[10] == "1:1"


def test_impact_table_gives_whole_square_feet_and_acres_to_a_hundredth(report: str) -> None:
    sqft = fx.impacts().loc[1, "area_sqft"]  # 3,600 m2
    cells = _impact_row(report, "I-2")
    assert cells[3] == f"{round(sqft):,}" == "38,750"
    assert cells[4] == "0.89"
    assert _impact_row(report, "I-1")[3] == "404"


# ------------------------------------------------------------------------ sections


def _section(report: str, section: str) -> str:
    return report.split(f'<section id="{section}"')[1].split("</section>")[0]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)))


def test_report_has_every_section_in_order(report: str) -> None:
    headings = re.findall(r"<h2>(.*?)</h2>", report)
    assert headings == SECTIONS


def test_report_opens_with_the_answer_per_project(report: str) -> None:
    first = re.search(r"<h2>(.*?)</h2>", report).group(1)
    assert first == "The answer"
    answer = html.unescape(re.sub(r"<[^>]+>", "", _section(report, "answer")))
    assert "Gull Lake road: 6 impacts" in answer
    assert "0.89 credits required (a credit is an acre of replacement wetland)" in answer
    assert "met by 0.80 credits from 1 project-specific site and 1 wetland bank" in answer
    assert "at a total cost of $37,000" in answer
    assert "0.10 credits unmet" in answer


def test_answer_says_no_impact_could_be_assessed_with_the_reasons() -> None:
    impacts = fx.impacts()
    impacts["outcome"] = "not_assessed"
    impacts["status"] = "not_assessed"
    text = render_report(None, impacts)
    answer = html.unescape(_section(text, "answer"))
    assert "no impact could be assessed" in answer
    assert "no wetland type" in answer and "empty geometry" in answer


def test_answer_when_no_replacement_is_needed_and_no_siting_was_run() -> None:
    impacts = fx.impacts()
    impacts["replace_acres"] = None
    impacts["outcome"] = "de_minimis_exempt"
    text = render_report(None, impacts)
    assert "no replacement is needed" in _section(text, "answer")
    assert "No replacement siting given" in _section(text, "plan")
    text = render_report(None, fx.impacts())
    assert "replacement siting was not run" in _section(text, "answer")


def test_zero_impacts_render() -> None:
    text = render_report(None, fx.impacts().iloc[0:0])
    assert "No impact was given." in _section(text, "answer")
    assert "No impacts." in _section(text, "impacts")


def test_plan_has_tier_option_credits_cost_and_a_totals_row(report: str) -> None:
    plan = _section(report, "plan")
    assert "Tier 1: same minor watershed" in plan
    assert "Project-specific site" in plan and "Wetland bank" in plan
    total = re.search(r'<tr class="total">(.*?)</tr>', plan, re.S).group(1)
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", total)]
    assert cells[0] == "Total" and cells[-2:] == ["0.80", "$37,000"]
    assert "Impact I-2: 0.10 credits short (no more credits in tiers 1-2)" in plan


def test_plan_comes_before_the_impacts_and_the_decisions(report: str) -> None:
    assert report.index('id="plan"') < report.index('id="impacts"') < report.index('id="decisions"')


def test_decisions_step_by_step_render_from_the_trace(report: str) -> None:
    decisions = _section(report, "decisions")
    assert 'data-impact="I-1"' in decisions
    assert "De minimis exemption (project): Exempt" in _text(decisions)
    assert "403.6 sq ft is within the 10,000 sq ft allowance" in decisions
    # citations are short references to the citation list
    assert re.search(r'<a href="#cite-\d+" title="[^"]+">\[\d+\]</a>', decisions)
    citations = _section(report, "citations")
    assert fx.DE_MINIMIS_CITATION in citations
    # impacts without a step show their rendered reasons
    assert "Calcareous fens may not be filled" in decisions


def test_trace_frame_of_the_contract_drives_the_steps() -> None:
    trace = pd.DataFrame(
        [
            {
                "project": "P",
                "impact_id": "I-1",
                "seq": 2,
                "rule_id": "de_minimis.amount",
                "citation": "Minn. Stat. § 103G.2241, subd. 9(a)(1)",
                "outcome": "exempt",
                "value": 10000.0,
                "reason": "Allowance 10,000 sq ft; uses 404; within it",
                "verify": ["Check A; and B"],
                "inputs": {},
                "parameters": {},
            },
            {
                "project": "P",
                "impact_id": "",
                "seq": 3,
                "rule_id": "procedure.public_comment",
                "citation": "Minn. Stat. § 103G.2242, subd. 8",
                "outcome": "not_required",
                "value": None,
                "reason": "Under the threshold.",
                "verify": [],
                "inputs": {},
                "parameters": {},
            },
            {
                "project": "P",
                "impact_id": "I-1",
                "seq": 1,
                "rule_id": "public_waters_wetland",
                "citation": "Minn. Stat. § 103G.005, subd. 15a",
                "outcome": "classified",
                "value": None,
                "reason": "Not a public waters wetland.",
                "verify": [],
                "inputs": {},
                "parameters": {},
            },
        ]
    )
    text = render_report(None, fx.impacts(), trace=trace)
    decisions = _section(text, "decisions")
    assert decisions.index("Public waters wetland?") < decisions.index("De minimis amount")
    assert "Public comment: Not required" in _text(decisions)
    # a reason with ";" is shown whole, never split
    assert "Allowance 10,000 sq ft; uses 404; within it" in decisions
    assert "Check A; and B" in _section(text, "verify")


def test_a_trace_without_the_contract_columns_is_refused() -> None:
    with pytest.raises(MappingInputError, match="trace-contract column"):
        render_report(None, fx.impacts(), trace=pd.DataFrame({"rule_id": ["x"]}))


def test_verify_section_collects_every_check(report: str) -> None:
    verify = _section(report, "verify")
    assert "Fen boundary with DNR" in verify
    assert "The wetland type: it was inferred, not given" in verify  # I-3 type_verify
    assert "Not assessed: empty geometry" in verify
    assert "Wetland boundary delineation" in verify


def test_options_show_the_best_few_with_why_each_won_or_lost(report: str) -> None:
    options = html.unescape(_section(report, "options"))
    assert "Allocated: in the replacement plan" in options
    assert "Lost: lower siting priority (tier 2 against tier 1)" in options
    assert "(3 of 4 options)" in options
    assert "other bank service area" not in options  # the 4th, excluded: appendix only
    appendix = html.unescape(_section(report, "appendix"))
    assert f"Excluded: other bank service area {fx.XSS}" in appendix
    assert "300,000" in appendix  # distance of the far bank
    assert "citations" not in appendix.lower().split("<thead>")[1].split("</thead>")[0]


def test_best_options_is_a_parameter_and_the_allocated_are_always_shown() -> None:
    text = _report(best_options=1)
    assert "(2 of 4 options)" in _section(text, "options")  # S1 and 1234 both allocated
    text = _report(best_options=1, allocation=fx.allocation().iloc[1:])
    options = _section(text, "options")
    assert "(1 of 4 options)" in options and "<td>1234</td>" in options


def test_a_site_loses_on_its_whole_cost() -> None:
    ranking = pd.DataFrame(
        {
            "impact_id": ["C-2", "C-2"],
            "option_id": ["S2", "S3"],
            "option_kind": ["site", "site"],
            "tier": [1, 1],
            "excluded": [False, False],
            "in_kind": [True, False],
            "ratio": [1.0, 1.0],
            "credits_needed": [0.4, 0.4],
            "credits_available": [1.49, 0.69],
            "unit_cost": [11_900 / 1.49, 7_600 / 0.69],
            "cost": [3_195.0, 4_406.0],
        }
    )
    allocation = pd.DataFrame(
        {
            "impact_id": ["C-2"],
            "option_id": ["S3"],
            "option_kind": ["site"],
            "tier": [1],
            "credits": [0.4],
            "cost": [7_600.0],
        }
    )
    text = render_report(None, fx.impacts(), ranking=ranking, allocation=allocation)
    options = html.unescape(_section(text, "options"))
    assert "Lost: costs $11,900 (a site is paid in full) against $7,600 for S3" in options


def test_human_labels_not_enum_values(report: str) -> None:
    body = re.sub(r"<[^>]+>", " ", report.split("</style>")[1])
    body = body.split('id="manifest"')[0]
    for raw in (
        "not_exempt",
        "replacement_required",
        "de_minimis_exempt",
        "shoreland_wetland_protection_zone",
    ):
        assert raw not in body


def test_data_notes_list_straddled_counties_and_manifest_records() -> None:
    manifest = {
        **fx.manifest(),
        "records": [
            "context layer 'counties': reprojected from EPSG:4269 to EPSG:26915",
            "duplicate id W-3",
        ],
    }
    notes = _section(_report(manifest=manifest), "notes")
    assert "Impact I-2 straddles counties: Crow Wing: 9000.0 sq ft; Cass: 600.0 sq ft." in notes
    assert "reprojected from EPSG:4269" in notes and "duplicate id W-3" in notes


def test_figure_is_an_embedded_svg(report: str) -> None:
    import base64

    src = re.search(r'<img class="figure"[^>]*src="([^"]+)"', report).group(1)
    assert src.startswith("data:image/svg+xml;base64,")
    svg = base64.b64decode(src.split(",", 1)[1]).decode()
    assert "<svg" in svg and "Impacts by outcome" in svg


def test_manifest_is_a_table_and_json(report: str) -> None:
    manifest = report.split('id="manifest"')[1]
    assert '<th scope="row">parameter_set</th><td>mn-2018</td>' in manifest
    assert "&#34;sha256&#34;: &#34;abab" in manifest


def test_missing_optional_parts_say_so() -> None:
    text = render_report(None, fx.impacts())
    assert "No ranking given." in text
    assert "No map given." in text
    assert "No manifest given." in text


# ------------------------------------------------------------------------ the map


def test_map_html_is_embedded_escaped_in_a_sandboxed_iframe() -> None:
    page = (
        f"<html><body><div id='m'>{html.escape(fx.XSS)}</div>"
        "<script>var a = 1 < 2;</script></body></html>"
    )
    text = _report(map_html=page)
    frame = re.search(r"<iframe [^>]*srcdoc=\"([^\"]*)\"", text)
    assert frame is not None
    assert 'sandbox="allow-scripts"' in text
    assert html.unescape(frame.group(1)) == page
    assert "<script>var a" not in text


def test_map_file_is_embedded_and_linked_relative_to_the_report(tmp_path) -> None:
    from wetland_gis.mapping import save_map, tep_map

    map_path = save_map(tep_map(fx.impacts()), tmp_path / "maps" / "tep_map.html")
    out = write_report(
        tmp_path / "reports" / "tep_report.html", None, fx.impacts(), map_html=map_path
    )
    text = out.read_text("utf-8")
    assert 'href="../maps/tep_map.html"' in text
    assert "<iframe" in text and "srcdoc=" in text
    assert (out.parent / "../maps/tep_map.html").resolve() == map_path.resolve()


def test_a_map_path_without_a_file_is_still_linked(tmp_path) -> None:
    text = _report(map_html=tmp_path / "tep_map.html")
    assert f'href="{tmp_path / "tep_map.html"}"' in text
    assert "<iframe" not in text


# ------------------------------------------------------------------------ escaping


def test_script_in_any_value_is_shown_as_text(report: str) -> None:
    assert fx.XSS not in report
    assert "<img src=x" not in report
    escaped = html.escape(fx.XSS, quote=False)
    assert report.count(escaped) >= 3  # summary, decision reason, ranking, manifest


def test_template_environment_autoescapes() -> None:
    assert _env().autoescape is True


# ------------------------------------------------------------------------ print


def test_print_css_sets_paper_and_page_breaks(report: str) -> None:
    assert "@media print" in report
    assert "size: letter;" in report
    assert "break-before: page" in report
    assert "display: table-header-group" in report


def test_a4_paper() -> None:
    assert "size: A4;" in _report(paper="a4")


def test_unknown_paper_names_the_allowed_values() -> None:
    with pytest.raises(MappingInputError, match=r"`paper` was 'legal' .*'letter', 'a4'"):
        _report(paper="legal")


def test_impacts_without_outcome_are_refused() -> None:
    with pytest.raises(MappingInputError, match="outcome"):
        render_report({}, fx.impacts().drop(columns="outcome"))


def test_a_fixture_trace_without_rule_ids_is_refused() -> None:
    with pytest.raises(MappingInputError, match="trace-contract column"):
        _report(trace=fx.trace().drop(columns="rule_id"))


def test_trace_steps_render_under_their_impact() -> None:
    trace = fx.trace()
    trace.loc[0, "impact_id"] = "I-4"
    text = _report(trace=trace)
    block = text.split('data-impact="I-4"')[1].split("</article>")[0]
    assert "403.6 sq ft is within the 10,000 sq ft allowance" in block


def test_write_report_writes_utf8(tmp_path) -> None:
    out = write_report(tmp_path / "sub" / "report.html", fx.summary(), fx.impacts())
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "§ 103G" in out.read_text(encoding="utf-8")


def test_one_answer_per_project() -> None:
    impacts = fx.impacts()
    impacts["project"] = ["North road"] * 3 + ["South road"] * 3
    text = render_report(None, impacts, allocation=fx.allocation())
    answers = re.findall(r'<p class="answer[^"]*" data-project="([^"]*)">', text)
    assert answers == ["North road", "South road"]
    assert "South road: 3 impacts" in html.unescape(_section(text, "answer"))


def test_the_answer_leads_with_the_project_outcome_of_the_projects_table() -> None:
    """A project that is prohibited (a fen) says so first, before the impact counts."""
    summary = {**fx.summary(), "outcome": "prohibited"}
    text = render_report(summary, fx.impacts(), trace=fx.trace())
    answer = text.split("The answer", 1)[1].split("</section>", 1)[0]
    assert ": prohibited, " in answer


@pytest.mark.pdf
@pytest.mark.slow
def test_sample_answer_and_plan_say_which_number_is_credits_and_which_is_acres(demo_run) -> None:
    """Wright: the answer's replacement (1.50) is the plan's credits total, not its acres (0.84)."""
    # the demo's run of the Wright sample: assess, site, map, report (tests/session_fixtures.py)
    siting = demo_run.sitings["wright_metro"]
    page = demo_run.projects["wright_metro"]["report"]
    text = page.read_text("utf-8")
    answer = html.unescape(re.search(r'<p class="answer[^"]*"[^>]*>(.*?)</p>', text, re.S)[1])
    plan = re.search(r'<table class="plan">(.*?)</table>', text, re.S)[1]
    headers = [html.unescape(h) for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', plan)]
    total = re.findall(r'<td class="num">(.*?)</td>', plan.split('class="total"')[1])
    acres_col = headers.index("impact acres") - len(headers) + 3  # acres, credits, cost
    credits_col = headers.index("credits (replacement acres)") - len(headers) + 3
    credits = float(siting.allocation["credits"].sum())
    impact_acres = float(siting.allocation["acres"].sum())
    assert f"{credits:.2f}" == total[credits_col] == "1.50"
    assert f"{impact_acres:.2f}" == total[acres_col] == "0.84"
    assert f"{credits:.2f} credits required (a credit is an acre of replacement wetland)" in answer
    assert f"met by {credits:.2f} credits" in answer
    assert f"{impact_acres:.2f}" not in answer  # the impact acres are the plan's, named there
    assert "Impact acres: the acres of wetland impacted" in text


def test_issue_32_the_report_names_the_reading_that_put_a_bank_credit_ahead_of_a_site():
    """A tier 3 out-of-kind bank 70 km away taken over a tier 1 in-kind site: say which reading."""
    ranking = pd.DataFrame(
        {
            "impact_id": ["A<b>", "A<b>"],
            "option_id": ["S1", "1201-S"],
            "option_kind": ["site", "bank"],
            "tier": [1, 3],
            "excluded": [False, False],
            "in_kind": [True, False],
            "ratio": [1.0, 1.0],
            "credits_needed": [1.0, 1.0],
            "credits_available": [1.0, 4.2],
            "unit_cost": [11_000.0, 9_300.0],
            "cost": [11_000.0, 9_500.0],
            "distance_ft": [800.0, 229_659.0],  # 70 km
            "siting_reading": ["banking_own_order"] * 2,
        }
    )
    allocation = pd.DataFrame(
        {
            "impact_id": ["A<b>"],
            "option_id": ["1201-S"],
            "option_kind": ["bank"],
            "tier": [3],
            "credits": [1.0],
            "cost": [9_500.0],
            "passed_over_sites": ["S1"],
            "siting_reading": ["banking_own_order"],
        }
    )
    text = _report(ranking=ranking, allocation=allocation)
    section = text.split("Bank credits chosen over a better-tier site")[1].split("</ul>")[0]
    assert "Under the reading <code>banking_own_order</code>" in section
    assert "Impact A&lt;b&gt;: bank credits 1201-S (Tier 3" in section  # escaped, once
    assert "out of kind, 70.0 km away, $9,500 for the whole requirement)" in section
    assert "ahead of project-specific site S1 (Tier 1" in section and "in kind, 0.2 km" in section
    assert "single_order" in text.split("Bank credits chosen over")[1].split("</section>")[0]
    # no such row, no section (and the shipped fixture has none)
    assert "Bank credits chosen over a better-tier site" not in _report()


@pytest.mark.parametrize(
    ("columns", "shown"),
    [
        pytest.param(
            {"passed_over_sites": ["S1; north"], "passed_over_ids": ['["S1; north"]']},
            "ahead of project-specific site S1; north (Tier 1",
            id="subd. 3(c): the ids are read as data, an id holding '; ' stays one site",
        ),
        pytest.param(
            {"passed_over_sites": ["S1; north"]},
            "ahead of project-specific site S1; north (Tier 1",
            id="subd. 3(c): a plan written before the ids: its text shown whole, not split",
        ),
    ],
)
def test_the_passed_over_sites_are_read_as_data_not_split(columns, shown):
    """Issue 33 ("text is never parsed back"): ``passed_over_ids`` is the list ``site``
    decided; the people's ``passed_over_sites`` text is never split again."""
    ranking = pd.DataFrame(
        {
            "impact_id": ["A", "A"],
            "option_id": ["S1; north", "1201-S"],
            "option_kind": ["site", "bank"],
            "tier": [1, 3],
            "excluded": [False, False],
            "in_kind": [True, False],
            "credits_needed": [1.0, 1.0],
            "credits_available": [1.0, 4.2],
            "cost": [11_000.0, 9_500.0],
            "distance_ft": [800.0, 229_659.0],
            "siting_reading": ["banking_own_order"] * 2,
        }
    )
    allocation = pd.DataFrame(
        {
            "impact_id": ["A"],
            "option_id": ["1201-S"],
            "option_kind": ["bank"],
            "tier": [3],
            "credits": [1.0],
            "cost": [9_500.0],
            "siting_reading": ["banking_own_order"],
            **columns,
        }
    )
    text = html.unescape(_report(ranking=ranking, allocation=allocation))
    section = text.split("Bank credits chosen over a better-tier site")[1].split("</ul>")[0]
    assert shown in re.sub(r"\s+", " ", section)


def test_the_report_reads_the_straddled_counties_from_the_trace_not_the_text() -> None:
    """Issue 33 ("text is never parsed back"): the county cell is the ``facts.context``
    step's ``counties`` (data); a name the ``counties`` text would split is read whole, and
    without the step the cell is the ``county`` alone, whatever the text says."""
    impacts = fx.impacts()
    impacts.loc[1, "counties"] = "Crow Wing: 9000.0 sq ft; Big; Stone: 600.0 sq ft"
    trace = fx.trace()
    step = trace.index[trace["rule_id"] == "facts.context"][0]
    trace.at[step, "inputs"] = {"counties": ["Crow Wing", "Big; Stone"]}
    text = render_report(fx.summary(), impacts, trace=trace)
    assert _impact_row(text, "I-2")[6] == "Crow Wing, Big; Stone"
    without = render_report(fx.summary(), impacts, trace=trace.drop(index=step))
    assert _impact_row(without, "I-2")[6] == "Crow Wing"
    assert "straddles counties" not in _section(without, "notes")


@pytest.mark.parametrize(
    ("owners", "counted", "expected"),
    [
        pytest.param(
            [f"I-{i}" for i in range(20)] + ["W, 7"],
            True,
            "21 impacts (see the impacts layer)",
            id="an id with a comma is one impact: the owners are data, not split text",
        ),
        pytest.param(
            ["the project"] + [f"I-{i}" for i in range(20)],
            True,
            "the project, 20 impacts (see the impacts layer)",
            id="the project stays named",
        ),
        pytest.param(
            [f"I-{i}" for i in range(20)], False, ", ".join(f"I-{i}" for i in range(20)), id="small"
        ),
        pytest.param(["I-1", "I-2"], True, "I-1, I-2", id="a short list is listed"),
    ],
)
def test_what_a_point_to_verify_concerns(owners, counted, expected) -> None:
    from wetland_gis.mapping.report import _concerns

    ids = [f"I-{i}" for i in range(20)] + ["W, 7", "X"]
    assert _concerns(owners, ids, counted) == expected
