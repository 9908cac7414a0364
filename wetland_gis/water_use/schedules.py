"""Fees of past years and of late payment: Minn. Stat. § 103G.271, subd. 6a and 6(e).

:func:`past_unpermitted_fees` gives the schedule of fees for the years of unpermitted
appropriation before the notification (each year at its own edition's fee), and
:func:`late_payment_penalty` the penalty on an unpaid balance. Both return a
:class:`~wetland_gis.water_use.framework.WaterDecision` with a ``schedule``.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from wetland_gis.errors import ParameterNotInForce
from wetland_gis.parameters import ParameterSet, as_date
from wetland_gis.rules.facts import PERCENT, fmt_number
from wetland_gis.water_use.amounts import _money, _usd, exact
from wetland_gis.water_use.editions import editions_for, water_use_parameters
from wetland_gis.water_use.facts import MONTHS, Appropriation, FeeReadings, _check_amount
from wetland_gis.water_use.fees import processing_fee
from wetland_gis.water_use.framework import (
    RULE_IDS,
    WaterDecision,
    WaterOutcome,
    _Rec,
    _Result,
    _single,
)


def _decided(
    rec: _Rec,
    outcome: WaterOutcome,
    value: Fraction | None,
    inputs: Mapping[str, Any],
    day: dt.date,
) -> WaterDecision:
    """Return the decision of a schedule computed under one edition, as of ``day``."""
    return _single(_Result(rec, outcome, value, inputs), as_of=day.isoformat())


def _year_end(year: int) -> dt.date:
    """Return December 31 of ``year``."""
    december = len(MONTHS)
    return dt.date(year, december, calendar.monthrange(year, december)[1])


def past_unpermitted_fees(
    a: Appropriation,
    notified_year: int,
    *,
    first_unpermitted_year: int | None = None,
    params: ParameterSet | None = None,
    readings: FeeReadings | None = None,
) -> WaterDecision:
    """Return the schedule of fees for past unpermitted appropriation (subd. 6a).

    Parameters
    ----------
    a : Appropriation
        Its ``annual_gallons`` is taken as each past year's amount (say otherwise by
        screening each year).
    notified_year : int
        The year the entity was notified of the need for a permit.
    first_unpermitted_year : int, optional
        The first year of unpermitted appropriation (default: the whole look-back).

    Returns
    -------
    WaterDecision
        ``schedule`` holds one row per year (year, edition, outcome, fee); ``value`` is the
        total when every year's fee is known, else ``None`` (outcome ``indeterminate``).

    Notes
    -----
    Reading: "the previous seven calendar years after being notified" are the calendar
    years before the year of notification. Each year's fee uses the edition of that year:
    years between the editions whose fee differs are indeterminate, and years before the
    first edition have no known fee.
    """
    params = params if params is not None else water_use_parameters()
    readings = readings or FeeReadings()
    day = _year_end(notified_year)
    ed = editions_for(day, params)[-1]
    rec = _Rec(RULE_IDS["past_years"], a.permit_id, params, ed)
    key = "water_use.fee.past_unpermitted_years"
    years = int(rec.value(key))
    rec.ref(key)
    past = range(notified_year - years, notified_year)
    if first_unpermitted_year is not None:
        past = range(max(past.start, first_unpermitted_year), past.stop)
    rows = [_past_year(a, year, params, readings) for year in past]
    total: Fraction | None = Fraction(0)
    for row in rows:
        if row["fee_usd"] is None:
            total = None
        elif total is not None:
            total += exact(row["fee_usd"])
    rec.rows = rows
    rec.because(
        f"Fees for unpermitted appropriation are due for the {years} calendar years "
        f"before {notified_year}, the year of notification (reading 'calendar years "
        "before the notification year'), each at the fee of that year, in addition to "
        "any other fee or penalty."
    )
    if a.use == "hydropower" or a.once_through:
        rec.check(
            "The commissioner may waive these fees for a residential system permitted "
            "under subd. 5(b) or a hydroelectric or hydromechanical facility."
        )
    if total is None:
        rec.because("A year's fee is not known (see the schedule): no total is given.")
        rec.check("The fee of each year marked indeterminate or not assessed.")
        return _decided(rec, WaterOutcome.INDETERMINATE, None, a.facts(), day)
    return _decided(rec, WaterOutcome.SCHEDULE, total, a.facts(), day)


def _past_year(
    a: Appropriation, year: int, params: ParameterSet, readings: FeeReadings
) -> dict[str, Any]:
    """Return the schedule row of one past year: its edition, outcome and fee."""
    try:
        d = processing_fee(a, as_of=_year_end(year), params=params, readings=readings)
    except ParameterNotInForce:
        return {
            "year": year,
            "edition": "",
            "outcome": "not_assessed",
            "fee_usd": None,
            "note": "no edition of § 103G.271 is held for this year",
        }
    return {
        "year": year,
        "edition": d.edition,
        "outcome": d.outcome.value,
        "fee_usd": d.value,
        "note": "; ".join(d.flags),
    }


def late_payment_penalty(
    unpaid_usd: float,
    due_date: str | dt.date,
    second_notice_date: str | dt.date,
    on: str | dt.date,
    *,
    subject: str = "",
    params: ParameterSet | None = None,
) -> WaterDecision:
    """Return the late-payment penalty schedule of subd. 6(e).

    Parameters
    ----------
    unpaid_usd : float
        The unpaid balance of fees.
    due_date, second_notice_date, on : str or date
        The original due date, the date the second notice was sent, and the date the
        penalty is computed for.

    Returns
    -------
    WaterDecision
        ``value`` is the penalty owed on ``on``; ``schedule`` one row per month.

    Notes
    -----
    Reading 'simple': ten percent (the parameter) of the unpaid balance for each whole month
    elapsed from the original due date, not compounded, imposed only once the balance
    remains unpaid the grace days after the second notice.
    """
    params = params if params is not None else water_use_parameters()
    due, notice, day = as_date(due_date), as_date(second_notice_date), as_date(on)
    _check_amount(unpaid_usd, "unpaid_usd", subject)
    ed = editions_for(day, params)[-1]
    rec = _Rec(RULE_IDS["penalty"], subject, params, ed)
    pct_key = "water_use.fee.penalty_percent_per_month"
    grace_key = "water_use.fee.penalty_grace_days"
    pct = exact(rec.value(pct_key)) / PERCENT
    grace = int(rec.value(grace_key))
    rec.ref(pct_key)
    inputs = {
        "unpaid_usd": unpaid_usd,
        "due_date": due.isoformat(),
        "second_notice_date": notice.isoformat(),
        "on": day.isoformat(),
    }
    start = notice + dt.timedelta(days=grace)
    if day <= start:
        rec.because(
            f"The balance has not remained unpaid {grace} days after the second notice "
            f"({start.isoformat()}): no penalty yet."
        )
        return _decided(rec, WaterOutcome.NO_FEE, Fraction(0), inputs, day)
    months = (day.year - due.year) * len(MONTHS) + day.month - due.month
    if day.day < due.day:
        months -= 1
    balance = exact(unpaid_usd)
    rows = []
    for k in range(1, months + 1):
        rows.append({"month": k, "penalty_usd": _money(balance * pct * k)})
    penalty = balance * pct * max(months, 0)
    rec.rows = rows
    rec.because(
        f"Unpaid {_usd(balance)} remains past {start.isoformat()}: "
        f"{fmt_number(float(pct * PERCENT))} percent a month from the original due date "
        f"{due.isoformat()}, {months} whole month(s) to {day.isoformat()}, "
        f"{_usd(penalty)} (reading 'simple', not compounded)."
    )
    rec.check("Whether the DNR compounds the penalty or counts part months.")
    rec.check("Failure to pay is sufficient cause for revoking the permit (subd. 6(e)).")
    return _decided(rec, WaterOutcome.FEE, penalty, inputs, day)
