"""Public road projects, Minn. Stat. § 103G.222, subd. 1 (l), (m) (rules/exempt/roads.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from exempt_helpers import DAY

from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules.exempt import RoadFacts, RoadRoute, road_replacement

REPAIR = {
    "project_kind": "reconstruction",
    "road_authority": "county",
    "currently_serviceable": True,
    "design_safety_necessary": True,
    # subd. 1(m)(1), (2): minimized, reported 45 days before construction (issue 32)
    "minimized": True,
    "report_date": dt.date(2024, 3, 1),
    "construction_date": dt.date(2024, 4, 15),
}


def answer(**values):
    return road_replacement(RoadFacts(**values), None, DAY)


#: The answers a road project gets: (outcome, route, siting skipped).
BOARD = (Outcome.NOT_REQUIRED, RoadRoute.BOARD_REPLACES, True)
STATE_DOT = (Outcome.NOT_REQUIRED, RoadRoute.STATE_DOT_REPLACES, False)
NOT_COVERED = (Outcome.REQUIRED, RoadRoute.NOT_COVERED, False)
BOARD_IF_SO = (Outcome.CONDITIONAL, RoadRoute.BOARD_REPLACES, False)
AUTHORITY_UNKNOWN = (Outcome.CONDITIONAL, RoadRoute.UNKNOWN, False)
CREDITS = (Outcome.REQUIRED, RoadRoute.CREDITS_FROM_BOARD, False)


def case(paragraph, expected, **changes):
    """Return a pytest param: :data:`REPAIR` with ``changes``, and the answer ``expected``."""
    return pytest.param({**REPAIR, **changes}, *expected, id=paragraph)


@pytest.mark.parametrize(
    ("values", "outcome", "route", "skip"),
    [
        case("subd. 1(m)", BOARD),
        *[
            case(f"subd. 1(m): {k}", BOARD, project_kind=k)
            for k in ("repair", "rehabilitation", "replacement")
        ],
        *[case(f"subd. 1(m): {a} road", BOARD, road_authority=a) for a in ("city", "town")],
        case(
            "subd. 1(m): a state road is replaced by the Department of Transportation",
            STATE_DOT,
            road_authority="state",
        ),
        case(
            "subd. 1(m): not a state, city, county or town road",
            NOT_COVERED,
            road_authority="other",
        ),
        case("subd. 1(m): not currently serviceable", NOT_COVERED, currently_serviceable=False),
        case(
            "subd. 1(m): not needed for design or safety standards",
            NOT_COVERED,
            design_safety_necessary=False,
        ),
        case(
            "subd. 1(m): serviceable unknown, siting not skipped",
            BOARD_IF_SO,
            currently_serviceable=None,
        ),
        case(
            "subd. 1(m): the authority's determination not claimed",
            BOARD_IF_SO,
            design_safety_necessary=None,
        ),
        case("subd. 1(m): authority unknown", AUTHORITY_UNKNOWN, road_authority=None),
        case("subd. 1(m): kind of project unknown", BOARD_IF_SO, project_kind=None),
        case(
            "subd. 1(l): a new road may buy credits from the board",
            CREDITS,
            project_kind="new_road",
        ),
        case(
            "subd. 1(l): expanded solely for traffic capacity",
            CREDITS,
            project_kind="capacity_expansion",
        ),
        case(
            "subd. 1(l): an airport project is not a transportation project",
            NOT_COVERED,
            project_kind="new_road",
            airport=True,
        ),
    ],
)
def test_who_replaces(values, outcome, route, skip):
    result = answer(**values)
    assert result.outcome is outcome, result.reasons
    assert result.route is route
    assert result.skip_siting is skip
    if outcome is not Outcome.REQUIRED:
        assert result.reports and set(result.reports) <= set(result.verify)
        assert any("subd. 1(m)(1)" in r and "minimizes" in r for r in result.reports)
    else:
        assert result.reports == ()


@pytest.mark.parametrize(
    ("minor", "sqft", "clause"),
    [
        pytest.param(True, 9_999.0, "(m)(3)", id="subd. 1(m)(3): minor work under 10,000 sq ft"),
        pytest.param(True, 10_000.0, "(m)(2)", id="subd. 1(m)(2): minor work of 10,000 sq ft"),
        pytest.param(False, 100.0, "(m)(2)", id="subd. 1(m)(2): not minor or emergency"),
        pytest.param(True, None, "both", id="subd. 1(m): area unknown, both clauses named"),
        pytest.param(None, 100.0, "both", id="subd. 1(m): minor unknown, both clauses named"),
    ],
)
def test_the_reports_the_authority_owes(minor, sqft, clause):
    result = answer(**REPAIR, minor_or_emergency=minor, project_sqft=sqft)
    text = " ".join(result.reports)
    if clause == "(m)(3)":
        assert "subd. 1(m)(3)" in text and "within 30 days of commencing" in text
        assert "subd. 1(m)(2)" not in text
    elif clause == "(m)(2)":
        assert "at least 30 days prior to construction" in text
        assert "annual meeting" in text
        assert "subd. 1(m)(3)" not in text
    else:
        assert "at least 30 days prior to construction" in text and "clause 3" in text
    assert result.parameters["road_projects.minor_emergency_max_sqft"] == 10_000


def test_the_road_answer_is_not_an_exemption():
    result = answer(**REPAIR)
    assert result.rule_id == "road.board_replacement"
    assert not any(v.startswith("Subd. 11(a)") for v in result.verify)
    assert "Minn. Stat. § 103G.222, subd. 1(m)" in result.citations


def test_a_new_road_of_unknown_airport_status_is_verified():
    result = answer(project_kind="new_road")
    assert any("not an airport project" in v for v in result.verify)


@pytest.mark.parametrize(
    ("field", "value"),
    [("project_kind", "widening"), ("road_authority", "private"), ("airport", "yes")],
)
def test_bad_road_facts_are_refused(field, value):
    with pytest.raises(RulesInputError, match=field):
        RoadFacts(**{field: value})
