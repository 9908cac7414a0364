"""Units and the joint application reporting convention (not law: measurement).

The international foot is exactly 0.3048 m; an acre is 43,560 square feet.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from wetland_gis.errors import InvalidAreaError

FOOT_M = 0.3048
"""Metres in one international foot (exact)."""

SQFT_PER_SQM = 1.0 / (FOOT_M * FOOT_M)
"""Square feet in one square metre."""

SQFT_PER_ACRE = 43_560.0
"""Square feet in one acre."""


def round_half_up(value: float, places: int) -> Decimal:
    """Round a number as it is written, half up: the one rounding of every number shown.

    The number is read as its shortest decimal text (``repr``: ``2.615`` is 2.615, not the
    binary 2.61499999...), then rounded half away from zero to ``places`` decimals, so a
    value shows the same wherever it is shown (issue 30: a report showed 2.615 as 2.61 in
    one table and 2.62 in another). Values are rounded once, at display; nothing computed
    is rounded.

    Parameters
    ----------
    value : float
        A finite number.
    places : int
        Decimals kept (0 for whole numbers).

    Returns
    -------
    Decimal

    Examples
    --------
    >>> round_half_up(2.615, 2), round_half_up(2.625, 2), round_half_up(-0.5, 0)
    (Decimal('2.62'), Decimal('2.63'), Decimal('-1'))
    """
    return Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def display_number(value: float, places: int = 2, *, trim: bool = False) -> str:
    """Return a number as a person reads it: :func:`round_half_up`, thousands separators.

    Parameters
    ----------
    value : float
        A finite number.
    places : int, default 2
        Decimals shown.
    trim : bool, default False
        Drop trailing zeros (and the point): ``2.50`` -> ``2.5``, ``3.00`` -> ``3``.

    Returns
    -------
    str

    Examples
    --------
    >>> display_number(2.615), display_number(12500.0, 0), display_number(2.5, trim=True)
    ('2.62', '12,500', '2.5')
    >>> display_number(-0.001, 2, trim=True), display_number(-0.001, 2)
    ('0', '0.00')
    """
    text = f"{round_half_up(value, places):,}"
    if text.startswith("-") and not text.strip("-0.,"):
        text = text[1:]  # no "-0.00"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


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
        return f"{display_number(value, 0)} sq ft"
    acres = (exact / acre).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)  # exact quotient
    return f"{acres:,} ac"
