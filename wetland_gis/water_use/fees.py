"""One permit's processing fee: Minn. Stat. § 103G.271, subd. 6(a)-(g) and 1(c).

:func:`processing_fee` is the fee of one permit before the caps that sum an entity's permits
(:mod:`wetland_gis.water_use.fee_totals`). One step per function: the permits that pay no
fee, the schedule of subd. 6(a) (or the once-through cooling rates of 6(b)), the minimum of
6(c) or the agricultural irrigation minimum of 6(f), and the per-permit caps of 6(d)(3)-(5).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.water_use.amounts import _gal, _money, _usd, exact
from wetland_gis.water_use.editions import cite_subd
from wetland_gis.water_use.facts import (
    _AGENCIES,
    _NONPROFIT_RATE,
    _PUBLIC,
    IRRIGATION_MINIMUM_READINGS,
    Appropriation,
    FeeReadings,
)
from wetland_gis.water_use.framework import (
    RULE_IDS,
    WaterDecision,
    WaterOutcome,
    _Rec,
    _run,
    fmt_value,
)

_FEE = "water_use.fee."


def _fee(
    a: Appropriation, rec: _Rec, readings: FeeReadings, permitted: bool = True
) -> tuple[WaterOutcome, Any]:
    """Return one permit's fee under one edition (see :func:`processing_fee`)."""
    rec.cite(cite_subd("6(a)"))
    no_fee = _no_fee_due(a, rec, permitted)
    if no_fee is not None:
        return no_fee, Fraction(0)
    if a.annual_gallons is None:
        rec.because("The amount appropriated in the year is not given.")
        rec.check("The amount appropriated in the year.")
        return WaterOutcome.VERIFY, None
    if a.general_permit and _general_permit_below_threshold(rec, a.annual_gallons):
        return WaterOutcome.NO_FEE, Fraction(0)
    fee = _schedule_fee(a, rec, a.annual_gallons, readings)
    idle = _irrigation_minimum_year(a, rec)
    if idle is None:
        fee = _minimum_fee(rec, fee)
    cap_key = _per_permit_cap_key(a)
    cap = None
    if cap_key:
        cap = exact(rec.value(_FEE + "cap." + cap_key))
    if idle is not None:
        fee = _irrigation_minimum(rec, fee, idle, readings, cap)
    elif a.use == "agricultural_irrigation" and a.irrigation_suspended_days is None:
        _ask_suspension(rec, fee, readings, cap)
    if cap_key and cap is not None:
        fee = _per_permit_cap(rec, fee, cap_key, cap)
    return WaterOutcome.FEE, fee


def _no_fee_due(a: Appropriation, rec: _Rec, permitted: bool) -> WaterOutcome | None:
    """Return ``no_fee`` or ``fee_waived`` when the permit pays nothing, else None.

    No permit required; an agency (6(e)); surface water against flooding (6(d)(6));
    stormwater or a public entity's water quality diversion returned to its source (6(g)).
    """
    if not permitted:
        rec.because("No water-use permit is required, so no permit processing fee is due.")
        return WaterOutcome.NO_FEE
    if a.entity_type in _AGENCIES:
        rec.cite(cite_subd("6(e)"))
        rec.because(
            "A fee may not be imposed on an agency (§ 16B.01, subd. 2) or federal "
            "governmental agency holding a water appropriation permit."
        )
        rec.check(
            "That the permittee is an agency as defined in § 16B.01, subd. 2, or a "
            "federal governmental agency (definition not held here)."
        )
        return WaterOutcome.NO_FEE
    if a.use == "flood_control" and a.source == "surface":
        rec.cite(cite_subd("6(d)(6)"))
        rec.because(
            "No fee is required for appropriating surface water to prevent flood "
            "damage or remove floodwaters during a period of flooding."
        )
        rec.check("The commissioner's determination of the period of flooding.")
        return WaterOutcome.NO_FEE
    if a.use == "stormwater" or (
        a.use == "water_quality_treatment"
        and a.entity_type in _PUBLIC
        and a.returns_to_source is True
    ):
        rec.cite(cite_subd("6(g)"))
        rec.because(
            "The fee is waived for installations and projects that use stormwater "
            "runoff, or where public entities divert water to treat a water quality "
            "issue and return it to its source without other use."
        )
        rec.check(
            "That the commissioner has not determined that the use adversely affects "
            "surface water or groundwater."
        )
        return WaterOutcome.WAIVED
    if a.use == "water_quality_treatment" and a.returns_to_source is None:
        rec.check(
            "Whether the water is returned to its source without other use (the waiver "
            "of subd. 6(g))."
        )
    return None


def _general_permit_below_threshold(rec: _Rec, gallons: float) -> bool:
    """Return whether uses under a state general permit total less than the no-fee amount."""
    key = "water_use.permit.general_permit_no_fee"
    if not rec.passes(key, gallons):
        return False
    rec.ref(key)
    rec.because(
        f"Under a state general permit no fee is required for uses totaling "
        f"less than {_gal(rec.value(key))} annually."
    )
    return True


def _schedule_fee(a: Appropriation, rec: _Rec, gallons: float, readings: FeeReadings) -> Fraction:
    """Return the fee of the year's amount: the once-through cooling rate, else subd. 6(a)."""
    volume = exact(rec.value(_FEE + "rate_volume"))
    rec.amounts["annual_gallons"] = float(gallons)
    if a.once_through != "cooling":
        return _clause_fee(rec, gallons, readings)
    key = _FEE + (
        "once_through_nonprofit_rate"
        if a.entity_type in _NONPROFIT_RATE
        else "once_through_other_rate"
    )
    rate = exact(rec.value(key))
    rec.ref(key)
    fee = rate * exact(gallons) / volume
    rec.extra.update(clause="6(b)", rate=float(rate))
    rec.because(
        f"A once-through cooling system: {_usd(rate)} per {_gal(volume)}, "
        f"{_usd(fee)}; the caps of subd. 6(d) do not apply to it."
    )
    return fee


def _clause_fee(rec: _Rec, gallons: float, readings: FeeReadings) -> Fraction:
    """Return the subd. 6(a) fee on the total amount, recording the clause used."""
    key = "water_use.fee.schedule"
    rows = rec.value(key)
    rec.ref(key)
    volume = exact(rec.value("water_use.fee.rate_volume"))
    got = exact(gallons)

    def inside(row: Mapping[str, Any]) -> bool:
        ok = True
        if row.get("at_most") is not None:
            ok = ok and got <= exact(row["at_most"])
        if row.get("greater_than") is not None:
            ok = ok and got > exact(row["greater_than"])
        if row.get("less_than") is not None:
            ok = ok and got < exact(row["less_than"])
        return ok

    def fee_of(row: Mapping[str, Any]) -> Fraction:
        if row.get("usd") is not None:
            return exact(row["usd"])
        return exact(row["rate"]) * got / volume

    def words(row: Mapping[str, Any]) -> str:
        if row.get("usd") is not None:
            return f"{_usd(exact(row['usd']))} flat"
        return f"{_usd(exact(row['rate']))} per {_gal(volume)}"

    found = [r for r in rows if inside(r)]
    if found:
        row = found[0]
        fee = fee_of(row)
        rec.extra.update(clause=row["clause"], rate=row.get("rate"), flat_usd=row.get("usd"))
        rec.because(
            f"{_gal(gallons)} a year falls in clause {row['clause']} of subd. 6(a): "
            f"{words(row)}, applied to the total amount appropriated: {_usd(fee)}."
        )
        return fee
    below = [r for r in rows if r.get("less_than") is not None and exact(r["less_than"]) == got]
    above = [
        r for r in rows if r.get("greater_than") is not None and exact(r["greater_than"]) == got
    ]
    if not below or not above:
        raise RulesInputError(
            f"the subd. 6(a) schedule has a gap at {_gal(gallons)} that is "
            "not a boundary between two clauses; check water_use.yaml"
        )
    lower, upper = below[0], above[0]
    chosen, other = (upper, lower) if readings.boundary == "next_clause" else (lower, upper)
    fee, other_fee = fee_of(chosen), fee_of(other)
    rec.flag("fee_at_boundary")
    rec.extra.update(
        clause=chosen["clause"],
        rate=chosen.get("rate"),
        flat_usd=chosen.get("usd"),
        boundary_reading=readings.boundary,
        fee_other_reading=_money(other_fee),
    )
    rec.because(
        f'{_gal(gallons)} is exactly the boundary between clause {lower["clause"]} ("less '
        f'than {_gal(lower["less_than"])}") and clause {upper["clause"]} ("greater than '
        f'{_gal(upper["greater_than"])}") and is in neither. Under the reading '
        f"'{readings.boundary}' clause {chosen['clause']} applies ({words(chosen)}): "
        f"{_usd(fee)}; the other reading gives {_usd(other_fee)}."
    )
    rec.check(
        f"Which clause the DNR applies to exactly {_gal(gallons)} (a boundary in no "
        f"clause of subd. 6(a)): {_usd(fee)} or {_usd(other_fee)}."
    )
    return fee


def _minimum_fee(rec: _Rec, fee: Fraction) -> Fraction:
    """Return ``fee`` raised to the minimum fee of subd. 6(c) if it is less."""
    key = _FEE + "minimum"
    minimum = exact(rec.value(key))
    rec.ref(key)
    if fee < minimum:
        rec.because(f"{_usd(fee)} is less than the minimum fee of {_usd(minimum)}.")
        return minimum
    return fee


#: What a person confirms when a per-permit cap of subd. 6(d)(3)-(5) applies.
_PER_PERMIT_CAP_CHECKS = {
    "agricultural_irrigation": (
        "The (d)(3) cap is applied per permit (reading 'per permit'); check "
        "whether the DNR applies it per entity."
    ),
    "cogeneration": (
        "The (d)(4) cap is for a municipality that furnishes electric "
        "service and cogenerates steam for home heating, for its permit "
        "for the cogeneration of electricity and steam: confirm both."
    ),
    "hydropower": (
        "The (d)(5) cap is for a facility that temporarily diverts a water "
        "of the state from its natural channel to produce hydroelectric or "
        "hydromechanical power: confirm the diversion."
    ),
}


def _per_permit_cap(rec: _Rec, fee: Fraction, cap_key: str, cap: Fraction) -> Fraction:
    """Return ``fee`` under the per-permit cap ``cap_key`` of subd. 6(d)(3)-(5)."""
    rec.ref(_FEE + "cap." + cap_key)
    if fee > cap:
        rec.because(f"{_usd(fee)} is capped at {_usd(cap)} for this use.")
        fee = cap
        rec.flag("fee_capped")
    rec.check(_PER_PERMIT_CAP_CHECKS[cap_key])
    return fee


def _per_permit_cap_key(a: Appropriation) -> str | None:
    """Return the name of the per-permit cap of subd. 6(d)(3)-(5) over ``a``, if any."""
    if a.once_through == "cooling":
        return None
    if a.use == "cogeneration" and a.entity_type in ("municipality", "city_first_class"):
        return "cogeneration"
    return {"agricultural_irrigation": "agricultural_irrigation", "hydropower": "hydropower"}.get(
        a.use
    )


def _irrigation_minimum_year(a: Appropriation, rec: _Rec) -> str | None:
    """Return the clause of subd. 6(f) that makes the year an (f) year, or None.

    ``"(1)"``: "there is no appropriation of water under the permit"; ``"(2)"``: "the permit
    is suspended for more than seven consecutive days between May 1 and October 1". Only a
    permit for irrigation of agricultural land has such a year.
    """
    if a.use != "agricultural_irrigation" or a.annual_gallons is None:
        return None
    if a.annual_gallons == 0:
        return "(1)"
    key = "water_use.fee.irrigation_suspension_days"
    if a.irrigation_suspended_days is not None and rec.passes(key, a.irrigation_suspended_days):
        return "(2)"
    return None


def _irrigation_fees(
    fee: Fraction, minimum: Fraction, flat: bool, cap: Fraction | None
) -> dict[str, Fraction]:
    """Return the fee of an (f) year under each reading of subd. 6(f), after a per-permit cap.

    ``fee`` is the clause fee of subd. 6(a) (``flat``: a flat clause, i.e. clause (1)) and
    ``minimum`` the (f) amount.
    """
    by_reading = {
        # (a) applies "except as described in paragraphs (b) to (g)": the (f) minimum stands
        # in place of the flat clause (1) fee and of the (c) minimum; a rate clause above
        # it still applies (a minimum is not a maximum)
        "paragraph_f": minimum if flat else max(fee, minimum),
        "floor": max(fee, minimum),
        "fee_is_minimum": minimum,
    }
    if cap is not None:
        by_reading = {k: min(v, cap) for k, v in by_reading.items()}
    return by_reading


def _alternative_reading(chosen: str) -> str:
    """Return the reading whose result is shown beside ``chosen``'s (floor beside the default)."""
    default = IRRIGATION_MINIMUM_READINGS[0]
    return "floor" if chosen == default else default


def _fees_by_irrigation_reading(
    rec: _Rec, fee: Fraction, cap: Fraction | None
) -> tuple[Fraction, dict[str, Fraction]]:
    """Return the (f) amount and the fee of an (f) year under each reading of subd. 6(f)."""
    minimum = exact(rec.value(_FEE + "irrigation_minimum"))
    flat = rec.extra.get("flat_usd") is not None
    return minimum, _irrigation_fees(fee, minimum, flat, cap)


def _irrigation_minimum(
    rec: _Rec, fee: Fraction, clause: str, readings: FeeReadings, cap: Fraction | None
) -> Fraction:
    """Return the fee of a subd. 6(f) year under the chosen reading, naming the others.

    The per-permit cap of (d)(3) is applied by the caller; ``cap`` only makes the figures
    given for the other readings final.
    """
    minimum, fees = _fees_by_irrigation_reading(rec, fee, cap)
    rec.ref(_FEE + "irrigation_minimum")
    rec.cite(cite_subd(f"6(f){clause}"))
    chosen = readings.irrigation_minimum
    other = _alternative_reading(chosen)
    rec.extra["irrigation_minimum_reading"] = chosen
    rec.extra["irrigation_minimum_clause"] = f"6(f){clause}"
    rec.extra["fee_by_irrigation_reading"] = {k: _money(v) for k, v in fees.items()}
    rec.extra["irrigation_alternative_reading"] = other
    rec.extra["fee_irrigation_alternative"] = _money(fees[other])
    year = (
        "A year with no appropriation of water under the permit"
        if clause == "(1)"
        else "A year in which the permit was suspended for more than "
        f"{fmt_value(rec.value(_FEE + 'irrigation_suspension_days'))} consecutive "
        "days between May 1 and October 1"
    )
    words = {
        "paragraph_f": (
            'subd. 6(a) applies "except as described in paragraphs (b) to (g)", so the '
            f"(f) minimum of {_usd(minimum)} is the fee in place of the flat clause (1) fee "
            "and of the minimum of (c); a rate clause above it still applies"
        ),
        "floor": (
            f"the (f) amount of {_usd(minimum)} is only a floor under the clause fee of "
            "subd. 6(a), which applies in full"
        ),
        "fee_is_minimum": f"the fee is the (f) minimum, {_usd(minimum)}, whatever the amount",
    }
    rec.because(
        f"{year}, under a permit for irrigation of agricultural land (subd. 6(f){clause}): "
        f"under the reading '{chosen}' {words[chosen]}: {_usd(fees[chosen])}."
    )
    if fees[other] != fees[chosen]:
        rec.flag("irrigation_reading_differs")
        rec.because(f"The reading '{other}' ({words[other]}) gives {_usd(fees[other])}.")
        rec.check(
            f"Which reading of subd. 6(f) the DNR applies in a subd. 6(f){clause} year: "
            f"{_usd(fees[chosen])} ('{chosen}') or {_usd(fees[other])} ('{other}')."
        )
    return fees[chosen]


def _ask_suspension(rec: _Rec, fee: Fraction, readings: FeeReadings, cap: Fraction | None) -> None:
    """Ask for the suspension fact of subd. 6(f)(2) when it would change the fee."""
    suspended = _fees_by_irrigation_reading(rec, fee, cap)[1][readings.irrigation_minimum]
    if suspended == (fee if cap is None else min(fee, cap)):
        return
    days = fmt_value(rec.value(_FEE + "irrigation_suspension_days"))
    rec.because(
        "Whether the permit was suspended in the year is not given, so subd. 6(f)(2) is not "
        "applied (the fee is not understated)."
    )
    rec.check(
        f"Whether the permit was suspended for more than {days} consecutive days between "
        f"May 1 and October 1 (subd. 6(f)(2)): then the fee under the reading "
        f"'{readings.irrigation_minimum}' would be {_usd(suspended)} "
        "(irrigation_suspended_days)."
    )


def processing_fee(
    a: Appropriation,
    *,
    as_of: str | dt.date | None = None,
    params: ParameterSet | None = None,
    readings: FeeReadings | None = None,
    permitted: bool = True,
) -> WaterDecision:
    """Return one permit's processing fee before the per-entity caps (subd. 6(a)-(g), 1(c)).

    Parameters
    ----------
    a : Appropriation
    as_of : str or date, optional
        The fee year's date (default today).
    params : ParameterSet, optional
    readings : FeeReadings, optional
        Named readings (boundary amounts, irrigation minimum).
    permitted : bool, default True
        False when no permit is required: no fee.

    Returns
    -------
    WaterDecision
        ``value`` is the fee in USD (cents). The clause's stated fee is applied to the
        **total** amount appropriated, not to the part above the clause's lower bound.
        An amount exactly at a boundary that no clause holds (100,000,000, 150,000,000,
        ... 500,000,000 gallons) is resolved by ``readings.boundary`` and flagged
        ``fee_at_boundary`` with the other reading's fee.
    """
    readings = readings or FeeReadings()
    return _run(
        lambda rec: _fee(a, rec, readings, permitted),
        RULE_IDS["fee"],
        a.permit_id,
        a.facts(),
        as_of,
        params,
    )
