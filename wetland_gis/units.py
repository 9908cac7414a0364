"""Units and the joint application reporting convention (not law: measurement).

The international foot is exactly 0.3048 m; an acre is 43,560 square feet.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

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
    ValueError
        When ``sqft`` is negative, NaN or infinite.

    Examples
    --------
    >>> joint_application_area(435.6)
    '0.01 ac'
    >>> joint_application_area(435.5)
    '436 sq ft'
    >>> joint_application_area(43560)
    '1.00 ac'
    """
    value = Decimal(repr(float(sqft)))
    if not value.is_finite() or value < 0:
        raise ValueError(f"an area must be a finite number of square feet >= 0, got {sqft!r}")
    acres = value / Decimal(repr(SQFT_PER_ACRE))
    if acres < Decimal("0.01"):
        return f"{value.quantize(Decimal('1'), rounding=ROUND_HALF_UP):,} sq ft"
    return f"{acres.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):,} ac"
