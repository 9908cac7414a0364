"""The water-use permit processing fee, Minn. Stat. § 103G.271, subd. 6 and 6a (issue 10).

Both sides of every clause boundary of subd. 6(a) in both editions; the total-amount rule;
the boundary readings; once-through rates; minimums; caps per permit and per entity; the
summer surcharge by edition; past unpermitted years and the late penalty as schedules.
"""

from __future__ import annotations

import pytest
from helpers import paragraph_params
from hypothesis import given, settings, strategies as st

from wetland_gis.water_use import rules as wu
from wetland_gis.water_use.rules import Appropriation, FeeReadings, WaterOutcome

E2018, E2025, GAP = "2018-06-01", "2026-06-01", "2022-06-01"
OUT = WaterOutcome
MG = 1_000_000
FLAT = {E2018: 140, E2025: 200}
# clause (2)..(11) rates per 1,000,000 gallons, lower bound in millions of gallons
RATES = {
    E2018: [
        (50, 3.5),
        (100, 4),
        (150, 4.5),
        (200, 5),
        (250, 5.5),
        (300, 6),
        (350, 6.5),
        (400, 7),
        (450, 7.5),
        (500, 8),
    ],
    E2025: [
        (50, 6),
        (100, 7),
        (150, 8),
        (200, 9),
        (250, 10),
        (300, 11),
        (350, 12),
        (400, 13),
        (450, 14),
        (500, 15),
    ],
}


def fee(gallons, as_of, **kw):
    readings = kw.pop("readings", None)
    return wu.processing_fee(
        Appropriation("P", annual_gallons=gallons, **kw), as_of=as_of, readings=readings
    )


def _cases():
    for as_of, label in ((E2018, "2018"), (E2025, "2025")):
        yield pytest.param(
            as_of,
            50 * MG,
            "(1)",
            FLAT[as_of],
            id=f"{label} 6(a)(1) exactly 50,000,000 is 'not exceeding': flat fee",
        )
        yield pytest.param(as_of, 1, "(1)", FLAT[as_of], id=f"{label} 6(a)(1) one gallon")
        rates = RATES[as_of]
        for i, (low, rate) in enumerate(rates):
            clause = f"({i + 2})"
            yield pytest.param(
                as_of,
                low * MG + 1,
                clause,
                round(rate * (low * MG + 1) / MG, 2),
                id=f"{label} 6(a){clause} one gallon over {low},000,000",
            )
            if i + 1 < len(rates):
                high = rates[i + 1][0]
                yield pytest.param(
                    as_of,
                    high * MG - 1,
                    clause,
                    round(rate * (high * MG - 1) / MG, 2),
                    id=f"{label} 6(a){clause} one gallon under {high},000,000",
                )


@pytest.mark.parametrize(("as_of", "gallons", "clause", "expected"), list(_cases()))
def test_fee_schedule_on_both_sides_of_every_clause(as_of, gallons, clause, expected):
    d = fee(gallons, as_of)
    assert d.outcome == OUT.FEE
    assert d.amounts["clause"] == clause
    assert d.value == pytest.approx(expected, abs=0.005)
    assert "fee_at_boundary" not in d.flags


def test_the_rate_applies_to_the_total_amount_not_marginally():
    # 120,000,000 gallons in clause (3): $4 x 120 = $480, not $140 + $3.50 x 50 + $4 x 20
    assert fee(120 * MG, E2018).value == 480.0
    assert fee(120 * MG, E2025).value == 840.0


@pytest.mark.parametrize("as_of", [E2018, E2025], ids=["2018", "2025"])
@pytest.mark.parametrize("boundary", [100, 150, 200, 250, 300, 350, 400, 450, 500])
def test_exact_boundaries_in_no_clause_are_read_and_flagged(boundary, as_of):
    rates = dict(RATES[as_of])
    lower = [r for low, r in RATES[as_of] if low < boundary][-1]
    upper = rates[boundary]
    d = fee(boundary * MG, as_of)
    assert "fee_at_boundary" in d.flags
    assert d.value == pytest.approx(upper * boundary)  # next_clause, the higher
    assert d.amounts["fee_other_reading"] == pytest.approx(lower * boundary)
    assert any("boundary in no clause" in v for v in d.verify)
    prev = fee(boundary * MG, as_of, readings=FeeReadings(boundary="previous_clause"))
    assert prev.value == pytest.approx(lower * boundary)
    assert "fee_at_boundary" in prev.flags


def test_the_default_boundary_reading_is_not_the_permittee_favourable_one():
    d = fee(100 * MG, E2018)
    assert d.value > d.amounts["fee_other_reading"]


@pytest.mark.parametrize(
    ("kw", "as_of", "expected"),
    [
        pytest.param(
            dict(once_through="cooling", entity_type="school_district"),
            E2018,
            200 * 2,
            id="6(b)(1) school district $200 per million",
        ),
        pytest.param(
            dict(once_through="cooling", entity_type="nonprofit"),
            E2025,
            200 * 2,
            id="6(b)(1) nonprofit 2025",
        ),
        pytest.param(
            dict(once_through="cooling", entity_type="business"),
            E2025,
            420 * 2,
            id="6(b)(2) other users $420 per million",
        ),
    ],
)
def test_once_through_cooling_rates(kw, as_of, expected):
    assert fee(2 * MG, as_of, **kw).value == expected


def test_6c_minimum_fee_applies_to_a_small_once_through_fee():
    d = fee(100_000, E2025, once_through="cooling", entity_type="business")
    assert d.value == 100.0  # $42 raised to the $100 minimum


def test_5c_thermal_exchange_pays_the_6a_schedule():
    d = fee(60 * MG, E2018, once_through="thermal_exchange", returns_all_water=True)
    assert d.amounts["clause"] == "(2)" and d.value == pytest.approx(210.0)


@pytest.mark.parametrize(
    ("kw", "outcome", "cite"),
    [
        pytest.param(dict(entity_type="state_agency"), OUT.NO_FEE, "6(e)", id="6(e) agency"),
        pytest.param(
            dict(entity_type="federal_agency"), OUT.NO_FEE, "6(e)", id="6(e) federal agency"
        ),
        pytest.param(
            dict(use="flood_control", source="surface"),
            OUT.NO_FEE,
            "6(d)(6)",
            id="6(d)(6) flood control surface water",
        ),
        pytest.param(dict(use="stormwater"), OUT.WAIVED, "6(g)", id="6(g) stormwater runoff"),
        pytest.param(
            dict(use="water_quality_treatment", entity_type="county", returns_to_source=True),
            OUT.WAIVED,
            "6(g)",
            id="6(g) public entity water quality diversion",
        ),
    ],
)
def test_no_fee_and_waivers(kw, outcome, cite):
    d = fee(30 * MG, E2025, **kw)
    assert d.outcome == outcome and d.value == 0
    assert any(c.endswith(cite) for c in d.citations)


def test_1c_general_permit_below_15_million_pays_no_fee_and_at_it_pays():
    assert fee(14_999_999, E2025, general_permit=True).outcome == OUT.NO_FEE
    assert fee(15_000_000, E2025, general_permit=True).value == 200.0


# --------------------------------------------------------------------------- 6(f)

IRR = "agricultural_irrigation"
# (f) amount and the clause (1) flat fee: 2018 "$20" and "$140"; 1Sp2025 "$100" and "$200"
F_MIN = {E2018: 20.0, E2025: 100.0}
F_CASES = [
    # (id, as_of, facts, reading, fee, the alternative reading's fee)
    ("6(f)(1) 2018 no appropriation, default: the $20 (f) amount", E2018,
     dict(annual_gallons=0), "paragraph_f", 20.0, 140.0),
    ("6(f)(1) 2025 no appropriation, default: the $100 (f) amount", E2025,
     dict(annual_gallons=0), "paragraph_f", 100.0, 200.0),
    ("6(f)(1) 2018 no appropriation, floor: clause (1) $140 stands", E2018,
     dict(annual_gallons=0), "floor", 140.0, 20.0),
    ("6(f)(1) 2025 no appropriation, floor: clause (1) $200 stands", E2025,
     dict(annual_gallons=0), "floor", 200.0, 100.0),
    ("6(f)(1) 2018 one gallon is an appropriation: clause (1) $140", E2018,
     dict(annual_gallons=1), "paragraph_f", 140.0, None),
    ("6(f)(1) 2025 one gallon is an appropriation: clause (1) $200", E2025,
     dict(annual_gallons=1), "paragraph_f", 200.0, None),
    ("6(f)(2) 2018 suspended 8 days: more than seven, $20", E2018,
     dict(annual_gallons=3 * MG, irrigation_suspended_days=8), "paragraph_f", 20.0, 140.0),
    ("6(f)(2) 2018 suspended exactly 7 days: not more than seven, $140", E2018,
     dict(annual_gallons=3 * MG, irrigation_suspended_days=7), "paragraph_f", 140.0, None),
    ("6(f)(2) 2025 suspended 8 days: $100", E2025,
     dict(annual_gallons=3 * MG, irrigation_suspended_days=8), "paragraph_f", 100.0, 200.0),
    ("6(f)(2) 2025 suspended exactly 7 days: $200", E2025,
     dict(annual_gallons=3 * MG, irrigation_suspended_days=7), "paragraph_f", 200.0, None),
    ("6(f)(2) 2018 suspended, 60,000,000 gallons: a minimum is not a maximum, clause (2)", E2018,
     dict(annual_gallons=60 * MG, irrigation_suspended_days=8), "paragraph_f", 210.0, None),
    ("6(f)(2) 2025 suspended, 60,000,000 gallons: clause (2) $360", E2025,
     dict(annual_gallons=60 * MG, irrigation_suspended_days=8), "paragraph_f", 360.0, None),
    ("6(f)(2) 2018 suspended, 60,000,000 gallons, fee_is_minimum: $20", E2018,
     dict(annual_gallons=60 * MG, irrigation_suspended_days=8), "fee_is_minimum", 20.0, 210.0),
    ("6(f)(1) 2025 fee_is_minimum: $100, as the default", E2025,
     dict(annual_gallons=0), "fee_is_minimum", 100.0, None),
    ("6(f)(2) 2018 suspended, 280,000,000 gallons: (d)(3) cap $750 under the default", E2018,
     dict(annual_gallons=280 * MG, irrigation_suspended_days=8), "paragraph_f", 750.0, None),
    ("6(f) 2018 landscape irrigation is not agricultural land: clause (1) $140", E2018,
     dict(annual_gallons=0, use="landscape_irrigation"), "paragraph_f", 140.0, None),
    ("6(f) 2025 landscape irrigation is not agricultural land: clause (1) $200", E2025,
     dict(annual_gallons=0, use="landscape_irrigation"), "paragraph_f", 200.0, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("as_of", "facts", "reading", "expected", "other"),
    paragraph_params(F_CASES),
)
def test_6f_irrigation_minimum_by_reading_and_edition(as_of, facts, reading, expected, other):
    facts = {"use": IRR, **facts}
    d = fee(
        facts.pop("annual_gallons"),
        as_of,
        readings=FeeReadings(irrigation_minimum=reading),
        **facts,
    )
    assert d.outcome == OUT.FEE and d.value == expected
    differs = "irrigation_reading_differs" in d.flags
    assert differs is (other is not None)
    if other is not None:  # the alternative's result is shown beside the answer
        assert d.amounts["irrigation_minimum_reading"] == reading
        assert d.amounts["fee_irrigation_alternative"] == other
        assert any(
            "subd. 6(f)" in v and f"'{reading}'" in v and wu._usd(other) in v for v in d.verify
        ), d.verify
    else:
        assert not any("reading of subd. 6(f)" in v for v in d.verify)


def test_6f_default_reading_gives_paragraph_f_an_effect_and_floor_is_the_alternative():
    assert FeeReadings().irrigation_minimum == "paragraph_f"
    assert wu.IRRIGATION_MINIMUM_READINGS[0] == "paragraph_f"
    assert "floor" in wu.IRRIGATION_MINIMUM_READINGS
    d = fee(0, E2018, use=IRR)
    assert d.amounts["irrigation_alternative_reading"] == "floor"
    assert d.amounts["fee_by_irrigation_reading"] == {
        "paragraph_f": 20.0,
        "floor": 140.0,
        "fee_is_minimum": 20.0,
    }
    assert any(c.endswith("subd. 6(f)(1)") for c in d.citations)
    assert any("'paragraph_f'" in r for r in d.reasons)
    # under floor the (f) amount never changes a fee: clause (1) is flat and above it
    assert (
        fee(0, E2018, use=IRR, readings=FeeReadings(irrigation_minimum="floor")).value
        == FLAT[E2018]
    )


def test_6f_between_the_editions_the_irrigation_minimum_is_indeterminate_with_both_figures():
    d = fee(0, GAP, use=IRR)
    assert d.outcome == OUT.INDETERMINATE and d.value is None
    assert (d.amounts["value_2018"], d.amounts["value_2025"]) == (20.0, 100.0)


@pytest.mark.parametrize(
    ("as_of", "reading", "asks"),
    [
        pytest.param(E2018, "paragraph_f", True, id="6(f)(2) 2018 unknown suspension is asked"),
        pytest.param(E2025, "paragraph_f", True, id="6(f)(2) 2025 unknown suspension is asked"),
        pytest.param(E2018, "floor", False, id="6(f)(2) 2018 floor: it would not change the fee"),
    ],
)
def test_6f2_an_unknown_suspension_is_not_assumed_and_is_asked_when_it_matters(
    as_of, reading, asks
):
    d = fee(3 * MG, as_of, use=IRR, readings=FeeReadings(irrigation_minimum=reading))
    assert d.value == FLAT[as_of]  # not the (f) amount: the fact is not given
    asked = [v for v in d.verify if "irrigation_suspended_days" in v]
    assert bool(asked) is asks
    if asks:
        assert wu._usd(F_MIN[as_of]) in asked[0]
    stated = fee(3 * MG, as_of, use=IRR, irrigation_suspended_days=0)
    assert not any("irrigation_suspended_days" in v for v in stated.verify)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=1_000_000_000),
    st.sampled_from([None, 0, 7, 8, 30]),
    st.sampled_from([E2018, E2025]),
)
def test_6f_the_default_lies_between_fee_is_minimum_and_floor(gallons, days, as_of):
    """The readings order: fee_is_minimum <= paragraph_f (default) <= floor; outside an (f)
    year they agree."""
    kw = {"use": IRR, "irrigation_suspended_days": days}
    got = {
        r: fee(gallons, as_of, readings=FeeReadings(irrigation_minimum=r), **kw).value
        for r in ("paragraph_f", "floor", "fee_is_minimum")
    }
    assert got["fee_is_minimum"] <= got["paragraph_f"] <= got["floor"]
    if gallons > 0 and (days is None or days <= 7):
        assert len(set(got.values())) == 1


@pytest.mark.parametrize(
    ("as_of", "gallons", "expected"),
    [
        pytest.param(E2018, 280 * MG, 750.0, id="6(d)(3) 2018 irrigation capped at $750"),
        pytest.param(E2025, 280 * MG, 1500.0, id="6(d)(3) 2025 irrigation capped at $1,500"),
        pytest.param(E2018, 180 * MG, 750.0, id="6(d)(3) 2018 $810 capped"),
        pytest.param(E2018, 160 * MG, 720.0, id="6(d)(3) 2018 $720 under the cap"),
    ],
)
def test_agricultural_irrigation_cap(as_of, gallons, expected):
    assert fee(gallons, as_of, use="agricultural_irrigation").value == expected


def test_hydropower_and_cogeneration_caps():
    hydro = fee(2_000 * MG, E2025, use="hydropower", source="surface")
    assert hydro.value == 5000.0
    cogen = fee(2_000 * MG, E2025, use="cogeneration", entity_type="municipality")
    assert cogen.value == 10000.0


# --------------------------------------------------------------------------- entity caps


def _one(pid, gallons, entity="", held=None, etype="business", **kw):
    return Appropriation(
        pid,
        entity=entity,
        entity_type=etype,
        annual_gallons=gallons,
        gallons_per_day=1e6,
        permits_held=held,
        data_center=False,
        bulk_sale=False,
        **kw,
    )


def _entity(n, gallons, etype="business", held=None):
    return [_one(f"P{i}", gallons, entity="E", held=held, etype=etype) for i in range(n)]


@pytest.mark.parametrize(
    ("as_of", "n", "gallons", "cap"),
    [
        pytest.param(E2018, 3, 5_000 * MG, 60_000, id="6(d)(2)(i) 2018 three permits $60,000"),
        pytest.param(E2018, 4, 5_000 * MG, 90_000, id="6(d)(2)(ii) 2018 four permits $90,000"),
        pytest.param(E2018, 6, 10_000 * MG, 300_000, id="6(d)(2)(iii) 2018 six permits $300,000"),
        pytest.param(E2025, 3, 5_000 * MG, 75_000, id="6(d)(2)(i) 2025 $75,000"),
        pytest.param(E2025, 5, 5_000 * MG, 125_000, id="6(d)(2)(ii) 2025 five permits"),
        pytest.param(E2025, 6, 10_000 * MG, 400_000, id="6(d)(2)(iii) 2025 $400,000"),
    ],
)
def test_entity_cap_sums_the_permits(as_of, n, gallons, cap):
    items = _entity(n, gallons, held=n)
    r = wu.screen(items, as_of=as_of)
    d = r.decision("E", "cap")
    assert d.value == cap and "fee_capped" in d.flags
    totals = [r.decision(a.permit_id, "total").value for a in items]
    assert sum(totals) == pytest.approx(cap, abs=0.01 * n)


def test_entity_cap_sums_permits_each_under_the_cap():
    # each permit alone ($40,000 in 2018) is under $60,000; together ($120,000) they are not
    r = wu.screen(_entity(3, 5_000 * MG, held=3), as_of=E2018)
    assert r.decision("P0", "fee").value == 40_000
    assert r.decision("E", "cap").value == 60_000
    assert r.decision("P0", "total").value == pytest.approx(20_000)


def test_unknown_permits_held_uses_the_highest_cap():
    r = wu.screen(_entity(2, 5_000 * MG), as_of=E2018)
    d = r.decision("E", "cap")
    assert d.amounts["cap"] == 300_000 and any("permits" in v for v in d.verify)


def test_first_class_city_cap():
    r = wu.screen(_entity(1, 35_000 * MG, etype="city_first_class", held=1), as_of=E2018)
    assert r.decision("E", "cap").value == 250_000
    r25 = wu.screen(_entity(1, 35_000 * MG, etype="city_first_class", held=1), as_of=E2025)
    assert r25.decision("E", "cap").value == 325_000


# 10,000,000,000 gallons: clause (11), 2018 $8 x 10,000 = $80,000; 2025 $15 x 10,000 = $150,000
NO_ENTITY_CASES = [
    # (id, as_of, entity, permits_held, entity_type, total fee, cap decision value)
    ("6(d)(2)(i) 2018 no entity, one permit held: capped as its own entity at $60,000",
     E2018, "", 1, "business", 60_000, 60_000),
    ("6(d)(2)(i) 2025 no entity, one permit held: capped as its own entity at $75,000",
     E2025, "", 1, "business", 75_000, 75_000),
    ("6(d)(2)(iii) 2018 no entity, permits held unknown: highest cap, $80,000 stands",
     E2018, "", None, "business", 80_000, 80_000),
    ("6(d)(1) 2018 no entity, a city of the first class: $80,000 under $250,000",
     E2018, "", None, "city_first_class", 80_000, 80_000),
    ("6(d)(2)(i) 2018 blank-looking entity is no entity",
     E2018, "   ", 1, "business", 60_000, 60_000),
    ("6(d)(2)(i) 2018 named entity, one permit: capped under its name",
     E2018, "E", 1, "business", 60_000, 60_000),
]  # fmt: skip


@pytest.mark.parametrize(
    ("as_of", "entity", "held", "etype", "total", "cap"),
    paragraph_params(NO_ENTITY_CASES),
)
def test_a_permit_without_entity_is_capped_as_its_own_entity_and_asks_for_it(
    as_of, entity, held, etype, total, cap
):
    r = wu.screen([_one("P", 10_000 * MG, entity, held, etype)], as_of=as_of)
    assert r.decision("P", "total").value == total
    named = bool(entity.strip())
    d = r.decision("E" if named else "P", "cap")
    assert d.value == cap
    missing = [v for v in d.verify if "column entity" in v]
    assert bool(missing) is not named and ("entity_missing" in d.flags) is not named
    if not named:
        assert "P" in missing[0] and "6(d)" in missing[0]
        assert d.inputs["entity"] == ""
        assert not any(x.subject == "" for x in r.decisions)


def test_permits_without_entity_are_not_summed_into_one_cap():
    """Two unnamed permits are two entities: neither shares the other's cap."""
    r = wu.screen([_one("P1", 10_000 * MG, held=1), _one("P2", 10_000 * MG, held=1)], as_of=E2018)
    assert [r.decision(p, "total").value for p in ("P1", "P2")] == [60_000, 60_000]
    named = wu.screen(
        [_one("P1", 10_000 * MG, "E", held=2), _one("P2", 10_000 * MG, "E", held=2)],
        as_of=E2018,
    )
    assert [named.decision(p, "total").value for p in ("P1", "P2")] == [30_000, 30_000]


def test_an_unnamed_permit_whose_id_is_an_entity_name_keeps_both_caps():
    r = wu.screen(
        [_one("A", 10_000 * MG, "B", held=1), _one("B", 10_000 * MG, held=1)], as_of=E2018
    )
    assert r.decision("B", "cap").inputs["permits"] == ["A"]
    alone = r.decision("B (no entity)", "cap")
    assert alone.inputs["permits"] == ["B"] and "entity_missing" in alone.flags
    assert r.decision("B", "total").value == 60_000


def test_a_permit_without_entity_whose_fee_is_unknown_still_names_the_missing_entity():
    r = wu.screen([_one("P", None)], as_of=E2018)
    d = r.decision("P", "cap")
    assert d.outcome == OUT.VERIFY and any("column entity" in v for v in d.verify)


def test_once_through_cooling_without_entity_has_no_cap_decision():
    r = wu.screen(
        [_one("P", 10_000 * MG, once_through="cooling", permit_action="existing")], as_of=E2018
    )
    with pytest.raises(KeyError):
        r.decision("P", "cap")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=20_000), min_size=2, max_size=6),
    st.sampled_from([E2018, E2025]),
    st.booleans(),
)
def test_a_missing_entity_never_lowers_a_permits_fee(millions, as_of, held_known):
    """Capping an unnamed permit alone never gives less than its share of its holder's cap."""
    n = len(millions)
    held = n if held_known else None
    items = [_one(f"P{i}", m * MG, "E", held) for i, m in enumerate(millions)]
    with_entity = wu.screen(items, as_of=as_of)
    items[0] = _one("P0", millions[0] * MG, "", held)
    without = wu.screen(items, as_of=as_of)
    assert without.decision("P0", "total").value >= with_entity.decision("P0", "total").value


def test_once_through_cooling_is_outside_the_entity_caps():
    items = [
        Appropriation(
            "C",
            entity="E",
            once_through="cooling",
            source="surface",
            permit_action="existing",
            annual_gallons=1_000 * MG,
            permits_held=1,
        )
    ]
    r = wu.screen(items, as_of=E2018)
    assert r.decision("C", "total").value == 420_000
    with pytest.raises(KeyError):
        r.decision("E", "cap")


# --------------------------------------------------------------------------- surcharge


def _months(jan, summer):
    return tuple([jan] * 4 + [summer] * 5 + [jan] * 3)


@pytest.mark.parametrize(
    ("as_of", "expected"),
    [
        pytest.param(E2018, 3 * 10 * 30, id="6(h) 2018 June-August at $30"),
        pytest.param(E2025, 5 * 10 * 50, id="6(h) 2025 May-September at $50"),
    ],
)
def test_summer_surcharge_by_edition(as_of, expected):
    a = Appropriation(
        "G",
        use="golf_course_irrigation",
        annual_gallons=100 * MG,
        monthly_gallons=_months(5 * MG, 15 * MG),
        data_center=False,
    )
    r = wu.screen([a], as_of=as_of)
    assert r.decision("G", "surcharge").value == expected


def test_surcharge_only_on_volume_above_january():
    a = Appropriation(
        "G",
        use="landscape_irrigation",
        annual_gallons=60 * MG,
        monthly_gallons=_months(5 * MG, 5 * MG),
    )
    assert wu.screen([a], as_of=E2025).decision("G", "surcharge").value == 0


def test_surcharge_is_not_for_industrial_use():
    a = Appropriation(
        "I", use="industrial", annual_gallons=60 * MG, monthly_gallons=_months(1 * MG, 9 * MG)
    )
    with pytest.raises(KeyError):
        wu.screen([a], as_of=E2025).decision("I", "surcharge")


def test_surcharge_of_a_common_distribution_system_is_summed_then_shared():
    # A alone: January high, summer low; B alone: summer high. Summed they differ from the
    # sum of separate surcharges.
    a, b = (
        Appropriation(
            pid,
            entity="City",
            entity_type="municipality",
            use="municipal",
            annual_gallons=60 * MG,
            monthly_gallons=months,
            distribution_system="S1",
        )
        for pid, months in (("A", _months(10 * MG, 0)), ("B", _months(0, 10 * MG)))
    )
    r = wu.screen([a, b], as_of=E2018)
    system = r.decision("S1", "surcharge")
    assert system.value == 0  # system: 10 MG every month, no month above January
    separate = wu.screen(
        [
            Appropriation(
                "B2", use="municipal", annual_gallons=60 * MG, monthly_gallons=_months(0, 10 * MG)
            )
        ],
        as_of=E2018,
    )
    assert separate.decision("B2", "surcharge").value == 3 * 10 * 30


def test_surcharge_without_monthly_volumes_asks_for_them():
    a = Appropriation("M", use="municipal", annual_gallons=60 * MG)
    r = wu.screen([a], as_of=E2025)
    assert r.decision("M", "surcharge").outcome == OUT.VERIFY
    assert r.decision("M", "total").value is None


# --------------------------------------------------------------------------- 6a, 6(e)


def test_6a_schedule_covers_the_seven_years_before_notification_by_edition():
    a = Appropriation("U", annual_gallons=75 * MG)
    d = wu.past_unpermitted_fees(a, 2019)
    years = [r["year"] for r in d.schedule]
    assert years == list(range(2012, 2019))
    by_year = {r["year"]: r for r in d.schedule}
    assert by_year[2018]["fee_usd"] == 262.5 and by_year[2018]["edition"] == "2018"
    assert by_year[2017]["outcome"] == "not_assessed"
    assert d.outcome == OUT.INDETERMINATE and d.value is None
    assert d.as_of == "2019-12-31"  # an indeterminate schedule says its date too


def test_6a_schedule_in_the_2025_edition_only_sums():
    a = Appropriation("U", annual_gallons=75 * MG)
    d = wu.past_unpermitted_fees(a, 2033, first_unpermitted_year=2030)
    assert [r["year"] for r in d.schedule] == [2030, 2031, 2032]
    assert d.outcome == OUT.SCHEDULE and d.value == 3 * 450.0
    assert d.as_of == "2033-12-31"


def test_6a_years_between_the_editions_are_indeterminate():
    d = wu.past_unpermitted_fees(Appropriation("U", annual_gallons=75 * MG), 2026)
    assert {r["outcome"] for r in d.schedule} == {"indeterminate"}


@pytest.mark.parametrize(
    ("on", "expected"),
    [
        pytest.param("2026-03-31", 0.0, id="6(e) 30 days after the second notice: no penalty"),
        pytest.param("2026-04-01", 100 * 0.1 * 2, id="6(e) day 31: two whole months"),
        pytest.param("2026-06-15", 100 * 0.1 * 5, id="6(e) five months from the due date"),
    ],
)
def test_late_penalty_schedule(on, expected):
    d = wu.late_payment_penalty(100, "2026-01-15", "2026-03-01", on)
    assert d.value == pytest.approx(expected)
    if expected:
        assert len(d.schedule) == round(expected / 10)
        assert d.schedule[-1]["penalty_usd"] == pytest.approx(expected)


# --------------------------------------------------------------------------- properties


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=0, max_value=3_000_000_000),
    st.integers(min_value=1, max_value=50_000_000),
    st.sampled_from([E2018, E2025]),
)
def test_fee_never_decreases_with_the_amount(gallons, more, as_of):
    assert fee(gallons + more, as_of).value >= fee(gallons, as_of).value


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=3_000_000_000),
    st.sampled_from([E2018, E2025]),
    st.sampled_from(["business", "nonprofit", "school_district"]),
    st.sampled_from([None, "cooling"]),
)
def test_a_fee_is_never_below_the_minimum(gallons, as_of, etype, ot):
    d = fee(gallons, as_of, entity_type=etype, once_through=ot)
    assert d.value >= 100.0


@pytest.mark.parametrize(
    ("use", "words"),
    [
        ("cogeneration", "cogenerates steam for home heating"),
        ("hydropower", "temporarily diverts a water of the state from its natural channel"),
    ],
)
def test_the_cogeneration_and_hydropower_caps_name_the_facts_they_need(use, words):
    """Subd. 6(d)(4), (d)(5): a cap lowers the fee only with a verify item naming its facts."""
    d = wu.processing_fee(
        Appropriation("P", annual_gallons=9e9, use=use, entity_type="municipality"), as_of=E2018
    )
    assert "fee_capped" in d.flags
    assert any(words in v for v in d.verify), d.verify


@pytest.mark.parametrize(
    ("readings", "message"),
    [
        ({"boundary": "nearest"}, r"boundary reading was 'nearest' but is expected to be one of"),
        (
            {"irrigation_minimum": "none"},
            r"irrigation minimum reading was 'none' but is expected to be one of",
        ),
    ],
)
def test_an_unknown_fee_reading_is_refused_with_the_allowed_readings(readings, message):
    from wetland_gis.errors import RulesInputError

    with pytest.raises(RulesInputError, match=message):
        FeeReadings(**readings)
