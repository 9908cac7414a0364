"""Water appropriation rules of Minn. Stat. § 103G.271 (issue 10): permit and restrictions.

Scenario tests in both editions (2018: as of 2018-06-01; 2025: as of 2026-06-01) and between
them (2022-06-01), on both sides of every limit. Case ids name the statute paragraph.
"""

from __future__ import annotations

import ast
import datetime as dt
import io
import json
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest
from helpers import paragraph_params
from hypothesis import given, settings, strategies as st

from wetland_gis.errors import ParameterNotInForce, RulesInputError
from wetland_gis.parameters import UNITS
from wetland_gis.rules import spec as rule_spec
from wetland_gis.rules.trace import TRACE_COLUMNS
from wetland_gis.water_use import framework as wu_framework, rules as wu
from wetland_gis.water_use.rules import Appropriation, WaterOutcome

ROOT = Path(__file__).resolve().parents[1]
E2018, E2025, GAP = "2018-06-01", "2026-06-01", "2022-06-01"
OUT = WaterOutcome


def A(**kw) -> Appropriation:  # noqa: N802 - a short scenario builder
    kw.setdefault("permit_id", "P")
    return Appropriation(**kw)


# --------------------------------------------------------------------------- parameters


def _decided(rule: Any, facts: dict, as_of: str, expected: WaterOutcome) -> Any:
    """Return ``rule`` on the facts on ``as_of``, asserting its outcome is ``expected``."""
    d = rule(A(**facts), as_of=as_of)
    assert d.outcome == expected, d.explain()
    return d


def test_the_water_use_tree_loads_and_every_leaf_is_cited_described_and_dated():
    params = wu.water_use_parameters()
    assert params.source.endswith("water_use.yaml") and params.sha256
    for key, param in params.items():
        assert key.startswith("water_use."), key
        assert param.unit in UNITS, key
        assert param.reference.startswith("Minn. Stat. §"), key
        assert param.description and param.values, key


def test_editions_are_dated_as_documented_and_never_by_an_effective_date():
    eds = wu.editions()
    assert [e.edition for e in eds] == ["2018", "2025"]
    assert eds[0].title == "Minnesota Statutes 2018"
    assert "1Sp2025" in eds[1].title
    assert eds[0].applies_from == dt.date(2018, 1, 1)
    assert eds[0].applies_through == dt.date(2018, 12, 31)
    assert eds[1].applies_from == dt.date(2026, 1, 1) and eds[1].applies_through is None
    # every value leaf is dated at an edition date, nowhere else
    starts = {e.applies_from for e in eds}
    for key, param in wu.water_use_parameters().items():
        assert {d for d, _ in param.values} <= starts, key


@pytest.mark.parametrize(
    ("key", "v2018", "v2025"),
    [
        pytest.param("water_use.fee.minimum", 100, 100, id="6(c) minimum"),
        pytest.param("water_use.fee.irrigation_minimum", 20, 100, id="6(f) irrigation minimum"),
        pytest.param("water_use.fee.surcharge_rate", 30, 50, id="6(h) surcharge rate"),
        pytest.param("water_use.fee.cap.city_first_class", 250_000, 325_000, id="6(d)(1)"),
        pytest.param("water_use.fee.cap.agricultural_irrigation", 750, 1_500, id="6(d)(3)"),
        pytest.param("water_use.fee.cap.cogeneration", 10_000, 10_000, id="6(d)(4)"),
        pytest.param("water_use.fee.cap.hydropower", 5_000, 5_000, id="6(d)(5)"),
        pytest.param("water_use.fee.once_through_nonprofit_rate", 200, 200, id="6(b)(1)"),
        pytest.param("water_use.fee.once_through_other_rate", 420, 420, id="6(b)(2)"),
        pytest.param("water_use.permit.minimum_daily", 10_000, 10_000, id="4(a) daily"),
        pytest.param("water_use.permit.minimum_annual", 1_000_000, 1_000_000, id="4(a) annual"),
        pytest.param(
            "water_use.permit.general_permit_no_fee",
            15_000_000,
            15_000_000,
            id="1(c) general permit",
        ),
        pytest.param("water_use.once_through.termination_gallons", 5_000_000, 5_000_000, id="5(b)"),
        pytest.param(
            "water_use.surface_water_levels.annual_gallons", 10_000_000, 10_000_000, id="5a"
        ),
        pytest.param("water_use.fee.past_unpermitted_years", 7, 7, id="6a seven years"),
        pytest.param("water_use.fee.penalty_percent_per_month", 10, 10, id="6(e) ten percent"),
    ],
)
def test_each_edition_holds_its_own_value(key, v2018, v2025):
    p = wu.water_use_parameters()
    assert p.value(key, E2018) == v2018
    assert p.value(key, E2025) == v2025


def test_surcharge_months_by_edition():
    p = wu.water_use_parameters()
    assert p.value("water_use.fee.surcharge_months", E2018) == ["june", "july", "august"]
    assert p.value("water_use.fee.surcharge_months", E2025) == [
        "may",
        "june",
        "july",
        "august",
        "september",
    ]


def test_subdivisions_4b_and_5b_are_only_in_the_2025_edition():
    p = wu.water_use_parameters()
    assert p.value("water_use.bulk_sale.in_force", E2018) is False
    assert p.value("water_use.data_center.in_force", E2018) is False
    assert p.value("water_use.bulk_sale.in_force", E2025) is True
    assert p.value("water_use.bulk_sale.annual_gallons", E2025) == 1_000_000
    assert p.value("water_use.bulk_sale.distance_miles", E2025) == 50
    assert p.value("water_use.bulk_sale.public_supply_miles", E2025) == 100
    assert p.value("water_use.data_center.annual_gallons", E2025) == 100_000_000


def test_the_intermediate_amount_of_4b_is_user_supplied_and_empty_by_default():
    assert wu.water_use_parameters().value("water_use.permit.intermediate_amount", E2025) is None


def _numbers(path: Path) -> list[tuple[int, str, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [(t.start[0], t.string, t.line.strip()) for t in tokens if t.type == tokenize.NUMBER]


#: Every module of the water-use rules core: the package but the screening of a layer.
RULE_MODULES = sorted(
    p
    for p in Path(wu.__file__).parent.glob("*.py")
    if p.name not in ("__init__.py", "screening.py")
)


def test_the_rules_core_is_split_into_its_modules():
    names = {p.name for p in RULE_MODULES}
    assert {"rules.py", "framework.py", "permit.py", "restrictions.py", "fees.py"} <= names


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.name)
def test_no_legal_number_is_written_in_the_water_use_rules(path):
    bad = [
        f"{n}: {line}"
        for n, text, line in _numbers(path)
        if float(text.replace("_", "")) not in (0, 1)
    ]
    assert not bad, f"numbers in water_use/{path.name}:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.name)
def test_the_rules_module_imports_no_geometry(path):
    text = path.read_text(encoding="utf-8")
    assert "geopandas" not in text and "shapely" not in text


# --------------------------------------------------------------------------- editions


def test_a_date_before_the_2018_edition_is_refused():
    with pytest.raises(ParameterNotInForce, match="no edition"):
        wu.permit_required(A(annual_gallons=1), as_of="2017-12-31")


@pytest.mark.parametrize("day", ["2019-01-01", GAP, "2025-12-31"])
def test_between_the_editions_a_differing_fee_is_indeterminate_with_both_figures(day):
    d = wu.processing_fee(A(annual_gallons=120_000_000), as_of=day)
    assert d.outcome == OUT.INDETERMINATE and d.value is None
    assert d.amounts["value_2018"] == 480.0 and d.amounts["value_2025"] == 840.0
    assert "edition_change" in d.flags and d.edition == "2018+2025"
    assert "took effect" in d.verify[0]
    assert d.parameters["water_use.fee.schedule"].keys() == {"2018", "2025"}


def test_between_the_editions_an_agreeing_answer_is_given_and_says_so():
    d = wu.permit_required(A(annual_gallons=2_000_000, gallons_per_day=20_000), as_of=GAP)
    assert d.outcome == OUT.REQUIRED and d.edition == "2018+2025"
    assert any("same under both editions" in r for r in d.reasons)


def test_the_2025_edition_date_is_flagged_as_not_an_effective_date():
    d = wu.permit_required(A(annual_gallons=2_000_000, gallons_per_day=20_000), as_of=E2025)
    assert any("not an effective date" in v for v in d.verify)
    d18 = wu.permit_required(A(annual_gallons=2_000_000, gallons_per_day=20_000), as_of=E2018)
    assert not any("not an effective date" in v for v in d18.verify)


# --------------------------------------------------------------------------- subd. 1, 4


PERMIT_CASES = [
    (
        "1(b)(1) 24 persons domestic: no permit",
        dict(use="domestic", persons_served=24, annual_gallons=5e6, gallons_per_day=5e4),
        OUT.NOT_REQUIRED,
    ),
    (
        "1(b)(1) 25 persons is not less than 25: permit",
        dict(use="domestic", persons_served=25, annual_gallons=5e6, gallons_per_day=5e4),
        OUT.REQUIRED,
    ),
    (
        "1(b)(1) persons unknown: permit",
        dict(use="domestic", annual_gallons=5e6, gallons_per_day=5e4),
        OUT.REQUIRED,
    ),
    (
        "1(b)(2) pre-1937 nonconsumptive hydropower: no permit",
        dict(
            use="hydropower",
            source="surface",
            nonconsumptive=True,
            hydro_structure_existing=True,
            annual_gallons=1e9,
        ),
        OUT.NOT_REQUIRED,
    ),
    (
        "1(b)(2) hydropower structure not pre-1937: permit",
        dict(
            use="hydropower",
            source="surface",
            nonconsumptive=True,
            hydro_structure_existing=False,
            annual_gallons=1e9,
            gallons_per_day=1e7,
        ),
        OUT.REQUIRED,
    ),
    (
        "1(b)(3) stormwater from constructed facilities: no permit",
        dict(use="stormwater", stormwater_facility=True, annual_gallons=5e7),
        OUT.NOT_REQUIRED,
    ),
    (
        "4(a) 9,999 gpd and 1,000,000 a year: no permit",
        dict(annual_gallons=1_000_000, gallons_per_day=9_999),
        OUT.NOT_REQUIRED,
    ),
    (
        "4(a) 10,000 gpd is not less than 10,000: permit",
        dict(annual_gallons=900_000, gallons_per_day=10_000),
        OUT.REQUIRED,
    ),
    (
        "4(a) 1,000,001 a year is more than 1,000,000: permit",
        dict(annual_gallons=1_000_001, gallons_per_day=5_000),
        OUT.REQUIRED,
    ),
    (
        "4(a) daily amount unknown: both conditions needed, permit",
        dict(annual_gallons=500_000),
        OUT.REQUIRED,
    ),
    (
        "4(a) local permit under 103B.211: not exempt",
        dict(annual_gallons=500_000, gallons_per_day=2_000, local_permit=True),
        OUT.REQUIRED,
    ),
    (
        "4(a) commissioner requires under 103G.287: permit",
        dict(annual_gallons=500_000, gallons_per_day=2_000, commissioner_requires=True),
        OUT.REQUIRED,
    ),
    ("1(a) annual amount unknown: permit", dict(), OUT.REQUIRED),
]


@pytest.mark.parametrize("as_of", [E2018, E2025, GAP], ids=["2018", "2025", "between"])
@pytest.mark.parametrize(("facts", "expected"), paragraph_params(PERMIT_CASES))
def test_permit_required(facts, expected, as_of):
    d = _decided(wu.permit_required, facts, as_of, expected)
    assert d.citation.startswith("Minn. Stat. § 103G.271")
    assert d.reasons


def test_4b_local_approval_below_a_user_supplied_intermediate_amount():
    params = wu.water_use_parameters().with_values(
        {"water_use.permit.intermediate_amount": 50_000_000}, "2018-01-01"
    )
    below = wu.permit_required(
        A(annual_gallons=49_999_999, gallons_per_day=2e5), as_of=E2018, params=params
    )
    at = wu.permit_required(
        A(annual_gallons=50_000_000, gallons_per_day=2e5), as_of=E2018, params=params
    )
    assert below.outcome == OUT.LOCAL_APPROVAL
    assert at.outcome == OUT.REQUIRED


def test_4b_without_the_intermediate_amount_asks_to_verify():
    d = wu.permit_required(A(annual_gallons=5e6, gallons_per_day=5e4), as_of=E2025)
    assert any("intermediate amount" in v for v in d.verify)


# --------------------------------------------------------------------------- subd. 4a

MSH = dict(source="groundwater", mt_simon_hinckley=True, annual_gallons=5e7)
ALL3 = dict(potable=True, no_feasible_alternative=True, conservation_plan=True)

MSH_CASES = [
    (
        "4a 2018 outside a metropolitan county: not restricted",
        E2018,
        dict(MSH, county="Olmsted"),
        OUT.NOT_APPLICABLE,
    ),
    (
        "4a 2025 outside a metropolitan county: restricted everywhere, conditions to verify",
        E2025,
        dict(MSH, county="Olmsted"),
        OUT.VERIFY,
    ),
    (
        "4a 2018 in Hennepin, conditions not stated: verify",
        E2018,
        dict(MSH, county="Hennepin"),
        OUT.VERIFY,
    ),
    (
        "4a 2018 in Hennepin, potable no alternative and plan: allowed",
        E2018,
        dict(MSH, county="Hennepin", **ALL3),
        OUT.ALLOWED,
    ),
    (
        "4a 2025 in Olmsted, all three conditions: allowed",
        E2025,
        dict(MSH, county="Olmsted", **ALL3),
        OUT.ALLOWED,
    ),
    (
        "4a 2025 not potable: prohibited",
        E2025,
        dict(
            MSH,
            county="Olmsted",
            potable=False,
            no_feasible_alternative=True,
            conservation_plan=True,
        ),
        OUT.PROHIBITED,
    ),
    (
        "4a 2018 Wright is not a metropolitan county of 473.121: not restricted",
        E2018,
        dict(MSH, county="Wright", potable=False),
        OUT.NOT_APPLICABLE,
    ),
    (
        "4a aquifer unknown with a condition missing: verify",
        E2025,
        dict(source="groundwater", annual_gallons=5e7, county="Olmsted", potable=False),
        OUT.VERIFY,
    ),
    (
        "4a another aquifer: not applicable",
        E2025,
        dict(MSH, mt_simon_hinckley=False, county="Dakota"),
        OUT.NOT_APPLICABLE,
    ),
    (
        "4a existing permit: new permits only",
        E2025,
        dict(MSH, county="Dakota", permit_action="existing"),
        OUT.NOT_APPLICABLE,
    ),
    (
        "4a(b) 2018 once-through from the aquifer in a metro county: terminated",
        E2018,
        dict(MSH, county="Ramsey", once_through="cooling", permit_action="existing"),
        OUT.TERMINATE,
    ),
    (
        "4a(b) 2018 existing once-through in Hennepin, aquifer unknown: verify, never n/a",
        E2018,
        dict(
            source="groundwater",
            annual_gallons=5e7,
            county="Hennepin",
            once_through="cooling",
            permit_action="existing",
        ),
        OUT.VERIFY,
    ),
    (
        "4a(b) 2018 existing once-through, county unknown: verify",
        E2018,
        dict(MSH, once_through="cooling", permit_action="existing"),
        OUT.VERIFY,
    ),
    (
        "4a between editions outside the metro: indeterminate",
        GAP,
        dict(
            MSH,
            county="Olmsted",
            potable=False,
            no_feasible_alternative=True,
            conservation_plan=True,
        ),
        OUT.INDETERMINATE,
    ),
]


@pytest.mark.parametrize(("as_of", "facts", "expected"), paragraph_params(MSH_CASES))
def test_mt_simon_hinckley(as_of, facts, expected):
    d = _decided(wu.mt_simon_hinckley, facts, as_of, expected)
    assert "Minn. Stat. § 103G.271, subd. 4a" in d.citations


def test_4a_in_hennepin_with_conditions_false_is_prohibited_in_2018():
    d = wu.mt_simon_hinckley(
        A(
            **MSH,
            county="Hennepin",
            potable=False,
            no_feasible_alternative=True,
            conservation_plan=True,
        ),
        as_of=E2018,
    )
    assert d.outcome == OUT.PROHIBITED
    assert "Minn. Stat. § 473.121, subd. 4" in d.citations


# --------------------------------------------------------------------------- subd. 4b

BULK = dict(bulk_sale=True, annual_gallons=2_000_000, source="groundwater")
PWS = dict(
    public_water_supply=True,
    solely_public_supply=True,
    property_interest=True,
    supply_requirements_met=True,
    entity_type="rural_water_district",
)

BULK_CASES = [
    ("4b not in the 2018 edition", E2018, dict(BULK, destination_miles=500), OUT.NOT_APPLICABLE),
    (
        "4b 1,000,000 gallons is not in excess of 1,000,000",
        E2025,
        dict(BULK, annual_gallons=1_000_000, destination_miles=500),
        OUT.NOT_APPLICABLE,
    ),
    (
        "4b 1,000,001 gallons 51 miles: prohibited",
        E2025,
        dict(BULK, annual_gallons=1_000_001, destination_miles=51),
        OUT.PROHIBITED,
    ),
    (
        "4b exactly 50 miles is not more than 50: allowed",
        E2025,
        dict(BULK, destination_miles=50),
        OUT.ALLOWED,
    ),
    ("4b destination unknown: verify", E2025, dict(BULK), OUT.VERIFY),
    (
        "4b bulk sale unknown over the amount: verify",
        E2025,
        dict(annual_gallons=2e6, destination_miles=80),
        OUT.VERIFY,
    ),
    (
        "4b(b) public water supply within 100 miles: allowed",
        E2025,
        dict(BULK, **PWS, destination_miles=100),
        OUT.ALLOWED,
    ),
    (
        "4b(b) public water supply at 100.1 miles: prohibited",
        E2025,
        dict(BULK, **PWS, destination_miles=100.1),
        OUT.PROHIBITED,
    ),
    (
        "4b(b) a business cannot use the public supply exception",
        E2025,
        dict(BULK, **{**PWS, "entity_type": "business"}, destination_miles=70),
        OUT.PROHIBITED,
    ),
    (
        "4b(b)(2) no property interest: prohibited",
        E2025,
        dict(BULK, **{**PWS, "property_interest": False}, destination_miles=70),
        OUT.PROHIBITED,
    ),
    (
        "4b(b) a condition unknown: verify",
        E2025,
        dict(BULK, **{**PWS, "supply_requirements_met": None}, destination_miles=70),
        OUT.VERIFY,
    ),
    (
        "4b between editions: indeterminate",
        GAP,
        dict(BULK, destination_miles=300),
        OUT.INDETERMINATE,
    ),
]


@pytest.mark.parametrize(("as_of", "facts", "expected"), paragraph_params(BULK_CASES))
def test_bulk_sale(as_of, facts, expected):
    _decided(wu.bulk_sale, facts, as_of, expected)


# --------------------------------------------------------------------------- subd. 5

OT = dict(once_through="cooling", source="surface", permit_action="existing")
OT_CASES = [
    ("5(b) 5,000,001 gallons: terminated", dict(OT, annual_gallons=5_000_001), OUT.TERMINATE),
    (
        "5(b) 5,000,000 gallons, pre-2015 system: may be permitted",
        dict(OT, annual_gallons=5_000_000, existing_system=True),
        OUT.CONDITIONS,
    ),
    (
        "5(b) 5,000,000 gallons, system age unknown: verify",
        dict(OT, annual_gallons=5_000_000),
        OUT.VERIFY,
    ),
    (
        "5(b) nature preserve discharge exception",
        dict(OT, annual_gallons=9e6, nature_preserve_discharge=True),
        OUT.ALLOWED,
    ),
    (
        "5(a) new groundwater once-through cooling: prohibited",
        dict(once_through="cooling", source="groundwater", permit_action="new", annual_gallons=1e6),
        OUT.PROHIBITED,
    ),
    (
        "5(a) modified to increase groundwater volume: prohibited",
        dict(
            once_through="cooling",
            source="groundwater",
            permit_action="modified",
            increase_volume=True,
            annual_gallons=1e6,
        ),
        OUT.PROHIBITED,
    ),
    (
        "5(c) thermal exchange returning all water: annual permit with approvals",
        dict(once_through="thermal_exchange", returns_all_water=True, annual_gallons=2e7),
        OUT.CONDITIONS,
    ),
    ("5 not once-through", dict(annual_gallons=2e7), OUT.NOT_APPLICABLE),
]


@pytest.mark.parametrize("as_of", [E2018, E2025], ids=["2018", "2025"])
@pytest.mark.parametrize(("facts", "expected"), paragraph_params(OT_CASES))
def test_once_through(facts, expected, as_of):
    _decided(wu.once_through, facts, as_of, expected)


# --------------------------------------------------------------------------- subd. 5a, 5b

SWL = dict(use="surface_water_level", source="groundwater")
SWL_CASES = [
    (
        "5a 10,000,001 gallons in Washington County: prohibited",
        dict(SWL, annual_gallons=10_000_001, county="Washington"),
        OUT.PROHIBITED,
    ),
    (
        "5a 10,000,000 gallons is not in excess: not applicable",
        dict(SWL, annual_gallons=10_000_000, county="Washington"),
        OUT.NOT_APPLICABLE,
    ),
    (
        "5a outside the seven counties, area of concern unknown: verify",
        dict(SWL, annual_gallons=2e7, county="Wright"),
        OUT.VERIFY,
    ),
    (
        "5a outside, area of concern determined: prohibited",
        dict(SWL, annual_gallons=2e7, county="Wright", area_of_concern=True),
        OUT.PROHIBITED,
    ),
    (
        "5a outside and not an area of concern: not applicable",
        dict(SWL, annual_gallons=2e7, county="Wright", area_of_concern=False),
        OUT.NOT_APPLICABLE,
    ),
    (
        "5a surface water source: not applicable",
        dict(use="surface_water_level", source="surface", annual_gallons=2e7, county="Anoka"),
        OUT.NOT_APPLICABLE,
    ),
]


@pytest.mark.parametrize("as_of", [E2018, E2025, GAP], ids=["2018", "2025", "between"])
@pytest.mark.parametrize(("facts", "expected"), paragraph_params(SWL_CASES))
def test_surface_water_levels(facts, expected, as_of):
    _decided(wu.surface_water_levels, facts, as_of, expected)


AREA_CASES = [
    # (id, rule, facts, carries the § 473.121, subd. 2 verify item)
    ("5a metropolitan area, in Washington County: prohibited, area verified",
     "surface_water_levels", dict(SWL, annual_gallons=10_000_001, county="Washington"), True),
    ("5a outside the seven counties, not an area of concern: the area is verified",
     "surface_water_levels",
     dict(SWL, annual_gallons=2e7, county="Wright", area_of_concern=False), True),
    ("5a county unknown: the area is verified",
     "surface_water_levels", dict(SWL, annual_gallons=2e7), True),
    ("5a outside, an area of concern: the answer does not turn on the metropolitan area",
     "surface_water_levels",
     dict(SWL, annual_gallons=2e7, county="Wright", area_of_concern=True), False),
    ("5a 10,000,000 gallons is not in excess: no area question",
     "surface_water_levels", dict(SWL, annual_gallons=10_000_000, county="Washington"), False),
    ("5a another purpose: no area question",
     "surface_water_levels",
     dict(use="municipal", source="groundwater", annual_gallons=2e7, county="Anoka"), False),
    ("4a metropolitan county (defined by § 473.121, subd. 4): no area question",
     "mt_simon_hinckley",
     dict(source="groundwater", mt_simon_hinckley=True, county="Hennepin", potable=False),
     False),
]  # fmt: skip


@pytest.mark.parametrize("as_of", [E2018, E2025, GAP], ids=["2018", "2025", "between"])
@pytest.mark.parametrize(("rule", "facts", "asks"), paragraph_params(AREA_CASES))
def test_the_metropolitan_area_of_473_121_subd_2_is_a_verify_item(rule, facts, asks, as_of):
    """§ 103G.271, subd. 5a says "metropolitan area", defined in § 473.121, subd. 2 (not held):
    the county list of subd. 4 stands in for it, and the answer says so."""
    d = getattr(wu, rule)(A(**facts), as_of=as_of)
    assert (wu.METROPOLITAN_AREA_CHECK in d.verify) is asks
    assert "473.121, subd. 2" in wu.METROPOLITAN_AREA_CHECK


DC_CASES = [
    (
        "5b not in the 2018 edition",
        E2018,
        dict(data_center=True, annual_gallons=2e8),
        OUT.NOT_APPLICABLE,
    ),
    (
        "5b data center 100,000,001 gallons: conditions",
        E2025,
        dict(data_center=True, annual_gallons=100_000_001),
        OUT.CONDITIONS,
    ),
    (
        "5b data center 100,000,000 gallons does not exceed",
        E2025,
        dict(data_center=True, annual_gallons=100_000_000),
        OUT.NOT_APPLICABLE,
    ),
    (
        "5b existing permittee supplying a data center: conditions",
        E2025,
        dict(supplies_data_center=True, permit_action="existing", annual_gallons=3e8),
        OUT.CONDITIONS,
    ),
    ("5b data center unknown over the amount: verify", E2025, dict(annual_gallons=3e8), OUT.VERIFY),
    (
        "5b new permit, whether the applicant is a data center not stated: verify",
        E2025,
        dict(supplies_data_center=False, annual_gallons=3e8),
        OUT.VERIFY,
    ),
    (
        "5b existing permit, whether it supplies a data center not stated: verify",
        E2025,
        dict(data_center=False, permit_action="existing", annual_gallons=3e8),
        OUT.VERIFY,
    ),
    (
        "5b new permit, applicant not a data center: not applicable",
        E2025,
        dict(data_center=False, annual_gallons=3e8),
        OUT.NOT_APPLICABLE,
    ),
    (
        "5b between editions: indeterminate",
        GAP,
        dict(data_center=True, annual_gallons=3e8),
        OUT.INDETERMINATE,
    ),
]


@pytest.mark.parametrize(("as_of", "facts", "expected"), paragraph_params(DC_CASES))
def test_data_center(as_of, facts, expected):
    d = _decided(wu.data_center, facts, as_of, expected)
    if expected == OUT.CONDITIONS:
        assert any("216B.02" in v for v in d.verify)


# --------------------------------------------------------------------------- facts, traces


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        (dict(use="swimming"), "use 'swimming'"),
        (dict(entity_type="king"), "entity_type"),
        (dict(annual_gallons=-1), "0 or more"),
        (dict(monthly_gallons=(1, 2, 3)), "12 volumes"),
        (dict(permits_held=0), "permits_held"),
        (dict(source="rain"), "source"),
    ],
)
def test_bad_facts_raise_rules_input_error(kw, match):
    with pytest.raises(RulesInputError, match=match):
        A(**kw)


def test_every_decision_is_json_ready_and_shaped_like_the_trace_contract():
    r = wu.screen(
        [
            A(
                annual_gallons=3e8,
                gallons_per_day=1e6,
                entity="E",
                use="municipal",
                monthly_gallons=tuple([2e7] * 12),
                data_center=False,
            )
        ],
        as_of=GAP,
    )
    for d in r.decisions:
        row = d.trace_row()
        assert set(row) == set(TRACE_COLUMNS) - {"project", "impact_id", "seq"}
        json.dumps(d.to_dict())
        assert row["citation"].startswith("Minn. Stat. §"), row
        assert row["reason"]


@settings(max_examples=60, deadline=None)
@given(
    st.dates(min_value=dt.date(2019, 1, 1), max_value=dt.date(2025, 12, 31)),
    st.integers(min_value=0, max_value=2_000_000_000),
)
def test_between_the_editions_no_figure_is_chosen_when_they_differ(day, gallons):
    a = A(annual_gallons=gallons)
    d = wu.processing_fee(a, as_of=day)
    f18 = wu.processing_fee(a, as_of=E2018).value
    f25 = wu.processing_fee(a, as_of=E2025).value
    if f18 != f25:
        assert d.outcome == OUT.INDETERMINATE and d.value is None
    else:
        assert d.value == f18


# --------------------------------------------------------------------------- public rules


PUBLIC_RULES = (
    "permit_required",
    "mt_simon_hinckley",
    "bulk_sale",
    "once_through",
    "surface_water_levels",
    "data_center",
)


@pytest.mark.parametrize("name", PUBLIC_RULES)
def test_public_rule_has_its_name_signature_doc_and_rule_id(name):
    import inspect

    rule = getattr(wu, name)
    assert rule.__name__ == name
    assert rule.__doc__ and rule.__doc__.startswith("Return ")
    sig = inspect.signature(rule)
    assert list(sig.parameters) == ["a", "as_of", "params"]
    assert sig.parameters["as_of"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["params"].default is None
    d = rule(A(annual_gallons=900_000, gallons_per_day=5_000), as_of=E2025)
    assert d.rule_id == wu.RULE_IDS[name]
    assert d.subject == "P"


# --------------------------------------------------------------------------- the registry

STATUTE = "Minn. Stat. § 103G.271"


def test_every_rule_is_registered_once_with_its_label_and_citations():
    ids = [spec.id for spec in wu.WATER_RULES.values()]
    assert len(ids) == len(set(ids))
    for key, spec in wu.WATER_RULES.items():
        assert spec.id.startswith("water_use.") and spec.label, key
        assert spec.citations, key
        assert all(c.startswith(f"{STATUTE}, subd. ") for c in spec.citations), key
    assert wu.RULE_IDS == {key: spec.id for key, spec in wu.WATER_RULES.items()}


def test_every_registered_rule_decides_and_every_decision_is_registered():
    """A screening with an entity, a common distribution system, a past year and a late fee
    runs all twelve rules; no decision names a rule outside the registry."""
    months = tuple(float(v) for v in (10, 10, 10, 10, 20, 30, 40, 30, 20, 10, 10, 10))
    town = dict(entity="Town", entity_type="municipality", use="municipal")
    items = [
        A(
            permit_id="M1",
            annual_gallons=2e8,
            distribution_system="S",
            **town,
            monthly_gallons=tuple(v * 1e6 for v in months),
        ),
        A(
            permit_id="M2",
            annual_gallons=9e7,
            distribution_system="S",
            **town,
            monthly_gallons=tuple(v * 5e5 for v in months),
        ),
    ]
    decisions = [
        *wu.screen(items, as_of=E2025).decisions,
        wu.past_unpermitted_fees(items[0], 2026),
        wu.late_payment_penalty(500, "2026-01-15", "2026-03-01", "2026-06-01", subject="M1"),
    ]
    registered = {spec.id for spec in wu.WATER_RULES.values()}
    assert {d.rule_id for d in decisions} == registered


def test_the_water_rules_are_the_water_use_entries_of_the_one_rule_spec():
    """WATER_RULES is a view of rules/spec.py (domain water_use), each key the id's last part."""
    assert list(wu.WATER_RULES.values()) == list(rule_spec.rules_of(domain="water_use"))
    for key, rule in wu.WATER_RULES.items():
        assert rule_spec.RULE_SPECS[rule.id] is rule and rule.id.endswith("." + key)
        assert rule.outcomes and all(WaterOutcome(o) for o in rule.outcomes), key
    assert wu.WaterRuleSpec is rule_spec.Rule


def _fee_group() -> list[Appropriation]:
    months = tuple(float(v) for v in (10, 10, 10, 10, 20, 30, 40, 30, 20, 10, 10, 10))
    town = dict(entity="Town", entity_type="municipality", use="municipal")
    return [
        A(
            permit_id=pid,
            annual_gallons=gallons,
            distribution_system="S",
            **town,
            monthly_gallons=tuple(v * scale for v in months),
        )
        for pid, gallons, scale in (("M1", 2e8, 1e6), ("M2", 9e7, 5e5))
    ]


#: Screenings whose every trace row must name a water-use rule of the spec (the rules of
#: § 103G.271 they reach, by subdivision).
TRACE_SCENARIOS = [
    pytest.param(
        lambda: wu.screen(_fee_group(), as_of=E2025).decisions,
        id="subd. 1, 4, 4a, 4b, 5, 5a, 5b, 6(a)-(h): entity and distribution system, 2025",
    ),
    pytest.param(
        lambda: wu.screen(_fee_group(), as_of=GAP).decisions,
        id="subd. 1-6 between the editions (indeterminate or agreed)",
    ),
    pytest.param(
        lambda: (
            wu.screen([A(annual_gallons=900_000, gallons_per_day=5_000)], as_of=E2018).decisions
        ),
        id="subd. 4(a): minimum use, 2018",
    ),
    pytest.param(
        lambda: [wu.past_unpermitted_fees(_fee_group()[0], 2026)], id="subd. 6a: past years"
    ),
    pytest.param(
        lambda: [
            wu.late_payment_penalty(500, "2026-01-15", "2026-03-01", "2026-06-01", subject="M1")
        ],
        id="subd. 6(e): late payment penalty",
    ),
]


@pytest.mark.parametrize("decide", TRACE_SCENARIOS)
def test_every_water_use_rule_id_in_a_trace_is_in_the_rule_spec(decide):
    rows = [d.trace_row() for d in decide()]
    assert rows
    for row in rows:
        rule = rule_spec.RULE_SPECS.get(row["rule_id"])
        assert rule is not None and rule.domain == "water_use", row["rule_id"]
        assert row["outcome"] in (*rule.outcomes, "indeterminate"), row


def test_the_docs_table_is_the_one_generated_from_the_spec():
    text = (ROOT / "docs" / "water_use.md").read_text(encoding="utf-8")
    start, end = "<!-- water-use-rule-table:start -->\n", "<!-- water-use-rule-table:end -->"
    assert text.split(start, 1)[1].split(end, 1)[0] == wu_framework.rule_table(), (
        "regenerate docs/water_use.md: python tools/spec_docs.py --write"
    )


def test_the_docs_table_lists_every_registered_rule_with_its_subdivisions():
    text = (ROOT / "docs" / "water_use.md").read_text(encoding="utf-8")
    section = text.split("## The rules (rule ids of the trace)")[1].split("\n## ")[0]
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]+) \|", section, flags=re.MULTILINE)
    assert [rule_id for rule_id, _ in rows] == [s.id for s in wu.WATER_RULES.values()]
    for (rule_id, statute), spec in zip(rows, wu.WATER_RULES.values(), strict=True):
        for citation in spec.citations:
            assert citation.removeprefix(f"{STATUTE}, subd. ") in statute, (rule_id, citation)


def _code_strings(path: Path) -> list[ast.Constant]:
    """Return the string constants of a module's code (f-string parts too), not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_the_statute_prefix_is_written_once_in_the_rule_spec_not_in_the_water_use_code():
    """The water-use code builds every citation with ``rules.spec.cite``: neither the
    prefix nor the cited statute is written in it; the section is written once, in the spec."""
    written = [
        f"{path.name}:{node.lineno}"
        for path in sorted(Path(wu.__file__).parent.glob("*.py"))
        for node in _code_strings(path)
        if STATUTE in node.value or rule_spec.STATUTE_PREFIX in node.value
    ]
    assert written == [], written
    spec_strings = [n.value for n in _code_strings(Path(rule_spec.__file__))]
    assert spec_strings.count(rule_spec.WATER_USE_SECTION) == 1
    assert wu_framework.STATUTE == STATUTE
    assert wu.RULE_IDS and all(
        c.startswith(STATUTE) for spec in wu.WATER_RULES.values() for c in spec.citations
    )


@pytest.mark.parametrize(
    ("county", "listed"),
    [
        ("Hennepin", True),
        ("hennepin county", True),
        ("St. Louis County", False),
        ("Olmsted", False),
    ],
    ids=["as written", "case and County", "not listed", "outstate"],
)
def test_one_function_says_whether_a_county_is_in_a_list(county, listed):
    """Subd. 4a (2018) and 5a read county lists; the screening's metro column reads the same."""
    from wetland_gis.water_use.restrictions import county_in_list

    counties = wu.water_use_parameters().value("water_use.metropolitan_county.counties", E2018)
    assert county_in_list(county, counties) is listed
    d = wu.mt_simon_hinckley(
        A(county=county, mt_simon_hinckley=True, permit_action="existing"), as_of=E2018
    )
    assert (d.outcome == OUT.NOT_APPLICABLE and "not one" in " ".join(d.reasons)) is not listed
