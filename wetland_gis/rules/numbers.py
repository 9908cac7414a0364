"""Exact figures of the rules core: a figure read as written, as a :class:`decimal.Decimal`.

The one exact-number type of the rules core (docs/decisions.md). This module imports only
the standard library, so every rule module (the engine's and the exemptions') reads it.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from decimal import Decimal


def exact(value: float | Decimal) -> Decimal:
    """Return ``value`` as an exact decimal of the figure as written.

    A float is read through its shortest decimal representation (``repr``), the figure a
    person wrote: ``76827.2`` is ``Decimal("76827.2")``, not the binary double nearest to
    it. Reading the double itself would put 76,827.2 of 96,034 acres at 79.99999999999999
    percent, not 80, and push a value written exactly at a threshold across it. Integers
    and decimals are taken as they are. :class:`decimal.Decimal` is the one exact-number
    type of the rules core (docs/decisions.md); sums and products of figures as written are
    exact, a quotient is exact to 28 significant digits.

    Examples
    --------
    >>> exact(0.1) + exact(0.2) == exact(0.3)
    True
    """
    if type(value) is float:  # the common case first (the engine reads every area)
        return Decimal(repr(value))
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, numbers.Rational):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(repr(float(value)))


def exact_sum(values: Iterable[float | Decimal]) -> Decimal:
    """Return the exact sum of figures, each read as written (see :func:`exact`)."""
    return sum((exact(v) for v in values), Decimal(0))


#: Display only: the law's area amounts are all multiples of this many square feet, so a
#: fractional area that rounds to such a multiple keeps a decimal in a reason (fmt_sqft).
