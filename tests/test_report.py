"""The TEP report: joint application areas, sections, escaping, print layout."""

from __future__ import annotations

import html
import re

import map_fixtures as fx
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
    "Project summary",
    "Impacts",
    "Decisions",
    "What a person must still verify",
    "Replacement siting",
    "Map",
    "Run manifest",
]


def _report(**kwargs) -> str:
    args = {
        "decisions": fx.decisions(),
        "ranking": fx.ranking(),
        "allocation": fx.allocation(),
        "unmet": fx.unmet(),
        "manifest": fx.manifest(),
    }
    args.update(kwargs)
    return render_report(fx.summary(), fx.impacts(), **args)


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


def test_impact_table_gives_county_major_watershed_and_bank_service_area(report: str) -> None:
    cells = _impact_row(report, "I-2")
    assert cells[1] == "Type 2"
    assert cells[3] == "Replacement required"
    assert cells[4] == "Crow Wing"
    assert cells[5] == "10 Mississippi River - Brainerd"
    assert cells[6] == "5"
    assert cells[7] == "Shoreland wetland protection zone"
    assert cells[8] == "1:1"


# ------------------------------------------------------------------------ sections


def test_report_has_every_section_in_order(report: str) -> None:
    headings = re.findall(r"<h2>(.*?)</h2>", report)
    assert headings == SECTIONS


def test_every_decision_is_shown_with_reasons_and_citations(report: str) -> None:
    decisions = report.split('id="decisions"')[1].split('id="verify"')[0]
    for i in range(1, 7):
        assert f"Impact I-{i} " in decisions
    # from the Decision objects
    assert "de minimis: exempt" in decisions
    assert fx.DE_MINIMIS_CITATION in decisions
    assert "<dt>allowance sqft</dt><dd>10,000</dd>" in decisions
    # from the citations / reasons columns when no Decision was given
    assert fx.FEN_CITATION in decisions
    assert "Calcareous fens may not be filled" in decisions


def test_verify_section_collects_every_check(report: str) -> None:
    verify = report.split('id="verify"')[1].split('id="siting"')[0]
    assert "Fen boundary with DNR" in verify
    assert "The wetland type: it was inferred, not given" in verify  # I-3 type_verify
    assert "Not assessed: empty geometry" in verify
    assert "Wetland boundary delineation" in verify
    assert "Impact I-2: 0.1 credits short (no more credits in tiers 1-2)" in verify


def test_siting_tables_show_ranking_allocation_and_unmet(report: str) -> None:
    siting = report.split('id="siting"')[1].split('id="map"')[0]
    assert "same minor watershed" in siting
    assert "$25,000" in siting  # allocation cost
    assert "300,000" in siting  # distance of the far bank
    assert "no more credits in tiers 1-2" in siting
    assert siting.count("<table") == 3


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


def test_map_file_is_linked_when_a_path_is_given(tmp_path) -> None:
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


def test_a_list_of_decisions_needs_impact_ids() -> None:
    with pytest.raises(MappingInputError, match="impact_id"):
        _report(decisions=[{"question": "de_minimis", "outcome": "exempt"}])


def test_decisions_as_records_with_impact_ids() -> None:
    records = [{"impact_id": "I-4", **d.to_dict()} for d in fx.decisions()["I-1"]]
    text = _report(decisions=records)
    block = text.split("Impact I-4 ")[1].split('<article class="impact"')[0]
    assert fx.DE_MINIMIS_CITATION in block


def test_write_report_writes_utf8(tmp_path) -> None:
    out = write_report(tmp_path / "sub" / "report.html", fx.summary(), fx.impacts())
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "§ 103G" in out.read_text(encoding="utf-8")
