"""Percentage-area classes (Minn. Stat. § 103G.005, subd. 10a, 10b, 10h; Minn. R. 8420.0117)
and the 11-county metropolitan area (§ 103G.2241, subd. 9(d))."""

from __future__ import annotations

import pytest
from helpers import METRO_COUNTIES, PERCENTAGE_CLASSES, area_from_figures, paragraph_params

from wetland_gis.enums import Outcome, PercentageArea
from wetland_gis.errors import ParameterError, RulesInputError
from wetland_gis.parameters import default_parameters
from wetland_gis.rules import (
    in_metropolitan_area,
    normalise_county,
    percentage_area_from_figures,
    percentage_area_of_county,
)

AS_OF = "2024-05-01"
GT80, MID, LT50 = PERCENTAGE_CLASSES

# (sentence, presettlement, remaining, land, wetland, public land, class)
FIGURES = [
    (
        "§ 103G.005 subd. 10b: 80 percent intact with 10 percent of the land in wetland is a "
        "greater than 80 percent area",
        1_000,
        800,
        10_000,
        1_000,
        0,
        GT80,
    ),
    (
        "§ 103G.005 subd. 10b: 80 percent intact with 50 percent state or federal land is a "
        "greater than 80 percent area",
        1_000,
        800,
        10_000,
        0,
        5_000,
        GT80,
    ),
    (
        "§ 103G.005 subd. 10b: 95 percent intact meeting both extra conditions is a greater than "
        "80 percent area",
        1_000,
        950,
        10_000,
        2_000,
        6_000,
        GT80,
    ),
    (
        "§ 103G.005 subd. 10a: 79.9 percent intact is a 50 to 80 percent area",
        1_000,
        799,
        10_000,
        2_000,
        6_000,
        MID,
    ),
    (
        "§ 103G.005 subd. 10a: exactly 50 percent intact is a 50 to 80 percent area",
        1_000,
        500,
        10_000,
        0,
        0,
        MID,
    ),
    (
        "§ 103G.005 subd. 10h: 49.9 percent intact is a less than 50 percent area",
        1_000,
        499,
        10_000,
        2_000,
        6_000,
        LT50,
    ),
    (
        "§ 103G.005 subd. 10h: 80 percent intact with 9.99 percent wetland and 49.99 percent "
        "public land meets neither extra condition and is a less than 50 percent area",
        1_000,
        800,
        10_000,
        999,
        4_999,
        LT50,
    ),
    (
        "§ 103G.005 subd. 10h: nothing intact is a less than 50 percent area",
        1_000,
        0,
        10_000,
        0,
        0,
        LT50,
    ),
]


def test_an_85_percent_county_failing_both_extra_conditions_is_a_less_than_50_percent_area():
    d = area_from_figures(100, 85, 1_000, 50, 100)  # 5 percent wetland, 10 percent public
    assert d.value is LT50
    assert "Minn. Stat. § 103G.005, subd. 10h" in d.citations
    assert "Minn. Stat. § 103G.005, subd. 10b" in d.citations
    assert any("neither extra condition" in r for r in d.reasons)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        pytest.param({"presettlement_wetland_acres": 0}, "greater than 0", id="no presettlement"),
        pytest.param({"remaining_wetland_acres": 200}, "more than presettlement", id="too many"),
        pytest.param({"wetland_acres": 20_000}, "more than land_area_acres", id="wet > land"),
        pytest.param({"public_land_acres": -1}, "0 or more", id="negative public land"),
        pytest.param({"land_area_acres": "big"}, "must be a number", id="text"),
    ],
)
def test_figures_are_validated(kwargs, match):
    base = dict(
        presettlement_wetland_acres=100,
        remaining_wetland_acres=50,
        land_area_acres=10_000,
        wetland_acres=100,
        public_land_acres=0,
    )
    base.update(kwargs)
    with pytest.raises(RulesInputError, match=match):
        percentage_area_from_figures(**base, as_of=AS_OF)


# --- counties ---------------------------------------------------------------------------

COUNTIES = [
    (
        "Minn. R. 8420.0117 subp. 1: Crow Wing County is a greater than 80 percent area",
        "Crow Wing",
        GT80,
    ),
    (
        "Minn. R. 8420.0117 subp. 1: 'crow wing county' is matched whatever the case",
        "crow wing county",
        GT80,
    ),
    ("Minn. R. 8420.0117 subp. 1: '  St Louis ' is St. Louis County", "  St Louis ", GT80),
    (
        "Minn. R. 8420.0117 subp. 1: 'Saint Louis County' is St. Louis County",
        "Saint Louis County",
        GT80,
    ),
    (
        "Minn. R. 8420.0117 subp. 1: Lake of the Woods County is a greater than 80 percent area",
        "LAKE OF THE WOODS",
        GT80,
    ),
    ("Minn. R. 8420.0117 subp. 1: Anoka County is a 50 to 80 percent area", "Anoka", MID),
    (
        "Minn. R. 8420.0117 subp. 1: Otter Tail County is a 50 to 80 percent area",
        "Otter  Tail",
        MID,
    ),
    (
        "Minn. R. 8420.0117 subp. 1: Lac qui Parle County is a less than 50 percent area",
        "Lac Qui Parle County",
        LT50,
    ),
    (
        "Minn. R. 8420.0117 subp. 1: Hennepin County is a less than 50 percent area",
        "Hennepin",
        LT50,
    ),
    ("Minn. R. 8420.0117 subp. 1: McLeod County is a less than 50 percent area", "mcleod", LT50),
]


@pytest.mark.parametrize(("county", "expected"), paragraph_params(COUNTIES))
def test_county_classification(county, expected):
    d = percentage_area_of_county(county, as_of=AS_OF)
    assert d.value is expected
    assert d.citations == ("Minn. R. 8420.0117, subp. 1",)
    assert any("subp. 2" in v for v in d.verify)


def test_unknown_county_error_says_how_to_fix():
    with pytest.raises(RulesInputError, match=r"Did you mean 'Crow Wing'") as info:
        percentage_area_of_county("Crow Wnig", as_of=AS_OF)
    assert "87 Minnesota counties" in str(info.value)
    with pytest.raises(RulesInputError, match="percentage_area_from_figures"):
        percentage_area_of_county("Cook County, Illinois", as_of=AS_OF)
    with pytest.raises(RulesInputError, match="must be a name"):
        percentage_area_of_county(27, as_of=AS_OF)  # type: ignore[arg-type]


def test_a_reclassified_major_watershed_override_wins_and_is_cited():
    d = percentage_area_of_county(
        "Hennepin",
        override=PercentageArea.FROM_50_TO_80,
        override_citation="BWSR board order 2023-12 (major watershed 20)",
        as_of=AS_OF,
    )
    assert d.value is MID
    assert "Minn. R. 8420.0117, subp. 2" in d.citations
    assert "BWSR board order 2023-12 (major watershed 20)" in d.citations
    bare = percentage_area_of_county("Hennepin", override=GT80, as_of=AS_OF)
    assert bare.value is GT80
    assert any("source of the reclassification" in v for v in bare.verify)
    with pytest.raises(RulesInputError, match="without override"):
        percentage_area_of_county("Hennepin", override_citation="order", as_of=AS_OF)


def test_a_county_listed_twice_is_a_parameter_error():
    params = default_parameters().with_values(
        {"percentage_area.counties.less_than_50": ["Aitkin"]}, "2020-01-01"
    )
    with pytest.raises(ParameterError, match="listed in both"):
        percentage_area_of_county("Aitkin", params=params, as_of="2021-01-01")


def test_normalise_county():
    assert normalise_county("St. Louis County") == normalise_county("saint  louis") == "st louis"


# --- metropolitan area ------------------------------------------------------------------

METRO = METRO_COUNTIES


@pytest.mark.parametrize(
    "county",
    [
        pytest.param(
            c, id=f"§ 103G.2241 subd. 9(d): {c} County is in the 11-county metropolitan area"
        )
        for c in METRO
    ],
)
def test_metro_counties(county):
    d = in_metropolitan_area(county.upper() + " county", as_of=AS_OF)
    assert d.value is True
    assert d.citations == ("Minn. Stat. § 103G.2241, subd. 9(d)",)


@pytest.mark.parametrize(
    "county",
    [
        pytest.param(c, id=f"§ 103G.2241 subd. 9(d): {c} County is not in it")
        for c in ("St. Louis", "Benton", "Stearns")
    ],
)
def test_non_metro_counties(county):
    assert in_metropolitan_area(county, as_of=AS_OF).value is False


def test_metro_rejects_unknown_counties():
    with pytest.raises(RulesInputError, match="Did you mean 'Hennepin'"):
        in_metropolitan_area("Henepin", as_of=AS_OF)


# --- figures written with decimals, exactly at a threshold ------------------------------
# (sentence, presettlement, remaining, land, wetland, public land, class)
DECIMAL_FIGURES = [
    (
        "§ 103G.005 subd. 10b(1): 76,827.2 of 96,034 acres intact (exactly 80 percent) with "
        "8,899.5 of 88,995 acres in wetland (exactly 10 percent) is a greater than 80 percent "
        "area",
        96_034,
        76_827.2,
        88_995,
        8_899.5,
        0,
        GT80,
    ),
    (
        "§ 103G.005 subd. 10b(1): 6,786.072 of 8,482.59 acres intact (exactly 80 percent) with "
        "702.264 of 7,022.64 acres in wetland (exactly 10 percent) is a greater than 80 percent "
        "area",
        8_482.59,
        6_786.072,
        7_022.64,
        702.264,
        0,
        GT80,
    ),
    (
        "§ 103G.005 subd. 10b(2): 264.448 of 330.56 acres intact (exactly 80 percent) with half "
        "the land state or federal is a greater than 80 percent area",
        330.56,
        264.448,
        1,
        0,
        0.5,
        GT80,
    ),
    (
        "§ 103G.005 subd. 10a: 79.99999999999999 percent intact is less than 80, a 50 to 80 "
        "percent area",
        100,
        79.99999999999999,
        10,
        1,
        0,
        MID,
    ),
]


@pytest.mark.parametrize(
    ("pre", "rem", "land", "wet", "public", "expected"),
    paragraph_params(FIGURES + DECIMAL_FIGURES),
)
def test_classification_from_figures(pre, rem, land, wet, public, expected):
    """DECIMAL_FIGURES: shares are computed from the figures as written (their shortest
    decimal), not from the binary approximation of each float, so 80.0 percent is not
    79.999... percent (a decimal figure exactly at a threshold is not pushed across it)."""
    d = area_from_figures(pre, rem, land, wet, public)
    assert d.value is expected
    assert d.outcome is Outcome.CLASSIFIED
    assert d.amounts["intact_percent"] == pytest.approx(rem / pre * 100)
    if expected is GT80:
        assert not any("less than 80" in r for r in d.reasons)
