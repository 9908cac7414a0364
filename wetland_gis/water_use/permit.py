"""Is a water-use permit required? Minn. Stat. § 103G.271, subd. 1 and 4.

One step per function: the uses outside the section (subd. 1(b)), the minimum-use exemption
(subd. 4(a)) and local approval below the intermediate amount (subd. 4(b)); the public rule
:func:`permit_required` runs them in that order.
"""

from __future__ import annotations

from typing import Any

from wetland_gis.rules.facts import fmt_number
from wetland_gis.water_use.amounts import _gal
from wetland_gis.water_use.editions import cite_subd
from wetland_gis.water_use.facts import Appropriation, _all_true, _unknown
from wetland_gis.water_use.framework import WaterOutcome, _Rec, _water_rule, fmt_value

_PERMIT = "water_use.permit."
_COMMISSIONER = "the commissioner does not require a permit under § 103G.287, subd. 4(b)"


def _permit_required(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return whether a water-use permit is required (subd. 1(a), 1(b), 4(a), 4(b)).

    The public :func:`permit_required` is a :class:`WaterRule`: ``permit_required(a,
    as_of=None, params=None)``.

    Returns
    -------
    WaterDecision
        ``permit_not_required``, ``permit_required``, ``local_approval`` or
        ``indeterminate``.

    Notes
    -----
    Subd. 4(a) needs both conditions: less than the daily amount **and** no more than the
    annual amount. An unknown daily amount does not satisfy it.
    """
    rec.cite(cite_subd("1(a)"))
    if _domestic_supply(a, rec) or _hydropower_structure(a, rec) or _stormwater_facility(a, rec):
        return WaterOutcome.NOT_REQUIRED, None
    if a.annual_gallons is None:
        rec.because(
            "The annual amount is not given: a permit is required unless an exemption is shown."
        )
        rec.check("The amount appropriated in the year.")
        return WaterOutcome.REQUIRED, None
    day_key, year_key = _PERMIT + "minimum_daily", _PERMIT + "minimum_annual"
    rec.value(day_key)  # both limits are recorded, in this order, before they are compared
    rec.value(year_key)
    annual_ok = rec.passes(year_key, a.annual_gallons)
    daily_ok = None if a.gallons_per_day is None else rec.passes(day_key, a.gallons_per_day)
    rec.ref(day_key)
    if _minimum_use(a, rec, a.annual_gallons, annual_ok, daily_ok):
        return WaterOutcome.NOT_REQUIRED, None
    if _local_approval(rec, a.annual_gallons, over=not annual_ok or daily_ok is False):
        return WaterOutcome.LOCAL_APPROVAL, None
    return WaterOutcome.REQUIRED, None


def _domestic_supply(a: Appropriation, rec: _Rec) -> bool:
    """Return whether a domestic supply for fewer persons is outside the section (1(b)(1))."""
    if a.use != "domestic":
        return False
    key = _PERMIT + "domestic_persons"
    if a.persons_served is None:
        rec.because(
            "The use is domestic but the number of persons served is not given, "
            "so the exemption of subd. 1(b)(1) cannot be applied."
        )
        rec.check("The number of persons the domestic water supply serves.")
        return False
    if not rec.passes(key, a.persons_served):
        return False
    rec.ref(key)
    rec.because(
        f"A water supply for domestic purposes used by "
        f"{fmt_number(a.persons_served)} persons, less than "
        f"{fmt_value(rec.value(key))}, is outside the "
        "section."
    )
    rec.check(f"That {_COMMISSIONER}.")
    return True


def _hydropower_structure(a: Appropriation, rec: _Rec) -> bool:
    """Return whether a diversion at an old hydropower structure is outside it (1(b)(2))."""
    if a.use != "hydropower":
        return False
    flags = (a.nonconsumptive, a.hydro_structure_existing)
    if a.source == "surface" and _all_true(*flags):
        key = _PERMIT + "hydropower_structures_before"
        rec.ref(key)
        rec.because(
            "A nonconsumptive diversion of surface water for hydroelectric or "
            f"hydromechanical power at a structure in existence on and before "
            f"{fmt_value(rec.value(key))} is outside the section."
        )
        rec.check("That the structure was in existence on and before that date.")
        return True
    if _unknown(*flags):
        rec.check(
            "Whether the hydropower diversion is nonconsumptive and at a structure "
            "in existence on and before the subd. 1(b)(2) date."
        )
    return False


def _stormwater_facility(a: Appropriation, rec: _Rec) -> bool:
    """Return whether stormwater from constructed facilities is outside it (1(b)(3))."""
    if a.use != "stormwater":
        return False
    if a.stormwater_facility is True:
        rec.cite(cite_subd("1(b)(3)"))
        rec.because(
            "Stormwater collected and used, extracted from constructed stormwater "
            "management facilities, is outside the section."
        )
        rec.check(
            "That the water is extracted from constructed management facilities for stormwater."
        )
        return True
    if a.stormwater_facility is None:
        rec.check(
            "Whether the stormwater is extracted from constructed stormwater "
            "management facilities (subd. 1(b)(3))."
        )
    return False


def _minimum_use(
    a: Appropriation, rec: _Rec, annual: float, annual_ok: bool, daily_ok: bool | None
) -> bool:
    """Return whether the minimum-use exemption of subd. 4(a) applies (both conditions).

    ``annual_ok``: the year's amount is within the annual amount; ``daily_ok``: the daily
    amount is less than the daily one (None: not given, which does not satisfy it).
    """
    daily_limit = rec.value(_PERMIT + "minimum_daily")
    annual_limit = rec.value(_PERMIT + "minimum_annual")
    if a.local_permit is True:
        rec.because(
            "A local permit under § 103B.211, subd. 4 is not covered by the "
            "minimum-use exemption of subd. 4(a)."
        )
    elif (
        annual_ok
        and daily_ok
        and a.gallons_per_day is not None  # daily_ok says it is given
        and a.commissioner_requires is not True
    ):
        rec.because(
            f"{_gal(a.gallons_per_day)} per day is less than "
            f"{_gal(daily_limit)} per day and {_gal(annual)} a year is "
            f"no more than {_gal(annual_limit)}: the minimum-use exemption of "
            "subd. 4(a) applies (both conditions)."
        )
        _minimum_use_checks(a, rec)
        return True
    elif annual_ok and daily_ok is None:
        rec.because(
            f"{_gal(annual)} a year is no more than "
            f"{_gal(annual_limit)}, but the gallons per day are not given: the "
            "minimum-use exemption of subd. 4(a) needs both conditions."
        )
        rec.check(
            f"The largest daily amount (the exemption needs less than {_gal(daily_limit)} per day)."
        )
    elif a.commissioner_requires is True and annual_ok and daily_ok:
        rec.because(
            "The amounts are within subd. 4(a), but the commissioner requires a "
            "permit under § 103G.287, subd. 4(b)."
        )
    else:
        over = []
        if not annual_ok:
            over.append(f"{_gal(annual)} a year is more than {_gal(annual_limit)}")
        if daily_ok is False and a.gallons_per_day is not None:  # False: it is given
            over.append(
                f"{_gal(a.gallons_per_day)} per day is not less than {_gal(daily_limit)} per day"
            )
        rec.because(
            " and ".join(over).capitalize() + ": the minimum-use exemption of "
            "subd. 4(a) does not apply and a water-use permit is required."
        )
    return False


def _minimum_use_checks(a: Appropriation, rec: _Rec) -> None:
    """Record what a person must still verify for an exemption under subd. 4(a)."""
    if a.commissioner_requires is None:
        rec.check(f"That {_COMMISSIONER}.")
    if a.local_permit is None:
        rec.check("That no local permit under § 103B.211, subd. 4 is involved.")
    if a.permit_action == "existing":
        rec.because(
            "An existing permit stays in force until it is terminated, and the "
            "processing fee is due for each permit in force during the year "
            "(subd. 6(a))."
        )


def _local_approval(rec: _Rec, annual: float, *, over: bool) -> bool:
    """Return whether the permit is processed locally, below the intermediate amount (4(b)).

    ``over``: the appropriation is more than the minimum amount of subd. 4(a).
    """
    key = _PERMIT + "intermediate_amount"
    intermediate = rec.value(key)
    if intermediate is None:
        rec.check(
            "Whether the permit is processed at the municipal, county or regional "
            "level (subd. 4(b)): the intermediate amount is prescribed by rule and not "
            "held here; supply it as water_use.permit.intermediate_amount."
        )
        return False
    if not (over and rec.passes(key, annual)):
        return False
    rec.ref(key)
    rec.because(
        f"More than the minimum amount but less than the intermediate amount of "
        f"{_gal(intermediate)}: the permit is processed and approved at the "
        "municipal, county or regional level (subd. 4(b))."
    )
    return True


permit_required = _water_rule(_permit_required)
