"""Area tests of the pasture, drainage, utility and wildlife spoil exemptions, § 103G.2241."""

from __future__ import annotations

from typing import Any

import pytest

from wetland_gis.enums import Outcome, PercentageArea
from wetland_gis.errors import RulesInputError
from wetland_gis.rules import (
    ImpactFacts,
    drainage_exemption,
    exemption_candidates,
    pasture_exemption,
    utility_exemption,
    wildlife_spoil_exemption,
)

AS_OF = "2024-05-01"
ACRE = 43_560
HALF_ACRE = ACRE // 2  # 21,780 sq ft

# (sentence, type, wetland acres, bottomland hardwood, outcome)
PASTURE = [
    (
        "§ 103G.2241 subd. 1(2): a 100-acre type 1 wetland on pasture qualifies whatever its size",
        1,
        100.0,
        False,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 1(2): a bottomland hardwood type 1 wetland on pasture does not qualify",
        1,
        1.0,
        True,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 1(2): a 1.99-acre type 2 wetland on pasture qualifies",
        2,
        1.99,
        False,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 1(2): a 2-acre type 2 wetland is not less than two acres and does not "
        "qualify",
        2,
        2.0,
        False,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 1(2): a 1.99-acre type 6 wetland on pasture qualifies",
        6,
        1.99,
        False,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 1(2): a 2-acre type 6 wetland does not qualify",
        6,
        2.0,
        False,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 1(2): a 0.5-acre type 3 wetland does not qualify (types 1, 2, 6 only)",
        3,
        0.5,
        False,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 1(2): a type 2 wetland of unknown size is not assessed",
        2,
        None,
        False,
        Outcome.NOT_ASSESSED,
    ),
]


@pytest.mark.parametrize(
    ("wtype", "acres", "hardwood", "outcome"),
    [pytest.param(*row[1:], id=row[0]) for row in PASTURE],
)
def test_pasture_exemption(wtype, acres, hardwood, outcome):
    d = pasture_exemption(wtype, acres, bottomland_hardwood=hardwood, as_of=AS_OF)
    assert d.outcome is outcome
    assert d.value is (outcome is Outcome.ELIGIBLE)
    assert "Minn. Stat. § 103G.2241, subd. 1(2)" in d.citations
    assert any("remains in the same use" in v for v in d.verify)


# (sentence, type, drained sq ft, incorporated, outcome)
DRAINAGE = [
    (
        "§ 103G.2241 subd. 2(b): draining 50 acres of type 1 wetland in an unincorporated area "
        "qualifies",
        1,
        50 * ACRE,
        False,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 2(b): draining exactly 5 acres of type 2 wetland qualifies",
        2,
        5 * ACRE,
        False,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 2(b): draining 5 acres and 1 sq ft of type 2 wetland does not",
        2,
        5 * ACRE + 1,
        False,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 2(b): draining exactly 5 acres of type 6 wetland qualifies",
        6,
        5 * ACRE,
        None,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 2(b): draining 5 acres and 1 sq ft of type 6 wetland does not",
        6,
        5 * ACRE + 1,
        None,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 2(b): draining type 1 wetland in a city does not qualify",
        1,
        ACRE,
        True,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 2(b): draining type 3 wetland does not qualify",
        3,
        100,
        False,
        Outcome.NOT_ELIGIBLE,
    ),
]


@pytest.mark.parametrize(
    ("wtype", "sqft", "incorporated", "outcome"),
    [pytest.param(*row[1:], id=row[0]) for row in DRAINAGE],
)
def test_drainage_exemption(wtype, sqft, incorporated, outcome):
    d = drainage_exemption(wtype, sqft, incorporated, as_of=AS_OF)
    assert d.outcome is outcome
    assert "Minn. Stat. § 103G.2241, subd. 2(b)" in d.citations
    verify = " ".join(d.verify)
    assert "2(b)(1)" in verify and "2(b)(2)" in verify
    if incorporated is None:
        assert "unincorporated area" in verify


# (sentence, altered sq ft, outcome)
UTILITY = [
    (
        "§ 103G.2241 subd. 6(a)(1): a utility altering 21,779 sq ft (under one-half acre) "
        "qualifies",
        HALF_ACRE - 1,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 6(a)(1): a utility altering exactly one-half acre does not (less than)",
        HALF_ACRE,
        Outcome.NOT_ELIGIBLE,
    ),
    ("§ 103G.2241 subd. 6(a)(1): a utility altering 0 sq ft qualifies", 0, Outcome.ELIGIBLE),
]


@pytest.mark.parametrize(
    ("sqft", "outcome"), [pytest.param(*row[1:], id=row[0]) for row in UTILITY]
)
def test_utility_exemption(sqft, outcome):
    d = utility_exemption(sqft, as_of=AS_OF)
    assert d.outcome is outcome
    assert d.citations == ("Minn. Stat. § 103G.2241, subd. 6(a)(1)(ii)",)
    assert any("avoided and minimized" in v for v in d.verify)


# (sentence, deposition sq ft, wetland acres, outcome)
WILDLIFE = [
    (
        "§ 103G.2241 subd. 10(1): in a 100-acre wetland one-half acre of spoil (the lesser limit) "
        "qualifies",
        HALF_ACRE,
        100.0,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 10(1): in a 100-acre wetland one-half acre and 1 sq ft does not",
        HALF_ACRE + 1,
        100.0,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 10(1): in a 4-acre wetland 8,712 sq ft (5 percent, the lesser limit) "
        "qualifies",
        8_712,
        4.0,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 10(1): in a 4-acre wetland 8,713 sq ft does not",
        8_713,
        4.0,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 10(1): in a 10-acre wetland 5 percent equals one-half acre: 21,780 sq "
        "ft qualifies",
        HALF_ACRE,
        10.0,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.2241 subd. 10(1): in a wetland of unknown size spoil is not assessed",
        100,
        None,
        Outcome.NOT_ASSESSED,
    ),
]


@pytest.mark.parametrize(
    ("sqft", "acres", "outcome"), [pytest.param(*row[1:], id=row[0]) for row in WILDLIFE]
)
def test_wildlife_spoil_exemption(sqft, acres, outcome):
    d = wildlife_spoil_exemption(sqft, acres, as_of=AS_OF)
    assert d.outcome is outcome
    assert "Minn. Stat. § 103G.2241, subd. 10(1)(i)" in d.citations
    verify = " ".join(d.verify)
    assert "endangered or threatened" in verify
    assert "soil and water conservation district" in verify


def test_wildlife_spoil_limit_is_the_lesser():
    small = wildlife_spoil_exemption(0, 4.0, as_of=AS_OF)
    assert small.amounts["limit_sqft"] == pytest.approx(8_712)
    large = wildlife_spoil_exemption(0, 100.0, as_of=AS_OF)
    assert large.amounts["limit_sqft"] == pytest.approx(HALF_ACRE)


def _impact(wtype: int, sqft: float, **flags: Any) -> ImpactFacts:
    return ImpactFacts(
        impact_id="A",
        wetland_type=wtype,
        cedar_tamarack=False,
        sqft_setback=0,
        sqft_protection=0,
        sqft_outside=sqft,
        pct_class=PercentageArea.LESS_THAN_50,
        metro=False,
        **flags,
    )


def test_exemption_candidates_lists_those_passing_the_area_test():
    got = exemption_candidates(
        _impact(2, 1_000, impact_kind="drain"), wetland_acres=1.0, incorporated=False, as_of=AS_OF
    )
    assert [d.question for d in got] == [
        "pasture_exemption",
        "drainage_exemption",
        "utility_exemption",
    ]
    assert all(d.outcome is Outcome.ELIGIBLE for d in got)
    bigger = exemption_candidates(_impact(3, HALF_ACRE), wetland_acres=30.0, as_of=AS_OF)
    assert [d.question for d in bigger] == ["wildlife_spoil_exemption"]
    no_size = exemption_candidates(_impact(2, 1_000, impact_kind="drain"), as_of=AS_OF)
    assert [d.question for d in no_size] == ["drainage_exemption", "utility_exemption"]


@pytest.mark.parametrize(
    ("kind", "drainage", "spoil"),
    [
        pytest.param(
            "fill", False, True, id="§ 103G.2241 subd. 2: no drainage exemption for a fill"
        ),
        pytest.param("drain", True, False, id="subd. 10(1): no spoil exemption for a drain"),
        pytest.param("unknown", False, True, id="subd. 2: an unknown kind is not a drain"),
    ],
)
def test_exemption_candidates_follow_the_impact_kind_as_the_engine_does(kind, drainage, spoil):
    from wetland_gis.rules import Claims, decide_project

    impact = _impact(2, 1_000, impact_kind=kind, wetland_acres=1.0, incorporated=False)
    got = [d.question for d in exemption_candidates(impact, wetland_acres=1.0, as_of=AS_OF)]
    assert ("drainage_exemption" in got) is drainage
    assert ("wildlife_spoil_exemption" in got) is spoil
    engine = decide_project([impact], Claims(), as_of=AS_OF).by_impact["A"].exemptions
    assert ("exemption.drainage" in engine) is drainage
    assert ("exemption.wildlife_spoil" in engine) is spoil


@pytest.mark.parametrize(
    "flag",
    [
        pytest.param(
            "calcareous_fen", id="Minn. R. 8420.0420 subp. 1: a calcareous fen has no exemption"
        ),
        pytest.param("banked", id="Minn. R. 8420.0420 subp. 1: a banked wetland has none"),
        pytest.param(
            "used_for_replacement_credit",
            id="Minn. R. 8420.0420 subp. 1: a credit wetland has none",
        ),
        pytest.param(
            "public_waters_wetland",
            id="§ 103G.005 subd. 19(b): a public waters wetland is outside the WCA",
        ),
    ],
)
def test_no_candidates_for_excluded_wetlands(flag):
    assert (
        exemption_candidates(_impact(2, 10, **{flag: True}), wetland_acres=1.0, as_of=AS_OF) == ()
    )


def test_errors():
    with pytest.raises(RulesInputError, match="0 or more"):
        utility_exemption(-1, as_of=AS_OF)
    with pytest.raises(RulesInputError, match="greater than 0"):
        wildlife_spoil_exemption(10, 0, as_of=AS_OF)
    with pytest.raises(RulesInputError, match="ImpactFacts"):
        exemption_candidates({"area": 1}, as_of=AS_OF)  # type: ignore[arg-type]
    with pytest.raises(RulesInputError, match="True or False"):
        drainage_exemption(1, 10, "no", as_of=AS_OF)  # type: ignore[arg-type]


def test_subd_10_1_i_spoil_on_exactly_5_percent_of_a_6_3_acre_wetland_is_eligible():
    """13,721.4 sq ft is 0.315 acre, exactly 5 percent of 6.3 acres (under one-half acre)."""
    d = wildlife_spoil_exemption(13_721.4, 6.3, as_of=AS_OF)
    assert d.outcome is Outcome.ELIGIBLE
    assert d.amounts["deposition_percent"] == 5


def test_subd_6a1ii_the_utility_area_test_is_of_the_whole_project():
    """Subd. 6(a)(1)(ii): "the proposed project significantly modifies or alters less than
    one-half acre of wetlands" - the project's area, not one impact's."""
    impact = _impact(2, 10_000)
    whole = exemption_candidates(impact, project_sqft=HALF_ACRE, as_of=AS_OF)
    assert "utility_exemption" not in [d.question for d in whole]
    under = exemption_candidates(impact, project_sqft=HALF_ACRE - 1, as_of=AS_OF)
    (utility,) = [d for d in under if d.question == "utility_exemption"]
    assert utility.amounts["altered_sqft"] == HALF_ACRE - 1
    alone = exemption_candidates(impact, as_of=AS_OF)
    (utility,) = [d for d in alone if d.question == "utility_exemption"]
    assert any("whole project" in v for v in utility.verify)
    with pytest.raises(RulesInputError, match="project_sqft"):
        exemption_candidates(impact, project_sqft=9_999, as_of=AS_OF)


def test_subd_2b_the_drainage_limit_verify_item_asks_for_the_other_type_2_or_6_drainage():
    got = exemption_candidates(
        _impact(2, 1_000, impact_kind="drain"), incorporated=False, as_of=AS_OF
    )
    (drainage,) = [d for d in got if d.question == "drainage_exemption"]
    assert any("other type 2 or 6" in v for v in drainage.verify)


def test_subd_1_2_pasture_verify_item_gives_the_whole_definition_of_pasture_of_subd_14a():
    """§ 103G.005, subd. 14a: pasture is grazed by domesticated livestock OR was in a crop
    rotation seeding of grasses or legumes; the verify item must not narrow it."""
    d = pasture_exemption(1, None, as_of=AS_OF)
    verify = " ".join(d.verify)
    assert "grazed by domesticated livestock" in verify
    assert "crop rotation seeding of grasses or legumes" in verify
