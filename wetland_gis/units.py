"""Units and the joint application reporting convention (not law: measurement).

The international foot is exactly 0.3048 m; an acre is 43,560 square feet.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from wetland_gis.errors import InvalidAreaError

__all__ = ["FOOT_M", "SQFT_PER_SQM", "SQFT_PER_ACRE", "joint_application_area"]

FOOT_M = 0.3048
"""Metres in one international foot (exact)."""

SQFT_PER_SQM = 1.0 / (FOOT_M * FOOT_M)
"""Square feet in one square metre."""

SQFT_PER_ACRE = 43_560.0
"""Square feet in one acre."""


def joint_application_area(sqft: float) -> str:
    """Format an impact area the way the Minnesota joint application reports it.

    "Impacts less than 0.01 acre should be reported in square feet. Impacts 0.01 acre or
    greater should be reported as acres and rounded to the nearest 0.01 acre."
    (Minnesota / Corps joint application, 2014; rules-facts.md.) Both round half up.

    Parameters
    ----------
    sqft : float
        Area in square feet (international foot), 0 or more.

    Returns
    -------
    str
        E.g. ``"435 sq ft"``, ``"0.01 ac"``, ``"1.25 ac"``.

    Raises
    ------
    InvalidAreaError
        When ``sqft`` is not a number, or is negative, NaN or infinite.

    Examples
    --------
    >>> joint_application_area(435.6)
    '0.01 ac'
    >>> joint_application_area(435.5)
    '436 sq ft'
    >>> joint_application_area(43560)
    '1.00 ac'
    """
    try:
        value = float(sqft)
    except (TypeError, ValueError):
        raise InvalidAreaError(f"area {sqft!r} is not a number of square feet") from None
    if not math.isfinite(value) or value < 0:
        raise InvalidAreaError(f"area {sqft!r} sq ft must be a finite number, 0 or more")
    exact = Decimal(repr(value))
    acre = Decimal(repr(SQFT_PER_ACRE))
    if exact < acre / 100:
        return f"{int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP)):,} sq ft"
    acres = (exact / acre).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{acres:,} ac"
