"""How long a decision of the register is valid: § 103G.2242, subd. 2a(d).

A boundary or type determination is valid for the years of
``procedure.determination_validity_years`` from its date; the register
(:class:`wetland_gis.register.store.DecisionRecord`) refuses a later end date and fills a
missing one, and :mod:`wetland_gis.register.records` reads it for its records.
"""

from __future__ import annotations

import datetime as dt

from wetland_gis.errors import ParameterNotInForce, ValueParseError
from wetland_gis.parameters import ParameterSet, default_parameters

#: The decision kind whose validity the law limits (§ 103G.2242, subd. 2a(d)).
DETERMINATION = "boundary_type_determination"

_VALIDITY_KEY = "procedure.determination_validity_years"


def determination_end(
    decision_date: dt.date, params: ParameterSet | None = None
) -> tuple[dt.date | None, str]:
    """Return the last day a boundary or type determination is valid, and the citation.

    § 103G.2242, subd. 2a(d): "The local government unit decision is valid for five years
    unless the Technical Evaluation Panel determines that natural or artificial changes ...
    have been sufficient to alter the wetland boundary or type": the years of
    ``procedure.determination_validity_years`` in force on the decision date, counted from
    it, always (an end date the LGU records may be earlier, never later).

    Returns
    -------
    (date or None, str)
        ``None`` when the parameter tree holds no value in force on the decision date
        (the period then is not known: a determination so old is not used, and says so).

    Examples
    --------
    >>> determination_end(dt.date(2024, 2, 29))[0]
    datetime.date(2029, 2, 28)
    """
    params = params or default_parameters()
    try:
        years, cite = params.cited(_VALIDITY_KEY, decision_date)
    except ParameterNotInForce:
        return None, params.citation(_VALIDITY_KEY)
    try:
        end = decision_date.replace(year=decision_date.year + int(years))
    except ValueError:  # 29 February
        end = decision_date.replace(year=decision_date.year + int(years), day=28)
    return end, cite


def check_valid_until(
    kind: str,
    decision_date: dt.date,
    valid_until: dt.date | None,
    params: ParameterSet | None = None,
) -> dt.date | None:
    """Return a decision's end of validity: the one given, or the law's; refuse a later one.

    A boundary or type determination is valid for the years of § 103G.2242, subd. 2a(d)
    from its date: without an end date it ends then (never "valid forever"); an end date
    after it is an input error. The law gives no period for the other kinds.

    Raises
    ------
    ValueParseError
        When a determination's end date is after the law's, or before its decision date.

    Examples
    --------
    >>> check_valid_until("boundary_type_determination", dt.date(2024, 6, 1), None)
    datetime.date(2029, 6, 1)
    """
    if valid_until is not None and valid_until < decision_date:
        raise ValueParseError(
            f"valid_until {valid_until.isoformat()} is before the decision date "
            f"{decision_date.isoformat()}; give the last day the decision is valid"
        )
    if kind != DETERMINATION:
        return valid_until
    end, cite = determination_end(decision_date, params)
    if end is None:
        return valid_until
    if valid_until is None:
        return end
    if valid_until > end:
        raise ValueParseError(
            f"valid_until {valid_until.isoformat()} of a boundary or type determination of "
            f"{decision_date.isoformat()} is after {end.isoformat()}: the decision is valid for "
            f"five years from its date ({cite}); give {end.isoformat()} or an earlier date, or "
            "leave it blank"
        )
    return valid_until
